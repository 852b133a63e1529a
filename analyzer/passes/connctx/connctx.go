package connctx

import (
	_ "embed"
	"go/ast"
	"go/types"
	"strconv"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

//go:embed doc.go
var doc string

// Analyzer reports runs started with an HTTP request's context.
var Analyzer = &analysis.Analyzer{
	Name:     "connctx",
	Doc:      analysisutil.MustExtractDoc(doc, "connctx"),
	URL:      analysisutil.URL("connctx"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var body *ast.BlockStmt
		switch fn := cur.Node().(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			if _, inner := cur.Parent().Node().(*ast.FuncDecl); !inner && enclosedByFunc(cur) {
				continue // analyzed with its enclosing declaration
			}
			body = fn.Body
		}
		if body == nil {
			continue
		}
		derived := derivedVars(pass, body)
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !res.StartsRun(call) {
				return true
			}
			sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
			if !ok {
				return true
			}
			for i, arg := range call.Args {
				if i >= sig.Params().Len() || !roles.IsContext(sig.Params().At(i).Type()) {
					continue
				}
				if !isDerived(pass, arg, derived) {
					continue
				}
				d := analysis.Diagnostic{
					Pos:     arg.Pos(),
					End:     arg.End(),
					Message: "run started with the HTTP request's context: the client disconnecting cancels the run; detach it with context.WithoutCancel or use a server-scoped context",
				}
				if name, ok := contextImport(pass, arg); ok {
					d.SuggestedFixes = []analysis.SuggestedFix{{
						Message: "Detach with " + name + ".WithoutCancel",
						TextEdits: []analysis.TextEdit{
							{Pos: arg.Pos(), End: arg.Pos(), NewText: []byte(name + ".WithoutCancel(")},
							{Pos: arg.End(), End: arg.End(), NewText: []byte(")")},
						},
					}}
				}
				analysisutil.Report(pass, d)
			}
			return true
		})
	}
	return nil, nil
}

func enclosedByFunc(cur inspector.Cursor) bool {
	for c := cur.Parent(); c.Node() != nil; c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return true
		}
	}
	return false
}

// isRequestContext reports whether e is r.Context() for an *http.Request r.
func isRequestContext(pass *analysis.Pass, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	return ok && roles.Key(fn) == "net/http.Request.Context"
}

// isDerived reports whether e is, or derives through context.With* from, a request context.
func isDerived(pass *analysis.Pass, e ast.Expr, derived map[types.Object]bool) bool {
	e = ast.Unparen(e)
	if isRequestContext(pass, e) {
		return true
	}
	if id, ok := e.(*ast.Ident); ok {
		return derived[pass.TypesInfo.ObjectOf(id)]
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if fn, ok := typeutilCallee(pass, call); ok && fn.Pkg() != nil && fn.Pkg().Path() == "context" {
			if fn.Name() == "WithoutCancel" || fn.Name() == "Background" || fn.Name() == "TODO" {
				return false
			}
			if len(call.Args) > 0 {
				return isDerived(pass, call.Args[0], derived)
			}
		}
	}
	return false
}

func typeutilCallee(pass *analysis.Pass, call *ast.CallExpr) (*types.Func, bool) {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil, false
	}
	fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
	return fn, ok
}

// derivedVars finds the variables of body that hold a request context, to a fixpoint.
func derivedVars(pass *analysis.Pass, body ast.Node) map[types.Object]bool {
	derived := map[types.Object]bool{}
	for range 4 {
		changed := false
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			var rhs ast.Expr
			if len(as.Rhs) == 1 {
				rhs = as.Rhs[0]
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				obj := pass.TypesInfo.ObjectOf(id)
				if obj == nil || derived[obj] || !roles.IsContext(obj.Type()) {
					continue
				}
				r := rhs
				if len(as.Rhs) == len(as.Lhs) {
					r = as.Rhs[i]
				}
				if r != nil && isDerived(pass, r, derived) {
					derived[obj] = true
					changed = true
				}
			}
			return true
		})
		if !changed {
			break
		}
	}
	return derived
}

// contextImport returns the name under which the file holding n imports "context".
func contextImport(pass *analysis.Pass, n ast.Node) (string, bool) {
	f := analysisutil.FileOf(pass, n.Pos())
	if f == nil {
		return "", false
	}
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "context" {
			if imp.Name != nil {
				return imp.Name.Name, imp.Name.Name != "_" && imp.Name.Name != "."
			}
			return "context", true
		}
	}
	return "", false
}
