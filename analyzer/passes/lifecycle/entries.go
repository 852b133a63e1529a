package lifecycle

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// entries lists the run entry points of the package: functions bound to run_entry, and
// exported functions that run a turn loop during the call (funcInfo.runs: a constructor that
// builds a graph or a closure running one later only reaches it).
func (a *state) entries() []model.Entry {
	var out []model.Entry
	for _, f := range a.order {
		if strings.HasSuffix(a.pass.Fset.Position(f.decl.Pos()).Filename, "_test.go") {
			continue
		}
		prov, ok := a.isEntry(f)
		if !ok {
			continue
		}
		e := model.Entry{
			Func:       roles.ShortName(roles.Key(f.obj)),
			Pos:        a.pos(f.decl.Pos()),
			Source:     a.src(f.decl.Name.Pos()),
			Provenance: prov,
			Loops:      append([]model.Loop(nil), f.reached...),
			Exits:      a.exits(f),
			IDs:        a.idSites(f),
		}
		sort.SliceStable(e.Loops, func(i, j int) bool { return e.Loops[i].Pos.Less(e.Loops[j].Pos) })
		if e.Loops == nil {
			e.Loops = []model.Loop{}
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}

func (a *state) isEntry(f *funcInfo) (model.Provenance, bool) {
	if b, ok := a.res.Has(f.obj, roles.RunEntry); ok {
		return b.Provenance, true
	}
	if len(f.reached) == 0 || !f.obj.Exported() || !f.runs {
		return model.Provenance{}, false
	}
	if sig := f.obj.Type().(*types.Signature); sig.Recv() != nil {
		if n := roles.NamedOf(sig.Recv().Type()); n == nil || !n.Obj().Exported() {
			return model.Provenance{}, false
		}
	}
	return model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: exported function runs a turn loop"}, true
}

// reachable returns f and the functions of this package it calls, transitively.
func (a *state) reachable(f *funcInfo) []*funcInfo {
	seen := map[*funcInfo]bool{f: true}
	list := []*funcInfo{f}
	for i := 0; i < len(list); i++ {
		for _, c := range list[i].sites.calls {
			if g := a.funcs[c]; g != nil && !seen[g] {
				seen[g] = true
				list = append(list, g)
			}
		}
	}
	return list
}

// exits lists how a run entry ends: its return statements, classified, and the terminal or
// waiting status writes of the code it runs in this package.
func (a *state) exits(f *funcInfo) []model.Exit {
	returns := a.returnsOf(f, f.decl, f.obj.Type().(*types.Signature), 0, map[ast.Node]bool{})
	out := append([]model.Exit(nil), returns...)
	for _, g := range a.reachable(f) {
		for _, w := range a.writesIn(g.decl.Body) {
			if !w.Status.Terminal() && w.Status != model.StatusWaiting {
				continue
			}
			detail := analysisutil.Render(a.pass.Fset, w.Expr, 60)
			if w.Stmt != nil {
				detail = analysisutil.Render(a.pass.Fset, w.Stmt, 80)
			}
			out = append(out, model.Exit{Pos: a.pos(w.Expr.Pos()), Source: a.src(w.Expr.Pos()), Outcome: string(w.Status), StopReason: w.StopReason, Detail: detail})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	if out == nil {
		out = []model.Exit{}
	}
	if len(out) > len(returns) && !a.writesInOwnBody(f) {
		// The run's outcome is written as a status: a successful return only started it.
		for i := range out {
			if out[i].Outcome == string(model.StatusCompleted) && out[i].Detail != "" && strings.HasPrefix(out[i].Detail, "return") {
				out[i].Outcome, out[i].StopReason = model.OutcomeStarted, ""
			}
		}
	}
	return out
}

// returnsOf classifies the return statements of fn. A return that passes on the results of a
// call is followed into what that call runs, when it is visible: a closure of this declaration,
// a function of this package, or a function literal handed to the call (a tracing wrapper).
// Returns of a function declaration that come before its run launches are not_started.
func (a *state) returnsOf(f *funcInfo, fn ast.Node, sig *types.Signature, depth int, seen map[ast.Node]bool) []model.Exit {
	if seen[fn] || depth > 4 {
		return nil
	}
	seen[fn] = true
	var out []model.Exit
	ast.Inspect(funcBody(fn), func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ex := a.classifyExit(x, sig)
			var inner []model.Exit
			if ex.Outcome == model.OutcomePropagated && len(x.Results) == 1 {
				if call, ok := ast.Unparen(x.Results[0]).(*ast.CallExpr); ok {
					for _, target := range a.runsOf(f, call) {
						inner = append(inner, a.returnsOf(f, target, a.sigOf(target), depth+1, seen)...)
					}
				}
			}
			if len(inner) > 0 {
				out = append(out, inner...)
			} else {
				out = append(out, ex)
			}
		}
		return true
	})
	if d, ok := fn.(*ast.FuncDecl); ok {
		if g := a.funcs[a.declObj(d)]; g != nil {
			a.markNotStarted(g, out)
		}
	}
	return out
}

// declObj returns the function a declaration declares.
func (a *state) declObj(d *ast.FuncDecl) *types.Func {
	fn, _ := a.pass.TypesInfo.Defs[d.Name].(*types.Func)
	return fn
}

// runsOf returns the function bodies a call visibly runs: the closure assigned to the variable
// it calls, the declaration of the function of this package it calls, and function literals
// passed to it.
func (a *state) runsOf(f *funcInfo, call *ast.CallExpr) []ast.Node {
	var out []ast.Node
	switch obj := calleeObj(a.pass.TypesInfo, call.Fun).(type) {
	case *types.Var:
		ast.Inspect(f.decl.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && a.pass.TypesInfo.ObjectOf(id) == obj {
						if lit, ok := as.Rhs[i].(*ast.FuncLit); ok {
							out = append(out, lit)
						}
					}
				}
			}
			return true
		})
	case *types.Func:
		if g := a.funcs[obj.Origin()]; g != nil {
			out = append(out, g.decl)
		}
	}
	for _, arg := range call.Args {
		if lit, ok := arg.(*ast.FuncLit); ok {
			out = append(out, lit)
		}
	}
	return out
}

// writesInOwnBody reports whether f itself (not a helper or a goroutine it starts) writes a
// terminal or waiting status.
func (a *state) writesInOwnBody(f *funcInfo) bool {
	for _, w := range a.writesIn(f.decl.Body) {
		if w.Status.Terminal() || w.Status == model.StatusWaiting {
			return true
		}
	}
	return false
}

func (a *state) classifyExit(ret *ast.ReturnStmt, sig *types.Signature) model.Exit {
	ex := model.Exit{Pos: a.pos(ret.Pos()), Source: a.src(ret.Pos()), Detail: analysisutil.Render(a.pass.Fset, ret, 80)}
	res := sig.Results()
	hasErr := res.Len() > 0 && roles.IsError(res.At(res.Len()-1).Type())
	switch {
	case len(ret.Results) == 1 && res.Len() > 1:
		ex.Outcome = model.OutcomePropagated // return f(...) passes a callee's results through
		return ex
	case !hasErr || len(ret.Results) == 0:
		ex.Outcome = model.OutcomePropagated
		if !hasErr {
			for _, r := range ret.Results {
				if st, ok := a.StatusOf(r); ok {
					ex.Outcome = string(st)
				}
				if sr, ok := a.StopReasonOf(r); ok {
					ex.StopReason = sr
				}
			}
		}
		return ex
	}
	e := ret.Results[len(ret.Results)-1]
	if r, ok := a.boundRets[ret.Pos()]; ok {
		ex.Outcome, ex.StopReason = string(model.StatusFailed), r
		return ex
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "nil" {
		ex.Outcome, ex.StopReason = string(model.StatusCompleted), model.StopGoalReached
		if returnsStream(res) {
			// The caller drains the run from what is returned: it is still going.
			ex.Outcome, ex.StopReason = model.OutcomeStarted, ""
		}
		return ex
	}
	if a.mentionsCancel(e) {
		ex.Outcome, ex.StopReason = string(model.StatusCancelled), model.StopCancelled
		return ex
	}
	if v, reason := a.sentinel(e); v != nil {
		if reason == "" {
			if b, ok := a.res.Has(v, roles.BoundError); ok {
				reason = b.Rule.StopReason
			}
		}
		ex.Outcome, ex.StopReason = string(model.StatusFailed), reason
		if reason == "" {
			ex.StopReason = model.StopError
		}
		return ex
	}
	ex.Outcome, ex.StopReason = string(model.StatusFailed), model.StopError
	return ex
}

// mentionsCancel reports whether e is or wraps ctx.Err(), context.Canceled or
// context.Cause(ctx).
func (a *state) mentionsCancel(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		var obj types.Object
		switch x := n.(type) {
		case *ast.SelectorExpr:
			obj = a.pass.TypesInfo.Uses[x.Sel]
		case *ast.Ident:
			obj = a.pass.TypesInfo.Uses[x]
		}
		switch roles.Key(obj) {
		case "context.Context.Err", "context.Canceled", "context.Cause":
			found = true
		}
		return !found
	})
	return found
}

// idSites lists where ids are minted (uuid calls, run_id functions) and where parent run ids
// are passed on, in the code a run entry runs in this package.
func (a *state) idSites(f *funcInfo) []model.IDSite {
	var out []model.IDSite
	for _, g := range a.reachable(f) {
		ast.Inspect(g.decl.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				fn := staticCallee(a.pass.TypesInfo, x)
				if fn == nil {
					return true
				}
				minted := false
				switch roles.Key(fn) {
				case "github.com/google/uuid.New", "github.com/google/uuid.NewString", "github.com/google/uuid.NewV7",
					"github.com/google/uuid.NewRandom", "crypto/rand.Text":
					minted = true
				}
				if _, ok := a.res.Has(fn, roles.RunID); ok {
					minted = true
				}
				if minted {
					out = append(out, model.IDSite{Pos: a.pos(x.Pos()), Source: a.src(x.Pos()), Kind: model.IDMinted, What: analysisutil.Render(a.pass.Fset, x, 60)})
				}
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && v.IsField() && a.isParentField(v) {
						out = append(out, model.IDSite{Pos: a.pos(x.Pos()), Source: a.src(x.Pos()), Kind: model.IDParent, What: analysisutil.Render(a.pass.Fset, x, 60)})
					}
				}
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok {
						if v, ok := a.pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok && v.IsField() && a.isParentField(v) {
							out = append(out, model.IDSite{Pos: a.pos(x.Pos()), Source: a.src(x.Pos()), Kind: model.IDParent, What: analysisutil.Render(a.pass.Fset, x, 60)})
						}
					}
				}
			}
			return true
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}

func (a *state) isParentField(v *types.Var) bool {
	for _, b := range a.res.declared[v] {
		if b.Role == roles.ParentID {
			return true
		}
	}
	n := strings.ToLower(strings.ReplaceAll(v.Name(), "_", ""))
	return n == "parentrunid" || n == "parentid"
}

// returnsStream reports whether results (before the error) include a stream the caller reads
// the run's events from: a channel, an iter.Seq-shaped function, or a type with a Next method
// that returns a bool last (an iterator such as eino's AsyncIterator).
func returnsStream(res *types.Tuple) bool {
	for i := 0; i < res.Len()-1; i++ {
		if isStream(res.At(i).Type()) {
			return true
		}
	}
	return false
}

func isStream(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return u.Dir() != types.SendOnly
	case *types.Signature: // func(yield func(...) bool)
		if u.Params().Len() == 1 && u.Results().Len() == 0 {
			if y, ok := u.Params().At(0).Type().Underlying().(*types.Signature); ok && y.Results().Len() == 1 {
				b, ok := y.Results().At(0).Type().Underlying().(*types.Basic)
				return ok && b.Kind() == types.Bool
			}
		}
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Next")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	r := fn.Type().(*types.Signature).Results()
	if r.Len() == 0 {
		return false
	}
	b, ok := r.At(r.Len() - 1).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}
