package unboundedloop_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/unboundedloop"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedloop.Analyzer, "a")
}
