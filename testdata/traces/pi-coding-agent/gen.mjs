// Generates a pi-coding-agent (@mariozechner/pi-coding-agent 0.73.1) session fixture offline,
// with pi-ai's faux provider as the scripted model and the real read/edit/bash/ls tools working
// on a throw-away project in a temp directory. Two views of one execution are written:
//   02_branched_session.session.jsonl  the session file the SessionManager wrote
//   02_branched_session.events.jsonl   every AgentSession.subscribe() event
// The temp project's absolute path is replaced by /home/user/demo-project (nothing else is
// changed).
//
// Usage: npm ci && node gen.mjs
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

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-pi-'));
const cwd = path.join(root, 'demo-project');
const agentDir = path.join(root, 'agent');
const sessionDir = path.join(root, 'sessions');
fs.mkdirSync(path.join(cwd, 'src'), { recursive: true });
fs.mkdirSync(agentDir, { recursive: true });
fs.writeFileSync(path.join(cwd, 'package.json'), '{"name":"demo-project","type":"module"}\n');
fs.writeFileSync(path.join(cwd, 'README.md'), '# demo-project\n\nTiny math library.\n');
fs.writeFileSync(path.join(cwd, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
fs.writeFileSync(
  path.join(cwd, 'test.js'),
  "import { add } from './src/math.js';\nif (add(2, 3) !== 5) { console.error('FAIL: add'); process.exit(1); }\nconsole.log('ok: all tests passed');\n",
);

const faux = registerFauxProvider({ models: [{ id: 'faux-coder-1', name: 'Faux Coder 1', reasoning: false }] });
const model = faux.getModel();
const tc = (id, name, args) => fauxToolCall(name, args, { id });
faux.setResponses([
  // run A: "What does add() do?"
  fauxAssistantMessage([tc('toolu_01', 'read', { path: 'src/math.js' })], { stopReason: 'toolUse' }),
  fauxAssistantMessage('`add(a, b)` returns the sum of its two arguments.'),
  // run B (later abandoned): "Add a TODO to the README."
  fauxAssistantMessage(
    [fauxText('Adding the TODO.'), tc('toolu_02', 'edit', { path: 'README.md', edits: [{ oldText: 'Tiny math library.', newText: 'Tiny math library.\n\nTODO: add subtract().' }] })],
    { stopReason: 'toolUse' },
  ),
  fauxAssistantMessage('Added a TODO line to README.md.'),
  // run C (new branch from after run A): "Instead, just run the tests."
  fauxAssistantMessage([tc('toolu_03', 'ls', { path: '.' })], { stopReason: 'toolUse' }),
  fauxAssistantMessage([tc('toolu_04', 'bash', { command: 'node test.js' })], { stopReason: 'toolUse' }),
  fauxAssistantMessage('The project has README.md, package.json, src/ and test.js; `node test.js` passes.'),
]);

const authStorage = AuthStorage.inMemory({ faux: { type: 'api_key', key: 'faux-key' } });
const modelRegistry = ModelRegistry.inMemory(authStorage);
const { session } = await createAgentSession({
  cwd,
  agentDir,
  authStorage,
  modelRegistry,
  model,
  thinkingLevel: 'off',
  tools: ['read', 'edit', 'bash', 'ls'],
  sessionManager: SessionManager.create(cwd, sessionDir),
  settingsManager: SettingsManager.inMemory({}),
});

const events = [];
session.subscribe((ev) => {
  events.push(JSON.stringify(ev));
});

await session.prompt('What does add() in src/math.js do?');
const afterRunA = session.sessionManager.getLeafId();
await session.prompt('Add a TODO to the README about subtract().');
// navigate back to the end of run A: run B's entries stay in the file as an abandoned branch
const nav = await session.navigateTree(afterRunA, { summarize: false });
await session.prompt('Instead, list the files and run the tests.');
await session.agent.waitForIdle?.();

const sessionFile = session.sessionManager.getSessionFile();
const scrub = (s) => s.split(cwd).join(PLACEHOLDER);
fs.writeFileSync(path.join(HERE, '02_branched_session.session.jsonl'), scrub(fs.readFileSync(sessionFile, 'utf8')));
fs.writeFileSync(path.join(HERE, '02_branched_session.events.jsonl'), scrub(events.join('\n') + '\n'));
console.log(`navigate: ${JSON.stringify(nav)}; events: ${events.length}; pending faux: ${faux.getPendingResponseCount()}`);
session.dispose?.();
faux.unregister();
fs.rmSync(root, { recursive: true, force: true });
