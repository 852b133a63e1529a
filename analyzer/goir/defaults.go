package goir

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
)

// defaults records the constant values stored into struct fields in the source packages: in
// composite literals (constructors, option structs) and assignments, including the
// zero-value checks that set a default (if o.Max == 0 { o.Max = 10 }). A value given by a
// named constant points at the constant's declaration.
func (b *builder) defaults() {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, p := range b.srcPkgs {
		for _, file := range p.Syntax {
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						decls[fn] = fd
					}
				}
			}
		}
	}
	b.envDecls = decls
	defer func() {
		slices.SortFunc(b.out.EnvDefaults, func(x, y ir.EnvDefault) int {
			if x.Pos.File != y.Pos.File {
				return strings.Compare(x.Pos.File, y.Pos.File)
			}
			return x.Pos.Line - y.Pos.Line
		})
	}()
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
						b.addDefault(info, roles.FieldKey(t, id.Name), kv.Value, kv.Pos(), "constructor", enclosingBody(stack))
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
						b.addDefault(info, fieldKeyOfSel(s, sel.Sel.Name), x.Rhs[i], x.Pos(), via, enclosingBody(stack))
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

func (b *builder) addDefault(info *types.Info, key string, val ast.Expr, at token.Pos, via string, body *ast.BlockStmt) {
	if key == "" {
		return
	}
	tv, ok := info.Types[val]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		// a value read from the environment with a constant fallback: the fallback is the
		// default (MaxSteps: envInt("AGENT_MAX_STEPS", 10); max := 10; if v := os.Getenv(K);
		// v != "" { max, _ = strconv.Atoi(v) }; …{MaxSteps: max})
		if v, p, env := b.envFallback(info, val, at, body); env != "" {
			d := ir.Default{Key: key, Value: v, Pos: b.pos(p), Via: via}
			b.out.Defaults = append(b.out.Defaults, d)
			b.out.EnvDefaults = append(b.out.EnvDefaults, ir.EnvDefault{Pos: d.Pos, Var: env})
		}
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

// enclosingBody returns the body of the innermost function (declaration or literal) of an
// ast.Inspect stack.
func enclosingBody(stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			return f.Body
		case *ast.FuncDecl:
			return f.Body
		}
	}
	return nil
}

// envReads are the functions that read an environment variable by name.
var envReads = map[string]bool{"os.Getenv": true, "os.LookupEnv": true, "syscall.Getenv": true}

// envKey returns the variable name of a call of an envReads function with a constant name,
// "" if call is not one.
func envKey(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || !envReads[fn.Pkg().Path()+"."+fn.Name()] || len(call.Args) != 1 {
		return ""
	}
	if tv, ok := info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}

// positiveInt returns the value of a positive integer constant expression.
func positiveInt(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return "", false
	}
	if n, ok := constant.Int64Val(tv.Value); !ok || n <= 0 {
		return "", false
	}
	return tv.Value.ExactString(), true
}

// envFallback recognizes a value read from the environment with a constant fallback: a call of
// a source function that reads the environment, given the variable's name and the fallback as
// constants (envInt("MAX_STEPS", 10)), or a local variable of body defined as a constant and
// overwritten under a test of an environment read (max := 10; if v := os.Getenv("MAX_STEPS"); v
// != "" { max, _ = strconv.Atoi(v) }). It returns the fallback, where it is written and the
// variable's name; env "" when val is neither.
func (b *builder) envFallback(info *types.Info, val ast.Expr, at token.Pos, body *ast.BlockStmt) (v string, p token.Pos, env string) {
	switch x := ast.Unparen(val).(type) {
	case *ast.CallExpr:
		fn := typeutil.StaticCallee(info, x)
		if fn == nil || b.envDecls[fn] == nil {
			return "", 0, ""
		}
		var name, def string
		for _, a := range x.Args {
			tv, ok := info.Types[a]
			switch {
			case !ok || tv.Value == nil:
			case tv.Value.Kind() == constant.String && name == "":
				name = constant.StringVal(tv.Value)
			case tv.Value.Kind() == constant.Int && def == "":
				def, _ = positiveInt(info, a)
			}
		}
		if name == "" || def == "" {
			return "", 0, ""
		}
		reads := false
		ast.Inspect(b.envDecls[fn].Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if f, ok := typeutil.Callee(info, c).(*types.Func); ok && f.Pkg() != nil && envReads[f.Pkg().Path()+"."+f.Name()] {
					reads = true
				}
			}
			return !reads
		})
		if !reads {
			return "", 0, ""
		}
		return def, at, name
	case *ast.Ident:
		lv, ok := info.Uses[x].(*types.Var)
		if !ok || body == nil || lv.Parent() == nil || lv.Parent() == lv.Pkg().Scope() {
			return "", 0, ""
		}
		var def string
		var defAt token.Pos
		ast.Inspect(body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE && len(s.Lhs) == len(s.Rhs) {
					for i, l := range s.Lhs {
						if id, ok := l.(*ast.Ident); ok && info.Defs[id] == lv {
							def, _ = positiveInt(info, s.Rhs[i])
							defAt = s.Pos()
						}
					}
				}
			case *ast.ValueSpec:
				for i, id := range s.Names {
					if info.Defs[id] == lv && i < len(s.Values) {
						def, _ = positiveInt(info, s.Values[i])
						defAt = s.Pos()
					}
				}
			case *ast.IfStmt:
				if env != "" {
					return false
				}
				k := ""
				for _, part := range []ast.Node{s.Init, s.Cond} {
					if part == nil {
						continue
					}
					ast.Inspect(part, func(n ast.Node) bool {
						if c, ok := n.(*ast.CallExpr); ok && k == "" {
							k = envKey(info, c)
						}
						return k == ""
					})
				}
				if k != "" && assigns(info, s.Body, lv) {
					env = k
				}
			}
			return true
		})
		if def == "" || env == "" {
			return "", 0, ""
		}
		return def, defAt, env
	}
	return "", 0, ""
}

// assigns reports whether body assigns to the variable v.
func assigns(info *types.Info, body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if s, ok := n.(*ast.AssignStmt); ok && s.Tok == token.ASSIGN {
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
