package retryparent

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// outcome is what a condition being true (or false) says about an attempt.
type outcome int

const (
	unknown   outcome = iota
	failed            // the attempt's error is non-nil
	succeeded         // the attempt's error is nil
)

// retryFinder decides, for the run starts of one function, whether each is a retry: a start
// that runs again because an earlier attempt failed.
//
// The failure of an attempt is an error value that comes from a run start (its error result)
// or from a call on what a run start returned (run.Wait(ctx), wait(ctx, run)), or a field of
// that result. A start is a retry when
//
//   - it is inside a loop that iterates again on the attempt's failure: the loop is left on a
//     branch where the attempt's error is nil (return, break), or continued on a branch where
//     it is not (continue), or the loop condition holds while it is not; a loop whose work
//     changes between iterations (newWork) starts a new run each time instead;
//   - or it is in a branch taken only when an earlier run start of the same function failed.
//
// A loop whose iterations go on for another reason (a crash test that reopens a runtime and
// starts or resumes until nothing crashed, a loop that leaves on the first failure) starts new
// runs that are not retries.
type retryFinder struct {
	pass *analysis.Pass
	res  *lifecycle.Result
	fn   inspector.Cursor // the *ast.FuncDecl or *ast.FuncLit
	// results are the non-error variables a run start of fn assigns (the run, its handle).
	results map[types.Object]bool
	// assigns are fn's assignments, in source order: for each variable, what it was set to.
	assigns []assignment
}

type assignment struct {
	obj types.Object
	at  token.Pos // the end of the assigning statement
	rhs ast.Expr  // the call or value assigned (a multi-value call for a tuple assignment)
	in  ast.Node  // the assigning statement
}

func newRetryFinder(pass *analysis.Pass, res *lifecycle.Result, fn inspector.Cursor) *retryFinder {
	f := &retryFinder{pass: pass, res: res, fn: fn, results: map[types.Object]bool{}}
	body := funcBody(fn.Node())
	if body == nil {
		return f
	}
	record := func(stmt ast.Node, lhs []ast.Expr, rhs []ast.Expr) {
		for i, l := range lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			obj := pass.TypesInfo.ObjectOf(id)
			if obj == nil {
				continue
			}
			var r ast.Expr
			switch {
			case len(rhs) == len(lhs):
				r = rhs[i]
			case len(rhs) == 1:
				r = rhs[0]
			default:
				continue
			}
			f.assigns = append(f.assigns, assignment{obj: obj, at: stmt.End(), rhs: r, in: stmt})
			if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && f.isStart(call) && !roles.IsError(obj.Type()) {
				f.results[obj] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			record(s, s.Lhs, s.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(s.Names))
			for i, id := range s.Names {
				lhs[i] = id
			}
			record(s, lhs, s.Values)
		}
		return true
	})
	return f
}

func funcBody(n ast.Node) *ast.BlockStmt {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

func (f *retryFinder) isStart(call *ast.CallExpr) bool {
	for _, b := range f.res.CallRoles(call) {
		if b.Role == roles.RunStart {
			return true
		}
	}
	return false
}

// mentionsResult reports whether n uses a variable a run start assigned.
func (f *retryFinder) mentionsResult(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.results[f.pass.TypesInfo.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// attemptCall reports whether call is a run start or a call on what one returned.
func (f *retryFinder) attemptCall(call *ast.CallExpr) bool {
	if f.isStart(call) {
		return true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && f.mentionsResult(sel.X) {
		return true
	}
	for _, a := range call.Args {
		if f.mentionsResult(a) {
			return true
		}
	}
	return false
}

// attemptErr reports whether e, read at pos, is an attempt's error: an error variable last
// assigned (within scope) from an attempt call, such a call itself, or an error field of a
// run start's result.
func (f *retryFinder) attemptErr(e ast.Expr, pos token.Pos, scope ast.Node) bool {
	t := f.pass.TypesInfo.TypeOf(e)
	if t == nil || !roles.IsError(t) {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return f.attemptCall(e)
	case *ast.SelectorExpr:
		return f.mentionsResult(e.X)
	case *ast.Ident:
		obj := f.pass.TypesInfo.Uses[e]
		var last *assignment
		for i := range f.assigns {
			a := &f.assigns[i]
			if a.obj == obj && a.at <= pos && a.in.Pos() >= scope.Pos() && a.in.End() <= scope.End() {
				if last == nil || a.at > last.at {
					last = a
				}
			}
		}
		if last == nil {
			return false
		}
		call, ok := ast.Unparen(last.rhs).(*ast.CallExpr)
		return ok && f.attemptCall(call)
	}
	return false
}

// implies says what a condition being true, and being false, tells about an attempt whose
// error is recognized by isErr.
func (f *retryFinder) implies(cond ast.Expr, isErr func(ast.Expr) bool) (onTrue, onFalse outcome) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			t, fl := f.implies(e.X, isErr)
			return fl, t
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ:
			var nilCmp bool
			switch {
			case f.isNil(e.Y) && isErr(e.X), f.isNil(e.X) && isErr(e.Y):
				nilCmp = true
			case isErr(e.X) || isErr(e.Y): // err == ErrBusy
				if e.Op == token.EQL {
					return failed, unknown
				}
				return unknown, failed
			default:
				return unknown, unknown
			}
			if nilCmp && e.Op == token.NEQ {
				return failed, succeeded
			}
			return succeeded, failed
		case token.LAND:
			tx, fx := f.implies(e.X, isErr)
			ty, fy := f.implies(e.Y, isErr)
			return either(tx, ty), both(fx, fy)
		case token.LOR:
			tx, fx := f.implies(e.X, isErr)
			ty, fy := f.implies(e.Y, isErr)
			return both(tx, ty), either(fx, fy)
		}
	case *ast.CallExpr: // errors.Is(err, ErrBusy), errors.As(err, &target)
		if fn, ok := typeutil.Callee(f.pass.TypesInfo, e).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "errors" &&
			(fn.Name() == "Is" || fn.Name() == "As") && len(e.Args) > 0 && isErr(e.Args[0]) {
			return failed, unknown
		}
	}
	return unknown, unknown
}

func either(a, b outcome) outcome {
	if a != unknown {
		return a
	}
	return b
}

func both(a, b outcome) outcome {
	if a == b {
		return a
	}
	return unknown
}

func (f *retryFinder) isNil(e ast.Expr) bool {
	tv, ok := f.pass.TypesInfo.Types[e]
	return ok && tv.IsNil()
}

// isRetry reports whether the run start at cur is a retry.
func (f *retryFinder) isRetry(cur inspector.Cursor) bool {
	call := cur.Node().(*ast.CallExpr)
	for c := cur.Parent(); c.Node() != nil && c != f.fn; c = c.Parent() {
		switch n := c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if f.retryLoop(c, call) {
				return true
			}
		case *ast.IfStmt:
			if f.inFailureBranch(n, call) {
				return true
			}
		}
	}
	return false
}

// inFailureBranch reports whether call is in a branch of ifs taken only when an earlier run
// start of the function (or one in the if's init) failed.
func (f *retryFinder) inFailureBranch(ifs *ast.IfStmt, call *ast.CallExpr) bool {
	if ifs.Cond.Pos() <= call.Pos() && call.End() <= ifs.Cond.End() || ifs.Init != nil && ifs.Init.Pos() <= call.Pos() && call.End() <= ifs.Init.End() {
		return false // the first attempt, not the retry
	}
	isErr := func(e ast.Expr) bool { return f.attemptErr(e, ifs.Cond.Pos(), f.fn.Node()) }
	onTrue, onFalse := f.implies(ifs.Cond, isErr)
	if ifs.Body.Pos() <= call.Pos() && call.End() <= ifs.Body.End() {
		return onTrue == failed
	}
	return onFalse == failed
}

// retryLoop reports whether the loop at lc iterates again because an attempt started in it
// failed.
func (f *retryFinder) retryLoop(lc inspector.Cursor, call *ast.CallExpr) bool {
	loop := lc.Node()
	if f.newWork(loop, call) {
		return false
	}
	var body *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.ForStmt:
		body = l.Body
		if l.Cond != nil {
			isErr := func(e ast.Expr) bool { return f.attemptErr(e, body.End(), body) }
			// The loop goes on only on failure, or always on failure.
			if onTrue, onFalse := f.implies(l.Cond, isErr); onTrue == failed || onFalse == succeeded {
				return true
			}
		}
	case *ast.RangeStmt:
		body = l.Body
	}
	bc, ok := lc.FindNode(body)
	if !ok {
		return false
	}
	retry := false
	bc.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.IfStmt)(nil)}, func(c inspector.Cursor) bool {
		if retry {
			return false
		}
		ifs, ok := c.Node().(*ast.IfStmt)
		if !ok {
			return false // a closure runs later, if at all
		}
		if ifs.End() <= call.Pos() {
			return true
		}
		isErr := func(e ast.Expr) bool { return f.attemptErr(e, ifs.Cond.Pos(), body) }
		onTrue, onFalse := f.implies(ifs.Cond, isErr)
		if onTrue == unknown && onFalse == unknown {
			return true
		}
		// A branch goes with success when it is taken only on success or always on success
		// (the else of "err != nil && attempt < max"); likewise with failure.
		branch := func(taken, other outcome, stmt ast.Stmt) {
			if stmt == nil {
				return
			}
			sc, ok := c.FindNode(stmt)
			if !ok {
				return
			}
			onSuccess := taken == succeeded || other == failed
			onFailure := taken == failed || other == succeeded
			if onSuccess && f.leaves(sc, lc) || onFailure && f.continues(sc, lc) {
				retry = true
			}
		}
		branch(onTrue, onFalse, ifs.Body)
		branch(onFalse, onTrue, ifs.Else)
		return true
	})
	return retry
}

// newWork reports whether the work call starts changes from one iteration of loop to the next:
// an argument depends on a variable the loop changes (its range element or counter, a line it
// reads, any variable it declares or assigns) other than what the attempt itself returned.
// The context, and the parent-id and attempt fields of an options literal, are not the work:
// a retry gives each attempt its own deadline and attempt number.
func (f *retryFinder) newWork(loop ast.Node, call *ast.CallExpr) bool {
	changed := map[types.Object]bool{}
	fromStart := map[types.Object]bool{}
	mark := func(e ast.Expr, rhs ast.Expr) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || id.Name == "_" {
			return
		}
		obj := f.pass.TypesInfo.ObjectOf(id)
		if obj == nil {
			return
		}
		if c, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && f.isStart(c) {
			fromStart[obj] = true
			return
		}
		changed[obj] = true
	}
	ast.Inspect(loop, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			mark(s.Key, nil)
			if s.Value != nil {
				mark(s.Value, nil)
			}
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				var rhs ast.Expr
				if len(s.Rhs) == len(s.Lhs) {
					rhs = s.Rhs[i]
				} else if len(s.Rhs) == 1 {
					rhs = s.Rhs[0]
				}
				mark(l, rhs)
			}
		case *ast.IncDecStmt:
			mark(s.X, nil)
		case *ast.ValueSpec:
			for i, id := range s.Names {
				var rhs ast.Expr
				if len(s.Values) == len(s.Names) {
					rhs = s.Values[i]
				} else if len(s.Values) == 1 {
					rhs = s.Values[0]
				}
				mark(id, rhs)
			}
		}
		return true
	})
	if len(changed) == 0 {
		return false
	}
	uses := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && changed[f.pass.TypesInfo.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	for _, a := range call.Args {
		if t := f.pass.TypesInfo.TypeOf(a); t != nil && isContext(t) {
			continue
		}
		lit := optionsLit(a)
		if lit == nil {
			if uses(a) {
				return true
			}
			continue
		}
		t := f.pass.TypesInfo.TypeOf(lit)
		st, _ := t.Underlying().(*types.Struct)
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				if uses(e) {
					return true
				}
				continue
			}
			if key, ok := kv.Key.(*ast.Ident); ok && st != nil && f.identityField(t, st, key.Name) {
				continue
			}
			if uses(kv.Value) {
				return true
			}
		}
	}
	return false
}

// optionsLit is the composite literal a is, or takes the address of.
func optionsLit(a ast.Expr) *ast.CompositeLit {
	switch e := ast.Unparen(a).(type) {
	case *ast.CompositeLit:
		return e
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			lit, _ := ast.Unparen(e.X).(*ast.CompositeLit)
			return lit
		}
	}
	return nil
}

// identityField reports whether the field name of st is bound to the parent-id or attempt
// role.
func (f *retryFinder) identityField(t types.Type, st *types.Struct, name string) bool {
	for i := 0; i < st.NumFields(); i++ {
		if fld := st.Field(i); fld.Name() == name {
			for _, b := range f.res.FieldRoles(t, fld) {
				if b.Role == roles.ParentID || b.Role == roles.Attempt {
					return true
				}
			}
		}
	}
	return false
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// leaves reports whether the statement at sc can leave the loop at lc: a return, or a break
// (or a continue of an outer loop) that targets lc or a statement around it.
func (f *retryFinder) leaves(sc, lc inspector.Cursor) bool {
	return f.jumps(sc, true, func(br *ast.BranchStmt, target inspector.Cursor) bool {
		if target == lc {
			return br.Tok == token.BREAK
		}
		return target.Contains(lc)
	})
}

// continues reports whether the statement at sc can continue the loop at lc.
func (f *retryFinder) continues(sc, lc inspector.Cursor) bool {
	return f.jumps(sc, false, func(br *ast.BranchStmt, target inspector.Cursor) bool {
		return target == lc && br.Tok == token.CONTINUE
	})
}

// jumps reports whether the statement at sc (not counting closures) holds a return, when
// returns is set, or a break or continue whose target ok accepts.
func (f *retryFinder) jumps(sc inspector.Cursor, returns bool, ok func(*ast.BranchStmt, inspector.Cursor) bool) bool {
	found := false
	sc.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.ReturnStmt)(nil), (*ast.BranchStmt)(nil)}, func(c inspector.Cursor) bool {
		if found {
			return false
		}
		switch n := c.Node().(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = returns
		case *ast.BranchStmt:
			if t, has := f.target(c, n); has {
				found = ok(n, t)
			}
		}
		return true
	})
	return found
}

// target is the statement a break or continue at c jumps out of or to.
func (f *retryFinder) target(c inspector.Cursor, br *ast.BranchStmt) (inspector.Cursor, bool) {
	if br.Tok != token.BREAK && br.Tok != token.CONTINUE {
		return inspector.Cursor{}, false
	}
	var label types.Object
	if br.Label != nil {
		label = f.pass.TypesInfo.Uses[br.Label]
	}
	for p := c.Parent(); p.Node() != nil; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return inspector.Cursor{}, false
		case *ast.LabeledStmt:
			if label != nil && f.pass.TypesInfo.Defs[n.Label] == label {
				s, ok := p.FindNode(n.Stmt)
				return s, ok
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if label == nil {
				return p, true
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if label == nil && br.Tok == token.BREAK {
				return p, true
			}
		}
	}
	return inspector.Cursor{}, false
}
