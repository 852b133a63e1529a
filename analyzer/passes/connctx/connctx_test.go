package connctx_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/connctx"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), connctx.Analyzer, "a")
}
