package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMapReachesDependency: `lifeline map` of ONE installed package whose agent hands the
// tool loop to an installed dependency (modelled on @voltagent/core@2.10.0 dist/index.js:31569
// calling ai@6.0.325's generateText, whose loop is ai dist/index.js:4858) reaches the loop in
// the dependency (Node resolution: node_modules, package.json "exports" with the require
// condition), names the entry in the named package, and reads only the modules the flow
// reaches (not the dependency's ES build, not a module its index does not import).
func TestMapReachesDependency(t *testing.T) {
	const dir = "analyzer/lifemap/testdata/deps/node_modules/"
	out, m := mapJSON(t, dir+"@acme/agent")
	if len(m.Entries) != 1 || !strings.HasPrefix(m.Entries[0].Pos, dir+"@acme/agent/dist/index.js:") ||
		len(m.Entries[0].Loops) != 1 || m.Entries[0].Loops[0].Pos != dir+"steploop/dist/steps.js:6" {
		t.Fatalf("want the entry Agent.generateText and its loop at steploop/dist/steps.js:6:\n%s", out)
	}
	if strings.Join(m.Packages, " ") != "@acme/agent" {
		t.Errorf("packages %v, want the named one only", m.Packages)
	}
	for _, never := range []string{"index.mjs", "embed.js", "unused/"} {
		if strings.Contains(out, never) {
			t.Errorf("the map names %s, which the flow does not reach", never)
		}
	}
}

// TestMapDependencySyntaxError: a syntax error in a dependency file the map follows is
// reported as a named file's is (a warning naming the dependency's file:line and what the
// parser expected or could not read; exit 0, the partial map kept), not silently dropped with
// the dependency's map. Copies of the TestMapReachesDependency fixture with one line of
// steploop/dist/steps.js broken: a ")" missing in the loop function's header (the loop is
// still read: the map keeps its entry) and in the loop's header (the loop is lost: no entry,
// and the warning says why).
func TestMapDependencySyntaxError(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		warn     string
		entry    bool
	}{
		{"async function runSteps(model, tools, messages, maxSteps) {", "async function runSteps(model, tools, messages, maxSteps {",
			`steploop/dist/steps.js:5: incomplete syntax (lines 5-5, expected ")") in a dependency`, true},
		{"for (let step = 0; step < maxSteps; step++) {", "for (let step = 0; step < maxSteps; step++ {",
			`steploop/dist/steps.js:6: unparsed region (lines 6-11, unexpected "let") in a dependency`, false},
	} {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS("../analyzer/lifemap/testdata/deps")); err != nil {
			t.Fatal(err)
		}
		steps := filepath.Join(dir, "node_modules/steploop/dist/steps.js")
		src, err := os.ReadFile(steps)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), tc.from) {
			t.Fatalf("fixture has no %q", tc.from)
		}
		if err := os.WriteFile(steps, []byte(strings.Replace(string(src), tc.from, tc.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := lifeline(t, "", "map", filepath.Join(dir, "node_modules/@acme/agent"))
		if code != 0 {
			t.Errorf("%s: exit %d, want 0 as for a named file's syntax error\n%s", tc.to, code, errOut)
		}
		if !strings.Contains(errOut, "lifeline: warning: "+tc.warn) {
			t.Errorf("%s: stderr lacks the warning %q:\n%s", tc.to, tc.warn, errOut)
		}
		if got := strings.Contains(out, "run entry dist.Agent.generateText"); got != tc.entry {
			t.Errorf("%s: entry mapped %v, want %v:\n%s", tc.to, got, tc.entry, out)
		}
	}
}

// TestMapReachesDependencyTwoHops: the loop may sit two package boundaries away: @acme/app's
// Assistant.reply calls the invoke of midlayer's agent class, which hands the run to
// steploop's generateText (the fixture's engine) — the shape of an app on langchain@1.5.14's
// createAgent over @langchain/langgraph@1.7.3 (corpus-pyts-explore langchain-js), one package
// further up. The map of the one named package reaches the loop in steploop.
func TestMapReachesDependencyTwoHops(t *testing.T) {
	const dir = "analyzer/lifemap/testdata/deps/node_modules/"
	out, m := mapJSON(t, dir+"@acme/app")
	if len(m.Entries) != 1 || !strings.HasPrefix(m.Entries[0].Pos, dir+"@acme/app/dist/index.js:") ||
		len(m.Entries[0].Loops) != 1 || m.Entries[0].Loops[0].Pos != dir+"steploop/dist/steps.js:6" {
		t.Fatalf("want the entry Assistant.reply and its loop at steploop/dist/steps.js:6, two packages away:\n%s", out)
	}
	if strings.Join(m.Packages, " ") != "@acme/app" {
		t.Errorf("packages %v, want the named one only", m.Packages)
	}
}

// TestMapDeclaredEntryReachesDependency: a package that has a turn loop of its own (plan) and a
// run entry its user declares (// lifeline:run-entry on Agent.generateText) that hands the run
// to an installed dependency, as @voltagent/core@2.10.0's Agent.generateText hands it to
// ai@6.0.325 (dist/index.js:31569): the map has an entry before the dependency is read, and the
// dependency is read for the declared one all the same, which reaches steploop's loop.
func TestMapDeclaredEntryReachesDependency(t *testing.T) {
	const dir = "analyzer/lifemap/testdata/deps/node_modules/"
	out, m := mapJSON(t, dir+"@acme/declared")
	loops := map[string]string{}
	for _, e := range m.Entries {
		for _, l := range e.Loops {
			loops[e.Func] += l.Pos + " "
		}
	}
	if len(m.Entries) != 2 || loops["dist.plan"] != dir+"@acme/declared/dist/index.js:11 " ||
		loops["dist.Agent.generateText"] != dir+"steploop/dist/steps.js:6 " {
		t.Fatalf("want entries plan (its own loop, index.js:11) and the declared Agent.generateText (steploop/dist/steps.js:6), got %v:\n%s", loops, out)
	}
}

// depMap is what the dependency tests read of `lifeline map --format json`.
type depMap struct {
	Packages []string `json:"packages"`
	Entries  []struct {
		Func  string `json:"func"`
		Pos   string `json:"pos"`
		Loops []struct {
			Pos string `json:"pos"`
		} `json:"loops"`
	} `json:"entries"`
}

// mapJSON runs `lifeline map --format json path`, which must exit 0, and decodes its output.
func mapJSON(t *testing.T, path string) (string, depMap) {
	t.Helper()
	out, errOut, code := lifeline(t, "", "map", "--format", "json", path)
	if code != 0 {
		t.Fatalf("map: exit %d\n%s", code, errOut)
	}
	var m depMap
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return out, m
}
