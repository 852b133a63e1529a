package toolerror_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/toolerror"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), toolerror.Analyzer, "a")
}
