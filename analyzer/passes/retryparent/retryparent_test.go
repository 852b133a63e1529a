package retryparent_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/retryparent"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryparent.Analyzer, "a")
}
