package loopcancel

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

// Analyzer reports turn loops (and retry loops around a model call) that never check
// cancellation between steps.
var Analyzer = &analysis.Analyzer{
	Name:     "loopcancel",
	Doc:      analysisutil.MustExtractDoc(doc, "loopcancel"),
	URL:      analysisutil.URL("loopcancel"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	for _, l := range res.Loops {
		if l.Map.ChecksCancel || !l.HasContext || l.Map.Kind == model.LoopEngine {
			continue
		}
		if rs, ok := l.Node.(*ast.RangeStmt); ok && l.Map.Bound == nil && analysisutil.FiniteRange(pass.TypesInfo, rs) {
			continue // a range over a finite collection: one pass over it, not steps of a run
		}
		if l.Retry && !l.Waits && l.Map.Bound != nil {
			continue // a few attempts without a pause: each fails at once on a cancelled context
		}
		if fs, ok := l.Node.(*ast.ForStmt); ok && analysisutil.CursorWalk(pass.TypesInfo, fs) {
			continue // a walk over a linked structure (n = n.Next()): bounded by it
		}
		until := "until the model stops asking for tools"
		retryUntil := "for as long as the call keeps failing"
		if l.Map.Bound != nil {
			until = "until " + l.Map.Bound.Expr + " is reached"
			retryUntil = until
		}
		msg := "turn loop never checks cancellation between steps: a cancelled run keeps calling the model " + until + "; check ctx.Err() at the top of each step"
		switch {
		case l.Retry:
			msg = "retry loop never checks cancellation between attempts: a cancelled run keeps retrying the model call (and waiting between attempts) " + retryUntil + "; check ctx.Err() before each attempt and wait with a select on ctx.Done()"
		case l.Map.Kind == model.LoopRecursion:
			msg = "turn recursion never checks cancellation between steps: a cancelled run keeps calling the model " + until + "; check ctx.Err() at the top of each step"
		}
		analysisutil.Report(pass, analysis.Diagnostic{
			Pos:     l.Node.Pos(),
			End:     l.Node.Pos() + 3,
			Message: msg,
		})
	}
	return nil, nil
}
