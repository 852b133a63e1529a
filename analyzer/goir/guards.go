package goir

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// guards returns, for each return statement of body, the test of a value against literals it
// is taken under (ir.Return.Guard): the nearest enclosing if whose then-branch holds it and
// whose condition compares one value with string constants (==, joined by ||), or the case
// clause holding it of a switch on a value whose case values are string constants. Closures
// are not entered (they are Funcs of their own).
func (b *builder) guards(body ast.Node, info *types.Info) map[*ast.ReturnStmt]*ir.Guard {
	out := map[*ast.ReturnStmt]*ir.Guard{}
	if body == nil || info == nil {
		return out
	}
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if rs, ok := n.(*ast.ReturnStmt); ok {
			if g := b.guardOf(stack, rs, info); g != nil {
				out[rs] = g
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

func (b *builder) guardOf(stack []ast.Node, n ast.Node, info *types.Info) *ir.Guard {
	child := n
	for i := len(stack) - 1; i >= 0; child, i = stack[i], i-1 {
		switch p := stack[i].(type) {
		case *ast.IfStmt:
			if p.Body != child {
				continue
			}
			var subj ast.Expr
			var vals []string
			if literalTest(p.Cond, info, &subj, &vals) {
				return &ir.Guard{Pos: b.pos(p.Cond.Pos()), Text: clipText(types.ExprString(p.Cond), 120),
					Subject: types.ExprString(subj), Field: tailName(subj), Values: vals}
			}
		case *ast.CaseClause:
			if i < 2 {
				continue
			}
			sw, ok := stack[i-2].(*ast.SwitchStmt)
			if !ok || sw.Tag == nil || len(p.List) == 0 {
				continue
			}
			var vals []string
			for _, e := range p.List {
				v, ok := stringConst(e, info)
				if !ok {
					vals = nil
					break
				}
				vals = append(vals, v)
			}
			if len(vals) > 0 {
				return &ir.Guard{Pos: b.pos(p.Pos()), Text: clipText(types.ExprString(sw.Tag)+" is "+strings.Join(vals, ", "), 120),
					Subject: types.ExprString(sw.Tag), Field: tailName(sw.Tag), Values: vals}
			}
		}
	}
	return nil
}

// literalTest reports whether cond compares one value (*subj) for equality with string
// constants, alone or joined by ||, collecting the constants' values into vals.
func literalTest(cond ast.Expr, info *types.Info, subj *ast.Expr, vals *[]string) bool {
	cond = ast.Unparen(cond)
	be, ok := cond.(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch be.Op {
	case token.LOR:
		return literalTest(be.X, info, subj, vals) && literalTest(be.Y, info, subj, vals)
	case token.EQL:
		s, v := be.X, be.Y
		val, ok := stringConst(v, info)
		if !ok {
			s, v = be.Y, be.X
			if val, ok = stringConst(v, info); !ok {
				return false
			}
		}
		if _, isConst := stringConst(s, info); isConst {
			return false
		}
		if *subj != nil && types.ExprString(*subj) != types.ExprString(s) {
			return false
		}
		*subj = s
		*vals = append(*vals, val)
		return true
	}
	return false
}

// stringConst returns the value of a string constant expression ("aborted", StopAborted).
func stringConst(e ast.Expr, info *types.Info) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// tailName is the last field or method name of an expression (resp.Choices[0].FinishReason →
// FinishReason, msg.Status() → Status), or the identifier.
func tailName(e ast.Expr) string {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		case *ast.CallExpr:
			e = x.Fun
		case *ast.IndexExpr:
			if bl, ok := x.Index.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				return strings.Trim(bl.Value, "\"`")
			}
			return ""
		case *ast.StarExpr:
			e = x.X
		default:
			return ""
		}
	}
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
