//go:build cgo

package recognize_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/srcir"
	"github.com/lifeline-dev/lifeline/model"
)

// recognizeSrc builds the IR of a Python/TypeScript/JavaScript shape directory under
// testdata/shapes with the source front-end and recognizes it.
func recognizeSrc(t *testing.T, dir string) *recognize.Result {
	t.Helper()
	root := filepath.Join("testdata", "shapes", dir)
	files, err := srcir.Collect([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	prog, diags, err := srcir.BuildFiles(files, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	return recognize.Recognize(prog, recognize.Options{})
}

// recognizeFiles maps the files names (slash-separated, under dir) one by one, as a user names
// them, with the source front-end and recognizes them.
func recognizeFiles(t *testing.T, dir string, names ...string) *recognize.Result {
	t.Helper()
	var paths []string
	for _, f := range names {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(f)))
	}
	files, err := srcir.Collect(paths)
	if err != nil {
		t.Fatal(err)
	}
	prog, diags, err := srcir.BuildFiles(files, paths...)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	return recognize.Recognize(prog, recognize.Options{})
}

// srcEntry returns the entry whose function name ends with name.
func srcEntry(res *recognize.Result, name string) *model.Entry {
	for i := range res.Entries {
		if strings.HasSuffix(res.Entries[i].Func, name) {
			return &res.Entries[i]
		}
	}
	return nil
}

// wantExits checks that each line of want has an exit of e with that outcome.
func wantExits(t *testing.T, e *model.Entry, want map[int]string) {
	t.Helper()
	got := map[int]string{}
	for _, x := range e.Exits {
		got[x.Pos.Line] = x.Outcome
	}
	for line, outcome := range want {
		if got[line] != outcome {
			t.Errorf("exit at line %d: %q, want %q (exits %v)", line, got[line], outcome, got)
		}
	}
}

// wantEntryExits checks that the entries whose name ends in entry (a Python and a TypeScript
// twin may share it) have, at each file:line of want (file by base name), an exit with that
// outcome.
func wantEntryExits(t *testing.T, res *recognize.Result, entry string, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	found := false
	for _, e := range res.Entries {
		if !strings.HasSuffix(e.Func, entry) {
			continue
		}
		found = true
		for _, x := range e.Exits {
			got[filepath.Base(x.Pos.File)+":"+strconv.Itoa(x.Pos.Line)] = x.Outcome
		}
	}
	if !found {
		t.Errorf("%s: no entry (entries %v)", entry, res.Entries)
		return
	}
	for at, outcome := range want {
		if got[at] != outcome {
			t.Errorf("%s: exit at %s %q, want %q (exits %v)", entry, at, got[at], outcome, got)
		}
	}
}

func lines(sites []model.CallSite) []int {
	var out []int
	for _, s := range sites {
		out = append(out, s.Pos.Line)
	}
	return out
}

// TestSourceShapes checks the facts of the Python/TypeScript/JavaScript shapes: each names a
// class of agent code the source front-end and the shared recognizer must read.
func TestSourceShapes(t *testing.T) {
	type want struct {
		dir, entry          string
		kind                model.LoopKind
		loopLine, modelLine int
		toolLine            int // one of the tool sites
		parallel, cancel    bool
		cancelLine          int
		exits               map[int]string // line → outcome, among the entry's exits
		also                []string       // other entries that reach the same loop
		bound               string         // the bound's expression, if checked
		onBound             string         // what happens at it
		def                 string         // the bound's default, if checked
		not                 []string       // functions that are no entry
	}
	for _, w := range []want{
		// pygencycle: async generators; the next cycle is a recursion through a helper
		// generator (cycle -> run_tools -> recurse -> cycle); the model's reply is the stop
		// event of a stream kept in a variable and drained (events = call_model(...); async
		// for event in events), its stop reason compared with "tool_use"; the tools run in an
		// executor class, a task per tool use through two wrappers down to the lookup by
		// name; the tool results go back into the agent's messages through its add_messages
		// method; a cancel flag is checked in the helper before it recurses, which then
		// returns (cancelled); a raise after the step's model call fails the run; the
		// terminal a method returns (a middleware chain runs it later) reaches the loop, so
		// the method handing it over is an entry.
		// A limits helper called before the step compares the number of steps recorded with
		// an optional cap and returns the stop reason (return "limit_steps"): the bound.
		// pyreplyrecur: a recursion on the model's reply (upsonic==0.77.3 agent/agent.py:
		// 2662-2937): the caller asks the model once and hands the reply to a handler that
		// runs the reply's tool calls through a helper, asks the model again and hands the new
		// reply to itself; the decision is on its parameter, at the top of the next call.
		// The bound is a count of tool calls checked in the helper, with its keyword default.
		// jsdslloop: a workflow-DSL loop (@mastra/core@1.71.0 dist/agent-BOxKOk3n.js:30558):
		// createWorkflow(…).dowhile(executionWorkflow, async ({ inputData }) => …) only
		// records the step and the condition; the engine runs them later. The declaration is
		// the turn loop; its step workflow's steps (createStep({ execute }) objects built by
		// creator functions, .then(llm).map(…).foreach(tool, { concurrency: 10 })) pipe
		// what each returns into the next one's input: the model's reply is looked up by
		// name in the tool step, run per element concurrently, and tested by the condition;
		// the LLM step's abort check runs every iteration.
		{dir: "jsdslloop", entry: "agent.Agent.generate", kind: model.LoopFor, loopLine: 55, modelLine: 18, toolLine: 34,
			parallel: true, cancel: true, cancelLine: 54, exits: map[int]string{79: "failed"}},
		// pydecider: a decider helper tests the bound twice (agentscope==2.0.11
		// agent/_agent.py:3636, 3736): first in a branch that only forces the output tool,
		// then where it exits with a message whose finished_reason is EXCEED_MAX_ITERS; the
		// bound is the second test, a stop reason recorded.
		{dir: "pydecider", entry: "agent.Agent.reply", kind: model.LoopFor, loopLine: 57, modelLine: 61, toolLine: 67,
			bound: "self.config.max_iters", onBound: model.OnBoundStopReason, def: "50"},
		{dir: "pyreplyrecur", entry: "agent.Agent.do_async", kind: model.LoopRecursion, loopLine: 61, modelLine: 70, toolLine: 56,
			bound: "self.tool_call_limit", onBound: model.OnBoundSilent, def: "100"},
		// pymetalookup: the same recursion whose tool executor reads each tool's definition
		// by name for its metadata only (tool_defs.get(tool_call.tool_name): sequential?
		// description?) and runs the tool by handing the name to a helper that finds its
		// manager (upsonic==0.77.3 agent/agent.py:2358, 2514, 2551): the metadata lookup
		// selects nothing, the name handed on is the dispatch.
		{dir: "pymetalookup", entry: "agent.Agent.do_async", kind: model.LoopRecursion, loopLine: 86, modelLine: 92, toolLine: 77,
			parallel: true, bound: "self.tool_call_limit", onBound: model.OnBoundSilent, def: "100"},
		// pystopagain: the loop's condition is the bound and the body tests the same bound
		// again only to record the stop reason before the condition ends the loop
		// (praisonaiagents==1.7.17 llm/openai_client.py:2048, 2308-2309): a stop reason at
		// the bound, not a silent end.
		{dir: "pystopagain", entry: "client.OpenAIClient.chat_completion_with_tools", kind: model.LoopFor, loopLine: 19, modelLine: 20, toolLine: 27,
			bound: "max_iterations", onBound: model.OnBoundStopReason, def: "10"},
		// pyfieldor: the limit kept as self.max_iter = max_iter or 20 (keyword default None)
		// and read into a local through kwargs.pop("max_iterations", self.max_iter)
		// (praisonaiagents==1.7.17 llm/llm.py:742, 3424, 3438): the default is the 20.
		{dir: "pyfieldor", entry: "llm.LLM.get_response", kind: model.LoopFor, loopLine: 17, modelLine: 18, toolLine: 23,
			bound: "max_iterations", onBound: model.OnBoundSilent, def: "20"},
		{dir: "pygencycle", entry: "cycle.cycle", kind: model.LoopRecursion, loopLine: 77, modelLine: 82, toolLine: 35,
			parallel: true, cancel: true, cancelLine: 106, exits: map[int]string{91: "failed", 108: "cancelled"},
			also: []string{"cycle.Agent.stream", "cycle.Agent.stream_through"}, bound: "cap", onBound: model.OnBoundStopReason},
		// the same loop from the method that drains the terminal a middleware chain runs
		// (async for ev in middleware.run(prompt, self._make_terminal())): the run ends in
		// the generators it drains, whose exits are its own.
		{dir: "pygencycle", entry: "cycle.Agent.stream_through", kind: model.LoopRecursion, loopLine: 77, modelLine: 82, toolLine: 35,
			parallel: true, cancel: true, cancelLine: 106, exits: map[int]string{91: "failed", 108: "cancelled"}},
		// jsprivate: compiled TypeScript private members (tslib's __classPrivateFieldGet/Set,
		// private methods as functions beside the class called through a WeakSet): the model
		// call is this.#send(), its reply kept in the private field #reply and read back, the
		// tools looked up by name in the private Map #tools by this.#runTool() under
		// Promise.all.
		{dir: "jsprivate", entry: "runner.Runner.run", kind: model.LoopFor, loopLine: 19, modelLine: 20, toolLine: 39,
			parallel: true, exits: map[int]string{23: "completed", 28: "failed"}},
		// jsprivate/looper.js: the private method #send stores the reply in #reply and the loop
		// drops its result (await this.#send(messages); const reply = this.#reply): the method
		// call is the model call, its reply what it stored; a private counter's compiled
		// this.#count++ ((_a = …, _a++, _a)) is the bound's counter; this.#respond is the
		// private method, not the public respond; pending.then(…) elsewhere is a promise's,
		// not the thenable class's then (wait is no entry).
		{dir: "jsprivate", entry: "looper.Looper.run", kind: model.LoopFor, loopLine: 21, modelLine: 26, toolLine: 48,
			exits: map[int]string{29: "completed"}, bound: "this.settings.max_rounds", onBound: model.OnBoundSilent,
			also: []string{"looper.Looper.then"}},
		// tsasynciter: an async-iterable class with native private members (#client, #reply,
		// #runTool): its [Symbol.asyncIterator] holds the loop, and runUntilDone, which drains
		// the instance itself (for await (const _ of this)), runs it.
		{dir: "tsasynciter", entry: "runner.ToolRunner.runUntilDone", kind: model.LoopFor, loopLine: 21, modelLine: 22, toolLine: 35,
			parallel: true, also: []string{"runner.ToolRunner.[Symbol.asyncIterator]"}},
		// tsprivloop / jsprivloop (issue 11): a subclass's public static factory hands a closure
		// calling the private _runTools (the counted loop: model call, tools under
		// Promise.allSettled, abort check) to _run(fn), inherited from a base class in another
		// file, which calls fn in a callback of its own (Promise.resolve().then(async () => {
		// await fn() })): the factory is the loop's entry, and so is the private method the
		// run it starts in the background runs (TestHeldEntries).
		{dir: "tsprivloop", entry: "runner.ToolLoop.runTools", kind: model.LoopFor, loopLine: 15, modelLine: 16, toolLine: 21,
			parallel: true, cancel: true, cancelLine: 25, bound: "maxRounds", onBound: model.OnBoundSilent, def: "10",
			also: []string{"runner.ToolLoop._runTools"}},
		{dir: "jsprivloop", entry: "runner.ToolLoop.runTools", kind: model.LoopFor, loopLine: 18, modelLine: 19, toolLine: 24,
			parallel: true, cancel: true, cancelLine: 28, bound: "maxRounds", onBound: model.OnBoundSilent, def: "10",
			also: []string{"runner.ToolLoop._runTools"}},
		// tsfactory / jsfactory / pyfactory: a subclass's public static factory (in a module of
		// its own) builds an instance and hands a closure calling the private loop it inherits
		// from a base class in another module to _run(executor), inherited in turn from an
		// event stream that starts executor in a timer or a thread (setTimeout(() => {
		// executor() }, 0), threading.Thread(target=...).start()): the factory is the entry and
		// its return hands back a run left running (started). The model call is the polymorphic
		// this._createChatCompletion (a second subclass overrides it); the bound is a
		// destructured option defaulting to a constant of another module. jsfactory is tsc's
		// CommonJS output, the loop in a #private method (__classPrivateFieldGet(this,
		// _X_instances, "m", _X_loop)); pyfactory a class method that builds cls().
		{dir: "tsfactory", entry: "chat-completion-runner.ChatCompletionRunner.runTools", kind: model.LoopFor, loopLine: 21, modelLine: 22, toolLine: 37,
			cancel: true, cancelLine: 40, bound: "maxChatCompletions", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{8: model.OutcomeStarted}, also: []string{"streaming-runner.StreamingRunner.runTools", "AbstractRunner._runTools"}},
		// jsfnref/standalone.js: the tool runner is a function declaration of another module
		// handed by name to map under Promise.all: followed as a helper handed each element.
		{dir: "jsfnref", entry: "standalone.runTools", kind: model.LoopFor, loopLine: 9, modelLine: 10, toolLine: 17,
			parallel: true, exits: map[int]string{14: "completed"}, not: []string{"run-tool.runToolCall"}},
		{dir: "jsfactory", entry: "chat-completion-runner.ChatCompletionRunner.runTools", kind: model.LoopFor, loopLine: 30, modelLine: 31, toolLine: 40,
			parallel: true, cancel: true, cancelLine: 44, bound: "maxChatCompletions", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{10: model.OutcomeStarted}, also: []string{"streaming-runner.StreamingRunner.runTools", "_AbstractRunner_loop"},
			not: []string{"AbstractRunner._runTools"}},
		// jsfnref: jsfactory as openai-node 7.55 writes it: _run hands the executor to a
		// promise chain written one call a line (Promise.resolve()\n.then(executor)\n.catch(…));
		// the bound is destructured beside another option (const { maxChatCompletions =
		// DEFAULT_MAX_CHAT_COMPLETIONS, afterCompletion } = options || {}); the tools run in a
		// local closure handed by name to map under Promise.allSettled (parallel) or called
		// one by one; the history goes out through a mapper handed by name. The protected
		// _runTools is followed, and is the entry of the run started in the background too.
		{dir: "jsfnref", entry: "chat-completion-runner.ChatCompletionRunner.runTools", kind: model.LoopFor, loopLine: 40, modelLine: 41, toolLine: 37,
			parallel: true, cancel: true, cancelLine: 72, bound: "maxChatCompletions", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{15: model.OutcomeStarted, 48: "failed", 53: "completed", 65: "failed", 73: "cancelled"},
			also:  []string{"AbstractRunner._runTools"}},
		// jsoptchain: jsfactory compiled for ES2017, its optional chains written out as tests
		// of temporaries ((_a = chatCompletion.choices[0]) === null || _a === void 0 ? void 0 :
		// _a.message): read back, the reply's message is tested and its tool calls dispatched.
		{dir: "jsoptchain", entry: "chat-completion-runner.ChatCompletionRunner.runTools", kind: model.LoopFor, loopLine: 31, modelLine: 32, toolLine: 41,
			parallel: true, cancel: true, cancelLine: 45, bound: "maxChatCompletions", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{10: model.OutcomeStarted}, also: []string{"streaming-runner.StreamingRunner.runTools", "_AbstractRunner_loop"},
			not: []string{"AbstractRunner._runTools"}},
		// jsawaiter: jsfactory compiled for ES2015, every async method a generator run by
		// tslib's __awaiter (yield for await): read back as the async body it stands for.
		{dir: "jsawaiter", entry: "chat-completion-runner.ChatCompletionRunner.runTools", kind: model.LoopFor, loopLine: 34, modelLine: 35, toolLine: 44,
			parallel: true, cancel: true, cancelLine: 48, bound: "maxChatCompletions", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{10: model.OutcomeStarted}, also: []string{"streaming-runner.StreamingRunner.runTools", "_AbstractRunner_loop"},
			not: []string{"AbstractRunner._runTools"}},
		{dir: "pyfactory", entry: "runner.ChatCompletionRunner.run_tools", kind: model.LoopFor, loopLine: 22, modelLine: 23, toolLine: 33,
			bound: "max_chat_completions", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{11: model.OutcomeStarted}, also: []string{"streaming.StreamingRunner.run_tools", "AbstractRunner._run_tools"}},
		// subscriptdispatch: the tool looked up by name is a record whose callable is read by
		// its quoted key (tool["function"](args), by_name[name]["function"](args)): that call
		// runs the selected tool.
		{dir: "subscriptdispatch", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 8, modelLine: 9, toolLine: 15,
			bound: "max_turns", onBound: model.OnBoundError, def: "8", exits: map[int]string{12: "completed", 17: "failed"}},
		{dir: "subscriptdispatch", entry: "lookup.Agent.run", kind: model.LoopFor, loopLine: 8, modelLine: 9, toolLine: 14,
			bound: "max_turns", onBound: model.OnBoundError, def: "8", exits: map[int]string{12: "completed", 16: "failed"}},
		{dir: "subscriptdispatch", entry: "runner.Runner.run", kind: model.LoopFor, loopLine: 6, modelLine: 7, toolLine: 11,
			bound: "maxTurns", onBound: model.OnBoundError, def: "8", exits: map[int]string{9: "completed", 15: "failed"}},
		// singlecall: one function call per reply (the legacy function_call): the loop leaves
		// when the reply's function_call is absent, otherwise looks up the function its name
		// selects and runs it; no collection of the reply is iterated.
		{dir: "singlecall", entry: "agent.FunctionAgent.run", kind: model.LoopFor, loopLine: 7, modelLine: 8, toolLine: 15,
			bound: "max_rounds", onBound: model.OnBoundSilent, def: "6", exits: map[int]string{12: "completed", 17: "completed"}},
		{dir: "singlecall", entry: "runner.FunctionAgent.run", kind: model.LoopFor, loopLine: 5, modelLine: 6, toolLine: 14,
			bound: "maxRounds", onBound: model.OnBoundSilent, def: "6", exits: map[int]string{10: "completed", 17: "completed"}},
		// jsretrywrap: the model call is made in the attempt a retry helper repeats, through a
		// telemetry wrapper's execute option, the result spread into literals on its way back:
		// it is the model call (not the helper), scored with the flow of what the helper
		// returns and fed by the tool results appended to what it receives.
		{dir: "jsretrywrap", entry: "agent.run", kind: model.LoopFor, loopLine: 10, modelLine: 15, toolLine: 24,
			parallel: true},
		// pystepgen: a step loop of async generators (issue 11): while True drains one step's
		// events through async with Aclosing(self._run_one_step_async(ctx)) as agen and
		// leaves on a predicate of the last event; the step relays the model's stream (two
		// generators deep, each item handed on whole) into a postprocessing generator whose
		// function calls reach the tool lookup by name through a helper. The loop around the
		// drain is the turn loop (the drain is none), the relayed stream's call the model
		// call; a break under the aborted flag before the step ends the run cancelled.
		{dir: "pystepgen", entry: "flow.Flow.run_async", kind: model.LoopFor, loopLine: 30, modelLine: 46, toolLine: 80,
			cancel: true, cancelLine: 31, exits: map[int]string{32: "cancelled", 39: "completed"}},
		// jsstepgen: the same step loop as esbuild's ESM has it (@google/adk@2.0.0
		// dist/esm/agents/llm_agent.js:437-465, 841-942, 1066-1115): the model generator
		// relays each response behind an after-model override (yield altered != null ?
		// altered : response), which is still the response; the abort check is the first
		// statement of the drain of the step's events (for await (const event of
		// this.runOneStepAsync(ctx)) { if (ctx.abortSignal?.aborted) return; … }), on every
		// item of the step every iteration drains: a check between steps.
		{dir: "jsstepgen", entry: "flow.Agent.runAsyncImpl", kind: model.LoopFor, loopLine: 15, modelLine: 34, toolLine: 76,
			cancel: true, cancelLine: 18, exits: map[int]string{19: "cancelled"}},
		// pystephelper: a while True loop repeats a step helper (self.step() ->
		// self.get_observation(self.query())) whose model call's result never comes back to
		// the loop: the query's result is handed, without a name, to the helper that looks
		// the tools up by name, and the loop leaves on a test of the conversation the step's
		// methods appended to (self.messages[-1]["role"] == "exit"), the same conversation
		// the model call is handed. The queue consumer, the retry loop and the stream drain
		// of neg.py are none: the consumer's source is handed no state its loop tests. The
		// bound is the query's chained limit check, optional, and raises LimitsExceeded: of its
		// two limits (0 < self.step_limit <= self.n_calls, a counter the query increments, off
		// by its keyword default 0; 0 < self.cost_limit <= self.cost, the cost the query
		// accumulates) the one whose default sets a limit, cost_limit=3.0.
		{dir: "pystephelper", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 53, modelLine: 64, toolLine: 77,
			bound: "self.cost_limit", onBound: model.OnBoundError, def: "3.0", exits: map[int]string{61: "completed"}, not: []string{"neg.Worker.serve", "neg.Retrier.ask", "neg.Streamer.stream"}},
		// tsstephelper: the same in TypeScript: the loop delegates each step to an async
		// generator (yield* this.processSingleTurnWithTools(...)) that streams the model's
		// reply, collects the tool calls of its chunks (calls.push(tc)) and runs them
		// after the stream through a helper that finds the tool by name; the loop leaves on
		// the last message the step pushed (const last = this.messages.at(-1); if
		// (last.role !== "tool" && numTurns > MAX_NUM_TURNS) return).
		{dir: "tsstephelper", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 72, modelLine: 46, toolLine: 41,
			bound: "MAX_NUM_TURNS", onBound: model.OnBoundSilent, def: "20", exits: map[int]string{77: "completed"}},
		// jsstoreloop (@aigne/core@1.72.0 lib/esm/agents/ai-agent.js:355-506): for (;;) whose
		// body ends with return and repeats only through the continue of the tools branch,
		// after a rethrow of the error a tool queue captured (no retry loop); the model's
		// stream merged into an accumulator by a helper outside the set; the tools' messages
		// appended to a session store by its own method, read back (await
		// session.getMessages()) by the next model call; tools in a queue of concurrency 1.
		// The tool error the queue captured, thrown in the loop (if (error) throw error, 57),
		// ends the run failed (ai-agent.js:467-468).
		{dir: "jsstoreloop", entry: "agent.AIAgent.process", kind: model.LoopFor, loopLine: 25, modelLine: 27, toolLine: 44,
			exits: map[int]string{21: "not_started", 57: "failed", 68: "completed"}},
		// tsrecurturn (@genkit-ai/ai@1.42.0 src/generate/action.ts:127-164, 232-331, 337-570):
		// the turn recursion goes through helpers that hand the turn on in an options object
		// (generateHelper(registry, { currentTurn: currentTurn + 1 })), so the parameter
		// passed on as itself + 1 is the recursion's counter and `currentTurn + 1 >
		// maxIterations` (maxIterations = rawRequest.maxTurns ?? 5) its bound (before: none);
		// the tools' own interruption, a local flag or a helper's result (let interrupted =
		// false; const { interruptedResponse } = await resolveResumeOption(...)), is a pause,
		// not a cancel request (before: cancellation checked at 122).
		{dir: "tsrecurturn", entry: "generate.generate", kind: model.LoopRecursion, loopLine: 107, modelLine: 131, toolLine: 146,
			parallel: true, bound: "maxIterations", onBound: model.OnBoundError, def: "5",
			exits: map[int]string{135: "completed", 140: "failed"}},
		// jsafcbatch (@google/genai@3.3.0 dist/node/index.mjs:15980-16035): the whole list of
		// calls the response asks for, the one whose emptiness ends the loop, handed to each
		// of the caller's callable tools (callableTool.callTool(response.functionCalls)) whose
		// parts go into the next request: the tool site, one runner for every call (before:
		// no dispatch, no turn loop, no entry).
		{dir: "jsafcbatch", entry: "Models.generateContent", kind: model.LoopFor, loopLine: 70, modelLine: 71, toolLine: 80,
			bound: "maxRemoteCalls", onBound: model.OnBoundSilent, def: "10", exits: map[int]string{93: "completed"}},
		// jsafcbatch (index.mjs:16452-16531): the bound tested in the async generator a method
		// returns is the method's local (const maxRemoteCalls = … ?? DEFAULT_MAX_REMOTE_CALLS),
		// its default the module constant (before: no default).
		{dir: "jsafcbatch", entry: "Models.processAfcStream", kind: model.LoopFor, loopLine: 136, modelLine: 141, toolLine: 149,
			bound: "maxRemoteCalls", onBound: model.OnBoundSilent, def: "10"},
		// tsctorwrap (@genkit-ai/ai@1.42.0 src/generate/action.ts:477-511, response.ts:59-97):
		// the model's reply handed to a constructor of the set (new GenerateResponse(reply),
		// whose constructor builds this.message = new Message(...)) and read back through the
		// instance's fields: the instance carries the reply to the tool-request test.
		{dir: "tsctorwrap", entry: "generate.generate", kind: model.LoopFor, loopLine: 52, modelLine: 53, toolLine: 63,
			bound: "maxTurns", onBound: model.OnBoundError, def: "5", exits: map[int]string{58: "completed", 68: "failed"}},
		// pysteppred: the loop's leave test is a predicate of the receiver reading the
		// history the step appended to (while not self.finished(); done, why = self.done();
		// if done: return why): the state test of the step's model call.
		{dir: "pysteppred", entry: "runner.Runner.run", kind: model.LoopFor, loopLine: 14, modelLine: 26, toolLine: 29,
			bound: "self.max_turns", onBound: model.OnBoundStopReason, def: "10", exits: map[int]string{19: "completed"}},
		{dir: "pysteppred", entry: "runner.Session.run", kind: model.LoopFor, loopLine: 43, modelLine: 55, toolLine: 58,
			exits: map[int]string{47: "completed"}},
		// pyparamstate: the state the step writes is an object the loop hands it, not the
		// receiver: a parameter (step(llm, state=interpreter); if
		// interpreter.messages[-1]["role"] == "assistant": break) or a local (st =
		// State(prompt); while not st.finished: step(llm, st)); the step's model call is
		// handed state.messages and appends to it. The queue consumer and the retry loop of
		// neg.py, testing fields of objects they hand along, are none.
		{dir: "pyparamstate", entry: "agent.respond", kind: model.LoopFor, loopLine: 24, modelLine: 13, toolLine: 19,
			exits: map[int]string{28: "completed"}, not: []string{"neg.serve", "neg.ask"}},
		{dir: "pyparamstate", entry: "agent.run", kind: model.LoopFor, loopLine: 33, modelLine: 13, toolLine: 19,
			exits: map[int]string{35: "completed"}},
		// tsparamstate: the same in TypeScript (await step(llm, session); const last =
		// session.messages.at(-1); if (last.role !== "tool") return last.content).
		{dir: "tsparamstate", entry: "agent.respond", kind: model.LoopFor, loopLine: 24, modelLine: 11, toolLine: 18,
			exits: map[int]string{28: "completed"}},
		{dir: "tsparamstate", entry: "agent.run", kind: model.LoopFor, loopLine: 35, modelLine: 11, toolLine: 18,
			exits: map[int]string{38: "completed"}},
		// jscollstate: the state is the message list itself, a parameter of the step
		// generator (yield* this.turn(messages, …) pushing into messages; const currentLast =
		// messages.at(-1) tested by the loop), the bound tested only after a turn without
		// tools. neg.js, a batch worker filling the list it hands a helper that looks handlers
		// up by kind, is none.
		{dir: "jscollstate", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 68, modelLine: 14, toolLine: 50,
			bound: "MAX_NUM_TURNS", onBound: model.OnBoundSilent, def: "10", exits: map[int]string{82: "completed", 85: "completed"},
			not: []string{"neg.Worker.drain", "neg.Worker.fill"}},
		// jsstephelper: tsstephelper compiled to CommonJS for ES2017 by esbuild and by tsc:
		// the async generator methods are methods returning __asyncGenerator(this, …,
		// function* (…) { … }), their awaits yields of __await, the delegation yield*
		// __yieldStar(…) / __asyncDelegator(__asyncValues(…)), the for await a loop over
		// __forAwait / __asyncValues, ?? and ?. written out with temporaries, and esbuild's
		// exports getters of __export: read back as the source they stand for, they map as
		// it does.
		{dir: "jsstephelper/esbuild", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 130, modelLine: 91, toolLine: 85,
			bound: "MAX_NUM_TURNS", onBound: model.OnBoundSilent, def: "20", exits: map[int]string{135: "completed"}},
		{dir: "jsstephelper/tsc", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 88, modelLine: 49, toolLine: 41,
			bound: "MAX_NUM_TURNS", onBound: model.OnBoundSilent, def: "20", exits: map[int]string{93: "completed"}},
		// jsfactoryexec: the tool executor is an object a factory function constructs (one of
		// two classes, or the caller's own: resolveExecutor(config.executor) kept in
		// this._executor); the call on that field runs either class's execute, each looking
		// the tools up by name (the concurrent one under Promise.all).
		{dir: "jsfactoryexec", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 50, modelLine: 51, toolLine: 14,
			parallel: true, exits: map[int]string{54: "completed"}},
		// jsctorarrow: the public method is an arrow the constructor assigns to a field of
		// this (this.generateContent = async (params) => { … }): a method of the class, in
		// the constructor's scope, so it is an entry and Chat.sendMessage reaches it through
		// this.models.generateContent(…).
		{dir: "jsctorarrow", entry: "models.Models.generateContent", kind: model.LoopFor, loopLine: 17, modelLine: 18, toolLine: 23,
			exits: map[int]string{28: "completed"}, bound: "maxRemoteCalls", onBound: model.OnBoundSilent, def: "10",
			also: []string{"models.Chat.sendMessage"}},
		// jscjsindex: tsc's CommonJS index re-exports the step loop (Object.defineProperty(
		// exports, "generateText", { get: function () { return steps_1.generateText; } }),
		// and a member assignment (exports.streamText = stream.streamText) the streaming one;
		// the agent's (0, index_1.generateText)(…) reaches the loop through it.
		{dir: "jscjsindex", entry: "agent.Agent.generateText", kind: model.LoopFor, loopLine: 8, modelLine: 9, toolLine: 14,
			bound: "maxSteps", def: "20", onBound: model.OnBoundError},
		{dir: "jscjsindex", entry: "agent.Agent.streamText", kind: model.LoopFor, loopLine: 7, modelLine: 8, toolLine: 13,
			bound: "maxSteps", def: "5", onBound: model.OnBoundSilent},
		// jsmiddletool: the tool looked up by name is handed down (a hook's replacement or
		// the registered one, a helper's parameter, a field of the context object an
		// external middleware registry hands its terminal callback, a method of the
		// instance reached through const executor = this) to where a method of it runs: the
		// lookup runs a tool, so the helper asking the model is the step's model call; the
		// tool site is that run (selected.stream(input), line 58), not the first hand-over
		// (this.attempt(tool, call), line 45).
		{dir: "jsmiddletool", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 22, modelLine: 23, toolLine: 58,
			exits: map[int]string{25: "completed"}},
		// jsracepool: the default executor starts a generator per tool call in a per-element
		// callback and races their next steps until none is pending (while (pending.size >
		// 0) … Promise.race(pending.values())): the tools run in parallel, though the tool
		// runs four generators below the per-element hand-over, on a path the sequential
		// executor shares.
		{dir: "jsracepool", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 22, modelLine: 23, toolLine: 55,
			parallel: true, exits: map[int]string{25: "completed"}},
		// tsstepgen: the same in TypeScript (for await (const event of this.runOneStep(ctx)),
		// async *callLlm relaying this.llm.generateContent(request), new Event(response.content)).
		{dir: "tsstepgen", entry: "flow.Flow.runAsync", kind: model.LoopFor, loopLine: 23, modelLine: 40, toolLine: 70,
			cancel: true, cancelLine: 24, exits: map[int]string{25: "cancelled", 36: "completed"}},
		// tsmapconc: the step's tool calls go through a concurrency helper
		// (mapWithConcurrency({ items, limit, execute })) that awaits the callback it is handed
		// for each element, all at once (Promise.all(items.map(execute))) or through a pool of
		// workers: the callback takes the elements and runs in parallel; it hands each to a
		// helper that looks the tool up through a lookup helper (getOwn(tools, toolName)) and
		// runs it inside a tracing wrapper's execute option.
		{dir: "tsmapconc", entry: "agent.generate", kind: model.LoopFor, loopLine: 48, modelLine: 49, toolLine: 32,
			parallel: true, bound: "maxSteps", onBound: model.OnBoundSilent},
		// tsmapconc/seq.ts: a helper that awaits the callback for each element in turn: the
		// elements reach the callback, the tools run sequentially.
		{dir: "tsmapconc", entry: "seq.loop", kind: model.LoopFor, loopLine: 13, modelLine: 14, toolLine: 21},
		// tsmapconc/pool.ts: a helper that starts the callback for each element without
		// awaiting it (running.push(fn(item))) and awaits them together: parallel.
		{dir: "tsmapconc", entry: "pool.drive", kind: model.LoopFor, loopLine: 13, modelLine: 14, toolLine: 21, parallel: true},
		// tsstreamstep: a streamed step loop as a recursion through a stream's callbacks: the
		// model's stream is piped through a transform stage that runs the tools as their calls
		// arrive (each chunk the stage's transform takes is an element of the result), then
		// through one that collects the step's tool calls, whose flush (a method of the object
		// literal handed to new TransformStream) starts the next step unless none was asked
		// for or a stop condition of stopWhen holds (default stepCountIs(1)).
		{dir: "tsstreamstep", entry: "stream.streamText", kind: model.LoopRecursion, loopLine: 32, modelLine: 33, toolLine: 20,
			bound: "stopWhen", onBound: model.OnBoundSilent},
		// tsstreamstep/bundle.js: the same as bundled JS: the steps run in an async function
		// called where it is written, in a class's constructor; the stop conditions come from
		// the entry's parameter default through an option; the model is called through a
		// thunk of wrappers; its stream is re-read by a ReadableStream whose pull enqueues
		// each part; the tools run through a concurrency helper, in parallel; a hook's
		// result (prepareStep) is the model call's input, no model call.
		{dir: "tsstreamstep", entry: "bundle.streamSteps", kind: model.LoopRecursion, loopLine: 52, modelLine: 55, toolLine: 41,
			parallel: true, bound: "stopWhen", onBound: model.OnBoundSilent},
		// jsstreamobj (ai@6's streamText): the stream step's model call is a property of the
		// object literal a span's fn returns (fn: async (span) => ({ result: await
		// model.doStream(…) })), inside retry(); the step destructures it back out (const {
		// result: { stream } } = await retry(…)) and the next step starts from a stream's flush.
		{dir: "jsstreamobj", entry: "jsstreamobj.streamText", kind: model.LoopRecursion, loopLine: 67, modelLine: 81, toolLine: 42,
			bound: "stopWhen", onBound: model.OnBoundSilent},
		// tsrecurhelper (@genkit-ai/ai@1.42.0 src/generate/action.ts:421-569): the reply,
		// wrapped by a constructor of the set, is handed to a helper that runs the tools and
		// returns their message; that message reaches the next turn only as an argument of the
		// recursive call (generateHelper(registry, { rawRequest: nextRequest, currentTurn:
		// currentTurn + 1 })). The request built by a helper before the model call is its
		// input, and a resume helper's Promise.all over the last message's parts a join: no
		// model call (before: no loop, or the Promise.all as the model call).
		{dir: "tsrecurhelper", entry: "generate.generate", kind: model.LoopRecursion, loopLine: 130, modelLine: 144, toolLine: 87,
			parallel: true, bound: "maxIterations", onBound: model.OnBoundError, def: "5",
			exits: map[int]string{149: "completed", 154: "failed"}},
		// jsraisereturn (@voltagent/core@2.10.0 dist/index.js:31864, 36615-36658): a catch
		// returning what an error handler that throws on every path returns fails the run
		// (before: propagated).
		{dir: "jsraisereturn", entry: "jsraisereturn.Agent.generateText", kind: model.LoopFor, loopLine: 12, modelLine: 13, toolLine: 20,
			bound: "maxSteps", onBound: model.OnBoundSilent, exits: map[int]string{56: "failed"}},
		// jsreturnhook (@aigne/core@1.72.0 lib/esm/agents/agent.js:392): a JS entry returning
		// what a check run after the loop returns completes the run (before: failed, read as
		// a Go hook's error).
		{dir: "jsreturnhook", entry: "agent.Agent.invoke", kind: model.LoopFor, loopLine: 26, modelLine: 27, toolLine: 33,
			exits: map[int]string{19: "completed"}},
		// pyfinaltool: the loop goes on while the result a nested handler (registered as the
		// final-answer tool before the loop) sets is unset; the tool is picked with
		// next(t for t in tools if t.name == call.name).
		{dir: "pyfinaltool", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 26, modelLine: 30, toolLine: 33},
		// flagloop: the loop ends through a flag, no break or return (issue 11): the branch
		// with no tool calls clears the boolean the loop's condition tests beside the cap
		// (while (more && i < max), do { … } while (more && turn < max), while more and …).
		{dir: "flagloop", entry: "agent.Agent.chat", kind: model.LoopFor, loopLine: 11, modelLine: 13, toolLine: 18,
			exits: map[int]string{26: "completed"}, bound: "this.maxIterations", onBound: model.OnBoundSilent, def: "10"},
		{dir: "flagloop", entry: "looper.Looper.run", kind: model.LoopFor, loopLine: 14, modelLine: 16, toolLine: 24,
			exits: map[int]string{29: "completed"}, bound: "this.maxTurns", onBound: model.OnBoundSilent, def: "5"},
		{dir: "flagloop", entry: "assistant.Agent.chat", kind: model.LoopFor, loopLine: 14, modelLine: 16, toolLine: 24,
			exits: map[int]string{25: "completed"}, bound: "self.max_iterations", onBound: model.OnBoundSilent, def: "10"},
		// localmodel: the model object is a local of the run method made once before the loop
		// (const p = createProvider(…); model = Model(name)), its method called on the local
		// in each iteration (issue 11): a call of its own, not a step of a result's flow.
		{dir: "localmodel", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 11, modelLine: 12, toolLine: 19,
			exits: map[int]string{15: "completed", 22: "completed"}},
		{dir: "localmodel", entry: "runner.Runner.run", kind: model.LoopFor, loopLine: 18, modelLine: 19, toolLine: 25,
			exits: map[int]string{22: "completed", 26: "completed"}},
		// ctxcounter: the step counter is a field of a context object the loop tests
		// (while ctx.counter < self.max_steps) and the step helper it is handed increments
		// (ctx.counter += 1, state.iteration += 1): the loop's bound.
		{dir: "ctxcounter", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 17, modelLine: 18, toolLine: 28,
			exits: map[int]string{21: "completed", 23: "completed"}, bound: "self.max_steps", onBound: model.OnBoundSilent, def: "20"},
		{dir: "ctxcounterts", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 12, modelLine: 13, toolLine: 26,
			exits: map[int]string{16: "completed", 20: "completed"}, bound: "this.maxSteps", onBound: model.OnBoundSilent},
		// nesteddispatch: two-level tool dispatch (issue 11): a helper walks the reply's
		// messages, skips those whose type is not a tool call, and walks each message's own
		// list of tool calls, looking the tool up by name; the cap defaults to 0, no limit.
		{dir: "nesteddispatch", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 8, modelLine: 9, toolLine: 28,
			exits: map[int]string{13: "completed", 17: "completed"}, bound: "this.maxIter", onBound: model.OnBoundSilent, def: "0"},
		{dir: "nesteddispatchpy", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 11, modelLine: 13, toolLine: 28,
			exits: map[int]string{17: "completed", 19: "completed"}, bound: "self.max_iter", onBound: model.OnBoundSilent, def: "0"},
		// whileelse: the bound's outcome is a stop reason stored under its key in a state
		// container (state.set("stop_reason", "max_steps")), in the loop's else branch
		// (reached only without a break) or in the bound's own branch.
		{dir: "whileelse", entry: "runner.Agent.run", kind: model.LoopFor, loopLine: 11, modelLine: 13, toolLine: 20,
			exits: map[int]string{23: "completed"}, bound: "self.max_steps", onBound: model.OnBoundStopReason, def: "8"},
		{dir: "whileelse", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 7, modelLine: 12, toolLine: 19,
			exits: map[int]string{22: "completed"}, bound: "this.maxSteps", onBound: model.OnBoundStopReason, def: "8"},
		// reacttext: a ReAct text loop (issue 11): the reply is text a helper parses into an
		// action or a finish (answer = parse(text)), one action per reply, the loop going on
		// while not isinstance(answer, Finish); the action's tool is looked up by its name.
		{dir: "reacttext", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 31, modelLine: 35, toolLine: 39,
			exits: map[int]string{33: "completed", 41: "completed"}, bound: "self.max_iterations", onBound: model.OnBoundSilent, def: "15"},
		// reactflag: the same loop tested by a flag of the parsed reply rather than its type
		// (while answer is None or not answer.final; if not answer.final:).
		{dir: "reactflag", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 33, modelLine: 37, toolLine: 41,
			exits: map[int]string{35: "completed", 43: "completed"}, bound: "self.max_iterations", onBound: model.OnBoundSilent, def: "15"},
		// reactparse: one class for both (parse_reply(reply) with a regular expression), the
		// loop left where a flag of the parsed step says final (if parsed.final: return), the
		// action's tool a plain function looked up by a field of whatever name
		// (TOOLS[parsed.action](parsed.action_input)) in a module-level table.
		{dir: "reactparse", entry: "textloop.TextAgent.run", kind: model.LoopFor, loopLine: 41, modelLine: 45, toolLine: 49,
			exits: map[int]string{43: "completed", 48: "completed"}, bound: "self.max_iterations", onBound: model.OnBoundSilent, def: "10"},
		{dir: "reactparse", entry: "agent.TextAgent.run", kind: model.LoopFor, loopLine: 26, modelLine: 27, toolLine: 32,
			exits: map[int]string{30: "completed", 35: "completed"}, bound: "this.maxIterations", onBound: model.OnBoundSilent, def: "10"},
		// reactpad: the observations kept as step records a helper formats into the scratchpad
		// the prompt is built from, two assignments away from the model call's argument.
		{dir: "reactpad", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 47, modelLine: 50, toolLine: 55,
			exits: map[int]string{53: "completed", 57: "completed"}, bound: "self.max_steps", onBound: model.OnBoundSilent, def: "8"},
		// pystreamlast (qwen-agent's FnCallAgent): the model's stream drained into a loop
		// variable that outlives the loop (for output in output_stream: yield ...; then if
		// output: for out in output: ...), each chunk the whole reply so far: the last one is
		// the result; the loop ends when a flag set per dispatched tool stays false (if not
		// used_any_tool: break); the bound a countdown from a settings constant read from
		// the environment (num_llm_calls_available = MAX_LLM_CALL_PER_RUN; while True and
		// num_llm_calls_available > 0: num_llm_calls_available -= 1).
		{dir: "pystreamlast", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 15, modelLine: 19, toolLine: 33,
			bound: "MAX_LLM_CALL_PER_RUN", onBound: model.OnBoundSilent, def: "20"},
		// pyreactstream (qwen-agent's ReActChat): the streamed text's last chunk parsed by a
		// helper into a tuple (has_action, action, action_input, thought) beside a flag whose
		// negative test leaves (if not has_action: break): the other parts are the one action,
		// run by name (self._call_tool(action, ...)); its observation added in place to the
		// last message's text (text_messages[-1].content += ...), the next call's input.
		{dir: "pyreactstream", entry: "agent.ReActChat.run", kind: model.LoopFor, loopLine: 34, modelLine: 38, toolLine: 49,
			bound: "MAX_LLM_CALL_PER_RUN", onBound: model.OnBoundSilent, def: "8"},
		// pyfieldstep (dspy's ReAct.forward): one action per step, no collection of tool
		// calls: a field of the result keys the tool table, a name compare ends the loop; the
		// observation stored under a key of the trajectory the next call formats; the bound
		// a per-call override falling back to the constructor's keyword default.
		{dir: "pyfieldstep", entry: "react.ReAct.forward", kind: model.LoopFor, loopLine: 22, modelLine: 24, toolLine: 34,
			exits: map[int]string{41: "completed"}, bound: "max_iters", onBound: model.OnBoundSilent, def: "20"},
		// pyexecpartial (mcp-agent): the model call is a function reference handed to an
		// executor that runs it (await task(*args)); each tool call is bound with
		// functools.partial(self.execute_tool_call, tool_call=tc) and the partials go to the
		// executor's execute_many (gather): the partial stands for a call of the method.
		{dir: "pyexecpartial", entry: "llm.AugmentedLLM.generate", kind: model.LoopFor, loopLine: 47, modelLine: 48, toolLine: 42,
			parallel: true, exits: map[int]string{66: "completed"}, bound: "max_iterations", onBound: model.OnBoundSilent, def: "10"},
		// pyreqname (mcp-agent): the tool use's name is packed into a request object
		// (CallToolRequest(params=CallToolRequestParams(name=tool_name))) handed to the
		// method that calls the tool by it: the call receives the name.
		{dir: "pyreqname", entry: "llm.AugmentedLLM.generate", kind: model.LoopFor, loopLine: 33, modelLine: 34, toolLine: 50,
			exits: map[int]string{52: "completed"}, bound: "max_iterations", onBound: model.OnBoundSilent, def: "10"},
		// pysubmodule (google-genai==1.52.0 google/genai/models.py:5216): `from . import
		// _extra_utils` in a package whose __init__ is not analysed; the tools are iterated
		// and dispatched by name inside _extra_utils.get_function_response_parts (the loop is
		// found only when the attribute of the imported submodule resolves to its function).
		// The tool site is where the looked-up callable runs (function_to_invoke(**args) in
		// invoke_function_from_dict_args, _extra_utils.py:16; _extra_utils.py:310 of the real
		// package), not the helper it is handed to (28).
		{dir: "pysubmodule", entry: "models.Models.generate_content", kind: model.LoopFor, loopLine: 20, modelLine: 21, toolLine: 16,
			exits: map[int]string{35: "completed"}, onBound: model.OnBoundSilent},
		// pyretparams (mcp-agent): the bound is a field of a local that a method of self
		// returns (params = self.get_request_params(...) -> RequestParams): the annotated
		// return type's field default.
		{dir: "pyretparams", entry: "llm.LLM.generate", kind: model.LoopFor, loopLine: 27, modelLine: 28, toolLine: 34,
			exits: map[int]string{35: "completed"}, bound: "params.max_iterations", onBound: model.OnBoundSilent, def: "10"},
		// pygetattr (langroid's handle_tool_message): the tool's method is looked up on the
		// agent by the call's name, getattr(self, name, None), in a helper the loop calls for
		// each call of the reply; getattr with a literal name or on the element selects
		// nothing (neg.py: Reader.drain is no entry).
		{dir: "pygetattr", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 36, modelLine: 37, toolLine: 29,
			exits: map[int]string{39: "completed", 42: "completed"}, bound: "self.max_turns", onBound: model.OnBoundSilent, def: "10",
			not: []string{"neg.Reader.drain"}},
		// pyresponders (langroid's Task.response): the step runs a bound method looked up in a
		// table a field holds, dict() of the (entity, method) pairs a method of the agent
		// returns: the lookup runs each method of the table.
		{dir: "pyresponders", entry: "task.Task.run", kind: model.LoopFor, loopLine: 51, modelLine: 35, toolLine: 39,
			exits: map[int]string{58: "completed"}, bound: "self.turns", onBound: model.OnBoundSilent, def: "5"},
		// pyrunners (griptape's PromptTask.try_run): the method that asks the model first
		// hands its output to each bound method of a list an attrs field's default Factory
		// builds (for subtask_runner in self.subtask_runners: output = subtask_runner(output)):
		// the loop in one of the runners is reached from it, the run's entry.
		{dir: "pyrunners", entry: "task.PromptTask.try_run", kind: model.LoopFor, loopLine: 35, modelLine: 41, toolLine: 39,
			bound: "self.max_subtasks", onBound: model.OnBoundSilent, def: "20"},
		// pystatefield (browser-use's Agent.step): the decision is kept on the state object
		// the receiver holds by one method (self.state.last_model_output = model_output) and
		// read back by the sibling method the step calls next, which runs its actions: the
		// step's call of the first method is the model call of the loop that repeats the step.
		// The stop flag on the state object (if self.state.stopped: break) is checked before
		// each step.
		{dir: "pystatefield", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 33, modelLine: 44, toolLine: 67,
			cancel: true, cancelLine: 34, bound: "max_steps", onBound: model.OnBoundSilent, def: "500", exits: map[int]string{38: "completed"}},
		// pyautoinvoke (semantic-kernel's ChatCompletionClientBase.get_chat_message_contents):
		// the leave test is a walrus ((fc_count := len(function_calls)) == 0); each call goes
		// to a helper of another class (kernel.invoke_function_call, under asyncio.gather)
		// that is handed the chat history the next request reads, looks the function up by
		// name and appends what it built from running it to that history; at the bound a
		// for...else makes the loop's model request once more (silent, not the error its
		// abstract base hook raises).
		{dir: "pyautoinvoke", entry: "base.ChatClientBase.get_contents", kind: model.LoopFor, loopLine: 40, modelLine: 41, toolLine: 48,
			parallel: true, bound: "settings.behavior.maximum_auto_invoke_attempts", onBound: model.OnBoundSilent,
			exits: map[int]string{39: "not_started", 44: "completed"}},
		// pyautoinvoke, the streaming twin: the reply is a stream of lists of messages
		// (async for messages in ...: for msg in messages), collected and folded into one
		// (reduce(lambda x, y: x + y, all_messages)) whose function calls go to the same
		// helper; it leaves on a flag set while draining.
		{dir: "pyautoinvoke", entry: "base.ChatClientBase.stream_contents", kind: model.LoopFor, loopLine: 68, modelLine: 71, toolLine: 87,
			parallel: true, bound: "settings.behavior.maximum_auto_invoke_attempts", onBound: model.OnBoundSilent,
			exits: map[int]string{67: "not_started", 81: "completed"}},
		// pyafcloop (google-genai's Models.generate_content): a countdown whose start a helper
		// of another module returns (the config's maximum, or the module constant 10 when it
		// is unset: the default), printed on one line; the model call is the private method
		// posting the request, not the transformer the contents are rebound through at the end
		// of the body (contents = t.t_contents(contents)), whose value reaches that method only
		// on the next iteration.
		{dir: "pyafcloop", entry: "models.Models.generate_content", kind: model.LoopFor, loopLine: 32, modelLine: 33, toolLine: 30,
			bound: "_extra_utils.get_max_remote_calls_afc(config)", onBound: model.OnBoundSilent, def: "10",
			exits: map[int]string{53: "completed"}},
		// pypending (langroid's Task.step): the reply of one responder is kept in a field
		// (self.pending_message = result, in a helper of the receiver) that the next call of
		// the same site hands to the responders' table; the agent responder runs the tools of
		// it (a handler looked up with getattr by a name computed from the tool) and its result
		// is the next pending message: the call both asks the model and runs the tools, one
		// responder a step, fed back through the field.
		{dir: "pypending", entry: "task.Task.run", kind: model.LoopFor, loopLine: 69, modelLine: 84, toolLine: 38,
			exits: map[int]string{76: "completed"}, bound: "self.max_turns", onBound: model.OnBoundSilent, def: "0"},
		// pyactionitems (browser-use): an action is a mapping of its tool's name to its
		// arguments (for action_name, params in action.model_dump(exclude_unset=True).items()):
		// the key names the tool the registry looks up (execute_action(action_name=...)).
		{dir: "pyactionitems", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 47, modelLine: 48, toolLine: 31,
			exits: map[int]string{51: "completed", 55: "completed"}, bound: "max_steps", onBound: model.OnBoundSilent, def: "500"},
		// pyhistorydone (browser-use's Agent.run): the step keeps the decision on the receiver's
		// state object and runs its actions in a sibling method that records their results
		// there (self.state.last_result = await self.multi_act(...)); its finally hands them
		// to a method that adds them to a history object (self.history.add_item(...)), whose
		// predicate the step helper returns to the loop (return self.history.is_done()): a
		// test of the tool results; those the step hands to the message manager before the
		// next decision feed it. A stop flag on the state object (self.state.stopped) checked
		// each iteration; at the bound the run's error message is recorded (agent_run_error =
		// "..."); except KeyboardInterrupt returns the history so far (cancelled).
		{dir: "pyhistorydone", entry: "service.Agent.run", kind: model.LoopFor, loopLine: 40, modelLine: 79, toolLine: 32,
			cancel: true, cancelLine: 45, exits: map[int]string{54: "completed", 57: "cancelled"}, bound: "max_steps",
			onBound: model.OnBoundError, def: "500"},
		// pymanager (swarms): a manager object built with the agent (ToolManager(agent=self),
		// self.agent = agent: agent: Any) reaches its fields through a local (agent =
		// self.agent); the response handed to the manager; the executor submits a bound
		// method per call (executor.submit(self._execute_single_function_call, call)) that
		// looks the function up by name.
		{dir: "pymanager", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 79, modelLine: 81, toolLine: 49,
			parallel: true, exits: map[int]string{86: "completed"}, bound: "self.max_loops", onBound: model.OnBoundSilent, def: "1"},
		// pywalrus (camel-ai 0.2.90 ChatAgent._step_impl): the reply's tool calls bound by a
		// walrus in the test (if tool_call_requests := response.tool_call_requests:), the
		// stop event checked every iteration (before: no entry).
		{dir: "pywalrus", entry: "agent.ChatAgent.step", kind: model.LoopFor, loopLine: 46, modelLine: 48, toolLine: 84,
			cancel: true, cancelLine: 50, exits: map[int]string{61: "completed"}, bound: "self.max_iteration",
			onBound: model.OnBoundSilent, def: "None"},
		// pyturnbase (agno==3.1.10 Model.response): the turn loop in a model base class; the
		// reply written into a message the loop builds and hands to a helper whose result is
		// dropped (self._process_model_response(assistant_message=assistant_message, …), the
		// helper hands the provider's response and the message to one that sets its fields),
		// then tested on the message; the only limit a count of tool calls the loop carries
		// into the generator running them, compared with the optional limit in its loop over
		// the calls (a call past it gets an error result: silent).
		{dir: "pyturnbase", entry: "base.Model.response", kind: model.LoopFor, loopLine: 88, modelLine: 90, toolLine: 71,
			exits: map[int]string{108: "completed"}, bound: "function_call_limit", onBound: model.OnBoundSilent, def: "None"},
		// pyturnbase/agent.py (agno's _run): the agent hands the loop to the model; each
		// except handler sets the run output's status field (run_response.status =
		// RunStatus.error), then, past a test and a store, returns the output: failed.
		{dir: "pyturnbase", entry: "agent.Agent.run", kind: model.LoopFor, loopLine: 88, modelLine: 90, toolLine: 71,
			exits: map[int]string{43: "completed", 49: "failed"}, bound: "function_call_limit", onBound: model.OnBoundSilent, def: "None"},
		// jsyieldreturn (@strands-agents/sdk): the model step is an async generator delegated
		// with yield*, its return value the model's result (const r = yield* this._invokeModel()),
		// which drains the provider's stream with next() and returns the last value.
		{dir: "jsyieldreturn", entry: "agent.Agent.stream", kind: model.LoopFor, loopLine: 18, modelLine: 20, toolLine: 53,
			cancel: true, cancelLine: 19, exits: map[int]string{14: "completed"}},
		// jsspanfn (ai@6's generateText): the loop is the body of a tracing helper's fn option,
		// which the helper runs from a closure it hands to tracer.startActiveSpan (the closure
		// captures the option); the cancellation check is esbuild's lowered optional call
		// (signal == null ? void 0 : signal.throwIfAborted()); the model call is in the fn of
		// another span inside retry(), a fn that takes the span (before: the span helper was
		// taken for the model call); the do-while's test that every tool call of the step has
		// its output compares two per-step lengths, no bound (before: clientToolCalls.length
		// was the bound). Before all: no entry at all.
		{dir: "jsspanfn", entry: "agent.generateText", kind: model.LoopFor, loopLine: 58, modelLine: 72, toolLine: 81,
			parallel: true, cancel: true, cancelLine: 60, exits: map[int]string{60: "cancelled", 86: "completed"}, bound: "stopWhen",
			onBound: model.OnBoundSilent, def: "stepCountIs(5)"},
	} {
		t.Run(w.dir, func(t *testing.T) {
			res := recognizeSrc(t, w.dir)
			e := srcEntry(res, w.entry)
			if e == nil || len(e.Loops) != 1 {
				var got []string
				for _, x := range res.Entries {
					got = append(got, x.Func)
				}
				t.Fatalf("want entry %s with one loop, got entries %v (%+v)", w.entry, got, e)
			}
			l := e.Loops[0]
			if l.Kind != w.kind || l.Pos.Line != w.loopLine {
				t.Errorf("loop %s at line %d, want %s at %d", l.Kind, l.Pos.Line, w.kind, w.loopLine)
			}
			if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != w.modelLine {
				t.Errorf("model calls at %v, want %d", ls, w.modelLine)
			}
			found := false
			for _, ln := range lines(l.ToolCalls) {
				found = found || ln == w.toolLine
			}
			if !found {
				t.Errorf("tool calls at %v, want one at %d", lines(l.ToolCalls), w.toolLine)
			}
			if l.ParallelTools != w.parallel {
				t.Errorf("parallel tools %v, want %v", l.ParallelTools, w.parallel)
			}
			if l.ChecksCancel != w.cancel || w.cancel && l.CancelPos.Line != w.cancelLine {
				t.Errorf("checks cancel %v at line %d, want %v at %d", l.ChecksCancel, l.CancelPos.Line, w.cancel, w.cancelLine)
			}
			if w.bound != "" && (l.Bound == nil || l.Bound.Expr != w.bound || l.OnBound == nil || l.OnBound.Kind != w.onBound) {
				t.Errorf("bound %+v at bound %+v, want %s, %s", l.Bound, l.OnBound, w.bound, w.onBound)
			}
			if w.def != "" && (l.Bound == nil || l.Bound.Default != w.def) {
				t.Errorf("bound %+v, want default %s", l.Bound, w.def)
			}
			wantExits(t, e, w.exits)
			if a := srcEntry(res, "looper.wait"); a != nil {
				t.Errorf("wait: entry %+v, want none (a promise's then)", a)
			}
			for _, name := range w.not {
				if a := srcEntry(res, name); a != nil {
					t.Errorf("%s: entry %+v, want none", name, a)
				}
			}
			for _, name := range w.also {
				if a := srcEntry(res, name); a == nil || len(a.Loops) != 1 || a.Loops[0].Pos != l.Pos {
					t.Errorf("entry %s: %+v, want one reaching the loop at line %d", name, a, l.Pos.Line)
				}
			}
		})
	}
}

// TestGetattrKey: pygetattr. The name getattr looks up is computed from the call's name
// through a local (handler = handler_name(call.function.name); getattr(self, handler +
// "_async", None)): the method it picks is the one tool call site, not the helper the name is
// handed to nor the helper the element is.
func TestGetattrKey(t *testing.T) {
	res := recognizeSrc(t, "pygetattr")
	e := srcEntry(res, "agent.Agent.run")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("want one loop under agent.Agent.run, got %+v", res.Entries)
	}
	if ls := lines(e.Loops[0].ToolCalls); len(ls) != 1 || ls[0] != 29 {
		t.Errorf("tool calls at %v, want only 29 (handler_method(call))", ls)
	}
}

// TestBuiltParams: pybuiltparams (mcp-agent@0.2.6 augmented_llm_openai.py:153-161, 261). The
// bound is a field of the params a method of self returns starting from the defaults object
// the class's constructor builds (self.default_request_params = ... or RequestParams(...,
// max_iterations=10)): the default is that keyword, not the class field default; a class whose
// constructor builds the object without the keyword keeps the class field default.
func TestBuiltParams(t *testing.T) {
	res := recognizeSrc(t, "pybuiltparams")
	for _, w := range []struct {
		entry   string
		loop    int
		defLine int
	}{
		{"llm.OpenAILLM.generate", 41, 36},
		{"llm.PlainLLM.generate", 59, 14},
	} {
		e := srcEntry(res, w.entry)
		if e == nil || len(e.Loops) != 1 {
			t.Errorf("want entry %s with one loop, got %+v", w.entry, e)
			continue
		}
		l := e.Loops[0]
		if b := l.Bound; l.Pos.Line != w.loop || b == nil || b.Expr != "params.max_iterations" || b.Default != "10" || b.DefaultPos.Line != w.defLine {
			t.Errorf("%s: loop at %d bound %+v, want params.max_iterations at %d, default 10 at line %d", w.entry, l.Pos.Line, b, w.loop, w.defLine)
		}
	}
}

// TestTemplateAgents: jstemplateagents. A base class's run enters a run context with a
// callback calling this._run and decorates what it hands back (.middleware(...)): the exits
// are those of every subclass's _run that runs a loop. RequirementStyleAgent constructs the
// runner class a class-level field holds (new this.runner(llm, execution)), which keeps the
// configuration object in a field: this.runConfig.maxIterations defaults to the literal's 20.
// FinalToolAgent's loop goes on until the final-answer tool's handler (a closure registered
// before the loop) records the result, its bound execution.totalMaxRetries ?? Infinity
// defaults to the configuration object's 20.
func TestTemplateAgents(t *testing.T) {
	res := recognizeSrc(t, "jstemplateagents")
	e := srcEntry(res, "BaseAgent.run")
	if e == nil {
		t.Fatalf("no entry BaseAgent.run in %+v", res.Entries)
	}
	type loopWant struct {
		file                 string
		line, boundLine      int
		bound, def           string
		defFile              string
		defLine, model, tool int
	}
	for _, w := range []loopWant{
		{file: "runner.js", line: 19, boundLine: 14, bound: "this.runConfig.maxIterations", def: "20", defFile: "agents.js", defLine: 15, model: 21, tool: 27},
		{file: "agents.js", line: 45, boundLine: 47, bound: "execution.totalMaxRetries", def: "20", defFile: "agents.js", defLine: 35, model: 50, tool: 53},
	} {
		var l *model.Loop
		for i := range e.Loops {
			if filepath.Base(e.Loops[i].Pos.File) == w.file && e.Loops[i].Pos.Line == w.line {
				l = &e.Loops[i]
			}
		}
		if l == nil {
			t.Errorf("no loop at %s:%d under %s", w.file, w.line, e.Func)
			continue
		}
		if b := l.Bound; b == nil || b.Expr != w.bound || b.Pos.Line != w.boundLine || b.Default != w.def ||
			filepath.Base(b.DefaultPos.File) != w.defFile || b.DefaultPos.Line != w.defLine {
			t.Errorf("%s:%d bound %+v, want %s at %d default %s at %s:%d", w.file, w.line, l.Bound, w.bound, w.boundLine, w.def, w.defFile, w.defLine)
		}
		if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != w.model {
			t.Errorf("%s:%d model calls at %v, want %d", w.file, w.line, ls, w.model)
		}
		found := false
		for _, ln := range lines(l.ToolCalls) {
			found = found || ln == w.tool
		}
		if !found {
			t.Errorf("%s:%d tool calls at %v, want one at %d", w.file, w.line, lines(l.ToolCalls), w.tool)
		}
	}
	exits := map[string]string{}
	for _, x := range e.Exits {
		exits[fmt.Sprintf("%s:%d", filepath.Base(x.Pos.File), x.Pos.Line)] = x.Outcome
	}
	for at, want := range map[string]string{
		"agents.js:21": "failed", "agents.js:23": "completed", // RequirementStyleAgent._run
		"agents.js:48": "failed", "agents.js:57": "completed", // FinalToolAgent._run
	} {
		if exits[at] != want {
			t.Errorf("exit %s: %q, want %q (exits %v)", at, exits[at], want, exits)
		}
	}
}

// TestDeepStepGenerator: pystepdeep, a step loop of async generators whose tools are looked
// up by name eight calls below the step (issue 11, the way google-adk writes it): the reply's
// function calls travel through a generator relay, a module imported from the package
// (from . import functions, named in the package's __init__ only under TYPE_CHECKING), a
// re-export, a function-level import (from .. import functions) and a task per call to
// tools_dict[function_call.name]. The step's reply handed down that chain dispatches the
// tools (in parallel: a task per call on the way); the model calls are counted in a cost
// manager five calls below the loop, which raises past RunConfig.max_llm_calls, a pydantic
// Field whose default_factory falls back to a constant after an environment override.
func TestDeepStepGenerator(t *testing.T) {
	res := recognizeSrc(t, filepath.Join("pystepdeep", "adkish"))
	e := srcEntry(res, "base.Flow.run_async")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("want entry base.Flow.run_async with one loop, got %+v", res.Entries)
	}
	l := e.Loops[0]
	if l.Kind != model.LoopFor || l.Pos.Line != 16 {
		t.Errorf("loop %s at %d, want for at 16", l.Kind, l.Pos.Line)
	}
	if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != 29 {
		t.Errorf("model calls at %v, want 29 (the relayed stream's call)", ls)
	}
	if ls := lines(l.ToolCalls); len(ls) == 0 || ls[0] != 31 || !l.ParallelTools {
		t.Errorf("tool calls at %v (parallel %v), want the postprocessing call at 31 first, parallel", ls, l.ParallelTools)
	}
	if !l.ChecksCancel || l.CancelPos.Line != 17 {
		t.Errorf("checks cancel %v at %d, want at 17", l.ChecksCancel, l.CancelPos.Line)
	}
	if l.Bound == nil || l.Bound.Expr != "run_config.max_llm_calls" || l.Bound.Default != "500" || l.Bound.DefaultPos.Line != 8 ||
		l.OnBound == nil || l.OnBound.Kind != model.OnBoundError {
		t.Errorf("bound %+v at bound %+v, want run_config.max_llm_calls default 500 (run_config.py:8), an error at it", l.Bound, l.OnBound)
	}
	got := map[string]string{}
	for _, x := range e.Exits {
		got[fmt.Sprintf("%s:%d", filepath.Base(x.Pos.File), x.Pos.Line)] = x.Outcome
	}
	for at, want := range map[string]string{"context.py:16": "failed", "base.py:18": "cancelled", "base.py:25": "completed"} {
		if got[at] != want {
			t.Errorf("exit %s: %q, want %q (exits %v)", at, got[at], want, got)
		}
	}
}

// TestUnloadedInit: the agents import their base class from the package (from pkg import
// Agent), whose __init__.py re-exporting it is not among the analysed files (only
// pkg/agent.py, pkg/settings.py and pkg/agents are): the name resolves to the one class of
// that name in the package's analysed modules, and the loop is found as with the __init__.
func TestUnloadedInit(t *testing.T) {
	root := filepath.Join("testdata", "shapes", "pystreamlast")
	var paths []string
	for _, p := range []string{"pkg/agent.py", "pkg/settings.py", "pkg/agents"} {
		paths = append(paths, filepath.Join(root, p))
	}
	files, err := srcir.Collect(paths)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, filepath.Join("pkg", "__init__.py")) {
			t.Fatalf("collected %s", f)
		}
	}
	prog, _, err := srcir.BuildFiles(files, paths...)
	if err != nil {
		t.Fatal(err)
	}
	res := recognize.Recognize(prog, recognize.Options{})
	e := srcEntry(res, "agent.Agent.run")
	if e == nil || len(e.Loops) != 1 || e.Loops[0].Pos.Line != 15 {
		t.Fatalf("want entry agent.Agent.run with the loop at line 15, got %+v", res.Entries)
	}
	if ls := lines(e.Loops[0].ModelCalls); len(ls) != 1 || ls[0] != 19 {
		t.Errorf("model calls at %v, want 19", ls)
	}
}

// TestPrivateModuleAlone: pytextreply, modelled on autogen-agentchat 0.7.5's AssistantAgent.
// The class lives in a private module (pkg/agents/_assistant_agent.py) mapped on its own; the
// __init__.py beside it on disk re-exports it, so its methods are entries. The loop returns
// when the reply's content is text (isinstance(current_model_result.content, str)) and asks
// the model again at the end of its body. Before: no entry (the module is private, and the
// text test was no test of the reply).
func TestPrivateModuleAlone(t *testing.T) {
	path := filepath.Join("testdata", "shapes", "pytextreply", "pkg", "agents", "_assistant_agent.py")
	files, err := srcir.Collect([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	prog, _, err := srcir.BuildFiles(files, path)
	if err != nil {
		t.Fatal(err)
	}
	res := recognize.Recognize(prog, recognize.Options{})
	e := srcEntry(res, "AssistantAgent.on_messages_stream")
	if e == nil || len(e.Loops) != 1 || e.Loops[0].Pos.Line != 48 {
		t.Fatalf("want entry AssistantAgent.on_messages_stream with the loop at line 48, got %+v", res.Entries)
	}
	l := e.Loops[0]
	if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != 63 {
		t.Errorf("model calls at %v, want 63", ls)
	}
	if ls := lines(l.ToolCalls); !slices.Contains(ls, 77) || !l.ParallelTools {
		t.Errorf("tool calls at %v (parallel %v), want one at 77, parallel", ls, l.ParallelTools)
	}
	if l.Bound == nil || l.Bound.Expr != "max_tool_iterations" || l.Bound.Default != "1" {
		t.Errorf("bound %+v, want max_tool_iterations default 1", l.Bound)
	}
	wantExits(t, e, map[int]string{51: "completed"})
}

// TestGraphCompileField: a private field assigned what a builder's compile() returns in
// compiled JavaScript (no annotations) has the class the method's body hands back, through
// helper methods, a constructed local and `return this` (jsgraphcompile, modelled on
// langchain@1.5.14 ReactAgent over @langchain/langgraph@1.7.3 StateGraph.compile): the agent's
// invoke reaches the graph's loop. Before, ReactAgent.invoke was no entry.
func TestGraphCompileField(t *testing.T) {
	res := recognizeSrc(t, "jsgraphcompile")
	e := srcEntry(res, "ReactAgent.invoke")
	if e == nil || len(e.Loops) != 1 {
		var got []string
		for _, x := range res.Entries {
			got = append(got, x.Func)
		}
		t.Fatalf("want entry ReactAgent.invoke with one loop, got entries %v (%+v)", got, e)
	}
	if l := e.Loops[0]; !strings.HasSuffix(l.Pos.File, "graph.js") || l.Pos.Line != 13 {
		t.Errorf("loop at %s:%d, want graph.js:13", l.Pos.File, l.Pos.Line)
	}
}

// TestHistoryDoneFiles: pyhistorydone's files mapped one by one, as a user names them
// (browser-use==0.13.14's four files of browser_use/agent, browser_use/tools and
// browser_use/tools/registry): tools/ and tools/registry/ have no __init__.py, PEP 420
// portions of the regular package above them that the files import by their dotted names
// (from webagent.tools.service import Tools); named by their file alone, the three service.py
// modules were one module and the step reached neither the tools nor the registry.
func TestHistoryDoneFiles(t *testing.T) {
	res := recognizeFiles(t, filepath.Join("testdata", "shapes", "pyhistorydone", "webagent"), "agent/service.py", "agent/views.py", "tools/service.py", "tools/registry/service.py")
	e := srcEntry(res, "Agent.run")
	if e == nil || len(e.Loops) != 1 {
		var names []string
		for _, x := range res.Entries {
			names = append(names, x.Func)
		}
		t.Fatalf("want entry Agent.run with one loop, got entries %v", names)
	}
	l := e.Loops[0]
	if l.Pos.Line != 40 {
		t.Errorf("loop at line %d, want 40", l.Pos.Line)
	}
	if got := lines(l.ModelCalls); !slices.Equal(got, []int{79}) {
		t.Errorf("model calls at %v, want [79]", got)
	}
	tool := false
	for _, c := range l.ToolCalls {
		tool = tool || strings.HasSuffix(filepath.ToSlash(c.Pos.File), "tools/service.py") && c.Pos.Line == 32
	}
	if !tool {
		t.Errorf("tool calls %v, want tools/service.py:32", l.ToolCalls)
	}
}

// TestReActWorker: a runner's while True over an abstract step worker's run_step, leaving on
// the step output's is_last, whose text-ReAct worker (a subclass in another module) asks the
// model, has a helper of a helper parse the text into an action or a done step (collected in
// a list returned beside a done flag), runs the action's tool looked up by name in a dict
// built from the tools and raises at max_iterations (llama-index-core==0.12.52.post1
// agent/runner/base.py:624-656, agent/react/step.py:228-333, 430-439, 557-594). The files are
// mapped one by one, as a user names them, and import one another through a PEP 420
// namespace directory (react_ns/, as llama_index/).
func TestReActWorker(t *testing.T) {
	res := recognizeFiles(t, filepath.Join("testdata", "shapes", "pyreactworker", "react_ns", "core", "agent"), "runner.py", "step.py", "types.py")
	e := srcEntry(res, "AgentRunner.chat")
	if e == nil {
		var names []string
		for _, x := range res.Entries {
			names = append(names, x.Func)
		}
		t.Fatalf("no entry AgentRunner.chat (entries %v)", names)
	}
	if len(e.Loops) != 1 {
		t.Fatalf("loops %d, want 1", len(e.Loops))
	}
	l := e.Loops[0]
	if l.Pos.Line != 24 {
		t.Errorf("loop at line %d, want 24", l.Pos.Line)
	}
	if got := lines(l.ModelCalls); !slices.Equal(got, []int{50}) {
		t.Errorf("model calls at %v, want [50]", got)
	}
	// the tool run, not the table's construction ({tool.metadata.get_name(): tool ...})
	if got := lines(l.ToolCalls); !slices.Equal(got, []int{35}) {
		t.Errorf("tool calls at %v, want [35]", got)
	}
	if l.Bound == nil || l.Bound.Expr != "self._max_iterations" || l.Bound.Default != "10" {
		t.Errorf("bound %+v, want self._max_iterations default 10", l.Bound)
	}
	if l.OnBound == nil || l.OnBound.Kind != model.OnBoundError {
		t.Errorf("at bound %+v, want error", l.OnBound)
	}
}

// TestCallerOption: jscalleropt (@voltagent/core@2.10.0 dist/index.js:31337-31338, 31462,
// 31569-31584, 33508, 36665-36667, 30352-30357 calling ai@6.0.325 generateText, dist/index.js
// 4638). An entry that reaches a dependency's loop through its own call handing the bound as
// an option (stopWhen: options?.stopWhen ?? this.stopWhen ?? stepCountIs(maxSteps)) sees the
// bound start at what it passes, followed through the helpers that compute it to the
// constructor's default (5, when nothing is configured), with the value as passed; the
// dependency's own entry keeps the callee's default (before: stepCountIs(1) for both).
func TestCallerOption(t *testing.T) {
	res := recognizeSrc(t, "jscalleropt")
	e := srcEntry(res, "agent.Agent.generateText")
	if e == nil || len(e.Loops) != 1 || e.Loops[0].Bound == nil {
		t.Fatalf("Agent.generateText: want one loop with a bound, got %+v", e)
	}
	b := e.Loops[0].Bound
	if b.Expr != "stopWhen" || b.Default != "5" || b.DefaultPos.Line != 31 || filepath.Base(b.DefaultPos.File) != "agent.js" ||
		!strings.HasPrefix(b.Passed, "options?.stopWhen ?? this.stopWhen") || b.PassedPos.Line != 44 {
		t.Errorf("Agent.generateText bound %+v, want stopWhen default 5 at agent.js:31, passed at agent.js:44", b)
	}
	d := srcEntry(res, "ai.generateText")
	if d == nil || len(d.Loops) != 1 || d.Loops[0].Bound == nil {
		t.Fatalf("ai.generateText: want one loop with a bound, got %+v", d)
	}
	if b := d.Loops[0].Bound; b.Default != "stepCountIs(1)" || b.Passed != "" {
		t.Errorf("ai.generateText bound %+v, want its own default stepCountIs(1), nothing passed", b)
	}
}

// TestChildAgentNoRecursion: camel-ai==0.2.90's ChatAgent runs a child ChatAgent it keeps in
// a field (self._context_summary_agent.step(prompt) in summarize, reached from the turn
// loop's context helper): another instance's run, not this run's step again. The one turn
// loop is the while True of _step_impl; no turn recursion of _step_impl is invented around
// the call before the loop (shape pychildagent).
func TestChildAgentNoRecursion(t *testing.T) {
	res := recognizeSrc(t, "pychildagent")
	for _, l := range res.Loops {
		if l.Map.Kind == model.LoopRecursion {
			t.Errorf("invented turn recursion in %s at line %d", l.Map.Func, l.Map.Pos.Line)
		}
	}
	e := srcEntry(res, "ChatAgent.step")
	if e == nil {
		t.Fatal("no entry ChatAgent.step")
	}
	if len(e.Loops) != 1 {
		t.Fatalf("loops %d, want 1", len(e.Loops))
	}
	l := e.Loops[0]
	if l.Kind != model.LoopFor || l.Pos.Line != 102 {
		t.Errorf("loop %s at line %d, want for at 102", l.Kind, l.Pos.Line)
	}
	if got := lines(l.ModelCalls); !slices.Equal(got, []int{104}) {
		t.Errorf("model calls at %v, want [104]", got)
	}
	if got := lines(l.ToolCalls); !slices.Contains(got, 143) {
		t.Errorf("tool calls at %v, want 143 among them", got)
	}
	if l.Bound == nil || l.Bound.Expr != "self.max_iteration" {
		t.Errorf("bound %+v, want self.max_iteration", l.Bound)
	}
}

// TestWorkbenchTools: autogen-agentchat==0.7.5's _execute_tool_call asks each workbench of a
// Sequence[Workbench] parameter whether it lists a tool of the call's name (if any(t["name"]
// == tool_call.name for t in tools)) and then has it run that tool by name (await
// wb.call_tool(name=tool_call.name, ...)): that call is a tool call of the loop, resolved to
// the abstract Workbench.call_tool through the element type of the parameter's annotation; the
// result record built with the name (FunctionExecutionResult(name=...)) runs nothing (shape
// pyworkbench).
func TestWorkbenchTools(t *testing.T) {
	res := recognizeSrc(t, "pyworkbench")
	e := srcEntry(res, "AssistantAgent.run")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("entry AssistantAgent.run with one loop: %+v", e)
	}
	l := e.Loops[0]
	if l.Pos.Line != 31 {
		t.Errorf("loop at line %d, want 31", l.Pos.Line)
	}
	if got := lines(l.ModelCalls); !slices.Equal(got, []int{32}) {
		t.Errorf("model calls at %v, want [32]", got)
	}
	var wb *model.CallSite
	for i, s := range l.ToolCalls {
		if s.Pos.Line == 63 {
			wb = &l.ToolCalls[i]
		}
		if s.Pos.Line >= 71 {
			t.Errorf("tool call at %d (%s): a value built with the name runs nothing", s.Pos.Line, s.Callee)
		}
	}
	if wb == nil {
		t.Fatalf("tool calls at %v, want the workbench's call_tool at 63 among them", lines(l.ToolCalls))
	}
	if !strings.HasSuffix(wb.Callee, "Workbench.call_tool") {
		t.Errorf("workbench tool call's callee %q, want Workbench.call_tool", wb.Callee)
	}
	if !slices.Contains(lines(l.ToolCalls), 57) {
		t.Errorf("tool calls at %v, want the handoff tool at 57 too", lines(l.ToolCalls))
	}
}

// TestStepModes: llama-index-core@0.12.52.post1's AgentRunner._run_step asks its worker one of
// two ways by the chat mode (if mode == WAIT: out = worker.run_step(...) elif mode ==
// STREAM: out = worker.stream_step(...); return out): each arm is one way of the loop's step,
// so the chat of run_step and the stream_chat of stream_step are both model calls of the
// loop, ranked apart (before, the streamed reply's extra evidence outranked the chat call
// chat() makes). The LLM interface is a dependency read, not mapped (shape pystepmodes).
func TestStepModes(t *testing.T) {
	res := recognizeFiles(t, filepath.Join("testdata", "shapes", "pystepmodes", "react_ns", "core", "agent"), "runner.py", "step.py", "types.py")
	e := srcEntry(res, "AgentRunner.chat")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("entry AgentRunner.chat with one loop: %+v", e)
	}
	l := e.Loops[0]
	if l.Pos.Line != 31 {
		t.Errorf("loop at line %d, want 31", l.Pos.Line)
	}
	if got := lines(l.ModelCalls); !slices.Equal(got, []int{60, 81}) {
		t.Errorf("model calls at %v, want [60 81] (chat, stream_chat)", got)
	}
	if got := lines(l.ToolCalls); !slices.Contains(got, 44) {
		t.Errorf("tool calls at %v, want 44 among them", got)
	}
}

// TestDeciderMint: a call of a helper outside the set named for minting an id
// (reply_id=_generate_id(), agentscope==2.0.11 agent/_agent.py:1113) mints the reply's id
// (pydecider). Before, only a list of id generators' names (uuid4, randomUUID, …) did.
func TestDeciderMint(t *testing.T) {
	res := recognizeSrc(t, "pydecider")
	e := srcEntry(res, "Agent.reply")
	if e == nil {
		t.Fatalf("no entry Agent.reply: %+v", res.Entries)
	}
	for _, id := range e.IDs {
		if id.Pos.Line == 55 && id.Kind == "minted" {
			return
		}
	}
	t.Errorf("ids %+v, want one minted at line 55", e.IDs)
}
