//go:build cgo

package srcir

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// fuzzBuild parses src as lang and lowers it: whatever the bytes, neither may panic, and
// every position of the IR is inside the input.
func fuzzBuild(t *testing.T, lang syntax.Lang, name string, src []byte) {
	if ds, ok := desugarPrivate(src, tableOf(lang)); ok {
		// the rewrite of compiled private members keeps every line where it was
		if a, b := bytes.Count(src, []byte("\n")), bytes.Count(ds, []byte("\n")); a != b {
			t.Fatalf("desugarPrivate: %d lines, want %d", b, a)
		}
		src = ds
	}
	if ds, ok := desugarAsyncGen(src, tableOf(lang)); ok {
		// so does the rewrite of compiled async generators
		if a, b := bytes.Count(src, []byte("\n")), bytes.Count(ds, []byte("\n")); a != b {
			t.Fatalf("desugarAsyncGen: %d lines, want %d", b, a)
		}
		src = ds
	}
	if lang != syntax.Python {
		if ds, ok := desugarAwaiter(src, tableOf(lang)); ok {
			if a, b := bytes.Count(src, []byte("\n")), bytes.Count(ds, []byte("\n")); a != b {
				t.Fatalf("desugarAwaiter: %d lines, want %d", b, a)
			}
			src = ds
		}
		if ds, ok := desugarOptional(src); ok {
			if a, b := bytes.Count(src, []byte("\n")), bytes.Count(ds, []byte("\n")); a != b {
				t.Fatalf("desugarOptional: %d lines, want %d", b, a)
			}
			src = ds
		}
	}
	tr, err := syntax.Parse(name, lang, src)
	if err != nil {
		t.Fatal(err)
	}
	prog, _ := Build([]*syntax.Tree{tr})
	lines := 1
	for _, b := range src {
		if b == '\n' {
			lines++
		}
	}
	for _, f := range prog.Funcs {
		if f.Pos.Line < 1 || f.Pos.Line > lines {
			t.Fatalf("func %s at line %d of %d", f.Name, f.Pos.Line, lines)
		}
		for _, c := range f.Calls {
			for _, tg := range c.Targets {
				if tg < 0 || tg >= len(prog.Funcs) {
					t.Fatalf("call target %d of %d funcs", tg, len(prog.Funcs))
				}
			}
		}
	}
}

func seeds(f *testing.F, exts ...string) {
	f.Helper()
	dirs := []string{"testdata/pyagent/pyagent", "testdata/tsagent/src"}
	// the Python/TS/JS shapes of the recognizer (one directory each)
	if shapes, err := os.ReadDir("../recognize/testdata/shapes"); err == nil {
		for _, e := range shapes {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join("../recognize/testdata/shapes", e.Name()))
			}
		}
	}
	for _, dir := range dirs {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			for _, x := range exts {
				if filepath.Ext(e.Name()) == x {
					if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
						f.Add(data)
					}
				}
			}
		}
	}
}

func FuzzPython(f *testing.F) {
	seeds(f, ".py")
	f.Add([]byte("def f(:\n  while x <\n"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBuild(t, syntax.Python, "fuzz.py", src) })
}

func FuzzTypeScript(f *testing.F) {
	seeds(f, ".ts")
	f.Add([]byte("class A { async *m() { for await (const x of y) { if (!x.length) return; } } }"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBuild(t, syntax.TypeScript, "fuzz.ts", src) })
}

func FuzzJavaScript(f *testing.F) {
	seeds(f, ".js")
	f.Add([]byte("exports.x = void 0; const a = require('./a'); await (0, a.f)(1)"))
	f.Add([]byte("class A { m() { tslib_1.__classPrivateFieldSet(this, _A_x, `${f(\n1)}`, \"f\");\n" +
		"return __classPrivateFieldGet(this, _A_instances, \"m\", _A_run).call(this, __classPrivateFieldGet(this, _A_x, \"f\")); } }"))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBuild(t, syntax.JavaScript, "fuzz.js", src) })
}
