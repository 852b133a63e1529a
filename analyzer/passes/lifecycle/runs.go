package lifecycle

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/cfg"
)

// A function runs a turn loop when the loop executes during the call: the loop is in its body
// (or in a closure the call runs), or the body calls an engine, or a function that runs one.
// Reaching a loop is broader: a constructor that builds a graph, or stores a closure that will
// call the engine later, reaches the loop without running it, and is not a run entry (judged by
// what the function does, not by its name).

// runningLits returns the function literals of f that run during a call of f: called in place
// (including go and defer statements), handed to a call that runs its function arguments
// (errgroup.Go), or assigned to a variable that f calls. Literals that are stored, returned
// or handed to other calls (graph nodes, options, handlers) only run later, if at all.
func (a *state) runningLits(f *funcInfo) map[*ast.FuncLit]bool {
	info := a.pass.TypesInfo
	parents := parentMap(f.decl)
	called := map[types.Object]bool{}
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					called[v] = true
				}
			}
		}
		return true
	})
	direct := func(lit *ast.FuncLit) bool {
		switch p := parents[lit].(type) {
		case *ast.CallExpr:
			if ast.Unparen(p.Fun) == lit {
				return true
			}
			return a.isSpawner(p)
		case *ast.ParenExpr:
			if call, ok := parents[p].(*ast.CallExpr); ok && ast.Unparen(call.Fun) == lit {
				return true
			}
		case *ast.AssignStmt:
			for i, r := range p.Rhs {
				if r == lit && i < len(p.Lhs) {
					if id, ok := p.Lhs[i].(*ast.Ident); ok && called[info.ObjectOf(id)] {
						return true
					}
				}
			}
		case *ast.ValueSpec:
			for i, r := range p.Values {
				if r == lit && i < len(p.Names) && called[info.ObjectOf(p.Names[i])] {
					return true
				}
			}
		}
		return false
	}
	running := map[*ast.FuncLit]bool{}
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(m ast.Node) bool {
			lit, ok := m.(*ast.FuncLit)
			if !ok {
				return true
			}
			if direct(lit) {
				running[lit] = true
				visit(lit.Body)
			}
			return false
		})
	}
	visit(f.decl.Body)
	return running
}

// inspectRunning walks the code of f that runs during a call of f: its body and its running
// function literals.
func inspectRunning(f *funcInfo, lits map[*ast.FuncLit]bool, visit func(ast.Node) bool) {
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && !lits[lit] {
			return false
		}
		return visit(n)
	})
}

// runsDirectly reports whether f runs a turn loop without the help of another function of this
// package: one of its loops is in running code, it is bound to an engine call, or its running
// code calls an engine or a function of another package that runs a loop (fact). It also
// returns the functions of this package its running code calls.
func (a *state) runsDirectly(f *funcInfo, lits map[*ast.FuncLit]bool) (runs bool, callees []*types.Func) {
	for _, l := range f.loops {
		if l.Func == f.decl {
			return true, nil
		}
		if lit, ok := l.Func.(*ast.FuncLit); ok && lits[lit] {
			return true, nil
		}
	}
	if b, ok := a.res.Has(f.obj, roles.EngineCall); ok && b.Rule.Loop != "" {
		return true, nil
	}
	inspectRunning(f, lits, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || runs {
			return !runs
		}
		fn, ok := calleeObj(a.pass.TypesInfo, call.Fun).(*types.Func)
		if !ok {
			return true
		}
		fn = fn.Origin()
		if b, ok := a.res.Has(fn, roles.EngineCall); ok && b.Rule.Loop != "" {
			runs = true
		} else if a.funcs[fn] != nil {
			callees = append(callees, fn)
		} else if fn.Pkg() != a.pass.Pkg {
			var s Summary
			runs = a.pass.ImportObjectFact(fn, &s) && s.Runs
		}
		return !runs
	})
	return runs, callees
}

// computeRuns sets funcInfo.runs for every function of the package, to a fixpoint over the
// calls their running code makes.
func (a *state) computeRuns() {
	callees := map[*funcInfo][]*types.Func{}
	for _, f := range a.order {
		f.lits = a.runningLits(f)
		f.runs, callees[f] = a.runsDirectly(f, f.lits)
	}
	for changed := true; changed; {
		changed = false
		for _, f := range a.order {
			if f.runs {
				continue
			}
			for _, c := range callees[f] {
				if a.funcs[c].runs {
					f.runs, changed = true, true
					break
				}
			}
		}
	}
}

// startsRunCall reports whether a call starts or drives a run: its callee is bound to run_entry,
// run_start or engine_call, or runs a turn loop.
func (a *state) startsRunCall(call *ast.CallExpr) bool {
	for _, b := range a.callRoles(call) {
		switch b.Role {
		case roles.RunEntry, roles.RunStart, roles.EngineCall:
			return true
		}
	}
	fn, ok := calleeObj(a.pass.TypesInfo, call.Fun).(*types.Func)
	if !ok {
		return false
	}
	fn = fn.Origin()
	if f := a.funcs[fn]; f != nil {
		return f.runs
	}
	var s Summary
	return fn.Pkg() != a.pass.Pkg && a.pass.ImportObjectFact(fn, &s) && s.Runs
}

// callRoles returns the roles of the function a call calls: its own roles, or those of the
// named func type or role-bound function value it calls through.
func (a *state) callRoles(call *ast.CallExpr) []roles.Binding {
	info := a.pass.TypesInfo
	obj := calleeObj(info, call.Fun)
	if fn, ok := obj.(*types.Func); ok {
		return a.res.Roles(fn)
	}
	if obj != nil {
		return a.res.typeRoles(info.TypeOf(call.Fun))
	}
	return nil
}

// OutcomeNotStarted is the outcome of a return from a run entry that no path from the run's
// launch reaches: a check that fails (or a shortcut that succeeds) before the run starts. The
// caller gets an error, or nothing, and no run exists: it is not one of the run's exits.
const OutcomeNotStarted = "not_started"

// launches returns the nodes of g that launch the run of entry f: nodes holding a call that
// starts a run or a loop f runs (a closure recursion is launched where its variable is called).
func (a *state) launches(f *funcInfo, g *cfg.CFG) []ast.Node {
	type span struct{ pos, end token.Pos }
	var spans []span
	loopLits := map[types.Object]bool{}
	for _, l := range f.loops {
		switch n := l.Node.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if l.Func == f.decl || f.lits[asLit(l.Func)] {
				spans = append(spans, span{n.Pos(), n.End()})
			}
		case *ast.FuncDecl:
			return nil // a recursion of the entry itself: the run starts with the call
		case *ast.FuncLit:
			if v := a.litVar(f, n); v != nil {
				loopLits[v] = true
			}
		}
	}
	inspectRunning(f, f.lits, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if a.startsRunCall(call) {
			spans = append(spans, span{call.Pos(), call.End()})
		} else if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && loopLits[a.pass.TypesInfo.Uses[id]] {
			spans = append(spans, span{call.Pos(), call.End()})
		}
		return true
	})
	var out []ast.Node
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			for _, s := range spans {
				// the node holds the launching call, or is part of the loop
				if (n.Pos() <= s.pos && s.end <= n.End()) || (s.pos <= n.Pos() && n.End() <= s.end) {
					out = append(out, n)
					break
				}
			}
		}
	}
	return out
}

func asLit(n ast.Node) *ast.FuncLit {
	lit, _ := n.(*ast.FuncLit)
	return lit
}

// litVar returns the variable a function literal of f is assigned to, if any.
func (a *state) litVar(f *funcInfo, lit *ast.FuncLit) types.Object {
	var v types.Object
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for i, r := range as.Rhs {
				if r == lit && i < len(as.Lhs) {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						v = a.pass.TypesInfo.ObjectOf(id)
					}
				}
			}
		}
		return v == nil
	})
	return v
}

// markNotStarted relabels the returns of f (an entry, or a function whose returns an entry
// passes on) that no launch of its run reaches: they end the call before a run exists. When
// the run is launched only in goroutines, a successful return after the launch is "started":
// the run's outcome comes later. Nothing changes when the launch is not visible in f's body.
func (a *state) markNotStarted(f *funcInfo, exits []model.Exit) {
	g := cfg.New(f.decl.Body, func(*ast.CallExpr) bool { return true })
	starts := a.launches(f, g)
	if len(starts) == 0 {
		return
	}
	reached := map[token.Pos]bool{}
	for _, s := range starts {
		if r, ok := s.(*ast.ReturnStmt); ok {
			reached[r.Pos()] = true
		}
		start := s
		analysisutil.Search(g, start, func(ast.Node) bool { return false }, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok {
				reached[r.Pos()] = true
			}
			return false
		}, false)
	}
	var rets []*ast.ReturnStmt
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			rets = append(rets, x)
		}
		return true
	})
	early := map[model.Position]bool{}
	for _, r := range rets {
		if !reached[r.Pos()] {
			early[a.pos(r.Pos())] = true
		}
	}
	// A run launched only in goroutines is still going when f returns without an error.
	async := true
	for _, s := range starts {
		if _, ok := s.(*ast.GoStmt); !ok {
			async = false
		}
	}
	for i := range exits {
		x := &exits[i]
		own := false
		for _, r := range rets {
			own = own || a.pos(r.Pos()) == x.Pos
		}
		switch {
		case !own:
		case early[x.Pos]:
			switch x.Outcome {
			case string(model.StatusFailed), string(model.StatusCompleted), string(model.StatusCancelled):
				x.Outcome, x.StopReason = OutcomeNotStarted, ""
			}
		case async && x.Outcome == string(model.StatusCompleted):
			x.Outcome, x.StopReason = model.OutcomeStarted, ""
		}
	}
}
