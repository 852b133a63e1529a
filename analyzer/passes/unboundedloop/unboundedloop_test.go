package unboundedloop_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/internal/crosstest"
	"github.com/lifeline-dev/lifeline/analyzer/passes/unboundedloop"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedloop.Analyzer, "a")
}

// TestCrossPackage: an engine loop in core calls an interface method and a func type whose
// model-calling implementations live in providers/openai, a package that imports core; the
// first round over both packages finds them, and the finding appears at core's loop. A loop
// around an interface whose implementations call no model (core.Walk) is no turn loop.
func TestCrossPackage(t *testing.T) {
	crosstest.Run(t, unboundedloop.Analyzer, "core", "providers/openai")
}
