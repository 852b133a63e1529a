package cmd

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
)

func TestIsVetTool(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/go-build/b001/vet.cfg"}, true},
		{[]string{"-json", "-lifecycle.profile=p.json", "vet.cfg"}, true},
		{[]string{"vet", "./..."}, false},
		{[]string{"map", "x.cfg"}, false},
		{[]string{"-V=full", "x"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := isVetTool(tt.args); got != tt.want {
			t.Errorf("isVetTool(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestSelectChecks(t *testing.T) {
	if _, err := selectChecks(nil, "nosuch"); err == nil {
		t.Error("an unknown check must be an error")
	}
}

// TestFactsOnlyUnit: for a unit go vet analyzes only for its facts (a dependency), the vet tool
// runs the fact-carrying analyzers alone (the lifecycle pass as lifecycle.FactsOnly), under the
// checks' names and flags; other units get the checks themselves.
func TestFactsOnlyUnit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	factsCfg := write("facts.cfg", `{"ID":"dep","VetxOnly":true}`)
	fullCfg := write("full.cfg", `{"ID":"root","VetxOnly":false}`)
	checks := analyzer.Checks()

	full := vetAnalyzers([]string{"-json", fullCfg})
	if !slices.Equal(full, checks) {
		t.Errorf("a unit that is vetted must get the checks themselves")
	}
	stubs := vetAnalyzers([]string{factsCfg})
	if len(stubs) != len(checks) {
		t.Fatalf("%d analyzers for a facts-only unit, want %d", len(stubs), len(checks))
	}
	for i, s := range stubs {
		c := checks[i]
		if s == c || s.Name != c.Name {
			t.Errorf("facts-only unit: analyzer %d is %s (%p), want a stand-in for %s (%p)", i, s.Name, s, c.Name, c)
			continue
		}
		c.Flags.VisitAll(func(f *flag.Flag) {
			if s.Flags.Lookup(f.Name) != f {
				t.Errorf("%s: stand-in lacks flag -%s", s.Name, f.Name)
			}
		})
		if res, err := s.Run(nil); res != nil || err != nil {
			t.Errorf("%s: stand-in's Run = %v, %v; want nothing", s.Name, res, err)
		}
		// The stand-in requires only fact-carrying analyzers (and so runs only them and what they
		// need themselves).
		for _, r := range s.Requires {
			if !carriesFacts(r) {
				t.Errorf("%s: a facts-only unit runs %s, which carries no facts", s.Name, r.Name)
			}
		}
		lc := false
		for _, r := range s.Requires {
			lc = lc || r == lifecycle.FactsOnly
			if r == lifecycle.Analyzer {
				t.Errorf("%s: stand-in runs the whole lifecycle pass, not lifecycle.FactsOnly", s.Name)
			}
		}
		if !lc {
			t.Errorf("%s: stand-in does not run the lifecycle pass (FactsOnly): the unit's .vetx would lack its facts", s.Name)
		}
	}
}

// TestGoVetVettoolFacts: go vet -vettool analyzes package llm only for its facts; the finding in
// package agent needs them (the model call is reached through llm.Ask).
func TestGoVetVettoolFacts(t *testing.T) {
	c := exec.Command("go", "vet", "-vettool="+binary, "./agent")
	c.Dir = "../testdata/vet/facts"
	out, err := c.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet found nothing:\n%s", out)
	}
	if !strings.Contains(string(out), "agent/agent.go:13:2: turn loop around llm.complete has no bound") {
		t.Errorf("go vet -vettool ./agent lacks the finding that needs llm's facts:\n%s", out)
	}
}
