// Generates DeepSeek Harness session logs by running the real harness offline (published npm
// packages @deepseek-ai/dsh-* 0.1.0-rc.8 and @deepseek-ai/cordis 4.0.4, pinned in package.json /
// package-lock.json; the snapshot under ../shared/src/deepseek-harness is 0.1.1-rc.2, which is on
// no registry). The composition is the harness's own: a Cordis Context with InvariantRegistry,
// SessionStore, LlmRuntime, SystemPrompt, ToolRuntime, AgentRegistry, ApprovalService,
// JsonlSessionPersistence (plaintext) and AgentLoop; the agent is made with ctx.agents.create and
// driven with agent.followup. The model is a scripted LlmAdapter (the harness's adapter extension
// point, registered with ctx.llm.registerAdapter) streaming the StreamChunk protocol (no network).
// Approvals are the harness's own seam: a `tools/pre-execute` listener returns {kind: 'ask'} for
// the sensitive tool, ApprovalService asks the `approval/request` answerer chain, and this script's
// answerer returns 'allowed-once' or 'rejected'. Each fixture is the session.jsonl that
// JsonlSessionPersistence wrote, copied unchanged.
//
// Ground truth (<name>.expected.json) is what this script observed: requests its adapter served,
// tool bodies entered (and whether they threw or saw their abort signal), approvals answered,
// prompts sent, what ended each prompt's work (the model answered without a tool call; or the
// script cancelled). Counting as testdata/samples/README.md: one prompt's turn is a run with one
// turn; a step is one model request with its tool effects; a call the approval rejected never runs
// (not a tool call); a tool aborted by a cancel is cancelled (not failed).
//
// 13_resume_new_process: process 1 runs a prompt and disposes; process 2 (`node --import
// ./node20.mjs gen.mjs --resume <root> <sessionId>`) loads the persisted session with
// ctx.agents.resume({resumeSessionId}) and runs a second prompt; persistence appends to the same
// file.
//
// Node 20: the harness wants Node >= 22; node20.mjs supplies Promise.withResolvers and stands in
// for node:zlib's Zstandard functions (only used with compression: 'zstd', not here).
//
// Usage: npm ci && node --import ./node20.mjs gen.mjs [name ...]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Context } from '@deepseek-ai/cordis';
import { InvariantRegistry } from '@deepseek-ai/dsh-invariants';
import { SessionStore, SessionId } from '@deepseek-ai/dsh-session';
import { LlmRuntime, LlmAdapter, createUserMessage } from '@deepseek-ai/dsh-llm';
import { ToolRuntime, defineTool } from '@deepseek-ai/dsh-tools';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { AgentRegistry } from '@deepseek-ai/dsh-agent';
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop';
import { ApprovalService } from '@deepseek-ai/dsh-user-approval';
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CWD = '/home/user/demo-project';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let obs;
const newObs = () => ({ model_calls: 0, tool_calls: 0, failed_tool_calls: 0, cancelled_tool_calls: 0, approvals: [], turns: 0, runs_detail: [] });

// Scripted adapter: the k-th request streams script[k] (blocks) as StreamChunks.
class ScriptedAdapter extends LlmAdapter {
  constructor(script) { super(); this.script = script; this.k = 0; }
  async *stream(opts) {
    const i = this.k++;
    obs.model_calls++;
    const blocks = this.script[Math.min(i, this.script.length - 1)];
    obs.last_answer_was_text = !blocks.some((b) => b.type === 'tool-call');
    let idx = 0;
    for (const b of blocks) {
      await sleep(2);
      if (opts.signal?.aborted) { yield { type: 'finish', reason: { kind: 'aborted' } }; return; }
      yield { type: 'block-start', index: idx, blockType: b.type };
      if (b.type === 'text') for (const w of b.text.split(/(?<= )/)) yield { type: 'text-delta', index: idx, text: w };
      if (b.type === 'tool-call') yield { type: 'tool-call-delta', index: idx, id: b.id, name: b.name, argumentsDelta: b.arguments };
      yield { type: 'block-end', index: idx, block: b };
      idx++;
    }
    yield { type: 'usage', usage: { inputTokens: 100 + 10 * i, outputTokens: 20 + i } };
    yield { type: 'finish', reason: { kind: obs.last_answer_was_text ? 'stop' : 'tool-calls' } };
  }
}
const call = (id, name, args) => ({ type: 'tool-call', id, name, arguments: JSON.stringify(args) });
const say = (text) => ({ type: 'text', text });

// compose boots the harness with JSONL persistence under root.
async function compose(root, script, answer) {
  const ctx = new Context();
  ctx.plugin(InvariantRegistry);
  ctx.plugin(SessionStore);
  ctx.plugin(LlmRuntime);
  ctx.plugin(SystemPrompt);
  ctx.plugin(ToolRuntime);
  ctx.plugin(AgentRegistry);
  ctx.plugin(ApprovalService);
  ctx.plugin(JsonlSessionPersistence, { root, compression: 'none' });
  ctx.plugin(AgentLoop);
  for (let i = 0; i < 100 && !ctx.get('agentLoop'); i++) await sleep(10);
  if (!ctx.get('agentLoop')) throw new Error('agent loop did not start');
  ctx.llm.registerAdapter(['scripted'], new ScriptedAdapter(script));
  const output = { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] };
  const body = (fn) => async (args, exec) => {
    obs.tool_calls++;
    try { return await fn(args, exec); } catch (e) {
      if (exec.signal?.aborted) obs.cancelled_tool_calls++; else obs.failed_tool_calls++;
      throw e;
    }
  };
  ctx.tools.register(defineTool({ name: 'refund_order', description: 'Refund an order (sensitive: needs approval).', parameters: { order_id: { type: 'string', required: true } }, output,
    execute: body(async ({ order_id }) => { await sleep(3); return `Refunded ${order_id}`; }) }));
  ctx.tools.register(defineTool({ name: 'lookup_order', description: 'Look up an order by id.', parameters: { order_id: { type: 'string', required: true } }, output,
    execute: body(async ({ order_id }) => { await sleep(3); return `Order ${order_id}: shipped, arriving Thursday`; }) }));
  ctx.tools.register(defineTool({ name: 'build_report', description: 'Build a long report.', parameters: { topic: { type: 'string', required: true } }, output,
    execute: body(async ({ topic }, exec) => {
      obs.report_started?.();
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, 3000);
        exec.signal?.addEventListener('abort', () => { clearTimeout(t); reject(Object.assign(new Error('aborted'), { name: 'AbortError' })); }, { once: true });
      });
      return `Report on ${topic}`;
    }) }));
  ctx.on('tools/pre-execute', async (exec, next) => (exec.name === 'refund_order' ? { kind: 'ask', reason: 'refunds need a human' } : next()));
  ctx.on('approval/request', async () => { obs.approvals.push(answer); return answer; });
  return ctx;
}

const prompt = (agent, text) => agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }));
// settle waits for the agent to go idle and the persisted file to hold the turn's end.
async function settle(agent, file, turns) {
  await sleep(20);
  await agent.whenIdle();
  for (let i = 0; i < 200; i++) {
    const n = fs.existsSync(file) ? (fs.readFileSync(file, 'utf8').match(/"type":"turn\/end"/g) ?? []).length : 0;
    if (n >= turns) return;
    await sleep(10);
  }
  throw new Error(`${file}: ${turns} turn ends not persisted`);
}
const sessionFile = (root, id) => path.join(root, `-${CWD.replaceAll('/', '-')}--`, id, 'session.jsonl');
const ended = () => (obs.last_answer_was_text ? { status: 'completed', stop_reason: 'goal_reached' } : { status: 'failed', stop_reason: 'error' });

async function scenario(name, notes, fn) {
  obs = newObs();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-'));
  const sid = `sess-${name.replaceAll('_', '-')}`;
  await fn(root, sid);
  const file = sessionFile(root, sid);
  fs.copyFileSync(file, path.join(HERE, `${name}.session.jsonl`));
  fs.rmSync(root, { recursive: true, force: true });
  const runs = obs.runs_detail.length;
  const want = { sessions: 1, runs, turns: obs.turns, steps: obs.model_calls, model_calls: obs.model_calls, tool_calls: obs.tool_calls,
    failed_tool_calls: obs.failed_tool_calls, runs_detail: obs.runs_detail, notes };
  fs.writeFileSync(path.join(HERE, `${name}.expected.json`), JSON.stringify(want, null, 1) + '\n');
  console.log(name, JSON.stringify(obs));
}

async function approval(root, sid, answer, finalText) {
  const ctx = await compose(root, [[call('call_fake_001', 'refund_order', { order_id: 'A-1001' })], [say(finalText)]], answer);
  const h = await ctx.agents.create({ sessionId: SessionId(sid), agentOptions: { provider: 'scripted', model: 'fake-model-1' }, meta: { cwd: CWD } });
  prompt(h.agent, 'Refund order A-1001.');
  obs.turns++;
  await settle(h.agent, sessionFile(root, sid), 1);
  obs.runs_detail.push(ended());
  await h.dispose();
}

const ARGV = process.argv.slice(2);
if (ARGV[0] === '--resume') {
  // process 2 of 13_resume_new_process: load the persisted session and run a second prompt
  const [, root, sid] = ARGV;
  obs = newObs();
  const ctx = await compose(root, [[say('It arrives Thursday.')]], 'rejected');
  const h = await ctx.agents.resume({ resumeSessionId: SessionId(sid), agentOptions: { provider: 'scripted', model: 'fake-model-1' } });
  prompt(h.agent, 'When does it arrive?');
  obs.turns++;
  await settle(h.agent, sessionFile(root, sid), 2);
  obs.runs_detail.push(ended());
  await h.dispose();
  process.stdout.write(JSON.stringify({ pid: process.pid, obs }) + '\n');
  process.exit(0);
}
const want = (n) => ARGV.length === 0 || ARGV.includes(n);

if (want('10_approval_approve')) await scenario('10_approval_approve', 'tools/pre-execute asks for refund_order; the approval/request answerer returns allowed-once: approval/asked + approval/decided inside the turn, the tool runs, the model answers (one prompt: one run, one turn)', (root, sid) => approval(root, sid, 'allowed-once', 'Order A-1001 was refunded.'));
if (want('11_approval_reject')) await scenario('11_approval_reject', 'as 10, the answerer returns rejected: the tool body never runs (not a tool call; the harness logs tool/call and a denial tool/result), the model answers', (root, sid) => approval(root, sid, 'rejected', 'The refund was not approved.'));
if (want('12_abort_mid_tool')) await scenario('12_abort_mid_tool', 'agent.cancel("user") while build_report runs: the tool sees its abort signal (cancelled, not failed), the turn ends aborted: run cancelled', async (root, sid) => {
  const ctx = await compose(root, [[call('call_fake_001', 'build_report', { topic: 'Q3 sales' })], [say('unused')]], 'rejected');
  const h = await ctx.agents.create({ sessionId: SessionId(sid), agentOptions: { provider: 'scripted', model: 'fake-model-1' }, meta: { cwd: CWD } });
  const started = new Promise((r) => { obs.report_started = r; });
  prompt(h.agent, 'Write the Q3 sales report.');
  obs.turns++;
  await started;
  await sleep(30);
  h.agent.cancel('user');
  await settle(h.agent, sessionFile(root, sid), 1);
  delete obs.report_started;
  if (obs.cancelled_tool_calls !== 1) throw new Error('abort not seen by the tool');
  obs.runs_detail.push({ status: 'cancelled', stop_reason: 'cancelled' });
  await h.dispose();
});
if (want('13_resume_new_process')) await scenario('13_resume_new_process', 'process 1: a prompt, a tool step, the answer, dispose; process 2 (gen.mjs --resume) loads the persisted session with ctx.agents.resume({resumeSessionId}) and runs a second prompt, appended to the same session.jsonl: two runs of one session', async (root, sid) => {
  const ctx = await compose(root, [[call('call_fake_001', 'lookup_order', { order_id: 'A-1001' })], [say('Order A-1001 has shipped.')]], 'rejected');
  const h = await ctx.agents.create({ sessionId: SessionId(sid), agentOptions: { provider: 'scripted', model: 'fake-model-1' }, meta: { cwd: CWD } });
  prompt(h.agent, 'Where is order A-1001?');
  obs.turns++;
  await settle(h.agent, sessionFile(root, sid), 1);
  obs.runs_detail.push(ended());
  await h.dispose();
  await sleep(100);
  const out = JSON.parse(execFileSync(process.execPath, ['--import', path.join(HERE, 'node20.mjs'), fileURLToPath(import.meta.url), '--resume', root, sid], { encoding: 'utf8' }).trim().split('\n').pop());
  if (out.pid === process.pid) throw new Error('resume ran in the same process');
  for (const k of ['model_calls', 'tool_calls', 'failed_tool_calls', 'cancelled_tool_calls', 'turns']) obs[k] += out.obs[k];
  obs.runs_detail.push(...out.obs.runs_detail);
});
process.exit(0);
