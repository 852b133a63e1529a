package goir

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
)

// defaults records the constant values stored into struct fields in the source packages: in
// composite literals (constructors, option structs) and assignments, including the
// zero-value checks that set a default (if o.Max == 0 { o.Max = 10 }). A value given by a
// named constant points at the constant's declaration.
func (b *builder) defaults() {
	for tp, p := range b.srcPkgs {
		_ = tp
		info := p.TypesInfo
		for _, file := range p.Syntax {
			var stack []ast.Node
			ast.Inspect(file, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				switch x := n.(type) {
				case *ast.CompositeLit:
					t := info.TypeOf(x)
					if t == nil {
						return true
					}
					for _, el := range x.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						id, ok := kv.Key.(*ast.Ident)
						if !ok {
							continue
						}
						if _, isField := info.Uses[id].(*types.Var); !isField {
							continue
						}
						b.addDefault(info, roles.FieldKey(t, id.Name), kv.Value, kv.Pos(), "constructor")
					}
				case *ast.AssignStmt:
					if len(x.Lhs) != len(x.Rhs) || (x.Tok != token.ASSIGN && x.Tok != token.DEFINE) {
						return true
					}
					for i, l := range x.Lhs {
						sel, ok := l.(*ast.SelectorExpr)
						if !ok {
							continue
						}
						s, ok := info.Selections[sel]
						if !ok || s.Kind() != types.FieldVal {
							continue
						}
						via := "constructor"
						if len(stack) >= 3 {
							if ifs, ok := stack[len(stack)-3].(*ast.IfStmt); ok && mentions(ifs.Cond, sel.Sel.Name) {
								via = "zero_check"
							}
						}
						b.addDefault(info, fieldKeyOfSel(s, sel.Sel.Name), x.Rhs[i], x.Pos(), via)
					}
				}
				return true
			})
		}
	}
}

// fieldKeyOfSel returns the key of a selected field, on the type that declares it.
func fieldKeyOfSel(s *types.Selection, name string) string {
	recv := s.Recv()
	if k := roles.FieldKey(recv, name); k != "" {
		return k
	}
	return ""
}

func mentions(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

func (b *builder) addDefault(info *types.Info, key string, val ast.Expr, at token.Pos, via string) {
	if key == "" {
		return
	}
	tv, ok := info.Types[val]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return
	}
	if n, ok := constant.Int64Val(tv.Value); !ok || n <= 0 {
		return
	}
	d := ir.Default{Key: key, Value: tv.Value.ExactString(), Pos: b.pos(at), Via: via}
	if id, ok := ast.Unparen(val).(*ast.Ident); ok {
		if c, ok := info.Uses[id].(*types.Const); ok {
			d.Pos, d.Via = b.pos(c.Pos()), "const"
		}
	} else if sel, ok := ast.Unparen(val).(*ast.SelectorExpr); ok {
		if c, ok := info.Uses[sel.Sel].(*types.Const); ok {
			d.Pos, d.Via = b.pos(c.Pos()), "const"
		}
	}
	b.out.Defaults = append(b.out.Defaults, d)
}
