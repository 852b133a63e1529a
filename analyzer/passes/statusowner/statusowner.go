package statusowner

import (
	_ "embed"
	"go/ast"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

//go:embed doc.go
var doc string

// Analyzer reports terminal run statuses written by tools or callbacks.
var Analyzer = &analysis.Analyzer{
	Name:     "statusowner",
	Doc:      analysisutil.MustExtractDoc(doc, "statusowner"),
	URL:      analysisutil.URL("statusowner"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	check := func(body ast.Node, who string) {
		for _, w := range res.StatusWrites(body) {
			if !w.Status.Terminal() {
				continue
			}
			analysisutil.Reportf(pass, w.Expr.Pos(), "%s writes terminal run status %s: only the runtime writes run status, after checking the run's success criteria; return a result and let the run decide", who, w.Status)
		}
	}
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.CallExpr)(nil), (*ast.KeyValueExpr)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.FuncDecl:
			fn, _ := pass.TypesInfo.Defs[n.Name].(*types.Func)
			if fn == nil || n.Body == nil {
				continue
			}
			if res.IsToolImpl(fn) {
				check(n.Body, "tool "+roles.ShortName(roles.Key(fn)))
			} else if _, ok := res.Has(fn, roles.Callback); ok {
				check(n.Body, "callback "+roles.ShortName(roles.Key(fn)))
			}
		case *ast.CallExpr:
			sig, ok := pass.TypesInfo.TypeOf(n.Fun).(*types.Signature)
			if !ok {
				continue
			}
			for i, arg := range n.Args {
				lit, ok := arg.(*ast.FuncLit)
				if !ok || sig.Params().Len() == 0 {
					continue
				}
				pi := min(i, sig.Params().Len()-1)
				pt := sig.Params().At(pi).Type()
				if sig.Variadic() && pi == sig.Params().Len()-1 {
					if s, ok := pt.(*types.Slice); ok {
						pt = s.Elem()
					}
				}
				if role, ok := res.IsCallbackType(pt); ok {
					check(lit.Body, string(role)+" "+types.TypeString(pt, types.RelativeTo(pass.Pkg)))
				}
			}
		case *ast.KeyValueExpr:
			lit, ok := n.Value.(*ast.FuncLit)
			if !ok {
				continue
			}
			if role, ok := res.IsCallbackType(pass.TypesInfo.TypeOf(n.Key)); ok {
				check(lit.Body, string(role)+" "+types.TypeString(pass.TypesInfo.TypeOf(n.Key), types.RelativeTo(pass.Pkg)))
			}
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				lit, ok := r.(*ast.FuncLit)
				if !ok || i >= len(n.Lhs) {
					continue
				}
				if role, ok := res.IsCallbackType(pass.TypesInfo.TypeOf(n.Lhs[i])); ok {
					check(lit.Body, string(role)+" "+types.TypeString(pass.TypesInfo.TypeOf(n.Lhs[i]), types.RelativeTo(pass.Pkg)))
				}
			}
		}
	}
	return nil, nil
}
