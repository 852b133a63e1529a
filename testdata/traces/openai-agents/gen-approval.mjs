// Generates the approval and abort trace fixtures of the OpenAI Agents SDK (JS, @openai/agents
// 0.20.0 pinned in package.json), with the capture and scripted model of gen.mjs (lib.mjs).
//
// Approvals: a `needsApproval` tool. Process 1 runs until the SDK interrupts the run
// (result.interruptions), writes `result.state.toString()` to <name>.state.tmp and a copy of the
// trace lines so far to <name>_paused.jsonl; process 2 (`node gen-approval.mjs resume <name>
// approve|reject`) loads the state with RunState.fromString, approves or rejects the call, runs
// again and appends its trace lines to <name>.jsonl. Abort: an AbortSignal fires while a slow tool
// runs. <name>.expected.json is what the script observed (model requests served, tool bodies
// entered/thrown/aborted, result.interruptions, what run() returned or threw), with the counting
// rules of ../../samples-py/README.md (a RunState resume continues the same run: one run, one turn
// per run() call; a rejected call never executes). Usage: npm ci && node gen-approval.mjs
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Agent, Runner, RunState, tool } from '@openai/agents';
import { cap, ids, sleep, call, say, ScriptedModel, ScriptedProvider } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OBS = { tool_calls: 0, failed_tool_calls: 0, cancelled_tool_calls: 0 };

const refund = tool({
  name: 'refund_order',
  description: 'Refund an order (sensitive: needs approval).',
  parameters: z.object({ order_id: z.string() }),
  needsApproval: true,
  execute: async ({ order_id }) => {
    OBS.tool_calls++;
    await sleep(2);
    return `Refunded ${order_id}`;
  },
});
const slowReport = tool({
  name: 'build_report',
  description: 'Build a long report.',
  parameters: z.object({ topic: z.string() }),
  execute: async ({ topic }, _ctx, details) => {
    OBS.tool_calls++;
    try {
      await sleep(2000, details?.signal);
    } catch (e) {
      if (e?.name === 'AbortError') OBS.cancelled_tool_calls++;
      else OBS.failed_tool_calls++;
      throw e;
    }
    return `Report on ${topic}`;
  },
});

const SCRIPTS = {
  '12_approval_approve': [[call('refund_order', { order_id: 'A-1001' })], [say('Order A-1001 was refunded.')]],
  '13_approval_reject': [[call('refund_order', { order_id: 'A-1001' })], [say('The refund of A-1001 was not approved.')]],
};

function agentFor(tools) {
  return new Agent({ name: 'support_agent', instructions: 'Help the customer.', tools });
}

async function first(name) {
  cap.sink = [];
  ids.n = 0;
  const model = new ScriptedModel(SCRIPTS[name]);
  const runner = new Runner({ modelProvider: new ScriptedProvider(model), workflowName: name, traceMetadata: { generator: 'lifeline-testdata' } });
  const agent = agentFor([refund]);
  const result = await runner.run(agent, 'Refund order A-1001.');
  await sleep(20);
  if (!result.interruptions?.length) throw new Error(`${name}: expected an interruption`);
  fs.writeFileSync(path.join(HERE, `${name}.state.tmp`), result.state.toString());
  const lines = cap.sink.join('\n') + '\n';
  fs.writeFileSync(path.join(HERE, `${name}.jsonl`), lines);
  fs.writeFileSync(path.join(HERE, `${name}_paused.jsonl`), lines);
  cap.sink = null;
  return { model_calls: model.calls, tool_calls: OBS.tool_calls, failed_tool_calls: 0, interruptions: result.interruptions.length };
}

async function resume(name, decision) {
  cap.sink = [];
  ids.n = 100; // the ids of process 1 are not reused
  const model = new ScriptedModel(SCRIPTS[name].slice(1));
  const runner = new Runner({ modelProvider: new ScriptedProvider(model), workflowName: name, traceMetadata: { generator: 'lifeline-testdata' } });
  const agent = agentFor([refund]);
  const state = await RunState.fromString(agent, fs.readFileSync(path.join(HERE, `${name}.state.tmp`), 'utf8'));
  for (const it of state.getInterruptions()) {
    if (decision === 'approve') state.approve(it);
    else state.reject(it);
  }
  const result = await runner.run(agent, state);
  await sleep(20);
  fs.appendFileSync(path.join(HERE, `${name}.jsonl`), cap.sink.join('\n') + '\n');
  cap.sink = null;
  return { model_calls: model.calls, tool_calls: OBS.tool_calls, failed_tool_calls: 0, interruptions: result.interruptions?.length ?? 0, final: result.finalOutput };
}

function write(name, want) {
  fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify({ sessions: 1, ...want }, null, 1) + '\n');
}

if (process.argv[2] === 'resume') {
  console.log(JSON.stringify(await resume(process.argv[3], process.argv[4])));
} else {
  for (const [name, decision] of [['12_approval_approve', 'approve'], ['13_approval_reject', 'reject']]) {
    const p1 = await first(name);
    const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'resume', name, decision], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`resume ${name}: ${p.stderr}`);
    const p2 = JSON.parse(p.stdout.trim().split('\n').pop());
    fs.rmSync(path.join(HERE, `${name}.state.tmp`));
    const waiting = { status: 'waiting', stop_reason: 'awaiting_approval' };
    const done = p2.interruptions ? waiting : { status: 'completed', stop_reason: 'goal_reached' };
    // the paused log alone: one waiting run, one turn, the model call that asked
    write(`${name}_paused`, { runs: 1, turns: 1, steps: p1.model_calls, model_calls: p1.model_calls, tool_calls: p1.tool_calls, failed_tool_calls: 0,
      runs_detail: [waiting], notes: `observed by gen-approval.mjs, process 1: ${JSON.stringify(p1)}` });
    // the whole log: one run (the RunState resume continues it), two turns; an approved call runs
    // in a tool-only step before the model is called again
    write(name, { runs: 1, turns: 2, steps: p1.model_calls + p2.model_calls + (p2.tool_calls > 0 ? 1 : 0),
      model_calls: p1.model_calls + p2.model_calls, tool_calls: p1.tool_calls + p2.tool_calls, failed_tool_calls: 0, runs_detail: [done],
      notes: `observed by gen-approval.mjs: process 1 ${JSON.stringify(p1)}; process 2 (${decision}) ${JSON.stringify(p2)}` });
    console.log(name, JSON.stringify(p1), JSON.stringify(p2));
  }
  // abort mid-tool: the signal fires while build_report runs
  cap.sink = [];
  ids.n = 0;
  OBS.tool_calls = OBS.cancelled_tool_calls = OBS.failed_tool_calls = 0;
  const model = new ScriptedModel([[call('build_report', { topic: 'Q3' })], [say('never')]]);
  const runner = new Runner({ modelProvider: new ScriptedProvider(model), workflowName: '14_abort_mid_tool', traceMetadata: { generator: 'lifeline-testdata' } });
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 60);
  let raised = null;
  try {
    await runner.run(agentFor([slowReport]), 'Write the Q3 report.', { signal: ac.signal });
  } catch (e) {
    raised = `${e?.name}: ${e?.message}`;
  }
  clearTimeout(timer);
  await sleep(50);
  fs.writeFileSync(path.join(HERE, '14_abort_mid_tool.jsonl'), cap.sink.join('\n') + '\n');
  cap.sink = null;
  const o = { model_calls: model.calls, ...OBS, raised };
  write('14_abort_mid_tool', { runs: 1, turns: 1, steps: 1, model_calls: model.calls, tool_calls: OBS.tool_calls, failed_tool_calls: OBS.failed_tool_calls,
    runs_detail: [raised ? { status: 'cancelled', stop_reason: 'cancelled' } : { status: 'completed', stop_reason: 'goal_reached' }],
    notes: `observed by gen-approval.mjs: ${JSON.stringify(o)}` });
  console.log('14_abort_mid_tool', JSON.stringify(o));
}
