//go:build cgo

package srcir

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
)

// mapShape is what a map says of an agent, without the module names and lines a compiler
// changes (anonymous: without any name, as a minifier renames everything, and without the
// cancellation checks and exit outcomes, which are told apart by line and a minified file is
// one line): per entry (Class.method or function), its turn loops with their bound's default,
// what happens at the bound, whether cancellation is checked, the model and tool calls (the
// last two parts of their callee), and the exits' outcomes.
func mapShape(t *testing.T, dir string, anonymous bool) []string {
	t.Helper()
	prog, _ := buildDir(t, dir)
	res := recognize.Recognize(prog, recognize.Options{})
	last := func(s string, n int) string {
		if anonymous {
			return "_"
		}
		parts := strings.Split(s, ".")
		return strings.Join(parts[max(0, len(parts)-n):], ".")
	}
	var out []string
	for _, e := range res.Entries {
		name := e.Func
		if i := strings.IndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if anonymous {
			name = "_"
		}
		var b strings.Builder
		b.WriteString(name)
		for _, l := range e.Loops {
			b.WriteString(" | loop " + string(l.Kind))
			if l.Bound != nil {
				b.WriteString(" bound=" + last(l.Bound.Expr, 1) + " default=" + l.Bound.Default)
			}
			if l.OnBound != nil {
				b.WriteString(" at-bound=" + string(l.OnBound.Kind) + ":" + string(l.OnBound.StopReason))
			}
			if l.ChecksCancel && !anonymous {
				b.WriteString(" cancel")
			}
			for _, m := range l.ModelCalls {
				b.WriteString(" model=" + last(m.Callee, 2))
			}
			for _, m := range l.ToolCalls {
				b.WriteString(" tool=" + last(m.Callee, 1))
			}
		}
		var exits []string
		for _, x := range e.Exits {
			exits = append(exits, string(x.Outcome)+":"+string(x.StopReason))
		}
		sort.Strings(exits)
		if !anonymous {
			b.WriteString(" | exits " + strings.Join(exits, " "))
		}
		out = append(out, b.String())
	}
	sort.Strings(out)
	return out
}

// TestCompiledMaps: the agent of testdata/jsbundle/src, compiled by the real bundlers and
// compilers (gen.sh: tsup and esbuild bundles with their CommonJS export prelude, esbuild
// file by file, a minified esbuild bundle, a rollup ES module bundle, swc, babel and tsc CommonJS), maps like its
// TypeScript source: the same entries, loops, bounds, call sites and exits.
func TestCompiledMaps(t *testing.T) {
	root := filepath.Join("testdata", "jsbundle")
	want := mapShape(t, filepath.Join(root, "src"), false)
	if len(want) != 4 {
		t.Fatalf("the TS source maps %d entries, want 4:\n%s", len(want), strings.Join(want, "\n"))
	}
	// minified (esbuild --minify): every name is the minifier's; the entries, loops, bounds
	// and call sites are the source's
	t.Run("esbuild-min", func(t *testing.T) {
		want := mapShape(t, filepath.Join(root, "src"), true)
		got := mapShape(t, filepath.Join(root, "out", "esbuild-min"), true)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("map of the minified output:\n%s\nwant (the TS source's):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	for _, out := range []string{"tsup", "esbuild-files", "rollup", "babel", "swc", "tsc", "esbuild-es2016"} {
		t.Run(out, func(t *testing.T) {
			got := mapShape(t, filepath.Join(root, "out", out), false)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("map of the %s output:\n%s\nwant (the TS source's):\n%s", out, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
