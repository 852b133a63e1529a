// Generates pi-coding-agent (@mariozechner/pi-coding-agent 0.73.1) session fixtures offline for
// steering and abort, with pi-ai's faux provider as the scripted model and the real read/bash/ls
// tools on a throw-away project. For each scenario two views of one execution are written:
//   <name>.session.jsonl  the session file the SessionManager wrote
//   <name>.events.jsonl   every AgentSession.subscribe() event
// and <name>.expected.json, the ground truth counted from what this script observed (the
// subscribe() events: agent_start/agent_end, turn_start, assistant message_end and their
// stopReason, tool_execution_end and isError, session.steer() calls), not from lifeline.
// The temp project's absolute path is replaced by /home/user/demo-project (nothing else).
//
// Scenarios:
//   03_steer_mid_tool  session.steer() while the first tool runs: the steer is delivered before
//                      the next model call, inside the same prompt (one run, one turn)
//   04_abort_mid_tool  session.abort() while a bash tool runs (sleep): the tool is cancelled,
//                      the run ends aborted
//
// Usage: npm ci && node gen_steer.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createAgentSession,
  SessionManager,
  SettingsManager,
  AuthStorage,
  ModelRegistry,
} from '@mariozechner/pi-coding-agent';
import { registerFauxProvider, fauxAssistantMessage, fauxToolCall, fauxText } from '@mariozechner/pi-ai';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLACEHOLDER = '/home/user/demo-project';

async function scenario(name, responses, drive) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-pi-'));
  const cwd = path.join(root, 'demo-project');
  const agentDir = path.join(root, 'agent');
  const sessionDir = path.join(root, 'sessions');
  fs.mkdirSync(path.join(cwd, 'src'), { recursive: true });
  fs.mkdirSync(agentDir, { recursive: true });
  fs.writeFileSync(path.join(cwd, 'package.json'), '{"name":"demo-project","type":"module"}\n');
  fs.writeFileSync(path.join(cwd, 'README.md'), '# demo-project\n\nTiny math library.\n');
  fs.writeFileSync(path.join(cwd, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');

  const faux = registerFauxProvider({ models: [{ id: 'faux-coder-1', name: 'Faux Coder 1', reasoning: false }] });
  faux.setResponses(responses);
  const authStorage = AuthStorage.inMemory({ faux: { type: 'api_key', key: 'faux-key' } });
  const modelRegistry = ModelRegistry.inMemory(authStorage);
  const { session } = await createAgentSession({
    cwd, agentDir, authStorage, modelRegistry, model: faux.getModel(), thinkingLevel: 'off',
    tools: ['read', 'bash', 'ls'],
    sessionManager: SessionManager.create(cwd, sessionDir),
    settingsManager: SettingsManager.inMemory({}),
  });
  const events = [];
  const obs = { runs: 0, steps: 0, model_calls: 0, tool_calls: 0, failed_tool_calls: 0, steers: 0, stop_reasons: [], tool_errors: [] };
  session.subscribe((ev) => {
    events.push(JSON.stringify(ev));
    if (ev.type === 'agent_start') obs.runs++;
    if (ev.type === 'turn_start') obs.steps++;
    if (ev.type === 'message_end' && ev.message.role === 'assistant') { obs.model_calls++; obs.last_stop = ev.message.stopReason; }
    if (ev.type === 'agent_end') obs.stop_reasons.push(obs.last_stop);
    if (ev.type === 'tool_execution_end') {
      obs.tool_calls++;
      if (ev.isError) { obs.failed_tool_calls++; obs.tool_errors.push(JSON.stringify(ev.result?.content?.[0]?.text ?? '').slice(0, 120)); }
    }
  });
  await drive(session, obs);
  await session.agent.waitForIdle?.();
  const scrub = (s) => s.split(cwd).join(PLACEHOLDER);
  fs.writeFileSync(path.join(HERE, name + '.session.jsonl'), scrub(fs.readFileSync(session.sessionManager.getSessionFile(), 'utf8')));
  fs.writeFileSync(path.join(HERE, name + '.events.jsonl'), scrub(events.join('\n') + '\n'));
  console.log(name, JSON.stringify(obs), 'pending faux:', faux.getPendingResponseCount());
  session.dispose?.();
  faux.unregister();
  fs.rmSync(root, { recursive: true, force: true });
  return obs;
}

const tc = (id, name, args) => fauxToolCall(name, args, { id });
const status = { stop: ['completed', 'goal_reached'], aborted: ['cancelled', 'cancelled'] };
function expected(name, obs, cancelledTools, notes) {
  const want = {
    sessions: 1, runs: obs.runs, turns: obs.runs, steps: obs.steps, model_calls: obs.model_calls,
    tool_calls: obs.tool_calls, failed_tool_calls: obs.failed_tool_calls - cancelledTools,
    runs_detail: obs.stop_reasons.map((s) => ({ status: status[s][0], stop_reason: status[s][1] })),
    notes,
  };
  fs.writeFileSync(path.join(HERE, name + '.expected.json'), JSON.stringify(want, null, 1) + '\n');
}

// 03: steer while the first tool runs.
{
  const obs = await scenario('03_steer_mid_tool', [
    fauxAssistantMessage([tc('toolu_01', 'ls', { path: '.' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage([fauxText('Reading the README as asked.'), tc('toolu_02', 'read', { path: 'README.md' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage('The project is a tiny math library (README.md, package.json, src/).'),
  ], async (session, obs) => {
    let steered = false;
    session.subscribe((ev) => {
      if (ev.type === 'tool_execution_start' && !steered) {
        steered = true;
        obs.steers++;
        session.steer('Also read the README, please.');
      }
    });
    await session.prompt('List the files of the project.');
  });
  expected('03_steer_mid_tool', obs, 0, `one prompt; session.steer() while ls ran (${obs.steers} steer): the steer message is a user entry right after the ls toolResult, consumed by the next model call of the same run and turn`);
}

// 04: abort while a bash tool runs.
{
  let cancelled = 0;
  let abortedAt = false; // set when session.abort() was called
  const obs = await scenario('04_abort_mid_tool', [
    fauxAssistantMessage([tc('toolu_01', 'bash', { command: 'sleep 5; echo done' })], { stopReason: 'toolUse' }),
    fauxAssistantMessage('unused'),
  ], async (session, obs) => {
    session.subscribe((ev) => {
      if (ev.type === 'tool_execution_start') setTimeout(() => { abortedAt = true; session.abort(); }, 300);
      // a tool that ends with an error after abort() was called, while it ran, was cancelled
      if (ev.type === 'tool_execution_end' && ev.isError && abortedAt) cancelled++;
    });
    await session.prompt('Run the slow script.');
  });
  obs.cancelled_tools = cancelled;
  console.log('04 cancelled tools', cancelled);
  expected('04_abort_mid_tool', obs, cancelled, `session.abort() 300 ms into bash 'sleep 5': the tool ends isError (aborted), counted cancelled, not failed; the run's last assistant stopReason is ${obs.stop_reasons.join(',')}`);
}
