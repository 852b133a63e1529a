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
		for i, n := range b.Nodes {
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
			ret := searchNonNil(pass.TypesInfo, b, i+1, obj)
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

// pathState is a block reached with whether the branch taken says the error is non-nil.
type pathState struct {
	b      *cfg.Block
	nonNil bool
}

// searchNonNil walks from node index from of block b and returns a return statement whose
// error result is nil, reached on a path where a branch said obj != nil and obj is not used
// otherwise.
func searchNonNil(info *types.Info, b *cfg.Block, from int, obj types.Object) *ast.ReturnStmt {
	seen := map[pathState]bool{}
	var visit func(b *cfg.Block, from int, nonNil bool) *ast.ReturnStmt
	goOn := func(sts ...pathState) *ast.ReturnStmt {
		for _, s := range sts {
			if seen[s] {
				continue
			}
			seen[s] = true
			if r := visit(s.b, 0, s.nonNil); r != nil {
				return r
			}
		}
		return nil
	}
	visit = func(b *cfg.Block, from int, nonNil bool) *ast.ReturnStmt {
		cond := -1
		if len(b.Succs) == 2 && len(b.Nodes) > 0 {
			cond = len(b.Nodes) - 1 // the block ends in its branch condition
		}
		for k := from; k < len(b.Nodes); k++ {
			n := b.Nodes[k]
			if k == cond {
				break
			}
			if ret, ok := n.(*ast.ReturnStmt); ok {
				if nonNil && len(ret.Results) > 0 && isNil(info, ret.Results[len(ret.Results)-1]) && !analysisutil.Mentions(info, ret, obj) {
					return ret
				}
				return nil
			}
			if analysisutil.Mentions(info, n, obj) {
				return nil // err handled, passed on or reassigned
			}
		}
		if cond >= from {
			c, _ := b.Nodes[cond].(ast.Expr)
			switch errTest(info, c, obj) {
			case token.NEQ: // if err != nil: the true branch has the error
				return goOn(pathState{b.Succs[0], true})
			case token.EQL: // if err == nil: the false branch has it
				return goOn(pathState{b.Succs[1], true})
			}
			if c == nil || analysisutil.Mentions(info, c, obj) {
				return nil
			}
		}
		var sts []pathState
		for _, s := range b.Succs {
			sts = append(sts, pathState{s, nonNil})
		}
		return goOn(sts...)
	}
	return visit(b, from, false)
}

// errTest says which branch of condition e can see obj non-nil: token.NEQ for the true branch
// (obj != nil, alone, in a conjunction, or as one disjunct of a disjunction: the break of
// `if stop || err != nil` may leave with an error), token.EQL for the false branch
// (obj == nil), token.ILLEGAL when e does not test obj against nil.
func errTest(info *types.Info, e ast.Expr, obj types.Object) token.Token {
	be, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return token.ILLEGAL
	}
	switch be.Op {
	case token.LOR, token.LAND:
		for _, x := range []ast.Expr{be.X, be.Y} {
			if t := errTest(info, x, obj); t == token.NEQ {
				return token.NEQ
			}
		}
		return token.ILLEGAL
	case token.NEQ, token.EQL:
	default:
		return token.ILLEGAL
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || info.ObjectOf(id) != obj || !isNil(info, y) {
		return token.ILLEGAL
	}
	return be.Op
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.ObjectOf(id).(*types.Nil)
	return isNil
}
