//go:build cgo

package srcir

import (
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// TestCalleeForms: a call of a default step function an option may override ((executor?.call
// ?? call)(ctx), as @agentica/core@0.31.3 src/orchestrate/execute.ts:46 runs each step) runs
// one of the alternatives; a function reached through a module-level object literal used as a
// namespace (StreamUtil.reduce(stream, f) with export const StreamUtil = { readAll, reduce },
// src/utils/StreamUtil.ts:77-82, called at src/orchestrate/call.ts:95) is that function, by a
// shorthand property, a key naming a function or a method of the literal.
func TestCalleeForms(t *testing.T) {
	src := `async function call(ctx, ops) { return ctx.request(ops); }
async function select(ctx) { return ctx.pick(); }
async function reduce(stream, reducer) { let acc = null; for await (const v of stream) { acc = reducer(acc, v); } return acc; }
function readAll(stream) { return stream; }
function toChunks(x) { return x; }
export const StreamUtil = {
  readAll,
  reduce,
  chunks: toChunks,
  from(value) { return value; },
};
export function execute(executor) {
  return async (ctx) => {
    await (executor?.select ?? select)(ctx);
    while (true) {
      const executes = await (executor?.call || call)(ctx, ctx.stack);
      const all = await StreamUtil.reduce(executes, (a, b) => b);
      StreamUtil.chunks(all);
      StreamUtil.from(all);
      (ctx.flag ? call : select)(ctx);
      if (executes.length === 0) break;
    }
  };
}
`
	p := buildSrc(t, "execute.js", src)
	var f *ir.Func
	for _, g := range p.Funcs {
		if g.Name == "pkg/execute.execute$1" {
			f = g
		}
	}
	if f == nil {
		t.Fatal("no closure pkg/execute.execute$1")
	}
	for _, tc := range []struct{ call, callee string }{
		{"(executor?.select ?? select)(", "pkg/execute.select"},
		{"(executor?.call || call)(", "pkg/execute.call"},
		{"StreamUtil.reduce(", "pkg/execute.reduce"},
		{"StreamUtil.chunks(", "pkg/execute.toChunks"},
		{"StreamUtil.from(", "pkg/execute.from"},
		{"(ctx.flag ? call : select)(", "pkg/execute.call pkg/execute.select"},
	} {
		var c *ir.Call
		for i := range f.Calls {
			if strings.Contains(f.Calls[i].Text, tc.call) {
				c = &f.Calls[i]
			}
		}
		if c == nil {
			t.Fatalf("no call %s", tc.call)
		}
		var got []string
		for _, id := range c.Targets {
			got = append(got, p.Funcs[id].Name)
		}
		if want := tc.callee; joinSorted(got) != want {
			t.Errorf("%s: targets %v, want %s", tc.call, got, want)
		}
	}
}

// TestRetryLoopTools: a loop whose body ends by leaving and repeats through the continue of a
// branch taken when the model asked for tools (if (toolCallsWithTools?.length) { …; if
// (error) throw error; …; continue }), as @aigne/core@1.72.0 lib/esm/agents/ai-agent.js:382-505
// writes its function-calling loop, is no retry loop, whatever the body throws elsewhere (a
// tool lookup's throw in a callback, a rethrown tool error); a loop that continues only after a
// failure still is.
func TestRetryLoopTools(t *testing.T) {
	src := `export async function* run(model, toolsMap) {
  for (;;) {
    const out = await model.invoke();
    const calls = out.toolCalls?.map((call) => {
      const tool = toolsMap.get(call.name);
      if (!tool) throw new Error("Tool not found");
      return tool;
    });
    if (calls?.length) {
      let error;
      for (const c of calls) { await c.run(); }
      if (error) throw error;
      if (calls.length) {
        continue;
      }
    }
    return out;
  }
}
export async function retry(model, max) {
  let attempt = 0;
  for (;;) {
    try {
      return await model.invoke();
    } catch (e) {
      if (attempt++ > max) throw e;
      continue;
    }
  }
}
export async function poll(client) {
  while (true) {
    const r = await client.fetch();
    if (!r.ok) {
      if (r.code > 500) throw new Error("down");
      continue;
    }
    return r;
  }
}
`
	p := buildSrc(t, "loop.js", src)
	for _, tc := range []struct {
		fn    string
		retry bool
	}{
		{"pkg/loop.run", false},
		{"pkg/loop.retry", true},
		{"pkg/loop.poll", true},
	} {
		f := funcNamed(t, p, tc.fn)
		if len(f.Loops) == 0 {
			t.Fatalf("%s: no loop", tc.fn)
		}
		if got := f.Loops[0].Retry; got != tc.retry {
			t.Errorf("%s: retry %v, want %v", tc.fn, got, tc.retry)
		}
	}
}

func joinSorted(xs []string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return strings.Join(s, " ")
}
