// Generates LangGraph JS `graph.stream()` fixtures (@langchain/langgraph 1.7.3, @langchain/core
// 1.4.0 pinned in package.json): createReactAgent with the scripted model of lib.mjs, consumed with
// graph.stream(input, {streamMode: ["updates", "values", "messages", "debug"], configurable}),
// which yields [mode, chunk] pairs, written with JSON.stringify one per line to
// <name>.graph_stream.jsonl; <name>.graph_stream_updates.jsonl has the "updates" chunks alone
// (what streamMode: "updates" yields). Pauses are resumed in a second process from the
// MemorySaver's state written to a file (as gen-pause.mjs). <name>.expected.json is what the
// processes observed (model calls served, tool bodies entered/thrown/aborted, getState().next,
// what the stream threw). Usage: npm ci && node gen-stream.mjs
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { Command, MemorySaver, interrupt } from '@langchain/langgraph';
import { ScriptedChatModel, sleep } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OBS = { tools: 0, toolFailed: 0, toolCancelled: 0 };
const GATE = {};

const deleteFile = tool(
  async ({ path: p }) => {
    OBS.tools++;
    const decision = interrupt({ action: 'delete_file', path: p });
    return decision === 'approve' ? `deleted ${p}` : `not deleted: the user rejected (${decision})`;
  },
  { name: 'delete_file', description: 'Delete a file after a human approves.', schema: z.object({ path: z.string() }) },
);
const getWeather = tool(
  async ({ city }) => {
    OBS.tools++;
    await sleep(2);
    return `Weather in ${city}: 18C`;
  },
  { name: 'get_weather', description: 'Get the current weather for a city.', schema: z.object({ city: z.string() }) },
);
const buildReport = tool(
  async ({ topic }, config) => {
    OBS.tools++;
    GATE.started?.();
    await new Promise((resolve, reject) => {
      const t = setTimeout(resolve, 2000);
      config?.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        OBS.toolCancelled++;
        reject(new Error('Aborted'));
      });
    });
    return `Report for ${topic}`;
  },
  { name: 'build_report', description: 'Build a long report.', schema: z.object({ topic: z.string() }) },
);

const SCENARIOS = {
  '11_stream_multi_step': {
    tools: [getWeather],
    script: [() => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_weather', args: { city: 'Rome' } }] }),
      () => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }), () => ({ text: 'Paris, Rome and Oslo: 18C.' })],
    first: 'Weather in Paris, Rome and Oslo?',
  },
  '12_stream_interrupt_approve': {
    tools: [deleteFile],
    script: [() => ({ toolCalls: [{ name: 'delete_file', args: { path: '/tmp/a.txt' } }] }), () => ({ text: 'Deleted /tmp/a.txt.' })],
    first: 'Delete /tmp/a.txt',
    resume: () => new Command({ resume: 'approve' }),
  },
  '13_stream_interrupt_reject': {
    tools: [deleteFile],
    script: [() => ({ toolCalls: [{ name: 'delete_file', args: { path: '/tmp/a.txt' } }] }), () => ({ text: 'I did not delete it.' })],
    first: 'Delete /tmp/a.txt',
    resume: () => new Command({ resume: 'reject' }),
  },
  '14_stream_breakpoint': {
    tools: [getWeather],
    interruptBefore: ['tools'],
    script: [() => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }), () => ({ text: 'Paris: 18C.' })],
    first: 'Weather in Paris?',
    resume: () => null,
  },
  '15_stream_abort_mid_tool': {
    tools: [buildReport],
    script: [() => ({ toolCalls: [{ name: 'build_report', args: { topic: 'Q3' } }] }), () => ({ text: 'never' })],
    first: 'Write the Q3 report.',
    abort: true,
  },
};

const enc = (_k, v) => (v instanceof Uint8Array ? { $u8: Buffer.from(v).toString('base64') } : v);
const dec = (_k, v) => (v && typeof v === 'object' && typeof v.$u8 === 'string' ? new Uint8Array(Buffer.from(v.$u8, 'base64')) : v);

async function invoke(name, saver, used, input, append) {
  const sc = SCENARIOS[name];
  const model = new ScriptedChatModel(sc.script, { delayMs: 0 });
  model.calls = used;
  const graph = createReactAgent({ llm: model, tools: sc.tools, checkpointer: saver, interruptBefore: sc.interruptBefore, name: `stream-${name.slice(0, 2)}` });
  const config = { configurable: { thread_id: `thread-${name}` } };
  const ac = new AbortController();
  if (sc.abort) GATE.started = () => setTimeout(() => ac.abort(), 30);
  const pairs = [];
  const before = { tools: OBS.tools, failed: OBS.toolFailed, cancelled: OBS.toolCancelled };
  let raised = null;
  try {
    for await (const pair of await graph.stream(input, { ...config, signal: ac.signal, streamMode: ['updates', 'values', 'messages', 'debug'] })) pairs.push(pair);
  } catch (e) {
    raised = `${e?.name}: ${e?.message}`;
  }
  await sleep(20);
  const st = await graph.getState(config);
  const w = append ? fs.appendFileSync : fs.writeFileSync;
  w(path.join(HERE, `${name}.graph_stream.jsonl`), pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
  w(path.join(HERE, `${name}.graph_stream_updates.jsonl`), pairs.filter((p) => p[0] === 'updates').map((p) => JSON.stringify(p[1])).join('\n') + '\n');
  return {
    model_calls: model.calls - used, tool_calls: OBS.tools - before.tools, failed_tool_calls: OBS.toolFailed - before.failed,
    cancelled_tool_calls: OBS.toolCancelled - before.cancelled, next: st.next, raised, used: model.calls,
  };
}

function outcome(o) {
  if (o.raised) return /abort/i.test(o.raised) ? { status: 'cancelled', stop_reason: 'cancelled' } : { status: 'failed', stop_reason: 'error' };
  return o.next.length ? { status: 'waiting', stop_reason: 'awaiting_approval' } : { status: 'completed', stop_reason: 'goal_reached' };
}

if (process.argv[2] === 'resume') {
  const name = process.argv[3];
  const saved = JSON.parse(fs.readFileSync(path.join(HERE, `${name}.checkpoint.tmp`), 'utf8'), dec);
  const saver = new MemorySaver();
  Object.assign(saver.storage, saved.storage);
  Object.assign(saver.writes, saved.writes);
  console.log(JSON.stringify(await invoke(name, saver, Number(process.argv[4]), SCENARIOS[name].resume(), true)));
} else {
  for (const name of Object.keys(SCENARIOS)) {
    const saver = new MemorySaver();
    const invs = [await invoke(name, saver, 0, { messages: [new HumanMessage(SCENARIOS[name].first)] }, false)];
    if (SCENARIOS[name].resume) {
      fs.writeFileSync(path.join(HERE, `${name}.checkpoint.tmp`), JSON.stringify({ storage: saver.storage, writes: saver.writes }, enc));
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'resume', name, String(invs[0].used)], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`resume ${name}: ${p.stderr}`);
      invs.push(JSON.parse(p.stdout.trim().split('\n').pop()));
      fs.rmSync(path.join(HERE, `${name}.checkpoint.tmp`), { force: true });
    }
    const steps = invs.reduce((n, o, i) => n + o.model_calls + (i > 0 && o.tool_calls > 0 ? 1 : 0), 0);
    const sum = (k) => invs.reduce((n, o) => n + o[k], 0);
    fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify({
      sessions: 1, runs: invs.length, turns: invs.length, steps,
      model_calls: sum('model_calls'), tool_calls: sum('tool_calls'), failed_tool_calls: sum('failed_tool_calls'),
      runs_detail: invs.map(outcome), notes: `observed by gen-stream.mjs: ${JSON.stringify(invs)}`,
    }, null, 1) + '\n');
    console.log(name, JSON.stringify(invs));
  }
}
