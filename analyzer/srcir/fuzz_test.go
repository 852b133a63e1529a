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
		if ds, ok := desugarOptional(src); ok {
			if a, b := bytes.Count(src, []byte("\n")), bytes.Count(ds, []byte("\n")); a != b {
				t.Fatalf("desugarOptional: %d lines, want %d", b, a)
			}
			src = ds
		}
		if ds, ok := desugarLooseOptional(src); ok {
			if len(ds) != len(src) || bytes.Count(src, []byte("\n")) != bytes.Count(ds, []byte("\n")) {
				t.Fatalf("desugarLooseOptional moved text: %d bytes, want %d", len(ds), len(src))
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
	// compiled shapes (lowered.go, declare.go): async helpers, lowered optional chains,
	// esbuild's export map and class expressions
	f.Add([]byte("class A { m(x) { return __awaiter(this, void 0, void 0, function* () { var _a; while (!((_a = (yield this.f(x))) === null || _a === void 0 ? void 0 : _a.y)) {} }); }\n" +
		"s() { return __asyncGenerator(this, arguments, function* s_1() { yield yield __await(1); yield new __await(g()); return yield __await(void 0); }); } }\n" +
		"const g = (x) => _async_to_generator(function* () { yield x; })(); if ((_b = a.b) == null ? void 0 : _b.c) {}"))
	f.Add([]byte("var i_exports = {};\n__export(i_exports, { A: () => A, b: () => b_default });\nmodule.exports = __toCommonJS(i_exports);\n" +
		"const _A = class _A extends (0, import_x.B) { constructor() { super(), __publicField(this, \"n\", 3); } };\nlet A = _A;\n0 && (module.exports = { A });"))
	f.Add([]byte("var R={};w(R,{A:()=>a});module.exports=T(R);var a=class t{static c(){return new t}};var d=__name(async(t)=>__async(void 0,null,function*(){yield t}),\"d\");"))
	for _, dir := range []string{"testdata/jsbundle/out/tsc", "testdata/jsbundle/out/esbuild-es2016", "testdata/jsbundle/out/swc", "testdata/jsbundle/out/esbuild-min"} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBuild(t, syntax.JavaScript, "fuzz.js", src) })
}
