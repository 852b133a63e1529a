package goir

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/ssa"
)

// naturalLoops returns the natural loops of fn: for each back edge (an edge to a block that
// dominates its source), the blocks that reach the edge's source without passing the header.
func naturalLoops(fn *ssa.Function) []*natLoop {
	byHeader := map[*ssa.BasicBlock]*natLoop{}
	var order []*natLoop
	for _, blk := range fn.Blocks {
		for _, s := range blk.Succs {
			if !s.Dominates(blk) {
				continue
			}
			l := byHeader[s]
			if l == nil {
				l = &natLoop{header: s, blocks: map[*ssa.BasicBlock]bool{s: true}}
				byHeader[s] = l
				order = append(order, l)
			}
			l.latches = append(l.latches, blk)
			stack := []*ssa.BasicBlock{blk}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.blocks[x] {
					continue
				}
				l.blocks[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	return order
}

// loops matches the loop statements of the function's syntax with its natural loops and
// records them; blocks are assigned to the loops whose statement contains their instructions.
func (b *builder) loops(fs *funcState, stmts []ast.Stmt) {
	fn, f := fs.fn, fs.f
	nat := naturalLoops(fn)
	for _, s := range stmts {
		var best *natLoop
		bestScore := 0
		isRange := false
		if _, ok := s.(*ast.RangeStmt); ok {
			isRange = true
		}
		for _, l := range nat {
			if strings.HasPrefix(l.header.Comment, "range") != isRange {
				continue
			}
			score := 0
			for blk := range l.blocks {
				for _, in := range blk.Instrs {
					p := in.Pos()
					if !p.IsValid() {
						continue
					}
					if p >= s.Pos() && p < s.End() {
						score++
					} else {
						score -= 2
					}
				}
			}
			if score > bestScore || best == nil && score >= 0 {
				best, bestScore = l, score
			}
		}
		if best == nil {
			best = &natLoop{blocks: map[*ssa.BasicBlock]bool{}}
		}
		for _, l := range fs.loops {
			if l == best {
				best = &natLoop{blocks: map[*ssa.BasicBlock]bool{}}
				break
			}
		}
		best.stmt = s
		lp := ir.Loop{ID: len(f.Loops), Outer: -1, OverCall: -1, Pos: b.pos(s.Pos()), Source: b.source(s.Pos()), End: b.pos(s.End())}
		switch x := s.(type) {
		case *ast.ForStmt:
			lp.Kind = ir.LoopFor
			if x.Cond != nil {
				lp.Cond = render(x.Cond)
			}
			if over := walkOver(b.info(fn), x, fs.syntax); over != nil {
				// a linked-list walk or a cursor's drain: it ends with its collection
				lp.Kind, lp.Over = over.kind, render(over.call)
				fs.overCalls = append(fs.overCalls, overCall{loop: len(f.Loops), call: over.call})
			} else if coll := claimedIndex(b.info(fn), x); coll != nil {
				// a worker claiming the next index of a shared slice: once per element
				lp.Kind, lp.Over = ir.LoopRangeList, render(coll)
			}
			lp.Retry = retryLoop(b.info(fn), x)
		case *ast.RangeStmt:
			lp.Over = render(x.X)
			lp.Kind = ir.LoopRangeList
			if t := b.info(fn).TypeOf(x.X); t != nil {
				switch u := t.Underlying().(type) {
				case *types.Basic:
					if u.Info()&types.IsInteger != 0 {
						lp.Kind = ir.LoopRangeInt
					}
				case *types.Chan:
					lp.Kind = ir.LoopRangeChan
				}
			}
		}
		f.Loops = append(f.Loops, lp)
		fs.loops = append(fs.loops, best)
	}
	// Nesting, by position.
	for i := range f.Loops {
		si := fs.loops[i].stmt
		for j := range f.Loops {
			sj := fs.loops[j].stmt
			if i == j || si == nil || sj == nil {
				continue
			}
			if sj.Pos() < si.Pos() && si.End() <= sj.End() {
				if o := f.Loops[i].Outer; o < 0 || fs.loops[o].stmt.Pos() < sj.Pos() {
					f.Loops[i].Outer = j
				}
			}
		}
	}
	fs.blockLoops = map[*ssa.BasicBlock][]int{}
	for _, blk := range fn.Blocks {
		var in []int
		for i, l := range fs.loops {
			if l.stmt == nil {
				continue
			}
			if _, isIter := l.stmt.(*ast.RangeStmt); isIter && f.Loops[i].Kind == ir.LoopRangeIter {
				continue
			}
			if l.blocks[blk] || blockWithin(blk, l.stmt) {
				in = append(in, i)
			}
		}
		sort.Slice(in, func(x, y int) bool {
			a, c := fs.loops[in[x]].stmt, fs.loops[in[y]].stmt
			return a.End()-a.Pos() < c.End()-c.Pos()
		})
		if len(in) > 0 {
			fs.blockLoops[blk] = in
		}
	}
	// Closures: the parent's loops they are created in.
	if p := fn.Parent(); p != nil {
		if pid, ok := b.ids[p]; ok {
			_ = pid
		}
	}
}

// blockWithin reports whether the positioned instructions of blk lie within s (the body of a
// loop whose iterations always leave has no back edge, so no natural loop).
func blockWithin(blk *ssa.BasicBlock, s ast.Stmt) bool {
	n := 0
	for _, in := range blk.Instrs {
		p := in.Pos()
		if !p.IsValid() {
			continue
		}
		if p < s.Pos() || p >= s.End() {
			return false
		}
		n++
	}
	return n > 0
}

// closureLoops sets ParentLoops and BodyOf for closures once every function is described.
func (b *builder) closureLoops(fs *funcState) {
	f := fs.f
	f.BodyOf = -1
	p := fs.fn.Parent()
	if p == nil {
		return
	}
	pid, ok := b.ids[p]
	if !ok {
		return
	}
	ps := b.funcs[pid]
	pos := fs.fn.Pos()
	if rs, ok := fs.fn.Syntax().(*ast.RangeStmt); ok {
		pos = rs.Pos()
		for i, l := range ps.loops {
			if l.stmt == rs {
				f.BodyOf = i
				f.ParentLoops = append(f.ParentLoops, i)
			}
		}
	}
	type li struct {
		id   int
		size token.Pos
	}
	var in []li
	for i, l := range ps.loops {
		if l.stmt == nil || i == f.BodyOf {
			continue
		}
		if pos >= l.stmt.Pos() && pos < l.stmt.End() {
			in = append(in, li{i, l.stmt.End() - l.stmt.Pos()})
		}
	}
	sort.Slice(in, func(x, y int) bool { return in[x].size < in[y].size })
	for _, x := range in {
		f.ParentLoops = append(f.ParentLoops, x.id)
	}
}

// maxFlowCallees bounds the functions a func-value call lists from VTA: past it the value is
// a general callback slot (a handler type many functions fill), not a flow to follow.
const maxFlowCallees = 8

// calls records the call sites of a function.
func (b *builder) calls(fs *funcState) {
	b.closureLoops(fs)
	fn, f := fs.fn, fs.f
	fs.callIdx = map[ssa.CallInstruction]int{}
	sites := map[ssa.CallInstruction][]*ssa.Function{}
	if node := b.cg.Nodes[fn]; node != nil {
		for _, e := range node.Out {
			sites[e.Site] = append(sites[e.Site], e.Callee.Func)
		}
	}
	flowSites := map[ssa.CallInstruction][]*ssa.Function{}
	if node := b.vta.Nodes[fn]; node != nil {
		for _, e := range node.Out {
			flowSites[e.Site] = append(flowSites[e.Site], e.Callee.Func)
		}
	}
	// the same callee order on every run (the graphs are built from maps)
	for _, m := range []map[ssa.CallInstruction][]*ssa.Function{sites, flowSites} {
		for _, fs := range m {
			sort.SliceStable(fs, func(i, j int) bool { return fs[i].String() < fs[j].String() })
		}
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			ci, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			if _, builtin := com.Value.(*ssa.Builtin); builtin {
				continue
			}
			c := ir.Call{ID: len(f.Calls), Pos: b.pos(com.Pos()), Source: b.source(com.Pos())}
			if ce := fs.calls[com.Pos()]; ce != nil {
				c.Text = render(ce)
			}
			var callees []*ssa.Function
			if s := com.StaticCallee(); s != nil {
				callees = []*ssa.Function{s}
			} else if com.IsInvoke() {
				callees = append(callees, sites[ci]...)
				if len(callees) == 0 && genericBody(fn) {
					// a method of a type parameter or of a generic interface in a generic body:
					// what the instantiations' calls at this site resolve to
					callees = append(callees, flowSites[ci]...)
				}
			} else {
				// a func value: what it visibly is (CHA would list every function of its type),
				// else what VTA finds flowing to it (a func field, an iterator a call returns)
				callees = append(callees, resolveFunc(com.Value, 0)...)
				node := len(callees) == 0 && b.fromNodeTable(com.Value, fn, 0)
				if fs := flowSites[ci]; len(callees) == 0 && (len(fs) <= maxFlowCallees || node && len(fs) <= maxNodes) && !yieldParam(com.Value, 0) {
					callees = append(callees, fs...)
					c.Node = node
				}
			}
			seenCallee := map[*ssa.Function]bool{}
			for _, cal := range callees {
				cal = unwrap(cal)
				if cal == nil || seenCallee[cal] {
					continue
				}
				seenCallee[cal] = true
				c.Callees = append(c.Callees, cal.String())
				key := ""
				if obj, ok := cal.Object().(*types.Func); ok {
					key = roles.Key(obj.Origin())
				}
				c.Keys = append(c.Keys, key)
				if c.Provider == "" {
					c.Provider = provider(key)
				}
				if cal.Origin() != nil {
					cal = cal.Origin()
				}
				if id, ok := b.ids[cal]; ok {
					c.Targets = append(c.Targets, id)
					if cal == fn {
						c.Recursive = true
					}
				}
			}
			switch {
			case com.IsInvoke():
				c.Abstract = roles.Key(com.Method)
				c.Method = com.Method.Name()
			case com.StaticCallee() != nil:
				c.Method = com.StaticCallee().Name()
				if o := com.StaticCallee().Object(); o != nil {
					c.Method = o.Name()
				}
			default:
				if n := roles.NamedOf(com.Value.Type()); n != nil && n.Obj().Pkg() != nil {
					c.Abstract = n.Obj().Pkg().Path() + "." + n.Obj().Name()
				}
				c.Method = com.Value.Name()
				if u, ok := com.Value.(*ssa.UnOp); ok {
					if fa, ok := u.X.(*ssa.FieldAddr); ok {
						c.Method = fieldOf(fa.X.Type(), fa.Field).Name()
					}
				}
			}
			c.Loops = fs.blockLoops[blk]
			if _, ok := ci.(*ssa.Go); ok {
				c.Concurrent = "go"
				if mc, ok := com.Value.(*ssa.MakeClosure); ok {
					b.setLaunch(fnOf(mc.Fn), "go")
				} else if lf, ok := com.Value.(*ssa.Function); ok {
					b.setLaunch(lf, "go")
				}
			}
			if _, ok := ci.(*ssa.Defer); ok {
				if mc, ok := com.Value.(*ssa.MakeClosure); ok {
					b.setLaunch(fnOf(mc.Fn), "defer")
				}
			}
			if isSpawner(c.Keys) {
				for _, a := range com.Args {
					if mc, ok := a.(*ssa.MakeClosure); ok {
						b.setLaunch(fnOf(mc.Fn), "errgroup")
					}
				}
			}
			c.Joins = joins(com, c.Keys) || drainsResult(ci)
			for _, a := range com.Args {
				if isContext(a.Type()) {
					c.PassesContext = true
					c.ContextArg = ctxOrigin(a, 0)
				}
			}
			c.Accessor = accessor(com)
			c.Descends = descends(fn, com)
			c.Input = b.readsStdin(com)
			c.InMemory = b.inMemory(fn, com, callees)
			if len(c.Loops) > 0 {
				l := fs.loops[c.Loops[0]]
				c.Dominates = len(l.latches) > 0
				for _, lt := range l.latches {
					if !blk.Dominates(lt) {
						c.Dominates = false
					}
				}
			}
			for _, a := range com.Args {
				for _, af := range resolveFunc(a, 0) {
					if id, ok := b.ids[af]; ok {
						c.ArgFuncs = append(c.ArgFuncs, id)
					}
				}
				// a predicate list: []func(...) bool or a slice of a named func type
				if sl, ok := a.Type().Underlying().(*types.Slice); ok && len(c.Loops) > 0 {
					if sig, ok := sl.Elem().Underlying().(*types.Signature); ok && sig.Results().Len() == 1 {
						if bt, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); ok && bt.Kind() == types.Bool {
							ss := ir.StopSet{Pos: c.Pos, Source: c.Source, Text: c.Text, Loop: c.Loops[0]}
							if ce := fs.calls[com.Pos()]; ce != nil {
								for _, ae := range ce.Args {
									if t := b.info(fn).TypeOf(ae); t != nil && types.Identical(t, a.Type()) {
										ss.Text = render(ae)
									}
								}
							}
							op := b.operand(a)
							if op.Kind == "field" {
								ss.Key = op.Key
							}
							ss.Return = -1
							f.Stops = append(f.Stops, ss)
							fs.stopCalls = append(fs.stopCalls, ci)
						}
					}
				}
			}
			fs.callIdx[ci] = len(f.Calls)
			f.Calls = append(f.Calls, c)
		}
	}
	// Walks and cursor drains over a call's result.
	for _, oc := range fs.overCalls {
		for j := range f.Calls {
			if f.Calls[j].Pos == b.pos(oc.call.Lparen) && fs.calls[oc.call.Lparen] == oc.call {
				f.Loops[oc.loop].OverCall = j
			}
		}
	}
	// Range loops over a call's result.
	for i, l := range fs.loops {
		rs, ok := l.stmt.(*ast.RangeStmt)
		if !ok {
			continue
		}
		if ce, ok := ast.Unparen(rs.X).(*ast.CallExpr); ok {
			for j := range f.Calls {
				if f.Calls[j].Pos == b.pos(ce.Lparen) && fs.calls[ce.Lparen] == ce {
					f.Loops[i].OverCall = j
				}
			}
		}
	}
}

func (b *builder) setLaunch(fn *ssa.Function, how string) {
	if id, ok := b.ids[fn]; ok && b.out.Funcs[id].Launch == "" {
		b.out.Funcs[id].Launch = how
	}
}

// isSpawner reports whether a callee runs its function argument concurrently.
func isSpawner(keys []string) bool {
	for _, k := range keys {
		switch k {
		case "golang.org/x/sync/errgroup.Group.Go", "golang.org/x/sync/errgroup.Group.TryGo", "sync.WaitGroup.Go",
			"github.com/sourcegraph/conc.WaitGroup.Go", "github.com/sourcegraph/conc/pool.Pool.Go",
			"github.com/sourcegraph/conc/pool.ErrorPool.Go", "github.com/sourcegraph/conc/pool.ContextPool.Go":
			return true
		}
	}
	return false
}

// joinKeys are the methods that wait for the goroutines a group launched.
var joinKeys = map[string]bool{
	"sync.WaitGroup.Wait": true, "golang.org/x/sync/errgroup.Group.Wait": true,
	"github.com/sourcegraph/conc.WaitGroup.Wait": true, "github.com/sourcegraph/conc/pool.Pool.Wait": true,
	"github.com/sourcegraph/conc/pool.ErrorPool.Wait": true, "github.com/sourcegraph/conc/pool.ContextPool.Wait": true,
}

// joins reports whether a call waits for the goroutines launched before it: a join method of
// the table, or a method named Wait whose body calls one (a small error group of the program's
// own over a sync.WaitGroup).
func joins(com *ssa.CallCommon, keys []string) bool {
	for _, k := range keys {
		if joinKeys[k] {
			return true
		}
	}
	sc := com.StaticCallee()
	if sc == nil || sc.Name() != "Wait" {
		return false
	}
	for _, blk := range sc.Blocks {
		for _, in := range blk.Instrs {
			if ci, ok := in.(ssa.CallInstruction); ok {
				if cal := ci.Common().StaticCallee(); cal != nil {
					if o, ok := cal.Object().(*types.Func); ok && joinKeys[roles.Key(o)] {
						return true
					}
				}
			}
		}
	}
	return false
}

// drainsResult reports whether the channel a call returns is received from until it is
// closed in the calling function (for ev := range r.RunStream(ctx, sess), or v, ok := <-ch
// with a test of ok): what follows the drain runs after the goroutine the call started has
// closed the channel, its run over (docker/docker-agent pkg/runtime/loop.go Run, a
// synchronous wrapper around RunStream).
func drainsResult(ci ssa.CallInstruction) bool {
	call, ok := ci.(*ssa.Call)
	if !ok {
		return false
	}
	if _, isChan := call.Type().Underlying().(*types.Chan); !isChan {
		return false
	}
	for _, r := range *call.Referrers() {
		if rcv, ok := r.(*ssa.UnOp); ok && rcv.Op == token.ARROW && rcv.CommaOk {
			return true
		}
	}
	return false
}

// unwrap returns the function a synthetic wrapper (a bound method value, a method expression's
// thunk) calls, fn itself otherwise.
func unwrap(fn *ssa.Function) *ssa.Function {
	for range 2 {
		if fn == nil || fn.Synthetic == "" || len(fn.Blocks) == 0 {
			return fn
		}
		var inner *ssa.Function
		n := 0
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				if ci, ok := in.(ssa.CallInstruction); ok {
					n++
					inner = ci.Common().StaticCallee()
				}
			}
		}
		if n != 1 || inner == nil {
			return fn
		}
		fn = inner
	}
	return fn
}

// yieldParam reports whether v is the yield function of an iterator body (the func(...) bool
// parameter of a func(yield) with no results, or a closure's capture of it): calling it hands
// an item to the loop that drains the iterator, it does not call into that loop's code.
func yieldParam(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		sig := x.Parent().Signature
		if sig.Params().Len() != 1 || sig.Results().Len() != 0 || x != x.Parent().Params[len(x.Parent().Params)-1] {
			return false
		}
		y, ok := x.Type().Underlying().(*types.Signature)
		if !ok || y.Results().Len() != 1 {
			return false
		}
		bt, ok := y.Results().At(0).Type().Underlying().(*types.Basic)
		return ok && bt.Kind() == types.Bool
	case *ssa.FreeVar:
		fn := x.Parent()
		idx := -1
		for i, fv := range fn.FreeVars {
			if fv == x {
				idx = i
			}
		}
		p := fn.Parent()
		if p == nil || idx < 0 {
			return false
		}
		for _, blk := range p.Blocks {
			for _, in := range blk.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
					return yieldParam(mc.Bindings[idx], depth+1)
				}
			}
		}
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return yieldParam(x.X, depth+1)
		}
	case *ssa.Alloc:
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				return yieldParam(st.Val, depth+1)
			}
		}
	}
	return false
}

// resolveFunc finds the functions a func value may be: a function, a closure, or a variable
// a closure was stored into (a recursive closure calls itself through its variable).
func resolveFunc(v ssa.Value, depth int) []*ssa.Function {
	if depth > 4 || v == nil {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Function:
		return []*ssa.Function{x}
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok {
			return []*ssa.Function{fn}
		}
	case *ssa.Phi:
		var out []*ssa.Function
		for _, e := range x.Edges {
			out = append(out, resolveFunc(e, depth+1)...)
		}
		return out
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return storedFuncs(x.X, depth)
		}
	case *ssa.ChangeType:
		return resolveFunc(x.X, depth+1)
	}
	return nil
}

// storedFuncs returns the functions stored into an address (a local cell or a captured one).
func storedFuncs(addr ssa.Value, depth int) []*ssa.Function {
	var cells []ssa.Value
	switch a := addr.(type) {
	case *ssa.Alloc:
		cells = append(cells, a)
	case *ssa.FreeVar:
		fn := a.Parent()
		idx := -1
		for i, fv := range fn.FreeVars {
			if fv == a {
				idx = i
			}
		}
		if p := fn.Parent(); p != nil && idx >= 0 {
			for _, blk := range p.Blocks {
				for _, in := range blk.Instrs {
					if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
						cells = append(cells, mc.Bindings[idx])
					}
				}
			}
		}
	}
	var out []*ssa.Function
	for _, c := range cells {
		if fv, ok := c.(*ssa.FreeVar); ok {
			out = append(out, storedFuncs(fv, depth+1)...)
			continue
		}
		refs := c.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if st, ok := r.(*ssa.Store); ok && st.Addr == c {
				out = append(out, resolveFunc(st.Val, depth+1)...)
			}
		}
	}
	return out
}

// ctxOrigin says where a context value comes from: "param" (the function's parameter),
// "background" (context.Background/TODO), "request" (an HTTP request's Context), "derived:X"
// (a context.With* of X), "field", or "other".
func ctxOrigin(v ssa.Value, depth int) string {
	if depth > 6 {
		return "other"
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return "param"
	case *ssa.FreeVar:
		return "param"
	case *ssa.Extract:
		return ctxOrigin(x.Tuple, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if o := ctxOrigin(e, depth+1); o != "other" {
				return o
			}
		}
	case *ssa.UnOp:
		if _, ok := x.X.(*ssa.FieldAddr); ok {
			return "field"
		}
		return ctxOrigin(x.X, depth+1)
	case *ssa.Call:
		com := x.Common()
		if s := com.StaticCallee(); s != nil {
			name := s.String()
			switch name {
			case "context.Background", "context.TODO":
				return "background"
			case "(*net/http.Request).Context":
				return "request"
			}
			if strings.HasPrefix(name, "context.With") && len(com.Args) > 0 {
				return "derived:" + ctxOrigin(com.Args[0], depth+1)
			}
		}
		if com.IsInvoke() {
			return "other"
		}
	case *ssa.MakeInterface:
		return ctxOrigin(x.X, depth+1)
	}
	return "other"
}

// fieldOf returns field i of the struct that t (or *t) is.
func fieldOf(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i)
	}
	return types.NewVar(token.NoPos, nil, "?", types.Typ[types.Invalid])
}

// fieldKey returns the profile key of field i of the struct that t (or *t) is.
func fieldKey(t types.Type, i int) string {
	f := fieldOf(t, i)
	if k := roles.FieldKey(t, f.Name()); k != "" {
		return k
	}
	return f.Name()
}

// scanIncFields finds the struct fields incremented by a constant (x.n++ / x.n += 1).
func (b *builder) scanIncFields() {
	for _, fs := range b.funcs {
		for _, blk := range fs.fn.Blocks {
			for _, in := range blk.Instrs {
				st, ok := in.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if appendTo(st.Val, func(v ssa.Value) bool {
					ld, ok := v.(*ssa.UnOp)
					if !ok || ld.Op != token.MUL {
						return false
					}
					fa2, ok := ld.X.(*ssa.FieldAddr)
					return ok && fa2.Field == fa.Field && fa2.X.Type() == fa.X.Type()
				}) {
					b.grownFields[fieldOf(fa.X.Type(), fa.Field)] = true
				}
				bo, ok := st.Val.(*ssa.BinOp)
				if !ok || (bo.Op != token.ADD && bo.Op != token.SUB) {
					continue
				}
				if _, ok := bo.Y.(*ssa.Const); !ok {
					continue
				}
				if ld, ok := bo.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
					if fa2, ok := ld.X.(*ssa.FieldAddr); ok && fa2.Field == fa.Field {
						b.incFields[fieldOf(fa.X.Type(), fa.Field)] = true
					}
				}
			}
		}
	}
}

// isCounter reports whether v counts iterations: a loop phi incremented by a constant, a
// constant offset of one, a load of an incremented field or cell, or an integer parameter a
// recursion passes on incremented.
func (b *builder) isCounter(fs *funcState, v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			if bo, ok := e.(*ssa.BinOp); ok && (bo.Op == token.ADD || bo.Op == token.SUB) {
				if bo.X == x || bo.Y == x {
					return true
				}
				if _, ok := bo.Y.(*ssa.Const); ok && b.isCounter(fs, bo.X, depth+1) {
					return true
				}
			}
		}
	case *ssa.BinOp:
		if x.Op == token.ADD || x.Op == token.SUB {
			if _, ok := x.Y.(*ssa.Const); ok {
				return b.isCounter(fs, x.X, depth+1)
			}
		}
		// len(history)-initLen: how much a collection the loop grows has grown
		if x.Op == token.SUB && b.grownLen(x.X) && !b.isCounter(fs, x.Y, depth+1) {
			return true
		}
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		switch a := x.X.(type) {
		case *ssa.FieldAddr:
			return b.incFields[fieldOf(a.X.Type(), a.Field)]
		case *ssa.Alloc, *ssa.FreeVar:
			if fv, ok := a.(*ssa.FreeVar); ok && b.recursionDepth(fv) {
				return true
			}
			return cellIncremented(a)
		case *ssa.Phi:
			// a per-iteration loop variable a closure captures (Go 1.22): each iteration's
			// cell is a fresh copy of the last one, incremented
			for _, e := range a.Edges {
				if al, ok := e.(*ssa.Alloc); ok && al.Heap && cellIncremented(al) {
					return true
				}
			}
		}
	case *ssa.Field:
		return b.incFields[fieldOf(x.X.Type(), x.Field)]
	case *ssa.Convert:
		return b.isCounter(fs, x.X, depth+1)
	case *ssa.Call:
		if b.grownLen(x) {
			return true // len(steps) of a slice the loop appends to
		}
		// next.Add(1), atomic.AddInt64(&n, 1): a shared counter each iteration takes the next
		// value of (a work queue's index)
		if s := x.Call.StaticCallee(); s != nil && s.Pkg != nil && s.Pkg.Pkg.Path() == "sync/atomic" && strings.HasPrefix(s.Name(), "Add") {
			return true
		}
		if m := x.Call.Method; m != nil && m.Pkg() != nil && m.Pkg().Path() == "sync/atomic" && strings.HasPrefix(m.Name(), "Add") {
			return true
		}
	case *ssa.Parameter:
		idx := -1
		for i, p := range fs.fn.Params {
			if p == x {
				idx = i
			}
		}
		if idx < 0 {
			return false
		}
		for _, blk := range fs.fn.Blocks {
			for _, in := range blk.Instrs {
				ci, ok := in.(ssa.CallInstruction)
				if !ok || ci.Common().StaticCallee() != fs.fn {
					continue
				}
				args := ci.Common().Args
				if idx < len(args) {
					if bo, ok := args[idx].(*ssa.BinOp); ok && (bo.Op == token.ADD || bo.Op == token.SUB) && bo.X == x {
						return true
					}
				}
			}
		}
	}
	return false
}

// recursionDepth reports whether fv, a variable a closure captured, is an integer parameter
// of the function that made the closure, which the closure passes on incremented to a call
// that may run that function again: the depth of a recursion whose step runs in a callback
// (genkit's generate = func(ctx, req, currentTurn int, …) { return tracing.RunInNewSpan(ctx, …,
// func(ctx, req) { …; if currentTurn+1 > maxTurns { … }; return generate(ctx, newReq,
// currentTurn+1, …) }) }).
func (b *builder) recursionDepth(fv *ssa.FreeVar) bool {
	fn := fv.Parent()
	parent := fn.Parent()
	if parent == nil || b.cg == nil {
		return false
	}
	if bt, ok := fv.Type().Underlying().(*types.Pointer); !ok || !isIntType(bt.Elem()) {
		return false
	}
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 {
		return false
	}
	var cell *ssa.Alloc
	for _, blk := range parent.Blocks {
		for _, in := range blk.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				cell, _ = mc.Bindings[i].(*ssa.Alloc)
			}
		}
	}
	if cell == nil || cell.Referrers() == nil {
		return false
	}
	idx := -1
	for _, r := range *cell.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		p, ok := st.Val.(*ssa.Parameter)
		if !ok || p.Parent() != parent || idx >= 0 {
			return false // set to something other than the parameter, or more than once
		}
		idx = slices.Index(parent.Params, p)
	}
	if idx < 0 {
		return false
	}
	// the cell read in the closure (the load of its captured variable, fv) or in the parent
	depthOf := func(g *ssa.Function, v ssa.Value) bool {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return false
		}
		if ld.X == cell {
			return true
		}
		x, ok := ld.X.(*ssa.FreeVar)
		return ok && g == fn && x == fv
	}
	for _, g := range []*ssa.Function{parent, fn} {
		node := b.cg.Nodes[g]
		if node == nil {
			continue
		}
		for _, e := range node.Out {
			if e.Callee.Func != parent {
				continue
			}
			args := e.Site.Common().Args
			if idx >= len(args) {
				continue
			}
			if bo, ok := args[idx].(*ssa.BinOp); ok && (bo.Op == token.ADD || bo.Op == token.SUB) {
				if _, isConst := bo.Y.(*ssa.Const); isConst && depthOf(g, bo.X) {
					return true
				}
			}
		}
	}
	return false
}

// isIntType reports whether t is an integer type.
func isIntType(t types.Type) bool {
	bt, ok := t.Underlying().(*types.Basic)
	return ok && bt.Info()&types.IsInteger != 0
}

// grownLen reports whether v is len(s) of a slice that grows by appends: a loop phi fed back
// by append(s, …), a field appended to in place, or a captured variable appended to.
func (b *builder) grownLen(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	if !ok || len(c.Call.Args) != 1 {
		return false
	}
	if bi, ok := c.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" {
		return false
	}
	switch s := c.Call.Args[0].(type) {
	case *ssa.Phi:
		for _, e := range s.Edges {
			if grownFrom(e, s, 0, map[ssa.Value]bool{}) {
				return true
			}
		}
	case *ssa.UnOp:
		if s.Op != token.MUL {
			return false
		}
		switch a := s.X.(type) {
		case *ssa.FieldAddr:
			return b.grownFields[fieldOf(a.X.Type(), a.Field)]
		case *ssa.Alloc, *ssa.FreeVar:
			refs := a.Referrers()
			if refs == nil {
				return false
			}
			for _, r := range *refs {
				if st, ok := r.(*ssa.Store); ok && st.Addr == a && appendTo(st.Val, func(v ssa.Value) bool {
					ld, ok := v.(*ssa.UnOp)
					return ok && ld.Op == token.MUL && ld.X == a
				}) {
					return true
				}
			}
		}
	}
	return false
}

// grownSize reports whether v is a length builtin call, or one minus something: the
// counter grownLen decides on.
func grownSize(v ssa.Value) bool {
	if bo, ok := v.(*ssa.BinOp); ok && bo.Op == token.SUB {
		v = bo.X
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	bi, ok := c.Call.Value.(*ssa.Builtin)
	return ok && bi.Name() == "len"
}

// grownFrom reports whether v is phi extended by appends, through other phis (an inner
// loop's appends) on the way.
func grownFrom(v ssa.Value, phi *ssa.Phi, depth int, seen map[ssa.Value]bool) bool {
	if depth > 6 || seen[v] {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Phi:
		if x == phi {
			return depth > 0
		}
		for _, e := range x.Edges {
			if grownFrom(e, phi, depth+1, seen) {
				return true
			}
		}
	case *ssa.Call:
		if bi, ok := x.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(x.Call.Args) > 0 {
			return grownFrom(x.Call.Args[0], phi, depth+1, seen) || x.Call.Args[0] == ssa.Value(phi)
		}
	}
	return false
}

// appendTo reports whether v is append(s, …) with base(s).
func appendTo(v ssa.Value, base func(ssa.Value) bool) bool {
	c, ok := v.(*ssa.Call)
	if !ok || len(c.Call.Args) == 0 {
		return false
	}
	if bi, ok := c.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "append" {
		return false
	}
	return base(c.Call.Args[0])
}

func cellIncremented(cell ssa.Value) bool {
	refs := cell.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		if bo, ok := st.Val.(*ssa.BinOp); ok && (bo.Op == token.ADD || bo.Op == token.SUB) {
			if ld, ok := bo.X.(*ssa.UnOp); ok && ld.X == cell {
				return true
			}
		}
	}
	return false
}

// operand describes a bound operand.
func (b *builder) operand(v ssa.Value) ir.Operand {
	switch x := v.(type) {
	case *ssa.Const:
		o := ir.Operand{Kind: "const", Text: x.Value.ExactString(), Const: x.Value.ExactString()}
		if x.Value == nil {
			o.Text, o.Const = "nil", "nil"
		}
		return o
	case *ssa.Convert:
		return b.operand(x.X)
	case *ssa.ChangeType:
		return b.operand(x.X)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			switch a := x.X.(type) {
			case *ssa.FieldAddr:
				f := fieldOf(a.X.Type(), a.Field)
				return ir.Operand{Kind: "field", Text: f.Name(), Key: fieldKey(a.X.Type(), a.Field)}
			case *ssa.Global:
				return ir.Operand{Kind: "var", Text: a.Name(), Key: a.Pkg.Pkg.Path() + "." + a.Name()}
			}
		}
	case *ssa.Field:
		f := fieldOf(x.X.Type(), x.Field)
		return ir.Operand{Kind: "field", Text: f.Name(), Key: fieldKey(x.X.Type(), x.Field)}
	case *ssa.Parameter:
		return ir.Operand{Kind: "param", Text: x.Name()}
	case *ssa.Call:
		return ir.Operand{Kind: "call", Text: x.Common().Value.Name() + "(…)"}
	}
	return ir.Operand{Kind: "other", Text: v.Name()}
}

// branches records comparisons of a loop counter with a bound.
func (b *builder) branches(fs *funcState) {
	fn, f := fs.fn, fs.f
	for _, blk := range fn.Blocks {
		ifi, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		bo, ok := ifi.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		switch bo.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL:
		default:
			continue
		}
		cx, cy := b.isCounter(fs, bo.X, 0), b.isCounter(fs, bo.Y, 0)
		if cx == cy {
			continue
		}
		boundV, op := bo.Y, bo.Op
		if cy {
			boundV = bo.X
			op = flip(op)
		}
		if c, ok := boundV.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
			if n, ok := constant.Int64Val(c.Value); ok && n <= 0 && op != token.EQL {
				continue // i > 0, i >= 0: not a limit
			}
		}
		if cv := bo.X; cy && grownSize(bo.Y) || cx && grownSize(cv) {
			// the length of a collection the loop grows is a limit only when compared with
			// one: len(calls) == 0 or len(steps) > 1 tests content, not progress
			if c, ok := boundV.(*ssa.Const); op == token.EQL || ok && (c.Value == nil || c.Value.Kind() != constant.Int || constant.Sign(c.Value) <= 0 || c.Value.ExactString() == "1") {
				continue
			}
		}
		// The exit: the branch taken when the counter reached the bound.
		exit := blk.Succs[1] // counter < bound, counter <= bound: continue while true
		if op == token.GTR || op == token.GEQ || op == token.EQL {
			exit = blk.Succs[0]
		}
		if grownSize(bo.X) || grownSize(bo.Y) {
			if ei, ok := exit.Instrs[len(exit.Instrs)-1].(*ssa.If); ok && len(exit.Preds) == 1 &&
				ei.Cond.Pos().IsValid() && b.pos(ei.Cond.Pos()).Line == b.pos(bo.Pos()).Line {
				continue // len(msgs) > 100 && stuck: the length only with another condition
			}
		}
		loop := -1
		if ls := fs.blockLoops[blk]; len(ls) > 0 {
			loop = ls[0]
		}
		if loop >= 0 && fs.loops[loop].blocks[exit] && !reachesReturn(exit, fs.loops[loop], 8) && !stateLeaves(exit, fs.loops[loop]) {
			continue // neither leaves the loop, nor ends the function, nor its current work
		}
		if cv := bo.X; loop >= 0 {
			if cy {
				cv = bo.Y
			}
			if failureStreak(cv, fs.loops[loop]) {
				continue // consecutiveErrors >= 3: a limit on failures in a row, not on iterations
			}
		}
		if !bo.Pos().IsValid() && (loop < 0 || f.Loops[loop].Kind != ir.LoopRangeInt) {
			continue // the synthesized index test of a range over a collection
		}
		br := ir.Branch{Pos: b.pos(bo.Pos()), Source: b.source(bo.Pos()), Loop: loop, Return: -1, Bound: b.operand(boundV)}
		if be := fs.binExprs[bo.Pos()]; be != nil {
			br.Text = render(be)
			bx := be.Y
			if cy {
				bx = be.X
			}
			for cv := boundV; ; {
				// int64(r.opts.MaxIterations): the bound is the field, not its conversion
				ce, ok := ast.Unparen(bx).(*ast.CallExpr)
				if !ok || len(ce.Args) != 1 {
					break
				}
				if c, ok := cv.(*ssa.Convert); ok {
					cv = c.X
				} else if c, ok := cv.(*ssa.ChangeType); ok {
					cv = c.X
				} else {
					break
				}
				bx = ce.Args[0]
			}
			br.Bound.Text = render(bx)
			if br.Bound.Kind == "field" || br.Bound.Kind == "var" {
				if src := b.localCopyOf(fs, bx); src != nil {
					br.Bound.Text = render(src) // limit := inv.MaxLLMCalls: the field, as written
				}
			}
			if br.Bound.Kind == "param" {
				b.paramDefault(fs, boundV, &br.Bound)
			} else if br.Bound.Key == "" {
				// (a local limit := 14 never assigned again is folded into a constant: its
				// default is still the declaration's)
				b.localDefault(fs, bx, &br.Bound)
			}
			if tv, ok := b.info(fn).Types[bx]; ok && tv.Value != nil {
				if id, ok := ast.Unparen(bx).(*ast.Ident); ok {
					if c, ok := b.info(fn).Uses[id].(*types.Const); ok {
						br.Bound.ConstPos = b.pos(c.Pos())
					}
				}
			}
		} else if loop >= 0 && f.Loops[loop].Kind == ir.LoopRangeInt {
			br.Text = "range " + f.Loops[loop].Over
			br.Bound.Text = f.Loops[loop].Over
			br.Pos, br.Source = f.Loops[loop].Pos, f.Loops[loop].Source
		} else {
			br.Text = br.Bound.Text
		}
		if loop >= 0 && fs.loops[loop].header == blk {
			if fsmt, ok := fs.loops[loop].stmt.(*ast.ForStmt); ok && fsmt.Cond != nil {
				br.InCond = true
			}
			if f.Loops[loop].Kind == ir.LoopRangeInt {
				br.InCond = true
			}
		}
		br.Optional = b.guardedNonZero(fs, blk, boundV)
		var left *natLoop
		if loop >= 0 {
			left = fs.loops[loop]
		}
		br.Return, br.StopText, br.AtPos, br.AtSource = b.follow(fs, exit, left)
		if br.StopText == "" {
			br.HandedErr = b.handedErr(fs, exit)
		}
		f.Branches = append(f.Branches, br)
	}
}

// handedErr returns the error the straight-line path from a bound's branch stores into a
// field without returning it (result.err = MaxTurnsExceededError{…}; return: a run going on
// in a goroutine hands its failure to the result its caller drains): the error's type or
// variable name, or "" when there is none.
func (b *builder) handedErr(fs *funcState, exit *ssa.BasicBlock) string {
	seen := map[*ssa.BasicBlock]bool{}
	for cur, steps := exit, 0; cur != nil && steps < 12 && !seen[cur]; steps++ {
		seen[cur] = true
		for _, in := range cur.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			if _, ok := st.Addr.(*ssa.FieldAddr); !ok || !roles.IsError(st.Val.Type()) {
				continue
			}
			switch v := st.Val.(type) {
			case *ssa.MakeInterface:
				if n := roles.NamedOf(v.X.Type()); n != nil {
					return n.Obj().Name()
				}
			case *ssa.UnOp:
				if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
					return g.Pkg.Pkg.Name() + "." + g.Name()
				}
			}
		}
		if len(cur.Succs) != 1 {
			break
		}
		cur = cur.Succs[0]
	}
	return ""
}

// follow walks from the block taken at a bound (or when a stop condition holds) to what the
// function does there: the return it reaches (index in f.Returns, -1 if none is certain), a
// stop reason constant written on the way, and the position of the first thing done. Past
// the straight-line path it still finds the return when every path from there (not going
// round the loop that was left) reaches the same one, as after a break followed by a
// summary loop.
func (b *builder) follow(fs *funcState, exit *ssa.BasicBlock, left *natLoop) (ret int, stopText string, at ir.Pos, atSrc string) {
	ret = -1
	seen := map[*ssa.BasicBlock]bool{}
	cur := exit
	for steps := 0; cur != nil && steps < 12 && !seen[cur]; steps++ {
		seen[cur] = true
		for _, in := range cur.Instrs {
			switch x := in.(type) {
			case *ssa.Store:
				if c, ok := x.Val.(*ssa.Const); ok && stopText == "" && c.Value != nil && c.Value.Kind() == constant.String {
					stopText = constant.StringVal(c.Value)
					if n := roles.NamedOf(c.Type()); n != nil {
						stopText = n.Obj().Name() + ":" + stopText
					}
					if !at.IsValid() {
						at, atSrc = b.pos(x.Pos()), b.source(x.Pos())
					}
				}
			case *ssa.Return:
				ret = -1
				if fs.retIdx != nil {
					if i, ok := fs.retIdx[x]; ok {
						ret = i
					}
				}
				if stopText == "" {
					at, atSrc = b.retPos(fs, x), b.source(b.retTokPos(fs, x))
				}
				return
			}
			if !at.IsValid() && in.Pos().IsValid() {
				if _, isIf := in.(*ssa.If); !isIf {
					at, atSrc = b.pos(in.Pos()), b.source(in.Pos())
				}
			}
		}
		if len(cur.Succs) != 1 {
			break
		}
		cur = cur.Succs[0]
	}
	if cur == nil || stopText != "" {
		return
	}
	// every path on from cur reaches one return
	var only *ssa.Return
	visited := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{cur}
	for n := 0; len(stack) > 0; n++ {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[x] || (left != nil && x == left.header) {
			continue
		}
		if n > 64 {
			return
		}
		visited[x] = true
		if r, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Return); ok {
			if x == fs.fn.Recover {
				continue
			}
			if only != nil && only != r {
				return
			}
			only = r
			continue
		}
		if _, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Panic); ok {
			continue
		}
		stack = append(stack, x.Succs...)
	}
	if only != nil && fs.retIdx != nil {
		if i, ok := fs.retIdx[only]; ok {
			ret = i
			if !at.IsValid() {
				at, atSrc = b.retPos(fs, only), b.source(b.retTokPos(fs, only))
			}
		}
	}
	return
}

// stopExits follows each stop-condition list's decision to what the function does when a
// condition holds.
func (b *builder) stopExits(fs *funcState) {
	for i, ci := range fs.stopCalls {
		v, ok := ci.(ssa.Value)
		if !ok || v.Referrers() == nil {
			continue
		}
		ss := &fs.f.Stops[i]
		var left *natLoop
		if ss.Loop >= 0 && ss.Loop < len(fs.loops) {
			left = fs.loops[ss.Loop]
		}
		for _, r := range *v.Referrers() {
			ifi, ok := r.(*ssa.If)
			if !ok || ifi.Cond != v {
				continue
			}
			ss.Return, ss.StopText, ss.AtPos, ss.AtSource = b.follow(fs, ifi.Block().Succs[0], left)
			break
		}
	}
}

func flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// reachesReturn reports whether a return is reachable from blk within n blocks without
// passing the loop's header.
func reachesReturn(blk *ssa.BasicBlock, l *natLoop, n int) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(x *ssa.BasicBlock, d int) bool
	walk = func(x *ssa.BasicBlock, d int) bool {
		if d > n || seen[x] || x == l.header {
			return false
		}
		seen[x] = true
		if _, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Return); ok {
			return true
		}
		for _, s := range x.Succs {
			if walk(s, d+1) {
				return true
			}
		}
		return false
	}
	return walk(blk, 0)
}

// localCopyOf returns, for an identifier naming a local variable defined once from another
// expression (limit := inv.MaxLLMCalls), that expression; nil otherwise.
func (b *builder) localCopyOf(fs *funcState, e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || fs.syntax == nil {
		return nil
	}
	info := b.info(fs.fn)
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() || obj.IsField() {
		return nil
	}
	var src ast.Expr
	assigned := 0
	ast.Inspect(fs.syntax, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			li, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			if info.Defs[li] == obj || info.Uses[li] == obj {
				assigned++
				src = as.Rhs[i]
			}
		}
		return true
	})
	if assigned != 1 {
		return nil
	}
	return src
}

// localDefault gives a bound held in a local variable the default the enclosing function
// sets in it: maxTurns := r.Config.MaxTurns; if maxTurns == 0 { maxTurns = DefaultMaxTurns },
// also when the loop is in a closure that captures the variable. A local copied from a field
// takes the field's key (the default is that field's, and the field's other defaults apply);
// any other local gets a key of its own. A default given by a named constant points at the
// constant's declaration, in whichever file or package it is.
func (b *builder) localDefault(fs *funcState, e ast.Expr, op *ir.Operand) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return
	}
	info := b.info(fs.fn)
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() || obj.IsField() {
		return
	}
	// the function declaring the variable: the closure's parents, outermost last
	var syntax ast.Node
	for fn := fs.fn; fn != nil; fn = fn.Parent() {
		if sx := fn.Syntax(); sx != nil && sx.Pos() <= obj.Pos() && obj.Pos() < sx.End() {
			syntax = sx
		}
	}
	if syntax == nil {
		return
	}
	var src ast.Expr
	var def ast.Expr
	var defAt token.Pos
	zeroCheck := false
	var stack []ast.Node
	ast.Inspect(syntax, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		var lhs, rhs []ast.Expr
		switch x := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = x.Lhs, x.Rhs
		case *ast.ValueSpec:
			for _, nm := range x.Names {
				lhs = append(lhs, nm)
			}
			rhs = x.Values
		}
		if len(lhs) != len(rhs) {
			return true
		}
		for i, l := range lhs {
			li, ok := l.(*ast.Ident)
			if !ok || info.Defs[li] != obj && info.Uses[li] != obj {
				continue
			}
			if tv, ok := info.Types[rhs[i]]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
				if v, ok := constant.Int64Val(tv.Value); ok && v > 0 && (def == nil || !zeroCheck) {
					def, defAt = rhs[i], n.Pos()
					zeroCheck = false
					for j := len(stack) - 2; j >= 0 && j >= len(stack)-4; j-- {
						if ifs, ok := stack[j].(*ast.IfStmt); ok && mentions(ifs.Cond, obj.Name()) {
							zeroCheck = true
						}
					}
				}
				continue
			}
			if info.Defs[li] == obj {
				src = rhs[i]
			}
		}
		return true
	})
	if def == nil {
		return
	}
	key := ""
	if sel, ok := ast.Unparen(src).(*ast.SelectorExpr); ok && src != nil {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
			key = fieldKeyOfSel(s, sel.Sel.Name)
		}
	}
	if key == "" {
		p := b.pos(obj.Pos())
		key = fmt.Sprintf("%s.%s@%s:%d", obj.Pkg().Path(), obj.Name(), p.File, p.Line)
	}
	via := "constructor"
	if zeroCheck {
		via = "zero_check"
	}
	op.Key = key
	b.addDefault(info, key, def, defAt, via, nil)
}

// paramDefault gives a bound that is a parameter the default of what the function's one
// caller passes for it: go r.runStreamedImpl(ctx, agent, maxTurns) after maxTurns := …;
// if maxTurns == 0 { maxTurns = DefaultMaxTurns }.
func (b *builder) paramDefault(fs *funcState, v ssa.Value, op *ir.Operand) {
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return
	}
	idx := -1
	for i, q := range fs.fn.Params {
		if q == p {
			idx = i
		}
	}
	if fs.fn.Signature.Recv() != nil {
		idx-- // the receiver is not among the call's arguments as written
	}
	if idx < 0 {
		return
	}
	var caller *funcState
	var at token.Pos
	for _, cs := range b.funcs {
		for ci := range cs.callIdx {
			if ci.Common().StaticCallee() != fs.fn {
				continue
			}
			if caller != nil {
				return // several callers: no one default
			}
			caller, at = cs, ci.Common().Pos()
		}
	}
	if caller == nil || caller.syntax == nil || !at.IsValid() {
		return
	}
	var arg ast.Expr
	ast.Inspect(caller.syntax, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok && ce.Lparen == at && idx < len(ce.Args) && !ce.Ellipsis.IsValid() {
			arg = ce.Args[idx]
		}
		return arg == nil
	})
	if arg != nil {
		b.localDefault(caller, arg, op)
	}
}

// guardedNonZero reports whether the comparison in blk runs only when the bound is set: a
// dominating test of the same operand against zero (max > 0 && i >= max).
func (b *builder) guardedNonZero(fs *funcState, blk *ssa.BasicBlock, bound ssa.Value) bool {
	want := b.operand(bound)
	if want.Kind == "const" {
		return false
	}
	for _, other := range fs.fn.Blocks {
		if other == blk || !other.Dominates(blk) {
			continue
		}
		ifi, ok := other.Instrs[len(other.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		bo, ok := ifi.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		// set := bound > 0 / bound != 0 (the comparison on the true branch), or the early
		// return of an unset bound: bound <= 0 / bound == 0 (the comparison on the false one)
		var set *ssa.BasicBlock
		switch bo.Op {
		case token.GTR, token.NEQ:
			set = ifi.Block().Succs[0]
		case token.LEQ, token.EQL:
			set = ifi.Block().Succs[1]
		default:
			continue
		}
		c, ok := bo.Y.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.ExactString() != "0" {
			continue
		}
		got := b.operand(bo.X)
		if got.Kind == want.Kind && got.Key == want.Key && got.Text == want.Text && set.Dominates(blk) {
			return true
		}
	}
	return false
}

func (b *builder) retTokPos(fs *funcState, r *ssa.Return) token.Pos {
	if r.Pos().IsValid() {
		return r.Pos()
	}
	if fs.syntax != nil {
		switch s := fs.syntax.(type) {
		case *ast.FuncDecl:
			if s.Body != nil {
				return s.Body.Rbrace
			}
		case *ast.FuncLit:
			return s.Body.Rbrace
		}
	}
	return token.NoPos
}

func (b *builder) retPos(fs *funcState, r *ssa.Return) ir.Pos { return b.pos(b.retTokPos(fs, r)) }

// returnsOf records the returns of a function with their values classified and what can run
// before them.
func (b *builder) returnsOf(fs *funcState) {
	fn, f := fs.fn, fs.f
	fs.retIdx = map[*ssa.Return]int{}
	reach := reachability(fn)
	callBlocks := map[int]*ssa.BasicBlock{}
	for ci, idx := range fs.callIdx {
		callBlocks[idx] = ci.Block()
	}
	sig := fn.Signature
	yields, items := b.yieldOutcomes(fs)
	var guards map[*ast.ReturnStmt]*ir.Guard
	if fs.syntax != nil {
		switch s := fs.syntax.(type) {
		case *ast.FuncDecl:
			if s.Body != nil {
				guards = b.guards(s.Body, b.info(fn))
			}
		case *ast.FuncLit:
			guards = b.guards(s.Body, b.info(fn))
		}
	}
	for _, blk := range fn.Blocks {
		r, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || blk == fn.Recover {
			continue // the recover block runs only after a recovered panic
		}
		tp := b.retTokPos(fs, r)
		ret := ir.Return{Pos: b.pos(tp), Source: b.source(tp), InLoop: -1}
		if rs := fs.returns[r.Pos()]; rs != nil {
			var parts []string
			for _, e := range rs.Results {
				parts = append(parts, types.ExprString(e))
			}
			ret.Text = strings.TrimSpace("return " + strings.Join(parts, ", "))
			if rr := []rune(ret.Text); len(rr) > 80 {
				ret.Text = string(rr[:79]) + "…"
			}
		} else {
			ret.Text = "return"
		}
		if ls := fs.blockLoops[blk]; len(ls) > 0 {
			ret.InLoop = ls[0]
		}
		// results through cells (a function with defers): the values stored on this path
		results := make([]ssa.Value, len(r.Results))
		resolved := make([]bool, len(r.Results))
		for i, v := range r.Results {
			results[i] = v
			if sv := cellStored(r, v); sv != nil {
				results[i], resolved[i] = sv, true
			}
		}
		// pass-through: every result extracted from one call
		passCall := -1
		for i, v := range results {
			ci := tupleCall(v)
			if ci == nil || ci.Common().Signature().Results().Len() != len(r.Results) {
				passCall = -1
				break
			}
			idx, ok := fs.callIdx[ci]
			if !ok || (i > 0 && idx != passCall) {
				passCall = -1
				break
			}
			passCall = idx
		}
		if len(results) == 1 {
			if c, ok := results[0].(*ssa.Call); ok && !errorConstructor(c) {
				if idx, ok := fs.callIdx[c]; ok {
					passCall = idx
				}
			}
		}
		rs := fs.returns[r.Pos()]
		if rs != nil {
			ret.Guard = guards[rs]
		}
		for i, v := range results {
			// a closure of this function returned to the caller, which runs it later (an
			// iterator the caller drains, a callback)
			for _, cl := range resolveFunc(v, 0) {
				if cl.Parent() == fn {
					b.setLaunch(cl, "return")
				}
			}
			val := b.classify(fs, v, 0)
			if u, ok := v.(*ssa.UnOp); ok && !resolved[i] && rs != nil && len(rs.Results) == len(r.Results) {
				if _, cell := u.X.(*ssa.Alloc); cell {
					val = b.classifyAST(fs, rs.Results[i])
				} else if ssaName.MatchString(val.Text) {
					// return result, result.Error: a field read has no SSA text of its own;
					// the expression as written
					val.Text = b.classifyAST(fs, rs.Results[i]).Text
				}
			}
			if passCall >= 0 && val.Kind != ir.ValCtxErr {
				// (return ctx.Err() hands on no callee's results: the run is cancelled)
				val = ir.Value{Kind: ir.ValCall, Call: passCall, Text: val.Text, Key: val.Key}
			}
			val.Stream = isStream(sig.Results().At(i).Type())
			if alts := altCalls(fs, v); len(alts) > 1 {
				val.Alts = alts
			}
			ret.Values = append(ret.Values, val)
			ret.Resume = ret.Resume || carriesParam(fn, v)
			if i == len(r.Results)-1 && roles.IsError(sig.Results().At(i).Type()) {
				e := val
				ret.Err = &e
			}
		}
		for i, l := range fs.loops {
			if l.header != nil && reach(l.header, blk) {
				ret.AfterLoops = append(ret.AfterLoops, i)
			}
		}
		for idx := 0; idx < len(f.Calls); idx++ {
			cb := callBlocks[idx]
			if cb == blk || (cb != nil && reach(cb, blk)) {
				ret.AfterCalls = append(ret.AfterCalls, idx)
			}
		}
		if ret.Err == nil && sig.Results().Len() == 0 && yields != nil {
			if rs := fs.returns[r.Pos()]; rs != nil || !r.Pos().IsValid() {
				if v, ok := yields[rs]; ok {
					ret.Err = v
					if v.Kind != ir.ValNil {
						ret.Text = v.Text + "; return"
					}
				}
				if v, ok := items[rs]; ok && ret.Err != nil && ret.Err.Kind == ir.ValNil {
					// yield(message, nil); return: the body hands over a result and ends, as
					// a function returning (message, nil) does
					ret.Values = []ir.Value{v, *ret.Err}
					ret.Text = v.Text + "; return"
				}
			}
		}
		ret.ErrOf = failedCalls(fs, blk)
		ret.OnCancel = cancelGuarded(blk)
		fs.retIdx[r] = len(f.Returns)
		f.Returns = append(f.Returns, ret)
	}
}

// guardingIfs yields, for blk and each block dominating it that has a single predecessor
// ending in a two-way if, that block b and the if (its predecessor b.Preds[0] ends in it): the branches that decide
// whether blk runs (b is p.Succs[0] on the then side).
func guardingIfs(blk *ssa.BasicBlock) iter.Seq2[*ssa.BasicBlock, *ssa.If] {
	return func(yield func(*ssa.BasicBlock, *ssa.If) bool) {
		seen := map[*ssa.BasicBlock]bool{}
		for b := blk; b != nil && !seen[b]; b = b.Idom() {
			seen[b] = true
			if len(b.Preds) != 1 {
				continue
			}
			p := b.Preds[0]
			iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
			if !ok || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
				continue
			}
			if !yield(b, iff) {
				return
			}
		}
	}
}

// cancelGuarded reports whether blk runs only where the run was found cancelled: it lies in
// the then-branch of errors.Is(x, context.Canceled) or errors.Is(x, context.DeadlineExceeded),
// of x == context.Canceled (the else-branch of !=), or of ctx.Err() != nil (ollama@v0.17.4
// x/cmd/run.go:281: if errors.Is(err, context.Canceled) { return nil, nil }).
func cancelGuarded(blk *ssa.BasicBlock) bool {
	for b, iff := range guardingIfs(blk) {
		p := b.Preds[0]
		switch c := iff.Cond.(type) {
		case *ssa.Call:
			if s := c.Call.StaticCallee(); s != nil && s.Pkg != nil && s.Pkg.Pkg.Path() == "errors" && s.Name() == "Is" &&
				len(c.Call.Args) == 2 && ctxErrValue(c.Call.Args[1]) && p.Succs[0] == b {
				return true
			}
		case *ssa.BinOp:
			taken := 0
			switch c.Op {
			case token.EQL:
			case token.NEQ:
				taken = 1
			default:
				continue
			}
			if (ctxErrValue(c.X) || ctxErrValue(c.Y)) && p.Succs[taken] == b {
				return true
			}
			// ctx.Err() != nil
			x := c.X
			if nilConst(x) {
				x = c.Y
			} else if !nilConst(c.Y) {
				continue
			}
			if call, ok := x.(*ssa.Call); ok && call.Call.IsInvoke() && call.Call.Method.Name() == "Err" &&
				isContext(call.Call.Value.Type()) && p.Succs[1-taken] == b {
				return true
			}
		}
	}
	return false
}

// ctxErrValue reports whether v is context.Canceled or context.DeadlineExceeded (a load of the
// package variable, as an error).
func ctxErrValue(v ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	g, ok := u.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "context" && (g.Name() == "Canceled" || g.Name() == "DeadlineExceeded")
}

// failedCalls lists the calls (indices in Func.Calls) whose error result is known to be non-nil
// on every path into blk: blk lies in the then-branch of an if err != nil (or the else-branch of
// an if err == nil) testing that call's error, directly or through the variable it was stored
// into (a named result whose address is taken).
func failedCalls(fs *funcState, blk *ssa.BasicBlock) []int {
	var out []int
	for b, iff := range guardingIfs(blk) {
		p := b.Preds[0]
		bin, ok := iff.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		taken := 0
		switch bin.Op {
		case token.NEQ:
		case token.EQL:
			taken = 1
		default:
			continue
		}
		if p.Succs[taken] != b {
			continue
		}
		x := bin.X
		if nilConst(x) {
			x = bin.Y
		} else if !nilConst(bin.Y) {
			continue
		}
		if !roles.IsError(x.Type()) {
			continue
		}
		if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
			if cell, ok := u.X.(*ssa.Alloc); ok {
				x = storedBefore(cell, u)
			}
		}
		var ci ssa.CallInstruction
		if c, ok := x.(*ssa.Call); ok {
			ci = c
		} else {
			ci = tupleCall(x)
		}
		if idx, ok := fs.callIdx[ci]; ci != nil && ok && !slices.Contains(out, idx) {
			out = append(out, idx)
		}
	}
	return out
}

// nilConst reports whether v is the constant nil.
func nilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// storedBefore returns the value last stored into cell before the instruction at, on the
// single-predecessor chain of blocks leading to it (nil when a merge comes first).
func storedBefore(cell *ssa.Alloc, at ssa.Instruction) ssa.Value {
	blk := at.Block()
	end := len(blk.Instrs)
	for i, in := range blk.Instrs {
		if in == at {
			end = i
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	for blk != nil && !seen[blk] {
		seen[blk] = true
		for i := end - 1; i >= 0; i-- {
			if st, ok := blk.Instrs[i].(*ssa.Store); ok && st.Addr == cell {
				return st.Val
			}
		}
		if len(blk.Preds) != 1 {
			return nil
		}
		blk = blk.Preds[0]
		end = len(blk.Instrs)
	}
	return nil
}

// carriesParam reports whether v (a composite built in fn, or its address) stores into a
// field a non-nil value whose type is the type of one of fn's parameters: the state a caller
// passed in, handed back to be passed again.
func carriesParam(fn *ssa.Function, v ssa.Value) bool {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	al, ok := v.(*ssa.Alloc)
	if !ok || al.Referrers() == nil {
		return false
	}
	var params []types.Type
	for _, p := range fn.Params {
		if _, basic := p.Type().Underlying().(*types.Basic); basic || p.Type().String() == "context.Context" {
			continue
		}
		if fn.Signature.Recv() != nil && p == fn.Params[0] {
			continue
		}
		t := types.Unalias(p.Type())
		if pt, ok := t.(*types.Pointer); ok {
			t = types.Unalias(pt.Elem())
		}
		if _, named := t.(*types.Named); !named {
			continue // any, a slice, a map: too loose to say it is the state passed back
		}
		params = append(params, p.Type())
	}
	if len(params) == 0 {
		return false
	}
	for _, r := range *al.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil {
			continue
		}
		ft := fieldOf(fa.X.Type(), fa.Field).Type()
		for _, r2 := range *fa.Referrers() {
			st, ok := r2.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			if c, ok := st.Val.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			for _, pt := range params {
				if types.Identical(ft, pt) {
					return true
				}
			}
		}
	}
	return false
}

// errorConstructor reports whether a call makes a new error (fmt.Errorf, errors.New,
// errors.Join, a pkg/errors wrap) rather than passing on what a callee decided.
func errorConstructor(c *ssa.Call) bool {
	sc := c.Common().StaticCallee()
	if sc == nil || sc.Pkg == nil {
		return false
	}
	p := sc.Pkg.Pkg.Path()
	return p == "fmt" || p == "errors" || strings.HasSuffix(p, "/errors")
}

// cellStored returns, for a result loaded from a result cell (go/ssa gives a function with
// defers or named results cells), the value last stored into the cell on the return's path:
// the return's own block and its chain of single predecessors. Nil when v is not such a load
// or the store is not on one path.
func cellStored(r *ssa.Return, v ssa.Value) ssa.Value {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil
	}
	cell, ok := u.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	blk, end := r.Block(), len(r.Block().Instrs)
	seen := map[*ssa.BasicBlock]bool{}
	for blk != nil && !seen[blk] {
		seen[blk] = true
		for i := end - 1; i >= 0; i-- {
			if st, ok := blk.Instrs[i].(*ssa.Store); ok && st.Addr == cell {
				if ld, ok := st.Val.(*ssa.UnOp); ok && ld.Op == token.MUL && ld.X == cell {
					continue // return err with err the named result itself: the store before
				}
				return st.Val
			}
		}
		if len(blk.Preds) != 1 {
			return nil
		}
		blk = blk.Preds[0]
		end = len(blk.Instrs)
	}
	return nil
}

// yieldOutcomes describes how the returns of an iterator body (a func(yield) literal) end the
// run for the loop that drains it, as the error a function would return: the error the body
// yields just before returning (yield(nil, err); return), none otherwise (nil: the iteration
// ends normally), except after the consumer stopped (if !yield(…) { return }), which is left
// out. The key nil stands for the implicit return at the end of the body. items are, for a
// return right after a yield of an item with a nil error (yield(message, nil); return), that
// item: the result the body hands over before it ends. It returns nil for other functions.
func (b *builder) yieldOutcomes(fs *funcState) (errs map[*ast.ReturnStmt]*ir.Value, items map[*ast.ReturnStmt]ir.Value) {
	fn := fs.fn
	lit, ok := fs.syntax.(*ast.FuncLit)
	if !ok || lit.Body == nil || len(fn.Params) != 1 || fn.Signature.Results().Len() != 0 || !yieldParam(fn.Params[0], 0) {
		return nil, nil
	}
	items = map[*ast.ReturnStmt]ir.Value{}
	name := fn.Params[0].Name()
	isYield := func(e ast.Expr) (*ast.CallExpr, bool) {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return nil, false
		}
		id, ok := ast.Unparen(c.Fun).(*ast.Ident)
		return c, ok && id.Name == name
	}
	// yielded is the error a statement yields (yield(nil, err)), nil when it yields none
	yielded := func(st ast.Stmt) *ir.Value {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return nil
		}
		c, ok := isYield(es.X)
		if !ok || len(c.Args) == 0 {
			return nil
		}
		last := c.Args[len(c.Args)-1]
		if isNilIdent(b.info(fn), last) {
			return nil
		}
		v := &ir.Value{Kind: ir.ValError, Call: -1, Text: render(c)}
		if cv := b.classifyAST(fs, last); cv.Kind == ir.ValCtxErr || cv.Kind == ir.ValSentinel {
			v.Kind, v.Key = cv.Kind, cv.Key
		}
		return v
	}
	// yieldedItem is the item a statement yields with a nil error (yield(message, nil)), a
	// value other than nil or a literal
	yieldedItem := func(st ast.Stmt) (ir.Value, bool) {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return ir.Value{}, false
		}
		c, ok := isYield(es.X)
		if !ok || len(c.Args) != 2 || !isNilIdent(b.info(fn), c.Args[1]) || isNilIdent(b.info(fn), c.Args[0]) {
			return ir.Value{}, false
		}
		if _, lit := ast.Unparen(c.Args[0]).(*ast.BasicLit); lit {
			return ir.Value{}, false
		}
		return ir.Value{Kind: ir.ValOther, Call: -1, Text: render(c)}, true
	}
	out := map[*ast.ReturnStmt]*ir.Value{nil: {Kind: ir.ValNil, Call: -1}}
	if n := len(lit.Body.List); n > 0 {
		// the body ends by yielding an error, with no return after it (a loop's bound:
		// yield(nil, ErrMaxIterations) as its last statement): the implicit return fails
		if v := yielded(lit.Body.List[n-1]); v != nil {
			out[nil] = v
		}
	}
	var list func(stmts []ast.Stmt, stopped bool)
	var stmt func(st ast.Stmt, stopped bool)
	list = func(stmts []ast.Stmt, stopped bool) {
		for i, st := range stmts {
			rs, ok := st.(*ast.ReturnStmt)
			if !ok {
				stmt(st, false)
				continue
			}
			v := &ir.Value{Kind: ir.ValNil, Call: -1}
			if i > 0 {
				if y := yielded(stmts[i-1]); y != nil {
					v = y
				} else if item, ok := yieldedItem(stmts[i-1]); ok {
					items[rs] = item
				}
			}
			if stopped && i == 0 {
				continue // the consumer stopped: it decides
			}
			out[rs] = v
		}
	}
	stmt = func(st ast.Stmt, _ bool) {
		switch x := st.(type) {
		case *ast.BlockStmt:
			list(x.List, false)
		case *ast.IfStmt:
			stopped := false
			if u, ok := x.Cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
				_, stopped = isYield(u.X)
			}
			if bin, ok := x.Cond.(*ast.BinaryExpr); ok && bin.Op == token.LOR {
				if u, ok := bin.X.(*ast.UnaryExpr); ok && u.Op == token.NOT {
					_, stopped = isYield(u.X) // if !yield(ev, err) || err != nil
				}
			}
			list(x.Body.List, stopped)
			if x.Else != nil {
				stmt(x.Else, false)
			}
		case *ast.ForStmt:
			list(x.Body.List, false)
		case *ast.RangeStmt:
			list(x.Body.List, false)
		case *ast.SwitchStmt:
			for _, c := range x.Body.List {
				list(c.(*ast.CaseClause).Body, false)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range x.Body.List {
				list(c.(*ast.CaseClause).Body, false)
			}
		case *ast.SelectStmt:
			for _, c := range x.Body.List {
				list(c.(*ast.CommClause).Body, false)
			}
		case *ast.LabeledStmt:
			stmt(x.Stmt, false)
		}
	}
	list(lit.Body.List, false)
	return out, items
}

// altCalls returns the calls whose result v is, through phis (a local assigned in the two
// branches of an if: r, err = c.Stream(…) / r, err = c.Generate(…)), at most four, in order.
func altCalls(fs *funcState, v ssa.Value) []int {
	var out []int
	seen := map[ssa.Value]bool{}
	var walk func(x ssa.Value, depth int)
	walk = func(x ssa.Value, depth int) {
		if depth > 4 || seen[x] || len(out) > 4 {
			return
		}
		seen[x] = true
		switch y := x.(type) {
		case *ssa.Phi:
			for _, e := range y.Edges {
				walk(e, depth+1)
			}
		case *ssa.Extract:
			if c, ok := y.Tuple.(*ssa.Call); ok {
				walk(c, depth+1)
			}
		case *ssa.Call:
			if idx, ok := fs.callIdx[y]; ok && !slices.Contains(out, idx) {
				out = append(out, idx)
			}
		}
	}
	walk(v, 0)
	if len(out) > 4 {
		return nil
	}
	sort.Ints(out)
	return out
}

// tupleCall returns the call whose result tuple v is extracted from.
func tupleCall(v ssa.Value) ssa.CallInstruction {
	if e, ok := v.(*ssa.Extract); ok {
		if c, ok := e.Tuple.(*ssa.Call); ok {
			return c
		}
	}
	return nil
}

// reachability returns a function telling whether block to is reachable from block from
// (through at least one edge, or from == to).
func reachability(fn *ssa.Function) func(from, to *ssa.BasicBlock) bool {
	cache := map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}
	return func(from, to *ssa.BasicBlock) bool {
		if from == to {
			return true
		}
		set, ok := cache[from]
		if !ok {
			set = map[*ssa.BasicBlock]bool{}
			stack := append([]*ssa.BasicBlock{}, from.Succs...)
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if set[x] {
					continue
				}
				set[x] = true
				stack = append(stack, x.Succs...)
			}
			cache[from] = set
		}
		return set[to]
	}
}

// classifySteps counts classify1 calls (the tests bound it: linear in the function's size).
var classifySteps atomic.Int64

// classify says what a returned value is. Each value is classified once per function (phi
// webs and wrapped errors share operands, so an unmemoized walk is exponential in the depth);
// a value met again while it is being classified (a phi cycle) is "other".
func (b *builder) classify(fs *funcState, v ssa.Value, depth int) ir.Value {
	if _, ok := v.(*ssa.Const); ok {
		return b.classify1(fs, v, 0) // constants are shared: never memoize a depth-cut answer
	}
	if c, ok := fs.classified[v]; ok {
		return c
	}
	if fs.classified == nil {
		fs.classified = map[ssa.Value]ir.Value{}
	}
	fs.classified[v] = ir.Value{Kind: ir.ValOther, Call: -1, Text: v.Name()}
	c := b.classify1(fs, v, depth)
	fs.classified[v] = c
	return c
}

func (b *builder) classify1(fs *funcState, v ssa.Value, depth int) ir.Value {
	classifySteps.Add(1)
	out := ir.Value{Kind: ir.ValOther, Call: -1, Text: v.Name()}
	if depth > 5 {
		return out
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value == nil {
			out.Kind, out.Text = ir.ValNil, "nil"
		} else {
			out.Kind, out.Text = ir.ValConst, x.Value.ExactString()
		}
	case *ssa.MakeInterface:
		in := b.classify(fs, x.X, depth+1)
		if in.Kind == ir.ValOther || in.Kind == ir.ValNil {
			// a concrete value put in an interface is never a nil error, even a struct
			// literal (MaxTurnsExceededError{…}: its cell holds no stored value) or a nil
			// pointer; its type names what it says (a limit exceeded)
			in.Kind = ir.ValError
			if n := roles.NamedOf(x.X.Type()); n != nil && n.Obj().Pkg() != nil && in.Key == "" {
				in.Key = n.Obj().Pkg().Path() + "." + n.Obj().Name()
				if in.Text == "nil" || in.Text == "" || ssaName.MatchString(in.Text) {
					in.Text = n.Obj().Name() + "{…}"
				}
			}
		}
		return in
	case *ssa.ChangeInterface:
		return b.classify(fs, x.X, depth+1)
	case *ssa.UnOp:
		if a, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL {
			// a result cell (returns inside a range-over-func body store into it)
			best := ir.Value{Kind: ir.ValNil, Call: -1, Text: "nil"}
			for _, r := range *a.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == a {
					c := b.classify(fs, st.Val, depth+1)
					if valRank[c.Kind] > valRank[best.Kind] {
						best = c
					}
				}
			}
			best.Call = -1
			return best
		}
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			key := g.Pkg.Pkg.Path() + "." + g.Name()
			if key == "context.Canceled" || key == "context.DeadlineExceeded" {
				return ir.Value{Kind: ir.ValCtxErr, Text: "context." + g.Name(), Key: key, Call: -1}
			}
			if roles.IsError(g.Type().(*types.Pointer).Elem()) {
				return ir.Value{Kind: ir.ValSentinel, Text: g.Pkg.Pkg.Name() + "." + g.Name(), Key: key, Call: -1}
			}
		}
	case *ssa.Phi:
		best := ir.Value{Kind: ir.ValNil, Call: -1, Text: "nil"}
		for _, e := range x.Edges {
			c := b.classify(fs, e, depth+1)
			if valRank[c.Kind] > valRank[best.Kind] {
				best = c
			}
		}
		best.Call = -1
		return best
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok {
			return b.classifyCall(fs, c, depth)
		}
	case *ssa.Call:
		return b.classifyCall(fs, x, depth)
	}
	return out
}

func (b *builder) classifyCall(fs *funcState, c *ssa.Call, depth int) ir.Value {
	com := c.Common()
	out := ir.Value{Kind: ir.ValError, Call: -1, Text: com.Value.Name() + "(…)"}
	if idx, ok := fs.callIdx[c]; ok {
		out.Call = idx
		out.Text = fs.f.Calls[idx].Text
		if len(fs.f.Calls[idx].Keys) > 0 {
			out.Key = fs.f.Calls[idx].Keys[0]
		}
	}
	if com.IsInvoke() {
		switch roles.Key(com.Method) {
		case "context.Context.Err":
			out.Kind = ir.ValCtxErr
		}
		return out
	}
	s := com.StaticCallee()
	if s == nil {
		return out
	}
	switch s.String() {
	case "context.Cause":
		out.Kind = ir.ValCtxErr
		return out
	case "errors.New":
		return out
	}
	// a wrap: fmt.Errorf, errors.Join, errors.Wrap, pkg/errors: look at the wrapped values
	wrapped := ir.Value{Kind: ir.ValError, Call: -1}
	for _, a := range com.Args {
		for _, x := range varargValues(a) {
			if !roles.IsError(x.Type()) && !emptyInterface(x.Type()) {
				// (an error, or a value of fmt.Errorf's ...any: a context.Context or another
				// interface handed to a helper is no error it wraps)
				continue
			}
			w := b.classify(fs, x, depth+1)
			if w.Kind == ir.ValCtxErr || (w.Kind == ir.ValSentinel && wrapped.Kind != ir.ValCtxErr) {
				wrapped = w
			} else if w.Kind == ir.ValError && w.Call >= 0 && wrapped.Kind == ir.ValError && wrapped.Call < 0 {
				wrapped.Call = w.Call
			}
		}
	}
	if wrapped.Kind == ir.ValCtxErr || wrapped.Kind == ir.ValSentinel {
		out.Kind, out.Key = wrapped.Kind, wrapped.Key
	} else if wrapped.Call >= 0 && wrapped.Kind == ir.ValError {
		out.Call = wrapped.Call // the call whose error is wrapped
	}
	return out
}

// emptyInterface reports whether t is an interface without methods (any).
func emptyInterface(t types.Type) bool {
	it, ok := t.Underlying().(*types.Interface)
	return ok && it.Empty()
}

// varargValues returns the values stored into a variadic argument slice, or the value itself.
func varargValues(a ssa.Value) []ssa.Value {
	sl, ok := a.(*ssa.Slice)
	if !ok {
		return []ssa.Value{a}
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				v := st.Val
				if mi, ok := v.(*ssa.MakeInterface); ok {
					v = mi.X
				}
				out = append(out, v)
			}
		}
	}
	return out
}

// cancels records cancellation observations: ctx.Done(), ctx.Err(), context.Cause.
func (b *builder) cancels(fs *funcState) {
	for ci, idx := range fs.callIdx {
		com := ci.Common()
		kind := ""
		if com.IsInvoke() {
			switch roles.Key(com.Method) {
			case "context.Context.Done":
				kind = "done"
			case "context.Context.Err":
				kind = "err"
			}
		} else if s := com.StaticCallee(); s != nil && s.String() == "context.Cause" {
			kind = "err"
		}
		if kind == "" {
			continue
		}
		b.addCancel(fs, ci.Block(), fs.f.Calls[idx], kind)
	}
	sort.Slice(fs.f.Cancels, func(i, j int) bool { return fs.f.Cancels[i].Pos.Line < fs.f.Cancels[j].Pos.Line })
}

func (b *builder) addCancel(fs *funcState, blk *ssa.BasicBlock, c ir.Call, kind string) {
	cn := ir.Cancel{Pos: c.Pos, Text: c.Text, Kind: kind}
	for _, li := range fs.blockLoops[blk] {
		cn.Loops = append(cn.Loops, ir.LoopObs{Loop: li, EveryIteration: everyIteration(fs, blk, li)})
	}
	fs.f.Cancels = append(fs.f.Cancels, cn)
}

// everyIteration reports whether blk is on every path of an iteration of loop li that goes
// on: it dominates every latch, or it is on every iteration of an inner loop that every such
// path enters and that runs at least once — the wait for each tool result (for range calls {
// select { case r := <-results: …; case <-ctx.Done(): return … } }) after the final answer left
// on an empty collection (if len(reply.ToolCalls) == 0 { return … }).
func everyIteration(fs *funcState, blk *ssa.BasicBlock, li int) bool {
	l := fs.loops[li]
	if dominatesAll(blk, l.latches) {
		return true
	}
	for _, inner := range fs.blockLoops[blk] {
		if inner == li {
			break
		}
		il := fs.loops[inner]
		if !l.blocks[il.header] || !dominatesAll(blk, il.latches) || !dominatesAll(il.header, l.latches) {
			continue
		}

		if runsOnce(fs, il, l) {
			return true
		}
	}
	return false
}

func dominatesAll(blk *ssa.BasicBlock, latches []*ssa.BasicBlock) bool {
	for _, lt := range latches {
		if !blk.Dominates(lt) {
			return false
		}
	}
	return len(latches) > 0
}

// runsOnce reports whether inner loop il, in loop l, runs its body at least once whenever it
// is entered: its header tests a counter against the length of a collection (a range over a
// slice, i < len(calls)) that a test dominating the header left l on when it was empty.
func runsOnce(fs *funcState, il, l *natLoop) bool {
	iff, ok := il.header.Instrs[len(il.header.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, ok := iff.Cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	var coll ssa.Value
	switch cond.Op {
	case token.LSS:
		coll = lenOf(cond.Y)
	case token.GTR:
		coll = lenOf(cond.X)
	}
	if coll == nil {
		return false
	}
	for _, b := range fs.fn.Blocks {
		if !l.blocks[b] || !b.Dominates(il.header) || len(b.Succs) != 2 {
			continue
		}
		bi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		t, ok := bi.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		var c ssa.Value
		var zero *ssa.Const
		if z, ok := t.Y.(*ssa.Const); ok {
			c, zero = lenOf(t.X), z
		} else if z, ok := t.X.(*ssa.Const); ok {
			c, zero = lenOf(t.Y), z
		}
		if c == nil || zero.Value == nil || zero.Value.String() != "0" || !sameValue(c, coll, 0) {
			continue
		}
		// the branch taken when the collection is empty
		var empty *ssa.BasicBlock
		switch t.Op {
		case token.EQL, token.LEQ:
			empty = b.Succs[0]
		case token.NEQ, token.GTR:
			empty = b.Succs[1]
		default:
			continue
		}
		if !l.blocks[empty] {
			return true
		}
	}
	return false
}

// lenOf returns x when v is len(x).
func lenOf(v ssa.Value) ssa.Value {
	c, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" && len(c.Call.Args) == 1 {
		return c.Call.Args[0]
	}
	return nil
}

// sameValue reports whether a and b are the same value or loads of the same field of the same
// value (reply.ToolCalls tested, then copied into calls and ranged over).
func sameValue(a, b ssa.Value, depth int) bool {
	a, b = cellValue(a), cellValue(b)
	if a == b {
		return true
	}
	if depth > 4 {
		return false
	}
	switch x := a.(type) {
	case *ssa.UnOp:
		if y, ok := b.(*ssa.UnOp); ok && x.Op == token.MUL && y.Op == token.MUL {
			return sameValue(x.X, y.X, depth+1)
		}
	case *ssa.FieldAddr:
		if y, ok := b.(*ssa.FieldAddr); ok && x.Field == y.Field {
			return sameValue(x.X, y.X, depth+1)
		}
	case *ssa.Field:
		if y, ok := b.(*ssa.Field); ok && x.Field == y.Field {
			return sameValue(x.X, y.X, depth+1)
		}
	}
	return false
}

// cancelAlways sets Func.CancelAlways when a check dominates every return.
func (b *builder) cancelAlways(fs *funcState) {
	if fs.f.CancelAlways {
		return
	}
	var rets []*ssa.BasicBlock
	for _, blk := range fs.fn.Blocks {
		if _, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok {
			rets = append(rets, blk)
		}
	}
	if len(rets) == 0 {
		return
	}
	for ci := range fs.callIdx {
		if !b.isCheck(ci) {
			continue
		}
		all := true
		for _, r := range rets {
			if !ci.Block().Dominates(r) {
				all = false
			}
		}
		if all {
			fs.f.CancelAlways = true
			return
		}
	}
}

func (b *builder) isCheck(ci ssa.CallInstruction) bool {
	com := ci.Common()
	if com.IsInvoke() {
		k := roles.Key(com.Method)
		return k == "context.Context.Done" || k == "context.Context.Err"
	}
	s := com.StaticCallee()
	if s == nil {
		return false
	}
	if s.String() == "context.Cause" {
		return true
	}
	if o := s.Origin(); o != nil {
		s = o // a method of a generic type called in its generic body
	}
	if id, ok := b.ids[s]; ok && b.out.Funcs[id].CancelAlways {
		return true
	}
	return false
}

// callCancels adds the calls of functions that always check cancellation as observations.
func (b *builder) callCancels(fs *funcState) {
	for ci, idx := range fs.callIdx {
		s := ci.Common().StaticCallee()
		if s == nil {
			continue
		}
		if o := s.Origin(); o != nil {
			s = o
		}
		if id, ok := b.ids[s]; ok && b.out.Funcs[id].CancelAlways && id != fs.f.ID {
			b.addCancel(fs, ci.Block(), fs.f.Calls[idx], "call")
		}
	}
	sort.Slice(fs.f.Cancels, func(i, j int) bool { return fs.f.Cancels[i].Pos.Line < fs.f.Cancels[j].Pos.Line })
}

var mintKeys = map[string]bool{
	"github.com/google/uuid.New": true, "github.com/google/uuid.NewString": true, "github.com/google/uuid.NewV7": true,
	"github.com/google/uuid.NewRandom": true, "github.com/google/uuid.Must": false, "crypto/rand.Text": true,
	"github.com/oklog/ulid/v2.Make": true, "github.com/oklog/ulid.Make": true, "github.com/rs/xid.New": true,
	"github.com/segmentio/ksuid.New": true, "github.com/gofrs/uuid.NewV4": true, "github.com/gofrs/uuid/v5.NewV4": true,
	"github.com/gofrs/uuid.NewV7": true, "github.com/gofrs/uuid/v5.NewV7": true, "github.com/lithammer/shortuuid/v4.New": true,
}

// mints records id mints and the field each id is stored into.
func (b *builder) mints(fs *funcState) {
	for ci, idx := range fs.callIdx {
		c := fs.f.Calls[idx]
		minted := false
		for _, k := range c.Keys {
			minted = minted || mintKeys[k]
		}
		if minted && len(c.Keys) > 0 && keyPkg(c.Keys[0]) == fs.f.Pkg {
			continue // the id library's own helpers (uuid.New calls uuid.NewRandom)
		}
		if sc := ci.Common().StaticCallee(); !minted && sc != nil && sc != fs.fn && b.counters[sc] {
			minted = true // a counter's next value
		}
		if v, ok := ci.(*ssa.Call); ok && !minted && !b.counters[fs.fn] && formats(v) && (fromCounter(v, 0) || formattedID(v, 0) || stampedID(v)) {
			// fmt.Sprintf("run-%d", seq.Add(1)): a counter's next value, formatted in place (also
			// a counter field of the struct that numbers its runs, s.seq.Add(1), or one it
			// increments first: s.n++; "sub-" + strconv.Itoa(s.n)), or random bits formatted
			// (fmt.Sprintf("%016x", rand.Uint64()))
			minted = true
		}
		var text ssa.Value
		if !minted && slices.Contains(c.Keys, "crypto/rand.Read") && len(ci.Common().Args) == 1 {
			// random bytes encoded into the text the function returns: "trace_" + hex of them
			text = randomText(fs.fn, ci.Common().Args[0])
			minted = text != nil
		}
		if !minted {
			if v, ok := ci.(*ssa.Call); ok {
				if m, ok := parentInContext(v, c); ok {
					fs.f.Mints = append(fs.f.Mints, m)
				} else if sc := v.Common().StaticCallee(); sc != nil && sc != fs.fn && ctxParentHelper(sc) {
					// ctx = ContextWithParentID(ctx, span.ID): a helper putting the id it is
					// handed into the context as the parent: the child gets it here
					fs.f.Mints = append(fs.f.Mints, ir.Mint{Pos: c.Pos, Source: c.Source, Kind: "parent", Text: c.Text, Field: "ParentID", Owners: []string{"Context"}})
				}
			}
			continue
		}
		m := ir.Mint{Pos: c.Pos, Source: c.Source, Text: c.Text}
		var idv ssa.Value
		if v, ok := ci.(ssa.Value); ok && text == nil {
			idv = v
		} else if text != nil {
			idv = text
		}
		if idv != nil {
			m.Field, m.Owners = storedField(idv, 0)
			if m.Field == "" && returnsValue(idv, 0) {
				// func newTraceID() string { return fmt.Sprintf("%016x", rand.Uint64()) }: the
				// field its callers store the id into (TraceID: newTraceID())
				m.Field, m.Owners = b.callerField(fs.fn)
			}
		}
		fs.f.Mints = append(fs.f.Mints, m)
	}
	// a child given its parent: a store into a Parent / ParentID field of a run-tree node
	for _, blk := range fs.fn.Blocks {
		for _, in := range blk.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			name := fieldOf(fa.X.Type(), fa.Field).Name()
			if !parentField.MatchString(name) {
				continue
			}
			if c, ok := st.Val.(*ssa.Const); ok && (c.Value == nil || c.IsNil()) {
				continue
			}
			owners := ownerNames(fa)
			if !strings.HasSuffix(strings.ToLower(name), "id") && !sameTypeAsOwner(st.Val.Type(), fa) {
				continue // a Parent field holding something else than a node of the same tree
			}
			p := st.Pos()
			if !p.IsValid() {
				continue
			}
			val := st.Val.Name()
			if e := b.storedExpr(fs, p, name); e != "" {
				val = e
			}
			fs.f.Mints = append(fs.f.Mints, ir.Mint{Pos: b.pos(p), Source: b.source(p), Kind: "parent",
				Text: name + ": " + val, Field: name, Owners: owners})
		}
	}
	sort.SliceStable(fs.f.Mints, func(i, j int) bool { return fs.f.Mints[i].Pos.Line < fs.f.Mints[j].Pos.Line })
}

// parentInContext recognizes a parent run id handed to a child through the context:
// context.WithValue(ctx, parentKey{}, s.RunID), a string value under a key whose type or name
// says parent. The child reads it back from the context it runs with.
func parentInContext(v *ssa.Call, c ir.Call) (ir.Mint, bool) {
	sc := v.Common().StaticCallee()
	if sc == nil || sc.Pkg == nil || sc.Pkg.Pkg.Path() != "context" || sc.Name() != "WithValue" || len(v.Common().Args) != 3 {
		return ir.Mint{}, false
	}
	key, val := v.Common().Args[1], v.Common().Args[2]
	if mi, ok := key.(*ssa.MakeInterface); ok {
		key = mi.X
	}
	if mi, ok := val.(*ssa.MakeInterface); ok {
		val = mi.X
	}
	name := key.Name()
	if n := roles.NamedOf(key.Type()); n != nil {
		name = n.Obj().Name()
	}
	if c, ok := key.(*ssa.Const); ok && c.Value != nil {
		name = c.Value.ExactString()
	}
	if b, ok := val.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return ir.Mint{}, false
	}
	if !strings.Contains(strings.ToLower(name), "parent") {
		return ir.Mint{}, false
	}
	return ir.Mint{Pos: c.Pos, Source: c.Source, Kind: "parent", Text: c.Text, Field: "ParentID", Owners: []string{"Context"}}, true
}

// ctxParentHelper reports whether fn returns a context that carries, as a parent id, a
// string parameter of fn (func ContextWithParentID(ctx context.Context, id string)
// context.Context { return context.WithValue(ctx, parentKey{}, id) }).
func ctxParentHelper(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	if res.Len() == 0 || !isContext(res.At(0).Type()) {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			v, ok := in.(*ssa.Call)
			if !ok || len(v.Common().Args) != 3 {
				continue
			}
			val := v.Common().Args[2]
			if mi, ok := val.(*ssa.MakeInterface); ok {
				val = mi.X
			}
			if _, ok := val.(*ssa.Parameter); !ok {
				continue
			}
			if _, ok := parentInContext(v, ir.Call{}); ok && returnsValue(v, 0) {
				return true
			}
		}
	}
	return false
}

// storedExpr returns the expression stored into field name at p as written: the value of a
// composite literal's name: value element or of an assignment to x.name, "" if not found.
func (b *builder) storedExpr(fs *funcState, p token.Pos, name string) string {
	if fs.syntax == nil {
		return ""
	}
	out := ""
	ast.Inspect(fs.syntax, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.KeyValueExpr:
			if id, ok := x.Key.(*ast.Ident); ok && id.Name == name && (x.Colon == p || x.Pos() <= p && p <= x.End()) {
				out = types.ExprString(x.Value)
			}
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == name && i < len(x.Rhs) && (x.TokPos == p || x.Pos() <= p && p <= x.End()) {
					out = types.ExprString(x.Rhs[i])
				}
			}
		}
		return out == ""
	})
	return clipText(out, 60)
}

// randomText returns the string fn builds from the random bytes buf and returns (hex, base64
// or fmt of them, perhaps with a prefix): an id made of random bytes. nil when there is none.
func randomText(fn *ssa.Function, buf ssa.Value) ssa.Value {
	root := func(v ssa.Value) ssa.Value {
		if sl, ok := v.(*ssa.Slice); ok {
			return sl.X
		}
		return v
	}
	want := root(buf)
	returned := func(v ssa.Value) bool {
		for d, cur := 0, v; d < 4 && cur != nil; d++ {
			refs := cur.Referrers()
			if refs == nil {
				return false
			}
			var next ssa.Value
			for _, r := range *refs {
				switch x := r.(type) {
				case *ssa.Return:
					return true
				case *ssa.BinOp, *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface:
					next = x.(ssa.Value)
				}
			}
			cur = next
		}
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			c, ok := in.(*ssa.Call)
			if !ok || !isStringType(c.Type()) {
				continue
			}
			uses := false
			for _, a := range c.Common().Args {
				for _, x := range append(varargValues(a), a) {
					if mi, ok := x.(*ssa.MakeInterface); ok {
						x = mi.X
					}
					uses = uses || root(x) == want
				}
			}
			if uses && returned(c) {
				return c
			}
		}
	}
	return nil
}

// parentField matches the fields that link a child to its parent: Parent, ParentID,
// ParentRunID, ParentSpanID, parent_id.
var parentField = regexp.MustCompile(`(?i)^parent(_?[a-z]*_?id)?$`)

// ownerNames returns the names of the types a field address goes through, innermost first,
// on to the value embedding a local composite (CallContext{common: common{ID: …}}).
func ownerNames(fa *ssa.FieldAddr) []string { return ownerNames1(fa, 0) }

func ownerNames1(fa *ssa.FieldAddr, depth int) []string {
	var out []string
	var x ssa.Value = fa
	for d := 0; d < 4; d++ {
		a, ok := x.(*ssa.FieldAddr)
		if !ok {
			break
		}
		if n := roles.NamedOf(a.X.Type()); n != nil {
			out = append(out, n.Obj().Name())
		}
		x = a.X
	}
	if al, ok := x.(*ssa.Alloc); ok && depth < 2 && al.Referrers() != nil {
		for _, r := range *al.Referrers() {
			ld, ok := r.(*ssa.UnOp)
			if !ok || ld.Op != token.MUL || ld.Referrers() == nil {
				continue
			}
			for _, r2 := range *ld.Referrers() {
				if st, ok := r2.(*ssa.Store); ok && st.Val == ld {
					if outer, ok := st.Addr.(*ssa.FieldAddr); ok {
						return append(out, ownerNames1(outer, depth+1)...)
					}
				}
			}
		}
	}
	return out
}

// sameTypeAsOwner reports whether t is (a pointer to) one of the types a field address goes
// through: a parent node of the same tree.
func sameTypeAsOwner(t types.Type, fa *ssa.FieldAddr) bool {
	n := roles.NamedOf(t)
	if n == nil {
		return false
	}
	var x ssa.Value = fa
	for d := 0; d < 4; d++ {
		a, ok := x.(*ssa.FieldAddr)
		if !ok {
			break
		}
		if o := roles.NamedOf(a.X.Type()); o != nil && o.Obj() == n.Obj() {
			return true
		}
		x = a.X
	}
	return false
}

// scanCounters finds the functions returning a process-wide counter's next value: a result
// derived (through formatting and conversions) from an atomic add on a package-level
// variable. Their calls mint ids.
func (b *builder) scanCounters() {
	b.counters = map[*ssa.Function]bool{}
	for _, fs := range b.funcs {
		fn := fs.fn
		if fn.Signature.Results().Len() == 0 || fn.Signature.Results().Len() > 2 {
			continue
		}
		all, any := true, false
		for _, blk := range fn.Blocks {
			r, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
			if !ok || blk == fn.Recover || len(r.Results) == 0 {
				continue
			}
			if fromCounter(r.Results[0], 0) {
				any = true
			} else {
				all = false
			}
		}
		if any && all {
			b.counters[fn] = true
		}
	}
}

// formats reports whether c calls a formatting or conversion function of fmt or strconv.
func formats(c *ssa.Call) bool {
	sc := c.Common().StaticCallee()
	if sc == nil || sc.Pkg == nil {
		return false
	}
	p := sc.Pkg.Pkg.Path()
	return p == "fmt" && strings.HasPrefix(sc.Name(), "Sprint") || p == "strconv" && (sc.Name() == "Itoa" || strings.HasPrefix(sc.Name(), "Format"))
}

// stampedID reports whether c formats an identifier-like text (a format of letters, digits,
// '_' and '-' besides its verbs, and some of them: "run_%d", "%s-%d"; not a sentence or a file
// name) from the clock read now
// (time.Now().UnixNano()) or from the counter of a loop of its function (the i of
// fmt.Sprintf("%s_%d", name, i)): a run or call id numbered by time or by position.
func stampedID(c *ssa.Call) bool {
	sc := c.Common().StaticCallee()
	if sc == nil || sc.Pkg == nil || sc.Pkg.Pkg.Path() != "fmt" || sc.Name() != "Sprintf" || len(c.Common().Args) != 2 {
		return false
	}
	f, ok := c.Common().Args[0].(*ssa.Const)
	if !ok || f.Value == nil || f.Value.Kind() != constant.String {
		return false
	}
	format := constant.StringVal(f.Value)
	literal := 0
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) {
			i++
			for i < len(format) && strings.IndexByte("0123456789.+-#", format[i]) >= 0 {
				i++
			}
			continue
		}
		ch := format[i]
		if !(ch == '_' || ch == '-' || '0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z') {
			return false // a sentence, a file name, a path: not an identifier
		}
		literal++
	}
	if literal == 0 {
		return false
	}
	for _, a := range varargValues(c.Common().Args[1]) {
		if clockNow(a, 0) || loopCounter(a, 0) {
			return true
		}
	}
	return false
}

// clockNow reports whether v is an integer reading of time.Now() (UnixNano, UnixMicro,
// UnixMilli, Unix), through conversions.
func clockNow(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return clockNow(x.X, depth+1)
	case *ssa.MakeInterface:
		return clockNow(x.X, depth+1)
	case *ssa.Call:
		sc := x.Common().StaticCallee()
		if sc == nil || sc.Pkg == nil || sc.Pkg.Pkg.Path() != "time" || !strings.HasPrefix(sc.Name(), "Unix") || len(x.Common().Args) != 1 {
			return false
		}
		recv := x.Common().Args[0]
		if now, ok := recv.(*ssa.Call); ok {
			s := now.Common().StaticCallee()
			return s != nil && s.Pkg != nil && s.Pkg.Pkg.Path() == "time" && s.Name() == "Now"
		}
	}
	return false
}

// failureStreak reports whether counter v, a local the header of loop lp merges, counts
// failures in a row rather than iterations: an iteration sets it back to a constant on some
// path (consecutiveErrors = 0 after a call that succeeded) and every path that increments it
// runs where a call's error was not nil (consecutiveErrors++ under if err != nil). Such a
// limit ends a streak of retries, not the loop: a model that keeps asking for tools never
// reaches it (github.com/ollama/ollama@v0.17.4 x/cmd/run.go:304-347).
func failureStreak(v ssa.Value, lp *natLoop) bool {
	for {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.BinOp:
			if _, ok := x.Y.(*ssa.Const); ok && (x.Op == token.ADD || x.Op == token.SUB) {
				v = x.X // consecutiveErrors+1 >= max
				continue
			}
		}
		break
	}
	p, ok := v.(*ssa.Phi)
	if !ok || p.Block() != lp.header {
		return false
	}
	reset, inc := false, false
	seen := map[*ssa.Phi]bool{}
	var walk func(q *ssa.Phi) bool
	walk = func(q *ssa.Phi) bool {
		if seen[q] {
			return true
		}
		seen[q] = true
		for i, e := range q.Edges {
			if !lp.blocks[q.Block().Preds[i]] {
				continue // the value the loop is entered with
			}
			switch x := e.(type) {
			case *ssa.Const:
				reset = true
			case *ssa.Phi:
				if x == p {
					continue // unchanged on this path
				}
				if !lp.blocks[x.Block()] || !walk(x) {
					return false
				}
			case *ssa.BinOp:
				if x.Op != token.ADD || x.X != p || !underError(x.Block(), lp) {
					return false
				}
				inc = true
			default:
				return false
			}
		}
		return true
	}
	return walk(p) && reset && inc
}

// underError reports whether block blk of loop lp runs only where a call's error was not nil:
// it is dominated, within the loop, by the branch of an err != nil (or err == nil) test that
// holds the error.
func underError(blk *ssa.BasicBlock, lp *natLoop) bool {
	for d := blk; d != nil && lp.blocks[d]; d = d.Idom() {
		if len(d.Preds) != 1 {
			continue
		}
		pred := d.Preds[0]
		ifi, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		bo, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || bo.Op != token.NEQ && bo.Op != token.EQL {
			continue
		}
		x := bo.X
		if c, ok := x.(*ssa.Const); ok && c.IsNil() {
			x = bo.Y
		} else if c, ok := bo.Y.(*ssa.Const); !ok || !c.IsNil() {
			continue
		}
		if !isErrorType(x.Type()) {
			continue
		}
		if bo.Op == token.NEQ && d == pred.Succs[0] || bo.Op == token.EQL && d == pred.Succs[1] {
			return true
		}
	}
	return false
}

// loopCounter reports whether v is the counter of a loop of its function: a phi of the loop
// header incremented by a constant on the back edge (for i := 0; …; i++, a range index),
// through conversions.
func loopCounter(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return loopCounter(x.X, depth+1)
	case *ssa.MakeInterface:
		return loopCounter(x.X, depth+1)
	case *ssa.BinOp:
		// a range index is read as the incremented phi
		if _, ok := x.Y.(*ssa.Const); ok && x.Op == token.ADD {
			if p, ok := x.X.(*ssa.Phi); ok {
				return counterPhi(p)
			}
		}
	case *ssa.Phi:
		return counterPhi(x)
	}
	return false
}

func counterPhi(p *ssa.Phi) bool {
	if _, ok := p.Type().Underlying().(*types.Basic); !ok {
		return false
	}
	init, step := false, false
	for _, e := range p.Edges {
		switch y := e.(type) {
		case *ssa.Const:
			init = true
		case *ssa.BinOp:
			if _, ok := y.Y.(*ssa.Const); ok && y.Op == token.ADD && (y.X == p) {
				step = true
			}
		}
	}
	return init && step
}

// randomBits are the math/rand functions and *Rand methods that return unbounded random bits:
// formatted into a string, an id (a bounded Intn picks an index or a jitter).
var randomBits = map[string]bool{"Int": true, "Int31": true, "Int32": true, "Int63": true, "Int64": true,
	"Uint32": true, "Uint64": true, "Uint": true}

// formattedID reports whether v, an argument of a formatting call, is a next value of a counter
// held in a struct field (an atomic add on it: s.seq.Add(1)), a field or package-level variable
// the function increments before reading it (s.spawns++; n := s.spawns), or random bits of
// math/rand, derived through conversions, arithmetic and formatting.
func formattedID(v ssa.Value, depth int) bool {
	if depth > 6 || v == nil {
		return false
	}
	if ok, done := derivedID(v, depth, formattedID); done {
		return ok
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return incrementedBefore(x)
		}
	case *ssa.Call:
		com := x.Common()
		sc := com.StaticCallee()
		if sc == nil || sc.Pkg == nil {
			return false
		}
		switch sc.Pkg.Pkg.Path() {
		case "sync/atomic":
			if strings.Contains(sc.Name(), "Add") && len(com.Args) > 0 {
				_, field := com.Args[0].(*ssa.FieldAddr)
				return field || isGlobalAddr(com.Args[0])
			}
		case "math/rand", "math/rand/v2":
			return randomBits[sc.Name()]
		case "fmt", "strconv":
			for _, a := range com.Args {
				if formattedID(a, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// incrementedBefore reports whether load reads a field (or a package-level variable) that its
// function stored the field's own value plus a constant into on every path before: s.n++ then
// s.n read (under a lock, say) to number what it makes.
func incrementedBefore(load *ssa.UnOp) bool {
	same := func(a, b ssa.Value) bool {
		fa, ok1 := a.(*ssa.FieldAddr)
		fb, ok2 := b.(*ssa.FieldAddr)
		if ok1 && ok2 {
			return fa.X == fb.X && fa.Field == fb.Field
		}
		ga, ok1 := a.(*ssa.Global)
		gb, ok2 := b.(*ssa.Global)
		return ok1 && ok2 && ga == gb
	}
	addr := load.X
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Global:
	default:
		return false
	}
	blk := load.Block()
	if blk == nil {
		return false
	}
	for _, b := range blk.Parent().Blocks {
		if !b.Dominates(blk) {
			continue
		}
		for _, in := range b.Instrs {
			if b == blk && in == ssa.Instruction(load) {
				break
			}
			st, ok := in.(*ssa.Store)
			if !ok || !same(st.Addr, addr) {
				continue
			}
			add, ok := st.Val.(*ssa.BinOp)
			if !ok || add.Op != token.ADD {
				continue
			}
			for _, o := range []ssa.Value{add.X, add.Y} {
				if l, ok := o.(*ssa.UnOp); ok && l.Op == token.MUL && same(l.X, addr) {
					return true
				}
			}
		}
	}
	return false
}

// fromCounter reports whether v is derived from an atomic add on a package-level variable.
func fromCounter(v ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	if ok, done := derivedID(v, depth, fromCounter); done {
		return ok
	}
	switch x := v.(type) {
	case *ssa.Call:
		com := x.Common()
		if sc := com.StaticCallee(); sc != nil && sc.Pkg != nil && sc.Pkg.Pkg.Path() == "sync/atomic" {
			var target ssa.Value
			if com.Signature().Recv() != nil || len(com.Args) > 0 {
				if len(com.Args) > 0 {
					target = com.Args[0]
				}
			}
			if strings.Contains(sc.Name(), "Add") && target != nil {
				return isGlobalAddr(target)
			}
			return false
		}
		if sc := com.StaticCallee(); sc != nil && sc.Pkg != nil {
			switch sc.Pkg.Pkg.Path() {
			case "fmt", "strconv":
				for _, a := range com.Args {
					if fromCounter(a, depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// derivedID follows v through what an id is built with — conversions, arithmetic, the variadic
// slice of a formatting call, a tuple's extract — asking of about each operand; done is false
// when v is none of those, for the caller's own cases.
func derivedID(v ssa.Value, depth int, of func(ssa.Value, int) bool) (ok, done bool) {
	switch x := v.(type) {
	case *ssa.Convert:
		return of(x.X, depth+1), true
	case *ssa.ChangeType:
		return of(x.X, depth+1), true
	case *ssa.MakeInterface:
		return of(x.X, depth+1), true
	case *ssa.BinOp:
		return of(x.X, depth+1) || of(x.Y, depth+1), true
	case *ssa.Slice:
		for _, e := range varargValues(x) {
			if of(e, depth+1) {
				return true, true
			}
		}
		return false, true
	case *ssa.Extract:
		return of(x.Tuple, depth+1), true
	}
	return false, false
}

// isGlobalAddr reports whether v is the address of a package-level variable (or of a field
// of one).
func isGlobalAddr(v ssa.Value) bool {
	for d := 0; d < 4; d++ {
		switch x := v.(type) {
		case *ssa.Global:
			return true
		case *ssa.FieldAddr:
			v = x.X
		default:
			return false
		}
	}
	return false
}

// storedField follows a value (through conversions and String calls) to a field store: the
// field's name and the names of the types holding it, innermost first.
func storedField(v ssa.Value, depth int) (string, []string) {
	if depth > 4 {
		return "", nil
	}
	refs := v.Referrers()
	if refs == nil {
		return "", nil
	}
	for _, r := range *refs {
		switch x := r.(type) {
		case *ssa.Store:
			if fa, ok := x.Addr.(*ssa.FieldAddr); ok && x.Val == v {
				return fieldOf(fa.X.Type(), fa.Field).Name(), ownerNames(fa)
			}
		case *ssa.Call:
			if x.Common().Method != nil || x.Common().StaticCallee() != nil {
				if f, o := storedField(x, depth+1); f != "" {
					return f, o
				}
			}
		case ssa.Value:
			switch r.(type) {
			case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.Extract, *ssa.Phi, *ssa.BinOp: // "e-" + uuid.NewString()
				if f, o := storedField(x, depth+1); f != "" {
					return f, o
				}
			}
		}
	}
	return "", nil
}

// returnsValue reports whether v is returned by its function as it is or through conversions,
// concatenations and formatting.
func returnsValue(v ssa.Value, depth int) bool {
	if depth > 4 || v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		switch x := r.(type) {
		case *ssa.Return:
			return true
		case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.BinOp:
			if returnsValue(x.(ssa.Value), depth+1) {
				return true
			}
		}
	}
	return false
}

// callerField returns the field the static callers of fn store its result into, when they all
// store it into the same one ("" when callers differ: a helper minting run and message ids
// alike says nothing of either).
func (b *builder) callerField(fn *ssa.Function) (string, []string) {
	if b.cg == nil {
		return "", nil
	}
	node := b.cg.Nodes[fn]
	if node == nil {
		return "", nil
	}
	field, owners := "", []string(nil)
	for _, e := range node.In {
		cv, ok := e.Site.(*ssa.Call)
		if !ok || cv.Common().StaticCallee() != fn {
			continue
		}
		f, o := storedField(cv, 0)
		if f == "" || field != "" && f != field {
			return "", nil
		}
		field, owners = f, o
	}
	return field, owners
}

// ssaName matches the name SSA gives a value it made (t12).
var ssaName = regexp.MustCompile(`^t[0-9]+$`)

var valRank = map[ir.ValueKind]int{ir.ValNil: 0, ir.ValConst: 1, ir.ValOther: 2, ir.ValCall: 2, ir.ValError: 3, ir.ValSentinel: 4, ir.ValCtxErr: 5}

// classifyAST classifies a returned expression from its syntax (for the returns of a function
// whose results go through cells, as with returns inside a range-over-func body).
func (b *builder) classifyAST(fs *funcState, e ast.Expr) ir.Value {
	info := b.info(fs.fn)
	out := ir.Value{Kind: ir.ValError, Call: -1, Text: render(e)}
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		switch o := info.Uses[id].(type) {
		case *types.Nil:
			out.Kind = ir.ValNil
		case *types.Var:
			if o.Pkg() != nil && o.Parent() == o.Pkg().Scope() {
				out.Kind, out.Key = ir.ValSentinel, o.Pkg().Path()+"."+o.Name()
			}
		}
		return out
	}
	ast.Inspect(e, func(n ast.Node) bool {
		var obj types.Object
		switch x := n.(type) {
		case *ast.SelectorExpr:
			obj = info.Uses[x.Sel]
		case *ast.Ident:
			obj = info.Uses[x]
		}
		switch roles.Key(obj) {
		case "context.Context.Err", "context.Canceled", "context.Cause", "context.DeadlineExceeded":
			out.Kind = ir.ValCtxErr
		}
		return out.Kind != ir.ValCtxErr
	})
	return out
}

// overCall is a loop (index in Func.Loops) that walks what a call returned.
type overCall struct {
	loop int
	call *ast.CallExpr
}

// walkShape is what walkOver found: the loop kind and the call producing the collection.
// claimedIndex returns the collection a worker loop runs over when its body starts by claiming
// an index from an atomic counter and leaves once the index passes the collection's length:
//
//	for { i := int(next.Add(1)) - 1; if i >= len(xs) { return }; work(xs[i]) }
//
// Each element is taken once: the loop is a finite iteration, not a repetition of decisions.
func claimedIndex(info *types.Info, x *ast.ForStmt) ast.Expr {
	if info == nil || x.Cond != nil || x.Init != nil || x.Post != nil || len(x.Body.List) < 2 {
		return nil
	}
	as, ok := x.Body.List[0].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	obj := info.ObjectOf(id)
	if !ok || obj == nil || !atomicAdd(info, as.Rhs[0]) {
		return nil
	}
	ifs, ok := x.Body.List[1].(*ast.IfStmt)
	if !ok || ifs.Init != nil || len(ifs.Body.List) == 0 {
		return nil
	}
	switch ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
	default:
		return nil
	}
	cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || (cond.Op != token.GEQ && cond.Op != token.GTR) || !refersTo(info, cond.X, obj) {
		return nil
	}
	call, ok := ast.Unparen(cond.Y).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	if fn, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || fn.Name != "len" || info.Uses[fn] != types.Universe.Lookup("len") {
		return nil
	}
	return call.Args[0]
}

// atomicAdd reports whether e contains a call that adds to a sync/atomic counter (the Add method
// of atomic.Int64 and its kin, or atomic.AddInt64 and its kin).
func atomicAdd(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !strings.HasPrefix(sel.Sel.Name, "Add") {
			return true
		}
		if obj := info.Uses[sel.Sel]; obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "sync/atomic" {
			found = true
		}
		return !found
	})
	return found
}

type walkShape struct {
	kind ir.LoopKind
	call *ast.CallExpr
}

// walkOver recognizes the two "for" loops that run over a finite collection or a stream rather
// than repeating decisions:
//   - a linked-list walk: for x := first(); x != nil; x = <from x> (x.Next(), x.next): a loop
//     over a finite collection (range_list);
//   - a cursor's drain: for c.M() where M takes no arguments and returns a bool and c is a local
//     variable a call returned (rows := db.Query(...); for rows.Next()): an iterator
//     (range_iter).
//
// It returns nil for any other loop.
func walkOver(info *types.Info, x *ast.ForStmt, body ast.Node) *walkShape {
	if info == nil || x.Cond == nil {
		return nil
	}
	if x.Init != nil && x.Post != nil {
		init, ok1 := x.Init.(*ast.AssignStmt)
		post, ok2 := x.Post.(*ast.AssignStmt)
		cond, ok3 := ast.Unparen(x.Cond).(*ast.BinaryExpr)
		if !ok1 || !ok2 || !ok3 || len(init.Lhs) != 1 || len(init.Rhs) != 1 || len(post.Lhs) != 1 || len(post.Rhs) != 1 {
			return nil
		}
		id, ok := init.Lhs[0].(*ast.Ident)
		obj := info.ObjectOf(id)
		if !ok || obj == nil || cond.Op != token.NEQ || !isNilIdent(info, cond.Y) || !refersTo(info, cond.X, obj) || !refersTo(info, post.Lhs[0], obj) {
			return nil
		}
		if _, isPtr := obj.Type().Underlying().(*types.Pointer); !isPtr {
			return nil
		}
		// the next element is read from the current one
		if !mentionsObj(info, post.Rhs[0], obj) {
			return nil
		}
		call, _ := ast.Unparen(init.Rhs[0]).(*ast.CallExpr)
		if call == nil {
			return nil
		}
		return &walkShape{kind: ir.LoopRangeList, call: call}
	}
	if x.Init != nil || x.Post != nil {
		return nil
	}
	call, ok := ast.Unparen(x.Cond).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	recv, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.ObjectOf(recv).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	if t, ok := info.TypeOf(call).Underlying().(*types.Basic); !ok || t.Kind() != types.Bool && t.Kind() != types.UntypedBool {
		return nil
	}
	// the cursor is assigned once, from a call, before the loop
	var from *ast.CallExpr
	n := 0
	ast.Inspect(body, func(nd ast.Node) bool {
		as, ok := nd.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) == v {
				n++
				if len(as.Rhs) == len(as.Lhs) {
					from, _ = ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
				} else if len(as.Rhs) == 1 {
					from, _ = ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				}
			}
		}
		return true
	})
	if n != 1 || from == nil || from.Pos() > x.Pos() {
		return nil
	}
	return &walkShape{kind: ir.LoopRangeIter, call: from}
}

func isNilIdent(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.ObjectOf(id).(*types.Nil)
	return isNil
}

func refersTo(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.ObjectOf(id) == obj
}

func mentionsObj(info *types.Info, e ast.Expr, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.ObjectOf(id) == obj {
			found = true
		}
		return !found
	})
	return found
}

// inMemoryPkgs are the standard-library packages whose functions and methods compute in memory
// from their operands: no network, process, file or user is reached through them (see
// ir.Call.InMemory). fmt's Scan functions read the user's input and are left out by name.
var inMemoryPkgs = map[string]bool{
	"bytes": true, "cmp": true, "container/heap": true, "container/list": true, "container/ring": true,
	"encoding/base32": true, "encoding/base64": true, "encoding/binary": true, "encoding/csv": true,
	"encoding/hex": true, "encoding/json": true, "encoding/xml": true, "errors": true, "fmt": true,
	"hash/crc32": true, "hash/fnv": true, "hash/maphash": true, "crypto/sha1": true, "crypto/sha256": true,
	"crypto/md5": true, "html": true, "iter": true, "maps": true, "math": true, "math/big": true,
	"math/bits": true, "net/url": true, "path": true, "reflect": true, "regexp": true, "regexp/syntax": true,
	"slices": true, "sort": true, "strconv": true, "strings": true, "sync": true, "sync/atomic": true,
	"text/scanner": true, "unicode": true, "unicode/utf16": true, "unicode/utf8": true, "unique": true,
	"unsafe": true, "time": true, "go/ast": true, "go/token": true, "go/scanner": true,
	"path/filepath": true, "log": true, "log/slog": true, "text/template": true, "html/template": true,
	"text/template/parse": true, "flag": true, "encoding/gob": true, "mime": true, "crypto/sha512": true,
}

// storedFunc reports whether v is a func value read from a parameter, a captured variable or
// a struct field (c.globNormFunc), not one a call returned.
func storedFunc(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case *ssa.UnOp:
		_, field := x.X.(*ssa.FieldAddr)
		return x.Op == token.MUL && field
	case *ssa.Field:
		return true
	}
	return false
}

// inMemoryFuncs are functions of other standard-library packages that compute in memory.
var inMemoryFuncs = map[string]bool{
	"net.ParseIP": true, "net.ParseCIDR": true, "net.ParseMAC": true, "net.IPv4": true, "net.IPv4Mask": true,
	"net.JoinHostPort": true, "net.SplitHostPort": true, "(net.IP).String": true, "(net.IP).To4": true,
	"(net.IP).To16": true, "(net.IP).Equal": true, "(net.IP).Mask": true, "(net.IPMask).Size": true,
	"(net.IPMask).String": true, "(net.IP).MarshalText": true, "(*net.IP).UnmarshalText": true, "(*net.IPNet).String": true, "os.Getenv": true, "os.LookupEnv": true,
	"os.IsNotExist": true, "os.IsExist": true, "os.Exit": true,
}

// inMemory reports whether the call has callees and each of them computes in memory or has a
// body in the program, which the recognizer follows (ir.Call.InMemory): a function of
// inMemoryPkgs, a synthetic wrapper around such calls, or a function of another module known
// only from its export data that takes no context, delivers no stream or callback and returns
// nothing that carries tool calls or an HTTP response (a constructor, a parser).
func (b *builder) inMemory(fn *ssa.Function, com *ssa.CallCommon, callees []*ssa.Function) bool {
	// a func value handed over must be one the recognizer can follow (ir.Call.ArgFuncs)
	for _, a := range com.Args {
		if _, ok := a.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if c, ok := a.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		if storedFunc(a) {
			continue // a func the program keeps: judged where it is called
		}
		resolved := false
		for _, af := range resolveFunc(a, 0) {
			_, in := b.ids[unwrap(af)]
			resolved = resolved || in
		}
		if !resolved {
			return false
		}
	}
	if len(callees) == 0 {
		switch {
		case com.IsInvoke():
			// a method of an interface none of whose implementations the program holds: of a
			// standard-library interface (reflect.Type.Kind, sort.Interface), or one of another
			// module's whose signature shows no outside computation (pflag.Value.Type)
			pkg := com.Method.Pkg()
			if pkg == nil {
				return false
			}
			if first, _, _ := strings.Cut(pkg.Path(), "/"); !strings.Contains(first, ".") {
				return inMemoryPkgs[pkg.Path()]
			}
			return sigInMemory(com.Signature())
		default:
			// the function's own func parameter: what its callers hand over, which they follow;
			// or a func value that takes no context and returns nothing (f.Usage()): nothing
			// comes back through it
			_, param := com.Value.(*ssa.Parameter)
			return param || com.Signature().Results().Len() == 0 && sigInMemory(com.Signature())
		}
	}
	for _, cal := range callees {
		if !b.calleeInMemory(cal, 0) {
			return false
		}
	}
	return true
}

func (b *builder) calleeInMemory(cal *ssa.Function, depth int) bool {
	if cal == nil || depth > 2 {
		return false
	}
	if o := cal.Origin(); o != nil {
		cal = o
	}
	if _, ok := b.ids[cal]; ok {
		return true
	}
	if stdinReads[cal.String()] {
		return false
	}
	if inMemoryFuncs[cal.String()] {
		return true
	}
	if cal.Synthetic != "" && len(cal.Blocks) > 0 {
		// a bound method, a thunk, a *T wrapper of a T method (a nil check, then the call)
		for _, blk := range cal.Blocks {
			for _, in := range blk.Instrs {
				ci, ok := in.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, builtin := ci.Common().Value.(*ssa.Builtin); builtin {
					continue
				}
				if !b.calleeInMemory(ci.Common().StaticCallee(), depth+1) {
					return false
				}
			}
		}
		return true
	}
	if cal.Pkg == nil {
		return false
	}
	path := cal.Pkg.Pkg.Path()
	if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") {
		return inMemoryPkgs[path] // the standard library
	}
	if len(cal.Blocks) > 0 {
		return false // a body the program does not hold: not followed
	}
	return sigInMemory(cal.Signature)
}

// sigInMemory reports whether a function of another module known only by its signature shows
// no outside computation: it takes no context and no stream, and returns no stream, callback,
// value carrying tool calls or HTTP response.
func sigInMemory(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); isContext(t) || isStream(t) {
			return false
		}
	}
	for i := 0; i < sig.Results().Len(); i++ {
		t := sig.Results().At(i).Type()
		if isStream(t) || roles.CarriesToolCalls(t) || holdsHTTPResponse(t, 0) {
			return false
		}
		if _, fn := t.Underlying().(*types.Signature); fn {
			return false
		}
	}
	return true
}

// holdsHTTPResponse reports whether t is, points to or has a field of net/http's Response or
// an io reader (a body read from a connection), two levels deep.
func holdsHTTPResponse(t types.Type, depth int) bool {
	if depth > 2 {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n := roles.NamedOf(t); n != nil && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case "net/http.Response", "io.Reader", "io.ReadCloser", "net.Conn":
			return true
		}
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if holdsHTTPResponse(st.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// stdinReads are the functions and methods that wait for a line of the standard input, or of
// a reader over it (readsStdin follows the receiver to os.Stdin).
var stdinReads = map[string]bool{
	"fmt.Scan": true, "fmt.Scanln": true, "fmt.Scanf": true,
	"(*bufio.Reader).ReadString": true, "(*bufio.Reader).ReadLine": true, "(*bufio.Reader).ReadBytes": true,
	"(*bufio.Reader).ReadRune": true, "(*bufio.Scanner).Scan": true,
}

// promptReads are the line readers of terminal prompt libraries: each waits for the user.
var promptReads = map[string]bool{
	"(*github.com/chzyer/readline.Instance).Readline":            true,
	"(*github.com/chzyer/readline.Instance).ReadlineWithDefault": true,
	"(*github.com/peterh/liner.State).Prompt":                    true,
	"(*github.com/ergochat/readline.Instance).ReadLine":          true,
	"(*github.com/manifoldco/promptui.Prompt).Run":               true,
	"github.com/AlecAivazis/survey/v2.AskOne":                    true,
	"github.com/AlecAivazis/survey/v2.Ask":                       true,
	"(*github.com/charmbracelet/huh.Form).Run":                   true,
	"(*github.com/charmbracelet/huh.Input).Run":                  true,
	"(*github.com/c-bata/go-prompt.Prompt).Input":                true,
	"github.com/c-bata/go-prompt.Input":                          true,
	"(*golang.org/x/term.Terminal).ReadLine":                     true,
}

// readsStdin reports whether a call waits for the user's input: fmt.Scan*, a bufio read whose
// reader was made over os.Stdin (in the function, or by a caller handing the reader to a
// parameter), or the line reader of a prompt library.
func (b *builder) readsStdin(com *ssa.CallCommon) bool {
	fn := com.StaticCallee()
	if fn == nil {
		return false
	}
	if promptReads[fn.String()] {
		return true
	}
	if !stdinReads[fn.String()] {
		return false
	}
	if fn.Signature.Recv() == nil {
		return true
	}
	return b.overStdin(com.Args[0], 0)
}

// overStdin reports whether v is os.Stdin or a bufio reader made over it (kept in a local,
// a captured variable or a field written in the same function is not followed).
func (b *builder) overStdin(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		// a prompt helper's reader: what its callers hand over
		fn := x.Parent()
		idx := -1
		for i, p := range fn.Params {
			if p == x {
				idx = i
			}
		}
		if node := b.cg.Nodes[fn]; node != nil && idx >= 0 {
			for _, e := range node.In {
				if com := e.Site.Common(); !com.IsInvoke() && idx < len(com.Args) && b.overStdin(com.Args[idx], depth+1) {
					return true
				}
			}
		}
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok {
			return g.Pkg != nil && g.Pkg.Pkg.Path() == "os" && g.Name() == "Stdin"
		}
	case *ssa.MakeInterface:
		return b.overStdin(x.X, depth+1)
	case *ssa.ChangeType:
		return b.overStdin(x.X, depth+1)
	case *ssa.Call:
		if s := x.Call.StaticCallee(); s != nil && s.Pkg != nil && s.Pkg.Pkg.Path() == "bufio" && strings.HasPrefix(s.Name(), "New") && len(x.Call.Args) > 0 {
			return b.overStdin(x.Call.Args[0], depth+1)
		}
	}
	return false
}

// genericBody reports whether fn is a generic function or method of a generic type, or a
// closure inside one.
func genericBody(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn.TypeParams().Len() > 0 || fn.Signature.RecvTypeParams().Len() > 0
}

// retryLoop reports whether a for loop only goes round again after a failure: its body leaves
// on success before anything could repeat it (if err == nil { return res, nil } with no
// continue before it), or ends by leaving and continues only under a test of an error
// (if err != nil { sleep; continue }; return res). Such a loop re-runs one attempt (a
// provider or node retry with its backoff), never a turn loop.
func retryLoop(info *types.Info, x *ast.ForStmt) bool {
	if info == nil || x.Body == nil || len(x.Body.List) == 0 {
		return false
	}
	list := x.Body.List
	// continues reports whether n holds a continue of this loop (not of a nested one),
	// outside the failure branches errOK accepts
	var continues func(n ast.Node, errOK bool) bool
	continues = func(n ast.Node, errOK bool) bool {
		found := false
		ast.Inspect(n, func(nd ast.Node) bool {
			if found {
				return false
			}
			switch y := nd.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
				if nd != n {
					return false
				}
			case *ast.IfStmt:
				if errOK && errTest(info, y.Cond, token.NEQ) {
					if y.Else != nil && continues(y.Else, errOK) {
						found = true
					}
					return false
				}
			case *ast.BranchStmt:
				if y.Tok == token.CONTINUE && y.Label == nil {
					found = true
				}
			}
			return true
		})
		return found
	}
	for i, st := range list {
		ifs, ok := st.(*ast.IfStmt)
		if ok && ifs.Else == nil && errTest(info, ifs.Cond, token.EQL) && leavesBlock(ifs.Body) {
			before := &ast.BlockStmt{List: list[:i]}
			return !continues(before, false)
		}
	}
	return leavesStmt(list[len(list)-1]) && !continues(x.Body, true)
}

// errTest reports whether cond compares an error value with nil by op (err == nil, nil != err).
func errTest(info *types.Info, cond ast.Expr, op token.Token) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != op {
		return false
	}
	isErr := func(e ast.Expr) bool {
		t := info.TypeOf(e)
		return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
	}
	return isErr(be.X) && isNilIdent(info, be.Y) || isErr(be.Y) && isNilIdent(info, be.X)
}

// leavesBlock reports whether a block ends by leaving the loop (a return or a plain break).
func leavesBlock(b *ast.BlockStmt) bool {
	return b != nil && len(b.List) > 0 && leavesStmt(b.List[len(b.List)-1])
}

func leavesStmt(st ast.Stmt) bool {
	switch y := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return y.Tok == token.BREAK && y.Label == nil
	}
	return false
}

// cellValue returns the value stored into the variable v loads when the variable is a local
// cell (captured by a closure) stored into once; else v.
func cellValue(v ssa.Value) ssa.Value {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return v
	}
	al, ok := ld.X.(*ssa.Alloc)
	if !ok || al.Referrers() == nil {
		return v
	}
	var val ssa.Value
	for _, r := range *al.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == al {
			if val != nil {
				return v
			}
			val = st.Val
		}
	}
	if val == nil {
		return v
	}
	return val
}
