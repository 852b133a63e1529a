package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// ErrPath walks the control-flow graph from just after node start (a node of one of g's
// blocks) with one bit of path state: whether the branches taken say the error variable obj
// may be non-nil (`err != nil`, alone or as a disjunct or conjunct of the condition). It
// returns the first node for which hit(n, nonNil) is true. A node that mentions obj ends the
// path (the error was used: returned, wrapped, logged, stored), except conditions that only
// classify it when classify is true: errors.Is(err, X), errors.As(err, &t), err == X: the
// branch where it is the error tested for handles it, the other goes on with the same state. Reaching start again (the next iteration
// overwrites obj) calls hit(start, nonNil) and ends the path.
func ErrPath(info *types.Info, g *cfg.CFG, start ast.Node, obj types.Object, classify bool, hit func(n ast.Node, nonNil bool) bool) ast.Node {
	return ErrPathUntil(info, g, start, obj, classify, hit, nil)
}

// ErrPathUntil is ErrPath with one more way a path ends: at a node for which stop(n) is true
// (a later step that supersedes the error: the next model call of the loop), before hit sees it.
func ErrPathUntil(info *types.Info, g *cfg.CFG, start ast.Node, obj types.Object, classify bool, hit func(n ast.Node, nonNil bool) bool, stop func(n ast.Node) bool) ast.Node {
	sb, si := NodeBlock(g, start)
	if sb == nil {
		return nil
	}
	type state struct {
		b      *cfg.Block
		nonNil bool
	}
	seen := map[state]bool{}
	var visit func(b *cfg.Block, from int, nonNil bool) ast.Node
	goOn := func(sts ...state) ast.Node {
		for _, s := range sts {
			if !seen[s] {
				seen[s] = true
				if n := visit(s.b, 0, s.nonNil); n != nil {
					return n
				}
			}
		}
		return nil
	}
	visit = func(b *cfg.Block, from int, nonNil bool) ast.Node {
		cond := -1
		if len(b.Succs) == 2 && len(b.Nodes) > 0 {
			cond = len(b.Nodes) - 1 // the block ends in its branch condition
		}
		for k := from; k < len(b.Nodes) && k != cond; k++ {
			n := b.Nodes[k]
			if n == start {
				if hit(n, nonNil) {
					return n
				}
				return nil
			}
			if stop != nil && stop(n) {
				return nil
			}
			if hit(n, nonNil) {
				return n
			}
			if Mentions(info, n, obj) || assigns(info, n, obj) {
				return nil // used, or overwritten
			}
		}
		if cond >= from {
			c, _ := b.Nodes[cond].(ast.Expr)
			if c == nil {
				return nil
			}
			if ErrTest(info, c, obj) == token.NEQ {
				return goOn(state{b.Succs[0], true}, state{b.Succs[1], false})
			}
			if ErrTest(info, c, obj) == token.EQL {
				return goOn(state{b.Succs[1], true}, state{b.Succs[0], false})
			}
			if Mentions(info, c, obj) {
				if !classify || !classifies(info, c, obj) {
					return nil
				}
				// the branch where it is the error tested for handles it; the other goes on
				switch x := ast.Unparen(c).(type) {
				case *ast.CallExpr:
					return goOn(state{b.Succs[1], nonNil})
				case *ast.UnaryExpr:
					if _, ok := ast.Unparen(x.X).(*ast.CallExpr); ok && x.Op == token.NOT {
						return goOn(state{b.Succs[0], nonNil})
					}
				}
			}
		}
		var sts []state
		for _, s := range b.Succs {
			sts = append(sts, state{s, nonNil})
		}
		return goOn(sts...)
	}
	return visit(sb, si+1, false)
}

// ErrTest says which branch of condition e can see obj non-nil: token.NEQ for the true branch
// (obj != nil, alone, in a conjunction, or as one disjunct of a disjunction: the break of
// `if stop || err != nil` may leave with an error), token.EQL for the false branch
// (obj == nil), token.ILLEGAL when e does not test obj against nil.
func ErrTest(info *types.Info, e ast.Expr, obj types.Object) token.Token {
	be, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return token.ILLEGAL
	}
	switch be.Op {
	case token.LOR, token.LAND:
		for _, x := range []ast.Expr{be.X, be.Y} {
			if ErrTest(info, x, obj) == token.NEQ {
				return token.NEQ
			}
		}
		return token.ILLEGAL
	case token.NEQ, token.EQL:
	default:
		return token.ILLEGAL
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if IsNil(info, x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || info.ObjectOf(id) != obj || !IsNil(info, y) {
		return token.ILLEGAL
	}
	return be.Op
}

// classifies reports whether every mention of obj in condition c is the first argument of
// errors.Is / errors.As or an operand of == / != (a test of which error it is, not a use).
func classifies(info *types.Info, c ast.Expr, obj types.Object) bool {
	ok := true
	var walk func(e ast.Node)
	walk = func(e ast.Node) {
		ast.Inspect(e, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch x := n.(type) {
			case *ast.CallExpr:
				if fn, isFn := typeutilCallee(info, x); isFn && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") && len(x.Args) == 2 {
					if id, isID := ast.Unparen(x.Args[0]).(*ast.Ident); isID && info.ObjectOf(id) == obj {
						walk(x.Args[1])
						return false
					}
				}
			case *ast.BinaryExpr:
				if x.Op == token.EQL || x.Op == token.NEQ {
					for _, side := range []ast.Expr{x.X, x.Y} {
						if id, isID := ast.Unparen(side).(*ast.Ident); isID && info.ObjectOf(id) == obj {
							continue
						}
						walk(side)
					}
					return false
				}
			case *ast.Ident:
				if info.ObjectOf(x) == obj {
					ok = false
				}
			}
			return true
		})
	}
	walk(c)
	return ok
}

func typeutilCallee(info *types.Info, call *ast.CallExpr) (*types.Func, bool) {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil, false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return fn, ok
}

// IsNil reports whether e is the predeclared nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.ObjectOf(id).(*types.Nil)
	return isNil
}

// assigns reports whether n is an assignment (or declaration) whose left side includes obj.
func assigns(info *types.Info, n ast.Node, obj types.Object) bool {
	as, ok := n.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == obj {
			return true
		}
	}
	return false
}
