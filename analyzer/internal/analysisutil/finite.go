package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// FiniteRange reports whether a range statement ends by itself after a number of iterations
// known when it starts: a range over an integer, a string, a slice, an array or a pointer to
// one, or a map that the loop does not insert into (entries added during the iteration may be
// produced, so a loop that keeps adding to its map need not end). A range over a channel or a
// function iterator ends only when its producer says so, which may be never.
func FiniteRange(info *types.Info, rs *ast.RangeStmt) bool {
	t := info.TypeOf(rs.X)
	if t == nil {
		return false
	}
	switch u := coreType(t).(type) {
	case *types.Basic:
		return u.Info()&(types.IsInteger|types.IsString) != 0
	case *types.Slice, *types.Array:
		return true
	case *types.Pointer:
		_, ok := coreType(u.Elem()).(*types.Array)
		return ok
	case *types.Map:
		return !insertsInto(info, rs.Body, rs.X)
	}
	return false
}

// coreType is t's underlying type or, for a type parameter, the one underlying type of its
// type set (range needs one); nil when there is none.
func coreType(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		var terms []*types.Term
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				terms = append(terms, e.Term(j))
			}
		default:
			terms = append(terms, types.NewTerm(false, e))
		}
		for _, term := range terms {
			u := coreType(term.Type())
			if u == nil || core != nil && !types.Identical(core, u) {
				return nil
			}
			core = u
		}
	}
	return core
}

// insertsInto reports whether body assigns to an element of the map m (m[k] = v, m[k]++, ...),
// m being a variable or a field path (s.queue).
func insertsInto(info *types.Info, body *ast.BlockStmt, m ast.Expr) bool {
	target := pathOf(info, m)
	if target == nil {
		return true // an expression we cannot follow: assume it may grow
	}
	found := false
	check := func(lhs ast.Expr) {
		if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && slices.Equal(pathOf(info, ix.X), target) {
			found = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				check(l)
			}
		case *ast.IncDecStmt:
			check(s.X)
		}
		return !found
	})
	return found
}

// pathOf is the objects that name a variable or a selector path of variables (s.queue), nil
// for anything else (a call, an index).
func pathOf(info *types.Info, e ast.Expr) []types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj := info.ObjectOf(e); obj != nil {
			return []types.Object{obj}
		}
	case *ast.SelectorExpr:
		if base := pathOf(info, e.X); base != nil {
			if obj := info.ObjectOf(e.Sel); obj != nil {
				return append(base, obj)
			}
		}
	case *ast.StarExpr:
		return pathOf(info, e.X)
	}
	return nil
}

// CursorWalk reports whether fs walks a linked structure: its condition tests a variable
// against nil and its post statement advances that variable from itself (n = n.next,
// pair = pair.Next()). Such a loop is bounded by the structure it walks, like a range over a
// slice, whatever its body calls.
func CursorWalk(info *types.Info, fs *ast.ForStmt) bool {
	if fs.Cond == nil || fs.Post == nil {
		return false
	}
	as, ok := fs.Post.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
		return false
	}
	id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
	if !ok {
		return false
	}
	obj := info.ObjectOf(id)
	if obj == nil {
		return false
	}
	rhs := ast.Unparen(as.Rhs[0])
	if call, ok := rhs.(*ast.CallExpr); ok && len(call.Args) == 0 {
		rhs = ast.Unparen(call.Fun)
	}
	sel, ok := rhs.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if x, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || info.ObjectOf(x) != obj {
		return false
	}
	be, ok := ast.Unparen(fs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return false
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if IsNil(info, x) {
		x, y = y, x
	}
	cx, ok := x.(*ast.Ident)
	return ok && info.ObjectOf(cx) == obj && IsNil(info, y)
}
