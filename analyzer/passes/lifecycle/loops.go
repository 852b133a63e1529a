package lifecycle

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// Loop is a turn loop found in this package.
type Loop struct {
	// Node is the *ast.ForStmt or *ast.RangeStmt, or for a recursion the recursive
	// *ast.FuncDecl or *ast.FuncLit.
	Node ast.Node
	// Func is the innermost *ast.FuncDecl or *ast.FuncLit holding the loop.
	Func ast.Node
	// BoundNode is the comparison that enforces the bound, if any.
	BoundNode ast.Node
	// CancelNode is the cancellation check, if any.
	CancelPos token.Pos
	// HasContext is true when a context.Context is in scope at the loop.
	HasContext bool
	// Retry is true for a retry loop: a for loop around a model call that calls no tools and
	// either waits between iterations (time.Sleep, a timer) or leaves on the call's success. It
	// repeats one model call rather than feeding tool results to the next decision, so it is not
	// a turn loop: it is not in the map and does not make its function a run entry, but the
	// checks still look at its bound and cancellation.
	Retry bool
	// Waits is true for a retry loop that pauses between attempts (time.Sleep, a timer, a
	// select, a backoff helper): a cancelled run keeps waiting there. A bounded retry that
	// does not wait ends after its few attempts, each failing at once on the cancelled context.
	Waits bool
	// Map is the loop as the lifecycle map shows it.
	Map model.Loop
	// Recognized is the structural recognizer's view of the same loop (its model and tool call
	// sites), when it found it; nil otherwise.
	Recognized *model.Loop
}

// parentMap maps each node under root to its parent.
func parentMap(root ast.Node) map[ast.Node]ast.Node {
	parents := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return parents
}

func funcType(n ast.Node) *ast.FuncType {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Type
	case *ast.FuncLit:
		return f.Type
	}
	return nil
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

// findLoops finds the turn loops of one function declaration (including its closures).
func (a *state) findLoops(f *funcInfo) []*Loop {
	var loops []*Loop
	parents := parentMap(f.decl)
	engine := false
	var engineBinding roles.Binding
	if b, ok := a.res.Has(f.obj, roles.EngineLoop); ok {
		engine, engineBinding = true, b
	}
	enclosing := func(n ast.Node) ast.Node {
		for p := parents[n]; p != nil; p = parents[p] {
			if _, ok := p.(*ast.FuncLit); ok {
				return p
			}
			if _, ok := p.(*ast.FuncDecl); ok {
				return p
			}
		}
		return f.decl
	}
	engineDone := false
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch l := n.(type) {
		case *ast.ForStmt:
			body = l.Body
		case *ast.RangeStmt:
			body = l.Body
		default:
			return true
		}
		sites := a.scan(body, f.al)
		kind := model.LoopFor
		prov := model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: loop reaches a model call"}
		if engine && !engineDone && enclosing(n) == f.decl {
			kind, prov = model.LoopEngine, engineBinding.Provenance
			engineDone = true
			sites.model, sites.tool = a.packageSites()
		} else if len(sites.model) == 0 {
			return true
		} else if len(sites.model) > 0 {
			prov = sites.model[0].Provenance
			prov.Rule = "loop reaches " + sites.model[0].Callee + " (" + prov.Rule + ")"
		}
		retry := kind == model.LoopFor && a.isRetry(body, sites)
		if retry {
			prov.Rule = "retry " + prov.Rule
		}
		fn := enclosing(n)
		l := a.makeLoop(f, n, fn, kind, sites, prov, parents, a.forCounters(n))
		l.Retry = retry
		l.Waits = retry && a.waits(body, 0)
		loops = append(loops, l)
		return true
	})
	// Recursion: the declaration itself, or a closure assigned to a variable it calls.
	if a.callsObj(f.decl.Body, f.obj) {
		sites := a.scan(f.decl.Body, f.al)
		if len(sites.model) > 0 {
			prov := model.Provenance{Confidence: sites.model[0].Provenance.Confidence, Rule: "recursion reaches " + sites.model[0].Callee}
			loops = append(loops, a.makeLoop(f, f.decl, f.decl, model.LoopRecursion, sites, prov, parents, a.recCounters(f.decl.Body, f.obj, f.decl.Type)))
		}
	}
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, rhs := range as.Rhs {
			lit, ok := rhs.(*ast.FuncLit)
			id, isID := as.Lhs[i].(*ast.Ident)
			if !ok || !isID {
				continue
			}
			v := a.pass.TypesInfo.ObjectOf(id)
			if v == nil || !a.callsObj(lit.Body, v) {
				continue
			}
			sites := a.scan(lit.Body, f.al)
			if len(sites.model) == 0 {
				continue
			}
			prov := model.Provenance{Confidence: sites.model[0].Provenance.Confidence, Rule: "closure " + id.Name + " calls itself and reaches " + sites.model[0].Callee}
			loops = append(loops, a.makeLoop(f, lit, lit, model.LoopRecursion, sites, prov, parents, a.recCounters(lit.Body, v, lit.Type)))
		}
		return true
	})
	return loops
}

// isRetry reports whether a for loop around model calls is a retry loop: it reaches no tool
// call, and it waits between iterations or leaves on success (an if err == nil block that
// returns or breaks, or a body whose last statement returns or breaks, so that only a continue
// on failure repeats it).
func (a *state) isRetry(body *ast.BlockStmt, sites *siteSet) bool {
	if len(sites.tool) > 0 || len(sites.model) == 0 {
		return false
	}
	if n := len(body.List); n > 0 {
		switch x := body.List[n-1].(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BranchStmt:
			if x.Tok == token.BREAK {
				return true
			}
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.CallExpr:
			if fn := staticCallee(a.pass.TypesInfo, x); fn != nil {
				switch roles.Key(fn) {
				case "time.Sleep", "time.After", "time.NewTimer", "time.Tick", "time.Timer.Reset":
					found = true
				}
			}
		case *ast.IfStmt:
			if a.isNilErrCheck(x.Cond) && exits(x.Body) {
				found = true
			}
		}
		return !found
	})
	return found
}

// waitCalls are the calls that wait for time to pass.
var waitCalls = map[string]bool{"time.Sleep": true, "time.After": true, "time.NewTimer": true, "time.Tick": true, "time.NewTicker": true, "time.Timer.Reset": true}

// waits reports whether body pauses: a call of time.Sleep or a timer, a select, or a call of a
// function of the package (two calls deep) that does (a backoff helper).
func (a *state) waits(body ast.Node, depth int) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			found = true
		case *ast.CallExpr:
			if fn := staticCallee(a.pass.TypesInfo, x); fn != nil {
				if waitCalls[roles.Key(fn)] {
					found = true
				} else if fi := a.funcs[fn.Origin()]; fi != nil && fi.decl.Body != nil && depth < 2 {
					found = a.waits(fi.decl.Body, depth+1)
				}
			}
		}
		return !found
	})
	return found
}

// isNilErrCheck reports whether cond is err == nil (or nil == err) for an error-typed err.
func (a *state) isNilErrCheck(cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return false
	}
	isNil := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == "nil"
	}
	isErr := func(e ast.Expr) bool {
		t := a.pass.TypesInfo.TypeOf(e)
		return t != nil && roles.IsError(t)
	}
	return (isNil(be.Y) && isErr(be.X)) || (isNil(be.X) && isErr(be.Y))
}

// packageSites returns every direct model and tool site of the package: what an engine loop
// dispatches through its nodes.
func (a *state) packageSites() (ms, ts []model.CallSite) {
	s := &siteSet{}
	for _, f := range a.order {
		for _, m := range f.summary.Model {
			if len(m.Via) == 0 {
				s.addModel(m)
			}
		}
		for _, t := range f.summary.Tool {
			if len(t.Via) == 0 {
				s.addTool(t)
			}
		}
	}
	return s.model, s.tool
}

// callsObj reports whether body calls obj.
func (a *state) callsObj(body ast.Node, obj types.Object) bool {
	if obj == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			o := calleeObj(a.pass.TypesInfo, call.Fun)
			if fn, isFn := o.(*types.Func); isFn {
				o = fn.Origin()
			}
			if o == obj {
				found = true
			}
		}
		return !found
	})
	return found
}

// counter is a loop counter: an object, or an expression such as st.Remaining.
type counters struct {
	objs  map[types.Object]bool
	exprs map[string]bool
}

func (c counters) mentions(a *state, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && c.exprs[types.ExprString(x)] {
			found = true
		}
		if id, ok := n.(*ast.Ident); ok && c.objs[a.pass.TypesInfo.ObjectOf(id)] {
			found = true
		}
		return !found
	})
	return found
}

func (a *state) addCounter(c counters, e ast.Expr) {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if obj := a.pass.TypesInfo.ObjectOf(id); obj != nil {
			c.objs[obj] = true
		}
		return
	}
	c.exprs[types.ExprString(e)] = true
}

// forCounters finds what a for loop counts: the variables its post statement or body
// increments or decrements.
func (a *state) forCounters(loop ast.Node) counters {
	c := counters{objs: map[types.Object]bool{}, exprs: map[string]bool{}}
	ast.Inspect(loop, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IncDecStmt:
			a.addCounter(c, s.X)
		case *ast.AssignStmt:
			if s.Tok == token.ADD_ASSIGN || s.Tok == token.SUB_ASSIGN {
				for _, l := range s.Lhs {
					a.addCounter(c, l)
				}
			}
			if len(s.Lhs) == 1 && len(s.Rhs) == 1 && a.atomicAdd(s.Rhs[0]) {
				a.addCounter(c, s.Lhs[0]) // i := next.Add(1) - 1: a shared counter taken each iteration
			}
		case *ast.RangeStmt:
			if s.Key != nil && s == loop {
				if t, ok := a.pass.TypesInfo.TypeOf(s.X).Underlying().(*types.Basic); ok && t.Info()&types.IsInteger != 0 {
					a.addCounter(c, s.Key)
				}
			}
		}
		return true
	})
	return c
}

// atomicAdd reports whether e is computed from a sync/atomic add (an atomic counter's next
// value: a work queue's index shared by workers).
func (a *state) atomicAdd(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if fn := staticCallee(a.pass.TypesInfo, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && strings.HasPrefix(fn.Name(), "Add") {
			found = true
		}
		return !found
	})
	return found
}

// recCounters finds what a recursion counts: integer parameters passed on as p+1 or p-1.
func (a *state) recCounters(body ast.Node, self types.Object, ft *ast.FuncType) counters {
	c := counters{objs: map[types.Object]bool{}, exprs: map[string]bool{}}
	params := map[types.Object]bool{}
	for _, fld := range ft.Params.List {
		for _, n := range fld.Names {
			if obj := a.pass.TypesInfo.Defs[n]; obj != nil {
				if b, ok := obj.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
					params[obj] = true
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		o := calleeObj(a.pass.TypesInfo, call.Fun)
		if fn, isFn := o.(*types.Func); isFn {
			o = fn.Origin()
		}
		if o != self {
			return true
		}
		for _, arg := range call.Args {
			if be, ok := ast.Unparen(arg).(*ast.BinaryExpr); ok && (be.Op == token.ADD || be.Op == token.SUB) {
				ast.Inspect(be, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && params[a.pass.TypesInfo.Uses[id]] {
						c.objs[a.pass.TypesInfo.Uses[id]] = true
					}
					return true
				})
			}
		}
		return true
	})
	return c
}

// comparison finds, in a condition, a relational comparison of a counter with a bound; with eq,
// an equality too (if counter == limit { return … }: a counter stepping by one from below hits
// its limit exactly).
func (a *state) comparison(cond ast.Expr, c counters, eq bool) (cmp *ast.BinaryExpr, bound ast.Expr) {
	ast.Inspect(cond, func(n ast.Node) bool {
		if cmp != nil {
			return false
		}
		be, ok := n.(*ast.BinaryExpr)
		if !ok {
			return true
		}
		if be.Op == token.EQL && (!eq || be != ast.Unparen(cond)) {
			return true // (an equality only as the whole condition)
		}
		switch be.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL:
			if c.mentions(a, be.X) && !c.mentions(a, be.Y) {
				cmp, bound = be, be.Y
			} else if c.mentions(a, be.Y) && !c.mentions(a, be.X) {
				cmp, bound = be, be.X
			}
			return false
		}
		return true
	})
	if cmp != nil && cmp.Op == token.EQL {
		if tv, ok := a.pass.TypesInfo.Types[bound]; ok && tv.Value != nil {
			if v, exact := constant.Int64Val(constant.ToInt(tv.Value)); !exact || v <= 1 {
				return nil, nil // if turn == 0 { … }: the first iteration, not a limit
			}
		}
	}
	return cmp, bound
}

// makeLoop builds a loop record: bound, what happens at the bound, calls, cancellation.
func (a *state) makeLoop(f *funcInfo, node, fn ast.Node, kind model.LoopKind, sites *siteSet, prov model.Provenance, parents map[ast.Node]ast.Node, c counters) *Loop {
	l := &Loop{Node: node, Func: fn, HasContext: a.hasContext(fn, f)}
	pos := node.Pos()
	l.Map = model.Loop{
		Pos: a.pos(pos), Source: a.src(pos), Kind: kind, Func: a.funcName(f, fn),
		ModelCalls: sites.model, ToolCalls: sites.tool, Provenance: prov,
	}
	for _, t := range sites.tool {
		if t.Parallel {
			l.Map.ParallelTools = true
		}
	}
	sig := a.sigOf(fn)
	// Bound: the loop condition, a range over an integer, or an if statement in the body.
	var cmp *ast.BinaryExpr
	var bound ast.Expr
	var onBound []ast.Stmt
	var onBoundPos token.Pos
	switch n := node.(type) {
	case *ast.ForStmt:
		if n.Cond != nil {
			cmp, bound = a.comparison(n.Cond, c, false)
			if cmp != nil {
				onBound, onBoundPos = after(parents, n), n.End()
			}
		}
	case *ast.RangeStmt:
		if t, ok := a.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Basic); ok && t.Info()&types.IsInteger != 0 {
			bound = n.X
			onBound, onBoundPos = after(parents, n), n.End()
		}
	}
	var body ast.Node = funcBody(node)
	switch n := node.(type) {
	case *ast.ForStmt:
		body = n.Body
	case *ast.RangeStmt:
		body = n.Body
	}
	if bound == nil && body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			if bound != nil {
				return false
			}
			switch s := n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return false
			case *ast.IfStmt:
				if cm, b := a.comparison(s.Cond, c, true); cm != nil && exits(s.Body) {
					cmp, bound, onBound, onBoundPos = cm, b, s.Body.List, s.Body.Pos()
					return false
				}
			}
			return true
		})
	}
	if bound == nil && kind != model.LoopEngine {
		if hb, hob := a.helperBound(sites); hb != nil {
			l.Map.Bound, l.Map.OnBound = hb, hob
		}
	}
	if bound != nil {
		at := bound.Pos()
		var bn ast.Node = bound
		if cmp != nil {
			at, bn = cmp.Pos(), cmp
		}
		l.BoundNode = bn
		l.Map.Bound = &model.Bound{Expr: analysisutil.Render(a.pass.Fset, bound, 80), Default: a.boundDefault(f, bound), Pos: a.pos(at), Source: a.src(at)}
		l.Map.OnBound = a.onBound(onBound, onBoundPos, sig)
	}
	// Cancellation between iterations.
	cancelScope := body
	if fs, ok := node.(*ast.ForStmt); ok {
		cancelScope = fs
	}
	if cs := a.scan(cancelScope, f.al); cs.cancel.IsValid() {
		l.CancelPos = cs.cancel
		l.Map.ChecksCancel = true
		l.Map.CancelPos = a.pos(cs.cancel)
	}
	return l
}

// helperBound finds a bound enforced by a function the loop calls (a state machine that
// checks its step count in a helper): an if statement comparing two values whose body records
// the max_steps or max_turns stop reason. Step bounds win over turn bounds.
func (a *state) helperBound(sites *siteSet) (*model.Bound, *model.OnBound) {
	seen := map[*funcInfo]bool{}
	var queue []*funcInfo
	for _, c := range sites.calls {
		if g := a.funcs[c]; g != nil && !seen[g] {
			seen[g] = true
			queue = append(queue, g)
		}
	}
	var best *model.Bound
	var bestOn *model.OnBound
	bestRank := 0
	for i := 0; i < len(queue) && i < 64; i++ {
		g := queue[i]
		for _, c := range g.sites.calls {
			if h := a.funcs[c]; h != nil && !seen[h] {
				seen[h] = true
				queue = append(queue, h)
			}
		}
		ast.Inspect(g.decl.Body, func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if !ok {
				return true
			}
			cmp, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || (cmp.Op != token.GEQ && cmp.Op != token.GTR && cmp.Op != token.LSS && cmp.Op != token.LEQ) {
				return true
			}
			var reason model.StopReason
			var at ast.Stmt
			for _, st := range ifs.Body.List {
				if r := a.stopIn(st); r == model.StopMaxSteps || r == model.StopMaxTurns {
					reason, at = r, st
					break
				}
			}
			if reason == "" {
				return true
			}
			rank := 1
			if reason == model.StopMaxSteps {
				rank = 2
			}
			if rank <= bestRank {
				return true
			}
			boundExpr := cmp.Y
			if cmp.Op == token.LSS || cmp.Op == token.LEQ {
				boundExpr = cmp.X
			}
			bestRank = rank
			best = &model.Bound{Expr: analysisutil.Render(a.pass.Fset, boundExpr, 80), Default: a.boundDefault(g, boundExpr),
				Pos: a.pos(cmp.Pos()), Source: a.src(cmp.Pos())}
			bestOn = &model.OnBound{Kind: model.OnBoundStopReason, Value: string(reason), StopReason: reason, Pos: a.pos(at.Pos()), Source: a.src(at.Pos())}
			return true
		})
	}
	return best, bestOn
}

// exits reports whether a block leaves the loop (return, break, goto, panic).
func exits(b *ast.BlockStmt) bool {
	for _, s := range b.List {
		switch x := s.(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BranchStmt:
			if x.Tok == token.BREAK || x.Tok == token.GOTO {
				return true
			}
		case *ast.ExprStmt:
			if call, ok := x.X.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
					return true
				}
			}
		}
	}
	return false
}

// after returns the statements that follow n in its block.
func after(parents map[ast.Node]ast.Node, n ast.Node) []ast.Stmt {
	child := n
	p := parents[n]
	if ls, ok := p.(*ast.LabeledStmt); ok {
		child, p = ls, parents[ls]
	}
	block, ok := p.(*ast.BlockStmt)
	if !ok {
		return nil
	}
	for i, s := range block.List {
		if s == child {
			return block.List[i+1:]
		}
	}
	return nil
}

func (a *state) sigOf(fn ast.Node) *types.Signature {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := a.pass.TypesInfo.Defs[f.Name].(*types.Func); ok {
			return obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		if sig, ok := a.pass.TypesInfo.TypeOf(f).(*types.Signature); ok {
			return sig
		}
	}
	return nil
}

// hasContext reports whether a context.Context is in scope in fn (or in the declaration that
// encloses it): a parameter, or a field of a struct parameter or receiver (a call context that
// carries the run's context, engine.Context{Ctx: ctx}).
func (a *state) hasContext(fn ast.Node, f *funcInfo) bool {
	for _, n := range []ast.Node{fn, f.decl} {
		if sigHasContext(a.sigOf(n)) {
			return true
		}
	}
	return false
}

func sigHasContext(sig *types.Signature) bool {
	if sig == nil {
		return false
	}
	vars := []*types.Var{}
	if sig.Recv() != nil {
		vars = append(vars, sig.Recv())
	}
	for i := 0; i < sig.Params().Len(); i++ {
		vars = append(vars, sig.Params().At(i))
	}
	for _, v := range vars {
		if roles.IsContext(v.Type()) || carriesContext(v.Type()) || actsAsContext(v.Type()) {
			return true
		}
	}
	return false
}

// actsAsContext reports whether t is an interface that is a context.Context too (it embeds
// it, or has its Deadline, Done, Err and Value methods): an invocation context a framework
// hands its flows (adk's agent.InvocationContext) carries the run's cancellation.
func actsAsContext(t types.Type) bool {
	if !types.IsInterface(t) {
		return false
	}
	ms := types.NewMethodSet(t)
	for _, name := range []string{"Deadline", "Done", "Err", "Value"} {
		if ms.Lookup(nil, name) == nil {
			return false
		}
	}
	return true
}

// carriesContext reports whether t is a struct, or a pointer to one, with a context.Context
// field.
func carriesContext(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if roles.IsContext(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

// onBound says what the statements run at the bound do.
func (a *state) onBound(stmts []ast.Stmt, at token.Pos, sig *types.Signature) *model.OnBound {
	ob := &model.OnBound{Kind: model.OnBoundSilent, Pos: a.pos(at), Source: a.src(at)}
	for _, s := range stmts {
		if r := a.stopIn(s); r != "" && ob.Kind != model.OnBoundStopReason {
			ob.Kind, ob.StopReason, ob.Value = model.OnBoundStopReason, r, analysisutil.Render(a.pass.Fset, s, 80)
			ob.Pos, ob.Source = a.pos(s.Pos()), a.src(s.Pos())
		}
		switch x := s.(type) {
		case *ast.ReturnStmt:
			kind, value, reason := a.classifyError(x, sig)
			if ob.Kind == model.OnBoundStopReason {
				return ob
			}
			if reason == "" && kind == model.OnBoundError {
				reason = model.StopMaxSteps // an error at the bound ends the run on its step limit
			}
			ob.Kind, ob.Value, ob.StopReason = kind, value, reason
			ob.Pos, ob.Source = a.pos(x.Pos()), a.src(x.Pos())
			if reason == "" {
				reason = model.StopMaxSteps
			}
			a.boundRets[x.Pos()] = reason
			return ob
		case *ast.BranchStmt:
			return ob
		}
	}
	return ob
}

// errorResult returns the error result expression of a return statement, if the function
// returns an error and the statement lists its results.
func errorResult(ret *ast.ReturnStmt, sig *types.Signature) ast.Expr {
	if sig == nil || sig.Results().Len() == 0 || len(ret.Results) != sig.Results().Len() {
		return nil
	}
	if !roles.IsError(sig.Results().At(sig.Results().Len() - 1).Type()) {
		return nil
	}
	return ret.Results[len(ret.Results)-1]
}

// classifyError says what a return hands back at a bound: a sentinel error, another error or
// nothing.
func (a *state) classifyError(ret *ast.ReturnStmt, sig *types.Signature) (kind, value string, reason model.StopReason) {
	e := errorResult(ret, sig)
	if e == nil {
		if len(ret.Results) == 0 {
			return model.OnBoundSilent, "return", ""
		}
		return model.OnBoundSilent, analysisutil.Render(a.pass.Fset, ret, 80), ""
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "nil" {
		return model.OnBoundSilent, "return without error", ""
	}
	if v, r := a.sentinel(e); v != nil {
		return model.OnBoundError, v.Pkg().Name() + "." + v.Name(), r
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(ret.Results) == 1 && a.finishes(call) {
		// if chatCtx.callTimes == maxCalls { return endCall(ctx, chatCtx, resp, w) }
		// (yomorun/yomo@v1.20.6 pkg/bridge/ai/chat.go:115-118): at the bound the last reply is
		// handed to a helper that writes it out and returns nil unless the writing fails: the
		// loop ends quietly on its limit, the helper decides
		return model.OnBoundSilent, analysisutil.Render(a.pass.Fset, ret, 80), ""
	}
	value = analysisutil.Render(a.pass.Fset, e, 80)
	return model.OnBoundError, value, inferReasonFromText(e)
}

// finishes reports whether call runs one function of the package that returns only an error,
// nil on some path, and runs no turn loop itself: a finishing step (the last reply written
// out) whose only failure is its own, not an error the bound raises.
func (a *state) finishes(call *ast.CallExpr) bool {
	fn := staticCallee(a.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	fi := a.funcs[fn]
	if fi == nil || fi.decl == nil || fi.decl.Body == nil || len(fi.loops) > 0 || fi.runs {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() != 1 || !roles.IsError(res.At(0).Type()) {
		return false
	}
	nilRet := false
	ast.Inspect(fi.decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == 1 {
				if id, ok := ast.Unparen(x.Results[0]).(*ast.Ident); ok && id.Name == "nil" {
					nilRet = true
				}
			}
		}
		return !nilRet
	})
	return nilRet
}

// sentinel finds a package-level error variable in e and the bound stop reason it stands for.
func (a *state) sentinel(e ast.Expr) (*types.Var, model.StopReason) {
	var found *types.Var
	var reason model.StopReason
	ast.Inspect(e, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !types.Implements(v.Type(), errorIface) {
			return true
		}
		found = v
		if b, ok := a.res.Has(v, roles.BoundError); ok {
			reason = b.Rule.StopReason
		}
		return false
	})
	return found, reason
}

var errorIface = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

func inferReasonFromText(e ast.Expr) model.StopReason {
	var reason model.StopReason
	ast.Inspect(e, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s := strings.ToLower(lit.Value)
		switch {
		case strings.Contains(s, "max") && strings.Contains(s, "turn"):
			reason = model.StopMaxTurns
		case strings.Contains(s, "max") && (strings.Contains(s, "step") || strings.Contains(s, "iteration")),
			strings.Contains(s, "recursion limit"):
			reason = model.StopMaxSteps
		}
		return reason == ""
	})
	return reason
}

// boundDefault finds a bound's default: a constant assigned to the bound variable in the
// function, or the value a profile or directive gives the field or variable it comes from.
func (a *state) boundDefault(f *funcInfo, bound ast.Expr) string {
	info := a.pass.TypesInfo
	if tv, ok := info.Types[bound]; ok && tv.Value != nil {
		return ""
	}
	if v := a.fieldDefault(bound); v != "" {
		return v
	}
	id, ok := ast.Unparen(bound).(*ast.Ident)
	if !ok {
		return ""
	}
	obj := info.ObjectOf(id)
	var constant, fromField string
	ast.Inspect(f.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || info.ObjectOf(lid) != obj {
				continue
			}
			if tv, ok := info.Types[as.Rhs[i]]; ok && tv.Value != nil {
				constant = analysisutil.Render(a.pass.Fset, as.Rhs[i], 40)
			} else if v := a.fieldDefault(as.Rhs[i]); v != "" && fromField == "" {
				fromField = v
			}
		}
		return true
	})
	if constant != "" {
		return constant
	}
	return fromField
}

func (a *state) fieldDefault(e ast.Expr) string {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if s, ok := a.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.FieldVal {
		key := roles.FieldKey(s.Recv(), sel.Sel.Name)
		for _, b := range a.res.table.Lookup(key) {
			if b.Role == roles.BoundDefault {
				a.res.used[profileName(b.Provenance.Rule)] = true
				return b.Rule.Value
			}
		}
		for _, b := range a.res.declared[s.Obj()] {
			if b.Role == roles.BoundDefault {
				return b.Rule.Value
			}
		}
		// the field may be promoted through an embedded struct: try its declaring type too
		return ""
	}
	if b, ok := a.res.Has(a.pass.TypesInfo.Uses[sel.Sel], roles.BoundDefault); ok {
		return b.Rule.Value
	}
	return ""
}
