package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScorePyTS scores a Python-style truth (positions relative to the package root, defaults
// scored, vocabulary) against a map that prints positions relative to the mapped path.
func TestScorePyTS(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"pkg/agents.py", "pkg/config.py"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	truth := &Truth{}
	if err := json.Unmarshal([]byte(`{
  "project": "demo", "lang": "python", "package": "demo==1.0", "score_defaults": true,
  "vocabulary": [{"layer": "step", "words": ["turn"]}, {"layer": "run", "words": ["Runner.run"]}],
  "entries": [{
    "id": "e", "func": "pkg.agents.Runner.run", "pos": "pkg/agents.py:10",
    "loops": [{
      "id": "l", "pos": "pkg/agents.py:20", "kind": "for",
      "bound": {"id": "b", "expr": "max_turns", "default": "10", "default_pos": "pkg/config.py:3", "pos": "pkg/agents.py:21"},
      "model_calls": [], "tool_calls": [],
      "parallel_tools": {"id": "p", "value": null},
      "checks_cancel": {"id": "c", "value": false, "mode": "propagated"}
    }],
    "exits": [], "ids": []
  }],
  "defects": [], "arguable": [], "must_not_flag": [], "not_turn_loops": []
}`), truth); err != nil {
		t.Fatal(err)
	}
	mapJSON := `{"entries": [{"func": "agents.Runner.run", "pos": "agents.py:10", "provenance": {"confidence": "profile", "rule": "openai-agents: a turn is a Step"},
   "loops": [{"pos": "agents.py:20", "kind": "for", "func": "run_single_turn", "source": "Runner.run",
     "bound": {"expr": "self.max_turns", "default": "10", "default_pos": "config.py:3", "pos": "agents.py:21"},
     "model_calls": [], "tool_calls": [], "parallel_tools": false, "checks_cancel": false, "provenance": {"confidence": "profile"}}],
   "exits": []}]}`
	r := &Result{}
	if err := scoreIn(truth, root, []string{"pkg"}, []byte(mapJSON), []byte(`{}`), r); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"e": true, "l": true, "b": true, "b.default": true, "c": true}
	if len(r.FactList) != len(want) {
		t.Errorf("got %d facts, want %d: %+v", len(r.FactList), len(want), r.FactList)
	}
	for _, f := range r.FactList {
		if w, ok := want[f.ID]; !ok || w != f.OK {
			t.Errorf("fact %s (%s): ok=%v, want %v (want %q, got %q)", f.ID, f.Kind, f.OK, w, f.Want, f.Got)
		}
	}
	// "turn" is in the provenance rule; "Runner.run" only in a source line and a func name.
	if r.VocabOK != 1 || r.Vocab != 2 || len(r.MissedWords) != 1 || !strings.HasPrefix(r.MissedWords[0], "run") {
		t.Errorf("vocabulary %d/%d missed %v, want 1/2 missing run", r.VocabOK, r.Vocab, r.MissedWords)
	}

	// A default at the wrong place is not the default.
	r = &Result{}
	bad := strings.Replace(mapJSON, `"default_pos": "config.py:3"`, `"default_pos": "config.py:9"`, 1)
	if err := scoreIn(truth, root, []string{"pkg"}, []byte(bad), []byte(`{}`), r); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.FactList {
		if f.ID == "b.default" && f.OK {
			t.Errorf("default at config.py:9 scored as the truth's config.py:3")
		}
	}

	// A failed map scores as an empty one: every fact missed, no error from the scorer.
	r = &Result{}
	if err := scoreIn(truth, root, []string{"pkg"}, []byte(`{"entries":[]}`), []byte(`{}`), r); err != nil {
		t.Fatal(err)
	}
	if r.FactsOK != 0 || r.Facts != 5 {
		t.Errorf("empty map: facts %d/%d, want 0/5", r.FactsOK, r.Facts)
	}
}

func TestContainsWord(t *testing.T) {
	for _, tc := range []struct {
		s, w string
		ok   bool
	}{
		{"a turn is a step", "turn", true},
		{"run_single_turn", "turn", false},
		{"turns", "turn", false},
		{"superstep loop", "superstep", true},
		{"(turn)", "turn", true},
		{"", "turn", false},
	} {
		if got := containsWord(tc.s, tc.w); got != tc.ok {
			t.Errorf("containsWord(%q, %q) = %v, want %v", tc.s, tc.w, got, tc.ok)
		}
	}
}

func TestReadProjects(t *testing.T) {
	f := filepath.Join(t.TempDir(), "p.tsv")
	if err := os.WriteFile(f, []byte("# c\na\t/r/a\tx y\nb\t/r/b\t.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := readProjects(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps["a"].root != "/r/a" || strings.Join(ps["a"].paths, ",") != "x,y" || ps["b"].paths[0] != "." {
		t.Errorf("readProjects = %+v", ps)
	}
	if err := os.WriteFile(f, []byte("a\t/r/a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readProjects(f); err == nil || !strings.Contains(err.Error(), "p.tsv:1") {
		t.Errorf("short line: err = %v, want one naming p.tsv:1", err)
	}
}

// TestPyTSTruthFiles decodes the truths of bench/seeds and bench/corpus-pyts strictly, checks
// ids are unique, positions are file:line, every project is installed by its install.sh, and
// every loop's checks_cancel mode agrees with its value.
func TestPyTSTruthFiles(t *testing.T) {
	for _, dir := range []string{"../../seeds", "../../corpus-pyts"} {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			continue
		}
		truths, err := loadTruths(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		script, err := os.ReadFile(filepath.Join(dir, "install.sh"))
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range truths {
			if tr.Lang == "" || tr.Package == "" {
				t.Errorf("%s/%s: lang and package are required", dir, tr.Project)
			}
			if !regexp.MustCompile(`(?m)^\s*"?` + regexp.QuoteMeta(tr.Project) + `"?[\t ]`).Match(script) {
				t.Errorf("%s/%s: not installed by install.sh", dir, tr.Project)
			}
			seen := map[string]bool{}
			check := func(id, p string) {
				if id != "" {
					if seen[id] {
						t.Errorf("%s: duplicate id %s", tr.Project, id)
					}
					seen[id] = true
				}
				if pp := parsePos(p, "", ""); p != "" && (pp.line <= 0 || pp.file == "") {
					t.Errorf("%s: %s: bad position %q", tr.Project, id, p)
				}
			}
			for _, e := range tr.Entries {
				check(e.ID, e.Pos)
				for _, l := range e.Loops {
					check(l.ID, l.Pos)
					if l.Bound != nil {
						check(l.Bound.ID, l.Bound.Pos)
						check("", l.Bound.DefaultPos)
					}
					if l.OnBound != nil {
						check(l.OnBound.ID, l.OnBound.Pos)
					}
					for _, c := range append(append([]TCall{}, l.ModelCalls...), l.ToolCalls...) {
						check(c.ID, c.Pos)
						for _, v := range c.Via {
							check("", v)
						}
					}
					cc := l.ChecksCancel
					if cc.Value != nil && cc.Mode != "" && (*cc.Value) != (cc.Mode == "checked") {
						t.Errorf("%s: %s: checks_cancel value %v with mode %q", tr.Project, cc.ID, *cc.Value, cc.Mode)
					}
				}
				for _, x := range e.Exits {
					check(x.ID, x.Pos)
				}
				for _, i := range e.IDs {
					check(i.ID, i.Pos)
				}
			}
			for _, d := range tr.Defects {
				check(d.ID, d.Pos)
			}
		}
	}
}

func TestFuncMatch(t *testing.T) {
	for _, tc := range []struct {
		lang, want, got string
		ok              bool
	}{
		{"python", "Runner.run", "agents.run.Runner.run", true},
		{"python", "agents.run.Runner.run", "Runner.run", true},
		{"python", "Runner.run", "Runner.run_streamed", false},
		{"python", "Runner.run", "run", false},
		{"typescript", "Runner.#runIndividualNonStream", "Runner.runIndividualNonStream", true},
		{"", "Runner.run", "agents.run.Runner.run", false},
		{"", "(*agent.Agent).Run", "(*github.com/x/agent.Agent).Run", true},
	} {
		if got := funcMatch(tc.lang, tc.want, tc.got); got != tc.ok {
			t.Errorf("funcMatch(%q, %q, %q) = %v, want %v", tc.lang, tc.want, tc.got, got, tc.ok)
		}
	}
}

// TestCheckPositions: a position inside the installed file is printed with its line, a line past
// the end and a missing file are counted.
func TestCheckPositions(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "pkg", "a.py"), []byte("def run():\n    while True:\n        pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := &Truth{Project: "demo", Entries: []TEntry{{ID: "e", Pos: "pkg/a.py:1", Loops: []TLoop{{ID: "l", Pos: "pkg/a.py:2",
		ModelCalls: []TCall{{ID: "m", Pos: "pkg/a.py:9"}}}}, Exits: []TExit{{ID: "x", Pos: "pkg/b.py:1"}}}}}
	var out strings.Builder
	if bad := checkPositions(&out, tr, root); bad != 2 {
		t.Errorf("checkPositions = %d bad, want 2 (a line past the end, a missing file):\n%s", bad, out.String())
	}
	if !strings.Contains(out.String(), "pkg/a.py:2\twhile True:") || !strings.Contains(out.String(), "!! no such line") || !strings.Contains(out.String(), "!! missing file") {
		t.Errorf("output lacks the source line or the markers:\n%s", out.String())
	}
}
