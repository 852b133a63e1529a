package connctx

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/ssa"
)

// kind is where a context value comes from.
type kind int

const (
	// fromParam: a parameter of a function of this package; its callers decide.
	fromParam kind = iota
	// fromRequest: an *http.Request's Context() (the request a handler serves).
	fromRequest
	// fromStream: a server stream's Context() (gRPC ServerStream, by its method set).
	fromStream
)

// origin is one root a context value may come from. Detached roots (context.Background,
// TODO, WithoutCancel) and roots the pass cannot see (a channel receive, a map, a call of
// another package that takes no context) are not origins: they are not connection-scoped.
type origin struct {
	kind kind
	// pos is the Context() call of a connection root.
	pos token.Pos
	// fn and idx name the parameter of a fromParam origin (idx indexes fn.Params).
	fn  *ssa.Function
	idx int
}

func (o origin) conn() bool { return o.kind != fromParam }

// tracer follows context values back through SSA to their roots, within one package: phi
// nodes, conversions, context.With* derivations and calls that derive a context from their
// context arguments, results of this package's functions (through their returns), the free
// variables of closures (through the MakeClosure bindings), captured variables, struct fields
// and package variables (through every store to the same field or variable in the package:
// field-sensitive, not object-sensitive, so a field written with a connection's context
// anywhere makes every read of it one).
type tracer struct {
	pkg *ssa.Package
	// closures maps a function literal to the MakeClosure instructions that bind it.
	closures map[*ssa.Function][]*ssa.MakeClosure
	// fieldStores and globalStores hold the values stored into each struct field and package
	// variable.
	fieldStores  map[*types.Var][]ssa.Value
	globalStores map[*ssa.Global][]ssa.Value
	memo         map[ssa.Value][]origin
	rets         map[*ssa.Function][][]origin
	retBusy      map[*ssa.Function]bool
}

func newTracer(pkg *ssa.Package, funcs []*ssa.Function) *tracer {
	t := &tracer{
		pkg:          pkg,
		closures:     map[*ssa.Function][]*ssa.MakeClosure{},
		fieldStores:  map[*types.Var][]ssa.Value{},
		globalStores: map[*ssa.Global][]ssa.Value{},
		memo:         map[ssa.Value][]origin{},
		rets:         map[*ssa.Function][][]origin{},
		retBusy:      map[*ssa.Function]bool{},
	}
	index := funcs
	if init := pkg.Func("init"); init != nil {
		index = append(slices.Clip(funcs), init) // package variables' initializers
	}
	for _, fn := range index {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.MakeClosure:
					if f, ok := in.Fn.(*ssa.Function); ok {
						t.closures[f] = append(t.closures[f], in)
					}
				case *ssa.Store:
					switch addr := in.Addr.(type) {
					case *ssa.FieldAddr:
						if v := fieldOf(addr.X.Type(), addr.Field, true); v != nil {
							t.fieldStores[v] = append(t.fieldStores[v], in.Val)
						}
					case *ssa.Global:
						t.globalStores[addr] = append(t.globalStores[addr], in.Val)
					}
				}
			}
		}
	}
	return t
}

// fieldOf returns field i of the struct type t (or of the struct t points to, if ptr).
func fieldOf(t types.Type, i int, ptr bool) *types.Var {
	if ptr {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return nil
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i).Origin()
}

// trace returns the origins of v.
func (t *tracer) trace(v ssa.Value) []origin {
	if o, ok := t.memo[v]; ok {
		return o
	}
	o := t.walk(v, map[ssa.Value]bool{}, nil)
	t.memo[v] = o
	return o
}

func add(list []origin, os ...origin) []origin {
	for _, o := range os {
		if !slices.Contains(list, o) {
			list = append(list, o)
		}
	}
	return list
}

func (t *tracer) walk(v ssa.Value, seen map[ssa.Value]bool, out []origin) []origin {
	if v == nil || seen[v] {
		return out
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Parameter:
		fn := v.Parent()
		if i := slices.Index(fn.Params, v); i >= 0 {
			out = add(out, origin{kind: fromParam, fn: fn, idx: i})
		}
	case *ssa.FreeVar:
		fn := v.Parent()
		i := slices.Index(fn.FreeVars, v)
		for _, mc := range t.closures[fn] {
			if i >= 0 && i < len(mc.Bindings) {
				out = t.walk(mc.Bindings[i], seen, out)
			}
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			out = t.walk(e, seen, out)
		}
	case *ssa.MakeInterface:
		out = t.walk(v.X, seen, out)
	case *ssa.ChangeInterface:
		out = t.walk(v.X, seen, out)
	case *ssa.ChangeType:
		out = t.walk(v.X, seen, out)
	case *ssa.TypeAssert:
		out = t.walk(v.X, seen, out)
	case *ssa.Extract:
		switch tup := v.Tuple.(type) {
		case *ssa.Call:
			out = t.call(tup, v.Index, seen, out)
		case *ssa.TypeAssert:
			out = t.walk(tup.X, seen, out)
		}
	case *ssa.Call:
		out = t.call(v, 0, seen, out)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			out = t.load(v.X, seen, out)
		}
	case *ssa.Field:
		if f := fieldOf(v.X.Type(), v.Field, false); f != nil {
			for _, s := range t.fieldStores[f] {
				out = t.walk(s, seen, out)
			}
		}
	}
	return out
}

// load follows a load from addr to the values stored there.
func (t *tracer) load(addr ssa.Value, seen map[ssa.Value]bool, out []origin) []origin {
	switch a := addr.(type) {
	case *ssa.Alloc:
		for _, s := range storesTo(a, map[ssa.Value]bool{}) {
			out = t.walk(s, seen, out)
		}
	case *ssa.FreeVar: // a captured variable: the parent's Alloc
		fn := a.Parent()
		i := slices.Index(fn.FreeVars, a)
		for _, mc := range t.closures[fn] {
			if i >= 0 && i < len(mc.Bindings) {
				out = t.load(mc.Bindings[i], seen, out)
			}
		}
	case *ssa.FieldAddr:
		if f := fieldOf(a.X.Type(), a.Field, true); f != nil {
			for _, s := range t.fieldStores[f] {
				out = t.walk(s, seen, out)
			}
		}
	case *ssa.Global:
		for _, s := range t.globalStores[a] {
			out = t.walk(s, seen, out)
		}
	}
	return out
}

// storesTo returns the values stored to a local variable, directly or from the closures that
// capture it.
func storesTo(addr ssa.Value, seen map[ssa.Value]bool) []ssa.Value {
	if seen[addr] {
		return nil
	}
	seen[addr] = true
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	var vals []ssa.Value
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == addr {
				vals = append(vals, r.Val)
			}
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			for i, b := range r.Bindings {
				if b == addr && i < len(fn.FreeVars) {
					vals = append(vals, storesTo(fn.FreeVars[i], seen)...)
				}
			}
		}
	}
	return vals
}

// contextDerivations are the context functions whose result derives from their first
// argument and keeps its cancellation.
var contextDerivations = map[string]bool{
	"WithCancel": true, "WithCancelCause": true, "WithDeadline": true, "WithDeadlineCause": true,
	"WithTimeout": true, "WithTimeoutCause": true, "WithValue": true,
}

// call follows result idx of a call.
func (t *tracer) call(call *ssa.Call, idx int, seen map[ssa.Value]bool, out []origin) []origin {
	common := call.Common()
	if common.IsInvoke() {
		if common.Method.Name() == "Context" && isServerStream(common.Value.Type()) {
			return add(out, origin{kind: fromStream, pos: call.Pos()})
		}
		return t.derive(call, idx, common.Args, seen, out)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return t.derive(call, idx, common.Args, seen, out)
	}
	if obj, ok := callee.Object().(*types.Func); ok && obj.Pkg() != nil {
		sig := obj.Type().(*types.Signature)
		switch {
		case obj.Pkg().Path() == "context" && sig.Recv() == nil:
			if contextDerivations[obj.Name()] && len(common.Args) > 0 {
				return t.walk(common.Args[0], seen, out)
			}
			return out // Background, TODO, WithoutCancel: detached
		case obj.Name() == "Context" && sig.Recv() != nil && isRequest(sig.Recv().Type()) && len(common.Args) == 1:
			return t.request(common.Args[0], call.Pos(), seen, out)
		case obj.Name() == "Context" && sig.Recv() != nil && isServerStream(sig.Recv().Type()):
			return add(out, origin{kind: fromStream, pos: call.Pos()})
		}
	}
	body := callee
	if o := callee.Origin(); o != nil {
		body = o
	}
	if body.Pkg == t.pkg && len(body.Blocks) > 0 {
		rets := t.returns(body)
		if idx >= len(rets) {
			return out
		}
		for _, o := range rets[idx] {
			if o.kind == fromParam && o.fn == body {
				if o.idx < len(common.Args) {
					out = t.walk(common.Args[o.idx], seen, out)
				}
				continue
			}
			out = add(out, o)
		}
		return out
	}
	return t.derive(call, idx, common.Args, seen, out)
}

// derive follows a call the pass cannot see into: a context it returns derives from the
// contexts it is given (a tracing span, a logger, a websocket's CloseRead).
func (t *tracer) derive(call *ssa.Call, idx int, args []ssa.Value, seen map[ssa.Value]bool, out []origin) []origin {
	res := call.Type()
	if tup, ok := res.(*types.Tuple); ok {
		if idx >= tup.Len() {
			return out
		}
		res = tup.At(idx).Type()
	}
	if !roles.IsContext(res) {
		return out
	}
	for _, a := range args {
		if roles.IsContext(a.Type()) {
			out = t.walk(a, seen, out)
		}
	}
	return out
}

// returns returns the origins of each result of fn, through its return statements.
func (t *tracer) returns(fn *ssa.Function) [][]origin {
	if r, ok := t.rets[fn]; ok {
		return r
	}
	if t.retBusy[fn] {
		return nil // recursion: the outer call collects the other returns
	}
	t.retBusy[fn] = true
	defer delete(t.retBusy, fn)
	n := fn.Signature.Results().Len()
	rets := make([][]origin, n)
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			if i < n && roles.IsContext(fn.Signature.Results().At(i).Type()) {
				rets[i] = add(rets[i], t.walk(r, map[ssa.Value]bool{}, nil)...)
			}
		}
	}
	t.rets[fn] = rets
	return rets
}

// request follows the *http.Request whose Context() is called: a request the code builds
// itself carries the context it was given; any other (a handler's parameter, a field, what a
// framework's c.Request() returns) is the request being served.
func (t *tracer) request(v ssa.Value, at token.Pos, seen map[ssa.Value]bool, out []origin) []origin {
	if seen[v] {
		return out
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Phi:
		for _, e := range v.Edges {
			out = t.request(e, at, seen, out)
		}
		return out
	case *ssa.FreeVar:
		fn := v.Parent()
		i := slices.Index(fn.FreeVars, v)
		for _, mc := range t.closures[fn] {
			if i >= 0 && i < len(mc.Bindings) {
				out = t.request(mc.Bindings[i], at, seen, out)
			}
		}
		return out
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			if o, ok := t.builtRequest(c, seen, out); ok {
				return o
			}
		}
	case *ssa.Call:
		if o, ok := t.builtRequest(v, seen, out); ok {
			return o
		}
	}
	return add(out, origin{kind: fromRequest, pos: at})
}

// builtRequest follows a request made by http.NewRequest, http.NewRequestWithContext,
// Request.WithContext or Request.Clone.
func (t *tracer) builtRequest(c *ssa.Call, seen map[ssa.Value]bool, out []origin) ([]origin, bool) {
	callee := c.Common().StaticCallee()
	if callee == nil {
		return out, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "net/http" {
		return out, false
	}
	args := c.Common().Args
	switch obj.Name() {
	case "NewRequest":
		return out, true // context.Background
	case "NewRequestWithContext":
		if len(args) > 0 {
			return t.walk(args[0], seen, out), true
		}
	case "WithContext", "Clone":
		if len(args) > 1 {
			return t.walk(args[1], seen, out), true
		}
	}
	return out, false
}

// isRequest reports whether t is *net/http.Request.
func isRequest(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Request"
}

// serverStreamMethods are the methods of a server stream (google.golang.org/grpc.ServerStream
// and every generated stream interface that embeds it): a client stream has Context, SendMsg
// and RecvMsg too, but sets no headers or trailers.
var serverStreamMethods = []string{"Context", "SendMsg", "RecvMsg", "SetHeader", "SendHeader", "SetTrailer"}

// isServerStream reports whether t's method set is a server stream's.
func isServerStream(t types.Type) bool {
	ms := types.NewMethodSet(t)
	if !types.IsInterface(t) {
		if _, ok := t.Underlying().(*types.Pointer); !ok {
			ms = types.NewMethodSet(types.NewPointer(t))
		}
	}
	for _, name := range serverStreamMethods {
		sel := ms.Lookup(nil, name)
		if sel == nil { // a nil package is enough: the names are exported
			return false
		}
		if name == "Context" {
			sig, ok := sel.Type().(*types.Signature)
			if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !roles.IsContext(sig.Results().At(0).Type()) {
				return false
			}
		}
	}
	return true
}
