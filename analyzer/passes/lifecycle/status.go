package lifecycle

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// constOf returns the constant an expression names.
func (a *state) constOf(e ast.Expr) *types.Const {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	c, _ := a.pass.TypesInfo.Uses[id].(*types.Const)
	return c
}

// StatusOf returns the canonical run status an expression stands for when it names a constant of
// a status type (or a constant bound to a status).
func (a *state) StatusOf(e ast.Expr) (model.RunStatus, bool) {
	c := a.constOf(e)
	if c == nil {
		return "", false
	}
	if b, ok := a.res.Has(c, roles.StatusConst); ok && b.Rule.Status != "" {
		return b.Rule.Status, true
	}
	n := roles.NamedOf(c.Type())
	if n == nil {
		return "", false
	}
	if _, ok := a.res.Has(n.Obj(), roles.Status); !ok {
		return "", false
	}
	return roles.CanonicalStatus(c)
}

// StopReasonOf returns the canonical stop reason an expression stands for when it names a
// constant of a stop reason type.
func (a *state) StopReasonOf(e ast.Expr) (model.StopReason, bool) {
	c := a.constOf(e)
	if c == nil {
		return "", false
	}
	if b, ok := a.res.Has(c, roles.StopReasonConst); ok && b.Rule.StopReason != "" {
		return b.Rule.StopReason, true
	}
	n := roles.NamedOf(c.Type())
	if n == nil {
		return "", false
	}
	if _, ok := a.res.Has(n.Obj(), roles.StopReason); !ok {
		return "", false
	}
	return roles.CanonicalStopReason(c)
}

// StatusWrite is a status constant used as a value (assigned, passed, put in a literal), as
// opposed to compared.
type StatusWrite struct {
	// Expr is the constant reference.
	Expr ast.Expr
	// Status is its canonical status.
	Status model.RunStatus
	// StopReason is a stop reason constant written by the same statement, if any.
	StopReason model.StopReason
	// Stmt is the innermost statement holding the write.
	Stmt ast.Stmt
}

// writesIn returns the status writes under root (nested function literals included).
func (a *state) writesIn(root ast.Node) []StatusWrite {
	compared := map[ast.Expr]bool{}
	var out []StatusWrite
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				compared[ast.Unparen(x.X)] = true
				compared[ast.Unparen(x.Y)] = true
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				compared[ast.Unparen(e)] = true
			}
		case *ast.Ident, *ast.SelectorExpr:
			e := x.(ast.Expr)
			if compared[e] {
				return false
			}
			if st, ok := a.StatusOf(e); ok {
				w := StatusWrite{Expr: e, Status: st, Stmt: innermostStmt(root, e)}
				if w.Stmt != nil {
					w.StopReason = a.stopIn(w.Stmt)
				}
				out = append(out, w)
				return false
			}
		}
		return true
	})
	return out
}

// stopIn returns the highest-priority stop reason constant used as a value in stmt (not in
// nested blocks).
func (a *state) stopIn(stmt ast.Stmt) model.StopReason {
	var best model.StopReason
	ast.Inspect(stmt, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BlockStmt, *ast.FuncLit:
			return false
		case *ast.Ident, *ast.SelectorExpr:
			if r, ok := a.StopReasonOf(x.(ast.Expr)); ok {
				if best == "" || r.Priority() > best.Priority() {
					best = r
				}
				return false
			}
		}
		return true
	})
	return best
}

func innermostStmt(root ast.Node, target ast.Node) ast.Stmt {
	var best ast.Stmt
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil || n.Pos() > target.Pos() || n.End() < target.End() {
			return false
		}
		if s, ok := n.(ast.Stmt); ok {
			switch s.(type) {
			case *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt,
				*ast.TypeSwitchStmt, *ast.SelectStmt, *ast.CaseClause, *ast.CommClause:
			default:
				best = s
			}
		}
		return true
	})
	return best
}

func (a *state) statusWrites(root ast.Node, s *siteSet) {
	for _, w := range a.writesIn(root) {
		if w.Status.Terminal() {
			s.writes = appendStatus(s.writes, w.Status)
		}
	}
}
