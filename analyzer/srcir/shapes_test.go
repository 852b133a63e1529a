//go:build cgo

package srcir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
)

// buildSrc builds one file named name (a .js/.ts file is in package "pkg") and fails on
// diagnostics.
func buildSrc(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"pkg"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, diags, err := BuildFiles([]string{path}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	return prog
}

// TestWrappedClasses: a class a compiler wraps in a function called in place (static
// initializers: var X = (() => { class X {…} return X; })()) is the module's class, its
// methods exported methods whose this-calls resolve; a class declared in a function has
// methods of its own (keyed under the function), not anonymous closures.
func TestWrappedClasses(t *testing.T) {
	src := `"use strict";
var Runner = /* @__PURE__ */ (() => {
    class Runner {
        constructor(model) { this.model = model; }
        run() { return this.step(); }
        step() { return this.model.create(); }
    }
    return Runner;
})();
exports.Runner = Runner;
function outer() {
    class Local {
        go() { return this.help(); }
        help() { return 2; }
    }
    return new Local().go();
}
exports.outer = outer;
`
	p := buildSrc(t, "m.js", src)
	for _, tc := range []struct {
		key, recv string
		exported  bool
		call      string
		callee    string
	}{
		{"pkg/m.Runner.run", "Runner", true, "this.step(", "pkg/m.Runner.step"},
		{"pkg/m.outer.Local.go", "Local", false, "this.help(", "pkg/m.outer.Local.help"},
	} {
		f := funcNamed(t, p, tc.key)
		if f.Recv != tc.recv || f.Exported != tc.exported || f.Parent != -1 {
			t.Errorf("%s: recv %q exported %v parent %d, want %q %v -1", tc.key, f.Recv, f.Exported, f.Parent, tc.recv, tc.exported)
		}
		if c := callText(t, f, tc.call); strings.Join(c.Keys, " ") != tc.callee || len(c.Targets) != 1 {
			t.Errorf("%s: %s keys %v targets %v, want %s", tc.key, tc.call, c.Keys, c.Targets, tc.callee)
		}
	}
}

// TestAsyncGeneratorTurns: the model's reply yielded by an async generator of the set is the
// result of the consumer's call of it (async for out in self._call(...)), tested, iterated
// and dispatched there; a generator whose last statement re-yields another generator's items
// ends with that generator's exits; a class of a private module that the package re-exports
// is exported.
func TestAsyncGeneratorTurns(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	agent := `import asyncio


class Agent:
    def __init__(self, client, tools, max_iters: int = 3):
        self._client = client
        self._tools = tools
        self._max_iters = max_iters

    async def _call(self, messages):
        async for chunk in self._client.stream(messages):
            yield chunk
        result = await self._client.create(messages)
        yield result

    async def _loop(self, messages, max_iters):
        reply = None
        for i in range(max_iters):
            async for out in self._call(messages):
                reply = out
            yield reply
            if not reply.tool_calls:
                return
            results = await asyncio.gather(*[self._run(c) for c in reply.tool_calls])
            messages.append(results)

    async def _run(self, call):
        tool = self._tools[call.name]
        return await tool.run(call.arguments)

    async def stream(self, messages):
        async for ev in self._loop(messages, self._max_iters):
            yield ev
`
	for name, src := range map[string]string{"__init__.py": "from ._agent import Agent\n", "_agent.py": agent} {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog, diags, err := BuildFiles([]string{filepath.Join(pkg, "__init__.py"), filepath.Join(pkg, "_agent.py")}, pkg)
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	res := recognize.Recognize(prog, recognize.Options{})
	got := describe(res, filepath.Base)
	for _, want := range []string{
		fmt.Sprintf("entry _agent.Agent.stream _agent.py:%d", lineOf(agent, "async def stream")),
		fmt.Sprintf("loop for _agent.Agent._loop line %d", lineOf(agent, "for i in range")),
		fmt.Sprintf("bound max_iters default 3@_agent.py:%d", lineOf(agent, "max_iters: int = 3")),
		fmt.Sprintf("model pkg._agent.Agent._call _agent.py:%d", lineOf(agent, "async for out in self._call")),
		fmt.Sprintf("tool tool.run _agent.py:%d parallel=true", lineOf(agent, "tool.run(")),
		fmt.Sprintf("exit completed goal_reached line %d", lineOf(agent, "                return\n")),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestOptionsObjects: an options object handed to a destructured parameter carries the
// result into the callee by option name ({ toolCalls: response.toolCalls } into
// ({ toolCalls, tools })); a callback handed as an option runs during the call only when the
// callee calls (or hands on) that option; a helper handed the result carries it on.
func TestOptionsObjects(t *testing.T) {
	src := `async function executeTools({ toolCalls, tools: registry }) {
    return Promise.all(toolCalls.map((call) => registry[call.toolName].execute(call.input)));
}
async function inSpan({ name, execute }) {
    return await execute();
}
function store({ handler }) {
    handlers.push(handler);
}
async function summarize({ content }) {
    return content.map((c) => c.text);
}
export async function run({ model, tools, maxSteps = 5 }) {
    const messages = [];
    let steps = 0;
    store({ handler: async () => 1 });
    const warm = async () => await model.warm();
    await inSpan({ name: "warm", execute: warm });
    while (steps < maxSteps) {
        steps++;
        const response = await inSpan({ name: "step", execute: async () => await model.doGenerate({ messages, tools }) });
        const view = await summarize({ content: response.content });
        if (response.toolCalls.length === 0) {
            return view;
        }
        const results = await executeTools({ toolCalls: response.toolCalls, tools });
        messages.push(...results);
    }
}
`
	p := buildSrc(t, "m.js", src)
	f := funcNamed(t, p, "pkg/m.run")
	if c := callText(t, f, "inSpan({ name: \"step\""); len(c.ArgFuncs) != 1 {
		t.Errorf("inSpan({ execute }): arg funcs %v, want the execute callback", c.ArgFuncs)
	}
	if c := callText(t, f, "inSpan({ name: \"warm\""); len(c.ArgFuncs) != 1 {
		t.Errorf("inSpan({ execute: warm }): arg funcs %v, want warm once", c.ArgFuncs)
	}
	if c := callText(t, f, "store("); len(c.ArgFuncs) != 0 {
		t.Errorf("store({ handler }) keeps the handler: arg funcs %v, want none", c.ArgFuncs)
	}
	// the step's result is what the execute callback's model.doGenerate returned: the flow
	// is that call's (see TestRetryWrappedModelCall)
	if c := callText(t, f, "inSpan({ name: \"step\""); c.Flow != nil {
		t.Errorf("the wrapper inSpan keeps a flow: %+v", c.Flow)
	}
	c := callText(t, p.Funcs[callText(t, f, "inSpan({ name: \"step\"").ArgFuncs[0]], "model.doGenerate(")
	if c.Flow == nil {
		t.Fatal("no flow for the step's call")
	}
	carried := false
	for _, ref := range c.Flow.Carriers {
		carried = carried || strings.HasPrefix(p.Funcs[ref.Func].Calls[ref.Call].Text, "summarize(")
	}
	if !carried {
		t.Errorf("summarize({ content: response.content }) is not a carrier: %v", c.Flow.Carriers)
	}
	res := recognize.Recognize(p, recognize.Options{})
	got := describe(res, filepath.Base)
	for _, want := range []string{
		fmt.Sprintf("loop for m.run line %d", lineOf(src, "while (steps")),
		fmt.Sprintf("bound maxSteps default 5@m.js:%d", lineOf(src, "export async function run")),
		fmt.Sprintf("model model.doGenerate m.js:%d", lineOf(src, "await inSpan({ name: \"step\"")),
		fmt.Sprintf("tool registry[call.toolName].execute m.js:%d parallel=true", lineOf(src, "registry[call.toolName]")),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestStopConditions: a do/while whose condition calls a function that tests a call handed
// a list built from a parameter defaulting to predicates (stopWhen = isStepCount(1)) has
// that list as its stop conditions, with the parameter's default.
func TestStopConditions(t *testing.T) {
	src := `function isStepCount(n) {
    return ({ steps }) => steps.length === n;
}
function asArray(x) {
    return Array.isArray(x) ? x : [x];
}
async function isStopConditionMet({ stopConditions, steps }) {
    return stopConditions.some((c) => c({ steps }));
}
export async function run({ model, stopWhen = isStepCount(1), label = "x" }) {
    const stopConditions = asArray(stopWhen);
    const steps = [];
    const shouldContinue = async () => {
        if (await isStopConditionMet({ stopConditions, steps })) {
            return false;
        }
        return true;
    };
    do {
        steps.push(await model.step(label));
    } while (await shouldContinue());
}
`
	p := buildSrc(t, "m.js", src)
	f := funcNamed(t, p, "pkg/m.run")
	if len(f.Stops) != 1 {
		t.Fatalf("stops %+v, want one", f.Stops)
	}
	ss := f.Stops[0]
	if ss.Text != "stopWhen" || ss.Key != "pkg/m.run.stopWhen" || ss.Pos.Line != lineOf(src, "if (await isStopConditionMet") || ss.AtPos.Line != lineOf(src, "return false") {
		t.Errorf("stop set %+v", ss)
	}
	found := false
	for _, d := range p.Defaults {
		if d.Key == ss.Key {
			found = d.Value == "isStepCount(1)" && d.Pos.Line == lineOf(src, "export async function run")
		}
	}
	if !found {
		t.Errorf("no default isStepCount(1) for %s: %+v", ss.Key, p.Defaults)
	}
}

// TestMergedStream: a stream drained by a sync loop whose chunks a helper of the set merges
// into a dict the function built (merge_chunk(message, delta)) makes that dict the result;
// the calls it asks for, rebuilt as new objects and collected, are dispatched in the helper
// handed the collection; a constructor handed a call's name runs nothing.
func TestMergedStream(t *testing.T) {
	src := `import json


def merge_chunk(final, delta):
    for k, v in delta.items():
        final[k] = v


class Call:
    def __init__(self, id, name):
        self.id = id
        self.name = name


class Runner:
    def handle(self, calls, functions):
        table = {f.__name__: f for f in functions}
        out = []
        for c in calls:
            out.append(table[c.name]())
        return out

    def run_stream(self, client, messages, functions, max_turns=10):
        turns = 0
        while turns < max_turns:
            turns += 1
            message = {"content": "", "tool_calls": []}
            completion = client.create(messages, stream=True)
            for chunk in completion:
                delta = json.loads(chunk.json())
                merge_chunk(message, delta)
                yield delta
            if not message["tool_calls"]:
                break
            calls = []
            for tc in message["tool_calls"]:
                call = Call(id=tc["id"], name=tc["name"])
                calls.append(call)
            messages.extend(self.handle(calls, functions))
`
	p := buildPy(t, src)
	res := recognize.Recognize(p, recognize.Options{})
	got := describe(res, filepath.Base)
	for _, want := range []string{
		fmt.Sprintf("loop for m.Runner.run_stream line %d", lineOf(src, "while turns")),
		fmt.Sprintf("model client.create m.py:%d", lineOf(src, "client.create(")),
		fmt.Sprintf("tool table[c.name] m.py:%d", lineOf(src, "table[c.name]")),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "tool m.Call") || strings.Contains(got, "tool merge_chunk") {
		t.Errorf("a constructor or the chunk merge taken for a tool:\n%s", got)
	}
}

// TestJoinChain: a method chain written one call a line is one line of call text, so that what
// its calls are handed shows (Promise.resolve().then(executor) hands executor on); other
// multi-line calls keep their first line.
func TestJoinChain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"f(x)", "f(x)"},
		{"Promise.resolve()\n    .then(executor)\n    .catch((e) => {\n    fail(e);\n})", "Promise.resolve().then(executor).catch((e) => {\n    fail(e);\n})"},
		{"a\n  ?.b(c)\n  .d()", "a?.b(c).d()"},
		{"create({\n    messages,\n})", "create({\n    messages,\n})"},
	} {
		if got := joinChain(tc.in); got != tc.want {
			t.Errorf("joinChain(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
