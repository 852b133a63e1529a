package srcir

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// Compilers that target a JavaScript without async functions or async generators write them
// as generator functions run by a helper:
//
//	run(x) { return __awaiter(this, void 0, void 0, function* () { … yield p … }); }   tsc
//	run(x) { return __async(this, null, function* () { … yield p … }); }                esbuild
//	run(x) { return _async_to_generator(function* () { … })(); }                       swc
//	stream(x) { return __asyncGenerator(this, arguments, function* () {                tsc, esbuild
//	    … yield __await(p) …  yield yield __await(v) …  yield new __await(p) … yield v … }); }
//
// desugarAsync gives such a function the generator's body back and marks it async (an async
// generator for the generator helpers), with each yield of the body an await (for the
// generator helpers: each yield of a __await(p)), so that the lowering reads it as the async
// function it was written as. It also unwraps the functions and classes a helper names
// (esbuild's keepNames: var f = __name(async () => {…}, "f")). The helpers' names are language knowledge of the JS/TS tables
// (asyncHelpers, asyncGenHelpers, awaitHelpers).
func desugarAsync(m *module) {
	t := m.t
	if len(t.asyncHelpers) == 0 && len(t.asyncGenHelpers) == 0 && len(t.nameHelpers) == 0 {
		return
	}
	var walk func(n *syntax.Node, depth int)
	walk = func(n *syntax.Node, depth int) {
		if n == nil || depth > syntax.MaxDepth {
			return
		}
		if t.funcs.has(n) || t.lambdas.has(n) {
			if g, gen := helperBody(m, n); g != nil {
				for i, c := range n.Children {
					if c.Field == "body" {
						body := g.Child("body")
						body.Field = "body"
						n.Children[i] = body
						break
					}
				}
				if !n.Has("async") {
					n.Children = append(n.Children, token(n, "async"))
				}
				if gen && !n.Has("*") {
					n.Children = append(n.Children, token(n, "*"))
				}
				awaits(m, n.Child("body"), gen, 0)
			} else if n.Has("async") && (n.Has("*") || strings.HasPrefix(n.Kind, "generator")) {
				// an async generator unwrapped on the text (asyncgen.go) whose awaits are a
				// helper's of a module (yield tslib_1.__await(p))
				awaits(m, n.Child("body"), true, 0)
			}
		}
		for i, c := range n.Children {
			// var f = __name(async () => {…}, "f") (esbuild's keepNames): the function itself
			if t.calls.has(c) && t.nameHelpers[lastSeg(m.text(c.Child("function")))] {
				if args := c.Child(t.callArgs).NamedChildren(); len(args) == 2 && (t.funcs.has(args[0]) || t.lambdas.has(args[0]) || t.classes.has(args[0])) {
					args[0].Field = c.Field
					n.Children[i] = args[0]
					c = args[0]
				}
			}
			walk(c, depth+1)
		}
	}
	walk(m.tree.Root, 0)
}

func token(at *syntax.Node, kind string) *syntax.Node {
	return &syntax.Node{Kind: kind, KindID: syntax.KindID(kind), Start: at.Start, End: at.Start, Line: at.Line, EndLine: at.Line}
}

// helperBody returns the generator function a function hands to an async helper as all it
// does (return helper(…, function* () {…}), or an arrow function's body helper(…)), and
// whether the helper makes an async generator; nil if the function is not one of those.
func helperBody(m *module, fn *syntax.Node) (*syntax.Node, bool) {
	t := m.t
	body := fn.Child("body")
	if body == nil {
		return nil, false
	}
	call := body
	if t.blocks.has(body) {
		kids := body.NamedChildren()
		if len(kids) != 1 || !t.returns.has(kids[0]) || len(kids[0].NamedChildren()) != 1 {
			return nil, false
		}
		call = kids[0].NamedChildren()[0]
	}
	call = strip(call)
	if !t.calls.has(call) {
		return nil, false
	}
	// swc: _async_to_generator(function* () {…})()
	if f := strip(call.Child("function")); t.calls.has(f) && len(call.Child(t.callArgs).NamedChildren()) == 0 {
		call = f
	}
	name := lastSeg(m.text(strip(call.Child("function"))))
	gen := t.asyncGenHelpers[name]
	if !gen && !t.asyncHelpers[name] {
		return nil, false
	}
	for _, a := range call.Child(t.callArgs).NamedChildren() {
		if t.funcs.has(a) && (a.Has("*") || a.Kind == "generator_function") && !a.Has("async") && a.Child("body") != nil {
			return a, gen
		}
	}
	return nil, false
}

// awaits rewrites the yields of a helper-run generator's body (not of the functions in it)
// into the awaits they stand for: every yield for an async function; for an async generator,
// a yield of __await(p) or new __await(p) (its other yields stay yields).
func awaits(m *module, n *syntax.Node, gen bool, depth int) {
	t := m.t
	if n == nil || depth > syntax.MaxDepth {
		return
	}
	for _, c := range n.Children {
		if t.funcs.has(c) || t.lambdas.has(c) || t.classes.has(c) {
			continue
		}
		awaits(m, c, gen, depth+1) // inner first: yield yield __await(v) yields v
		if !t.yields.has(c) || c.Has("*") {
			continue
		}
		kids := c.NamedChildren()
		if len(kids) != 1 {
			continue
		}
		arg := kids[0]
		if gen {
			a := strip(arg)
			if !(t.calls.has(a) || t.news.has(a)) {
				continue
			}
			callee := a.Child("function")
			if callee == nil {
				callee = a.Child("constructor")
			}
			args := a.Child(t.callArgs).NamedChildren()
			if !t.awaitHelpers[lastSeg(m.text(callee))] || len(args) != 1 {
				continue
			}
			arg = args[0]
		}
		c.Kind, c.KindID = "await_expression", syntax.KindID("await_expression")
		c.Children = []*syntax.Node{token(c, "await"), arg}
	}
}

// looseOptional matches how esbuild writes an optional chain (reply.toolCalls?.length) for a
// JavaScript without one: (_a = reply.toolCalls) == null ? void 0 : _a, before .length (tsc's
// and swc's strict form is optchain.go's).
var looseOptional = regexp.MustCompile(`\(([A-Za-z_$][\w$]*) = ([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\) == null \? void 0 : ([A-Za-z_$][\w$]*)\.`)

// desugarLooseOptional rewrites the lowered optional chains of a compiled file back into the
// chains they were written as, in place: the text is padded with spaces before it, so every
// other byte keeps its offset and line.
func desugarLooseOptional(src []byte) ([]byte, bool) {
	if !bytes.Contains(src, []byte(" == null ? void 0 : ")) {
		return src, false
	}
	var out []byte
	changed := false
	for _, loc := range looseOptional.FindAllSubmatchIndex(src, -1) {
		if tmp := string(src[loc[2]:loc[3]]); string(src[loc[6]:loc[7]]) != tmp {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		chain := src[loc[4]:loc[5]]
		end := loc[1] - 1 // the "." after the temporary
		start := end - len(chain) - 1
		for i := loc[0]; i < start; i++ {
			out[i] = ' '
		}
		copy(out[start:], chain)
		out[end-1] = '?'
		changed = true
	}
	// a plain name: signal == null ? void 0 : signal.throwIfAborted() (signal?.throwIfAborted()),
	// prepareStep == null ? void 0 : prepareStep({…}) (prepareStep?.({…}))
	for _, loc := range plainOptional.FindAllSubmatchIndex(src, -1) {
		name := string(src[loc[2]:loc[3]])
		if string(src[loc[4]:loc[5]]) != name || loc[0] > 0 && (isIdentByte(src[loc[0]-1]) || src[loc[0]-1] == '.') {
			continue // (o.signal == null ? … : signal.x: another value's test)
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		// NAME == null ? void 0 : NAME.  ->  padding, NAME?.  (NAME?.( and NAME?.[ likewise)
		sep := src[loc[6]]
		end := loc[1] - 1 // the separator
		tail := []byte(name + "?.")
		start := end - len(tail)
		if sep == '.' {
			start++ // NAME?. then the member
			tail = tail[:len(tail)-1]
		}
		for i := loc[0]; i < start; i++ {
			out[i] = ' '
		}
		copy(out[start:], tail)
		changed = true
	}
	if !changed {
		return src, false
	}
	return out, true
}

// plainOptional matches esbuild's optional chain on a plain name (signal?.throwIfAborted(),
// prepareStep?.(x), o?.[k]): NAME == null ? void 0 : NAME followed by a member, a call or an
// index (ai@6.0.325 dist/index.js:4860).
var plainOptional = regexp.MustCompile(`([A-Za-z_$][\w$]*) == null \? void 0 : ([A-Za-z_$][\w$]*)([.(\[])`)
