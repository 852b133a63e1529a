package lifecycle_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
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
