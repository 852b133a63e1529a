// Generates OpenAI Agents SDK (JS, @openai/agents 0.20.0) run-stream fixtures offline.
//
// `run(agent, input, { stream: true })` returns a StreamedRunResult; iterating it yields
// RunRawModelStreamEvent (`raw_model_stream_event`), RunItemStreamEvent (`run_item_stream_event`)
// and RunAgentUpdatedStreamEvent (`agent_updated_stream_event`). Each event is written as users
// write them: `JSON.stringify(event)` (the SDK's RunItems and Agents serialize themselves through
// their toJSON()), one per line. A resume (`run(agent, result.state, { stream: true })` after
// approve/reject, here in the same process and from `RunState.fromString(agent, state.toString())`
// like a new process would) appends its events to the same file: the file is the log of one
// conversation. Nothing else is written (no markers between run() calls).
//
// A scripted Model/ModelProvider stands in for the OpenAI API (no network), streaming
// response_started / output_text_delta / response_done events like the SDK's OpenAI models.
//
// Ground truth (<name>.expected.json) is what this script observed: the model calls it served,
// the tool executions its tools ran and whether they threw, the approvals it answered, what
// run() returned or threw. Counting rules: testdata/traces/README.md (an SDK turn is our Step)
// and, for approvals, those of the reference runtime (model/runtime) and testdata/samples-py: the
// resume after an approval is a new Turn of the same run; a resume that runs the approved tool
// before calling the model has a tool-only Step first; a rejected (or never answered) call never
// executes and is not a tool call.
//
// 17_/18_ resume in a NEW process: the first process writes `first.state.toString()` to
// <name>.run_state.json and starts `node gen.mjs --resume <name> approve|reject`, a separate Node
// process that builds the agent afresh, reads the state with `RunState.fromString`, answers the
// interruption and streams the resume; its events are appended to the same file and what it
// observed is merged into the truth.
//
// Usage: npm ci && node gen.mjs [scenario-name ...]   (no names: every scenario)
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Agent, Runner, RunState, tool, setTracingDisabled, MaxTurnsExceededError } from '@openai/agents';

const HERE = path.dirname(fileURLToPath(import.meta.url));
setTracingDisabled(true);

let idCounter = 0;
const nextId = (p) => `${p}_fake_${String(++idCounter).padStart(3, '0')}`;
const abortError = () => {
  const e = new Error('Request was aborted.');
  e.name = 'AbortError';
  return e;
};
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); reject(abortError()); }, { once: true });
  });
const call = (name, args) => ({ type: 'function_call', id: nextId('fc'), callId: nextId('call'), name, arguments: JSON.stringify(args), status: 'completed' });
const say = (text) => ({ type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });

// observations of the current scenario
let obs;
class ScriptedModel {
  constructor(script) { this.script = script; this.calls = 0; }
  async getResponse() { throw new Error('only streamed runs here'); }
  async *getStreamedResponse(request) {
    const i = this.calls++;
    obs.model_calls++;
    const output = this.script[Math.min(i, this.script.length - 1)](request, i);
    const u = { input: 110 + 10 * i, output: 21 + i };
    yield { type: 'response_started', providerData: {} };
    for (const item of output) {
      if (item.type === 'message') {
        const text = item.content[0].text;
        for (let k = 0; k < text.length; k += 12) {
          await sleep(1, request.signal);
          yield { type: 'output_text_delta', delta: text.slice(k, k + 12), providerData: {} };
        }
      } else await sleep(3, request.signal);
    }
    yield { type: 'response_done', response: { id: nextId('resp'), usage: { requests: 1, inputTokens: u.input, outputTokens: u.output, totalTokens: u.input + u.output }, output } };
  }
}
class ScriptedProvider { constructor(m) { this.m = m; } getModel() { return this.m; } }

// tools: every execution is observed (started, threw, aborted)
const observed = (name, description, parameters, fn, extra = {}) => tool({
  name, description, parameters, ...extra,
  execute: async (args, ctx, details) => {
    obs.tool_calls++;
    try {
      return await fn(args, details?.signal);
    } catch (e) {
      if (e?.name === 'AbortError') obs.cancelled_tool_calls++;
      else obs.failed_tool_calls++;
      throw e;
    }
  },
});
const getWeather = observed('get_weather', 'Current weather for a city.', z.object({ city: z.string() }), async ({ city }) => { await sleep(3); return `Weather in ${city}: 18C, light rain`; });
const getTime = observed('get_local_time', 'Local time in a city.', z.object({ city: z.string() }), async ({ city }) => { await sleep(2); return `Local time in ${city}: 14:05`; });
const lookupOrder = observed('lookup_order', 'Look up an order by id.', z.object({ order_id: z.string() }), async ({ order_id }) => {
  await sleep(2);
  if (!/^A-\d{4}$/.test(order_id)) throw new Error(`invalid order id format: ${order_id}`);
  return `Order ${order_id}: shipped, arriving Thursday`;
});
const searchDocs = observed('search_docs', 'Search the documentation.', z.object({ query: z.string() }), async ({ query }) => { await sleep(2); return `No exact match for "${query}".`; });
const refund = observed('refund_order', 'Refund an order (sensitive).', z.object({ order_id: z.string() }), async ({ order_id }) => { await sleep(2); return `Refunded ${order_id}`; }, { needsApproval: true });
const slowReport = observed('build_report', 'Build a long report.', z.object({ topic: z.string() }), async ({ topic }, signal) => { await sleep(2000, signal); return `Report on ${topic}`; });

const runner = (model) => new Runner({ modelProvider: new ScriptedProvider(model) });

// one streamed run() call: every event to lines; returns the result, or throws what the stream threw
let lastResult;
async function streamed(lines, agent, input, opts = {}) {
  const result = await runner(opts.model).run(agent, input, { stream: true, ...opts.run });
  lastResult = result;
  try {
    for await (const ev of result) {
      lines.push(JSON.stringify(ev));
      opts.onEvent?.(ev);
    }
    await result.completed;
  } catch (e) {
    if (result.error == null) throw e;
  }
  if (result.error) throw result.error;
  return result;
}

const ARGV = process.argv.slice(2);
const RESUME = ARGV[0] === '--resume';
const ONLY = RESUME ? [] : ARGV;
async function scenario(name, notes, fn) {
  if (RESUME || (ONLY.length && !ONLY.includes(name))) return;
  idCounter = 0;
  obs = { model_calls: 0, tool_calls: 0, failed_tool_calls: 0, cancelled_tool_calls: 0, rejected_tool_calls: 0, tool_only_steps: 0, turns: 0, runs_detail: [] };
  const lines = [];
  await fn(lines);
  fs.writeFileSync(path.join(HERE, `${name}.stream.jsonl`), lines.join('\n') + '\n');
  const want = {
    sessions: 1, runs: obs.runs_detail.length, turns: obs.turns, steps: obs.model_calls + obs.tool_only_steps, model_calls: obs.model_calls,
    tool_calls: obs.tool_calls, failed_tool_calls: obs.failed_tool_calls,
    runs_detail: obs.runs_detail, notes,
  };
  fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify(want, null, 1) + '\n');
  console.log(name, lines.length, 'events', JSON.stringify(obs));
}
const outcome = (r) => (r.interruptions?.length ? { status: 'waiting', stop_reason: 'awaiting_approval' } : { status: 'completed', stop_reason: 'goal_reached' });

await scenario('01_multi_step_tools', 'two tool steps (one with 2 parallel calls), then the answer', async (lines) => {
  const model = new ScriptedModel([
    () => [call('get_weather', { city: 'Paris' }), call('get_local_time', { city: 'Paris' })],
    () => [call('get_weather', { city: 'Lyon' })],
    () => [say('Paris: 18C, light rain, 14:05; Lyon: 18C, light rain.')],
  ]);
  const agent = new Agent({ name: 'weather_agent', instructions: 'Answer weather questions.', tools: [getWeather, getTime] });
  obs.turns++;
  obs.runs_detail.push(outcome(await streamed(lines, agent, 'Weather and time in Paris, and weather in Lyon?', { model })));
});

await scenario('02_tool_error', 'the tool throws; the SDK returns the error to the model, which retries and answers', async (lines) => {
  const model = new ScriptedModel([
    () => [call('lookup_order', { order_id: '1001' })],
    () => [call('lookup_order', { order_id: 'A-1001' })],
    () => [say('Your order A-1001 has shipped and arrives Thursday.')],
  ]);
  const agent = new Agent({ name: 'support_agent', instructions: 'Help with orders.', tools: [lookupOrder] });
  obs.turns++;
  obs.runs_detail.push(outcome(await streamed(lines, agent, 'Where is my order 1001?', { model })));
});

await scenario('03_max_turns', 'maxTurns 2: the model keeps calling a tool; the stream throws MaxTurnsExceededError', async (lines) => {
  const model = new ScriptedModel([(req, i) => [call('search_docs', { query: `retry policy v${i + 1}` })]]);
  const agent = new Agent({ name: 'research_agent', instructions: 'Search until sure.', tools: [searchDocs] });
  obs.turns++;
  try {
    await streamed(lines, agent, 'Find the retry policy.', { model, run: { maxTurns: 2 } });
    obs.runs_detail.push({ status: 'completed', stop_reason: 'goal_reached' });
  } catch (e) {
    if (!(e instanceof MaxTurnsExceededError)) throw e;
    obs.runs_detail.push({ status: 'failed', stop_reason: 'max_turns' });
  }
});

async function approval(lines, decide, finalText) {
  const model = new ScriptedModel([
    () => [call('lookup_order', { order_id: 'A-1001' })],
    () => [call('refund_order', { order_id: 'A-1001' })],
    () => [say(finalText)],
  ]);
  const agent = new Agent({ name: 'refund_agent', instructions: 'Refund orders when asked.', tools: [lookupOrder, refund] });
  obs.turns++;
  const first = await streamed(lines, agent, 'Refund my order A-1001.', { model });
  if (!first.interruptions?.length) throw new Error('expected an approval interruption');
  // serialized state, read back as a new process would
  const state = await RunState.fromString(agent, first.state.toString());
  for (const it of state.getInterruptions()) {
    if (decide === 'approve') state.approve(it);
    else { state.reject(it); obs.rejected_tool_calls++; }
  }
  if (decide === 'approve') obs.tool_only_steps++; // the resume runs the approved tool first
  obs.turns++;
  const second = await streamed(lines, agent, state, { model });
  obs.runs_detail.push(outcome(second));
}
await scenario('04_approval_approve', 'needsApproval tool: run 1 stops with an interruption (waiting, awaiting_approval); resumed from RunState.toString()/fromString after approve: a second turn of the same run runs the tool and answers', async (lines) => {
  await approval(lines, 'approve', 'Order A-1001 was refunded.');
});
await scenario('05_approval_reject', 'needsApproval tool rejected on resume: the SDK answers the call with its rejection message (the tool never runs; not a failed call), the model answers', async (lines) => {
  await approval(lines, 'reject', 'The refund of A-1001 was not approved.');
});
await scenario('06_interrupted', 'needsApproval tool, the stream of the interrupted run alone (never resumed): waiting, awaiting_approval', async (lines) => {
  const model = new ScriptedModel([() => [call('refund_order', { order_id: 'A-2002' })], () => [say('done')]]);
  const agent = new Agent({ name: 'refund_agent', instructions: 'Refund orders when asked.', tools: [refund] });
  obs.turns++;
  const r = await streamed(lines, agent, 'Refund my order A-2002.', { model });
  obs.runs_detail.push(outcome(r));
});
await scenario('07_abort_mid_tool', 'AbortSignal fires while a slow tool runs: the tool is cancelled (not failed), the run is cancelled', async (lines) => {
  const model = new ScriptedModel([() => [call('build_report', { topic: 'Q3 sales' })], () => [say('unused')]]);
  const agent = new Agent({ name: 'report_agent', instructions: 'Write reports.', tools: [slowReport] });
  const ac = new AbortController();
  obs.turns++;
  try {
    await streamed(lines, agent, 'Write the Q3 sales report.', {
      model, run: { signal: ac.signal },
      onEvent: (ev) => { if (ev.type === 'run_item_stream_event' && ev.name === 'tool_called') setTimeout(() => ac.abort(), 50); },
    });
    // an abort ends the stream quietly: no event, no error; the result says it was cancelled
    if (!lastResult.cancelled) throw new Error('abort not observed');
    obs.runs_detail.push({ status: 'cancelled', stop_reason: 'cancelled' });
  } catch (e) {
    if (e.message === 'abort not observed') throw e;
    obs.runs_detail.push({ status: 'cancelled', stop_reason: 'cancelled' });
  }
});
await scenario('08_two_runs', 'two run() calls with new prompts appended to one file (the second continues the conversation from result.history): two runs of one session', async (lines) => {
  const model = new ScriptedModel([
    () => [call('get_weather', { city: 'Oslo' })],
    () => [say('Oslo: 18C, light rain.')],
    () => [say('Bring an umbrella.')],
  ]);
  const agent = new Agent({ name: 'weather_agent', instructions: 'Answer weather questions.', tools: [getWeather] });
  obs.turns++;
  const first = await streamed(lines, agent, 'Weather in Oslo?', { model });
  obs.runs_detail.push(outcome(first));
  obs.turns++;
  const second = await streamed(lines, agent, [...first.history, { role: 'user', content: 'Should I bring an umbrella?' }], { model });
  obs.runs_detail.push(outcome(second));
});
await scenario('09_handoff', 'the triage agent hands off to the billing agent (agent_updated_stream_event), which calls a tool and answers: one run', async (lines) => {
  const { handoff } = await import('@openai/agents');
  const model = new ScriptedModel([
    () => [call('transfer_to_billing_agent', {})],
    () => [call('get_local_time', { city: 'Paris' })],
    () => [say('Billing opens at 14:05 Paris time.')],
  ]);
  const billing = new Agent({ name: 'billing_agent', instructions: 'Answer billing questions.', tools: [getTime] });
  const triage = new Agent({ name: 'triage_agent', instructions: 'Route.', handoffs: [handoff(billing)] });
  obs.turns++;
  obs.handoffs = 1; // the transfer_to_… call is a tool call of the run (as in the trace export)
  obs.tool_calls++;
  obs.runs_detail.push(outcome(await streamed(lines, triage, 'When does billing open?', { model })));
});

// --- resume in a new process -------------------------------------------------------------------
const refundAgent = () => new Agent({ name: 'refund_agent', instructions: 'Refund orders when asked.', tools: [lookupOrder, refund] });
const finalTexts = { approve: 'Order A-1001 was refunded.', reject: 'The refund of A-1001 was not approved.' };
async function approvalNewProcess(lines, name, decide) {
  const model = new ScriptedModel([
    () => [call('lookup_order', { order_id: 'A-1001' })],
    () => [call('refund_order', { order_id: 'A-1001' })],
    () => [say('unused: the first process never gets here')],
  ]);
  obs.turns++;
  const first = await streamed(lines, refundAgent(), 'Refund my order A-1001.', { model });
  if (!first.interruptions?.length) throw new Error('expected an approval interruption');
  const statePath = path.join(HERE, `${name}.run_state.json`);
  fs.writeFileSync(statePath, first.state.toString() + '\n');
  // the resume: another Node process, nothing shared but the serialized state
  const out = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--resume', name, decide], { encoding: 'utf8' }));
  if (out.pid === process.pid) throw new Error('resume ran in the same process');
  lines.push(...out.lines);
  for (const k of ['model_calls', 'tool_calls', 'failed_tool_calls', 'cancelled_tool_calls', 'rejected_tool_calls', 'tool_only_steps', 'turns']) obs[k] += out.obs[k];
  obs.runs_detail.push(...out.obs.runs_detail);
  obs.resume_pid_differs = true;
}
if (RESUME) {
  const [, name, decide] = ARGV;
  idCounter = 100; // the resumed model's ids (fresh ones, as the API would give)
  obs = { model_calls: 0, tool_calls: 0, failed_tool_calls: 0, cancelled_tool_calls: 0, rejected_tool_calls: 0, tool_only_steps: 0, turns: 0, runs_detail: [] };
  const agent = refundAgent();
  const state = await RunState.fromString(agent, fs.readFileSync(path.join(HERE, `${name}.run_state.json`), 'utf8').trim());
  const pending = state.getInterruptions();
  if (!pending.length) throw new Error('the serialized state has no interruption');
  for (const it of pending) {
    if (decide === 'approve') state.approve(it);
    else { state.reject(it); obs.rejected_tool_calls++; }
  }
  if (decide === 'approve') obs.tool_only_steps++; // the resume runs the approved tool first
  obs.turns++;
  const lines = [];
  const model = new ScriptedModel([() => [say(finalTexts[decide])]]);
  obs.runs_detail.push(outcome(await streamed(lines, agent, state, { model })));
  process.stdout.write(JSON.stringify({ pid: process.pid, lines, obs }));
} else {
  await scenario('17_approval_approve_new_process', 'needsApproval tool: process 1 streams the run until its interruption and writes RunState.toString() to 17_approval_approve_new_process.run_state.json; process 2 (node gen.mjs --resume) reads it with RunState.fromString, approves, and streams the resume, appended: one run, a second turn runs the tool and answers', async (lines) => {
    await approvalNewProcess(lines, '17_approval_approve_new_process', 'approve');
  });
  await scenario('18_approval_reject_new_process', 'as 17 but process 2 rejects: the SDK answers the call with its rejection message (the tool never runs; not a failed call), the model answers', async (lines) => {
    await approvalNewProcess(lines, '18_approval_reject_new_process', 'reject');
  });
}
