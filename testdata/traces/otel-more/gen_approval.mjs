// Generates OTLP fixtures of Vercel AI SDK tool approvals and aborts, offline (same producers,
// capture and scripted models as gen.mjs; see README.md):
//   vercel-ai_10_approval_approve / _11_approval_reject  ai 6.0.326, a tool with needsApproval:
//     generateText call 1 stops with a tool-approval-request; call 2 gets the messages plus a
//     tool-approval-response (approved: true / false), executes (or denies) the call, and the
//     model answers. Two traces, written to one file as two Collector export batches (.otlp.jsonl);
//     no sessionId metadata: the only link between them is the tool call id.
//   vercel-ai_12_approval_session  the same approve flow with metadata.sessionId on both calls
//   vercel-ai-v7-genai_04_approval_approve / _05_approval_reject  ai 7.0.173 + @ai-sdk/otel (GenAI spans)
//   vercel-ai_13_abort_mid_tool  an AbortSignal fires while a tool runs
//   vercel-ai_14_approval_new_process  the approve flow with the continuation in a second process
//   vercel-ai_15_reject_new_process  the reject flow with the continuation in a second process
// Ground truth (<name>.expected.json) is what this script observed: doGenerate calls its model
// served, tool executions its tools ran and whether they threw or were aborted, the approval
// requests returned and answered, what each generateText returned or threw.
//
// Usage: npm ci && node gen_approval.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { generateText, tool, stepCountIs } from 'ai';
import * as ai7 from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { OpenTelemetry } from '@ai-sdk/otel';
import { sleep, memory, batches, provider, body, scrub, run, captureLines, toolCall, text, calls, answer, scripted, telemetry } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// node gen_approval.mjs [name…]: only the named fixtures (all when none is named)
const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

let obs;
const newObs = () => ({ model_calls: 0, tool_calls: 0, failed_tool_calls: 0, cancelled_tool_calls: 0, steps: 0, runs_detail: [] });
const counted = (m) => {
  const orig = m.doGenerate.bind(m);
  m.doGenerate = async (o) => { obs.model_calls++; return orig(o); };
  return m;
};
const refundExec = async ({ order_id }) => { obs.tool_calls++; await sleep(3); return `Refunded ${order_id}`; };
const refund = tool({ description: 'Refund an order (needs approval).', inputSchema: z.object({ order_id: z.string() }), needsApproval: true, execute: refundExec });
const slow = tool({
  description: 'Build a long report.', inputSchema: z.object({ topic: z.string() }),
  execute: async ({ topic }, { abortSignal }) => {
    obs.tool_calls++;
    try {
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, 2000);
        abortSignal?.addEventListener('abort', () => { clearTimeout(t); const e = new Error('This operation was aborted'); e.name = 'AbortError'; reject(e); }, { once: true });
      });
    } catch (e) { obs.cancelled_tool_calls++; throw e; }
    return `Report on ${topic}`;
  },
});
function write(name, notes) {
  const runs = obs.runs_detail.length;
  const want = { sessions: 1, runs, turns: runs, steps: obs.steps, model_calls: obs.model_calls, tool_calls: obs.tool_calls,
    failed_tool_calls: obs.failed_tool_calls, runs_detail: obs.runs_detail, notes };
  fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify(want, null, 1) + '\n');
  console.log(name, JSON.stringify(obs));
}
const outcomeOf = (r) => r.content.some((p) => p.type === 'tool-approval-request')
  ? { status: 'waiting', stop_reason: 'awaiting_approval' } : { status: 'completed', stop_reason: 'goal_reached' };

async function approvalFlow(gen, approved, metadata, finalText) {
  const model = counted(scripted([calls(toolCall('refund_order', { order_id: 'A-1001' })), answer(finalText)]));
  const prompt = [{ role: 'user', content: 'Refund order A-1001.' }];
  const tel = metadata ? telemetry('refund-assistant', metadata) : telemetry('refund-assistant');
  let first;
  const steps0 = obs.model_calls;
  const fns = [
    async () => {
      first = await gen({ model, tools: { refund_order: refund }, stopWhen: stepCountIs(5), messages: prompt, experimental_telemetry: tel });
      obs.steps += obs.model_calls - steps0;
      obs.runs_detail.push(outcomeOf(first));
      return `call 1: ${first.content.map((p) => p.type).join(',')}`;
    },
    async () => {
      const req = first.content.find((p) => p.type === 'tool-approval-request');
      const before = obs.model_calls, toolsBefore = obs.tool_calls;
      const r = await gen({
        model, tools: { refund_order: refund }, stopWhen: stepCountIs(5), experimental_telemetry: tel,
        messages: [...prompt, ...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: req.approvalId, approved }] }],
      });
      // an approved call runs before the first model call of this generateText: a tool-only step
      obs.steps += (obs.tool_calls > toolsBefore ? 1 : 0) + obs.model_calls - before;
      obs.runs_detail.push(outcomeOf(r));
      return `call 2: ${r.steps.length} steps, ${r.text}`;
    },
  ];
  return fns;
}

if (want('vercel-ai_10_approval_approve')) {
obs = newObs();
await captureLines('vercel-ai_10_approval_approve.otlp.jsonl', await approvalFlow(generateText, true, null, 'Order A-1001 was refunded.'));
write('vercel-ai_10_approval_approve', 'ai 6 generateText, needsApproval tool, no sessionId: trace 1 ends with a tool-approval-request (run 1 waiting, awaiting_approval); trace 2 (the call with the approval response) executes the approved call first, then the model answers: run 2, kind resume of run 1, one session');
}

if (want('vercel-ai_11_approval_reject')) {
obs = newObs();
await captureLines('vercel-ai_11_approval_reject.otlp.jsonl', await approvalFlow(generateText, false, null, 'The refund was not approved.'));
write('vercel-ai_11_approval_reject', 'as 10 but the approval response is approved: false: the call never executes (no tool call), the model answers');
}

if (want('vercel-ai_12_approval_session')) {
obs = newObs();
await captureLines('vercel-ai_12_approval_session.otlp.jsonl', await approvalFlow(generateText, true, { sessionId: 'chat-approval-12' }, 'Order A-1001 was refunded.'));
write('vercel-ai_12_approval_session', 'as 10 with experimental_telemetry.metadata.sessionId on both calls (ai.telemetry.metadata.sessionId)');
}

if (want('vercel-ai_13_abort_mid_tool')) {
obs = newObs();
await captureLines('vercel-ai_13_abort_mid_tool.otlp.jsonl', [async () => {
  const ac = new AbortController();
  const model = counted(scripted([calls(toolCall('build_report', { topic: 'Q3 sales' })), answer('unused')]));
  const before = obs.model_calls;
  setTimeout(() => ac.abort(), 80);
  try {
    await generateText({ model, tools: { build_report: slow }, stopWhen: stepCountIs(5), prompt: 'Write the Q3 report.', abortSignal: ac.signal, experimental_telemetry: telemetry('report-writer') });
    obs.runs_detail.push({ status: 'completed', stop_reason: 'goal_reached' });
  } catch (e) {
    obs.runs_detail.push(/abort/i.test(`${e?.name} ${e?.message}`) ? { status: 'cancelled', stop_reason: 'cancelled' } : { status: 'failed', stop_reason: 'error' });
    obs.error = `${e?.name}: ${e?.message}`;
  }
  obs.steps += obs.model_calls - before;
  return obs.error;
}]);
write('vercel-ai_13_abort_mid_tool', 'AbortSignal fires 80 ms in, while the tool runs (it honours abortSignal): the tool call is cancelled, not failed; the run is cancelled');
}

// ai 7 + @ai-sdk/otel GenAI spans: approve or reject
async function v7Approval(name, approved, orderId, finalText, notes) {
  obs = newObs();
  const genaiTel = (functionId) => ({ functionId, integrations: [new OpenTelemetry({ tracer: provider.getTracer('gen_ai') })] });
  const refund7 = ai7.tool({ description: 'Refund an order (needs approval).', inputSchema: z.object({ order_id: z.string() }), needsApproval: true, execute: refundExec });
  const model = counted(scripted([calls(toolCall('refund_order', { order_id: orderId })), answer(finalText)], MockLanguageModelV4));
  const prompt = [{ role: 'user', content: `Refund order ${orderId}.` }];
  let first;
  await captureLines(`${name}.otlp.jsonl`, [
    async () => {
      const b0 = obs.model_calls;
      first = await ai7.generateText({ model, tools: { refund_order: refund7 }, stopWhen: ai7.stepCountIs(5), messages: prompt, telemetry: genaiTel('refund-assistant') });
      obs.steps += obs.model_calls - b0;
      obs.runs_detail.push(outcomeOf(first));
      return first.content.map((p) => p.type).join(',');
    },
    async () => {
      const req = first.content.find((p) => p.type === 'tool-approval-request');
      const b0 = obs.model_calls, t0 = obs.tool_calls;
      const r = await ai7.generateText({ model, tools: { refund_order: refund7 }, stopWhen: ai7.stepCountIs(5), telemetry: genaiTel('refund-assistant'),
        messages: [...prompt, ...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: req.approvalId, approved }] }] });
      obs.steps += (obs.tool_calls > t0 ? 1 : 0) + obs.model_calls - b0;
      obs.runs_detail.push(outcomeOf(r));
      return r.text;
    },
  ]);
  write(name, notes);
}
if (want('vercel-ai-v7-genai_04_approval_approve')) {
  await v7Approval('vercel-ai-v7-genai_04_approval_approve', true, 'A-2002', 'Order A-2002 was refunded.', 'ai 7 + @ai-sdk/otel GenAI spans; as vercel-ai_10 (approve): run 1 waiting, run 2 kind resume of run 1 (the approved call, then the answer)');
}
if (want('vercel-ai-v7-genai_05_approval_reject')) {
  await v7Approval('vercel-ai-v7-genai_05_approval_reject', false, 'A-2003', 'The refund of A-2003 was not approved.', 'ai 7 + @ai-sdk/otel GenAI spans; as vercel-ai_11 (reject): run 1 waiting, run 2 kind resume of run 1; the rejected call never executes (no tool call), the model answers');
}


// vercel-ai_14_approval_new_process / vercel-ai_15_reject_new_process: the approve (reject) flow
// of 10 (11) with the continuation in a NEW process: process 1 runs generateText until the
// tool-approval-request and writes the conversation (prompt + result.response.messages, what a
// chat app persists) to a file; process 2 (`node gen_approval.mjs --continue <file>`) reads it,
// appends the tool-approval-response (approved: true / false) and calls generateText again with
// its own tracer provider; its export batch is appended to the same .otlp.jsonl file.
if (process.argv[2] === '--continue') {
  obs = newObs();
  const saved = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
  const model = counted(scripted([answer(saved.finalText)]));
  const tel = telemetry('refund-assistant');
  memory.reset();
  await provider.forceFlush();
  batches.batches = [];
  const r = await generateText({
    model, tools: { refund_order: refund }, stopWhen: stepCountIs(5), experimental_telemetry: tel,
    messages: [...saved.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: saved.approvalId, approved: saved.approved }] }],
  });
  await sleep(20);
  await provider.forceFlush();
  const lines = batches.batches.map((spans) => scrub(JSON.stringify(body(spans))));
  fs.appendFileSync(path.join(HERE, `${saved.name}.otlp.jsonl`), lines.join('\n') + '\n');
  console.log(JSON.stringify({ pid: process.pid, obs, outcome: outcomeOf(r), text: r.text }));
} else {
  const newProcess = async (NP, approved, orderId, finalText, notes) => {
    obs = newObs();
    const model = counted(scripted([calls(toolCall('refund_order', { order_id: orderId }))]));
    const prompt = [{ role: 'user', content: `Refund order ${orderId}.` }];
    let first;
    await captureLines(`${NP}.otlp.jsonl`, [async () => {
      first = await generateText({ model, tools: { refund_order: refund }, stopWhen: stepCountIs(5), messages: prompt, experimental_telemetry: telemetry('refund-assistant') });
      obs.steps += obs.model_calls;
      obs.runs_detail.push(outcomeOf(first));
      return first.content.map((p) => p.type).join(',');
    }]);
    const req = first.content.find((p) => p.type === 'tool-approval-request');
    if (!req) throw new Error(`${NP}: no tool-approval-request`);
    const state = path.join(HERE, `${NP}.conversation.tmp`);
    fs.writeFileSync(state, JSON.stringify({ name: NP, approved, finalText, messages: [...prompt, ...first.response.messages], approvalId: req.approvalId }));
    const { spawnSync } = await import('node:child_process');
    const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--continue', state], { encoding: 'utf8' });
    fs.rmSync(state, { force: true });
    if (p.status !== 0) throw new Error(`continue: ${p.stderr}`);
    const second = JSON.parse(p.stdout.trim().split('\n').pop());
    if (second.pid === process.pid) throw new Error('the continuation ran in the same process');
    // an approved call runs before the model is called again: a tool-only step; a rejected one never runs
    obs.steps += (second.obs.tool_calls > 0 ? 1 : 0) + second.obs.model_calls;
    obs.model_calls += second.obs.model_calls;
    obs.tool_calls += second.obs.tool_calls;
    obs.failed_tool_calls += second.obs.failed_tool_calls;
    obs.runs_detail.push(second.outcome);
    write(NP, notes);
  };
  if (want('vercel-ai_14_approval_new_process')) {
    await newProcess('vercel-ai_14_approval_new_process', true, 'A-3003', 'Order A-3003 was refunded.', 'as 10 (approve), the continuation in a second process from the conversation written to a file (prompt + response messages, then the tool-approval-response): run 2, kind resume of run 1, by the tool call id');
  }
  if (want('vercel-ai_15_reject_new_process')) {
    await newProcess('vercel-ai_15_reject_new_process', false, 'A-3004', 'The refund of A-3004 was not approved.', 'as 11 (reject, approved: false), the continuation in a second process from the conversation written to a file: run 2, kind resume of run 1, by the tool call id; the rejected call never executes (no tool call), the model answers');
  }
}
