// Generates LangGraph JS (@langchain/langgraph 1.7.3 + @langchain/core 1.4.0) streamEvents v3
// fixtures offline: `graph.streamEvents(input, { version: "v3", ... })` returns a GraphRunStream
// whose async iterator yields the protocol events ({type:"event", seq, method, params:
// {namespace, timestamp, data, node?}}: lifecycle, tasks, updates, values, messages, tools,
// input, custom). Every event is written with JSON.stringify, one per line; the invocations of
// one thread (an interrupted run and its resume with Command({resume}) or null input) are
// appended to one file.
//
// A prebuilt createReactAgent runs with a scripted BaseChatModel (no network) and a MemorySaver
// checkpointer. Ground truth (<name>.expected.json) is what this script observed: model calls
// its model served, tool executions its tools ran (and whether they threw or were aborted), the
// interrupts it answered, and what each invocation's stream ended with (its error, or
// `run.interrupted`). Counting rules: testdata/traces/README.md and testdata/samples-py/README.md
// (a resume is a new run on the same thread: kind resume after the waiting one).
//
// Usage: npm ci && node gen.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { MemorySaver } from '@langchain/langgraph';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- scripted chat model
// script: array of functions (messages, callIndex) => {text?, toolCalls?: [{name, args}]}
class ScriptedChatModel extends BaseChatModel {
  static lc_name() {
    return 'ScriptedChatModel';
  }
  lc_namespace = ['langchain', 'chat_models', 'scripted-fake'];
  constructor(script, opts = {}) {
    super({});
    this.script = script;
    this.calls = 0;
    this.delayMs = opts.delayMs ?? 3;
    this.boundTools = [];
  }
  _llmType() {
    return 'scripted-fake';
  }
  invocationParams() {
    return { model: 'fake-chat-1', temperature: 0 };
  }
  _identifyingParams() {
    return this.invocationParams();
  }
  getLsParams(options) {
    return { ls_provider: 'fake', ls_model_name: 'fake-chat-1', ls_model_type: 'chat', ls_temperature: 0 };
  }
  bindTools(tools) {
    const bound = this.withConfig({
      tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description } })),
    });
    return bound;
  }
  #decide(messages) {
    const i = this.calls++;
    const step = this.script[Math.min(i, this.script.length - 1)];
    const d = step(messages, i);
    return { i: i + 1, ...d };
  }
  async *_streamResponseChunks(messages, options, runManager) {
    const d = this.#decide(messages);
    const id = `msg_fake_${d.i}`;
    const toolCalls = (d.toolCalls ?? []).map((tc, k) => ({
      name: tc.name,
      args: tc.args,
      id: `call_fake_${d.i}_${k + 1}`,
      type: 'tool_call',
    }));
    const usage = { input_tokens: 100 + 10 * d.i, output_tokens: 20 + d.i, total_tokens: 120 + 11 * d.i };
    // stream text in pieces, then tool call chunks, then a final usage chunk
    if (d.text) {
      for (let k = 0; k < d.text.length; k += 10) {
        await sleep(1);
        if (options?.signal?.aborted) throw new Error('Aborted');
        const piece = d.text.slice(k, k + 10);
        const chunk = new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ id, content: piece }) });
        await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
        yield chunk;
      }
    }
    await sleep(this.delayMs);
    if (options?.signal?.aborted) throw new Error('Aborted');
    if (toolCalls.length) {
      const chunk = new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({
          id,
          content: '',
          tool_call_chunks: toolCalls.map((tc, k) => ({
            type: 'tool_call_chunk',
            index: k,
            id: tc.id,
            name: tc.name,
            args: JSON.stringify(tc.args),
          })),
        }),
      });
      await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk });
      yield chunk;
    }
    const last = new ChatGenerationChunk({
      text: '',
      message: new AIMessageChunk({
        id,
        content: '',
        usage_metadata: usage,
        response_metadata: { finish_reason: toolCalls.length ? 'tool_calls' : 'stop', model_name: 'fake-chat-1' },
      }),
    });
    await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk: last });
    yield last;
  }
  async _generate(messages, options, runManager) {
    let final;
    for await (const c of this._streamResponseChunks(messages, options, runManager)) {
      final = final ? final.concat(c) : c;
    }
    return { generations: [{ text: final.text, message: new AIMessage({ ...final.message }) }] };
  }
}

import { interrupt, Command } from '@langchain/langgraph';

let obs;
const newObs = () => ({ model_calls: 0, tool_calls: 0, failed_tool_calls: 0, cancelled_tool_calls: 0, steps: 0, runs_detail: [] });
// wrap a tool body: every execution is observed
const observed = (fn) => async (args, config) => {
  obs.tool_calls++;
  try {
    return await fn(args, config);
  } catch (e) {
    if (/abort/i.test(String(e?.message)) || e?.name === 'AbortError') obs.cancelled_tool_calls++;
    else obs.failed_tool_calls++;
    throw e;
  }
};
const getWeather = tool(observed(async ({ city }) => { await sleep(3); return `Weather in ${city}: 18C, light rain`; }),
  { name: 'get_weather', description: 'Get the current weather for a city.', schema: z.object({ city: z.string() }) });
const getLocalTime = tool(observed(async ({ city }) => { await sleep(2); return `Local time in ${city}: 14:05`; }),
  { name: 'get_local_time', description: 'Get the local time in a city.', schema: z.object({ city: z.string() }) });
const lookupOrder = tool(observed(async ({ order_id }) => { await sleep(2); throw new Error(`order database unavailable (order ${order_id})`); }),
  { name: 'lookup_order', description: 'Look up an order by id.', schema: z.object({ order_id: z.string() }) });
const searchDocs = tool(observed(async ({ query }) => { await sleep(2); return `No exact match for "${query}".`; }),
  { name: 'search_docs', description: 'Search the documentation.', schema: z.object({ query: z.string() }) });
// interrupt() inside the tool: the first execution enters the body and pauses there (a tool call
// that ran, not failed); on resume the tool runs again from the start and interrupt() returns the
// answer (a second tool call)
const refund = tool(async ({ order_id }) => {
  obs.tool_calls++;
  const answer = interrupt({ action: 'refund_order', order_id });
  return answer === 'approve' ? `Refunded ${order_id}` : `Refund of ${order_id} rejected by the reviewer`;
}, { name: 'refund_order', description: 'Refund an order (needs approval).', schema: z.object({ order_id: z.string() }) });
const buildReport = tool(observed(async ({ topic }, config) => {
  await new Promise((resolve, reject) => {
    const t = setTimeout(resolve, 2000);
    config?.signal?.addEventListener('abort', () => { clearTimeout(t); reject(new Error('Aborted')); });
  });
  return `Report on ${topic}`;
}), { name: 'build_report', description: 'Build a long report.', schema: z.object({ topic: z.string() }) });

// one invocation: every protocol event to lines; returns {interrupted, error}
async function invoke(lines, graph, input, config, onEvent) {
  const before = obs.model_calls;
  let run, error;
  try {
    run = await graph.streamEvents(input, { version: 'v3', ...config });
    for await (const ev of run) {
      lines.push(JSON.stringify(ev));
      onEvent?.(ev);
    }
  } catch (e) {
    error = e;
  }
  return { interrupted: !error && run?.interrupted === true, error, modelCalls: obs.model_calls - before };
}
function outcome(r) {
  if (r.error) {
    const m = `${r.error?.name}: ${r.error?.message}`;
    if (/Recursion limit/i.test(m)) return { status: 'failed', stop_reason: 'max_steps' };
    if (/abort/i.test(m)) return { status: 'cancelled', stop_reason: 'cancelled' };
    return { status: 'failed', stop_reason: 'error' };
  }
  return r.interrupted ? { status: 'waiting', stop_reason: 'awaiting_approval' } : { status: 'completed', stop_reason: 'goal_reached' };
}
class Counting extends ScriptedChatModel {
  async *_streamResponseChunks(messages, options, runManager) {
    obs.model_calls++;
    yield* super._streamResponseChunks(messages, options, runManager);
  }
}
async function scenario(name, notes, fn) {
  if (process.argv[2] === 'resume') return; // a child process resuming 08 (below) runs no scenario
  obs = newObs();
  const lines = [];
  const extra = await fn(lines);
  fs.writeFileSync(path.join(HERE, `${name}.stream_events_v3.jsonl`), lines.join('\n') + '\n');
  const runs = obs.runs_detail.length;
  const want = {
    sessions: 1, runs, turns: runs, steps: obs.steps, model_calls: obs.model_calls,
    tool_calls: obs.tool_calls, failed_tool_calls: obs.failed_tool_calls, runs_detail: obs.runs_detail, notes,
  };
  fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify(want, null, 1) + '\n');
  console.log(name, lines.length, 'events', JSON.stringify(obs), extra ?? '');
}
const cfg = (thread, more = {}) => ({ configurable: { thread_id: thread }, ...more });

await scenario('01_multi_step_tools', 'two tool steps (2 parallel calls, then 1), then the answer', async (lines) => {
  const model = new Counting([
    () => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_local_time', args: { city: 'Paris' } }] }),
    () => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Lyon' } }] }),
    () => ({ text: 'Paris: 18C, light rain, 14:05; Lyon: 18C, light rain.' }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [getWeather, getLocalTime], checkpointSaver: new MemorySaver() });
  const r = await invoke(lines, graph, { messages: [new HumanMessage('Weather and time in Paris, weather in Lyon?')] }, cfg('t-01'));
  obs.steps += r.modelCalls;
  obs.runs_detail.push(outcome(r));
});

await scenario('02_tool_error', 'the tool throws; ToolNode returns the error to the model, which answers', async (lines) => {
  const model = new Counting([
    () => ({ toolCalls: [{ name: 'lookup_order', args: { order_id: 'A-1001' } }] }),
    () => ({ text: 'The order database is unavailable right now.' }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [lookupOrder], checkpointSaver: new MemorySaver() });
  const r = await invoke(lines, graph, { messages: [new HumanMessage('Where is order A-1001?')] }, cfg('t-02'));
  obs.steps += r.modelCalls;
  obs.runs_detail.push(outcome(r));
});

await scenario('03_recursion_limit', 'recursionLimit 4: the model keeps calling a tool; the stream throws GraphRecursionError', async (lines) => {
  const model = new Counting([(m, i) => ({ toolCalls: [{ name: 'search_docs', args: { query: `retry policy v${i + 1}` } }] })]);
  const graph = createReactAgent({ llm: model, tools: [searchDocs], checkpointSaver: new MemorySaver() });
  const r = await invoke(lines, graph, { messages: [new HumanMessage('Find the retry policy.')] }, cfg('t-03', { recursionLimit: 4 }));
  obs.steps += r.modelCalls;
  obs.runs_detail.push(outcome(r));
  return String(r.error);
});

async function approval(lines, thread, answer, finalText) {
  const model = new Counting([
    () => ({ toolCalls: [{ name: 'refund_order', args: { order_id: 'A-1001' } }] }),
    () => ({ text: finalText }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [refund], checkpointSaver: new MemorySaver() });
  const r1 = await invoke(lines, graph, { messages: [new HumanMessage('Refund order A-1001.')] }, cfg(thread));
  if (!r1.interrupted) throw new Error('expected an interrupt');
  obs.steps += r1.modelCalls;
  obs.runs_detail.push(outcome(r1));
  const r2 = await invoke(lines, graph, new Command({ resume: answer }), cfg(thread));
  // the resume runs the tool again (interrupt() returns the answer) before calling the model
  obs.steps += 1 + r2.modelCalls;
  obs.runs_detail.push(outcome(r2));
}
await scenario('04_interrupt_approve', 'interrupt() inside the tool: run 1 waits (awaiting_approval); Command({resume: "approve"}) on the same thread is run 2 (the tool runs, the model answers)', async (lines) => {
  await approval(lines, 't-04', 'approve', 'Order A-1001 was refunded.');
});
await scenario('05_interrupt_reject', 'interrupt() inside the tool; Command({resume: "reject"}): the tool returns the rejection, the model answers', async (lines) => {
  await approval(lines, 't-05', 'reject', 'The refund was not approved.');
});

await scenario('06_breakpoint_before_tools', 'static breakpoint interruptBefore: ["tools"]: run 1 ends after the model asked for a tool (waiting); null input resumes on the same thread (run 2: the tool runs, the model answers)', async (lines) => {
  const model = new Counting([
    () => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }),
    () => ({ text: 'Oslo: 18C, light rain.' }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [getWeather], checkpointSaver: new MemorySaver(), interruptBefore: ['tools'] });
  const r1 = await invoke(lines, graph, { messages: [new HumanMessage('Weather in Oslo?')] }, cfg('t-06'));
  obs.steps += r1.modelCalls;
  obs.runs_detail.push(outcome(r1));
  const r2 = await invoke(lines, graph, null, cfg('t-06'));
  obs.steps += 1 + r2.modelCalls;
  obs.runs_detail.push(outcome(r2));
  return `r1 interrupted=${r1.interrupted}`;
});

await scenario('07_abort_mid_tool', 'AbortSignal fires while a slow tool runs: the tool is cancelled (not failed), the run is cancelled', async (lines) => {
  const model = new Counting([() => ({ toolCalls: [{ name: 'build_report', args: { topic: 'Q3 sales' } }] }), () => ({ text: 'unused' })]);
  const graph = createReactAgent({ llm: model, tools: [buildReport], checkpointSaver: new MemorySaver() });
  const ac = new AbortController();
  const r = await invoke(lines, graph, { messages: [new HumanMessage('Write the Q3 sales report.')] }, cfg('t-07', { signal: ac.signal }),
    (ev) => { if (ev.method === 'tools' && ev.params?.data?.event === 'tool-started') setTimeout(() => ac.abort(), 50); });
  obs.steps += r.modelCalls;
  obs.runs_detail.push(outcome(r));
  return String(r.error);
});

// 08: the interrupt of 04 resumed in a NEW process from serialized state: process 1 runs until
// interrupt() and writes the MemorySaver's storage and writes (Uint8Arrays as base64) to a file;
// process 2 (`node gen.mjs resume <file>`) loads them into a new MemorySaver, invokes the same graph
// on the same thread with Command({resume: "approve"}) and appends its events to the same file.
const enc = (_k, v) => (v instanceof Uint8Array ? { $u8: Buffer.from(v).toString('base64') } : v);
const dec = (_k, v) => (v && typeof v === 'object' && typeof v.$u8 === 'string' ? new Uint8Array(Buffer.from(v.$u8, 'base64')) : v);
const graph08 = (saver, used) => {
  const model = new Counting([
    () => ({ toolCalls: [{ name: 'refund_order', args: { order_id: 'A-1001' } }] }),
    () => ({ text: 'Order A-1001 was refunded.' }),
  ]);
  model.calls = used;
  return createReactAgent({ llm: model, tools: [refund], checkpointSaver: saver });
};
if (process.argv[2] === 'resume') {
  obs = newObs();
  const saved = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'), dec);
  const saver = new MemorySaver();
  Object.assign(saver.storage, saved.storage);
  Object.assign(saver.writes, saved.writes);
  const lines = [];
  const r2 = await invoke(lines, graph08(saver, 1), new Command({ resume: 'approve' }), cfg('t-08'));
  fs.appendFileSync(path.join(HERE, '08_resume_new_process.stream_events_v3.jsonl'), lines.join('\n') + '\n');
  console.log(JSON.stringify({ obs, outcome: outcome(r2), modelCalls: r2.modelCalls }));
} else {
  obs = newObs();
  const saver = new MemorySaver();
  const lines = [];
  const r1 = await invoke(lines, graph08(saver, 0), { messages: [new HumanMessage('Refund order A-1001.')] }, cfg('t-08'));
  if (!r1.interrupted) throw new Error('expected an interrupt');
  fs.writeFileSync(path.join(HERE, '08_resume_new_process.stream_events_v3.jsonl'), lines.join('\n') + '\n');
  const state = path.join(HERE, '08_resume_new_process.state.tmp');
  fs.writeFileSync(state, JSON.stringify({ storage: saver.storage, writes: saver.writes }, enc));
  const { spawnSync } = await import('node:child_process');
  const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'resume', state], { encoding: 'utf8' });
  fs.rmSync(state, { force: true });
  if (p.status !== 0) throw new Error(`resume 08: ${p.stderr}`);
  const second = JSON.parse(p.stdout.trim().split('\n').pop());
  const want = {
    sessions: 1, runs: 2, turns: 2, steps: r1.modelCalls + 1 + second.modelCalls, model_calls: obs.model_calls + second.obs.model_calls,
    tool_calls: obs.tool_calls + second.obs.tool_calls, failed_tool_calls: obs.failed_tool_calls + second.obs.failed_tool_calls,
    runs_detail: [outcome(r1), second.outcome],
    notes: 'as 04, resumed in a second process from the MemorySaver state written to a file: run 1 waits; run 2 (Command({resume: "approve"}) in the new process) is its resume',
  };
  fs.writeFileSync(path.join(HERE, '08_resume_new_process.expected.json'), JSON.stringify(want, null, 1) + '\n');
  console.log('08_resume_new_process', JSON.stringify(want));
}
