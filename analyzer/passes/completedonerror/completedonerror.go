package completedonerror

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

//go:embed doc.go
var doc string

// Analyzer reports completed statuses written on paths where a model or tool error was dropped.
var Analyzer = &analysis.Analyzer{
	Name:     "completedonerror",
	Doc:      analysisutil.MustExtractDoc(doc, "completedonerror"),
	URL:      analysisutil.URL("completedonerror"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer, ctrlflow.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	reported := map[token.Pos]bool{}
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var g *cfg.CFG
		var body *ast.BlockStmt
		switch fn := cur.Node().(type) {
		case *ast.FuncDecl:
			g, body = cfgs.FuncDecl(fn), fn.Body
		case *ast.FuncLit:
			g, body = cfgs.FuncLit(fn), fn.Body
		}
		if g == nil || body == nil {
			continue
		}
		leftOnError(pass, res, cur.Node(), g, reported)
		writes := map[ast.Node]model.RunStatus{}
		for _, w := range res.StatusWrites(body) {
			if w.Status == model.StatusCompleted && w.Stmt != nil {
				writes[w.Stmt] = w.Status
			}
		}
		if len(writes) == 0 {
			continue
		}
		isCompleted := func(n ast.Node) bool {
			found := false
			ast.Inspect(n, func(m ast.Node) bool {
				if _, ok := m.(*ast.FuncLit); ok {
					return false
				}
				if _, ok := writes[m]; ok {
					found = true
				}
				return !found
			})
			return found
		}
		for _, b := range g.Blocks {
			for _, n := range b.Nodes {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 {
					continue
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok || len(as.Lhs) < 2 {
					continue
				}
				what := ""
				if res.CallReaches(call, roles.ModelCall) {
					what = "model call"
				} else if res.CallReaches(call, roles.ToolCall) {
					what = "tool call"
				} else {
					continue
				}
				errExpr := as.Lhs[len(as.Lhs)-1]
				if t := pass.TypesInfo.TypeOf(call); t == nil {
					continue
				} else if tup, ok := t.(*types.Tuple); !ok || tup.Len() == 0 || !roles.IsError(tup.At(tup.Len()-1).Type()) {
					continue
				}
				id, ok := errExpr.(*ast.Ident)
				if !ok {
					continue
				}
				obj := pass.TypesInfo.ObjectOf(id)
				stop := func(m ast.Node) bool { return obj != nil && analysisutil.Mentions(pass.TypesInfo, m, obj) }
				if id.Name == "_" {
					stop = func(ast.Node) bool { return false }
				}
				target, found := analysisutil.Search(g, as, stop, isCompleted, false)
				if !found || target == nil {
					continue
				}
				callee := analysisutil.Render(pass.Fset, call.Fun, 40)
				analysisutil.Report(pass, analysis.Diagnostic{
					Pos:     target.Pos(),
					Message: "run marked completed on a path where the error of " + what + " " + callee + " (line " + itoa(pass.Fset.Position(as.Pos()).Line) + ") is never checked: a failed step leaves the run completed",
					Related: []analysis.RelatedInformation{{Pos: as.Pos(), Message: "error assigned here"}},
				})
			}
		}
	}
	return nil, nil
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
