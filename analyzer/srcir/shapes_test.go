//go:build cgo

package srcir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
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
