//go:build cgo

package lifemap_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
)

// TestMapSources pins the map of the Python and TypeScript/JavaScript fixtures (a ReAct
// while-loop with a step bound whose default is in a config module, an asyncio.gather
// dispatch, a provider-retry loop and a finite loop that are not turn loops, a TS runner with
// an abort check per turn and Promise.all tools, compiled CommonJS): the JSON lifeline map
// --format json prints.
func TestMapSources(t *testing.T) {
	t.Chdir("testdata/sources")
	m, warns, err := lifemap.BuildSources([]string{"pyagent", "tsagent", "vet"})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) > 0 {
		t.Errorf("warnings: %v", warns)
	}
	got, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	golden(t, "sources.map.json", append(got, '\n'))
}

func TestVetSources(t *testing.T) {
	t.Chdir("testdata/sources")
	found, _, rel, err := lifemap.VetSources([]string{"vet"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.Check+" "+rel(f.File)+":"+strconv.Itoa(f.Line))
	}
	// ignored.mjs's unbounded loop carries a lifeline:ignore directive
	want := []string{"loopcancel vet/nocancel.ts:3", "unboundedloop vet/unbounded.py:3"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// without the directive the loop is found
	dir := t.TempDir()
	data, err := os.ReadFile("vet/ignored.mjs")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "lifeline:ignore", "lifeline:note", 1)
	if err := os.WriteFile(filepath.Join(dir, "ignored.mjs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	found, _, _, err = lifemap.VetSources([]string{dir}, map[string]bool{"unboundedloop": true})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Check != "unboundedloop" || found[0].Line != 3 {
		t.Errorf("without the directive: %+v", found)
	}
}

func TestMapArgsSplitsGoAndSources(t *testing.T) {
	goArgs, srcs := lifemap.SplitArgsIn("", []string{"./...", "testdata/sources/vet", "testdata/agent", "testdata/sources/vet/unbounded.py", "example.com/x"})
	if strings.Join(goArgs, " ") != "./... testdata/agent example.com/x" {
		t.Errorf("go patterns: %v", goArgs)
	}
	if strings.Join(srcs, " ") != "testdata/sources/vet testdata/sources/vet/unbounded.py" {
		t.Errorf("sources: %v", srcs)
	}
}

// BenchmarkBuildSources maps SRCIR_BENCH (an installed framework, see bench/seeds) as
// lifeline map does: parse, lower, recognize. Skipped without it.
func BenchmarkBuildSources(b *testing.B) {
	dir := os.Getenv("SRCIR_BENCH")
	if dir == "" {
		b.Skip("set SRCIR_BENCH to a directory")
	}
	for b.Loop() {
		if _, _, err := lifemap.BuildSources([]string{dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSourceDirectives: "# lifeline:" comments declare roles in Python as //lifeline: does in
// Go: a model call nothing would infer (its result is not inspected), a run entry on a private
// method, a bound default on a class field; an unknown verb is an error naming its line.
func TestSourceDirectives(t *testing.T) {
	dir := t.TempDir()
	src := `class Oracle:
    # lifeline:model-call
    def ask(self, history):
        return history[-1]


class Worker:
    # lifeline:bound 9
    limit: int = 0

    def __init__(self, oracle: Oracle):
        self.oracle = oracle

    # lifeline:run-entry
    def _work(self, task):
        history = [task]
        steps = 0
        while steps < self.limit:
            steps += 1
            history.append(self.oracle.ask(history))
        return history
`
	path := filepath.Join(dir, "worker.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := lifemap.BuildSources([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 1 || m.Entries[0].Func != "worker.Worker._work" || m.Entries[0].Provenance.Confidence != "declared" {
		t.Fatalf("entries %+v, want the declared worker.Worker._work", m.Entries)
	}
	e := m.Entries[0]
	if len(e.Loops) != 1 || len(e.Loops[0].ModelCalls) != 1 || e.Loops[0].ModelCalls[0].Pos.Line != 20 ||
		e.Loops[0].Bound == nil || e.Loops[0].Bound.Default != "9" {
		t.Errorf("loop %+v, want the declared model call at line 20 and the bound's declared default 9", e.Loops)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(src, "lifeline:bound 9", "lifeline:boundd 9", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lifemap.BuildSources([]string{path}); err == nil || !strings.Contains(err.Error(), "worker.py:8") {
		t.Errorf("unknown verb: error %v, want one naming worker.py:8", err)
	}
}

// TestVetUnsetBound: an optional bound whose default every caller leaves unset (lazychain/py:
// ChainResponse's chain_limit=10 is dead, Conversation.chain always passes chain_limit=…
// else self.chain_limit, None) is unlimited, and unboundedloop says so; the same loop whose
// constructor default nobody overrides (lazychain/pyasync: chain_limit=10) is bounded.
func TestVetUnsetBound(t *testing.T) {
	shapes := filepath.Join("..", "recognize", "testdata", "shapes", "lazychain")
	for dir, want := range map[string]string{"py": "unboundedloop chain.py:74", "pyasync": ""} {
		found, _, _, err := lifemap.VetSources([]string{filepath.Join(shapes, dir)}, map[string]bool{"unboundedloop": true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range found {
			got = append(got, f.Check+" "+filepath.Base(f.File)+":"+strconv.Itoa(f.Line))
		}
		if strings.Join(got, "\n") != want {
			t.Errorf("%s: findings %v, want %q", dir, got, want)
		}
	}
}

// TestVetShapes: lifeline vet on small excerpts of real packages (each fixture's header cites
// package@version file:line), one directory per shape of code, with the findings it must give
// ("" = none: the shape was a false positive).
func TestVetShapes(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		// a None keyword default replaced under `if max_turns is None:` before the loop
		{"noneguard", ""},
		// ... by math.inf: still unbounded
		{"noneguardinf", "unboundedloop orchestrator.py:19"},
		// a throw in the catch of the loop over the tool calls is no retry path: the turn
		// loop is found, and it has no bound
		{"throwintools", "unboundedloop provider.js:23"},
		// camel-ai's MCPAgent.astep recursion next to a decorator wrapper that is a def with a
		// self parameter outside any class binding a local to self._get_ws_wrapper(): at
		// a81fc21 typing that local deadlocked (vet hung on the camel tree and reported
		// nothing); the recursion must be reported
		{"selfdecorator", "unboundedloop mcp_agent.py:27"},
	} {
		found, _, _, err := lifemap.VetSources([]string{filepath.Join("testdata", "vetshapes", c.dir)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range found {
			got = append(got, f.Check+" "+filepath.Base(f.File)+":"+strconv.Itoa(f.Line))
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s: findings %q, want %q", c.dir, got, c.want)
		}
	}
}
