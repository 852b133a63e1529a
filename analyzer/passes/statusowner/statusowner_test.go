package statusowner_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/statusowner"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), statusowner.Analyzer, "a")
}
