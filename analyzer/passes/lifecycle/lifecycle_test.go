package lifecycle_test

import (
	"encoding/json"
	"go/types"
	"reflect"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Test checks the facts the lifecycle pass exports, across packages: directives on fw are
// visible in a, and a function reaching a model call or a loop through fw carries that too.
func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lifecycle.Analyzer, "fw", "a")
}

// TestReconciled: the loops the checks see are the recognizer's: a finite loop around a
// database write and a retry until success are not turn loops, and a ctx.Done() only in a
// retry backoff is no check between steps.
func TestReconciled(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), lifecycle.Analyzer, "recon")
	r := res[0].Result.(*lifecycle.Result)
	got := map[int]bool{}
	for _, l := range r.Loops {
		got[l.Map.Pos.Line] = l.Map.ChecksCancel
	}
	for _, line := range []int{32, 42} {
		if _, ok := got[line]; ok {
			t.Errorf("loop at line %d is not a turn loop; loops: %v", line, got)
		}
	}
	cancel, ok := got[56]
	if !ok || cancel {
		t.Errorf("turn loop at line 56: found %v, checks cancel %v; want found, not checked", ok, cancel)
	}
}

// TestFactsOnlySameFacts: FactsOnly (go vet -vettool on a dependency) exports the same facts
// as Analyzer on every test package, those whose loops the recognizer drops or re-judges
// included.
func TestFactsOnlySameFacts(t *testing.T) {
	pkgs := []string{"fw", "a", "recon"}
	facts := func(a *analysis.Analyzer) map[string]string {
		out := map[string]string{}
		for _, r := range analysistest.Run(t, analysistest.TestData(), a, pkgs...) {
			for obj, fs := range r.Facts {
				for _, f := range fs {
					js, err := json.Marshal(f)
					if err != nil {
						t.Fatal(err)
					}
					out[types.ObjectString(obj, nil)+" "+reflect.TypeOf(f).String()] = string(js)
				}
			}
		}
		return out
	}
	want, got := facts(lifecycle.Analyzer), facts(lifecycle.FactsOnly)
	if len(want) == 0 {
		t.Fatal("no facts")
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\nFactsOnly %s\nAnalyzer  %s", k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: only FactsOnly exports %s", k, g)
		}
	}
}

// TestBoundWritesReplySilent: a bound that hands the last reply to a helper returning only an
// error, nil unless writing fails (testdata/src/boundwrite, yomorun/yomo@v1.20.6
// pkg/bridge/ai/chat.go:115-118, return endCall(…)), ends the loop quietly on its limit; before,
// the helper's error made the bound an error.
func TestBoundWritesReplySilent(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), lifecycle.Analyzer, "boundwrite")
	r := res[0].Result.(*lifecycle.Result)
	found := false
	for _, l := range r.Loops {
		if l.Map.Pos.Line != 39 {
			continue
		}
		found = true
		if ob := l.Map.OnBound; ob == nil || ob.Kind != "silent" || ob.Pos.Line != 45 {
			t.Errorf("loop at line 39: on bound %+v, want silent at line 45", ob)
		}
	}
	if !found {
		t.Errorf("want the turn loop at line 39")
	}
}
