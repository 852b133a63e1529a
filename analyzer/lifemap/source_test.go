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
