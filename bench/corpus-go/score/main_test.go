package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParsePos(t *testing.T) {
	for _, tc := range []struct {
		in, module, want string
	}{
		{"agent.go:12", "example.com/m", "agent.go:12"},
		{"agent.go:12:5", "example.com/m", "agent.go:12"},
		{"pkg/a/b.go:7:1", "example.com/m", "pkg/a/b.go:7"},
		{"example.com/m/pkg/a/b.go:7", "example.com/m", "pkg/a/b.go:7"},
		{"example.com/m@v1.2.3/pkg/a/b.go:7", "example.com/m", "pkg/a/b.go:7"},
		{"example.com/other/b.go:7", "example.com/m", "example.com/other/b.go:7"},
		{"./x.go:3", "", "x.go:3"},
		{"", "", ":0"},
	} {
		if got := parsePos(tc.in, tc.module, "").String(); got != tc.want {
			t.Errorf("parsePos(%q, %q) = %q, want %q", tc.in, tc.module, got, tc.want)
		}
	}
}

func TestNormFunc(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"(*agent.Agent).Run", "(*github.com/x/y/pkg/agent.Agent).Run"},
		{"(*runner.runner).Run", "(*runner.runner).Run"},
		{"agent.Service.Run", "github.com/x/internal/llm/agent.Service.Run"},
		{"fantasy.Agent.Generate", "charm.land/fantasy.Agent.Generate"},
	} {
		if normFunc(tc.a) != normFunc(tc.b) {
			t.Errorf("normFunc(%q) = %q, normFunc(%q) = %q; want equal", tc.a, normFunc(tc.a), tc.b, normFunc(tc.b))
		}
	}
	if normFunc("(*agent.Agent).Run") == normFunc("(*agent.Agent).Stream") {
		t.Error("different methods compare equal")
	}
}

func TestExprMatch(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"b.Params.MaxIterations", "MaxIterations", true},
		{"maxIterations", "maxIterations", true},
		{"opts.StopWhen", "call.StopWhen", true},
		{"maxIterations", "params.MaxIterations", false},
		{"e.MaxSteps", "", false},
		{"len(steps)", "len(steps)", true},
	} {
		if got := exprMatch(tc.want, tc.got); got != tc.ok {
			t.Errorf("exprMatch(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.ok)
		}
	}
}

// TestScore scores a small hand-made map and vet output against a truth and checks every
// counter: a fact the map gets right, one it gets wrong and one it misses of each kind, an exit
// with the wrong outcome, an invented loop, and true, false and arguable findings.
func TestScore(t *testing.T) {
	truth := &Truth{}
	if err := json.Unmarshal([]byte(`{
  "project": "demo", "module": "example.com/demo", "version": "v1.0.0", "patterns": ["."],
  "entries": [{
    "id": "e", "func": "(*demo.agent).Run", "also": ["demo.Agent.Run"], "pos": "agent.go:10",
    "loops": [{
      "id": "l", "pos": "agent.go:20", "kind": "for",
      "bound": {"id": "b", "expr": "a.MaxSteps", "default": "8", "pos": "agent.go:20"},
      "on_bound": {"id": "ob", "kind": "error"},
      "model_calls": [{"id": "m", "pos": "agent.go:30", "via": ["agent.go:22"]}],
      "tool_calls": [{"id": "t", "pos": "tools.go:5"}],
      "parallel_tools": {"id": "p", "value": false},
      "checks_cancel": {"id": "c", "value": true},
      "no_bound": null
    }],
    "exits": [{"id": "x1", "pos": "agent.go:12", "outcome": "not_started"}, {"id": "x2", "pos": "agent.go:40", "outcome": "completed"}],
    "ids": [{"id": "i", "pos": "ids.go:3", "via": ["agent.go:11"], "kind": "minted"}]
  }, {
    "id": "e2", "func": "demo.Other", "pos": "other.go:1", "loop_refs": ["l"], "exits": [], "ids": []
  }],
  "defects": [{"id": "d1", "check": "loopcancel", "pos": "agent.go:20"}, {"id": "d2", "check": "toolerror", "pos": "tools.go:5", "also_pos": ["tools.go:9"]}],
  "arguable": [{"check": "unboundedloop", "pos": "agent.go:20", "why": "optional bound"}],
  "must_not_flag": [{"check": "*", "pos": "agent.go:50", "why": "finite slice"}],
  "not_turn_loops": [{"pos": "agent.go:50", "why": "finite slice"}],
  "extra_loops": [{"pos": "agent.go:60", "why": "neutral"}]
}`), truth); err != nil {
		t.Fatal(err)
	}
	mapJSON := `{"module": "example.com/demo", "packages": ["example.com/demo"], "entries": [
  {"func": "(*example.com/demo.agent).Run", "pos": "agent.go:10", "provenance": {"confidence": "inferred"},
   "loops": [
     {"pos": "agent.go:21", "kind": "for", "func": "(*demo.agent).Run", "bound": {"expr": "MaxSteps", "default": "", "pos": "agent.go:21"},
      "on_bound": {"kind": "silent", "pos": "agent.go:25"},
      "model_calls": [{"pos": "agent.go:22", "callee": "demo.Model.Generate", "provenance": {"confidence": "inferred"}}],
      "tool_calls": [], "parallel_tools": false, "checks_cancel": false, "provenance": {"confidence": "inferred"}},
     {"pos": "agent.go:50", "kind": "for", "func": "(*demo.agent).Run", "bound": null, "on_bound": null, "model_calls": [], "tool_calls": [], "parallel_tools": false, "checks_cancel": false, "provenance": {"confidence": "inferred"}},
     {"pos": "agent.go:61", "kind": "for", "func": "(*demo.agent).Run", "bound": null, "on_bound": null, "model_calls": [], "tool_calls": [], "parallel_tools": false, "checks_cancel": false, "provenance": {"confidence": "inferred"}}
   ],
   "exits": [{"pos": "agent.go:12", "outcome": "failed"}, {"pos": "agent.go:41", "outcome": "completed"}],
   "ids": [{"pos": "agent.go:11", "kind": "minted", "what": "uuid.NewString()"}]}
]}`
	vetJSON := `{"example.com/demo": {
  "loopcancel": [{"posn": "agent.go:21:2", "end": "", "message": "turn loop never checks cancellation"}],
  "unboundedloop": [{"posn": "agent.go:20:2", "end": "", "message": "unbounded"}, {"posn": "agent.go:50:2", "end": "", "message": "unbounded"}],
  "toolerror": [{"posn": "tools.go:9:3", "end": "", "message": "dropped"}, {"posn": "tools.go:9:9", "end": "", "message": "dropped again"}],
  "statusowner": {"error": "analysis failed"}
}}`
	r := &Result{}
	if err := score(truth, []byte(mapJSON), []byte(vetJSON), r); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"e": true, "e2": false, "l": true, "b": true, "ob": false, "m": true, "t": false, "p": true, "c": false, "i": true, "x1": false, "x2": true}
	if len(r.FactList) != len(want) {
		t.Errorf("got %d facts, want %d: %+v", len(r.FactList), len(want), r.FactList)
	}
	for _, f := range r.FactList {
		if w, ok := want[f.ID]; !ok || w != f.OK {
			t.Errorf("fact %s (%s): ok=%v, want %v (want %q, got %q)", f.ID, f.Kind, f.OK, w, f.Want, f.Got)
		}
	}
	if r.Facts != 10 || r.FactsOK != 6 || r.Exits != 2 || r.ExitsOK != 1 {
		t.Errorf("facts %d/%d exits %d/%d, want 6/10 and 1/2", r.FactsOK, r.Facts, r.ExitsOK, r.Exits)
	}
	if r.VetTrue != 3 || r.VetFalse != 1 || r.VetArguable != 1 || r.DefectsFound != 2 || r.Defects != 2 {
		t.Errorf("vet true %d false %d arguable %d defects %d/%d, want 3, 1, 1, 2/2", r.VetTrue, r.VetFalse, r.VetArguable, r.DefectsFound, r.Defects)
	}
	if len(r.InventedLoops) != 1 || r.InventedLoops[0] != "agent.go:50 ((*demo.agent).Run)" {
		t.Errorf("invented loops %v, want the one at agent.go:50 only", r.InventedLoops)
	}
	var mustNot int
	for _, fd := range r.Findings {
		if fd.MustNot {
			mustNot++
		}
	}
	if mustNot != 1 {
		t.Errorf("%d findings on must-not-flag places, want 1", mustNot)
	}
}

// TestTruthFiles decodes every committed truth file of the Go corpora strictly (bench/corpus-go
// its held-out set bench/corpus-go-holdout and the exploration set bench/corpus-go-explore) and checks that ids are unique, positions are
// file:line and every project is in the directory's projects.tsv.
func TestTruthFiles(t *testing.T) {
	for _, c := range []struct{ name, dir string }{
		{"corpus-go", ".."},
		{"corpus-go-holdout", "../../corpus-go-holdout"},
		{"corpus-go-explore", "../../corpus-go-explore"},
	} {
		t.Run(c.name, func(t *testing.T) { checkTruthDir(t, c.dir) })
	}
}

func checkTruthDir(t *testing.T, dir string) {
	files, err := filepath.Glob(filepath.Join(dir, "*.truth.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no truth files in %s: %v", dir, err)
	}
	truths, err := loadTruths(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(truths) != len(files) {
		t.Fatalf("loaded %d truths from %d files", len(truths), len(files))
	}
	b, err := os.ReadFile(filepath.Join(dir, "projects.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range truths {
		if !containsLine(string(b), tr.Project) {
			t.Errorf("%s: not in projects.tsv", tr.Project)
		} else if got, want := tsvPatterns(string(b), tr.Project), strings.Join(tr.Patterns, " "); got != want {
			// fetch.sh loads the projects.tsv patterns, the scorer maps the truth's.
			t.Errorf("%s: projects.tsv patterns %q, truth patterns %q", tr.Project, got, want)
		}
		seen := map[string]bool{}
		loops := map[string]bool{}
		check := func(id, p string) {
			if id != "" {
				if seen[id] {
					t.Errorf("%s: duplicate id %s", tr.Project, id)
				}
				seen[id] = true
			}
			if pp := parsePos(p, tr.Module, ""); p != "" && (pp.line <= 0 || pp.file == "") {
				t.Errorf("%s: %s: bad position %q", tr.Project, id, p)
			}
		}
		for _, e := range tr.Entries {
			check(e.ID, e.Pos)
			for _, l := range e.Loops {
				loops[l.ID] = true
				check(l.ID, l.Pos)
				if l.Bound != nil {
					check(l.Bound.ID, l.Bound.Pos)
				}
				if l.OnBound != nil {
					check(l.OnBound.ID, l.OnBound.Pos)
				}
				for _, c := range append(append([]TCall{}, l.ModelCalls...), l.ToolCalls...) {
					check(c.ID, c.Pos)
				}
			}
			for _, x := range e.Exits {
				check(x.ID, x.Pos)
			}
			for _, i := range e.IDs {
				check(i.ID, i.Pos)
			}
		}
		for _, e := range tr.Entries {
			for _, ref := range e.LoopRefs {
				if !loops[ref] {
					t.Errorf("%s: %s: loop_refs names unknown loop %s", tr.Project, e.ID, ref)
				}
			}
		}
		for _, d := range tr.Defects {
			check(d.ID, d.Pos)
		}
	}
}

// tsvPatterns returns the package patterns (third column) of project name in a projects.tsv.
func tsvPatterns(tsv, name string) string {
	for _, line := range splitLines(tsv) {
		if f := strings.Split(line, "\t"); len(f) >= 3 && f[0] == name {
			return f[2]
		}
	}
	return ""
}

func containsLine(tsv, name string) bool {
	for _, line := range splitLines(tsv) {
		if len(line) > len(name) && line[:len(name)] == name && line[len(name)] == '\t' {
			return true
		}
	}
	return false
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
