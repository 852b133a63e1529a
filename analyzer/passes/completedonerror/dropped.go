package completedonerror

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// leftOnError reports, in a function holding a turn loop and returning an error, the success
// returns (a nil error) reached on a path where the error of a model or tool call in the loop
// is known to be non-nil and was only used to leave the loop: `if err != nil { break }` and
// then `return result, nil` ends a failed step's run as completed.
//
// The search follows the control-flow graph (go/cfg) with one bit of path state: whether the
// branch taken says err != nil. Any other use of err (returned, wrapped, logged, passed on,
// reassigned) ends the path: the error was handled.
func leftOnError(pass *analysis.Pass, res *lifecycle.Result, fn ast.Node, g *cfg.CFG, reported map[token.Pos]bool) {
	var sig *types.Signature
	switch f := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := pass.TypesInfo.Defs[f.Name].(*types.Func); ok {
			sig = obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ = pass.TypesInfo.TypeOf(f).(*types.Signature)
	}
	if sig == nil || sig.Results().Len() == 0 || !roles.IsError(sig.Results().At(sig.Results().Len()-1).Type()) {
		return
	}
	var loops []ast.Node
	for _, l := range res.Loops {
		if l.Func == fn && !l.Retry {
			loops = append(loops, l.Node)
		}
	}
	if len(loops) == 0 {
		return
	}
	inLoop := func(n ast.Node) bool {
		for _, l := range loops {
			if l.Pos() <= n.Pos() && n.End() <= l.End() {
				return true
			}
		}
		return false
	}
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 || !inLoop(as) {
				continue
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				continue
			}
			what := ""
			switch {
			case res.CallReaches(call, roles.ToolCall) || res.LoopSiteVia(call, roles.ToolCall):
				what = "tool call"
			case res.CallReaches(call, roles.ModelCall) || res.LoopSiteVia(call, roles.ModelCall):
				what = "model call"
			default:
				continue
			}
			id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			obj := pass.TypesInfo.ObjectOf(id)
			if obj == nil || !roles.IsError(obj.Type()) {
				continue
			}
			info := pass.TypesInfo
			// a later model call of the loop on the path is the next step: what it decides
			// supersedes the dropped error (L5 asks that the last step succeeded; the drop
			// itself is toolerror's finding)
			nextStep := func(n ast.Node) bool {
				if n == as || !inLoop(n) {
					return false
				}
				found := false
				ast.Inspect(n, func(m ast.Node) bool {
					switch x := m.(type) {
					case *ast.FuncLit:
						return false
					case *ast.CallExpr:
						if res.CallReaches(x, roles.ModelCall) || res.LoopSiteVia(x, roles.ModelCall) {
							found = true
						}
					}
					return !found
				})
				return found
			}
			found := analysisutil.ErrPathUntil(info, g, as, obj, false, func(n ast.Node, nonNil bool) bool {
				ret, ok := n.(*ast.ReturnStmt)
				return ok && nonNil && len(ret.Results) > 0 && analysisutil.IsNil(info, ret.Results[len(ret.Results)-1]) && !analysisutil.Mentions(info, ret, obj)
			}, nextStep)
			ret, _ := found.(*ast.ReturnStmt)
			if ret == nil || reported[ret.Pos()] {
				continue
			}
			reported[ret.Pos()] = true
			callee := analysisutil.Render(pass.Fset, call.Fun, 40)
			analysisutil.Report(pass, analysis.Diagnostic{
				Pos: ret.Pos(),
				Message: "run returns success on a path where the error of " + what + " " + callee + " (line " + itoa(pass.Fset.Position(as.Pos()).Line) +
					") was only used to leave the loop: a failed step ends the run as completed; return the error, or record the failure",
				Related: []analysis.RelatedInformation{{Pos: as.Pos(), Message: "error assigned here"}},
			})
		}
	}
}
