//go:build cgo

package srcir

import (
	"path/filepath"
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
