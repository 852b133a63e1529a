package unboundedloop

import (
	_ "embed"
	"go/ast"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// Analyzer reports turn loops with no bound and no cancellation exit.
var Analyzer = &analysis.Analyzer{
	Name:     "unboundedloop",
	Doc:      analysisutil.MustExtractDoc(doc, "unboundedloop"),
	URL:      analysisutil.URL("unboundedloop"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	for _, l := range res.Loops {
		if l.Map.Bound != nil || l.Map.ChecksCancel || l.Map.Kind == model.LoopEngine {
			continue
		}
		if rs, ok := l.Node.(*ast.RangeStmt); ok && analysisutil.FiniteRange(pass.TypesInfo, rs) {
			continue
		}
		if fs, ok := l.Node.(*ast.ForStmt); ok && analysisutil.CursorWalk(pass.TypesInfo, fs) {
			continue // a walk over a linked structure (n = n.Next()): bounded by it
		}
		callee := ""
		if len(l.Map.ModelCalls) > 0 {
			callee = " around " + l.Map.ModelCalls[0].Callee
		}
		msg := "turn loop" + callee + " has no bound and no cancellation exit: a model that keeps requesting tools runs it forever; add a max-steps bound and check ctx.Err() between steps"
		switch {
		case l.Retry:
			msg = "retry loop" + callee + " has no bound and no cancellation exit: a model call that keeps failing is retried forever; bound the attempts and check ctx.Err() between them"
		case l.Map.Kind == model.LoopRecursion:
			msg = "turn recursion" + callee + " has no bound and no cancellation exit: a model that keeps requesting tools runs it forever; add a max-steps bound and check ctx.Err() between steps"
		}
		analysisutil.Report(pass, analysis.Diagnostic{
			Pos:     l.Node.Pos(),
			End:     l.Node.Pos() + 3,
			Message: msg,
		})
	}
	return nil, nil
}
