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

// pyClassesSrc exercises the Python classes of receivers, defaults and returns the
// recognizer needs from the front-end (issue 11): typed receivers, bound defaults through
// call sites, with-bindings, recorded bound errors, re-raises and cancellation flags.
const pyClassesSrc = `import asyncio

_SHUTDOWN_REGISTERED = False


class StepError(Exception):
    pass


class AgentError(Exception):
    pass


class MaxStepsError(Exception):
    pass


class Model:
    def generate(self, messages):
        return None


class OpenAIModel(Model):
    def generate(self, messages):
        return None

    def generate_stream(self, messages):
        yield None


class Loop:
    def tick(self):
        return True


class Result:
    def __init__(self, output):
        self.output = output


class Step:
    def __init__(self, error=None):
        self.error = error


class Agent:
    planner: Model

    def __init__(self, model: Model, max_steps: int = 20):
        self.model = model
        self.max_steps = max_steps
        self.interrupt_switch = False

    @property
    def llm(self) -> Model:
        return self.model

    def run(self, task, max_steps=None):
        max_steps = max_steps or self.max_steps
        out = self._loop(task, max_steps=max_steps)
        return Result(out)

    def _loop(self, task, max_steps):
        step = 0
        while step < max_steps:
            step += 1
            if self.interrupt_switch:
                raise AgentError("Agent interrupted.")
            if not _SHUTDOWN_REGISTERED:
                print("register")
            try:
                a = self.model.generate(task)
                b = self.llm.generate(task)
                c = self.planner.generate(task)
                d = self.model.generate_stream(task)
            except StepError as e:
                raise e
        if step >= max_steps:
            self._at_limit()
        with Loop() as loop:
            loop.tick()
        return None

    def _at_limit(self):
        self.steps = [Step(error=MaxStepsError("reached"))]


class Tracer:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def provider() -> Model:
    return Model()


def traced(task):
    with Tracer():
        provider().generate(task)
        Model().generate(task)
    interrupts = []
    if interrupts:
        return interrupts
    return task
`

func buildPy(t *testing.T, src string) *ir.Program {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "m.py")
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

func funcNamed(t *testing.T, p *ir.Program, key string) *ir.Func {
	t.Helper()
	for _, f := range p.Funcs {
		if f.Key == key {
			return f
		}
	}
	t.Fatalf("no func %s", key)
	return nil
}

func callText(t *testing.T, f *ir.Func, prefix string) *ir.Call {
	t.Helper()
	for i := range f.Calls {
		if strings.HasPrefix(f.Calls[i].Text, prefix) {
			return &f.Calls[i]
		}
	}
	t.Fatalf("no call %s in %s", prefix, f.Name)
	return nil
}

func TestPythonReceivers(t *testing.T) {
	p := buildPy(t, pyClassesSrc)
	loop := funcNamed(t, p, "m.Agent._loop")
	for _, tc := range []struct {
		call     string
		abstract string
		keys     []string
	}{
		// a field assigned a typed parameter: the class and its subclasses' overrides
		{"self.model.generate(", "m.Model.generate", []string{"m.Model.generate", "m.OpenAIModel.generate"}},
		// a property's return type
		{"self.llm.generate(", "m.Model.generate", []string{"m.Model.generate", "m.OpenAIModel.generate"}},
		// a class-level annotation
		{"self.planner.generate(", "m.Model.generate", []string{"m.Model.generate", "m.OpenAIModel.generate"}},
		// a method only subclasses define: keyed on the declared class too
		{"self.model.generate_stream(", "m.Model.generate_stream", []string{"m.OpenAIModel.generate_stream"}},
		// with Loop() as loop
		{"loop.tick(", "m.Loop.tick", []string{"m.Loop.tick"}},
	} {
		c := callText(t, loop, tc.call)
		if c.Abstract != tc.abstract || strings.Join(c.Keys, " ") != strings.Join(tc.keys, " ") {
			t.Errorf("%s: abstract %q keys %v, want %q %v", tc.call, c.Abstract, c.Keys, tc.abstract, tc.keys)
		}
	}
}

func TestPythonBoundFacts(t *testing.T) {
	p := buildPy(t, pyClassesSrc)
	// the keyword default of __init__, through self.max_steps, run's local alternative and
	// the call of _loop
	found := false
	for _, d := range p.Defaults {
		if d.Key == "m.Agent._loop.max_steps" {
			found = true
			if want := lineOf(pyClassesSrc, "max_steps: int = 20"); d.Value != "20" || d.Pos.Line != want {
				t.Errorf("default of _loop.max_steps = %s at line %d, want 20 at %d", d.Value, d.Pos.Line, want)
			}
		}
	}
	if !found {
		t.Errorf("no default for _loop.max_steps: %+v", p.Defaults)
	}
	loop := funcNamed(t, p, "m.Agent._loop")
	var stop string
	for _, b := range loop.Branches {
		if b.InCond {
			continue
		}
		stop = b.StopText
	}
	if stop != "MaxStepsError" {
		t.Errorf("at-bound stop text %q, want the recorded MaxStepsError", stop)
	}
	kinds := map[int]ir.ValueKind{}
	for _, r := range loop.Returns {
		if r.Err != nil {
			kinds[r.Pos.Line] = r.Err.Kind
		}
	}
	if kinds[lineOf(pyClassesSrc, "raise AgentError")] != ir.ValCtxErr {
		t.Errorf("raise AgentError(\"Agent interrupted.\"): %s, want ctx_err", kinds[lineOf(pyClassesSrc, "raise AgentError")])
	}
	if kinds[lineOf(pyClassesSrc, "raise e")] != ir.ValError {
		t.Errorf("raise e under except StepError: %s, want error", kinds[lineOf(pyClassesSrc, "raise e")])
	}
	run := funcNamed(t, p, "m.Agent.run")
	last := run.Returns[len(run.Returns)-1]
	if last.Err == nil || last.Err.Kind != ir.ValNil {
		t.Errorf("return Result(out): %+v, want a value (nil error)", last.Err)
	}
	var cancels []int
	for _, c := range loop.Cancels {
		cancels = append(cancels, c.Pos.Line)
	}
	if want := lineOf(pyClassesSrc, "if self.interrupt_switch"); len(cancels) != 1 || cancels[0] != want {
		t.Errorf("cancels at %v, want only the interrupt flag at %d (a module setting checked without leaving is none)", cancels, want)
	}
}

// lineOf returns the 1-based line of the first occurrence of sub in src.
func lineOf(src, sub string) int {
	i := strings.Index(src, sub)
	if i < 0 {
		return -1
	}
	return strings.Count(src[:i], "\n") + 1
}

// executorSrc is the classic executor shape: a private hook (_call) of a class whose base is
// outside the analysed files, the plan step in a helper the loop calls, a type test for the
// final answer, the counter passed to a helper that compares it with a class field's bound,
// and returns through a helper that only builds the result.
const executorSrc = `from base import Chain


class AgentFinish:
    pass


class Planner:
    def plan(self, steps):
        return None


class Executor(Chain):
    max_iterations: int = 15

    def __init__(self, agent: Planner, tools):
        self.agent = agent
        self.tools = tools

    def _should_continue(self, iterations):
        if self.max_iterations is not None and iterations >= self.max_iterations:
            return False
        return True

    def _step(self, steps):
        output = self.agent.plan(steps)
        if isinstance(output, AgentFinish):
            return output
        for action in output:
            tool = self.tools[action.tool]
            steps.append(tool.run(action.tool_input))
        return steps

    def _return(self, output):
        return {"output": output}

    def _call(self, inputs):
        steps = []
        iterations = 0
        while self._should_continue(iterations):
            out = self._step(steps)
            if isinstance(out, AgentFinish):
                return self._return(out)
            iterations += 1
        return self._return(None)
`

func TestPythonExecutorShape(t *testing.T) {
	p := buildPy(t, executorSrc)
	res := recognize.Recognize(p, recognize.Options{})
	got := describe(res, filepath.Base)
	want := fmt.Sprintf(`entry m.Executor._call m.py:%d
  loop for m.Executor._call line %d
    bound self.max_iterations default 15@m.py:%d optional=true line %d
    at bound silent return False max_steps line %d
    cancel false line 0
    model m.Planner.plan m.py:%d
    tool tool.run m.py:%d parallel=false
  exit completed goal_reached line %d
  exit completed goal_reached line %d
`, lineOf(executorSrc, "def _call"), lineOf(executorSrc, "while self._should_continue"), lineOf(executorSrc, "max_iterations: int = 15"),
		lineOf(executorSrc, "if self.max_iterations"), lineOf(executorSrc, "return False"), lineOf(executorSrc, "self.agent.plan"),
		lineOf(executorSrc, "tool.run("), lineOf(executorSrc, "return self._return(out)"), lineOf(executorSrc, "return self._return(None)"))
	if got != want {
		t.Errorf("recognized:\n%s\nwant:\n%s", got, want)
	}
}

// TestPythonContextsAndPauses: a with statement runs the manager's __enter__/__exit__, a
// factory's annotated return type types its result, and a return under a test of an
// interruption is a pause, not an end.
func TestPythonContextsAndPauses(t *testing.T) {
	p := buildPy(t, pyClassesSrc)
	f := funcNamed(t, p, "m.traced")
	if c := callText(t, f, "Tracer()"); !strings.Contains(strings.Join(c.Keys, " "), "m.Tracer.__enter__") {
		t.Errorf("with Tracer(): keys %v, want its __enter__", c.Keys)
	}
	for _, call := range []string{"provider().generate(", "Model().generate("} {
		if c := callText(t, f, call); c.Abstract != "m.Model.generate" {
			t.Errorf("%s: abstract %q, want m.Model.generate", call, c.Abstract)
		}
	}
	for _, r := range f.Returns {
		want := r.Pos.Line == lineOf(pyClassesSrc, "return interrupts")
		if r.Waiting != want {
			t.Errorf("return at line %d: waiting %v, want %v", r.Pos.Line, r.Waiting, want)
		}
	}
}

// TestPythonConfigDefaults: a field computed from a configuration entry gets the default the
// entry is given where the configuration is built, through an environment default wrapped in
// a type; a closure's call passes on its parent's keyword default.
func TestPythonConfigDefaults(t *testing.T) {
	src := `import os

DEFAULT_LIMIT = _Limit(os.getenv("LIMIT", "25"))


def make():
    return Config(recursion_limit=DEFAULT_LIMIT)


class Loop:
    def __init__(self, config):
        self.step = 0
        self.stop = self.step + config["recursion_limit"] + 1


def inner(max_turns):
    return max_turns


def outer(**kwargs):
    max_turns = kwargs.get("max_turns", 8)

    def run():
        return inner(max_turns=max_turns)

    return run
`
	p := buildPy(t, src)
	want := map[string]string{
		"m.Loop.stop":       fmt.Sprintf(`"25"@%d`, lineOf(src, "DEFAULT_LIMIT =")),
		"m.inner.max_turns": fmt.Sprintf("8@%d", lineOf(src, `kwargs.get("max_turns", 8)`)),
	}
	got := map[string]string{}
	for _, d := range p.Defaults {
		if _, ok := want[d.Key]; ok {
			got[d.Key] = fmt.Sprintf("%s@%d", d.Value, d.Pos.Line)
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("default of %s = %q, want %q", k, got[k], w)
		}
	}
}
