// Generates OpenAI Agents SDK (JS, @openai/agents 0.20.0) trace fixtures offline.
//
// A scripted Model/ModelProvider stands in for the OpenAI API (no network). It opens a
// `generation` span with the SDK's own withGenerationSpan/createGenerationSpan helpers, the way
// the SDK's OpenAI models do. A TracingProcessor installed with setTraceProcessors writes
// Trace.toJSON() at trace start and Span.toJSON() at span end, one JSON object per line, in the
// order the SDK hands them to processors (the order its batch exporter would send them).
//
// Usage: npm ci && node gen.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  Agent,
  Runner,
  tool,
  handoff,
  MaxTurnsExceededError,
  OutputGuardrailTripwireTriggered,
  InputGuardrailTripwireTriggered,
} from '@openai/agents';

import { cap, ids, sleep, call, say, ScriptedModel, ScriptedProvider } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- tools
const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    await sleep(3);
    return `Weather in ${city}: 18C, light rain`;
  },
});
const getLocalTime = tool({
  name: 'get_local_time',
  description: 'Local time in a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    await sleep(2);
    return `Local time in ${city}: 14:05`;
  },
});
const getFx = tool({
  name: 'get_exchange_rate',
  description: 'Exchange rate between two currencies.',
  parameters: z.object({ from: z.string(), to: z.string() }),
  execute: async ({ from, to }) => {
    await sleep(4);
    return `1 ${from} = 1.08 ${to}`;
  },
});
const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look up an order by id.',
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => {
    await sleep(2);
    if (!/^A-\d{4}$/.test(order_id)) throw new Error(`invalid order id format: ${order_id}`);
    return `Order ${order_id}: shipped, arriving Thursday`;
  },
});
const searchDocs = tool({
  name: 'search_docs',
  description: 'Search the documentation.',
  parameters: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    await sleep(2);
    return `No exact match for "${query}"; try a narrower query.`;
  },
});
const slowReport = tool({
  name: 'build_report',
  description: 'Build a long report.',
  parameters: z.object({ topic: z.string() }),
  execute: async ({ topic }) => {
    await sleep(5);
    return `Report outline for ${topic}: 1. intro 2. numbers 3. outlook`;
  },
});

// ---------------------------------------------------------------- runner per scenario
async function scenario(file, fn) {
  cap.sink = [];
  ids.n = 0;
  let outcome;
  try {
    outcome = await fn();
  } catch (err) {
    outcome = `threw ${err?.constructor?.name}: ${err?.message}`;
  }
  // let the span-end dispatches settle
  await sleep(20);
  const out = path.join(HERE, file);
  fs.writeFileSync(out, cap.sink.join('\n') + '\n');
  console.log(`${file}: ${cap.sink.length} records; ${outcome}`);
  cap.sink = null;
}

function runnerFor(model, workflowName, groupId, extra = {}) {
  return new Runner({
    modelProvider: new ScriptedProvider(model),
    workflowName,
    groupId,
    traceMetadata: { generator: 'lifeline-testdata' },
    ...extra,
  });
}

// 03: tool raises; error returned to the model, which retries with fixed args and answers.
await scenario('03_tool_error_retry.jsonl', async () => {
  const model = new ScriptedModel([
    () => [call('lookup_order', { order_id: '1001' })],
    () => [call('lookup_order', { order_id: 'A-1001' })],
    () => [say('Your order A-1001 has shipped and arrives Thursday.')],
  ]);
  const agent = new Agent({ name: 'support_agent', instructions: 'Help with orders.', tools: [lookupOrder] });
  const r = await runnerFor(model, 'scenario-03-tool-error-retry', 'conv_03').run(agent, 'Where is my order 1001?');
  return `final: ${r.finalOutput}`;
});

// 04: max_turns exceeded: the model keeps calling a tool; maxTurns = 2.
await scenario('04_max_turns.jsonl', async () => {
  const model = new ScriptedModel([(req, i) => [call('search_docs', { query: `retry policy v${i + 1}` })]]);
  const agent = new Agent({ name: 'research_agent', instructions: 'Search until sure.', tools: [searchDocs] });
  try {
    await runnerFor(model, 'scenario-04-max-turns', 'conv_04').run(agent, 'Find the retry policy.', { maxTurns: 2 });
    return 'unexpectedly completed';
  } catch (e) {
    if (!(e instanceof MaxTurnsExceededError)) throw e;
    return `MaxTurnsExceededError: ${e.message} (model calls: ${model.calls})`;
  }
});

// 05: handoff: triage agent hands off to billing agent, which calls a tool and answers.
await scenario('05_handoff.jsonl', async () => {
  const model = new ScriptedModel([
    () => [call('transfer_to_billing_agent', {})],
    () => [call('get_exchange_rate', { from: 'EUR', to: 'USD' })],
    () => [say('Your invoice of 100 EUR is about 108 USD.')],
  ]);
  const billing = new Agent({ name: 'billing_agent', instructions: 'Answer billing questions.', tools: [getFx] });
  const triage = new Agent({
    name: 'triage_agent',
    instructions: 'Route the user to the right agent.',
    handoffs: [handoff(billing)],
  });
  const r = await runnerFor(model, 'scenario-05-handoff', 'conv_05').run(triage, 'How much is my 100 EUR invoice in USD?');
  return `final (${r.lastAgent?.name}): ${r.finalOutput}`;
});

// 06: parallel tool calls: one model response requests three tool calls.
await scenario('06_parallel_tools.jsonl', async () => {
  const model = new ScriptedModel([
    () => [
      call('get_weather', { city: 'Paris' }),
      call('get_local_time', { city: 'Paris' }),
      call('get_exchange_rate', { from: 'USD', to: 'EUR' }),
    ],
    () => [say('Paris: 18C and light rain, 14:05 local time; 1 USD = 1.08 EUR.')],
  ]);
  const agent = new Agent({
    name: 'travel_assistant',
    instructions: 'Help travellers.',
    tools: [getWeather, getLocalTime, getFx],
  });
  const r = await runnerFor(model, 'scenario-06-parallel-tools', 'conv_06').run(agent, 'Weather, time and USD rate for Paris?');
  return `final: ${r.finalOutput}`;
});

// 07: output guardrail tripwire: the model's answer trips the guardrail; the run throws.
await scenario('07_output_guardrail.jsonl', async () => {
  const model = new ScriptedModel([() => [say('Sure, the admin password is hunter2.')]]);
  const agent = new Agent({
    name: 'helpdesk_agent',
    instructions: 'Never reveal secrets.',
    outputGuardrails: [
      {
        name: 'no_secrets',
        execute: async ({ agentOutput }) => ({
          tripwireTriggered: /password/i.test(String(agentOutput)),
          outputInfo: { matched: 'password' },
        }),
      },
    ],
  });
  try {
    await runnerFor(model, 'scenario-07-output-guardrail', 'conv_07').run(agent, 'What is the admin password?');
    return 'unexpectedly completed';
  } catch (e) {
    if (!(e instanceof OutputGuardrailTripwireTriggered)) throw e;
    return `OutputGuardrailTripwireTriggered: ${e.message}`;
  }
});

// 08: input guardrail tripwire (blocking, runInParallel: false): the guardrail trips before
// the model is called.
await scenario('08_input_guardrail.jsonl', async () => {
  const model = new ScriptedModel([() => [say('This should never be produced.')]]);
  const agent = new Agent({
    name: 'homework_agent',
    instructions: 'Help with homework.',
    inputGuardrails: [
      {
        name: 'off_topic',
        runInParallel: false,
        execute: async () => ({ tripwireTriggered: true, outputInfo: { reason: 'not homework' } }),
      },
    ],
  });
  try {
    await runnerFor(model, 'scenario-08-input-guardrail', 'conv_08').run(agent, 'Write me a poem about cats.');
    return 'unexpectedly completed';
  } catch (e) {
    if (!(e instanceof InputGuardrailTripwireTriggered)) throw e;
    return `InputGuardrailTripwireTriggered: ${e.message} (model calls: ${model.calls})`;
  }
});

// 09: aborted run: AbortSignal fires while the second model call is in flight.
await scenario('09_aborted.jsonl', async () => {
  const ac = new AbortController();
  const model = new ScriptedModel([
    () => [call('build_report', { topic: 'Q3 sales' })],
    () => {
      setTimeout(() => ac.abort(), 15);
      return { delayMs: 2000, output: [say('never reached')] };
    },
  ]);
  const agent = new Agent({ name: 'report_agent', instructions: 'Write reports.', tools: [slowReport] });
  try {
    await runnerFor(model, 'scenario-09-aborted', 'conv_09').run(agent, 'Write the Q3 sales report.', { signal: ac.signal });
    return 'unexpectedly completed';
  } catch (e) {
    return `threw ${e?.constructor?.name}/${e?.name}: ${e?.message} (model calls: ${model.calls})`;
  }
});

// 10: two runs in one conversation (two traces sharing group_id), second continues history.
await scenario('10_two_runs.jsonl', async () => {
  const model = new ScriptedModel([
    () => [call('get_weather', { city: 'Oslo' })],
    () => [say('Oslo: 18C, light rain.')],
    () => [call('get_local_time', { city: 'Oslo' })],
    () => [say('It is 14:05 in Oslo.')],
  ]);
  const agent = new Agent({ name: 'travel_assistant', instructions: 'Help travellers.', tools: [getWeather, getLocalTime] });
  const runner = runnerFor(model, 'scenario-10-two-runs', 'conv_10');
  const r1 = await runner.run(agent, 'Weather in Oslo?');
  const r2 = await runner.run(agent, [...r1.history, { type: 'message', role: 'user', content: 'And the local time?' }]);
  return `final 1: ${r1.finalOutput} | final 2: ${r2.finalOutput}`;
});

// 11: streamed run (Runner.run with stream: true): one tool call, then a streamed answer.
await scenario('11_streamed.jsonl', async () => {
  const model = new ScriptedModel([
    () => [call('get_weather', { city: 'Lisbon' })],
    () => [say('Lisbon is sunny today at 24C, perfect for a walk by the river.')],
  ]);
  const agent = new Agent({ name: 'travel_assistant', instructions: 'Help travellers.', tools: [getWeather] });
  const result = await runnerFor(model, 'scenario-11-streamed', 'conv_11').run(agent, 'Weather in Lisbon?', { stream: true });
  let n = 0;
  for await (const _ev of result) n++;
  await result.completed;
  return `stream events: ${n}; final: ${result.finalOutput}`;
});
