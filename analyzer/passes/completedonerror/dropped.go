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
	replyErrors(pass, res, g, inLoop, reported)
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

// replyErrors reports, in the same functions as leftOnError, the success returns reached after
// a receive of a model call's reply (resp := <-m.Stream(ctx, msgs), or from a channel a model
// call returned) whose error field is never looked at on the way: the model call failed, the
// reply carries nothing to decide on, and the run ends completed.
func replyErrors(pass *analysis.Pass, res *lifecycle.Result, g *cfg.CFG, inLoop func(ast.Node) bool, reported map[token.Pos]bool) {
	info := pass.TypesInfo
	// the calls that define each local (ch := m.Stream(ctx, msgs))
	defs := map[types.Object]*ast.CallExpr{}
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
						if o := info.ObjectOf(id); o != nil {
							defs[o] = c
						}
					}
				}
			}
		}
	}
	modelSite := func(c *ast.CallExpr) bool {
		return c != nil && (res.CallReaches(c, roles.ModelCall) || res.LoopSite(c, roles.ModelCall))
	}
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 || !inLoop(as) {
				continue
			}
			recv, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
			if !ok || recv.Op != token.ARROW {
				continue
			}
			var src *ast.CallExpr
			switch x := ast.Unparen(recv.X).(type) {
			case *ast.CallExpr:
				src = x
			case *ast.Ident:
				src = defs[info.ObjectOf(x)]
			}
			if !modelSite(src) {
				continue
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			v := info.ObjectOf(id)
			if v == nil {
				continue
			}
			field := errField(v.Type())
			if field == nil {
				continue
			}
			// a use of the reply that may look at its error: the field itself, or the reply
			// handed on whole (to a helper, a return, a store)
			looks := func(m ast.Node) bool {
				if m == ast.Node(as) {
					return true // the next receive overwrites it
				}
				found := false
				ast.Inspect(m, func(x ast.Node) bool {
					if found {
						return false
					}
					switch y := x.(type) {
					case *ast.SelectorExpr:
						if base, ok := ast.Unparen(y.X).(*ast.Ident); ok && info.ObjectOf(base) == v {
							if sel, ok := info.Selections[y]; ok && sel.Obj() == field {
								found = true
							}
							return false // another field read: not the error
						}
					case *ast.Ident:
						if info.ObjectOf(y) == v {
							found = true // the reply itself, handed on or reassigned
						}
					}
					return !found
				})
				return found
			}
			hit := func(m ast.Node) bool {
				ret, ok := m.(*ast.ReturnStmt)
				return ok && len(ret.Results) > 0 && analysisutil.IsNil(info, ret.Results[len(ret.Results)-1])
			}
			found, ok := analysisutil.Search(g, as, looks, hit, false)
			ret, _ := found.(*ast.ReturnStmt)
			if !ok || ret == nil || reported[ret.Pos()] {
				continue
			}
			reported[ret.Pos()] = true
			analysisutil.Report(pass, analysis.Diagnostic{
				Pos: ret.Pos(),
				Message: "run returns success on a path where the error carried by the model call's reply " + id.Name + "." + field.Name() +
					" (line " + itoa(pass.Fset.Position(as.Pos()).Line) + ") is never checked: a failed model call ends the run as completed; return the error, or record the failure",
				Related: []analysis.RelatedInformation{{Pos: as.Pos(), Message: "reply received here"}},
			})
		}
	}
}

// errField returns the error-typed field of a struct type (or a pointer to one), when it has
// exactly one.
func errField(t types.Type) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out *types.Var
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); roles.IsError(f.Type()) {
			if out != nil {
				return nil
			}
			out = f
		}
	}
	return out
}
