// Generates LangGraph JS (@langchain/langgraph 1.7.3 + @langchain/core 1.4.0) trace fixtures
// offline. A prebuilt createReactAgent runs with a scripted BaseChatModel (no network) and a
// MemorySaver checkpointer. Each scenario is ONE execution captured in three views at once:
//   <name>.stream_events_v2.jsonl     every event of graph.streamEvents(input, {version: "v2"})
//   <name>.run_tree.json              the root runs a BaseTracer hands to persistRun (child_runs)
//   <name>.langsmith_payloads.jsonl   the createRun/updateRun calls LangChainTracer makes to its
//                                     LangSmith client (the client is intercepted: no network)
//
// Usage: npm ci && node gen.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { MemorySaver } from '@langchain/langgraph';
import { ScriptedChatModel, RunTreeCollector, makeLangSmithCapture, sleep } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- tools
const getWeather = tool(
  async ({ city }) => {
    await sleep(3);
    return `Weather in ${city}: 18C, light rain`;
  },
  { name: 'get_weather', description: 'Get the current weather for a city.', schema: z.object({ city: z.string() }) },
);
const getLocalTime = tool(
  async ({ city }) => {
    await sleep(2);
    return `Local time in ${city}: 14:05`;
  },
  { name: 'get_local_time', description: 'Get the local time in a city.', schema: z.object({ city: z.string() }) },
);
const getFx = tool(
  async ({ from, to }) => {
    await sleep(4);
    return `1 ${from} = 1.08 ${to}`;
  },
  {
    name: 'get_exchange_rate',
    description: 'Exchange rate between two currencies.',
    schema: z.object({ from: z.string(), to: z.string() }),
  },
);
const lookupOrder = tool(
  async ({ order_id }) => {
    await sleep(2);
    throw new Error(`order database unavailable (order ${order_id})`);
  },
  { name: 'lookup_order', description: 'Look up an order by id.', schema: z.object({ order_id: z.string() }) },
);
const searchDocs = tool(
  async ({ query }) => {
    await sleep(2);
    return `No exact match for "${query}"; try a narrower query.`;
  },
  { name: 'search_docs', description: 'Search the documentation.', schema: z.object({ query: z.string() }) },
);
const buildReport = tool(
  async ({ topic }, config) => {
    // long-running tool; honours the abort signal LangGraph passes in the config
    await new Promise((resolve, reject) => {
      const t = setTimeout(resolve, 2000);
      config?.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new Error('Aborted'));
      });
    });
    return `Report for ${topic}`;
  },
  { name: 'build_report', description: 'Build a long report.', schema: z.object({ topic: z.string() }) },
);

// ---------------------------------------------------------------- scenario runner
async function runOnce(graph, input, config, events, tree, ls) {
  const stream = graph.streamEvents(input, {
    version: 'v2',
    ...config,
    callbacks: [tree, ls.tracer],
  });
  for await (const ev of stream) events.push(JSON.stringify(ev));
}

async function scenario(base, fn) {
  const events = [];
  const tree = new RunTreeCollector();
  const ls = makeLangSmithCapture();
  let outcome;
  try {
    outcome = await fn((graph, input, config) => runOnce(graph, input, config, events, tree, ls));
  } catch (e) {
    outcome = `threw ${e?.constructor?.name}: ${e?.message}`;
  }
  await sleep(50);
  // the only edit: this directory's absolute path (in error stack traces) → /home/user/demo-project
  const scrub = (s) => s.split(HERE).join('/home/user/demo-project');
  fs.writeFileSync(path.join(HERE, `${base}.stream_events_v2.jsonl`), scrub(events.join('\n') + '\n'));
  fs.writeFileSync(path.join(HERE, `${base}.run_tree.json`), scrub(JSON.stringify(tree.roots)));
  fs.writeFileSync(path.join(HERE, `${base}.langsmith_payloads.jsonl`), scrub(ls.payloads.join('\n') + '\n'));
  console.log(`${base}: ${events.length} events, ${tree.roots.length} roots, ${ls.payloads.length} payloads; ${outcome}`);
}

// 02: parallel tools: three tool calls in one model response, then the answer.
await scenario('02_parallel_tools', async (run) => {
  const model = new ScriptedChatModel([
    () => ({
      toolCalls: [
        { name: 'get_weather', args: { city: 'Paris' } },
        { name: 'get_local_time', args: { city: 'Paris' } },
        { name: 'get_exchange_rate', args: { from: 'USD', to: 'EUR' } },
      ],
    }),
    () => ({ text: 'Paris: 18C and light rain, 14:05 local time; 1 USD = 1.08 EUR.' }),
  ]);
  const graph = createReactAgent({
    llm: model,
    tools: [getWeather, getLocalTime, getFx],
    checkpointer: new MemorySaver(),
    name: 'scenario-02',
  });
  await run(graph, { messages: [new HumanMessage('Weather, time and USD rate for Paris?')] }, {
    configurable: { thread_id: 'thread-02' },
  });
  return `ok (model calls ${model.calls})`;
});

// 03: a tool throws; ToolNode (handleToolErrors default) turns it into an error ToolMessage
// that goes back to the model, which answers.
await scenario('03_tool_error', async (run) => {
  const model = new ScriptedChatModel([
    () => ({ toolCalls: [{ name: 'lookup_order', args: { order_id: 'A-1001' } }] }),
    () => ({ text: 'Sorry, the order system is unavailable right now.' }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [lookupOrder], checkpointer: new MemorySaver(), name: 'scenario-03' });
  await run(graph, { messages: [new HumanMessage('Where is my order A-1001?')] }, {
    configurable: { thread_id: 'thread-03' },
  });
  return `ok (model calls ${model.calls})`;
});

// 04: recursion limit: the model keeps calling a tool; recursionLimit 6 → GraphRecursionError.
await scenario('04_recursion_limit', async (run) => {
  const model = new ScriptedChatModel([
    (msgs, i) => ({ toolCalls: [{ name: 'search_docs', args: { query: `retry policy v${i + 1}` } }] }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [searchDocs], checkpointer: new MemorySaver(), name: 'scenario-04' });
  try {
    await run(graph, { messages: [new HumanMessage('Find the retry policy.')] }, {
      configurable: { thread_id: 'thread-04' },
      recursionLimit: 6,
    });
    return 'unexpectedly completed';
  } catch (e) {
    return `threw ${e?.name}: ${e?.message.split('\n')[0]} (model calls ${model.calls})`;
  }
});

// 05: aborted: AbortController fires while the (long) tool of step 1 runs.
await scenario('05_aborted', async (run) => {
  const ac = new AbortController();
  const model = new ScriptedChatModel([
    () => {
      setTimeout(() => ac.abort(), 40);
      return { toolCalls: [{ name: 'build_report', args: { topic: 'Q3 sales' } }] };
    },
    () => ({ text: 'never reached' }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [buildReport], checkpointer: new MemorySaver(), name: 'scenario-05' });
  try {
    await run(graph, { messages: [new HumanMessage('Write the Q3 sales report.')] }, {
      configurable: { thread_id: 'thread-05' },
      signal: ac.signal,
    });
    return 'unexpectedly completed';
  } catch (e) {
    return `threw ${e?.name}: ${e?.message} (model calls ${model.calls})`;
  }
});

// 06: two runs (two invocations) on the same thread_id; the second sees the first's history
// through the checkpointer.
await scenario('06_two_runs_same_thread', async (run) => {
  const model = new ScriptedChatModel([
    () => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }),
    () => ({ text: 'Oslo: 18C, light rain.' }),
    () => ({ toolCalls: [{ name: 'get_local_time', args: { city: 'Oslo' } }] }),
    () => ({ text: 'It is 14:05 in Oslo.' }),
  ]);
  const graph = createReactAgent({
    llm: model,
    tools: [getWeather, getLocalTime],
    checkpointer: new MemorySaver(),
    name: 'scenario-06',
  });
  const config = { configurable: { thread_id: 'thread-06' } };
  await run(graph, { messages: [new HumanMessage('Weather in Oslo?')] }, config);
  await run(graph, { messages: [new HumanMessage('And the local time?')] }, config);
  return `ok (model calls ${model.calls})`;
});
