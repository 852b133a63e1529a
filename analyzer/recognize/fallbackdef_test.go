//go:build cgo

package recognize_test

import (
	"path/filepath"
	"testing"
)

// TestFallbackDefaults checks that a bound's default is found behind a fallback or a getter:
// a lookup whose fallback is a field set from a constructor parameter
// (input_args.pop("max_iters", self.max_iters)), kwargs.get with a constant of another module
// read from the environment (int(os.getenv("X", "20")) = 20), a @property or TS/JS getter
// returning a configured value ?? / or a default, and a local ?? literal.
func TestFallbackDefaults(t *testing.T) {
	res := recognizeSrc(t, "fallbackdef")
	for _, w := range []struct {
		entry, bound, def, defFile string
		defLine                    int
		env                        string
	}{
		{"agent.Agent.run", "max_iters", "7", "agent.py", 6, ""},
		{"agent.Other.go", "max_turns", "20", "limits.py", 3, "AGENT_MAX_TURNS"},
		{"agent.Third.step_all", "self.max_steps", "20", "limits.py", 3, "AGENT_MAX_TURNS"},
		{"exec.Executor.run", "this.maxTurns", "12", "exec.ts", 3, ""},
		{"exec.Executor2.run", "max", "30", "exec.ts", 35, ""},
		{"runner.Runner.run", "this.maxTurns", "9", "runner.js", 4, ""},
	} {
		e := srcEntry(res, w.entry)
		if e == nil || len(e.Loops) == 0 {
			t.Errorf("%s: no entry with a loop", w.entry)
			continue
		}
		bd := e.Loops[0].Bound
		if bd == nil {
			t.Errorf("%s: no bound", w.entry)
			continue
		}
		if bd.Expr != w.bound || bd.Default != w.def {
			t.Errorf("%s: bound %q default %q, want %q default %q", w.entry, bd.Expr, bd.Default, w.bound, w.def)
		}
		if filepath.Base(bd.DefaultPos.File) != w.defFile || bd.DefaultPos.Line != w.defLine {
			t.Errorf("%s: default at %s:%d, want %s:%d", w.entry, bd.DefaultPos.File, bd.DefaultPos.Line, w.defFile, w.defLine)
		}
		if bd.DefaultEnv != w.env {
			t.Errorf("%s: default env %q, want %q", w.entry, bd.DefaultEnv, w.env)
		}
	}
}
