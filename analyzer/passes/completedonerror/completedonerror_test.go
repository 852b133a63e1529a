package completedonerror_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/completedonerror"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), completedonerror.Analyzer, "a")
}
