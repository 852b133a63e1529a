package loopcancel

import (
	_ "embed"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// Analyzer reports bounded turn loops (and retry loops around a model call) that never check
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
		if l.Map.Bound == nil || l.Map.ChecksCancel || !l.HasContext || l.Map.Kind == model.LoopEngine {
			continue
		}
		msg := "turn loop never checks cancellation between steps: a cancelled run keeps calling the model until " + l.Map.Bound.Expr + " is reached; check ctx.Err() at the top of each step"
		switch {
		case l.Retry:
			msg = "retry loop never checks cancellation between attempts: a cancelled run keeps retrying the model call (and waiting between attempts) until " + l.Map.Bound.Expr + " is reached; check ctx.Err() before each attempt and wait with a select on ctx.Done()"
		case l.Map.Kind == model.LoopRecursion:
			msg = "turn recursion never checks cancellation between steps: a cancelled run keeps calling the model until " + l.Map.Bound.Expr + " is reached; check ctx.Err() at the top of each step"
		}
		analysisutil.Report(pass, analysis.Diagnostic{
			Pos:     l.Node.Pos(),
			End:     l.Node.Pos() + 3,
			Message: msg,
		})
	}
	return nil, nil
}
