//go:build cgo

package srcir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/model"
)

// buildFile lowers one source file named name.
func buildFile(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	dir := t.TempDir()
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

// driverSrc is a run started in the background (send wakes a driver whose promise is
// chained, not awaited) whose turn ends are recorded as state before the way out; a run
// whose loop lives in a helper whose result is dropped; a pause flag bound from a
// pause-named helper (the driver loops on the turn: a turn returning true goes on); a return through a local closure that only builds the result; a limit
// raised in a helper the loop calls; and a refusal after branches that leave.
const driverSrc = `type Call = { name: string; args: unknown };
type Reply = { toolCalls: Call[]; text: string };

export class Agent {
  constructor(private model: { respond(m: unknown[]): Promise<Reply> }, private tools: Record<string, (a: unknown) => Promise<unknown>>) {}
  private phase: { signal: AbortSignal; turns: number; limit: number } = { signal: new AbortController().signal, turns: 0, limit: 10 };
  private messages: unknown[] = [];

  send(message: unknown): void {
    this.messages.push(message);
    this.kick().then(() => {}, () => {});
  }

  private async kick(): Promise<void> {
    try {
      while (await this.turn()) {}
    } catch (_e) {}
  }

  private throwError(error: unknown): never {
    console.error(error);
    throw error;
  }

  private async turn(): Promise<boolean> {
    const signal = this.phase.signal;
    let ends: { kind: string } | null = null;
    try {
      while (true) {
        signal.throwIfAborted();
        const reply = await this.model.respond(this.messages);
        if (reply.toolCalls.length === 0) {
          ends = { kind: 'completed' };
          return false;
        }
        for (const call of reply.toolCalls) {
          this.messages.push(await this.tools[call.name](call.args));
        }
      }
    } catch (error) {
      if (signal.aborted) {
        ends = { kind: 'aborted' };
        throw error;
      }
      ends = { kind: 'error' };
      this.throwError(error);
    }
    return true;
  }

  async run(input: unknown, resumed: boolean): Promise<unknown> {
    if (this.messages.length > 0 && input === undefined) {
      if (resumed) {
        await this.loop();
        return;
      }
      throw new Error('nothing to continue from');
    }
    this.messages.push(input);
    await this.loop();
    return this.messages;
  }

  private prepare(): void {
    this.phase.turns++;
    if (this.phase.turns > this.phase.limit) {
      throw new TooManyTurnsError('max turns');
    }
  }

  private async loop(): Promise<unknown> {
    const finish = async () => {
      if (this.messages.length === 0) {
        throw new Error('no output');
      }
      return complete(this.messages);
    };
    while (true) {
      this.prepare();
      const { shouldReturn } = handleInterruptedOutcome(this.messages);
      if (shouldReturn) {
        return complete(this.messages);
      }
      const reply = await this.model.respond(this.messages);
      if (reply.toolCalls.length === 0) {
        return await finish();
      }
      for (const call of reply.toolCalls) {
        this.messages.push(await this.tools[call.name](call.args));
      }
      this.phase.signal.throwIfAborted();
    }
  }
}

class TooManyTurnsError extends Error {}

function complete(result: unknown) {
  return result;
}

function handleInterruptedOutcome(messages: unknown[]) {
  return { shouldReturn: messages.length > 100 };
}
`

// TestExitClasses: the ways out of a run that are no plain return of the entry, each with
// its outcome: a state recorded before the return or raise (turnEnds = {kind: ...}), a
// throwing cancellation check, a helper that always throws, the exits of a loop held by a
// function whose result nobody reads (a background driver, a dropped call), a pause flag, a
// local closure that completes the run, a limit raised in a helper, and a refusal after
// branches that leave (not started, although a run-launching call precedes it in the text).
func TestExitClasses(t *testing.T) {
	p := buildFile(t, "m.ts", driverSrc)
	res := recognize.Recognize(p, recognize.Options{})
	line := func(sub string) int { return lineOf(driverSrc, sub) }
	tests := []struct {
		entry string
		want  map[int]string // line -> outcome (stop reason)
	}{
		{entry: "m.Agent.send", want: map[int]string{
			line("this.kick().then") + 1:                  "started",
			line("signal.throwIfAborted();"):              "cancelled (cancelled)",
			line("return false;"):                         "completed (goal_reached)",
			line("throw error;\n      }\n      ends = {"): "cancelled (cancelled)",
			line("this.throwError(error);"):               "failed (error)",
			line("return true;"):                          "", // kick loops on it: another turn, no end
		}},
		{entry: "m.Agent.run", want: map[int]string{
			line("throw new Error('nothing"):                 "not_started",
			line("throw new TooManyTurnsError"):              "failed (max_turns)",
			line("return complete(this.messages);\n      }"): "waiting",
			line("return await finish();"):                   "completed (goal_reached)",
			line("this.phase.signal.throwIfAborted();"):      "cancelled (cancelled)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			var e *model.Entry
			for i := range res.Entries {
				if res.Entries[i].Func == tt.entry {
					e = &res.Entries[i]
				}
			}
			if e == nil {
				var names []string
				for _, x := range res.Entries {
					names = append(names, x.Func)
				}
				t.Fatalf("no entry %s among %v", tt.entry, names)
			}
			got := map[int]string{}
			for _, x := range e.Exits {
				o := x.Outcome
				if x.StopReason != "" {
					o += " (" + string(x.StopReason) + ")"
				}
				got[x.Pos.Line] = o
			}
			for l, w := range tt.want {
				if got[l] != w {
					t.Errorf("exit at line %d (%s): %q, want %q (all: %v)", l, strings.TrimSpace(strings.Split(driverSrc, "\n")[l-1]), got[l], w, got)
				}
			}
		})
	}
}

// pyMatchSrc ends a turn in match arms (a pending interruption pauses the run) and records
// its end as a dictionary with a discriminator.
const pyMatchSrc = `class Interruption:
    pass


class Agent:
    def __init__(self, model, tools):
        self.model = model
        self.tools = tools
        self.messages = []
        self.cancelled = False

    def next_step(self):
        return None

    async def run(self, task):
        self.messages.append(task)
        while True:
            reply = await self.model.generate(self.messages)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                self.messages.append(await self.tools[call.name](call.args))
            match self.next_step():
                case Interruption():
                    return self.messages
                case "stop":
                    return {"status": "cancelled", "messages": self.messages}
                case _:
                    pass
`

// TestPythonMatchExits: a match arm is a branch like a switch case: the arm's pattern says a
// return pauses the run, and a returned dictionary's discriminator says how it ended.
func TestPythonMatchExits(t *testing.T) {
	p := buildFile(t, "m.py", pyMatchSrc)
	res := recognize.Recognize(p, recognize.Options{})
	var e *model.Entry
	for i := range res.Entries {
		if res.Entries[i].Func == "m.Agent.run" {
			e = &res.Entries[i]
		}
	}
	if e == nil {
		t.Fatalf("no entry m.Agent.run: %+v", res.Entries)
	}
	want := map[int]string{
		lineOf(pyMatchSrc, "return reply.content"):   "completed",
		lineOf(pyMatchSrc, "return self.messages"):   "waiting",
		lineOf(pyMatchSrc, `return {"status": "can`): "cancelled",
	}
	got := map[int]string{}
	for _, x := range e.Exits {
		got[x.Pos.Line] = x.Outcome
	}
	for l, w := range want {
		if got[l] != w {
			t.Errorf("exit at line %d: %q, want %q (all: %v)", l, got[l], w, got)
		}
	}
}

// TestRunStartHookMints: a run reported to a start hook outside the set with the run's id
// (callback_manager.on_chain_start(..., run_id=...), handleChainStart(..., runId)) is where
// the id is minted (the hook mints it when none is given); a start hook handed no run id,
// or one of the set, mints nothing.
func TestRunStartHookMints(t *testing.T) {
	for _, tc := range []struct {
		file, src string
		want      []string // texts of the mints of f
	}{
		{"m.py", `def f(callback_manager, config, on_start):
    run_manager = callback_manager.on_chain_start(None, {}, run_id=config.get("run_id"))
    callback_manager.on_tool_start(None, "x")
    on_start(config)
`, []string{`callback_manager.on_chain_start(None, {}, run_id=config.get("run_id"))`}},
		{"m.js", `async function f(manager, runId, config) {
    const runManager = await manager?.handleChainStart(config, {}, runId, void 0);
    await manager.handleLLMStart(config, []);
    await onRunStart(runId);
}
async function onRunStart(id) { return id; }
`, []string{"manager?.handleChainStart(config, {}, runId, void 0)"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := buildFile(t, tc.file, tc.src)
			var got []string
			for _, fn := range p.Funcs {
				if fn.Short == "m.f" {
					for _, m := range fn.Mints {
						got = append(got, m.Text+" "+m.Field)
					}
				}
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, w+" run_id")
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("mints %q, want %q", got, want)
			}
		})
	}
}

// TestHandedBoundError: at the bound the loop builds the bound's error and hands it to an
// error handler instead of raising it, then ends: the run fails with that error (raised where
// its result is consumed), which is no silent end.
func TestHandedBoundError(t *testing.T) {
	src := `class MaxTurnsExceeded(Exception):
    pass


class Runner:
    async def run(self, model, tools, messages, max_turns=10):
        turn = 0
        while True:
            turn += 1
            if turn > max_turns:
                max_turns_error = MaxTurnsExceeded("max turns")
                if await self.handle(error=max_turns_error) is None:
                    break
                continue
            reply = await model.generate(messages)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                messages.append(await tools[call.name](call.args))

    async def handle(self, error):
        return None
`
	p := buildFile(t, "m.py", src)
	res := recognize.Recognize(p, recognize.Options{})
	for _, e := range res.Entries {
		if e.Func != "m.Runner.run" {
			continue
		}
		if len(e.Loops) != 1 || e.Loops[0].OnBound == nil {
			t.Fatalf("loops %+v, want one with an on-bound", e.Loops)
		}
		ob := e.Loops[0].OnBound
		if ob.Kind != model.OnBoundError || ob.Value != "MaxTurnsExceeded" || ob.StopReason != model.StopMaxTurns {
			t.Errorf("on bound %+v, want error MaxTurnsExceeded (max_turns)", ob)
		}
		return
	}
	t.Fatalf("no entry m.Runner.run")
}

// superHookSrc: a runnable whose public stream() is its base's (outside the set): the base's
// stream drives the subclass's _streamIterator hook, which runs the loop; invoke drains
// stream() and hands back the interruptions it saw keyed by their marker.
const superHookSrc = `import { Runnable } from "@lib/core";
const INTERRUPT = "__interrupt__";
class Partial extends Runnable {
  stream(input, options) {
    return super.stream(input, options);
  }
}
export class Graph extends Partial {
  async stream(input, options) {
    const stream = await super.stream(input, options);
    return new StreamWithAbort(options.text ? toText(stream) : stream);
  }
  async *_streamIterator(input, options) {
    const messages = [input];
    while (true) {
      const reply = await this.model.invoke(messages);
      if (reply.toolCalls.length === 0) {
        yield reply;
        return;
      }
      for (const call of reply.toolCalls) {
        messages.push(await this.tools[call.name].invoke(call.args));
      }
    }
  }
  async invoke(input, options) {
    const stream = await this.stream(input, options);
    const interrupts = [];
    let latest;
    for await (const chunk of stream) {
      if (chunk[INTERRUPT]) interrupts.push(chunk[INTERRUPT]);
      else latest = chunk;
    }
    if (interrupts.length > 0 && latest == null) return { [INTERRUPT]: interrupts };
    return latest;
  }
}
`

// TestExternalSuperHook: super.stream(...) of a base outside the set reaches the class's
// (or a subclass's) _stream* hook, so invoke, which drains stream(), is a run entry; a
// returned object keyed by an interruption marker is a pause; a returned wrapper of the
// stream the run fills hands the run to the caller (propagated).
func TestExternalSuperHook(t *testing.T) {
	p := buildFile(t, "m.js", superHookSrc)
	res := recognize.Recognize(p, recognize.Options{})
	sawStream := false
	for _, e := range res.Entries {
		if e.Func == "m.Graph.stream" {
			sawStream = true
			outcome := "none"
			for _, x := range e.Exits {
				if x.Pos.Line == lineOf(superHookSrc, "return new StreamWithAbort") {
					outcome = x.Outcome
				}
			}
			if outcome != model.OutcomePropagated {
				t.Errorf("stream: a returned wrapper of the run's stream is %q, want propagated", outcome)
			}
		}
		if e.Func != "m.Graph.invoke" {
			continue
		}
		got := map[int]string{}
		for _, x := range e.Exits {
			got[x.Pos.Line] = x.Outcome
		}
		if l := lineOf(superHookSrc, "return { [INTERRUPT]"); got[l] != "waiting" {
			t.Errorf("exit at line %d: %q, want waiting (all %v)", l, got[l], got)
		}
		if l := lineOf(superHookSrc, "return latest;"); got[l] != "completed" {
			t.Errorf("exit at line %d: %q, want completed (all %v)", l, got[l], got)
		}
		if !sawStream {
			t.Errorf("no entry m.Graph.stream before m.Graph.invoke")
		}
		return
	}
	var names []string
	for _, e := range res.Entries {
		names = append(names, e.Func)
	}
	t.Fatalf("no entry m.Graph.invoke among %v", names)
}

// TestParentPairs: a child's configuration built with the parent's id under a key naming the
// parent is where the child gets its parent (parent_ns: checkpoint["id"], [parentNs]:
// checkpoint.id); a parent key holding no id, or an id under another key, is none.
func TestParentPairs(t *testing.T) {
	for _, tc := range []struct {
		file, src string
		want      string
	}{
		{"m.py", `def f(checkpoint, parent_ns, conf):
    return {"map": {parent_ns: checkpoint["id"]}, "parent": conf.name, "task_id": checkpoint["id"]}
`, `parent_ns: checkpoint["id"] parent_ns checkpoint`},
		{"m.js", `function f(checkpoint, parentNs, conf) {
  return { map: { [parentNs]: checkpoint.id }, parentName: conf.name, taskId: checkpoint.id };
}
`, `[parentNs]: checkpoint.id parentNs checkpoint`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := buildFile(t, tc.file, tc.src)
			var got []string
			for _, fn := range p.Funcs {
				for _, m := range fn.Mints {
					got = append(got, m.Text+" "+m.Field+" "+strings.Join(m.Owners, ","))
				}
			}
			if strings.Join(got, "|") != tc.want {
				t.Errorf("mints %q, want %q", got, tc.want)
			}
		})
	}
}

// TestConfigObjectDefault: a bound computed from a configuration entry read as a property
// (config.recursionLimit), kept in a local handed to a constructor (new Loop({stop})), gets
// the default the entry is given where the configuration is built as an object literal
// ({recursionLimit: DEFAULT_RECURSION_LIMIT}).
func TestConfigObjectDefault(t *testing.T) {
	src := `const DEFAULT_RECURSION_LIMIT = 25;
export function ensureConfig(...configs) {
  const empty = { tags: [], recursionLimit: DEFAULT_RECURSION_LIMIT };
  return Object.assign(empty, ...configs);
}
export class Loop {
  constructor(params) {
    this.step = params.step;
    this.stop = params.stop;
  }
  static initialize(config) {
    const step = 1;
    const stop = step + (config.recursionLimit ?? 10) + 1;
    return new Loop({ step, stop });
  }
}
`
	p := buildFile(t, "m.js", src)
	want := fmt.Sprintf("25@%d", lineOf(src, "const DEFAULT_RECURSION_LIMIT"))
	var got []string
	for _, d := range p.Defaults {
		if strings.HasSuffix(d.Key, "Loop.stop") {
			got = append(got, fmt.Sprintf("%s@%d", d.Value, d.Pos.Line))
		}
	}
	if !slices.Contains(got, want) {
		t.Errorf("defaults of Loop.stop %v, want %s among them", got, want)
	}
}

// TestCheckAfterFirstStep: a cancellation check at the top of the loop body guarded only by
// "not the first iteration" (if (steps.length > 0) signal.throwIfAborted()) runs between
// every two steps; one guarded by another test, or sharing its branch, does not.
func TestCheckAfterFirstStep(t *testing.T) {
	src := `async function run(model, signal, steps, tools) {
  do {
    if (steps.length > 0) signal.throwIfAborted();
    const r = await model.generate(steps);
    steps.push(r);
  } while (r.toolCalls.length > 0);
  do {
    if (steps.length > 5) signal.throwIfAborted();
    steps.push(await model.generate(steps));
  } while (steps.length < 10);
}
`
	p := buildFile(t, "m.js", src)
	var f *ir.Func
	for _, g := range p.Funcs {
		if g.Short == "m.run" {
			f = g
		}
	}
	if f == nil {
		t.Fatal("no function m.run")
	}
	want := map[int]bool{lineOf(src, "steps.length > 0"): true, lineOf(src, "steps.length > 5"): false}
	for _, c := range f.Cancels {
		w, ok := want[c.Pos.Line]
		if !ok {
			continue
		}
		if len(c.Loops) == 0 || c.Loops[0].EveryIteration != w {
			t.Errorf("check at line %d: %+v, want every iteration %v", c.Pos.Line, c.Loops, w)
		}
		delete(want, c.Pos.Line)
	}
	if len(want) > 0 {
		t.Errorf("checks not recorded: %v", want)
	}
}

// TestReturnedLaunch: a return whose own expression starts the run (return runLoop(), return
// await trace({execute: loop}) of a callee outside the set) comes after the launch, not before
// it; the callback handed to the unknown callee says how the run ends.
func TestReturnedLaunch(t *testing.T) {
	src := `export async function run(model, tools, messages, signal, trace) {
  if (!model) throw new Error('no model');
  const loop = async () => {
    while (true) {
      const r = await model.generate(messages);
      if (r.toolCalls.length === 0) return r.text;
      for (const c of r.toolCalls) messages.push(await tools[c.name](c.args));
      signal.throwIfAborted();
    }
  };
  return await trace({ name: 'run', execute: loop });
}
`
	p := buildFile(t, "m.js", src)
	res := recognize.Recognize(p, recognize.Options{})
	for _, e := range res.Entries {
		if e.Func != "m.run" {
			continue
		}
		got := map[int]string{}
		for _, x := range e.Exits {
			got[x.Pos.Line] = x.Outcome
		}
		want := map[int]string{
			lineOf(src, "throw new Error"):         "not_started",
			lineOf(src, "return r.text"):           "completed",
			lineOf(src, "signal.throwIfAborted()"): "cancelled",
			lineOf(src, "return await trace"):      "",
		}
		for l, w := range want {
			if got[l] != w {
				t.Errorf("exit at line %d: %q, want %q (all %v)", l, got[l], w, got)
			}
		}
		return
	}
	t.Fatal("no entry m.run")
}

// TestRethrownRunError: a handler around the turn loop the entry runs that records the error
// and passes it on (catch (e) { …; throw e }, except Exception: …; raise) ends the run failed:
// the error is the run's own (a model or tool failure the loop did not absorb), not a callee's
// outcome handed through; a handler of a cancellation that rethrows ends it cancelled; a
// rethrow around a call that only runs the loop elsewhere stays propagated.
func TestRethrownRunError(t *testing.T) {
	ts := `export class Runner {
  constructor(private client: { create(m: unknown[]): Promise<{ calls: { name: string }[] }> }, private tools: Record<string, () => Promise<string>>) {}
  private messages: unknown[] = [];

  async *[Symbol.asyncIterator]() {
    try {
      while (true) {
        const reply = await this.client.create(this.messages);
        yield reply;
        if (reply.calls.length === 0) {
          break;
        }
        for (const call of reply.calls) {
          this.messages.push(await this.tools[call.name]());
        }
      }
    } catch (error) {
      this.messages = [];
      throw error;
    }
  }

  async runUntilDone() {
    try {
      for await (const _ of this) {
      }
    } catch (err) {
      console.log(err);
      throw err;
    }
  }
}
`
	py := `import asyncio


class Runner:
    def __init__(self, client, tools):
        self.client = client
        self.tools = tools
        self.messages = []

    async def run(self):
        try:
            while True:
                reply = await self.client.create(self.messages)
                if not reply.tool_calls:
                    return reply.content
                for call in reply.tool_calls:
                    self.messages.append(await self.tools[call.name](call.args))
        except asyncio.CancelledError:
            self.messages.clear()
            raise
        except Exception as exc:
            self.messages.append(str(exc))
            raise exc
`
	for _, tt := range []struct {
		name, src, entry string
		want             map[string]string // line text -> outcome (stop reason)
	}{
		{"runner.ts", ts, "runner.Runner.[Symbol.asyncIterator]", map[string]string{"throw error;": "failed (error)"}},
		{"runner.ts", ts, "runner.Runner.runUntilDone", map[string]string{"throw err;": "propagated"}},
		{"runner.py", py, "runner.Runner.run", map[string]string{"            raise\n": "cancelled (cancelled)", "raise exc": "failed (error)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := buildFile(t, tt.name, tt.src)
			res := recognize.Recognize(p, recognize.Options{})
			var e *model.Entry
			for i := range res.Entries {
				if res.Entries[i].Func == tt.entry {
					e = &res.Entries[i]
				}
			}
			if e == nil {
				t.Fatalf("no entry %s in %+v", tt.entry, res.Entries)
			}
			got := map[int][]string{} // (the end of the body may share a line)
			for _, x := range e.Exits {
				o := x.Outcome
				if x.StopReason != "" {
					o += " (" + string(x.StopReason) + ")"
				}
				got[x.Pos.Line] = append(got[x.Pos.Line], o)
			}
			for sub, w := range tt.want {
				l := lineOf(tt.src, sub)
				if !slices.Contains(got[l], w) {
					t.Errorf("exit at line %d (%q): got %q, want %q (all %v)", l, sub, got[l], w, got)
				}
			}
		})
	}
}
