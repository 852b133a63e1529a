package lifecycle

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

const maxSites = 12 // per kind and function, to keep facts small

// siteSet is what a stretch of code reaches.
type siteSet struct {
	model, tool []model.CallSite
	engines     []string // keys of engine-loop functions reached
	cancel      token.Pos
	calls       []*types.Func // functions of this package called
	loops       []model.Loop  // loops reached through callees (other packages, engines)
	writes      []model.RunStatus
	mintsID     bool
}

func (s *siteSet) addModel(c model.CallSite) {
	if len(s.model) < maxSites && !hasSite(s.model, c) {
		s.model = append(s.model, c)
	}
}

func (s *siteSet) addTool(c model.CallSite) {
	if len(s.tool) < maxSites && !hasSite(s.tool, c) {
		s.tool = append(s.tool, c)
	}
}

func hasSite(list []model.CallSite, c model.CallSite) bool {
	for _, x := range list {
		if x.Pos == c.Pos && x.Callee == c.Callee {
			return true
		}
	}
	return false
}

// aliases maps func-typed variables to the role site of the function value assigned to them
// (fn := m.Generate makes fn(...) a model call).
type aliases map[types.Object]aliasOf

type aliasOf struct {
	role roles.Role
	site model.CallSite
}

// findAliases binds func-typed local variables assigned from role functions (or from
// expressions that mention them, like a middleware chain around them).
func (a *state) findAliases(body ast.Node) aliases {
	al := aliases{}
	for range 2 {
		ast.Inspect(body, func(n ast.Node) bool {
			var lhs, rhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = n.Lhs, n.Rhs
			case *ast.ValueSpec:
				for _, id := range n.Names {
					lhs = append(lhs, id)
				}
				rhs = n.Values
			default:
				return true
			}
			if len(lhs) != len(rhs) {
				return true
			}
			for i, l := range lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				obj := a.pass.TypesInfo.ObjectOf(id)
				if obj == nil {
					continue
				}
				if _, isSig := obj.Type().Underlying().(*types.Signature); !isSig {
					continue
				}
				if _, done := al[obj]; done {
					continue
				}
				if src, ok := a.aliasSource(rhs[i], al); ok {
					al[obj] = src
				}
			}
			return true
		})
	}
	return al
}

func (a *state) aliasSource(e ast.Expr, al aliases) (aliasOf, bool) {
	var found aliasOf
	ok := false
	ast.Inspect(e, func(n ast.Node) bool {
		if ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			obj := a.pass.TypesInfo.Uses[n]
			if src, isAlias := al[obj]; isAlias {
				found, ok = src, true
				return false
			}
			if fn, isFn := obj.(*types.Func); isFn {
				for _, b := range a.res.Roles(fn) {
					if b.Role == roles.ModelCall || b.Role == roles.ToolCall {
						found = aliasOf{role: b.Role, site: model.CallSite{Callee: roles.ShortName(roles.Key(fn)), Provenance: b.Provenance}}
						ok = true
						return false
					}
				}
			}
		}
		return true
	})
	return found, ok
}

// scan collects what the code under root reaches. Nested function literals are included: a
// closure runs on behalf of the function that builds it. Code under a go statement (or passed
// to errgroup.Group.Go / sync.WaitGroup.Go) is marked parallel.
func (a *state) scan(root ast.Node, al aliases) *siteSet {
	s := &siteSet{}
	handled := map[ast.Node]bool{}
	var walk func(n ast.Node, par bool)
	walk = func(n ast.Node, par bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				walk(n.Call, true)
				return false
			case *ast.CallExpr:
				fun := ast.Unparen(n.Fun)
				handled[fun] = true
				if sel, ok := fun.(*ast.SelectorExpr); ok {
					handled[sel.Sel] = true
				}
				a.call(s, n, par, al)
				if a.isSpawner(n) {
					walk(n.Fun, par)
					for _, arg := range n.Args {
						walk(arg, true)
					}
					return false
				}
			case *ast.SelectorExpr:
				if !handled[n] {
					handled[n.Sel] = true
					a.value(s, n, a.pass.TypesInfo.Uses[n.Sel], par)
				}
			case *ast.Ident:
				if !handled[n] {
					a.value(s, n, a.pass.TypesInfo.Uses[n], par)
				}
			}
			return true
		})
	}
	walk(root, false)
	a.statusWrites(root, s)
	return s
}

// isSpawner reports calls that run their func arguments concurrently.
func (a *state) isSpawner(call *ast.CallExpr) bool {
	fn := staticCallee(a.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	switch roles.Key(fn) {
	case "golang.org/x/sync/errgroup.Group.Go", "sync.WaitGroup.Go", "golang.org/x/sync/errgroup.Group.TryGo":
		return true
	}
	return false
}

// value records a role function used as a value (a method value handed to an engine node).
func (a *state) value(s *siteSet, n ast.Node, obj types.Object, par bool) {
	fn, ok := obj.(*types.Func)
	if !ok {
		return
	}
	for _, b := range a.res.Roles(fn) {
		a.addRole(s, b, n, roles.ShortName(roles.Key(fn)), par)
	}
}

func (a *state) addRole(s *siteSet, b roles.Binding, n ast.Node, callee string, par bool) {
	site := model.CallSite{Pos: a.pos(n.Pos()), Source: a.src(n.Pos()), Callee: callee, Provenance: b.Provenance}
	switch b.Role {
	case roles.ModelCall:
		s.addModel(site)
	case roles.ToolCall:
		site.Parallel = par || b.Rule.Parallel
		s.addTool(site)
	case roles.EngineCall:
		if b.Rule.Loop != "" {
			s.engines = append(s.engines, b.Rule.Loop)
		}
	case roles.RunID:
		s.mintsID = true
	}
}

func (a *state) call(s *siteSet, call *ast.CallExpr, par bool, al aliases) {
	info := a.pass.TypesInfo
	obj := calleeObj(info, call.Fun)
	switch o := obj.(type) {
	case *types.Func:
		key := roles.Key(o)
		switch key {
		case "context.Context.Done", "context.Context.Err", "context.Cause":
			if s.cancel == token.NoPos {
				s.cancel = call.Pos()
			}
			return
		case "github.com/google/uuid.New", "github.com/google/uuid.NewString", "github.com/google/uuid.NewV7",
			"github.com/google/uuid.NewRandom", "crypto/rand.Text":
			s.mintsID = true
			return
		}
		leaf := false
		for _, b := range a.res.Roles(o) {
			a.addRole(s, b, call, roles.ShortName(key), par)
			switch b.Role {
			case roles.ModelCall, roles.ToolCall:
				leaf = true
			case roles.EngineCall:
				if fn := a.res.LookupFunc(b.Rule.Loop); fn != nil && a.funcs[fn] != nil {
					s.calls = append(s.calls, fn)
				}
			}
		}
		if !leaf {
			a.reach(s, o.Origin(), call, par)
		}
	case *types.Var:
		if src, ok := al[o]; ok {
			site := src.site
			site.Pos, site.Source = a.pos(call.Pos()), a.src(call.Pos())
			if src.role == roles.ModelCall {
				s.addModel(site)
			} else {
				site.Parallel = par
				s.addTool(site)
			}
			return
		}
		t := info.TypeOf(call.Fun)
		for _, b := range a.res.typeRoles(t) {
			a.addRole(s, b, call, roles.ShortName(roles.Key(roles.NamedOf(t).Obj())), par)
		}
	}
}

// reach adds what a called function reaches: its summary in this package, or its fact.
func (a *state) reach(s *siteSet, fn *types.Func, call *ast.CallExpr, par bool) {
	var sum *Summary
	if fn.Pkg() == a.pass.Pkg {
		if f := a.funcs[fn]; f != nil {
			s.calls = append(s.calls, fn)
			sum = f.summary
		}
	} else {
		var fact Summary
		if a.pass.ImportObjectFact(fn, &fact) {
			sum = &fact
			s.loops = append(s.loops, fact.Loops...)
		}
	}
	if sum == nil {
		return
	}
	name := roles.ShortName(roles.Key(fn))
	for _, m := range sum.Model {
		m.Via = append([]string{name}, m.Via...)
		s.addModel(m)
	}
	for _, t := range sum.Tool {
		t.Via = append([]string{name}, t.Via...)
		t.Parallel = t.Parallel || par
		s.addTool(t)
	}
	if sum.ChecksCancel && s.cancel == token.NoPos {
		s.cancel = call.Pos()
	}
	for _, w := range sum.Writes {
		s.writes = appendStatus(s.writes, w)
	}
	s.mintsID = s.mintsID || sum.MintsID
}

func appendStatus(list []model.RunStatus, st model.RunStatus) []model.RunStatus {
	for _, x := range list {
		if x == st {
			return list
		}
	}
	return append(list, st)
}
