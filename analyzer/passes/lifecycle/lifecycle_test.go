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
