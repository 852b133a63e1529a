// Generates Pi agent-core (@mariozechner/pi-agent-core 0.73.1) event fixtures offline, using
// pi-ai's faux provider (registerFauxProvider) as the scripted model. Every event that
// agent.subscribe() delivers is written as one JSON line, exactly as emitted (JSON.stringify).
//
// Usage: npm ci && node gen.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '@mariozechner/pi-agent-core';
import { registerFauxProvider, fauxAssistantMessage, fauxToolCall, fauxText, Type } from '@mariozechner/pi-ai';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const text = (t) => ({ type: 'text', text: t });
const user = (t) => ({ role: 'user', content: [text(t)], timestamp: Date.now() });

function mkTool(name, description, props, run, delayMs = 3) {
  return {
    name,
    label: name,
    description,
    parameters: Type.Object(Object.fromEntries(props.map((p) => [p, Type.String()]))),
    async execute(_id, params, signal) {
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, delayMs);
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new Error('Tool aborted'));
        });
      });
      return { content: [text(run(params))], details: {} };
    },
  };
}
const getWeather = mkTool('get_weather', 'Current weather for a city.', ['city'], ({ city }) => `Weather in ${city}: 18C, light rain`);
const getLocalTime = mkTool('get_local_time', 'Local time in a city.', ['city'], ({ city }) => `Local time in ${city}: 14:05`, 2);
const getFx = mkTool('get_exchange_rate', 'Exchange rate.', ['from', 'to'], ({ from, to }) => `1 ${from} = 1.08 ${to}`, 4);
const buildReport = mkTool('build_report', 'Build a report outline.', ['topic'], ({ topic }) => `Outline for ${topic}: intro, numbers, outlook`, 5);

async function scenario(file, responses, tools, drive, fauxOpts = {}) {
  const faux = registerFauxProvider({ ...fauxOpts });
  faux.setResponses(responses);
  const agent = new Agent({
    initialState: {
      systemPrompt: 'You are a helpful assistant.',
      model: faux.getModel(),
      tools,
    },
    getApiKey: () => 'faux-key',
    toolExecution: 'parallel',
  });
  const events = [];
  const hooks = [];
  agent.subscribe(async (ev) => {
    events.push(JSON.stringify(ev));
    for (const h of hooks) await h(ev, agent);
  });
  let outcome;
  try {
    outcome = await drive(agent, (h) => hooks.push(h));
    await agent.waitForIdle();
  } catch (e) {
    outcome = `threw ${e?.message}`;
  }
  faux.unregister();
  fs.writeFileSync(path.join(HERE, file), events.join('\n') + '\n');
  const last = agent.state.messages.at(-1);
  console.log(`${file}: ${events.length} events; ${outcome ?? ''} last stopReason=${last?.stopReason} err=${agent.state.errorMessage ?? ''}`);
}

let n = 0;
const tc = (name, args) => fauxToolCall(name, args, { id: `toolu_faux_${String(++n).padStart(3, '0')}` });

// 03: steering message injected mid-turn (while the first tool runs); it enters the next step.
await scenario(
  '03_steering.events.jsonl',
  [
    fauxAssistantMessage([tc('get_weather', { city: 'Paris' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage([fauxText('Switching to Berlin.'), tc('get_weather', { city: 'Berlin' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage('Berlin: 18C, light rain.'),
  ],
  [getWeather],
  async (agent, on) => {
    let steered = false;
    on(async (ev, a) => {
      if (ev.type === 'tool_execution_start' && !steered) {
        steered = true;
        a.steer(user('Actually, I meant Berlin, not Paris.'));
      }
    });
    await agent.prompt('What is the weather in Paris?');
    return 'prompt resolved';
  },
);

// 04: follow-up queued during the first turn; it starts after the turn stops (new turn, same
// agent_start..agent_end).
await scenario(
  '04_follow_up.events.jsonl',
  [
    fauxAssistantMessage([tc('get_weather', { city: 'Paris' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage('Paris: 18C, light rain.'),
    fauxAssistantMessage([tc('get_local_time', { city: 'Paris' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage('It is 14:05 in Paris.'),
  ],
  [getWeather, getLocalTime],
  async (agent, on) => {
    let queued = false;
    on(async (ev, a) => {
      if (ev.type === 'tool_execution_start' && !queued) {
        queued = true;
        a.followUp(user('And what time is it there?'));
      }
    });
    await agent.prompt('What is the weather in Paris?');
    return 'prompt resolved';
  },
);

// 05: abort: agent.abort() while the second model call is in flight.
await scenario(
  '05_abort.events.jsonl',
  [
    fauxAssistantMessage([tc('build_report', { topic: 'Q3 sales' })], { stopReason: 'toolUse' }),
    async (_ctx, opts) => {
      await sleep(40); // the abort below lands while this "request" is pending
      return fauxAssistantMessage('Here is the full report ... (never delivered)');
    },
  ],
  [buildReport],
  async (agent, on) => {
    let turns = 0;
    on(async (ev, a) => {
      if (ev.type === 'turn_start' && ++turns === 2) setTimeout(() => a.abort(), 15);
    });
    await agent.prompt('Write the Q3 sales report.');
    return 'prompt resolved';
  },
);

// 06: provider/model error on the second model call (the provider request throws).
await scenario(
  '06_provider_error.events.jsonl',
  [
    fauxAssistantMessage([tc('get_weather', { city: 'Rome' })], { stopReason: 'toolUse' }),
    async () => {
      await sleep(5);
      throw new Error('529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    },
  ],
  [getWeather],
  async (agent) => {
    await agent.prompt('Weather in Rome?');
    return 'prompt resolved';
  },
);

// 07: parallel tool calls: one assistant message with three tool calls, executed in parallel.
await scenario(
  '07_parallel_tools.events.jsonl',
  [
    fauxAssistantMessage(
      [tc('get_weather', { city: 'Paris' }), tc('get_local_time', { city: 'Paris' }), tc('get_exchange_rate', { from: 'USD', to: 'EUR' })],
      { stopReason: 'toolUse' },
    ),
    fauxAssistantMessage('Paris: 18C and light rain, 14:05 local time; 1 USD = 1.08 EUR.'),
  ],
  [getWeather, getLocalTime, getFx],
  async (agent) => {
    await agent.prompt('Weather, time and USD rate for Paris?');
    return 'prompt resolved';
  },
);
