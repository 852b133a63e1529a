package goir

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"golang.org/x/tools/go/ssa"
)

// The agent shape on SSA: a call's result (R) — or what it delivers over a channel, an
// iterator or a Next/Current stream — yields a collection that is tested for emptiness and
// iterated; an element (E) of it has a string field (N) that keys a map lookup or is compared
// with callables' names; the callable selected (T) is called (a tool call), and what those
// calls return (O) flows into the input of the next call of the same site.

type taintKind uint8

const (
	kResult taintKind = iota // the call's result or something derived from it
	kLen                     // the length of a derived collection
	kElem                    // an element of a derived collection
	kName                    // a string derived from an element
	kTool                    // a callable selected by a name
	kOut                     // what a selected callable returned
	// kGather is a collection of whole results (a superstep's results[i] = res, gathered from
	// the goroutines that ran its nodes): an element of it is a result again, not an element
	// of one.
	kGather
)

// maxDepth bounds how many helper calls (into a parameter, out through a return) a trace
// follows from the call it starts at.
const maxDepth = 3

type titem struct {
	v     ssa.Value
	k     taintKind
	fs    *funcState
	depth int
	// disp is the dispatch (index in Flow.Dispatch) that selected a tool value, -1 if none.
	disp int
	// stack are the call sites the trace entered the function through (nil: it started here
	// or came up from a callee: any caller).
	stack *frame
	// conc is true once the trace went through a function launched per element (a goroutine
	// or errgroup/WaitGroup.Go closure made in a loop) that the seed does not run in.
	conc bool
}

// seenKey is what the trace visits once: a value, as a kind, entered from a call site.
type seenKey struct {
	v    ssa.Value
	k    taintKind
	site ssa.CallInstruction
	conc bool
}

// frame is a call site a trace entered a callee through, with the depth at the site.
type frame struct {
	site   ssa.CallInstruction
	depth  int
	caller *funcState
	up     *frame
	// wrapper: entered as the callback site handed to a wrapper (not through a parameter):
	// the wrapper's call hands the callback's result back up, it does not consume it
	wrapper bool
}

type tracer struct {
	b         *builder
	seedFS    *funcState
	seedCall  int
	flow      *ir.Flow
	seen      map[seenKey]bool
	work      []titem
	fields    map[string]bool
	seedRoots map[string]bool
	toolCalls map[ir.CallRef]bool
	// launched are the tool calls reached through a per-element concurrent launch
	launched map[ir.CallRef]bool
	budget   int
	cur      titem
	pending  []pendingTool
	// byNameAt are the blocks of the lookups and comparisons by name (by dispatch index);
	// switchTo the blocks each switch on a name-like value picks (by dispatch index)
	byNameAt map[int]*ssa.BasicBlock
	switchTo map[int][]*ssa.BasicBlock
	// switchOn is the value each switch on a name-like value tests (by dispatch index): the
	// cases of one switch
	switchOn map[int]ssa.Value
}

type pendingTool struct {
	fs *funcState
	ci ssa.CallInstruction
}

// flows computes the Flow of every call result that shows part of the agent shape.
func (b *builder) flows() {
	for _, fs := range b.funcs {
		for ci, idx := range fs.callIdx {
			v, ok := ci.(*ssa.Call)
			if !ok {
				continue
			}
			c := &fs.f.Calls[idx]
			var delivered []deliveredParam
			if !interestingResult(v) && !b.parsedReply(fs, v, c) {
				// model.StreamResponse(ctx, req, func(ev Event) error { … final = ev.Done … }):
				// the call hands what it produced to the callback written at the call
				if delivered = b.callbackDelivery(fs, v, c); len(delivered) == 0 {
					continue
				}
			}
			if isStdCall(c.Keys) && !isModelHTTP(c.Keys) {
				continue
			}
			if readsDrained(fs, v) {
				continue // stream.Current() in the loop draining stream: the stream's call is the candidate
			}
			t := &tracer{b: b, seedFS: fs, seedCall: idx, flow: &ir.Flow{Delivery: "return"}, seen: map[seenKey]bool{},
				fields: map[string]bool{}, seedRoots: map[string]bool{}, toolCalls: map[ir.CallRef]bool{}, launched: map[ir.CallRef]bool{}, budget: traceBudget}
			if len(delivered) > 0 {
				t.flow.Delivery = "callback"
			}
			for _, a := range v.Common().Args {
				if !isContext(a.Type()) {
					t.roots(a, 0, t.seedRoots)
				}
			}
			if v.Common().IsInvoke() {
				t.roots(v.Common().Value, 0, t.seedRoots)
			}
			t.cur = titem{disp: -1}
			if len(delivered) == 0 {
				t.push(v, kResult, fs, 0)
			}
			for _, d := range delivered {
				t.push(d.p, kResult, d.fs, 0)
				t.push(d.p, kElem, d.fs, 0) // each one may be one event of a stream
			}
			t.run()
			for _, p := range t.pending {
				if com := p.ci.Common(); com.StaticCallee() == nil && !com.IsInvoke() && com.Signature().Results().Len() == 0 {
					// r.OnCall(ctx, call.Name, call.Arguments): a hook held in a func value, told
					// the name, hands nothing back that could feed the next model input: an
					// observer, not a runner of the tool it names
					continue
				}
				if idx, ok := p.fs.callIdx[p.ci]; ok && !t.toolCalls[ir.CallRef{Func: p.fs.f.ID, Call: idx}] {
					t.addToolD(p.fs, p.ci, t.dispatch(p.fs, p.ci.Common().Pos(), "name_arg", p.ci))
				}
			}
			t.kindSwitches()
			for i := range t.flow.Dispatch {
				d := &t.flow.Dispatch[i]
				for _, ref := range d.Calls {
					if t.launched[ref] {
						d.Launched = append(d.Launched, ref)
					}
				}
			}
			if len(t.flow.Checked) == 0 && len(t.flow.Dispatch) == 0 && len(t.flow.Iterated) == 0 {
				continue
			}
			for f := range t.fields {
				t.flow.Fields = append(t.flow.Fields, f)
			}
			sort.Strings(t.flow.Fields)
			c.Flow = t.flow
		}
	}
}

// deliveredParam is a parameter of a callback through which a call hands over what it produced.
type deliveredParam struct {
	p  *ssa.Parameter
	fs *funcState
}

// callbackDelivery returns the parameters through which call v hands its product to a callback
// written at the call: a function literal of the caller among the arguments whose parameters
// take a value that may carry a decision (not a context, an error or a basic value), of a call
// that takes a context and returns nothing but an error — a streaming model call that yields
// its events, the final response among them, to the handler it is given
// (model.StreamResponse(ctx, req, func(ev StreamEvent) error { … })). Calls into the standard
// library deliver nothing.
func (b *builder) callbackDelivery(fs *funcState, v *ssa.Call, c *ir.Call) []deliveredParam {
	if !c.PassesContext || c.Concurrent != "" || isStdCall(c.Keys) {
		return nil
	}
	if res := v.Common().Signature().Results(); res.Len() > 1 || res.Len() == 1 && !isErrorType(res.At(0).Type()) {
		return nil
	}
	var out []deliveredParam
	for _, a := range v.Common().Args {
		if ct, ok := a.(*ssa.ChangeType); ok {
			a = ct.X // fn handed as the callee's named func type (type ChatResponseFunc func(ChatResponse) error)
		}
		mc, ok := a.(*ssa.MakeClosure)
		var fn *ssa.Function
		if ok {
			fn, _ = mc.Fn.(*ssa.Function)
		} else {
			fn, _ = a.(*ssa.Function)
		}
		if fn == nil || fn.Parent() != fs.fn {
			continue // only a literal written at the call: a named handler may be any callback
		}
		id, ok := b.ids[fn]
		if !ok {
			continue
		}
		cfs := b.funcs[id]
		for _, p := range fn.Params {
			if interestingType(p.Type()) {
				out = append(out, deliveredParam{p: p, fs: cfs})
			}
		}
	}
	return out
}

func interestingResult(c *ssa.Call) bool {
	t := c.Type()
	if t == nil {
		return false
	}
	if tup, ok := t.(*types.Tuple); ok {
		for i := 0; i < tup.Len(); i++ {
			if interestingType(tup.At(i).Type()) {
				return true
			}
		}
		return false
	}
	return interestingType(t)
}

func interestingType(t types.Type) bool {
	if isErrorType(t) || isContext(t) {
		return false // an error, or a derived context (ctx = WithValue(ctx, …)): no model result
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return false
	case *types.Signature:
		return isStream(t)
	case *types.Interface:
		return u.NumMethods() > 0
	}
	return true
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isStdCall(keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		if k == "" || !isStdPath(keyPkg(k)) {
			return false
		}
	}
	return true
}

// nameParts reports whether a call is a standard-library function that cuts a string into
// parts (strings.Split, strings.SplitN, strings.Cut): what it returns from a name is parts of
// that name (server__tool cut into server and tool).
func nameParts(keys []string) bool {
	if len(keys) != 1 {
		return false
	}
	switch keys[0] {
	case "strings.Split", "strings.SplitN", "strings.Cut":
		// (not a normalization, TrimSpace or ToLower of a value that happens to be named:
		// a stop reason trimmed and stored under a key selects nothing)
		return true
	}
	return false
}

// reflectCall reports whether a call is reflect.Value.Call or CallSlice: the func value the
// receiver holds runs (a registry of Go funcs called by reflection, fn.Call(args)), as if it
// were called in place.
func reflectCall(keys []string) bool {
	for _, k := range keys {
		if k != "reflect.Value.Call" && k != "reflect.Value.CallSlice" {
			return false
		}
	}
	return len(keys) > 0
}

// keyPkg returns the package path of a key ("pkg/path.Type.Method" → "pkg/path").
func keyPkg(key string) string {
	i := strings.LastIndexByte(key, '/')
	if j := strings.IndexByte(key[i+1:], '.'); j >= 0 {
		return key[:i+1+j]
	}
	return key
}

func isModelHTTP(keys []string) bool {
	for _, k := range keys {
		if k == "net/http.Client.Do" || k == "net/http.Client.Post" {
			return true
		}
	}
	return false
}

func (t *tracer) push(v ssa.Value, k taintKind, fs *funcState, depth int) {
	t.pushD(v, k, fs, depth, t.cur.disp)
}

// pushFresh pushes a value of another function reached other than through a call (a closure's
// free variable, its parent's binding, a field another method reads): its returns go to any
// caller.
func (t *tracer) pushFresh(v ssa.Value, k taintKind, fs *funcState, depth int) {
	saved := t.cur.stack
	t.cur.stack = nil
	t.push(v, k, fs, depth)
	t.cur.stack = saved
}

func (t *tracer) pushD(v ssa.Value, k taintKind, fs *funcState, depth, disp int) {
	if v == nil || fs == nil || isContext(v.Type()) {
		return // a context carries cancellation and values, not what the call decided
	}
	// a closure launched once per element runs the tools concurrently only when it receives
	// an element (a tool call, its name, the tool): a goroutine per graph node handed the
	// state fans the superstep's nodes out, and the tools a node runs stay sequential
	conc := t.cur.conc || (k == kElem || k == kName || k == kTool) && t.perElement(fs)
	it := titem{v: v, k: k, fs: fs, depth: depth, disp: disp, stack: t.cur.stack, conc: conc}
	key := seenKey{v: v, k: k, conc: it.conc}
	if it.stack != nil {
		key.site = it.stack.site // a helper is followed once per call site it is entered from
	}
	if t.seen[key] {
		return
	}
	t.seen[key] = true
	t.work = append(t.work, it)
	if k == kOut && t.seedRoots[valueRoot(v)] {
		t.feed(v.Pos(), fs)
	}
	if k == kTool && !t.flow.ToolsPassed {
		m := map[string]bool{}
		t.roots(v, 0, m)
		for r := range m {
			if t.seedRoots[r] && strings.HasPrefix(r, "fv") {
				t.flow.ToolsPassed = true
			}
		}
	}
}

func (t *tracer) feed(p token.Pos, fs *funcState) {
	t.flow.FeedsNext = true
	if d := t.cur.disp; d >= 0 && d < len(t.flow.Dispatch) && t.flow.Dispatch[d].How == "text_arg" {
		t.flow.Dispatch[d].Feeds = true // what the tool run on the reply's text returned is the next input
	}
	if !t.flow.FeedPos.IsValid() && p.IsValid() {
		t.flow.FeedPos = t.b.pos(p)
	}
}

func valueRoot(v ssa.Value) string { return fmt.Sprintf("v%p", v) }

// typeRoot names the state of every object of a pointer type (the receiver of a runner's
// methods) as a root of what a call reads.
func typeRoot(t types.Type) string { return "t:" + types.TypeString(t, nil) }

// usesOf returns the reads of field fv's address in the functions of fv's package.
func (b *builder) usesOf(fv *types.Var) []fieldUse {
	if b.fieldUses == nil {
		b.fieldUses = map[*types.Var][]fieldUse{}
		for _, fs := range b.funcs {
			if fs.fn == nil {
				continue
			}
			for _, blk := range fs.fn.Blocks {
				for _, in := range blk.Instrs {
					if fa, ok := in.(*ssa.FieldAddr); ok {
						v := fieldOf(fa.X.Type(), fa.Field)
						if us := b.fieldUses[v]; len(us) < 32 {
							b.fieldUses[v] = append(us, fieldUse{fs, fa})
						}
					}
				}
			}
		}
	}
	return b.fieldUses[fv]
}

// roots collects what a value is built from: the values, cells and fields the next call's
// input is read from.
func (t *tracer) roots(v ssa.Value, depth int, out map[string]bool) {
	if depth > 6 || v == nil {
		return
	}
	k := valueRoot(v)
	if out[k] {
		return
	}
	out[k] = true
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			t.roots(e, depth+1, out)
		}
	case *ssa.UnOp:
		t.roots(x.X, depth+1, out)
	case *ssa.FieldAddr:
		out["f:"+fieldOf(x.X.Type(), x.Field).Id()+fieldOf(x.X.Type(), x.Field).Name()] = true
		out[fmt.Sprintf("fv%p", fieldOf(x.X.Type(), x.Field))] = true
	case *ssa.Field:
		out[fmt.Sprintf("fv%p", fieldOf(x.X.Type(), x.Field))] = true
	case *ssa.Slice:
		t.roots(x.X, depth+1, out)
	case *ssa.IndexAddr:
		t.roots(x.X, depth+1, out)
	case *ssa.Index:
		t.roots(x.X, depth+1, out)
	case *ssa.Lookup:
		t.roots(x.X, depth+1, out)
	case *ssa.Extract:
		t.roots(x.Tuple, depth+1, out)
	case *ssa.MakeInterface:
		t.roots(x.X, depth+1, out)
	case *ssa.MakeClosure:
		for _, bnd := range x.Bindings {
			t.roots(bnd, depth+1, out)
		}
	case *ssa.Alloc:
		// a literal built for the call (Request{Messages: r.msgs}): what is stored into it
		for _, ref := range *x.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, r2 := range *fa.Referrers() {
				if st, ok := r2.(*ssa.Store); ok && st.Addr == fa {
					t.roots(st.Val, depth+1, out)
				}
			}
		}
	case *ssa.Parameter:
		if isStructPtr(x.Type()) {
			// the object the call is made from (a runner's state): its other methods' writes
			out[typeRoot(x.Type())] = true
		}
	case *ssa.ChangeType:
		t.roots(x.X, depth+1, out)
	case *ssa.Convert:
		t.roots(x.X, depth+1, out)
	case *ssa.Call:
		com := x.Common()
		if com.IsInvoke() {
			t.roots(com.Value, depth+1, out)
		}
		for _, a := range com.Args {
			if !isContext(a.Type()) {
				t.roots(a, depth+1, out)
			}
		}
	}
}

func (t *tracer) intersects(v ssa.Value) bool {
	m := map[string]bool{}
	t.roots(v, 0, m)
	for k := range m {
		if t.seedRoots[k] && !strings.HasPrefix(k, "f:") && !strings.HasPrefix(k, "t:") {
			return true
		}
	}
	return false
}

func (t *tracer) fsOf(fn *ssa.Function) *funcState {
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if id, ok := t.b.ids[fn]; ok {
		return t.b.funcs[id]
	}
	return nil
}

func (t *tracer) run() {
	for len(t.work) > 0 && t.budget > 0 {
		it := t.work[len(t.work)-1]
		t.work = t.work[:len(t.work)-1]
		t.budget--
		t.cur = it
		t.step(it)
	}
}

func isStringType(ty types.Type) bool {
	bt, ok := ty.Underlying().(*types.Basic)
	return ok && bt.Info()&types.IsString != 0
}

func elemKind(k taintKind, ty types.Type) taintKind {
	if k == kElem && isStringType(ty) {
		return kName
	}
	return k
}

func (t *tracer) step(it titem) {
	v, k, fs := it.v, it.k, it.fs
	if fv, ok := v.(*ssa.FreeVar); ok && k != kLen {
		// a closure's captured variable is its parent's: out[i] = run(tc) in a goroutine
		// fills the parent's out
		t.captured(fv, k, it.depth)
	}
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		switch x := r.(type) {
		case *ssa.Extract, *ssa.ChangeType, *ssa.Convert, *ssa.ChangeInterface, *ssa.TypeAssert, *ssa.Phi, *ssa.SliceToArrayPointer:
			if k == kLen {
				if _, ok := x.(*ssa.Convert); !ok {
					continue
				}
			}
			t.push(x.(ssa.Value), k, fs, it.depth)
		case *ssa.MakeInterface:
			if k != kLen {
				t.push(x, k, fs, it.depth)
			}
		case *ssa.Slice:
			if x.X == v {
				t.push(x, k, fs, it.depth)
			}
		case *ssa.Field:
			if x.X == v && k != kLen {
				if k == kResult || k == kElem {
					t.fields[fieldOf(x.X.Type(), x.Field).Name()] = true
				}
				t.push(x, elemKind(k, x.Type()), fs, it.depth)
			}
		case *ssa.FieldAddr:
			if x.X == v && k != kLen {
				if k == kResult || k == kElem {
					t.fields[fieldOf(x.X.Type(), x.Field).Name()] = true
				}
				t.push(x, k, fs, it.depth)
			}
		case *ssa.IndexAddr, *ssa.Index:
			var coll, idx ssa.Value
			if ia, ok := x.(*ssa.IndexAddr); ok {
				coll, idx = ia.X, ia.Index
			} else {
				ix := x.(*ssa.Index)
				coll, idx = ix.X, ix.Index
			}
			if coll != v || k == kLen {
				continue
			}
			nk := k
			if k == kGather {
				nk = kResult // results[i]: one of the gathered results
			} else if _, isConst := idx.(*ssa.Const); !isConst && k == kResult && !lastIndex(idx, coll) {
				nk = kElem
				t.iterated(fs, r)
			}
			val := x.(ssa.Value)
			if _, ok := x.(*ssa.Index); ok {
				nk = elemKind(nk, val.Type())
			}
			t.push(val, nk, fs, it.depth)
		case *ssa.Lookup:
			if x.X == v && k == kResult {
				t.iterated(fs, r)
				t.push(x, kElem, fs, it.depth)
			} else if x.X == v && (k == kTool || k == kOut) {
				t.push(x, k, fs, it.depth)
			} else if x.Index == v && k == kName && (isCallable(mapValue(x.X.Type())) || holdsFunc(mapValue(x.X.Type()))) {
				// tools[name]: a map of callables keyed by the element's name (or of tool
				// records whose func-valued field runs the tool: FunctionTool{OnInvoke: fn})
				d := t.dispatch(fs, x.Pos(), "map_lookup", x)
				t.pushD(x, kTool, fs, it.depth, d)
			}
		case *ssa.Range:
			if x.X == v && k == kResult {
				t.iterated(fs, r)
				t.push(x, kElem, fs, it.depth)
			}
		case *ssa.Next:
			if x.Iter == v {
				t.push(x, k, fs, it.depth)
			}
		case *ssa.MapUpdate:
			if x.Value == v && (k == kResult || k == kElem) {
				t.push(x.Map, kResult, fs, it.depth) // tool calls gathered into a map
			}
			if x.Value == v && k == kGather {
				// {messages: []Message{*reply}}: the channel updates a graph node returns
				// hold the reply whole
				t.push(x.Map, kResult, fs, it.depth)
			}
		case *ssa.UnOp:
			switch x.Op {
			case token.MUL:
				t.push(x, elemKind(k, x.Type()), fs, it.depth)
			case token.ARROW:
				if k == kResult {
					t.flow.Delivery = "channel"
				}
				t.push(x, k, fs, it.depth)
			case token.NOT:
				if k == kResult {
					t.push(x, k, fs, it.depth)
				}
			}
		case *ssa.Send:
			if x.X == v && (k == kElem || k == kName || k == kTool) {
				// toolChan <- req: a worker receiving from the channel gets the element
				t.push(x.Chan, k, fs, it.depth)
				if ld, ok := x.Chan.(*ssa.UnOp); ok && ld.Op == token.MUL {
					t.push(ld.X, k, fs, it.depth) // the variable holding the channel (a captured cell)
				}
				// d.inbox <- call: the receives of the same channel field in the functions
				// of the program (a dispatcher goroutine's for call := range d.inbox); the
				// calls run concurrently when every element is sent before anything is
				// waited for (a loop that only sends)
				saved := t.cur.conc
				t.cur.conc = saved || t.sendsAll(fs, x)
				for _, rv := range t.b.fieldReceives(x.Chan) {
					t.pushFresh(rv.v, k, rv.fs, it.depth)
				}
				t.cur.conc = saved
			}
			if x.X == v && k == kOut {
				// d.results <- result{out: out}: a tool's output sent on a channel field is
				// what the receives of that field get (the loop's select { case r :=
				// <-d.results: … })
				for _, rv := range t.b.fieldReceives(x.Chan) {
					t.pushFresh(rv.v, k, rv.fs, it.depth)
				}
				// resultChan <- result{value: out} in the goroutine run per tool call, the
				// function that started them reading res := <-resultChan once per call: what
				// the receives of that channel (a local, or the parent's captured by the
				// closure) get
				for _, rv := range t.b.localReceives(x.Chan, fs) {
					t.pushFresh(rv.v, k, rv.fs, it.depth)
				}
			}
		case *ssa.Select:
			for _, st := range x.States {
				if st.Chan == v && k == kResult {
					t.flow.Delivery = "channel"
					t.push(x, k, fs, it.depth)
				}
			}
		case *ssa.BinOp:
			t.binop(it, x)
		case *ssa.Store:
			if x.Val != v || k == kLen {
				continue
			}
			t.store(it, x)
		case *ssa.MakeClosure:
			if k == kOut && t.seedRoots[valueRoot(x)] {
				t.feed(x.Pos(), fs)
			}
			if fn, ok := x.Fn.(*ssa.Function); k == kTool && ok && fn.Synthetic != "" {
				// a bound method value: runTool = tool.Run (a closure literal capturing the
				// tool, go func() { run(tool) }(), is followed into its body instead)
				t.push(x, kTool, fs, it.depth)
			}
			if fn, ok := x.Fn.(*ssa.Function); ok {
				if cfs := t.fsOf(fn); cfs != nil {
					for i, bnd := range x.Bindings {
						if bnd == v && i < len(fn.FreeVars) {
							t.pushFresh(fn.FreeVars[i], k, cfs, it.depth)
						}
					}
				}
			}
		case *ssa.Return:
			if k == kOut || k == kTool || (k == kResult || k == kElem) && (it.depth > 0 || t.storedNode(fs)) {
				t.returned(it, x)
			} else if k == kName && it.stack != nil {
				// serverName, toolName, err := parseToolName(call.Name): the parts of the name
				// a helper it was handed returns are names in the caller
				t.returned(it, x)
			}
		case ssa.CallInstruction:
			t.call(it, x)
		}
	}
}

// lastIndex reports whether idx is len(coll)-1: the last element of a collection (the reply a
// step just appended to the conversation), one value, not an iteration over the collection.
func lastIndex(idx, coll ssa.Value) bool {
	b, ok := idx.(*ssa.BinOp)
	if !ok || b.Op != token.SUB {
		return false
	}
	if c, ok := b.Y.(*ssa.Const); !ok || c.Value == nil || c.Value.ExactString() != "1" {
		return false
	}
	l, ok := b.X.(*ssa.Call)
	if !ok || len(l.Call.Args) != 1 {
		return false
	}
	if bi, ok := l.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" {
		return false
	}
	same := func(x, y ssa.Value) bool {
		if x == y {
			return true
		}
		lx, ok1 := x.(*ssa.UnOp)
		ly, ok2 := y.(*ssa.UnOp)
		if !ok1 || !ok2 || lx.Op != token.MUL || ly.Op != token.MUL {
			return false
		}
		if lx.X == ly.X {
			return true
		}
		fx, ok1 := lx.X.(*ssa.FieldAddr)
		fy, ok2 := ly.X.(*ssa.FieldAddr)
		return ok1 && ok2 && fx.X == fy.X && fx.Field == fy.Field
	}
	return same(l.Call.Args[0], coll)
}

// iterated records an iteration of a derived collection.
func (t *tracer) iterated(fs *funcState, in ssa.Instruction) {
	p := t.b.pos(in.Pos())
	if ls := fs.blockLoops[in.Block()]; len(ls) > 0 {
		p = fs.f.Loops[ls[0]].Pos
	}
	if !p.IsValid() {
		return
	}
	for _, q := range t.flow.Iterated {
		if q == p {
			return
		}
	}
	t.flow.Iterated = append(t.flow.Iterated, p)
}

func (t *tracer) dispatch(fs *funcState, p token.Pos, how string, at ssa.Instruction) int {
	pos := t.b.pos(p)
	if !pos.IsValid() && at != nil && at.Block() != nil {
		for _, in := range at.Block().Instrs {
			if in.Pos().IsValid() {
				pos = t.b.pos(in.Pos())
				break
			}
		}
	}
	for i := range t.flow.Dispatch {
		d := &t.flow.Dispatch[i]
		if d.Pos == pos && d.How == how {
			return i
		}
	}
	t.flow.Dispatch = append(t.flow.Dispatch, ir.Dispatch{Pos: pos, How: how, Func: fs.f.ID, Text: t.b.source(p)})
	if (how == "map_lookup" || how == "name_compare") && at != nil && at.Block() != nil {
		if t.byNameAt == nil {
			t.byNameAt = map[int]*ssa.BasicBlock{}
		}
		t.byNameAt[len(t.flow.Dispatch)-1] = at.Block()
	}
	return len(t.flow.Dispatch) - 1
}

// kindSwitches drops the calls a switch on a name-like value took for tools when the branch it
// picks holds a lookup or comparison of the callables by name that selects calls, there or in
// a helper the branch calls: the switch is on the item's kind (case "function_call": …
// tools[item.Name] …; the step kind parsed from a reply's text, case StepTypeAction:
// b.executeTool(ctx, tool, args)), and the branch's other calls (a span told of an unknown
// tool, a log line, the reply added to the history) run no tool, nor, for the step kind of a
// parsed reply, do the calls of the other cases of the same switch (case StepTypeThought: the
// reply added to the history). A comparison with a constant the lookup
// is not inside (if call.Name == "delegate" { … } else if fn, ok := tools[…]) is a tool of its
// own and keeps its calls.
func (t *tracer) kindSwitches() {
	var sel []ir.CallRef
	kinds := map[ssa.Value]bool{}
	insideOf := map[int]bool{}
	for si, succs := range t.switchTo {
		for li, blk := range t.byNameAt {
			l := t.flow.Dispatch[li]
			if len(l.Calls) == 0 {
				continue
			}
			for _, sb := range succs {
				if sb.Parent() == blk.Parent() && sb.Dominates(blk) || t.callsInto(sb, l.Func) {
					insideOf[si] = true
					kinds[t.switchOn[si]] = true
					sel = append(sel, l.Calls...)
				}
			}
		}
	}
	for si := range t.switchTo {
		d := &t.flow.Dispatch[si]
		if !insideOf[si] && !(t.flow.Parsed && kinds[t.switchOn[si]]) {
			continue
		}
		kept := d.Calls[:0]
		for _, ref := range d.Calls {
			if hasRef(sel, ref) {
				kept = append(kept, ref)
			}
		}
		d.Calls = kept
	}
}

// callsInto reports whether a call in a block sb dominates calls the function of id fn (a
// helper holding the lookup of the callables by name).
func (t *tracer) callsInto(sb *ssa.BasicBlock, fn int) bool {
	for _, blk := range sb.Parent().Blocks {
		if !sb.Dominates(blk) {
			continue
		}
		for _, in := range blk.Instrs {
			ci, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if id, ok := t.b.ids[ci.Common().StaticCallee()]; ok && id == fn {
				return true
			}
		}
	}
	return false
}

// addTool records a call that runs a selected callable.
func (t *tracer) addTool(fs *funcState, ci ssa.CallInstruction) { t.addToolD(fs, ci, t.cur.disp) }

func (t *tracer) addToolD(fs *funcState, ci ssa.CallInstruction, disp int) {
	idx, ok := fs.callIdx[ci]
	if !ok {
		return
	}
	if c := fs.f.Calls[idx]; !c.Pos.IsValid() || isStdCall(c.Keys) && (c.Abstract == "" || isStdPath(keyPkg(c.Abstract))) && !reflectCall(c.Keys) {
		return // the standard library runs no tools (but reflection runs the func it holds)
	}
	ref := ir.CallRef{Func: fs.f.ID, Call: idx}
	if t.cur.conc || t.perElement(fs) {
		t.launched[ref] = true
	}
	if t.toolCalls[ref] {
		// claimed by an earlier dispatch of the depth-first trace (a name handed to a context
		// constructor); a lookup or comparison of the callables by name reaching the same call
		// selects it too
		if disp >= 0 && disp < len(t.flow.Dispatch) {
			if d := &t.flow.Dispatch[disp]; (d.How == "map_lookup" || d.How == "name_compare") && !hasRef(d.Calls, ref) {
				d.Calls = append(d.Calls, ref)
			}
		}
		return
	}
	t.toolCalls[ref] = true
	if disp < 0 || disp >= len(t.flow.Dispatch) {
		disp = t.dispatch(fs, ci.Common().Pos(), "element_arg", ci)
	}
	d := &t.flow.Dispatch[disp]
	d.Calls = append(d.Calls, ref)
}

// perElement reports whether fs is a closure launched concurrently once per element: under
// go or errgroup/WaitGroup.Go, made inside a loop of its parent, and not one the seed call
// itself runs in (a run loop started in a goroutine runs its tools one by one).
func (t *tracer) perElement(fs *funcState) bool {
	if fs == nil || fs.f.Launch != "go" && fs.f.Launch != "errgroup" || len(fs.f.ParentLoops) == 0 {
		return false
	}
	for x := t.seedFS.fn; x != nil; x = x.Parent() {
		if x == fs.fn {
			return false
		}
	}
	if fs.f.Parent == t.seedFS.f.ID && t.seedCall < len(t.seedFS.f.Calls) {
		// started in a loop around the decision itself (the turn loop): one goroutine a
		// step, not one a tool call; the tools inside it run one after another
		for _, l := range t.seedFS.f.Calls[t.seedCall].Loops {
			if l == fs.f.ParentLoops[0] {
				return false
			}
		}
	}
	return true
}

func hasRef(refs []ir.CallRef, ref ir.CallRef) bool {
	for _, r := range refs {
		if r == ref {
			return true
		}
	}
	return false
}

func (t *tracer) binop(it titem, x *ssa.BinOp) {
	v, k, fs := it.v, it.k, it.fs
	other := x.Y
	if x.Y == v {
		other = x.X
	}
	c, isConst := other.(*ssa.Const)
	switch k {
	case kOut:
		// notes += "\n-> " + obs: a tool's output appended to the text the next request is
		// made of (the concatenation is the prompt itself; text built on the way to some
		// other call, an error message, feeds nothing)
		for cur, n := x, 0; cur != nil && n < 8 && x.Op == token.ADD && isStringType(x.Type()); n++ {
			if t.seedRoots[valueRoot(cur)] {
				t.feed(cur.Pos(), fs)
				break
			}
			var next *ssa.BinOp
			if refs := cur.Referrers(); refs != nil {
				for _, r := range *refs {
					if b, ok := r.(*ssa.BinOp); ok && b.Op == token.ADD {
						next = b
					}
					if ph, ok := r.(*ssa.Phi); ok && cur != x {
						// acc += "\n" + out in a loop: the accumulated text the next prompt
						// is built from holds the output
						t.push(ph, kOut, fs, it.depth)
					}
					if st, ok := r.(*ssa.Store); ok && st.Val == cur && messageField(st.Addr) {
						// Message{Role: "user", Content: "Observation: " + obs}: the text is
						// the content of a message literal; whether it feeds is whether the
						// message reaches the next call's input
						t.push(cur, kOut, fs, it.depth)
					}
				}
			}
			cur = next
		}
	case kLen:
		if isConst && isCollectionLen(v) && isComparison(x.Op) {
			t.check(fs, x, emptyBranch(x, v == x.X))
		}
	case kResult:
		if isConst && c.Value == nil && (x.Op == token.EQL || x.Op == token.NEQ) {
			switch v.Type().Underlying().(type) {
			case *types.Slice, *types.Map:
				t.check(fs, x, map[token.Token]int{token.EQL: 0, token.NEQ: 1}[x.Op])
			}
		}
		if isConst && c.Value != nil && isStringType(v.Type()) && (x.Op == token.EQL || x.Op == token.NEQ) {
			t.check(fs, x, -1) // a stop/finish reason compared with a constant
		}
	case kName:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return
		}
		if isConst && isNamedConst(c) {
			return // a kind test (content.Type() == ContentTypeToolCall), not a name dispatch
		}
		if isConst && c.Value != nil && c.Value.ExactString() == `""` {
			return // a presence test (name != ""), not a name dispatch
		}
		if isConst {
			d := t.dispatch(fs, x.Pos(), "name_switch", x)
			// switch call.Name { case "search": … }: the calls in the matching branch
			for _, in := range *x.Referrers() {
				ifi, ok := in.(*ssa.If)
				if !ok {
					continue
				}
				succ := ifi.Block().Succs[0]
				if x.Op == token.NEQ {
					succ = ifi.Block().Succs[1]
				}
				if succ.Dominates(ifi.Block()) {
					// if next == END { continue }: the matching branch goes back to the loop's
					// head and selects nothing (what runs after it runs for every other name)
					continue
				}
				if t.switchTo == nil {
					t.switchTo = map[int][]*ssa.BasicBlock{}
					t.switchOn = map[int]ssa.Value{}
				}
				t.switchTo[d] = append(t.switchTo[d], succ)
				t.switchOn[d] = v
				n := 0
				for _, blk := range fs.fn.Blocks {
					if !succ.Dominates(blk) || n >= 3 {
						continue
					}
					for _, bin := range blk.Instrs {
						if ci, ok := bin.(ssa.CallInstruction); ok && n < 3 {
							if _, ok := fs.callIdx[ci]; ok {
								t.addToolD(fs, ci, d)
								if cv, ok := ci.(*ssa.Call); ok {
									t.push(cv, kOut, fs, it.depth)
								}
								n++
							}
						}
					}
				}
			}
			return
		}
		base := baseOf(other, 0)
		for i := 0; i < 3 && base != nil; i++ {
			// availableTool.Info().Name: past the getter to the callable itself
			c, isCall := base.(*ssa.Call)
			if !isCall || !isGetter(c.Common()) {
				break
			}
			base = baseOf(base, 0)
		}
		if base != nil && readFrom(v, base) {
			// sy := m.syms[name]; if sy.from == m.name { … }: two parts of one record compared
			// (lifeline analyzer/srcir/deps.go askName): the record the name was read from is
			// no callable the name selects, and its methods (m.text(n)) run whatever the test
			// says; a dispatch compares the name with callables found elsewhere
			return
		}
		if base != nil && (isCallable(base.Type()) || holdsFunc(base.Type())) {
			// t.Name() == call.Name: a search of the callables by name (or of tool records
			// whose func-valued field runs the tool: FunctionTool{OnInvokeTool: fn})
			t.pushD(base, kTool, fs, it.depth, t.dispatch(fs, x.Pos(), "name_compare", x))
		}
	}
}

// messageField reports whether addr is a field of a struct literal built in place (a message
// being made: &t.Content of a local Message).
func messageField(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	_, local := fa.X.(*ssa.Alloc)
	return local
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// emptyBranch returns the successor index (0 true, 1 false) of an If on len(x) OP c taken
// when the collection is empty.
func emptyBranch(x *ssa.BinOp, lenLeft bool) int {
	op := x.Op
	if !lenLeft {
		op = flip(op)
	}
	switch op {
	case token.EQL, token.LEQ, token.LSS:
		return 0
	}
	return 1
}

// baseOf returns the value a name was read from: the receiver of a Name() call, the struct of
// a Name field.
// readFrom reports whether v is read from base: a field, element, map entry or getter result
// of base, or of such a part of it, a few steps up.
func readFrom(v, base ssa.Value) bool {
	for i := 0; i < 8 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Lookup:
			v = x.X
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.Call:
			if !isGetter(x.Common()) {
				return false
			}
			v = baseOf(x, 0)
		default:
			return false
		}
		if v == base {
			return true
		}
	}
	return false
}

func baseOf(v ssa.Value, depth int) ssa.Value {
	if depth > 4 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Call:
		com := x.Common()
		if com.IsInvoke() {
			return com.Value
		}
		if s := com.StaticCallee(); s != nil && s.Signature.Recv() != nil && len(com.Args) > 0 {
			return com.Args[0]
		}
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			return fa.X
		}
	case *ssa.Field:
		return x.X
	case *ssa.Extract:
		return baseOf(x.Tuple, depth+1)
	}
	return nil
}

// check records an emptiness test of a derived collection; empty is the successor taken when
// it is empty (-1: unknown).
func (t *tracer) check(fs *funcState, x *ssa.BinOp, empty int) {
	text := ""
	if be := fs.binExprs[x.Pos()]; be != nil {
		text = render(be)
	} else if src := strings.TrimSpace(t.b.source(x.Pos())); strings.HasPrefix(src, "case ") {
		text = src // a case of a switch: no binary expression is written
	}
	t.checkCond(fs, x, x.Pos(), text, empty, false)
}

// checkCond records a test of a condition derived from a call result (a comparison, or a
// predicate method of the result: last.IsFinal()); empty is the successor taken when nothing
// is pending (-1: unknown). A loopOnly test counts only when it leaves a for loop it sits in
// (a predicate is a verdict on the step only where a loop repeats the steps; res.Exists() in
// a decoder is not).
func (t *tracer) checkCond(fs *funcState, x ssa.Value, p token.Pos, text string, empty int, loopOnly bool) {
	ch := ir.Check{Pos: t.b.pos(p), Return: -1, Func: fs.f.ID, Indirect: t.cur.depth > 0, Text: text}
	for _, in := range *x.Referrers() {
		ifi, ok := in.(*ssa.If)
		if !ok {
			continue
		}
		if loopOnly {
			ls := fs.blockLoops[ifi.Block()]
			if len(ls) == 0 || fs.f.Loops[ls[0]].Kind != ir.LoopFor {
				continue
			}
		}
		cands := []int{0, 1}
		if empty >= 0 {
			cands = []int{empty}
		} else if nextCase(ifi, x) {
			// case StepTypeAction: of a switch on the parsed step's kind: the case leaves when
			// its own branch does (what the later cases do is theirs)
			cands = []int{0}
		}
		for _, s := range cands {
			succ := ifi.Block().Succs[s]
			if r := firstReturn(succ, fs, 10, empty >= 0); r != nil {
				ch.Leaves = true
				ch.Return = fs.retIdx[r]
				break
			}
			if ls := fs.blockLoops[ifi.Block()]; len(ls) > 0 && (leavesLoop(succ, fs.loops[ls[0]]) || stateLeaves(succ, fs.loops[ls[0]])) {
				ch.Leaves = true
				break
			}
		}
	}
	if loopOnly && !ch.Leaves {
		return
	}
	for i, c := range t.flow.Checked {
		if c.Pos == ch.Pos && c.Text == ch.Text {
			if !ch.Indirect && c.Indirect {
				t.flow.Checked[i] = ch
			}
			return
		}
	}
	t.flow.Checked = append(t.flow.Checked, ch)
}

// nextCase reports whether the If ifi on x, a comparison of a value with a constant, goes on
// when it fails to another comparison of the same value with a constant: one case of a
// switch, the next case tested in the other branch.
func nextCase(ifi *ssa.If, x ssa.Value) bool {
	b, ok := x.(*ssa.BinOp)
	if !ok || b.Op != token.EQL {
		return false
	}
	tag := b.X
	if _, ok := tag.(*ssa.Const); ok {
		tag = b.Y
	}
	next := ifi.Block().Succs[1]
	nif, ok := next.Instrs[len(next.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	nb, ok := nif.Cond.(*ssa.BinOp)
	if !ok || nb.Op != token.EQL || nb.X != tag && nb.Y != tag {
		return false
	}
	_, cx := nb.X.(*ssa.Const)
	_, cy := nb.Y.(*ssa.Const)
	return cx || cy
}

// leavesLoop reports whether blk leaves loop l: it lies outside the loop, or it lies in the
// loop statement but off every path back to the loop's header and goes on, through blocks that
// continue only one way, to a block outside the statement (if len(calls) == 0 { answer =
// m.Content; break }, followed by a hook run after the loop: the final answer's branch).
func leavesLoop(blk *ssa.BasicBlock, l *natLoop) bool {
	for i := 0; i < 8 && blk != nil; i++ {
		if l.blocks[blk] {
			return false
		}
		if l.stmt == nil || !blockWithin(blk, l.stmt) {
			return true
		}
		if len(blk.Succs) != 1 {
			// if s.verbose { fmt.Println(…) }; if h != nil { h.Log(…) }; break: the branch
			// logs on the way out; it leaves when every path through it does
			return allLeave(blk, l, map[*ssa.BasicBlock]bool{})
		}
		blk = blk.Succs[0]
	}
	return false
}

// allLeave reports whether every path from blk, a block of loop l's statement outside the
// loop's body (no path from it comes back), leaves the statement or returns within a few
// blocks.
func allLeave(blk *ssa.BasicBlock, l *natLoop, seen map[*ssa.BasicBlock]bool) bool {
	if l.blocks[blk] || len(seen) > 24 {
		return false
	}
	if l.stmt == nil || !blockWithin(blk, l.stmt) {
		return true
	}
	if seen[blk] {
		return true // a path already followed
	}
	seen[blk] = true
	if len(blk.Succs) == 0 {
		_, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		return ok
	}
	for _, s := range blk.Succs {
		if !allLeave(s, l, seen) {
			return false
		}
	}
	return true
}

// firstReturn follows blk forward (without entering a loop header) to a return; with
// passLoops, a loop the block leads into (and does not lie in) is passed over to its exit.
func firstReturn(blk *ssa.BasicBlock, fs *funcState, n int, passLoops bool) *ssa.Return {
	headers := map[*ssa.BasicBlock]bool{}
	// a loop the branch itself holds (collecting the final text from the items) is passed
	// over to its exit; a loop around blk is not entered again
	inner := map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}
	for _, l := range fs.loops {
		if l.header != nil {
			headers[l.header] = true
			if passLoops && !l.blocks[blk] {
				inner[l.header] = l.blocks
			}
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	queue := []*ssa.BasicBlock{blk}
	for d := 0; len(queue) > 0 && d < n*4; d++ {
		x := queue[0]
		queue = queue[1:]
		if seen[x] {
			continue
		}
		if body, ok := inner[x]; ok && d > 0 {
			seen[x] = true
			for _, s := range x.Succs {
				if !body[s] {
					queue = append(queue, s)
				}
			}
			continue
		}
		if headers[x] {
			continue
		}
		seen[x] = true
		if r, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Return); ok {
			return r
		}
		if len(x.Succs) == 1 {
			queue = append(queue, x.Succs[0])
		} else if len(x.Succs) == 2 && d == 0 {
			// an if inside the branch: only follow a single continuation
			queue = append(queue, x.Succs...)
		}
	}
	return nil
}

func (t *tracer) store(it titem, x *ssa.Store) {
	k, fs := it.k, it.fs
	switch a := x.Addr.(type) {
	case *ssa.Alloc:
		t.push(a, k, fs, it.depth)
		if k == kOut && t.seedRoots[valueRoot(a)] {
			t.feed(x.Pos(), fs)
		}
	case *ssa.FreeVar:
		// a captured variable: the parent's cell; the parent hands back what the closure
		// stored there as a caller hands back what a callee returned (var resp *R; err :=
		// span.WithSpan(ctx, …, func(ctx) error { resp, err = m.Get(…) }); return resp, err),
		// so its returns are followed as a helper's
		depth := max(it.depth, 1)
		fn := a.Parent()
		for i, fv := range fn.FreeVars {
			if fv != a || fn.Parent() == nil {
				continue
			}
			pfs := t.fsOf(fn.Parent())
			for _, blk := range fn.Parent().Blocks {
				for _, in := range blk.Instrs {
					if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) && pfs != nil {
						t.push(mc.Bindings[i], k, pfs, depth)
					}
				}
			}
		}
	case *ssa.FieldAddr:
		fv := fieldOf(a.X.Type(), a.Field)
		if _, local := a.X.(*ssa.Alloc); local && k == kTool && carriesCallable(fv.Type(), 0) && t.selected(it.disp) {
			// a tool selected from a table or a search by name kept in a record with its call
			// (ToolRun{Call: c, Tool: t}), the record gathered into a plan that a later step
			// runs: the record carries the tool (not what a call made from a name returned: a
			// connection a factory opened for an endpoint)
			t.push(a.X, kTool, fs, it.depth)
		}
		if k == kResult && it.depth > 0 {
			// a collection derived from the result stored into a local struct the helper
			// returns (a processed response: p.Items = append(p.Items, item); return p): the
			// struct carries the result back to the caller
			if al, ok := a.X.(*ssa.Alloc); ok && isElemCollection(fv.Type()) && returnedAlloc(al) {
				t.push(al, kResult, fs, it.depth)
			}
		}
		if k == kOut {
			// a message literal holding the output (its struct is output too), or a field the
			// next call reads (a.history = append(a.history, …))
			t.push(a.X, kOut, fs, it.depth)
			if t.seedRoots[fmt.Sprintf("fv%p", fv)] || t.intersects(a.X) || t.seedRoots[typeRoot(a.X.Type())] {
				t.feed(x.Pos(), fs)
			}
		}
		if k == kName || k == kElem && isLiteralLoad(x.Val) {
			// an element's name copied into a local value (a literal, or a message being
			// accumulated from stream chunks), or a literal built so: that value is an element
			// too
			base := a.X
			for {
				inner, ok := base.(*ssa.FieldAddr)
				if !ok {
					break
				}
				base = inner.X
			}
			if al, ok := base.(*ssa.Alloc); ok {
				t.push(al, kElem, fs, it.depth)
			}
		}
		if al, ok := a.X.(*ssa.Alloc); ok && k == kResult && it.depth == 0 && t.storedNode(fs) && returnedAlloc(al) {
			// &Command{Updates: {messages: []Message{*reply}}, Next: …}: the command a graph
			// node returns to the engine holds the reply
			t.push(al, kResult, fs, it.depth)
		}
		if al, ok := a.X.(*ssa.Alloc); ok && k == kResult && handedOver(al, 0) {
			// yield(&Event{Resp: resp}, nil), ch <- Event{Resp: resp}: the event wrapping the
			// result is what the consumer receives
			t.push(al, kResult, fs, it.depth)
		}
		if k == kResult || k == kElem {
			// kept in the state a pointer parameter shares with the caller (s.Messages =
			// append(s.Messages, reply) in a step handed *State): what the caller reads from
			// that field of its argument after the call
			t.paramOut(a, k, fs, it.depth)
			if al, ok := a.X.(*ssa.Alloc); ok && isElemCollection(fv.Type()) {
				// a reply built locally (reply.ToolCalls = append(…)) and then appended to the
				// shared state: the state's field holds the result
				for _, fa := range paramFields(al, fs.fn) {
					t.paramOut(fa, kResult, fs, it.depth)
				}
			}
			// accumulated into a struct field: every load of that field in this function
			for _, blk := range fs.fn.Blocks {
				for _, in := range blk.Instrs {
					if fa2, ok := in.(*ssa.FieldAddr); ok && fieldOf(fa2.X.Type(), fa2.Field) == fv && fa2 != a {
						t.push(fa2, k, fs, it.depth)
					}
				}
			}
			if it.depth < maxDepth && fv.Pkg() != nil && !fv.Exported() && onReceiver(fs.fn, a) {
				// kept in an object's unexported state (a step-wise runner's last reply): what
				// its other functions read from that field, one step further
				// (the value has left the helper that stored it: the read starts afresh)
				for _, u := range t.b.usesOf(fv) {
					if u.fs != fs && onReceiver(u.fs.fn, u.fa) {
						t.pushFresh(u.fa, k, u.fs, 0)
					}
				}
			}
		}
	case *ssa.IndexAddr:
		switch k {
		case kResult:
			if al, ok := a.X.(*ssa.Alloc); ok && it.depth == 0 && t.storedNode(fs) {
				// []Message{*reply} in a graph node: the channel update it returns holds
				// the reply whole
				t.push(al, kGather, fs, it.depth)
			}
			// a result kept in a slot of a slice (results[i], errs[i] = node.Run(ctx, state),
			// one goroutine per node of a superstep): what the slots of that slice hold when
			// they are read, after the workers joined, are results, one per slot
			t.slots(a.X, fs, it.depth)
			if gathers(a, x.Val) {
				// results[i] = res: the slice gathers whole results (a superstep's nodes run in
				// goroutines, each storing what it returned); reading one back is a result
				t.push(a.X, kGather, fs, it.depth)
				if ld, ok := a.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
					t.push(ld.X, kGather, fs, it.depth) // the variable holding the slice
				}
			}
		case kOut:
			t.push(a.X, kOut, fs, it.depth)
			if ld, ok := a.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
				t.push(ld.X, kOut, fs, it.depth) // the variable holding the slice (a captured cell)
			}
		case kElem, kTool:
			// the backing array of append(s, e): its slice is a collection of elements (of
			// tool records: a plan of calls to run)
			if _, ok := a.X.(*ssa.Alloc); ok {
				t.push(a.X, k, fs, it.depth)
			}
			if ms, ok := a.X.(*ssa.MakeSlice); ok && k == kElem && isLiteralLoad(x.Val) {
				// calls := make([]Call, len(tcs)); calls[i] = Call{Name: tc.Name, …}: the
				// converted tool calls, a collection of elements like append's
				t.push(ms, kResult, fs, it.depth)
			}
		}
	}
}

// paramOut follows a value stored into a field of what a pointer parameter points to (not the
// receiver) back to the callers: the loads of that field from the argument each caller passed,
// one call further (a step that appends the model's reply to the state its caller hands it,
// and the caller's loop testing the last message of that state).
func (t *tracer) paramOut(fa *ssa.FieldAddr, k taintKind, fs *funcState, depth int) {
	p, ok := fa.X.(*ssa.Parameter)
	if !ok || depth >= maxDepth || !isStructPtr(p.Type()) {
		return
	}
	fn := fs.fn
	idx := -1
	for i, q := range fn.Params {
		if q == p {
			idx = i
		}
	}
	if idx < 0 || idx == 0 && fn.Signature.Recv() != nil {
		return
	}
	node := t.b.cg.Nodes[fn]
	if node == nil {
		return
	}
	fv := fieldOf(fa.X.Type(), fa.Field)
	n := 0
	for _, e := range node.In {
		cfs := t.fsOf(e.Caller.Func)
		if cfs == nil || e.Site == nil || n >= 8 {
			continue
		}
		com := e.Site.Common()
		ai := idx
		if com.IsInvoke() {
			ai-- // the receiver is com.Value
		}
		if ai < 0 || ai >= len(com.Args) {
			continue
		}
		n++
		arg := com.Args[ai]
		if arg.Referrers() == nil {
			continue
		}
		for _, r := range *arg.Referrers() {
			if fa2, ok := r.(*ssa.FieldAddr); ok && fa2.X == arg && fieldOf(arg.Type(), fa2.Field) == fv {
				t.pushFresh(fa2, k, cfs, depth+1)
			}
		}
	}
}

// paramFields returns the fields of what pointer parameters of fn point to that the value of
// local al is stored into, as it is or appended (s.Messages = append(s.Messages, reply)).
func paramFields(al *ssa.Alloc, fn *ssa.Function) []*ssa.FieldAddr {
	var out []*ssa.FieldAddr
	into := func(v ssa.Value) {
		// v (a value or a slice holding it) stored into a parameter's field, or appended to
		// what is then stored there
		var vals []ssa.Value
		vals = append(vals, v)
		if v.Referrers() != nil {
			for _, r := range *v.Referrers() {
				if c, ok := r.(*ssa.Call); ok {
					if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" {
						vals = append(vals, c)
					}
				}
			}
		}
		for _, x := range vals {
			if x.Referrers() == nil {
				continue
			}
			for _, r := range *x.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Val == x {
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
						if _, isParam := fa.X.(*ssa.Parameter); isParam {
							out = append(out, fa)
						}
					}
				}
			}
		}
	}
	for _, r := range *al.Referrers() {
		ld, ok := r.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || ld.Referrers() == nil {
			continue
		}
		into(ld)
		for _, rr := range *ld.Referrers() {
			// append(s.Messages, reply): reply stored into the varargs array, sliced
			st, ok := rr.(*ssa.Store)
			if !ok || st.Val != ld {
				continue
			}
			ia, ok := st.Addr.(*ssa.IndexAddr)
			if !ok {
				continue
			}
			if arr, ok := ia.X.(*ssa.Alloc); ok && arr.Referrers() != nil {
				for _, ar := range *arr.Referrers() {
					if sl, ok := ar.(*ssa.Slice); ok {
						into(sl)
					}
				}
			}
		}
	}
	return out
}

// slots pushes, as results, the reads of the slots of slice sl (a slice value, or the load of
// the variable holding it, captured by a closure or not) in the function that declares it.
func (t *tracer) slots(sl ssa.Value, fs *funcState, depth int) {
	ld, ok := sl.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return
	}
	cell, cfs := ld.X, fs
	if fv, ok := cell.(*ssa.FreeVar); ok {
		fn := fv.Parent()
		if fn.Parent() == nil {
			return
		}
		cell, cfs = nil, t.fsOf(fn.Parent())
		for i, x := range fn.FreeVars {
			if x != fv {
				continue
			}
			for _, blk := range fn.Parent().Blocks {
				for _, in := range blk.Instrs {
					if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
						cell = mc.Bindings[i]
					}
				}
			}
		}
	}
	if _, ok := cell.(*ssa.Alloc); !ok || cfs == nil || cell.Referrers() == nil {
		return
	}
	for _, r := range *cell.Referrers() {
		load, ok := r.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || load.Referrers() == nil {
			continue
		}
		for _, rr := range *load.Referrers() {
			if ia, ok := rr.(*ssa.IndexAddr); ok && ia.X == load {
				t.push(ia, kResult, cfs, depth)
			}
		}
	}
}

// returned follows a tool or its output out of a helper to its callers' call sites.
func (t *tracer) returned(it titem, r *ssa.Return) {
	if f := it.stack; f != nil {
		// back to the site the trace came in through, at its depth
		if cv, ok := f.site.(*ssa.Call); ok && f.caller != nil {
			if (it.k == kResult || it.k == kElem) && f.caller.callIdx != nil {
				if idx, ok := f.caller.callIdx[cv]; ok && f.wrapper {
					t.through(ir.CallRef{Func: f.caller.f.ID, Call: idx})
				} else if ok {
					t.carrier(ir.CallRef{Func: f.caller.f.ID, Call: idx})
				}
			}
			saved := t.cur.stack
			t.cur.stack = f.up
			t.push(cv, it.k, f.caller, f.depth)
			t.cur.stack = saved
		}
		return
	}
	helper := genericHelper(it.fs.fn) || t.b.passesOn(it.fs.fn)
	if it.depth >= maxDepth && it.k != kOut && !helper {
		return
	}
	// A tool's output heads back to the next model call through its callers: that ascent does
	// not nest deeper (the seen set and the budget bound it). Nor does the way out of a generic
	// helper (Retry[T] handing back what the func it called returned).
	up := it.depth + 1
	if it.k == kOut || helper {
		up = it.depth
	}
	node := t.b.cg.Nodes[it.fs.fn]
	if node == nil {
		return
	}
	n := 0
	for _, e := range node.In {
		cfs := t.fsOf(e.Caller.Func)
		if cfs == nil || n > 8 {
			continue
		}
		if cv, ok := e.Site.(*ssa.Call); ok {
			if !t.resolvesTo(cfs, cv, it.fs) {
				continue
			}
			n++
			if it.k == kResult || it.k == kElem {
				// the caller's call hands this result back up (a helper or an interface method
				// that returned it): a wrapper of this call, not a consumer of its result
				if idx, ok := cfs.callIdx[cv]; ok {
					t.through(ir.CallRef{Func: cfs.f.ID, Call: idx})
				}
			}
			if site, pfs := t.handedAt(it.fs, cfs, cv); site != nil {
				// a closure run by the wrapper it was handed to (span.WithSpan(ctx, …,
				// func(ctx) error { … })): what the wrapper returns goes back to that call
				// only, not to every caller of the wrapper
				saved := t.cur.stack
				t.cur.stack = &frame{site: site, depth: it.depth, caller: pfs, wrapper: true}
				t.push(cv, it.k, cfs, up)
				t.cur.stack = saved
			} else {
				t.push(cv, it.k, cfs, up)
			}
			if it.k == kResult || it.k == kOut {
				t.nodeState(cfs, cv, it.fs, it.k)
			}
		}
	}
}

// fromNodeTable reports whether a called func value is a node func a graph keeps by name: a
// field of a record read from a map or a slice (nodes[name].Fn, node.Function of a node
// handed over as a parameter), possibly wrapped on the way by middleware (fn = mw(fn)). A
// func field of the receiver (a wrapper's next) or a callback handed in is not.
func (b *builder) fromNodeTable(v ssa.Value, fn *ssa.Function, depth int) bool {
	if depth > 8 || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			if b.fromNodeTable(e, fn, depth+1) {
				return true
			}
		}
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return b.fromNodeTable(x.X, fn, depth+1)
		}
	case *ssa.Call:
		// a middleware wrapping the node func: mw(fn)
		for _, a := range x.Call.Args {
			if isCallable(a.Type()) && b.fromNodeTable(a, fn, depth+1) {
				return true
			}
		}
	case *ssa.Field:
		return tableRecord(x.X, fn, depth+1)
	case *ssa.FieldAddr:
		return tableRecord(x.X, fn, depth+1)
	case *ssa.Lookup, *ssa.Index, *ssa.IndexAddr:
		return true // a map or slice of node funcs
	case *ssa.Parameter:
		// a node func handed to a helper that runs it (a retry wrapper): what its callers pass
		i := -1
		for j, p := range fn.Params {
			if p == x {
				i = j
			}
		}
		if n := b.cg.Nodes[fn]; n != nil && i >= 0 && len(n.In) <= 4 {
			for _, e := range n.In {
				if args := e.Site.Common().Args; e.Site.Common().StaticCallee() == fn && i < len(args) && b.fromNodeTable(args[i], e.Caller.Func, depth+1) {
					return true
				}
			}
		}
	case *ssa.Extract:
		_, ok := x.Tuple.(*ssa.Lookup)
		return ok
	}
	return false
}

// tableRecord reports whether v, the record a node func is a field of, was read from a map or
// a slice, or is a parameter (not the receiver) a node record is handed over in.
func tableRecord(v ssa.Value, fn *ssa.Function, depth int) bool {
	if depth > 8 || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.Lookup, *ssa.Index, *ssa.IndexAddr:
		return true
	case *ssa.Extract:
		_, ok := x.Tuple.(*ssa.Lookup)
		return ok
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return tableRecord(x.X, fn, depth+1)
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if tableRecord(e, fn, depth+1) {
				return true
			}
		}
	case *ssa.Parameter:
		return fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Params[0] != x
	case *ssa.Alloc:
		// a local copy of the record (node, ok := nodes[name]; node.Fn)
		if x.Referrers() != nil {
			for _, u := range *x.Referrers() {
				if st, ok := u.(*ssa.Store); ok && st.Addr == x && tableRecord(st.Val, fn, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// builtTogether reports whether node funcs a and b belong to one graph as far as the code
// shows: closures made in the same function, or by constructors one function calls both of (a
// prebuilt agent calling NewModelNode and NewToolNode), or top-level functions of one package.
// The refined call graph resolves an engine's call of a node func to the nodes of every graph
// the program builds; a value only crosses between nodes of one.
func (b *builder) builtTogether(x, y *ssa.Function) bool {
	maker := func(fn *ssa.Function) *ssa.Function {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if fn.Parent() == nil {
			return nil
		}
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		return fn
	}
	mx, my := maker(x), maker(y)
	if mx == nil || my == nil {
		return x.Pkg == y.Pkg
	}
	if mx == my {
		return true
	}
	nx, ny := b.cg.Nodes[mx], b.cg.Nodes[my]
	if nx == nil || ny == nil {
		return false
	}
	callers := map[*ssa.Function]bool{}
	for _, e := range nx.In {
		callers[e.Caller.Func] = true
	}
	for _, e := range ny.In {
		if callers[e.Caller.Func] {
			return true
		}
	}
	return false
}

// seedIn reports whether the seed call is made by node function fs itself or by a helper fs
// calls directly: the node asked the model (a value fs merely captured or was handed, an
// executor built before the graph, is not what the node decided).
func (t *tracer) seedIn(fs *funcState) bool {
	if fs == t.seedFS {
		return true
	}
	if n := t.b.cg.Nodes[t.seedFS.fn]; n != nil {
		for _, e := range n.In {
			if c := e.Caller.Func; c == fs.fn || c.Origin() == fs.fn {
				return true
			}
		}
	}
	return false
}

// maxNodes bounds the functions a graph engine's call of a node func may run for its
// siblings to take the state a node's result went into (past it the func value is a general
// callback many unrelated functions reach). VTA is field-based: the func field of a node
// record holds every func any graph of the library stores there, and a library whose prebuilt
// agents and node wrappers (retry, timeout, parallel, subgraph) all share one Node type has
// dozens (smallnest/langgraphgo@v0.5.0 graph/state_graph.go:310: 33, 28 distinct; at 16 the
// engine's node.Function was left unresolved and its ReAct agents had no turn loop). Which
// of them share state is decided per node pair (builtTogether), not by this count.
const maxNodes = 64

// nodeState follows a result (or a tool's output) that a graph node hands back to the engine
// on into the other nodes the same call of a func value runs (the agent node and the tools
// node stored as a graph's node funcs, resolved by the refined call graph): the engine merges
// what a node returned into the shared state it hands the next node (a state struct, a
// channel map reducers update, a scope read views come from), so the other nodes' state
// parameters hold it when they run. The value is not followed through the engine's store,
// which keeps it behind maps of interfaces and read views; the nodes' parameters are where it
// enters again.
func (t *tracer) nodeState(cfs *funcState, cv *ssa.Call, from *funcState, k taintKind) {
	idx, ok := cfs.callIdx[cv]
	if !ok || !cfs.f.Calls[idx].Node {
		return
	}
	// the result of the node's own model call, or a tool's output on its way back to a node
	// that asks the model
	seedNode := false
	for _, id := range cfs.f.Calls[idx].Targets {
		seedNode = seedNode || t.seedIn(t.b.funcs[id]) && t.b.builtTogether(t.b.funcs[id].fn, from.fn)
	}
	if k == kResult && !t.seedIn(from) || k == kOut && !seedNode {
		return
	}
	for _, id := range cfs.f.Calls[idx].Targets {
		gfs := t.b.funcs[id]
		if gfs == from || gfs.fn == nil || !t.b.builtTogether(gfs.fn, from.fn) {
			continue // a node of another graph the same engine code runs
		}
		for _, p := range gfs.fn.Params {
			if _, fn := p.Type().Underlying().(*types.Signature); fn || isContext(p.Type()) {
				continue
			}
			if _, basic := p.Type().Underlying().(*types.Basic); basic {
				continue
			}
			t.pushFresh(p, k, gfs, 0)
		}
	}
}

// handedAt returns the call of its parent that hands closure fs to wrapper cfs, when cv is
// cfs's call of its own function parameter (the wrapper running the callback it was handed)
// and the parent hands fs to cfs at one call; nil otherwise.
func (t *tracer) handedAt(fs, cfs *funcState, cv *ssa.Call) (ssa.CallInstruction, *funcState) {
	par := fs.fn.Parent()
	if par == nil {
		return nil, nil
	}
	if p, ok := cv.Common().Value.(*ssa.Parameter); !ok || p.Parent() != cfs.fn {
		return nil, nil
	}
	pfs := t.fsOf(par)
	if pfs == nil {
		return nil, nil
	}
	var site ssa.CallInstruction
	for _, blk := range par.Blocks {
		for _, in := range blk.Instrs {
			ci, ok := in.(ssa.CallInstruction)
			if !ok || ci.Common().StaticCallee() != cfs.fn {
				continue
			}
			for _, a := range ci.Common().Args {
				if mc, ok := a.(*ssa.MakeClosure); ok && mc.Fn == fs.fn || a == ssa.Value(fs.fn) {
					if site != nil {
						return nil, nil
					}
					site = ci
				}
			}
		}
	}
	if _, ok := site.(*ssa.Call); !ok {
		return nil, nil
	}
	return site, pfs
}

// resolvesTo reports whether call site cv of cfs may run fs: a call of a func value (a graph
// node's Function field, a callback) runs what the refined call graph resolved it to (every
// func of the same signature under CHA is not: a node of another engine), other calls any
// callee the call graph gives.
func (t *tracer) resolvesTo(cfs *funcState, cv *ssa.Call, fs *funcState) bool {
	com := cv.Common()
	if com.IsInvoke() || com.StaticCallee() != nil {
		return true
	}
	idx, ok := cfs.callIdx[cv]
	if !ok || len(cfs.f.Calls[idx].Targets) == 0 {
		return true
	}
	for _, id := range cfs.f.Calls[idx].Targets {
		if id == fs.f.ID {
			return true
		}
	}
	return false
}

func (t *tracer) call(it titem, ci ssa.CallInstruction) {
	v, k, fs := it.v, it.k, it.fs
	com := ci.Common()
	cv, _ := ci.(*ssa.Call)
	if bi, ok := com.Value.(*ssa.Builtin); ok {
		switch bi.Name() {
		case "len", "cap":
			if k == kResult && cv != nil {
				t.push(cv, kLen, fs, it.depth)
			}
		case "append":
			if cv != nil && k != kLen {
				nk := k
				if k == kElem && len(com.Args) > 0 && com.Args[0] != v {
					nk = kResult // a collection of elements: toolCalls = append(toolCalls, tc)
				}
				t.push(cv, nk, fs, it.depth)
			}
		}
		return
	}
	recv := false
	if com.IsInvoke() {
		recv = com.Value == v
	} else if s := com.StaticCallee(); s != nil && s.Signature.Recv() != nil && len(com.Args) > 0 && com.Args[0] == v {
		recv = true
	}
	calledValue := !com.IsInvoke() && com.Value == v
	argIdx := -1
	for i, a := range com.Args {
		if a == v {
			argIdx = i
		}
	}
	if com.IsInvoke() && k != kLen && it.depth < maxDepth {
		if _, tp := com.Value.Type().(*types.TypeParam); tp {
			// a method called on a value of a type parameter (state.Merge(r) in a generic
			// engine): the one method the instantiations call, followed as a static call with
			// the receiver first
			if idx, ok := fs.callIdx[ci]; ok && len(fs.f.Calls[idx].Targets) == 1 {
				m := t.b.funcs[fs.f.Calls[idx].Targets[0]].fn
				if mfs := t.fsOf(m); mfs != nil && len(m.Params) == len(com.Args)+1 {
					pi := -1
					if com.Value == v {
						pi = 0
					}
					for i, a := range com.Args {
						if a == v {
							pi = i + 1
						}
					}
					if pi >= 0 {
						t.param(ci, m, mfs, pi, k, it.depth+1)
						return
					}
				}
			}
		}
	}
	target := com.StaticCallee()
	if target != nil {
		if o := target.Origin(); o != nil && t.fsOf(o) != nil {
			target = o // a generic body stands for its instances
		}
	}
	if target == nil && !com.IsInvoke() && !calledValue && genericBody(fs.fn) && !yieldParam(com.Value, 0) {
		// a generic helper calling the func it was handed (Map[T, U]'s f(x), Retry[T]'s fn()):
		// the one function the call resolves to, as if called in place
		if idx, ok := fs.callIdx[ci]; ok && len(fs.f.Calls[idx].Targets) == 1 {
			target = t.b.funcs[fs.f.Calls[idx].Targets[0]].fn
		}
	}
	tfs := t.fsOf(target)
	if argIdx >= 0 && target == nil && !com.IsInvoke() && k != kLen && yieldParam(com.Value, 0) {
		// yield(resp, nil) in an iterator body: the item goes to the body of the loop that
		// drains the iterator, in the consumer
		t.yielded(it, ci, argIdx)
		return
	}
	if k == kOut && argIdx >= 0 && !recv {
		// history.Add(msg): a receiver the next call reads from
		var r ssa.Value
		if com.IsInvoke() {
			r = com.Value
		} else if target != nil && target.Signature.Recv() != nil && len(com.Args) > 0 {
			r = com.Args[0]
		}
		if r != nil && t.intersects(r) {
			t.feed(com.Pos(), fs)
		}
	}
	if (k == kResult || k == kElem) && argIdx >= 0 && !recv {
		// msg.SetToolCalls(resp.ToolCalls): the receiver now holds the result
		var r ssa.Value
		if com.IsInvoke() {
			r = nil // an interface (a store, a service): what it keeps is not followed
		} else if target != nil && target.Signature.Recv() != nil && len(com.Args) > 0 {
			r = com.Args[0]
		}
		if r != nil && isStructPtr(r.Type()) && storesParam(target, argIdx) {
			t.mutated(r, fs, it.depth)
		}
	}
	switch k {
	case kResult:
		if argIdx == 0 && !recv && cv != nil && textMarker(com) && t.replyText(v) {
			// if strings.Contains(result.Text, "Final Answer:") { return nil }: the reply's
			// text tested for the marker of a final answer
			text := ""
			if ce := fs.calls[com.Pos()]; ce != nil {
				text = render(ce)
			}
			t.checkCond(fs, cv, com.Pos(), text, -1, false)
		}
		if calledValue {
			// an iterator: range over a function; its yield callback receives the items
			t.flow.Delivery = "iterator"
			for _, a := range com.Args {
				for _, yf := range resolveFunc(a, 0) {
					if yfs := t.fsOf(yf); yfs != nil {
						for _, p := range yf.Params {
							t.push(p, kResult, yfs, it.depth)
							t.push(p, kElem, yfs, it.depth) // each item may be one event of a stream
						}
					}
				}
			}
		}
		if recv || calledValue || argIdx >= 0 {
			if recv && (com.Method != nil && com.Method.Name() == "Next" || target != nil && target.Name() == "Next") {
				t.flow.Delivery = "iterator"
			}
			if recv {
				name := ""
				if com.Method != nil {
					name = com.Method.Name()
				} else if target != nil {
					name = target.Name()
				}
				if name != "" {
					t.fields[name+"()"] = true
				}
				if cv != nil && isPredicate(com) {
					// if last.IsFinal() { return }: the result's own verdict on whether
					// anything is pending
					text := ""
					if ce := fs.calls[com.Pos()]; ce != nil {
						text = render(ce)
					}
					t.checkCond(fs, cv, com.Pos(), text, -1, true)
				}
			}
			if cv != nil && (recv || calledValue) {
				t.push(cv, kResult, fs, it.depth)
			}
		}
		if argIdx >= 0 && tfs != nil && (it.depth < maxDepth || t.b.plumbing(target)) {
			t.param(ci, target, tfs, argIdx, kResult, t.b.helperDepth(target, it.depth))
		}
		if argIdx >= 0 && tfs != nil && !recv && cv != nil && com.Method == nil && target.Signature.Recv() == nil &&
			!isStdFunc(target) && isElemCollection(cv.Type()) {
			// a parser of the program picking a collection of elements out of the result's text
			// (calls := ParseToolCalls(content)), whose body loses the trace in the standard
			// library's string and JSON functions: the collection derived from it
			t.push(cv, kResult, fs, it.depth)
		}
		if argIdx >= 0 && tfs != nil && !recv && cv != nil && t.replyText(v) && plainParser(target) && parsedAction(cv.Type()) {
			// the reply's text parsed into the next action by a plain function of the program
			// (act, ok := parse(reply)): the decision, and the one element it names (its verb
			// selects what runs, its argument is handed to it)
			t.flow.Parsed = true
			t.parsedParts(cv, fs, it.depth)
		}
		if argIdx >= 0 && tfs != nil && !recv && cv != nil && t.replyText(v) && plainParser(target) && textTool(target) {
			// the reply's text handed to a plain fallible function of the program that returns
			// text (results, err := tool.TavilySearch(newQuery)): a model with no tool-call API
			// whose reply is the next tool's input; the function is the tool, what it returns
			// may feed the next call
			d := t.dispatch(fs, com.Pos(), "text_arg", ci)
			t.addToolD(fs, ci, d)
			t.pushD(cv, kOut, fs, it.depth, d)
		}
		if (argIdx >= 0 || recv) && (tfs == nil || isStdFunc(target)) && !calledValue {
			// read or decoded by a function without a body here: io.ReadAll(resp.Body) keeps
			// the raw bytes, json.Unmarshal(data, &out) and dec.Decode(&out) fill out
			if cv != nil && isBytes(cv.Type()) {
				t.push(cv, kResult, fs, it.depth)
			}
			for i, a := range com.Args {
				if i != argIdx && !(recv && i == 0 && !com.IsInvoke()) {
					t.filled(a, fs, it.depth)
				}
			}
		}
		if argIdx >= 0 && tfs == nil && !recv && cv != nil {
			// built from the result by a function without a body here (strings.Join, a
			// message constructor): only what feeds the next call matters
			t.push(cv, kOut, fs, it.depth)
			if argIdx == 0 && textCleaner(com) && t.replyText(v) {
				// strings.TrimSpace(resp.Choices[0].Message.Content): the same reply text,
				// trimmed or case-folded, is still the reply (tested for a marker, handed on)
				t.push(cv, kResult, fs, it.depth)
			}
			if com.Method == nil && !isStdCall(fs.f.Calls[fs.callIdx[ci]].Keys) && isElemCollection(cv.Type()) {
				// a helper of another package picking a collection of elements out of the result
				// (utils.FunctionCalls(resp.Content)): the collection derived from it
				t.push(cv, kResult, fs, it.depth)
			}
		}
	case kElem:
		if recv && cv != nil {
			t.push(cv, elemKind(kElem, cv.Type()), fs, it.depth)
		}
		if argIdx >= 0 && !recv {
			if tfs != nil && (it.depth < maxDepth || t.b.plumbing(target)) {
				t.param(ci, target, tfs, argIdx, kElem, t.b.helperDepth(target, it.depth))
			}
			if cv != nil {
				if elemLike(cv.Type()) {
					t.push(cv, kElem, fs, it.depth) // a converted, validated or repaired element
				}
				t.push(cv, kOut, fs, it.depth)
			}
		}
	case kName:
		if argIdx == 0 && !recv && cv != nil && com.Method == nil && nameParts(fs.f.Calls[fs.callIdx[ci]].Keys) {
			// strings.Split(name, "__"), strings.Cut(name, "."): the parts of a namespaced
			// tool name (server__tool) are names too; the part a table is keyed by selects
			t.push(cv, kName, fs, it.depth)
		}
		if argIdx >= 0 && !recv && !(isStdCall(fs.f.Calls[fs.callIdx[ci]].Keys) && com.Method == nil) {
			if tfs != nil && it.depth < maxDepth {
				t.param(ci, target, tfs, argIdx, kName, it.depth+1)
			}
			if cv != nil {
				rt := cv.Type()
				if tup, ok := rt.(*types.Tuple); ok && tup.Len() > 0 {
					rt = tup.At(0).Type()
				}
				if isCallable(rt) && !isErrorType(rt) {
					// registry.Get(name): the callable a name selects
					t.pushD(cv, kTool, fs, it.depth, t.dispatch(fs, com.Pos(), "name_arg", ci))
				} else if tfs == nil && t.cur.disp < 0 && passesMore(com, argIdx) {
					// registry.Execute(name, args): the call runs the tool it names, unless a
					// lookup or comparison selected what it calls (decided once the trace is done)
					t.pending = append(t.pending, pendingTool{fs, ci})
					t.push(cv, kOut, fs, it.depth)
				}
			}
		}
	case kTool:
		if recv && isGetter(com) {
			break // t.Name(), t.Description(): reading the callable, not running it
		}
		if argIdx == 0 && cv != nil && com.StaticCallee() != nil && com.StaticCallee().String() == "reflect.ValueOf" {
			// reflect.ValueOf(fn).Call(args): the callable a name selected, as a reflect.Value
			// (lingoose@v0.3.0 llm/openai/function.go:166-207 calls Function.Fn so)
			t.push(cv, kTool, fs, it.depth)
			break
		}
		if _, basic := v.Type().Underlying().(*types.Basic); basic && !recv && !calledValue {
			break // a tool's name or description handed on (a span named after it): data, not the callable
		}
		if argIdx >= 0 && !recv && tfs == nil && observes(com) {
			break // hooks.OnToolStart(ctx, agent, tool): told about the tool, it returns nothing a tool would
		}
		if recv || calledValue {
			t.addTool(fs, ci)
			if cv != nil {
				t.push(cv, kOut, fs, it.depth)
			}
		} else if argIdx >= 0 {
			if tfs != nil && it.depth < maxDepth {
				t.param(ci, target, tfs, argIdx, kTool, it.depth+1)
			} else {
				t.addTool(fs, ci)
			}
			if cv != nil {
				t.push(cv, kOut, fs, it.depth)
			}
		}
	case kOut:
		if cv != nil && (argIdx >= 0 || recv) {
			t.push(cv, kOut, fs, it.depth)
		}
		if argIdx >= 0 && tfs != nil && it.depth < maxDepth {
			t.param(ci, target, tfs, argIdx, kOut, it.depth+1)
		}
	}
	// A dynamic call (an interface method, a func value) passes the result to each of its few
	// implementations with a body: a slice of response processors, one of which runs the tools.
	if target == nil && argIdx >= 0 && !recv && it.depth < 3 && (k == kResult || k == kElem || k == kOut) {
		t.dynamicParams(fs, ci, argIdx, k, it.depth+1)
	}
	// The seed itself called again with output: the next iteration's input.
	if k == kOut && argIdx >= 0 && fs == t.seedFS {
		if idx, ok := fs.callIdx[ci]; ok && idx == t.seedCall {
			t.feed(com.Pos(), fs)
		}
	}
}

// observes reports whether a call without a body here returns nothing but an error or a
// context: a hook or a log told about a value (hooks.OnToolStart(ctx, agent, tool) error, or
// one handing back the context the end hook gets: ctx = h.OnToolStart(ctx, agent, tool)), not
// a runner of it (that hands back the tool's result, which feeds the next model input).
func observes(com *ssa.CallCommon) bool {
	res := com.Signature().Results()
	for i := 0; i < res.Len(); i++ {
		if t := res.At(i).Type(); !isErrorType(t) && !isContext(t) {
			return false
		}
	}
	return true
}

// maxYieldConsumers bounds the loop bodies an iterator's yield hands an item to: past it the
// iterator is a general one many loops drain.
const maxYieldConsumers = 4

// yielded follows an item an iterator body hands to yield (argument i) into the bodies of the
// range-over-func loops that drain the iterator: the iterator is a closure its maker returns,
// and each caller of the maker that ranges over the result hands it its loop body (found on
// the code, not from VTA, which merges every body of the same type reaching an iterator it
// cannot resolve). The consumer is a caller of the maker, so the trace goes up one level (a
// tool's output stays at its depth, as in returned).
func (t *tracer) yielded(it titem, ci ssa.CallInstruction, i int) {
	if it.depth >= maxDepth && it.k != kOut {
		return
	}
	bodies := t.consumers(ci.Common().Value)
	if len(bodies) > maxYieldConsumers {
		return
	}
	up := it.depth + 1
	if it.k == kOut {
		up = it.depth
	}
	for _, body := range bodies {
		bfs := t.fsOf(body)
		if bfs == nil || bfs.f.BodyOf < 0 || i >= len(body.Params) {
			continue
		}
		if pfs := t.fsOf(body.Parent()); pfs != nil && (it.k == kResult || it.k == kElem) && bfs.f.BodyOf < len(pfs.f.Loops) {
			// the call that made the drained iterator (f.call(ctx, req) re-yielding the model's
			// responses) carries this result on
			if oc := pfs.f.Loops[bfs.f.BodyOf].OverCall; oc >= 0 {
				t.carrier(ir.CallRef{Func: pfs.f.ID, Call: oc})
			}
		}
		t.pushFresh(body.Params[i], it.k, bfs, up)
	}
}

// consumers returns the loop bodies handed to the iterator whose yield function is y: y is
// the iterator closure's parameter (or a capture of it in a nested closure), the closure is
// made by its maker, and the maker's callers call what it returned with a body.
func (t *tracer) consumers(y ssa.Value) []*ssa.Function {
	p := yieldOwner(y, 0)
	if p == nil {
		return nil
	}
	iterFn := p.Parent()
	maker := iterFn.Parent()
	if maker == nil {
		return nil
	}
	node := t.b.cg.Nodes[maker]
	if node == nil {
		return nil
	}
	var out []*ssa.Function
	for _, e := range node.In {
		cv, ok := e.Site.(*ssa.Call)
		if !ok || cv.Referrers() == nil {
			continue
		}
		for _, r := range *cv.Referrers() {
			call, ok := r.(ssa.CallInstruction)
			if !ok || call.Common().Value != cv || len(call.Common().Args) != 1 {
				continue
			}
			a := call.Common().Args[0]
			if mc, ok := a.(*ssa.MakeClosure); ok {
				a = mc.Fn
			}
			if body := fnOf(a); body != nil {
				out = append(out, body)
			}
		}
		if len(out) > maxYieldConsumers {
			break
		}
	}
	return out
}

// yieldOwner returns the yield parameter a yield value is (through closures' captures).
func yieldOwner(v ssa.Value, depth int) *ssa.Parameter {
	if depth > 4 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return x
	case *ssa.FreeVar:
		fn := x.Parent()
		idx := -1
		for i, fv := range fn.FreeVars {
			if fv == x {
				idx = i
			}
		}
		if fn.Parent() == nil || idx < 0 {
			return nil
		}
		for _, blk := range fn.Parent().Blocks {
			for _, in := range blk.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
					return yieldOwner(mc.Bindings[idx], depth+1)
				}
			}
		}
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return yieldOwner(x.X, depth+1)
		}
	case *ssa.Alloc:
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				return yieldOwner(st.Val, depth+1)
			}
		}
	}
	return nil
}

// traceBudget bounds the values one call's result is followed through. The trace runs depth
// first, and a result handed to a dynamic call is followed into each of its implementations
// (loggers, retry executors, processors): at 4000 those detours used it up before the decision
// in the caller was reached (agent-sdk-go's HTTP clients lost both turn loops; corpus-go facts
// 53 -> 67 of 103 at 16000, no change in vet time measured: bench/RESULTS.md).
const traceBudget = 16000

// maxDynamicTargets bounds the implementations a dynamic call's argument is followed into.
const maxDynamicTargets = 8

// dynamicParams follows argument i of a dynamic call into the parameters of the functions the
// call graph resolves it to (the receiver is the first parameter of an interface method's
// implementation).
func (t *tracer) dynamicParams(fs *funcState, ci ssa.CallInstruction, i int, k taintKind, depth int) {
	idx, ok := fs.callIdx[ci]
	if !ok {
		return
	}
	targets := fs.f.Calls[idx].Targets
	if len(targets) > maxDynamicTargets {
		return
	}
	off := 0
	if ci.Common().IsInvoke() {
		off = 1
	}
	for _, id := range targets {
		tfs := t.b.funcs[id]
		if len(tfs.fn.Params) == len(ci.Common().Args)+off {
			t.param(ci, tfs.fn, tfs, i+off, k, depth)
		}
	}
}

// param follows a value into parameter i of fn, called at site: what fn returns of it goes
// back to that site (at the caller's depth), not to every caller of fn.
func (t *tracer) param(site ssa.CallInstruction, fn *ssa.Function, fs *funcState, i int, k taintKind, depth int) {
	if i < len(fn.Params) {
		saved := t.cur.stack
		t.cur.stack = &frame{site: site, depth: depth - 1, caller: t.cur.fs, up: saved}
		t.push(fn.Params[i], k, fs, depth)
		t.cur.stack = saved
	}
}

// isCallable reports whether a value of type t can be run: a func, an interface with
// methods, or a pointer to a type with methods.
func isCallable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		return u.NumMethods() > 0
	case *types.Pointer:
		if n, ok := u.Elem().(*types.Named); ok {
			return n.NumMethods() > 0
		}
	}
	if n, ok := t.(*types.Named); ok {
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			return n.NumMethods() > 0
		}
	}
	return false
}

// holdsFunc reports whether t is a struct (or a pointer to one) with an exported func-valued
// field: a tool record whose field runs the tool.
func holdsFunc(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Exported() {
			if _, ok := f.Type().Underlying().(*types.Signature); ok {
				return true
			}
			if it, ok := f.Type().Underlying().(*types.Interface); ok && it.Empty() {
				// Function{Name, Fn any}: a func of any signature, run by reflection
				// (lingoose@v0.3.0 llm/openai/function.go:15-20, 207)
				return true
			}
		}
	}
	return false
}

// storedNode reports whether fs is a closure kept as a value (a graph node registered by
// name, a step handler) rather than called in place: what it returns of the result goes on to
// whoever runs the stored callable (the engine's loop calling nodes[current]).
func (t *tracer) storedNode(fs *funcState) bool {
	return fs == t.seedFS && fs.f.Parent >= 0 && (fs.f.Launch == "" || fs.f.Launch == "return") && fs.f.BodyOf < 0
}

// selected reports whether dispatch d chose its callable from the callables themselves (a map
// lookup, a comparison with their names), not as what a call handed the name returned.
func (t *tracer) selected(d int) bool {
	return d >= 0 && d < len(t.flow.Dispatch) && t.flow.Dispatch[d].How != "name_arg"
}

// carriesCallable reports whether a value of type t holds a tool: a callable, a record with a
// func-valued field, or a collection or record of them (a plan of tool runs), a few levels deep.
func carriesCallable(t types.Type, depth int) bool {
	if depth > 2 {
		return false
	}
	if isCallable(t) || holdsFunc(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return carriesCallable(u.Elem(), depth+1)
	case *types.Slice:
		return carriesCallable(u.Elem(), depth+1)
	case *types.Array:
		return carriesCallable(u.Elem(), depth+1)
	case *types.Map:
		return carriesCallable(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if f := u.Field(i); f.Exported() && carriesCallable(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// returnedAlloc reports whether a local struct (or its value) is returned by its function.
func returnedAlloc(al *ssa.Alloc) bool {
	for _, r := range *al.Referrers() {
		switch x := r.(type) {
		case *ssa.Return:
			return true
		case *ssa.UnOp:
			if x.Op == token.MUL && x.Referrers() != nil {
				for _, r2 := range *x.Referrers() {
					if _, ok := r2.(*ssa.Return); ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// isGetter reports whether a method call takes no arguments and returns only strings or
// bools (a name or description accessor).
func isGetter(com *ssa.CallCommon) bool {
	sig := com.Signature()
	n := len(com.Args)
	if !com.IsInvoke() {
		n-- // the receiver
	}
	// a tool needs its input: a method without arguments reads the callable (Name, Info,
	// Definition) rather than running it
	return n == 0 && sig.Results().Len() > 0
}

// handedOver reports whether a local value (a composite literal) is handed to the consumer
// as it is: passed to an iterator's yield or sent on a channel.
func handedOver(v ssa.Value, depth int) bool {
	if depth > 2 || v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		switch x := r.(type) {
		case *ssa.Send:
			if x.X == v {
				return true
			}
		case ssa.CallInstruction:
			com := x.Common()
			if com.StaticCallee() == nil && !com.IsInvoke() && com.Value != v && yieldParam(com.Value, 0) {
				return true
			}
		case *ssa.UnOp:
			if x.Op == token.MUL && handedOver(x, depth+1) {
				return true
			}
		case *ssa.MakeInterface:
			if handedOver(x, depth+1) {
				return true
			}
		}
	}
	return false
}

// isElemCollection reports whether a call's (first) result is a slice of elements (structs,
// pointers or interfaces other than error).
func isElemCollection(res types.Type) bool {
	if tup, ok := res.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return false
		}
		res = tup.At(0).Type()
	}
	sl, ok := res.Underlying().(*types.Slice)
	return ok && elemLike(sl.Elem())
}

// isPredicate reports whether a method call takes no arguments besides its receiver and
// returns one bool (resp.IsFinal(), ev.Done()).
func isPredicate(com *ssa.CallCommon) bool {
	var sig *types.Signature
	if com.IsInvoke() {
		sig = com.Signature()
		if len(com.Args) != 0 {
			return false
		}
	} else if s := com.StaticCallee(); s != nil && s.Signature.Recv() != nil {
		sig = s.Signature
		if len(com.Args) != 1 {
			return false
		}
	}
	if sig == nil || sig.Results().Len() != 1 {
		return false
	}
	bt, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && bt.Kind() == types.Bool
}

// isCollectionLen reports whether v is len(x) of a slice, map or channel (not of a string).
func isCollectionLen(v ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	c, ok := v.(*ssa.Call)
	if !ok || len(c.Common().Args) != 1 {
		return false
	}
	switch c.Common().Args[0].Type().Underlying().(type) {
	case *types.Slice, *types.Map, *types.Chan, *types.Array, *types.Pointer:
		return true
	}
	return false
}

// elemLike reports whether a call's (first) result can stand for an element: a struct, a
// pointer or an interface other than error.
func elemLike(res types.Type) bool {
	if tup, ok := res.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return false
		}
		res = tup.At(0).Type()
	}
	if isErrorType(res) {
		return false
	}
	switch res.Underlying().(type) {
	case *types.Struct, *types.Pointer, *types.Interface:
		return true
	}
	return false
}

// isNamedConst reports whether c is a constant of a named (enum-like) type.
func isNamedConst(c *ssa.Const) bool {
	_, named := types.Unalias(c.Type()).(*types.Named)
	return named
}

func isStructPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, st := p.Elem().Underlying().(*types.Struct)
	return st
}

// mutated marks what a method's receiver refers to as holding the result: a local cell, or
// for a pointer parameter, the arguments its callers pass.
func (t *tracer) mutated(r ssa.Value, fs *funcState, depth int) {
	switch x := r.(type) {
	case *ssa.Alloc:
		t.push(x, kResult, fs, depth)
	case *ssa.UnOp:
		if a, ok := x.X.(*ssa.Alloc); ok {
			t.push(a, kResult, fs, depth)
		}
	case *ssa.Parameter:
		if depth >= maxDepth {
			return
		}
		idx := -1
		for i, p := range fs.fn.Params {
			if p == x {
				idx = i
			}
		}
		node := t.b.cg.Nodes[fs.fn]
		if node == nil || idx < 0 {
			return
		}
		for _, e := range node.In {
			cfs := t.fsOf(e.Caller.Func)
			args := e.Site.Common().Args
			if cfs == nil || idx >= len(args) {
				continue
			}
			t.mutated(args[idx], cfs, depth+1)
		}
	}
}

// mapValue returns the element type of a map type (nil otherwise).
func mapValue(t types.Type) types.Type {
	if m, ok := t.Underlying().(*types.Map); ok {
		return m.Elem()
	}
	return types.Typ[types.Invalid]
}

// storesParam reports whether a method stores its parameter i (or something read from it)
// into a field of its receiver: msg.SetToolCalls(calls) keeps calls, agent.validate(calls)
// does not.
func storesParam(fn *ssa.Function, i int) bool {
	if fn == nil || len(fn.Params) <= i || len(fn.Params) == 0 {
		return false
	}
	recv, p := fn.Params[0], fn.Params[i]
	// from reports whether v is computed from p: a backward walk over operands (through
	// appends, conversions, phis and the elements of a loop over p), bounded.
	from := func(v ssa.Value) bool {
		seen := map[ssa.Value]bool{}
		queue := []ssa.Value{v}
		for n := 0; len(queue) > 0 && n < 64; n++ {
			x := queue[0]
			queue = queue[1:]
			if x == nil || seen[x] {
				continue
			}
			seen[x] = true
			if x == p {
				return true
			}
			in, ok := x.(ssa.Instruction)
			if !ok {
				continue
			}
			var rands []*ssa.Value
			for _, r := range in.Operands(rands) {
				if r != nil && *r != nil {
					queue = append(queue, *r)
				}
			}
			if a, ok := x.(*ssa.Alloc); ok {
				// a slice literal or cell: what is stored into it
				for _, ref := range *a.Referrers() {
					if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
						queue = append(queue, st.Val) // a parameter spilled to a local
					}
					if ia, ok := ref.(*ssa.IndexAddr); ok {
						for _, r2 := range *ia.Referrers() {
							if st, ok := r2.(*ssa.Store); ok {
								queue = append(queue, st.Val)
							}
						}
					}
				}
			}
		}
		return false
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			if st.Addr == recv && from(st.Val) {
				return true // *acc = event.Message: the whole receiver replaced from p
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			base := fa.X
			for {
				inner, ok := base.(*ssa.FieldAddr)
				if !ok {
					break
				}
				base = inner.X
			}
			if base == recv && from(st.Val) {
				return true
			}
		}
	}
	return false
}

// readsDrained reports whether call v reads the value a loop around it drains: a method of the
// cursor or stream (for stream.Next() { stream.Current() }) that a call before the loop returned.
func readsDrained(fs *funcState, v *ssa.Call) bool {
	com := v.Common()
	var recv ssa.Value
	switch {
	case com.IsInvoke():
		recv = com.Value
	case com.StaticCallee() != nil && com.StaticCallee().Signature.Recv() != nil && len(com.Args) > 0:
		recv = com.Args[0]
	default:
		return false
	}
	for i := 0; i < 4; i++ {
		switch x := recv.(type) {
		case *ssa.Extract:
			recv = x.Tuple
			continue
		case *ssa.UnOp:
			recv = x.X
			continue
		case *ssa.ChangeInterface:
			recv = x.X
			continue
		case *ssa.MakeInterface:
			recv = x.X
			continue
		}
		break
	}
	src, ok := recv.(ssa.CallInstruction)
	if !ok {
		return false
	}
	idx, ok := fs.callIdx[src]
	if !ok {
		return false
	}
	self, ok := fs.callIdx[v]
	if !ok {
		return false
	}
	for _, li := range fs.f.Calls[self].Loops {
		if fs.f.Loops[li].OverCall == idx {
			return true
		}
	}
	return false
}

// isBytes reports whether a call's (first) result is a byte slice.
func isBytes(res types.Type) bool {
	if tup, ok := res.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return false
		}
		res = tup.At(0).Type()
	}
	sl, ok := res.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := sl.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// filled marks a local a bodiless call decodes the result into (json.Unmarshal(data, &out)):
// a local variable or, from a closure, the variable it captured.
func (t *tracer) filled(a ssa.Value, fs *funcState, depth int) {
	if mi, ok := a.(*ssa.MakeInterface); ok {
		a = mi.X // json.Unmarshal(data, &out) takes any
	}
	switch x := a.(type) {
	case *ssa.Alloc:
		if _, isPtr := x.Type().Underlying().(*types.Pointer); isPtr && !isStringType(x.Type().Underlying().(*types.Pointer).Elem()) {
			t.push(x, kResult, fs, depth)
		}
	case *ssa.FreeVar:
		t.captured(x, kResult, depth)
	}
}

// captured pushes the parent's value a closure's free variable is bound to.
func (t *tracer) captured(x *ssa.FreeVar, k taintKind, depth int) {
	fn := x.Parent()
	if fn == nil || fn.Parent() == nil {
		return
	}
	pfs := t.fsOf(fn.Parent())
	if pfs == nil {
		return
	}
	for i, fv := range fn.FreeVars {
		if fv != x {
			continue
		}
		for _, blk := range fn.Parent().Blocks {
			for _, in := range blk.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
					t.pushFresh(mc.Bindings[i], k, pfs, depth)
				}
			}
		}
	}
}

func (t *tracer) through(ref ir.CallRef) {
	if !hasRef(t.flow.Through, ref) {
		t.flow.Through = append(t.flow.Through, ref)
	}
}

func (t *tracer) carrier(ref ir.CallRef) {
	for _, r := range t.flow.Carriers {
		if r == ref {
			return
		}
	}
	t.flow.Carriers = append(t.flow.Carriers, ref)
}

// isStdFunc reports whether fn belongs to the standard library (read as an opaque carrier of
// the data it is handed, even when its body is loaded).
func isStdFunc(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Pkg != nil && isStdPath(fn.Pkg.Pkg.Path())
}

// onReceiver reports whether the field address fa is taken on fn's receiver (directly or
// through embedded structs) or, in a func literal made in a method, on that method's captured
// receiver: the state of the object whose method fn is.
func onReceiver(fn *ssa.Function, fa *ssa.FieldAddr) bool {
	var base ssa.Value = fa
	for {
		inner, ok := base.(*ssa.FieldAddr)
		if !ok {
			break
		}
		base = inner.X
	}
	return isReceiver(fn, base, 0)
}

// isReceiver reports whether v is fn's receiver, or, in a func literal, the receiver of the
// method it was made in, captured by value or by reference (go func() { … a.pending =
// resp.Calls … }() in a method of a: the goroutine's loop keeps the state that the method's
// helpers read).
func isReceiver(fn *ssa.Function, v ssa.Value, depth int) bool {
	if fn == nil || depth > 4 {
		return false
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		return isReceiverCell(fn, ld.X, depth+1)
	}
	if fn.Signature.Recv() != nil && len(fn.Params) > 0 {
		return v == fn.Params[0]
	}
	b := closureBinding(fn, v)
	return b != nil && isReceiver(fn.Parent(), b, depth+1)
}

// isReceiverCell reports whether c is a cell of fn that holds the receiver only: a local the
// receiver alone is stored into (the method's receiver captured by reference), or a captured
// variable bound to such a cell of the enclosing function.
func isReceiverCell(fn *ssa.Function, c ssa.Value, depth int) bool {
	if fn == nil || depth > 4 {
		return false
	}
	switch c := c.(type) {
	case *ssa.Alloc:
		var stored ssa.Value
		for _, r := range *c.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == c {
				if stored != nil {
					return false
				}
				stored = st.Val
			}
		}
		return stored != nil && isReceiver(fn, stored, depth+1)
	case *ssa.FreeVar:
		b := closureBinding(fn, c)
		return b != nil && isReceiverCell(fn.Parent(), b, depth+1)
	}
	return false
}

// closureBinding returns the value the enclosing function binds to fn's captured variable v
// where it makes the closure, or nil.
func closureBinding(fn *ssa.Function, v ssa.Value) ssa.Value {
	fv, ok := v.(*ssa.FreeVar)
	if !ok || fn.Parent() == nil {
		return nil
	}
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	if idx < 0 {
		return nil
	}
	for _, blk := range fn.Parent().Blocks {
		for _, in := range blk.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
				return mc.Bindings[idx]
			}
		}
	}
	return nil
}

// isLiteralLoad reports whether v is the value of a local (a nested composite literal).
func isLiteralLoad(v ssa.Value) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	_, ok = ld.X.(*ssa.Alloc)
	return ok
}

// passesMore reports whether a call hands over more than the name at argument argIdx (and a
// context, and the receiver): registry.Execute(ctx, name, args) runs the tool it names with
// its arguments, store.Get(name) only looks a record up.
func passesMore(com *ssa.CallCommon, argIdx int) bool {
	recvArg := !com.IsInvoke() && com.Signature().Recv() != nil
	for i, a := range com.Args {
		if i == argIdx || recvArg && i == 0 || isContext(a.Type()) {
			continue
		}
		return true
	}
	return false
}

// genericHelper reports whether fn is a generic package-level function (Map[T, U], Retry[T],
// Must[T]) or a closure in one, or a method of a generic type that only forwards to one call
// (a NodeFunc[S] adapter's Run calling f(ctx, state)): plumbing that hands values through to the
// funcs it is given or back to its caller. Following a value into or out of one does not count
// as going deeper.
func genericHelper(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Parent() == nil && fn.Signature.RecvTypeParams().Len() > 0 && forwarder(fn) {
		return true
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn.Signature.Recv() == nil && fn.TypeParams().Len() > 0
}

// forwarder reports whether fn's body is one call whose results it returns.
func forwarder(fn *ssa.Function) bool {
	if len(fn.Blocks) != 1 {
		return false
	}
	var call *ssa.Call
	for _, in := range fn.Blocks[0].Instrs {
		switch x := in.(type) {
		case *ssa.Call:
			if call != nil {
				return false
			}
			call = x
		case ssa.CallInstruction:
			return false
		case *ssa.Return:
			if call == nil {
				return false
			}
			for _, r := range x.Results {
				if e, ok := r.(*ssa.Extract); ok && e.Tuple == call || r == call {
					continue
				}
				return false
			}
			return true
		}
	}
	return false
}

// helperDepth is the depth of a value handed to target at depth: one deeper, unless target is
// plumbing (a generic helper, or a function that passes its arguments on to the func it was
// handed and returns what that returned).
func (b *builder) helperDepth(target *ssa.Function, depth int) int {
	if b.plumbing(target) {
		return depth
	}
	return depth + 1
}

// plumbing reports whether a value passes through target without counting a helper level: a
// generic helper (Map[T, U], Retry[T]) or a runner of a handed func (passesOn).
func (b *builder) plumbing(target *ssa.Function) bool {
	return genericHelper(target) || b.passesOn(target)
}

// passesOn reports whether fn runs a func it was handed — a parameter, or a func-valued field
// of one (node.Function of the node a graph engine runs) — and returns what that call returned
// as it is: a retry, timeout or tracing wrapper around a graph node or an attempt
// (executeNodeWithRetry(ctx, node, state)). What the wrapped func returns is what fn returns,
// so the trace goes through it as through the call it makes.
func (b *builder) passesOn(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if v, ok := b.passOn[fn]; ok {
		return v
	}
	res := false
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			ret, ok := in.(*ssa.Return)
			if !ok || len(ret.Results) == 0 {
				continue
			}
			r := ret.Results[0]
			if ex, ok := r.(*ssa.Extract); ok && ex.Index == 0 {
				r = ex.Tuple
			}
			call, ok := r.(*ssa.Call)
			if !ok || call.Common().IsInvoke() || call.Common().StaticCallee() != nil {
				continue
			}
			if handedFunc(call.Common().Value, 0) {
				res = true
			}
		}
	}
	if b.passOn == nil {
		b.passOn = map[*ssa.Function]bool{}
	}
	b.passOn[fn] = res
	return res
}

// handedFunc reports whether a func value is a parameter of its function or a field of one
// (read through loads and field addresses).
func handedFunc(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.UnOp:
		return x.Op == token.MUL && handedFunc(x.X, depth+1)
	case *ssa.Field:
		return handedFunc(x.X, depth+1)
	case *ssa.FieldAddr:
		return handedFunc(x.X, depth+1)
	case *ssa.Alloc:
		// a struct parameter spilled to a local (its address taken): what is stored into it
		for _, ref := range *x.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == x && handedFunc(st.Val, depth+1) {
				return true
			}
		}
	}
	return false
}

// gathers reports whether a store of a result into a slice element gathers whole results: the
// element is chosen by a computed index (results[i] = res, one per node run) or is a value
// the code does not look into (an interface or a type parameter: updates = append(updates,
// res) of a graph engine's opaque states), not a field of a reply appended to a history.
func gathers(a *ssa.IndexAddr, val ssa.Value) bool {
	if _, isConst := a.Index.(*ssa.Const); !isConst {
		return true
	}
	switch val.Type().(type) {
	case *types.TypeParam:
		return true
	}
	_, iface := val.Type().Underlying().(*types.Interface)
	return iface && !isErrorType(val.Type())
}

// chanRecv is a value received from a channel in a function.
type chanRecv struct {
	v  ssa.Value
	fs *funcState
}

// fieldReceives returns what the functions of the program receive from the channel ch holds
// when ch is loaded from a struct field (d.inbox): the <-x and range receives (the UnOp) and
// the select cases (the Extract of the received value) on a load of the same field. Nil when
// ch is no field load.
func (b *builder) fieldReceives(ch ssa.Value) []chanRecv {
	ld, ok := ch.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	fv := fieldOf(fa.X.Type(), fa.Field)
	if _, ok := fv.Type().Underlying().(*types.Chan); !ok {
		return nil
	}
	var out []chanRecv
	for _, u := range b.usesOf(fv) {
		for _, r := range *u.fa.Referrers() {
			l, ok := r.(*ssa.UnOp)
			if !ok || l.Op != token.MUL {
				continue
			}
			out = append(out, b.receives(l, u.fs)...)
			if returnsValue(l, 0) {
				// func (b *bus) Results() <-chan Result { return b.results }: what the
				// callers receive from the channel it hands out
				out = append(out, b.callerReceives(u.fs.fn, 0)...)
			}
		}
	}
	return out
}

// receives returns the receives from channel value ch in function fs: <-ch and range (the
// UnOp), and select cases (the Extract of the received value).
func (b *builder) receives(ch ssa.Value, fs *funcState) []chanRecv {
	if ch.Referrers() == nil || fs == nil {
		return nil
	}
	var out []chanRecv
	for _, r := range *ch.Referrers() {
		switch y := r.(type) {
		case *ssa.ChangeType:
			out = append(out, b.receives(y, fs)...) // chan T handed out as <-chan T
		case *ssa.UnOp:
			if y.Op == token.ARROW && y.X == ch {
				out = append(out, chanRecv{y, fs})
			}
		case *ssa.Select:
			n := 0
			for _, st := range y.States {
				if st.Dir != types.RecvOnly {
					continue
				}
				if st.Chan == ch && y.Referrers() != nil {
					for _, r3 := range *y.Referrers() {
						if e, ok := r3.(*ssa.Extract); ok && e.Index == 2+n {
							out = append(out, chanRecv{e, fs})
						}
					}
				}
				n++
			}
		}
	}
	return out
}

// localReceives returns the receives from the channel ch of a function fs: ch itself when
// fs made it, or the channel a closure captured (by value, or the variable holding it) in the
// function that made the closure. Nil for a channel of a struct field (see fieldReceives).
func (b *builder) localReceives(ch ssa.Value, fs *funcState) []chanRecv {
	if fs == nil || fs.fn == nil {
		return nil
	}
	cell := false
	if ld, ok := ch.(*ssa.UnOp); ok && ld.Op == token.MUL {
		ch, cell = ld.X, true
	}
	fv, ok := ch.(*ssa.FreeVar)
	if !ok {
		if cell {
			return nil
		}
		return b.receives(ch, fs)
	}
	fn := fv.Parent()
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	if o := parent.Origin(); o != nil {
		parent = o
	}
	id, ok := b.ids[parent]
	if !ok {
		return nil
	}
	pfs := b.funcs[id]
	var out []chanRecv
	for i, x := range fn.FreeVars {
		if x != fv {
			continue
		}
		for _, blk := range parent.Blocks {
			for _, in := range blk.Instrs {
				mc, ok := in.(*ssa.MakeClosure)
				if !ok || mc.Fn != fn || i >= len(mc.Bindings) {
					continue
				}
				bnd := mc.Bindings[i]
				if !cell {
					out = append(out, b.receives(bnd, pfs)...)
					continue
				}
				if _, ok := bnd.(*ssa.Alloc); !ok || bnd.Referrers() == nil {
					continue
				}
				for _, r := range *bnd.Referrers() {
					if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL {
						out = append(out, b.receives(l, pfs)...)
					}
				}
			}
		}
	}
	return out
}

// callerReceives returns the receives, in the callers of fn (and of the wrappers that return
// what it returns: a method promoted from an embedded interface), from the channel fn returns.
func (b *builder) callerReceives(fn *ssa.Function, depth int) []chanRecv {
	if b.cg == nil || depth > 2 {
		return nil
	}
	node := b.cg.Nodes[fn]
	if node == nil {
		return nil
	}
	var out []chanRecv
	for _, e := range node.In {
		cv, ok := e.Site.(*ssa.Call)
		if !ok {
			continue
		}
		caller := cv.Parent()
		if o := caller.Origin(); o != nil {
			caller = o
		}
		if id, ok := b.ids[caller]; ok {
			out = append(out, b.receives(cv, b.funcs[id])...)
		}
		if returnsValue(cv, 0) {
			out = append(out, b.callerReceives(cv.Parent(), depth+1)...)
		}
	}
	return out
}

// sendsAll reports whether send is in a loop of its function that only sends: no receive or
// select in the loop's blocks, and not a loop around the seed call in its own function (the
// turn loop). Every element is then handed over before anything waits for a result. A send in
// no loop (a bus's Publish method) is judged at the call the trace entered its function
// through (for _, c := range calls { bus.Publish(c) }).
func (t *tracer) sendsAll(fs *funcState, send *ssa.Send) bool {
	blk := send.Block()
	fr := t.cur.stack
	for len(fs.blockLoops[blk]) == 0 {
		if fr == nil || fr.caller == nil || fr.site == nil {
			return false
		}
		fs, blk, fr = fr.caller, fr.site.Block(), fr.up
	}
	inner := fs.blockLoops[blk][0]
	if fs == t.seedFS && t.seedCall < len(fs.f.Calls) && slices.Contains(fs.f.Calls[t.seedCall].Loops, inner) {
		return false
	}
	for b, bl := range fs.blockLoops {
		if !slices.Contains(bl, inner) {
			continue
		}
		for _, in := range b.Instrs {
			switch y := in.(type) {
			case *ssa.Select:
				return false
			case *ssa.UnOp:
				if y.Op == token.ARROW {
					return false
				}
			}
		}
	}
	return true
}

// replyText reports whether v is the text the seed call returned (a model reply that is plain
// text), not a string derived from it on the way: the seed's own text, a text field selected
// from its result (resp.Text, completion.Choices[0].Message.Content), or the text a helper of
// the program returns that is one of those (response, err := b.askWithMessages(ctx, msgs)).
// Text built from it (a concatenation, a Sprintf, a retry's feedback) is not.
func (t *tracer) replyText(v ssa.Value) bool {
	return isStringType(v.Type()) && t.seedFS != nil && t.selectedFromSeed(v, 0)
}

// selectedFromSeed reports whether v is the seed call's result or a part selected from it
// (fields, constant indices, loads, a local cell it was stored in), possibly returned by
// helpers of the program (depth counts the cells and helpers gone through).
func (t *tracer) selectedFromSeed(v ssa.Value, depth int) bool {
	for i := 0; i < 12 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.Extract:
			if x.Index != 0 {
				return false
			}
			v = x.Tuple
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.IndexAddr:
			if _, ok := x.Index.(*ssa.Const); !ok {
				return false
			}
			v = x.X
		case *ssa.Index:
			if _, ok := x.Index.(*ssa.Const); !ok {
				return false
			}
			v = x.X
		case *ssa.Alloc:
			// resp, err := p.Complete(ctx, req) kept in a local cell: what every store into
			// it holds
			stored := false
			for _, r := range *x.Referrers() {
				st, ok := r.(*ssa.Store)
				if !ok || st.Addr != x {
					continue
				}
				if depth >= 3 || !t.selectedFromSeed(st.Val, depth+1) {
					return false
				}
				stored = true
			}
			return stored
		case *ssa.Call:
			if idx, ok := t.seedFS.callIdx[x]; ok && idx == t.seedCall && x.Parent() == t.seedFS.fn {
				return true
			}
			if textCleaner(x.Common()) {
				v = x.Common().Args[0] // strings.TrimSpace(text): the same text
				continue
			}
			fn := x.Common().StaticCallee()
			if depth >= 2 || fn == nil || len(fn.Blocks) == 0 || isStdFunc(fn) || t.fsOf(fn) == nil {
				return false
			}
			// a helper returning the reply's text: every return hands back the text or an
			// empty string beside an error, and at least one the text
			text := false
			for _, blk := range fn.Blocks {
				r, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
				if !ok || len(r.Results) == 0 {
					continue
				}
				if c, ok := r.Results[0].(*ssa.Const); ok && (c.Value == nil || c.Value.ExactString() == `""`) {
					continue
				}
				if !t.selectedFromSeed(r.Results[0], depth+1) {
					return false
				}
				text = true
			}
			return text
		default:
			return false
		}
	}
	return false
}

// textCleaners are the standard functions handing back their first argument's text trimmed
// or case-folded: the same text for what it says.
var textCleaners = map[string]bool{"strings.TrimSpace": true, "strings.Trim": true, "strings.TrimPrefix": true,
	"strings.TrimSuffix": true, "strings.TrimLeft": true, "strings.TrimRight": true, "strings.ToLower": true,
	"strings.ToUpper": true}

// textCleaner reports whether com trims or case-folds the text it is handed first.
func textCleaner(com *ssa.CallCommon) bool {
	fn := com.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Signature.Recv() == nil && len(com.Args) > 0 &&
		textCleaners[fn.Pkg.Pkg.Path()+"."+fn.Name()]
}

// textTool reports whether fn, handed a reply's text, can be a tool run on it: it returns
// text and an error (results, err := search(query)), as a fallible call of the outside does.
func textTool(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	return res.Len() == 2 && isStringType(res.At(0).Type()) && isErrorType(res.At(1).Type())
}

// textMarkers are the functions testing a text for a marker written in it (the first argument
// the text, the second the marker).
var textMarkers = map[string]bool{"strings.Contains": true, "strings.HasPrefix": true, "strings.HasSuffix": true}

// textMarker reports whether com tests a text for a constant marker (strings.Contains(text,
// "Final Answer:")).
func textMarker(com *ssa.CallCommon) bool {
	fn := com.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Signature.Recv() != nil || len(com.Args) != 2 || !textMarkers[fn.Pkg.Pkg.Path()+"."+fn.Name()] {
		return false
	}
	c, ok := com.Args[1].(*ssa.Const)
	return ok && c.Value != nil && c.Value.ExactString() != `""`
}

// parsedAction reports whether a parser's result can be the one action a reply names: an
// element (a struct, pointer or interface, first of its results), or several values of which
// two or more are text (stepType, content, tool, args, err := parseReActStep(text): the
// step's kind and the tool's name beside its arguments; action, input, found :=
// parseAction(text)).
func parsedAction(res types.Type) bool {
	if elemLike(res) {
		return true
	}
	tup, ok := res.(*types.Tuple)
	if !ok {
		return false
	}
	strs, parts := 0, 0
	for i := 0; i < tup.Len(); i++ {
		ty := tup.At(i).Type()
		if isErrorType(ty) {
			continue
		}
		parts++
		if isStringType(ty) {
			strs++
		}
	}
	return strs >= 2 && parts >= 2
}

// parsedParts follows what a parser of the reply's text returned: the decision (tested for
// the final answer) and the action it names; of several results, each text is a name (the
// step's kind switched on, the tool's name looked up) and each other value an element (the
// arguments handed to the tool).
func (t *tracer) parsedParts(cv *ssa.Call, fs *funcState, depth int) {
	tup, ok := cv.Type().(*types.Tuple)
	if !ok || elemLike(tup) {
		t.push(cv, kResult, fs, depth)
		t.push(cv, kElem, fs, depth)
		return
	}
	for _, r := range *cv.Referrers() {
		e, ok := r.(*ssa.Extract)
		if !ok || isErrorType(e.Type()) {
			continue
		}
		t.push(e, kResult, fs, depth)
		t.push(e, elemKind(kElem, e.Type()), fs, depth)
	}
}

// plainParser reports whether fn is a plain function of the program that reads what it is handed
// without a context: a package-level function (no receiver, not a closure) of no standard
// library package, none of whose parameters is a context.
func plainParser(fn *ssa.Function) bool {
	if fn == nil || fn.Signature.Recv() != nil || fn.Parent() != nil || isStdFunc(fn) || len(fn.Blocks) == 0 {
		return false
	}
	for _, p := range fn.Params {
		if isContext(p.Type()) {
			return false
		}
	}
	return true
}

// parsedReply reports whether call v, which takes a context and returns text (a string, and
// perhaps an error), is a model reply that a plain function of the program parses into a
// value (act, ok := parse(reply); calls := ParseToolCalls(reply)): a model with no tool-call
// API whose text is the decision.
func (b *builder) parsedReply(fs *funcState, v *ssa.Call, c *ir.Call) bool {
	if !c.PassesContext || isStdCall(c.Keys) {
		return false
	}
	var text ssa.Value
	switch t := v.Type().(type) {
	case *types.Tuple:
		if t.Len() == 0 || t.Len() > 2 || !isStringType(t.At(0).Type()) || t.Len() == 2 && !isErrorType(t.At(1).Type()) {
			return false
		}
		for _, r := range *v.Referrers() {
			if e, ok := r.(*ssa.Extract); ok && e.Index == 0 {
				text = e
			}
		}
	default:
		if !isStringType(t) {
			return false
		}
		text = v
	}
	if text == nil || text.Referrers() == nil {
		return false
	}
	for _, r := range *text.Referrers() {
		ci, ok := r.(*ssa.Call)
		if !ok {
			continue
		}
		target := ci.Common().StaticCallee()
		if _, ok := b.ids[target]; !ok || !plainParser(target) {
			continue
		}
		if res := ci.Type(); parsedAction(res) || isElemCollection(res) {
			return true
		}
	}
	return false
}
