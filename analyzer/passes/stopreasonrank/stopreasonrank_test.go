package stopreasonrank_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/stopreasonrank"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), stopreasonrank.Analyzer, "a")
}
