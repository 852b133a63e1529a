// Package analyzer is lifeline's static analysis of Go agent code: the lifecycle pass (roles,
// turn loops, entries; see analyzer/passes/lifecycle), the vet-style checks under
// analyzer/passes, the built-in mapping profiles (analyzer/roles) and the map builder
// (analyzer/lifemap).
//
// Every check is an importable *analysis.Analyzer with no global state besides its flags, so
// that go vet -vettool (cmd), lifeline vet (go/analysis/checker), golangci-lint (the module
// plugin in analyzer/golangci) and other go/analysis drivers can run them.
package analyzer

import (
	"github.com/lifeline-dev/lifeline/analyzer/passes/completedonerror"
	"github.com/lifeline-dev/lifeline/analyzer/passes/connctx"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycleend"
	"github.com/lifeline-dev/lifeline/analyzer/passes/loopcancel"
	"github.com/lifeline-dev/lifeline/analyzer/passes/retryparent"
	"github.com/lifeline-dev/lifeline/analyzer/passes/statusowner"
	"github.com/lifeline-dev/lifeline/analyzer/passes/stopreasonrank"
	"github.com/lifeline-dev/lifeline/analyzer/passes/toolerror"
	"github.com/lifeline-dev/lifeline/analyzer/passes/unboundedloop"
	"golang.org/x/tools/go/analysis"
)

// Checks returns lifeline's checks, sorted by name. The slice is new on every call.
func Checks() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		completedonerror.Analyzer,
		connctx.Analyzer,
		lifecycleend.Analyzer,
		loopcancel.Analyzer,
		retryparent.Analyzer,
		statusowner.Analyzer,
		stopreasonrank.Analyzer,
		toolerror.Analyzer,
		unboundedloop.Analyzer,
	}
}
