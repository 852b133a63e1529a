package lifecycleend_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycleend"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lifecycleend.Analyzer, "a")
}
