//go:build cgo

package srcir

import (
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestBuildWithDeps: the modules of installed dependencies the analysed files reach are
// read, by the names imported, and no others. JS: ../lifemap/testdata/deps, a package
// modelled on @voltagent/core@2.10.0 (dist/index.js:31569 calls ai's generateText) with a
// fake ai whose package.json "exports" has import/require conditions and whose index
// re-exports a steps module (require condition: dist/index.js, not the ES build; embed.js,
// which nothing imports, unread). Python: testdata/deps/site, a --target directory with two
// distributions (RECORDs) modelled on langgraph-prebuilt 1.1.3 on langgraph: the agent's
// import of looplib reads looplib/__init__.py and the module it re-exports run_loop from,
// not looplib/other.py (its other name is not asked), nor agentapp/extra.py (a module of
// the analysed distribution the user did not name).
func TestBuildWithDeps(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"../lifemap/testdata/deps/node_modules/@acme/agent/dist/index.js",
			[]string{"steploop/dist/index.js", "steploop/dist/steps.js", "unused/index.js"}},
		{"testdata/deps/site/agentapp/agent.py",
			[]string{"looplib/__init__.py", "looplib/loop.py"}},
	} {
		abs, err := filepath.Abs(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		prog, _, deps, err := BuildWithDeps([]string{abs}, abs)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range deps {
			got = append(got, d)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: dependency files %v, want %v", tc.file, got, tc.want)
		}
		// the call into the dependency resolves to its function
		found := false
		for _, f := range prog.Funcs {
			for _, c := range f.Calls {
				for _, tg := range c.Targets {
					if n := prog.Funcs[tg].Name; strings.HasSuffix(n, "runSteps") || strings.HasSuffix(n, "run_loop") {
						found = true
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no call reaches the dependency's loop function", tc.file)
		}
	}
}

// TestParsedBuildsTwice: lifeline map builds the named files (Parsed.Build) and, when their
// code runs no turn loop of its own, reads their dependencies from the same trees
// (Parsed.LoadDeps) instead of parsing every file again (openai-agents@0.24.0's agents, 320
// files, was parsed and built twice, the second program dropped for want of installed
// dependencies). The trees are shared and only read: each build is the one a fresh parse
// gives (BuildFiles, BuildWithDeps), and the dependency diagnostics without a build
// (DepLoad.Diags) are the build's own minus those of the analysed functions. Fixtures as in
// TestBuildWithDeps, plus the analysed files alone of a package with no dependency.
func TestParsedBuildsTwice(t *testing.T) {
	for _, file := range []string{
		"../lifemap/testdata/deps/node_modules/@acme/agent/dist/index.js",
		"testdata/deps/site/agentapp/agent.py",
		"testdata/deps/site/looplib/loop.py",
	} {
		abs, err := filepath.Abs(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFiles([]string{abs}, abs)
		if err != nil {
			t.Fatal(err)
		}
		prog, diags := p.Build()
		fresh, fdiags, err := BuildFiles([]string{abs}, abs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(prog, fresh) || !reflect.DeepEqual(diags, fdiags) {
			t.Errorf("%s: Parsed.Build differs from BuildFiles", file)
		}
		dl, err := p.LoadDeps()
		if err != nil {
			t.Fatal(err)
		}
		for i, tr := range p.trees {
			if dl.trees[i] != tr {
				t.Errorf("%s: LoadDeps parsed %s again", file, tr.File)
			}
		}
		dprog, ddiags := dl.Build()
		wprog, wdiags, wdeps, err := BuildWithDeps([]string{abs}, abs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dprog, wprog) || !reflect.DeepEqual(ddiags, wdiags) || !reflect.DeepEqual(dl.Deps, wdeps) {
			t.Errorf("%s: DepLoad.Build after Parsed.Build differs from BuildWithDeps", file)
		}
		var named []Diag
		for _, d := range ddiags {
			if d.Name != "" {
				named = append(named, d)
			}
		}
		var dnamed []Diag
		for _, d := range dl.Diags() {
			if d.Name != "" {
				dnamed = append(dnamed, d)
			}
		}
		if !reflect.DeepEqual(named, dnamed) {
			t.Errorf("%s: DepLoad.Diags %v, want the build's dependency diagnostics %v", file, dnamed, named)
		}
		// the first build is untouched by the second
		again, _ := p.Build()
		if !reflect.DeepEqual(again, prog) {
			t.Errorf("%s: a second Parsed.Build differs from the first", file)
		}
	}
}
