//go:build cgo

package srcir

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// writeTree writes files (path relative to dir -> text) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDepReexportCycles: re-export cycles in installed dependencies end, and in time linear in
// the modules: a barrel of n modules each re-exporting all the others (export * from, as the
// ES builds of @langchain/core's index modules chain their barrels; and tsc's CommonJS
// __exportStar(require(...)) form), module.exports = require(...) between two modules, and
// Python packages whose __init__ star-imports a module that star-imports the package back,
// each asked for a name none defines and for one the last module defines.
func TestDepReexportCycles(t *testing.T) {
	const n = 14
	js := map[string]string{
		"node_modules/app/package.json": `{"name": "app", "main": "index.js"}`,
		"node_modules/app/index.js": "import { missing, found } from 'cyc';\nconst req = require('cjs');\n" +
			"export async function run(m) { await missing(m); await found(m); return req.gone(m); }\n",
		"node_modules/cyc/package.json": `{"name": "cyc", "exports": {".": {"import": "./index.js"}}}`,
		"node_modules/cjs/package.json": `{"name": "cjs", "main": "x.js"}`,
		"node_modules/cjs/x.js":         "module.exports = require('./y');\n",
		"node_modules/cjs/y.js":         "module.exports = require('./x');\n__exportStar(require('./x'), exports);\n",
	}
	var index strings.Builder
	for i := range n {
		fmt.Fprintf(&index, "export * from './m%d';\n", i)
		var m strings.Builder
		// (the names in the text: the loader parses a star's module only when its text
		// holds the name asked)
		m.WriteString("// re-exports missing and found\n")
		for j := range n {
			if j != i {
				if i%2 == 0 {
					fmt.Fprintf(&m, "export * from './m%d';\n", j)
				} else {
					fmt.Fprintf(&m, "__exportStar(require('./m%d'), exports);\n", j)
				}
			}
		}
		if i == n-1 {
			m.WriteString("export function found(m) { return m.missing; }\n")
		}
		js[fmt.Sprintf("node_modules/cyc/m%d.js", i)] = m.String()
	}
	js["node_modules/cyc/index.js"] = index.String()
	py := map[string]string{
		"site/agentapp/__init__.py": "",
		"site/agentapp/agent.py":    "from cycpkg import missing, found\n\ndef run(m):\n    missing(m)\n    return found(m)\n",
		"site/cycpkg/__init__.py":   "from cycpkg import *\nfrom cycpkg.a import *\nfrom .b import *\n",
		"site/cycpkg/a.py":          "from cycpkg import *\nfrom cycpkg.b import *\n",
		"site/cycpkg/b.py":          "from cycpkg.a import *\nfrom cycpkg import missing\n\ndef found(m):\n    return m\n",
	}
	for _, tc := range []struct {
		files map[string]string
		file  string
	}{{js, "node_modules/app/index.js"}, {py, "site/agentapp/agent.py"}} {
		dir := t.TempDir()
		writeTree(t, dir, tc.files)
		f := filepath.Join(dir, filepath.FromSlash(tc.file))
		done := make(chan error, 1)
		start := time.Now()
		var prog *ir.Program
		go func() {
			p, _, _, err := BuildWithDeps([]string{f}, f)
			prog = p
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v", tc.file, time.Since(start))
			// the name the last module defines is found through the cycle
			found := false
			for _, fn := range prog.Funcs {
				for _, c := range fn.Calls {
					for _, tg := range c.Targets {
						found = found || prog.Funcs[tg].Short == "found" || strings.HasSuffix(prog.Funcs[tg].Name, ".found")
					}
				}
			}
			if !found {
				t.Errorf("%s: the call of found() does not reach its definition", tc.file)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: BuildWithDeps did not end in 20 s (a re-export cycle followed without end)", tc.file)
		}
	}
}

// FuzzDepResolve: the dependency loader's resolution whatever the installed package holds —
// its package.json (exports as a string, a subpath map with * patterns, nested conditions,
// arrays, malformed JSON), the subpath imported, its entry module's text (re-exports of itself
// and cycles: export * from './index', module.exports = require, __exportStar of its own
// name), and a Python distribution's RECORD and its package's __init__.py (star imports of
// itself, relative imports past the top): no panic, and an end in time linear in the input
// (no input of a few kilobytes takes seconds).
func FuzzDepResolve(f *testing.F) {
	f.Add([]byte(`{"name":"dep","exports":"./index.js"}`), ".", []byte("export * from './index';\nexport function run() {}\n"),
		[]byte("dep/__init__.py,sha256=x,1\n"), []byte("from dep import *\n"))
	f.Add([]byte(`{"name":"dep","exports":{".":{"import":{"node":"./index.js","default":["./x.js","./index.js"]},"require":"./c.js"},"./*":{"import":"./*.js"}}}`),
		"./index", []byte("module.exports = require('./index');\n__exportStar(require('dep'), exports);\n"),
		[]byte("dep/__init__.py\n../../etc/passwd,,\n,,,\n"), []byte("from . import *\nfrom .. import x\nfrom dep.dep import run\n"))
	f.Add([]byte(`{"name":"dep","main":"./index","module":"./missing.mjs","exports":[null,1,{"import":[]},"./index.js"]}`), "./a/b/../c",
		[]byte(`Object.defineProperty(exports, "run", { get: function () { return require("./index").run; } });`+"\n"),
		[]byte("not a record"), []byte("import dep\nfrom dep import run as run\nrun = dep.run\n"))
	f.Add([]byte(`{"exports":{"./x*y*":"./*.js","import":"./index.js"}`), "./x", []byte("export { run } from './index';\n"), []byte{}, []byte("def run(:\n"))
	f.Add([]byte(`{"name":`), "", []byte("export * from"), []byte("\x00\xff"), []byte("from"))
	f.Fuzz(func(t *testing.T, pkg []byte, sub string, index, record, init []byte) {
		if len(pkg)+len(sub)+len(index)+len(record)+len(init) > 1<<14 || strings.ContainsAny(sub, "\x00") {
			return
		}
		// an input that has not ended in 20 s crashes the worker with every goroutine's
		// stack: the fuzzer keeps it as a failing input
		debug.SetTraceback("all")
		timer := time.AfterFunc(20*time.Second, func() { panic("FuzzDepResolve: no end in 20 s") })
		defer timer.Stop()
		dir := t.TempDir()
		spec := "dep"
		if s := strings.Trim(filepath.ToSlash(filepath.Clean("/"+sub)), "/"); s != "" && s != "." {
			spec = "dep/" + s
		}
		writeTree(t, dir, map[string]string{
			"node_modules/app/package.json": `{"name": "app"}`,
			"node_modules/app/index.js": "import { run } from 'dep';\nimport * as sub from '" + strings.NewReplacer("'", "", "\n", "", "\\", "").Replace(spec) + "';\n" +
				"const req = require('dep');\nexport async function go(m) { await run(m); await sub.run(m); return req.run(m); }\n",
			"node_modules/dep/package.json": string(pkg),
			"node_modules/dep/index.js":     string(index),
			"site/app/__init__.py":          "",
			"site/app/agent.py":             "from dep import run\nimport dep.sub\n\ndef go(m):\n    dep.sub.run(m)\n    return run(m)\n",
			"site/dep/__init__.py":          string(init),
			"site/dep/sub.py":               string(init),
			"site/dep-1.0.dist-info/RECORD": string(record),
			"site/app-1.0.dist-info/RECORD": "app/__init__.py,,\napp/agent.py,,\n",
		})
		for _, file := range []string{"node_modules/app/index.js", "site/app/agent.py"} {
			start := time.Now()
			p := filepath.Join(dir, filepath.FromSlash(file))
			if _, _, _, err := BuildWithDeps([]string{p}, p); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("%s: %v for %d bytes of input", file, d, len(pkg)+len(index)+len(record)+len(init))
			}
		}
		// the manifest's exports looked up directly, for any subpath
		l := newDepLoader(nil, nil)
		for _, esm := range []bool{true, false} {
			if e := l.entry(filepath.Join(dir, "node_modules/dep"), "./"+strings.TrimPrefix(sub, "./"), esm); e != "" && !isFile(e) {
				t.Fatalf("entry %q is no file", e)
			}
		}
	})
}
