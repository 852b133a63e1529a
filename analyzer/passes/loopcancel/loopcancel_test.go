package loopcancel_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/loopcancel"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), loopcancel.Analyzer, "a")
}
