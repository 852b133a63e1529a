package loopcancel_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/internal/crosstest"
	"github.com/lifeline-dev/lifeline/analyzer/passes/loopcancel"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), loopcancel.Analyzer, "a", "example.com/invctx")
}

// TestCrossPackage: the engine loops of core call an interface method and a func type whose
// implementations in providers/openai (which imports core) call the model; they never check
// cancellation, and the finding appears at core's loops.
func TestCrossPackage(t *testing.T) {
	crosstest.Run(t, loopcancel.Analyzer, "core", "providers/openai")
}
