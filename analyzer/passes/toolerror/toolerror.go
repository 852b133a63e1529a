package toolerror

import (
	_ "embed"
	"go/ast"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

//go:embed doc.go
var doc string

// Analyzer reports tool call errors that are discarded.
var Analyzer = &analysis.Analyzer{
	Name:     "toolerror",
	Doc:      analysisutil.MustExtractDoc(doc, "toolerror"),
	URL:      analysisutil.URL("toolerror"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer, ctrlflow.Analyzer},
	Run:      analysisutil.Safe(run),
}

const consequence = ": the model never learns the tool failed and the step records a success"

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	// modelCall: a call whose result delivers tool calls (a reply, a stream of chunks) or that
	// is a recognized loop's model call site is the model's decision, never a tool call, so a
	// retry after its error is no dropped tool failure
	modelCall := func(call *ast.CallExpr) bool {
		if sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature); ok && roles.ResultDeliversToolCalls(sig) {
			return true
		}
		for _, b := range res.CallRoles(call) {
			if b.Role == roles.ModelCall {
				return true
			}
		}
		return res.LoopSite(call, roles.ModelCall)
	}
	isTool := func(call *ast.CallExpr) (string, bool) {
		if modelCall(call) {
			return "", false
		}
		for _, b := range res.CallRoles(call) {
			if b.Role == roles.ToolCall {
				return analysisutil.Render(pass.Fset, call.Fun, 40), true
			}
		}
		return "", false
	}
	// recognized: a tool call site of a turn loop the structural recognizer found (no role
	// binds it); only a tested error is followed for those
	recognized := func(call *ast.CallExpr) (string, bool) {
		if res.LoopSite(call, roles.ToolCall) && !modelCall(call) {
			return analysisutil.Render(pass.Fset, call.Fun, 40), true
		}
		return "", false
	}
	returnsError := func(call *ast.CallExpr) bool {
		switch t := pass.TypesInfo.TypeOf(call).(type) {
		case *types.Tuple:
			return t != nil && t.Len() > 0 && roles.IsError(t.At(t.Len()-1).Type())
		case nil:
			return false
		default:
			return roles.IsError(t)
		}
	}
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var g *cfg.CFG
		goroutine := false
		switch fn := cur.Node().(type) {
		case *ast.FuncDecl:
			g = cfgs.FuncDecl(fn)
		case *ast.FuncLit:
			g = cfgs.FuncLit(fn)
			goroutine = launchedByGo(cur)
		}
		if g == nil {
			continue
		}
		for _, b := range g.Blocks {
			for _, n := range b.Nodes {
				switch s := n.(type) {
				case *ast.ExprStmt:
					if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && returnsError(call) {
						if name, ok := isTool(call); ok {
							analysisutil.Reportf(pass, call.Pos(), "error of tool call %s is discarded%s", name, consequence)
						}
					}
				case *ast.AssignStmt:
					if len(s.Rhs) != 1 {
						continue
					}
					call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
					if !ok || !returnsError(call) || len(s.Lhs) == 0 {
						continue
					}
					name, ok := isTool(call)
					byRole := ok
					if !ok {
						if name, ok = recognized(call); !ok {
							continue
						}
					}
					id, ok := s.Lhs[len(s.Lhs)-1].(*ast.Ident)
					if !ok {
						continue
					}
					if id.Name == "_" && byRole {
						analysisutil.Reportf(pass, id.Pos(), "error of tool call %s is assigned to _%s", name, consequence)
						continue
					}
					obj := pass.TypesInfo.ObjectOf(id)
					if v, ok := obj.(*types.Var); !ok || v.Parent() == nil || v.Parent() == pass.Pkg.Scope() {
						continue // package-level or unknown: assume other uses exist
					}
					if body := funcBodyOf(cur.Node()); body == nil || obj.Pos() < body.Pos() || obj.Pos() > body.End() {
						continue // a named result or a captured variable: the error travels on
					}
					stop := func(m ast.Node) bool { return analysisutil.Mentions(pass.TypesInfo, m, obj) }
					if ret, found := analysisutil.Search(g, s, stop, analysisutil.IsReturn, true); found && byRole {
						d := analysis.Diagnostic{
							Pos:     id.Pos(),
							Message: "error of tool call " + name + " is not checked on every path" + consequence,
						}
						if ret != nil {
							d.Related = []analysis.RelatedInformation{{Pos: ret.Pos(), Message: "this return is reached without checking " + id.Name}}
						}
						analysisutil.Report(pass, d)
						continue
					}
					// Checked on every path, but only to tell one error from another: a path on
					// which it is non-nil and no branch uses it (errors.Is(err, ErrDenied) is
					// false) records the step as a success.
					info := pass.TypesInfo
					if at := analysisutil.ErrPath(info, g, s, obj, true, func(n ast.Node, nonNil bool) bool {
						if !nonNil {
							return false
						}
						if n == ast.Node(s) {
							return true // the next tool call overwrites it
						}
						ret, ok := n.(*ast.ReturnStmt)
						// a return with results that leave the error out (a function without
						// results, a test expecting the error, has nothing to hand it to; a
						// goroutine's bare return does: what it records is all the step learns)
						return ok && (len(ret.Results) > 0 || goroutine) && !analysisutil.Mentions(info, ret, obj)
					}); at != nil {
						d := analysis.Diagnostic{
							Pos:     id.Pos(),
							Message: "error of tool call " + name + " is dropped on a path where it is not nil (tested, never returned or recorded)" + consequence,
						}
						if at != ast.Node(s) {
							d.Related = []analysis.RelatedInformation{{Pos: at.Pos(), Message: "reached with " + id.Name + " != nil and unused"}}
						}
						analysisutil.Report(pass, d)
					}
				}
			}
		}
	}
	return nil, nil
}

// launchedByGo reports whether the function literal at cur is the one a go statement runs (go
// func() { … }()): it has no caller to hand an error to, only what it records.
func launchedByGo(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != cur.Node() {
		return false
	}
	_, ok = cur.Parent().Parent().Node().(*ast.GoStmt)
	return ok
}

func funcBodyOf(n ast.Node) *ast.BlockStmt {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}
