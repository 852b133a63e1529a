// Generates the pause/resume LangGraph JS fixtures (@langchain/langgraph 1.7.3, @langchain/core
// 1.4.0, pinned in package.json): interrupt() inside a tool answered by approve or reject, a static
// breakpoint (interruptBefore: ["tools"]) continued with null, and a tool fast enough to end in
// the millisecond it started. Each invocation runs with the same three captures as gen.mjs
// (streamEvents v2 lines, persistRun roots, LangChainTracer's createRun/updateRun calls).
//
// The LangChainTracer's client is the real langsmith Client pointed at an HTTP server on
// 127.0.0.1 (it answers GET /info with {}, so bodies are sent uncompressed, and every POST with
// 200): its createRun/updateRun calls are recorded as they are made (<name>.langsmith_payloads.jsonl,
// as gen.mjs records them) and the bodies it POSTs to /runs/multipart are kept as sent, one after
// the other (<name>.langsmith_multipart).
//
// Process 1 runs until the graph pauses and writes the checkpointer's state (MemorySaver's
// `storage` and `writes`, Uint8Arrays as base64) to <name>.checkpoint.tmp; process 2
// (`node gen-pause.mjs resume <name>`) loads it into a new MemorySaver, invokes the same graph on
// the same thread with Command({resume}) or null, and appends to the three files (the run tree
// file gets process 2's roots after process 1's). <name>.expected.json is what the two processes
// observed: model calls served, tool bodies entered/thrown, getState().next after each
// invocation. Usage: npm ci && node gen-pause.mjs
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { Client } from 'langsmith';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { Command, MemorySaver, interrupt } from '@langchain/langgraph';
import { ScriptedChatModel, RunTreeCollector, sleep } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OBS = { tools: 0, toolFailed: 0 };

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
// no await: returns in the millisecond it starts (end_time epoch ms < start_time's counter digits)
const echo = tool(
  ({ text }) => {
    OBS.tools++;
    return text;
  },
  { name: 'echo', description: 'Echo a text.', schema: z.object({ text: z.string() }) },
);

const SCENARIOS = {
  '07_interrupt_approve': {
    tools: [deleteFile],
    script: [() => ({ toolCalls: [{ name: 'delete_file', args: { path: '/tmp/a.txt' } }] }), () => ({ text: 'Deleted /tmp/a.txt.' })],
    first: 'Delete /tmp/a.txt',
    resume: () => new Command({ resume: 'approve' }),
  },
  '08_interrupt_reject': {
    tools: [deleteFile],
    script: [() => ({ toolCalls: [{ name: 'delete_file', args: { path: '/tmp/a.txt' } }] }), () => ({ text: 'I did not delete it.' })],
    first: 'Delete /tmp/a.txt',
    resume: () => new Command({ resume: 'reject' }),
  },
  '09_breakpoint_before_tools': {
    tools: [getWeather],
    interruptBefore: ['tools'],
    script: [() => ({ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }), () => ({ text: 'Paris: 18C.' })],
    first: 'Weather in Paris?',
    resume: () => null,
  },
  // as 07, but the capture server announces gzip (instance_flags.gzip_body_enabled): the client
  // gzips each multipart body (Content-Encoding: gzip), kept as sent
  '16_gzip_interrupt_approve': {
    tools: [deleteFile],
    script: [() => ({ toolCalls: [{ name: 'delete_file', args: { path: '/tmp/a.txt' } }] }), () => ({ text: 'Deleted /tmp/a.txt.' })],
    first: 'Delete /tmp/a.txt',
    resume: () => new Command({ resume: 'approve' }),
    gzip: true,
  },
  '10_fast_tools': {
    tools: [echo],
    script: Array.from({ length: 6 }, (_, i) => () => (i < 5 ? { toolCalls: [{ name: 'echo', args: { text: `t${i}` } }] } : { text: 'done' })),
    first: 'Echo five times.',
  },
};

function graphOf(name, saver) {
  const sc = SCENARIOS[name];
  const model = new ScriptedChatModel(sc.script, { delayMs: 0 });
  const graph = createReactAgent({ llm: model, tools: sc.tools, checkpointer: saver, interruptBefore: sc.interruptBefore, name: `pause-${name.slice(0, 2)}` });
  return { model, graph };
}

const enc = (_k, v) => (v instanceof Uint8Array ? { $u8: Buffer.from(v).toString('base64') } : v);
const dec = (_k, v) => (v && typeof v === 'object' && typeof v.$u8 === 'string' ? new Uint8Array(Buffer.from(v.$u8, 'base64')) : v);

// langsmith starts a server standing in for LangSmith and a LangChainTracer whose real Client
// sends to it; payloads gets the client's createRun/updateRun calls, bodies the multipart bodies.
async function langsmith(project, gzip) {
  const bodies = [];
  const payloads = [];
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') {
        if (!req.url.startsWith('/runs/multipart') || (req.headers['content-encoding'] ?? '') !== (gzip ? 'gzip' : '')) throw new Error(`unexpected ${req.url} ${req.headers['content-encoding']}`);
        bodies.push(Buffer.concat(chunks));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(gzip && req.url.startsWith('/info') ? JSON.stringify({ instance_flags: { gzip_body_enabled: true } }) : '{}');
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const client = new Client({ apiUrl: `http://127.0.0.1:${srv.address().port}`, apiKey: 'offline' });
  const create = client.createRun.bind(client);
  const update = client.updateRun.bind(client);
  client.createRun = async (run, opts) => {
    payloads.push(JSON.stringify({ op: 'createRun', run }));
    return create(run, opts);
  };
  client.updateRun = async (runId, run, opts) => {
    payloads.push(JSON.stringify({ op: 'updateRun', run_id: runId, run }));
    return update(runId, run, opts);
  };
  const tracer = new LangChainTracer({ client, projectName: project });
  const done = async () => {
    await client.awaitPendingTraceBatches();
    await sleep(100);
    await new Promise((r) => srv.close(r));
  };
  return { tracer, payloads, bodies, done };
}

// invoke runs one invocation with the four captures, appends them to the scenario's files and
// returns what it observed.
async function invoke(name, graph, model, input, config, append) {
  const events = [];
  const tree = new RunTreeCollector();
  const ls = await langsmith(name, SCENARIOS[name].gzip);
  const before = { calls: model.calls, tools: OBS.tools, failed: OBS.toolFailed };
  let raised = null;
  try {
    for await (const ev of graph.streamEvents(input, { version: 'v2', ...config, callbacks: [tree, ls.tracer] })) events.push(JSON.stringify(ev));
  } catch (e) {
    raised = `${e?.name}: ${e?.message}`;
  }
  await sleep(50);
  await ls.done();
  const st = await graph.getState(config);
  const scrub = (s) => s.split(HERE).join('/home/user/demo-project');
  const file = (ext) => path.join(HERE, `${name}.${ext}`);
  const w = append ? fs.appendFileSync : fs.writeFileSync;
  w(file('stream_events_v2.jsonl'), scrub(events.join('\n') + '\n'));
  w(file('langsmith_payloads.jsonl'), scrub(ls.payloads.join('\n') + '\n'));
  // gzip bodies are kept as sent (no scrub: this directory's path is in no body of these scenarios)
  w(file('langsmith_multipart'), Buffer.concat(ls.bodies.map((b) => (SCENARIOS[name].gzip ? b : Buffer.from(scrub(b.toString('utf8')))))));
  const roots = append ? JSON.parse(fs.readFileSync(file('run_tree.json'), 'utf8')) : [];
  fs.writeFileSync(file('run_tree.json'), scrub(JSON.stringify(roots.concat(JSON.parse(JSON.stringify(tree.roots))))));
  return {
    model_calls: model.calls - before.calls,
    tool_calls: OBS.tools - before.tools,
    failed_tool_calls: OBS.toolFailed - before.failed,
    next: st.next,
    raised,
  };
}

async function first(name) {
  const saver = new MemorySaver();
  const { model, graph } = graphOf(name, saver);
  const config = { configurable: { thread_id: `thread-${name}` } };
  const o = await invoke(name, graph, model, { messages: [new HumanMessage(SCENARIOS[name].first)] }, config, false);
  fs.writeFileSync(path.join(HERE, `${name}.checkpoint.tmp`), JSON.stringify({ storage: saver.storage, writes: saver.writes }, enc));
  return o;
}

async function resume(name) {
  const saved = JSON.parse(fs.readFileSync(path.join(HERE, `${name}.checkpoint.tmp`), 'utf8'), dec);
  const saver = new MemorySaver();
  Object.assign(saver.storage, saved.storage);
  Object.assign(saver.writes, saved.writes);
  const { model, graph } = graphOf(name, saver);
  model.calls = 1; // the script goes on after the call process 1 served
  const config = { configurable: { thread_id: `thread-${name}` } };
  const o = await invoke(name, graph, model, SCENARIOS[name].resume(), config, true);
  return o;
}

function outcome(o) {
  if (o.raised) return { status: 'failed', stop_reason: 'error' };
  return o.next.length ? { status: 'waiting', stop_reason: 'awaiting_approval' } : { status: 'completed', stop_reason: 'goal_reached' };
}

if (process.argv[2] === 'resume') {
  console.log(JSON.stringify(await resume(process.argv[3])));
} else {
  const only = process.argv.slice(2); // node gen-pause.mjs [name…]: only those scenarios
  for (const name of Object.keys(SCENARIOS).filter((n) => only.length === 0 || only.includes(n))) {
    const invs = [await first(name)];
    if (SCENARIOS[name].resume) {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'resume', name], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`resume ${name}: ${p.stderr}`);
      invs.push(JSON.parse(p.stdout.trim().split('\n').pop()));
    }
    fs.rmSync(path.join(HERE, `${name}.checkpoint.tmp`), { force: true });
    // one run per invocation, one turn each; a step per model call, plus a tool-only step when
    // the resumed invocation runs the pending tool before calling the model
    const steps = invs.reduce((n, o, i) => n + o.model_calls + (i > 0 && o.tool_calls > 0 ? 1 : 0), 0);
    const sum = (k) => invs.reduce((n, o) => n + o[k], 0);
    const expected = {
      sessions: 1, runs: invs.length, turns: invs.length, steps,
      model_calls: sum('model_calls'), tool_calls: sum('tool_calls'), failed_tool_calls: sum('failed_tool_calls'),
      runs_detail: invs.map(outcome),
      notes: `observed by gen-pause.mjs: ${JSON.stringify(invs)}`,
    };
    fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify(expected, null, 1) + '\n');
    console.log(name, JSON.stringify(invs));
  }
}
