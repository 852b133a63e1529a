package stopreasonrank

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

//go:embed doc.go
var doc string

// Analyzer reports stop reasons overwritten by a lower-priority one.
var Analyzer = &analysis.Analyzer{
	Name:     "stopreasonrank",
	Doc:      analysisutil.MustExtractDoc(doc, "stopreasonrank"),
	URL:      analysisutil.URL("stopreasonrank"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer, ctrlflow.Analyzer},
	Run:      analysisutil.Safe(run),
}

type write struct {
	stmt   *ast.AssignStmt
	target string // the assigned expression, as written
	reason model.StopReason
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var g *cfg.CFG
		switch fn := cur.Node().(type) {
		case *ast.FuncDecl:
			g = cfgs.FuncDecl(fn)
		case *ast.FuncLit:
			g = cfgs.FuncLit(fn)
		}
		if g == nil {
			continue
		}
		writes := map[ast.Node]write{}
		for _, b := range g.Blocks {
			for _, n := range b.Nodes {
				as, ok := n.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					continue
				}
				if r, ok := res.StopReasonOf(as.Rhs[0]); ok {
					writes[as] = write{stmt: as, target: types.ExprString(as.Lhs[0]), reason: r}
				}
			}
		}
		for _, w := range writes {
			reads := func(n ast.Node) bool {
				if other, ok := writes[n]; ok && other.target == w.target {
					return false // a plain overwrite is not a read
				}
				found := false
				ast.Inspect(n, func(m ast.Node) bool {
					if e, ok := m.(ast.Expr); ok && types.ExprString(e) == w.target {
						found = true
					}
					return !found
				})
				return found
			}
			lower := func(n ast.Node) bool {
				other, ok := writes[n]
				return ok && other.target == w.target && other.reason.Priority() < w.reason.Priority()
			}
			target, found := analysisutil.Search(g, w.stmt, reads, lower, false)
			if !found || target == nil {
				continue
			}
			o := writes[target]
			analysisutil.Report(pass, analysis.Diagnostic{
				Pos: o.stmt.Pos(),
				Message: fmt.Sprintf("stop reason %s overwrites %s (set on line %d), which has higher priority: the run's real cause is lost; set it only if no reason is recorded yet",
					o.reason, w.reason, pass.Fset.Position(w.stmt.Pos()).Line),
				Related: []analysis.RelatedInformation{{Pos: w.stmt.Pos(), Message: fmt.Sprintf("%s set here", w.reason)}},
			})
		}
	}
	return nil, nil
}
