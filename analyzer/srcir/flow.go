package srcir

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

var (
	appendMeths = mk("append", "push", "extend", "unshift", "add_message", "add_messages", "appendleft", "insert", "add")
	// storeAppend: a method of a conversation store outside the set that appends messages
	// to it (session.appendCurrentMessages(msgs), memory.addMessages(msgs),
	// history.push_message(m)); what the model reads back from the store (messages:
	// await session.getMessages()) then holds them
	storeAppend = regexp.MustCompile(`^(append|add|push|extend)_?[A-Za-z_]*(Message|message|History|history|Turn|turn)s?$`)
	toolishMeth = regexp.MustCompile(`(?i)(tool|exec|invoke|dispatch|handle|run|call|function|action)`)
	// runVerb: a name that says it runs what it is handed (executeTool, runTool, invoke),
	// not that it checks, reads or prepares it (validateToolArguments, parseToolCall)
	runVerb = regexp.MustCompile(`^(exec|execute|invoke|run|call|dispatch|perform)([A-Z_]|$)`)
)

// scope is a function and the closures nested in it (they see its variables).
func scope(fs *fnState) []*fnState {
	out := []*fnState{fs}
	for i := 0; i < len(out) && len(out) < 200; i++ {
		out = append(out, out[i].kids...)
	}
	return out
}

// flows records the data flow of call results that the agent shape keys on.
func (b *builder) flows(fs *fnState) {
	m := fs.mod
	sc := scope(fs)
	fs.f.Lookups, fs.f.RunsLookup = b.paramLookups(fs)
	// values that are call results: a method called on one (response.output.filter(...)) is
	// a step of that result's flow, not a call of its own
	results := map[string]bool{}
	for _, a := range fs.assigns {
		if a.iter || a.rhs == nil {
			continue
		}
		if r := strip(a.rhs); r != nil && (m.t.calls.has(r) || m.t.news.has(r)) {
			for _, n := range a.lhs {
				results[n] = true
			}
		}
	}
	for i, ci := range fs.callInfo {
		c := &fs.f.Calls[i]
		if ignoredCall(m, c) || appendMeths[c.Method] || m.t.eachMethods[c.Method] || transforms[c.Method] {
			continue
		}
		if len(c.Keys) > 0 && b.classes[c.Keys[0]] != nil {
			continue // a constructor of a class of the set builds a value: no decision
		}
		if gathers(c) {
			// lastMessage.content = await Promise.all(lastMessage.content.map(async (part) =>
			// …)) (@genkit-ai/ai@1.42.0 src/generate/resolve-tool-requests.ts:384): what the
			// tasks it waits for returned, each one's call the decision if any
			continue
		}
		if len(c.Targets) == 0 && b.wrapsGenerator(fs, ci.node) {
			// Aclosing(self._call_llm_async(...)): a manager around one generator of the set,
			// whose own call carries the flow (the with item binds that generator)
			continue
		}
		if fn := unAwait(m, ci.node.Child("function")); fn != nil && m.t.members.has(fn) && derives(m, fn.Child("object"), results, 0) &&
			!strings.HasPrefix(m.text(fn), m.t.self+".") && !(opaque(b, c) && loopInvariant(fs, ci, fn.Child("object"))) {
			continue
		}
		res := map[string]bool{}
		elems := map[string]bool{}
		fl := &ir.Flow{Delivery: "return"}
		gen := b.yieldsResults(c)
		var binds []int // the assignments binding the generator itself (drained later)
		for ai, a := range fs.assigns {
			if gen && !a.iter && a.node != nil && a.node.Kind == "with_item" && wrapsOnly(m, a.rhs, ci.node) {
				// async with aclosing(self._step(ctx)) as agen: the manager hands back the
				// generator it closes, agen is that generator (drained in the block)
				binds = append(binds, ai)
				for _, n := range a.lhs {
					res[n] = true
				}
				continue
			}
			if a.rhs == nil || !rootedAlt(m, a.rhs, ci.node) {
				continue
			}
			if !a.iter && gen {
				binds = append(binds, ai)
			}
			if a.iter {
				drained := a.loop >= 0 && gen
				for _, n := range a.lhs {
					elems[n] = true
					if drained || strip(a.rhs) == ci.node && outlives(fs, a, n) {
						// what a generator of the set yields is its result, item by item
						// (async for out in self._call_llm(...): the model's reply); and
						// the last item of a drained stream, read after the loop (for
						// output in self._call_llm(...): yield output; then if output:)
						res[n] = true
					}
				}
				fl.Delivery = "iterator"
				continue
			}
			for _, n := range a.lhs {
				res[n] = true
			}
		}
		if len(res) > 0 {
			// a recursion on the reply: the function asks the model and hands the reply to
			// itself, deciding on that parameter at the top of the next call (upsonic==0.77.3
			// agent/agent.py:2662-2937, _handle_model_response(follow_up_response, messages));
			// the parameter is the result there
			for j, cj := range fs.callInfo {
				if j < len(fs.f.Calls) && j != i && fs.f.Calls[j].Recursive && slices.Contains(fs.f.Calls[j].Targets, fs.f.ID) {
					if args := cj.node.Child("arguments"); args != nil {
						ps := map[string]bool{}
						carryParams(m, args, fs, res, ps)
						for p := range ps {
							if !handedOn(fs, p) {
								res[p] = true
							}
						}
					}
				}
			}
		}
		if len(res) == 0 && len(elems) == 0 && ci.node != nil {
			// this.send(this.thread), the reply kept in a field by the method: see storedResults
			for _, v := range b.storedResults(fs, c, ci) {
				res[v] = true
			}
		}
		if len(res) == 0 && len(elems) == 0 && ci.node != nil {
			// self._process_model_response(assistant_message=assistant_message, …), the
			// reply written into an object the caller built and handed over: see filledArgs
			for _, v := range b.filledArgs(fs, c, ci) {
				res[v] = true
			}
		}
		if len(res) > 0 && gen {
			// the generator kept in a variable and drained later (events = cycle(...);
			// async for ev in events): its items are its results, as when drained in place.
			// Each binding is its own value: a name rebound to another generator (agen of
			// the next async with block) drains that one.
			for _, a := range fs.assigns {
				if a.iter && a.loop >= 0 && a.rhs != nil && res[m.text(strip(a.rhs))] &&
					b.drainsBinding(fs, binds, m.text(strip(a.rhs)), a.node) {
					for _, n := range a.lhs {
						elems[n], res[n] = true, true
					}
					fl.Delivery = "iterator"
				}
			}
		}
		if len(res) == 0 && len(elems) == 0 {
			// self.get_observation(self.query()): the result handed as it is, without a
			// name, to a function of the set is followed into that function's parameter
			if b.argFlow(fs, fl, ci.node) {
				c.Flow = fl
			}
			continue
		}
		fl.Fields = b.fieldsRead(sc, res)
		names, toolVars := b.follow(fl, sc, res, elems, ci.node, 0, map[int]bool{fs.f.ID: true})
		if b.dslSteps != nil {
			b.pipeSteps(fs, fl, union(res, names), ci, c)
		}
		fl.Into = b.into(sc, res, ci.node)
		if len(fl.Dispatch) > 0 {
			b.handlerStops(fs, c, fl)
		}
		// a callback handed to the call returns the result of a call of its own (retry(async
		// () => await model.doGenerate({ messages, tools })), withSpan({ execute: … })): that
		// call is the one whose result this is, and what it receives is what the next call
		// must be fed
		wg, wj := b.wrapped(fs, c, 0)
		if len(fl.Checked) > 0 || len(elems) > 0 {
			// what the tools produced: elements, their names, the dispatched calls' results
			// (not the model call's own result: x = next(x) walks a list, it feeds nothing)
			fci, fc := ci, c
			if wg != nil {
				fci, fc = wg.callInfo[wj], &wg.f.Calls[wj]
			}
			b.feeds(fs, sc, fl, fci, fc, union(elems, union(names, toolVars)), res)
			if !fl.FeedsNext && len(fl.Dispatch) > 0 {
				b.feedsInHelper(sc, fl, fci, union(res, elems))
			}
			if !fl.FeedsNext && len(fl.Dispatch) > 0 {
				b.feedsFromDispatch(sc, fl, fci)
			}
			if !fl.FeedsNext && len(fl.Dispatch) > 0 {
				b.feedsField(fs, i, fl, res)
			}
			if !fl.FeedsNext && len(fl.Checked) == 0 && wg == nil {
				b.toolsReturned(fs, sc, fl, union(elems, union(names, toolVars)))
			}
		}
		if len(fl.Checked) == 0 && len(fl.Iterated) == 0 && len(fl.Dispatch) == 0 && !fl.FeedsNext && fl.Delivery == "return" {
			continue
		}
		if wg != nil {
			// set by wrappedFlows once every function's flows are known (the callback is
			// another function, whose own flows may be computed at the same time)
			fs.wraps = append(fs.wraps, wrapFlow{call: i, to: ir.CallRef{Func: wg.f.ID, Call: wj}, flow: fl})
			continue
		}
		c.Flow = fl
	}
}

// argFlow follows the result of call, written as an argument of a call of fs to a function
// of the set (self.get_observation(self.query())), into the parameter that receives it, as
// follow does for a variable handed over: what the helper tests, iterates and dispatches.
// It reports whether the helper does any of it.
func (b *builder) argFlow(fs *fnState, fl *ir.Flow, call *syntax.Node) bool {
	m := fs.mod
	arg := call
	for p := b.parentIn(fs, arg); p != nil && strip(p) == call; p = b.parentIn(fs, p) {
		arg = p // (await self.query()), self.query()!
	}
	key := ""
	if p := b.parentIn(fs, arg); p != nil && p.Kind == "keyword_argument" && p.Child("value") == arg {
		key, arg = m.text(p.Child("name")), p
	}
	args := b.parentIn(fs, arg)
	if args == nil || args.Kind != "arguments" && args.Kind != "argument_list" {
		return false
	}
	outer, ok := fs.callOf[b.parentIn(fs, args)]
	if !ok {
		return false
	}
	oc := &fs.f.Calls[outer]
	if len(oc.Targets) == 0 || len(oc.Targets) > 3 || appendMeths[oc.Method] {
		return false
	}
	idx := -1
	for i, a := range args.NamedChildren() {
		if a == arg {
			idx = i
		}
	}
	for _, t := range oc.Targets {
		tg := b.funcs[t]
		name := ""
		switch {
		case key != "":
			if tg.params[key] {
				name = key
			}
		case idx >= 0 && idx < len(tg.f.Params):
			name = tg.f.Params[idx].Name
		}
		if name == "" || strings.ContainsAny(name, "{[*") {
			continue
		}
		one := map[string]bool{name: true}
		part := b.followHelper(tg, one, map[string]bool{}, followUnit)
		// a helper the parameter is handed to that returns what it derived (actions =
		// self.parse_actions(response)) carries the result on: no model call of its own
		for _, a := range tg.assigns {
			if !a.iter && a.rhs != nil && b.helperOf(tg, a.rhs, one) {
				ref := ir.CallRef{Func: tg.f.ID, Call: tg.callOf[strip(a.rhs)]}
				if !slices.Contains(fl.Carriers, ref) {
					fl.Carriers = append(fl.Carriers, ref)
				}
			}
		}
		fl.Checked = append(fl.Checked, part.Checked...)
		fl.Iterated = append(fl.Iterated, part.Iterated...)
		fl.Dispatch = append(fl.Dispatch, part.Dispatch...)
		fl.Fields = append(fl.Fields, part.Fields...)
	}
	return len(fl.Checked) > 0 || len(fl.Iterated) > 0 || len(fl.Dispatch) > 0
}

// typeTested reports whether a condition of g tests v's type (isinstance(v, Action)).
func typeTested(g *fnState, v string) bool {
	m := g.mod
	for _, c := range g.conds {
		found := false
		eachNode(m.t, c.expr, func(n *syntax.Node) bool {
			if found || !m.t.calls.has(n) || calleeText(m, n) != "isinstance" {
				return !found
			}
			if args := n.Child("arguments"); args != nil && len(args.NamedChildren()) == 2 && m.text(strip(args.NamedChildren()[0])) == v {
				found = true
			}
			return false
		})
		if found {
			return true
		}
	}
	return false
}

// kindTested reports whether a condition of g in a loop tells what v is: its type
// (isinstance(v, Action)) or a field of it (if parsed.final:, while not step.done,
// pred.next_tool_name == "finish"), the finish-or-action test of a parsed reply.
func kindTested(g *fnState, v string) bool {
	if typeTested(g, v) {
		return true
	}
	m := g.mod
	for _, c := range g.conds {
		if len(c.loops) == 0 && c.loop < 0 {
			continue
		}
		found := false
		eachNode(m.t, c.expr, func(n *syntax.Node) bool {
			if found || m.t.calls.has(n) {
				return false
			}
			if fieldOf(m, n, v) {
				found = true
				return false
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// fieldOf reports whether n is a field, or a field of a field, of the variable v (msg.tools,
// msg.function.calls): no call, no subscript on the way.
func fieldOf(m *module, n *syntax.Node, v string) bool {
	n = strip(n)
	steps := 0
	for n != nil && m.t.members.has(n) && steps < 8 {
		n, steps = strip(n.Child("object")), steps+1
	}
	return steps > 0 && n != nil && m.t.idents.has(n) && m.text(n) == v
}

// pairCalled reports whether a call of g (or of its closures) is handed both k and v, or is
// selected by k and handed v: the key and the value of an entry used together as a tool's
// name and its arguments (execute_action(action_name=action_name, params=params),
// tools[name](**args)), not walked apart as a mapping's keys and values are
// (self._json_object_key(key); self._sanitize(value)).
func pairCalled(g *fnState, k, v string) bool {
	if k == "_" || v == "_" {
		return false
	}
	kv, vv := map[string]bool{k: true}, map[string]bool{v: true}
	for _, h := range scope(g) {
		m := h.mod
		for _, ci := range h.callInfo {
			n := ci.node
			if n == nil || !m.t.calls.has(n) {
				continue
			}
			args := n.Child(m.t.callArgs)
			if !mentions(m, args, vv) {
				continue
			}
			if mentions(m, args, kv) || mentions(m, n.Child("function"), kv) {
				return true
			}
		}
	}
	return false
}

// itemsOf reports whether n iterates the entries of v, a mapping, or of v converted to one:
// v.items(), v.model_dump(...).items(), v.dict().items(), dict(v).items(), vars(v).items(),
// v.__dict__.items() (Python), Object.entries(v) (TS/JS).
func itemsOf(m *module, n *syntax.Node, v string) bool {
	n = strip(n)
	if n == nil || !m.t.calls.has(n) {
		return false
	}
	fn := strip(n.Child("function"))
	if fn == nil || !m.t.members.has(fn) {
		return false
	}
	args := n.Child("arguments").NamedChildren()
	if m.text(fn) == "Object.entries" {
		return len(args) == 1 && m.text(strip(args[0])) == v
	}
	if m.text(fn.Child(m.t.memberProp)) != "items" || len(args) != 0 {
		return false
	}
	obj := strip(fn.Child("object"))
	switch {
	case obj == nil:
		return false
	case m.t.idents.has(obj):
		return m.text(obj) == v
	case m.t.members.has(obj):
		// v.__dict__
		return m.text(strip(obj.Child("object"))) == v && m.text(obj.Child(m.t.memberProp)) == "__dict__"
	case m.t.calls.has(obj):
		f := strip(obj.Child("function"))
		oargs := obj.Child("arguments").NamedChildren()
		if f != nil && m.t.idents.has(f) && (m.text(f) == "dict" || m.text(f) == "vars") {
			return len(oargs) == 1 && m.text(strip(oargs[0])) == v
		}
		// a conversion method of v (v.model_dump(...), v.dict(), v.to_dict())
		return f != nil && m.t.members.has(f) && m.t.idents.has(strip(f.Child("object"))) && m.text(strip(f.Child("object"))) == v
	}
	return false
}

// backEdgeOnly reports whether assignment a, made in a loop of g before the call model in the
// same iteration, receives v, which model rebinds from itself (contents =
// t.t_contents(contents), a transform of the loop's input), only from the previous iteration
// (response = self._generate_content(contents=contents) above it): the helper is handed the
// loop's next input, it carries no value of this result on.
func backEdgeOnly(g *fnState, a assign, model *syntax.Node, v string) bool {
	id, ok := g.callOf[model]
	if !ok || a.node == nil || a.node.Start >= model.Start || !mentions(g.mod, model.Child("arguments"), map[string]bool{v: true}) {
		return false
	}
	self := false
	for _, b := range g.index().assigns[v] {
		if x := g.assigns[b]; !x.iter && x.rhs != nil && strip(unAwait(g.mod, x.rhs)) == model && slices.Contains(x.lhs, v) {
			self = true
		}
	}
	if !self {
		return false
	}
	for _, l := range g.f.Calls[id].Loops {
		if slices.Contains(a.loops, l) {
			return true
		}
	}
	return false
}

// inDrain reports whether loop (of g) sits inside a loop of g that binds v to its items.
func inDrain(g *fnState, loop int, v string) bool {
	if loop < 0 || loop >= len(g.f.Loops) {
		return false
	}
	for _, a := range g.assigns {
		if !a.iter || a.loop < 0 || !slices.Contains(a.lhs, v) {
			continue
		}
		for o := g.f.Loops[loop].Outer; o >= 0 && o < len(g.f.Loops); o = g.f.Loops[o].Outer {
			if o == a.loop {
				return true
			}
		}
	}
	return false
}

// fieldOfAlt reports whether n, or an alternative of it (x ?? [], x or []), is a field of v
// (see fieldOf).
func fieldOfAlt(m *module, n *syntax.Node, v string) bool {
	for _, a := range alternatives(m, n) {
		if fieldOf(m, a, v) {
			return true
		}
	}
	return false
}

// opaque reports whether c runs no body of the set that does something: a method of a
// library (no target), of an interface, or a stub (pass, ..., a docstring, raise
// NotImplementedError) a subclass elsewhere overrides. A method with a body of its own is
// read through that body.
func opaque(b *builder, c *ir.Call) bool {
	for _, t := range c.Targets {
		if t < 0 || t >= len(b.funcs) {
			continue
		}
		if fs := b.funcs[t]; fs.body != nil && !fs.raises && !stubBody(fs) {
			return false
		}
	}
	return true
}

// stubBody reports whether a function's body only passes, names a docstring or an ellipsis,
// or raises.
func stubBody(fs *fnState) bool {
	m := fs.mod
	for _, s := range fs.body.NamedChildren() {
		switch {
		case s.Kind == "comment" || s.Kind == "pass_statement" || s.Kind == "raise_statement" || s.Kind == "throw_statement":
		case m.t.exprStmts.has(s) && len(s.NamedChildren()) == 1 &&
			(m.t.stringKinds.has(s.NamedChildren()[0]) || s.NamedChildren()[0].Kind == "ellipsis"):
		default:
			return false
		}
	}
	return true
}

// loopInvariant reports whether obj, the object a call inside a loop is a method of, is a
// local bound only outside that loop (const p = createProvider(…); new Model(); chat =
// client.start_chat(), then p.infer(…) in each iteration): an object the loop uses, made
// once before it, not a value an iteration produced, so the method call is a call of its own.
func loopInvariant(fs *fnState, ci callInfo, obj *syntax.Node) bool {
	m := fs.mod
	obj = strip(obj)
	if obj == nil || !m.t.idents.has(obj) || len(ci.loops) == 0 {
		return false
	}
	name, bound := m.text(obj), false
	for _, a := range fs.assigns {
		for _, n := range a.lhs {
			if n != name {
				continue
			}
			if a.iter || contains(a.loops, ci.loops[0]) {
				return false
			}
			bound = true
		}
	}
	return bound
}

// paramLookups lists where fs selects a value by the name of one of its parameters (see
// ir.Func.Lookups): each parameter taken as an element, the names read from it, and the map
// lookups and name comparisons dispatch finds for them.
func (b *builder) paramLookups(fs *fnState) ([]ir.Pos, bool) {
	m := fs.mod
	var out []ir.Pos
	runs := false
	if len(fs.index().lookups) == 0 && len(fs.conds) == 0 {
		return nil, false // nothing selects anything here
	}
	for _, p := range fs.f.Params {
		if p.Name == "" || p.Name == m.t.self || strings.ContainsAny(p.Name, "{[*") {
			continue
		}
		elems := map[string]bool{p.Name: true}
		names := map[string]bool{}
		for _, a := range fs.assigns {
			if !a.iter && a.rhs != nil && isNameRead(m, a.rhs, elems, names) {
				for _, n := range a.lhs {
					names[n] = true
				}
			}
		}
		if len(names) == 0 && !isNameParam(p.Name) && !readsNameOf(fs, p.Name) {
			// getattr(logger, level.lower(), logger.info): a parameter that is no tool call
			// and reads no name, used itself as the key, selects a log method, an option, a
			// format (swarms==16.0.3 swarms/tools/base_tool.py:116): no tool looked up
			continue
		}
		for _, d := range b.dispatch(fs, elems, names, nil) {
			if d.How == "map_lookup" || d.How == "name_compare" {
				out = append(out, d.Pos)
				runs = runs || len(d.Calls) > 0
			}
		}
	}
	return out, runs
}

// readsNameOf reports whether fs's text reads a name field of v (v.name, v["tool_name"]):
// whether the first place of any of those spellings in the text is not followed by more of
// an identifier. One pass over the places of v in the text (every spelling starts with v).
func readsNameOf(fs *fnState, v string) bool {
	if fs.node == nil {
		return false
	}
	return readsNameIn(fs.mod.text(fs.node), v)
}

// readsNameIn is readsNameOf on the text txt.
func readsNameIn(txt, v string) bool {
	if v == "" {
		return false
	}
	var seen [len(nameFields) * 3]bool
	for i := 0; ; i++ {
		k := strings.Index(txt[i:], v)
		if k < 0 {
			return false
		}
		i += k
		rest := txt[i+len(v):]
		for wi, w := range nameFields {
			for fi, pre := range [3]string{".", `["`, `['`} {
				if seen[wi*3+fi] || !strings.HasPrefix(rest, pre) || !strings.HasPrefix(rest[len(pre):], w) {
					continue
				}
				end := len(pre) + len(w)
				if fi > 0 {
					if !strings.HasPrefix(rest[end:], pre[1:]+"]") {
						continue
					}
					end += 2
				}
				seen[wi*3+fi] = true // the spelling's first place decides for it
				if end >= len(rest) || !isIdentByte(rest[end]) {
					return true
				}
			}
		}
	}
}

// nameFields are the fields readsNameOf looks for.
var nameFields = [...]string{"name", "tool_name", "toolname", "function_name", "functionname", "tool", "toolName", "functionName"}

// nameParam matches the names of parameters that may themselves be what a tool is looked up
// by (func_name, tool_name, name) or the call naming it (call, tool_call, action, fc).
var nameParam = regexp.MustCompile(`(?i)(name|tool|func|call|action|^fc$|^tc$|invocation|request|use|step|command|cmd)`)

// isNameParam is nameParam.MatchString(s), without the regexp for an ASCII name.
func isNameParam(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return nameParam.MatchString(s) // (case folding beyond ASCII)
		}
	}
	l := strings.ToLower(s)
	if l == "fc" || l == "tc" {
		return true
	}
	for _, w := range [...]string{"name", "tool", "func", "call", "action", "invocation", "request", "use", "step", "command", "cmd"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// isRunVerb is runVerb.MatchString(s) without the regexp: one of its verbs, then the end or
// an upper-case letter or underscore.
func isRunVerb(s string) bool {
	for _, v := range [...]string{"exec", "execute", "invoke", "run", "call", "dispatch", "perform"} {
		if strings.HasPrefix(s, v) && (len(s) == len(v) || s[len(v)] == '_' || s[len(v)] >= 'A' && s[len(v)] <= 'Z') {
			return true
		}
	}
	return false
}

// wrapFlow is the flow of a call's result that belongs to the call a callback of it returns
// the result of (see wrapped).
type wrapFlow struct {
	call int
	to   ir.CallRef
	flow *ir.Flow
}

// wrappedFlows gives each wrapped call the flow of its wrapper's result: the wrapper (a retry
// helper, a tracing span) only hands on what the call returned. A wrapped call with a flow of
// its own (the callback reads the result before handing it back) gets both.
func (b *builder) wrappedFlows() {
	for _, fs := range b.funcs {
		for _, w := range fs.wraps {
			tc := &b.funcs[w.to.Func].f.Calls[w.to.Call]
			if tc.Flow == nil {
				tc.Flow = w.flow
				continue
			}
			// what the callback itself does with the result before handing it back, then
			// what the wrapper's caller does with it
			fl := tc.Flow
			fl.Checked = append(fl.Checked, w.flow.Checked...)
			fl.Iterated = append(fl.Iterated, w.flow.Iterated...)
			fl.Dispatch = append(fl.Dispatch, w.flow.Dispatch...)
			fl.Fields = append(fl.Fields, w.flow.Fields...)
			fl.Carriers = append(fl.Carriers, w.flow.Carriers...)
			fl.ToolsPassed = fl.ToolsPassed || w.flow.ToolsPassed
			if w.flow.FeedsNext && !fl.FeedsNext {
				fl.FeedsNext, fl.FeedPos = true, w.flow.FeedPos
			}
			if fl.Delivery == "return" {
				fl.Delivery = w.flow.Delivery
			}
		}
		fs.wraps = nil
	}
}

// noWrap are the methods whose callbacks run per element or on settlement, never as the
// attempt whose result the call hands back.
var noWrap = mk("then", "catch", "finally", "map", "flatMap", "forEach", "filter", "reduce", "some", "every", "find",
	"sort", "submit", "run_in_executor", "create_task", "ensure_future", "gather", "all", "allSettled", "race", "any")

// wrapped returns the call whose result call c of fs hands back: c takes one callback written
// in place whose call is not made with its parameters (an argument, or an option of an object argument, that c
// runs: the attempt a retry helper repeats, the body of a span) every non-raising
// return of which returns the result of one call of the callback, as it is (return await
// f(…), an arrow's body) or spread into a literal (const r = await f(…); return {...r, id});
// followed through wrappers of wrappers. Nil when there is none.
func (b *builder) wrapped(fs *fnState, c *ir.Call, depth int) (*fnState, int) {
	if depth > 3 || c.Concurrent != "" || noWrap[c.Method] {
		return nil, -1
	}
	var k *fnState
	switch {
	case len(c.ArgFuncs) == 1:
		k = b.funcs[c.ArgFuncs[0]]
		if k != nil && k.f.Parent != fs.f.ID {
			return nil, -1
		}
	case len(c.ArgFuncs) == 0 && len(c.Targets) == 1 && b.funcs[c.Targets[0]].f.Parent >= 0 && depth == 0:
		// const callModel = () => withSpan(() => retry(async () => modelCall(…))); then
		// await callModel(): a thunk of the function, called by name, that hands back
		// what its wrappers do
		k = b.funcs[c.Targets[0]]
		if k.parent != fs && k.parent != fs.parent && (fs.parent == nil || k.parent != fs.parent.parent) {
			return nil, -1
		}
	default:
		return nil, -1
	}
	if k == nil || k.f.Launch != "" || k.gen {
		return nil, -1
	}
	j := -1
	for i, r := range k.f.Returns {
		if r.Raise {
			continue
		}
		cj := -1
		switch {
		case r.Err != nil && r.Err.Kind == ir.ValCall && r.Err.Call >= 0:
			cj = r.Err.Call
		case len(r.Values) == 1 && r.Values[0].Kind == ir.ValCall && r.Values[0].Call >= 0:
			cj = r.Values[0].Call
		case i < len(k.retNodes):
			cj = b.spreadCall(k, k.retNodes[i])
			if cj < 0 {
				cj = b.awaitedProp(k, firstKid(k.retNodes[i]))
			}
		case k.exprBody && i == len(k.f.Returns)-1:
			// fn: async (span) => ({ at: now(), span, result: await model.doStream({…}) })
			cj = b.awaitedProp(k, k.body)
		}
		if cj < 0 || j >= 0 && cj != j {
			return nil, -1
		}
		j = cj
	}
	if j < 0 || len(k.f.Params) > 0 && argsReadParams(k, j) {
		// (a callback whose call is made with what the callee hands it is a hook that
		// transforms it, onFailure(usage) => report(usage); the attempt a retry helper
		// repeats takes nothing, and a span's body takes the span but makes its call with
		// its own values: fn: async (span) => { const r = await model.doGenerate({…}); …
		// return { ...r, usage } }, ai@6.0.325 dist/index.js:4958)
		return nil, -1
	}
	if g, gj := b.wrapped(k, &k.f.Calls[j], depth+1); g != nil {
		return g, gj
	}
	return k, j
}

// argsReadParams reports whether call j of k (its receiver or an argument) reads a parameter
// of k, or a name one of its destructured parameters binds.
func argsReadParams(k *fnState, j int) bool {
	if j >= len(k.callInfo) {
		return true
	}
	n := k.callInfo[j].node
	text := k.mod.text(n)
	names := map[string]bool{}
	for i, p := range k.f.Params {
		if p.Name != "" {
			names[p.Name] = true
		}
		if i < len(k.patNames) {
			for _, v := range k.patNames[i] {
				names[v] = true
			}
		}
	}
	for i := 0; i < len(text); {
		if !isIdentByte(text[i]) || i > 0 && (isIdentByte(text[i-1]) || text[i-1] == '.') {
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		if names[text[i:j]] {
			return true
		}
		i = j
	}
	return false
}

// gathers reports whether c waits for every task handed to it and returns their results
// (Promise.all, Promise.allSettled, asyncio.gather): a join, never a decision of its own.
func gathers(c *ir.Call) bool {
	for _, k := range c.Keys {
		switch k {
		case "Promise.all", "Promise.allSettled", "asyncio.gather":
			return true
		}
	}
	return false
}

// firstKid is n's first named child, nil if none.
func firstKid(n *syntax.Node) *syntax.Node {
	if kids := n.NamedChildren(); len(kids) > 0 {
		return kids[0]
	}
	return nil
}

// awaitedProp returns the one call of k awaited as a property's value of object literal e
// (({ startTimestampMs: now2(), doStreamSpan: span, result: await stepModel.doStream({…}) }),
// ai@6.0.325 dist/index.js:8464-8478): the reply the callback hands back, as a part of what it
// returns, beside values it has at hand; -1 when there is none or more than one.
func (b *builder) awaitedProp(k *fnState, e *syntax.Node) int {
	e = strip(e)
	if e == nil || e.Kind != "object" {
		return -1
	}
	m := k.mod
	found := -1
	for _, pr := range e.NamedChildren() {
		if pr.Kind != "pair" {
			continue
		}
		v := pr.Child("value")
		if v == nil || !m.t.awaits.has(v) {
			continue
		}
		id, ok := k.callOf[strip(v)]
		if !ok {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = id
	}
	return found
}

// spreadCall returns the call whose held result a returned object literal spreads
// (const r = await f(…); return { ...r, id: … }), -1 if none.
func (b *builder) spreadCall(k *fnState, n *syntax.Node) int {
	var e *syntax.Node
	if kids := n.NamedChildren(); len(kids) > 0 {
		e = strip(kids[0])
	}
	if e == nil || e.Kind != "object" {
		return -1
	}
	for _, pr := range e.NamedChildren() {
		if pr.Kind != "spread_element" {
			continue
		}
		kids := pr.NamedChildren()
		if len(kids) != 1 {
			continue
		}
		if rhs := b.heldCall(k, kids[0], n.Start); rhs != nil {
			if id, ok := k.callOf[rhs]; ok {
				return id
			}
		}
	}
	return -1
}

// drainsCall reports whether loop li of g iterates the result of call node model itself, a
// call that asks for a stream (for chunk in completion, completion = client.create(...,
// stream=True)): a stream's chunks.
func drainsCall(g *fnState, li int, model *syntax.Node) bool {
	oc := g.f.Loops[li].OverCall
	if model == nil || oc < 0 || oc >= len(g.callInfo) || g.callInfo[oc].node != model {
		return false
	}
	for _, a := range model.Child("arguments").NamedChildren() {
		var k, v string
		switch a.Kind {
		case "keyword_argument":
			k, v = g.mod.text(a.Child("name")), g.mod.text(a.Child("value"))
		case "pair":
			k, v = g.mod.text(a.Child("key")), g.mod.text(a.Child("value"))
		}
		if k == "stream" && (v == "True" || v == "true") {
			return true
		}
	}
	return false
}

// mergedInto returns the local collection that call j of g merges chunk v into: a call of a
// function of the set handed v and, first, a variable g assigns a dict, list or object literal
// to (merge_chunk(message, delta)); "" if none.
func (b *builder) mergedInto(g *fnState, j int, v string) string {
	m := g.mod
	args := g.callInfo[j].node.Child("arguments").NamedChildren()
	if len(args) < 2 || m.text(strip(args[0])) == v || !m.t.idents.has(strip(args[0])) {
		return ""
	}
	passes := false
	for _, a := range args[1:] {
		passes = passes || m.text(strip(a)) == v
	}
	if !passes {
		return ""
	}
	acc := m.text(strip(args[0]))
	for _, ai := range g.index().byLHS[acc] {
		if r := strip(g.assigns[ai].rhs); r != nil && (r.Kind == "dictionary" || r.Kind == "list" || r.Kind == "object" || r.Kind == "array") {
			return acc
		}
	}
	return ""
}

// yieldsResults reports whether every function call c may run is a generator of the set
// that yields what it computes (a yield outside its for loops), not only the items of a
// stream it drains.
// A generator that relays what such a generator yields (async with aclosing(self._step(ctx))
// as agen: async for event in agen: yield event) yields its results too.
func (b *builder) yieldsResults(c *ir.Call) bool {
	return b.yieldsResultsIn(c, map[int]bool{}, 0)
}

func (b *builder) yieldsResultsIn(c *ir.Call, seen map[int]bool, depth int) bool {
	if len(c.Targets) == 0 || len(c.Targets) > 3 || depth > 8 {
		return false
	}
	for _, t := range c.Targets {
		if r := b.prog.Funcs[t].Results; len(r) == 0 || r[0] != "iterator" && r[0] != "stream" {
			return false
		}
		if b.funcs[t].yieldsOwn {
			continue
		}
		if seen[t] || !b.relaysResults(t, seen, depth) {
			return false
		}
	}
	return true
}

// relaysResults reports whether the generator t drains (in a loop over it, or over a
// context manager wrapping only it) a call of a generator that yields results.
func (b *builder) relaysResults(t int, seen map[int]bool, depth int) bool {
	seen[t] = true
	defer delete(seen, t)
	fs := b.funcs[t]
	f := b.prog.Funcs[t]
	for _, l := range f.Loops {
		oc := l.OverCall
		if oc < 0 || oc >= len(f.Calls) {
			continue
		}
		if b.yieldsResultsIn(&f.Calls[oc], seen, depth+1) {
			return true
		}
		if oc >= len(fs.callInfo) {
			continue
		}
		if l.Kind == ir.LoopRangeIter && len(f.Calls[oc].Targets) == 0 && !ignoredCall(fs.mod, &f.Calls[oc]) && !b.wrapsSetCall(fs, oc) && b.yieldsItem(fs, l) {
			// async for response in self.llm.generate_content_async(request): yield response —
			// the items of a stream from outside the set, each handed on whole: what the
			// caller drains is what that call returns, item by item
			return true
		}
		for j := range f.Calls {
			if j < len(fs.callInfo) && j != oc && wrapsOnly(fs.mod, fs.callInfo[oc].node, fs.callInfo[j].node) &&
				b.yieldsResultsIn(&f.Calls[j], seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// wrapsSetCall reports whether call oc of fs (outside the set) only wraps a call of a
// function of the set (Aclosing(self._step(ctx))): that call's items are what it hands on.
func (b *builder) wrapsSetCall(fs *fnState, oc int) bool {
	if oc >= len(fs.callInfo) {
		return false
	}
	for j := range fs.f.Calls {
		if j < len(fs.callInfo) && j != oc && len(fs.f.Calls[j].Targets) > 0 && wrapsOnly(fs.mod, fs.callInfo[oc].node, fs.callInfo[j].node) {
			return true
		}
	}
	return false
}

// yieldsItem reports whether the body of loop l of fs yields the loop's item as it is
// (async for x in stream: yield x), or behind an override that may replace it (yield y ?? x).
func (b *builder) yieldsItem(fs *fnState, l ir.Loop) bool {
	if l.ID >= len(fs.loopNodes) {
		return false
	}
	m := fs.mod
	var item string
	for _, a := range fs.assigns {
		if a.iter && a.loop == l.ID && len(a.lhs) == 1 {
			item = a.lhs[0]
		}
	}
	if item == "" {
		return false
	}
	found := false
	eachNode(m.t, fs.loopNodes[l.ID].Child("body"), func(x *syntax.Node) bool {
		if x.Kind == "yield" || x.Kind == "yield_expression" {
			if k := x.NamedChildren(); len(k) == 1 {
				// yield x, or the item with an override in front of it (yield altered ?? x,
				// yield altered != null ? altered : x — esbuild's ?? on a plain name, as
				// @google/adk@2.0.0 dist/esm/agents/llm_agent.js:1114 relays each response of
				// llm.generateContentAsync after an after-model callback): still the item
				for _, alt := range alternatives(m, k[0]) {
					if m.text(strip(alt)) == item {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// allIn reports whether every name of names is in set.
func allIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if !set[n] {
			return false
		}
	}
	return true
}

func union(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func lastSeg(s string) string {
	if i := strings.LastIndexAny(s, ".["); i >= 0 {
		return strings.Trim(s[i+1:], `"']`)
	}
	return s
}

func ignoredCall(m *module, c *ir.Call) bool {
	t := c.Text
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = t[:i]
	}
	if ignoredCallees[t] {
		return true
	}
	// a root r is ignored when t starts with r + ".": t up to one of its dots
	for k := 0; k < len(t); k++ {
		if t[k] == '.' && ignoredRoots[t[:k]] {
			return true
		}
	}
	return false
}

// appendLike reports whether an assignment only grows a collection (x = [...x, y]).
func appendLike(m *module, a assign) bool {
	return a.aug || len(a.lhs) == 1 && strings.Contains(m.text(a.rhs), "..."+a.lhs[0])
}

// delegatingYield reports whether n is yield* x (TS/JS) or yield from x (Python) with one
// operand: its value is what the delegated generator returns.
func delegatingYield(n *syntax.Node) bool {
	return (n.Kind == "yield_expression" && n.Has("*") || n.Kind == "yield" && n.Has("from")) && len(n.NamedChildren()) == 1
}

// rooted reports whether expr is call, or an attribute/subscript/await chain on it.
func rooted(m *module, expr, call *syntax.Node) bool {
	for n := expr; n != nil; {
		if n == call {
			return true
		}
		switch {
		case n.Kind == "parenthesized_expression" || n.Kind == "await" || n.Kind == "await_expression" ||
			n.Kind == "non_null_expression" || n.Kind == "as_expression":
			k := n.NamedChildren()
			if len(k) == 0 {
				return false
			}
			n = k[0]
		case delegatingYield(n):
			// r = yield* this.invokeModel() / r = yield from self.invoke_model(): the value
			// is what the delegated generator returns
			n = n.NamedChildren()[0]
		case m.t.members.has(n):
			n = n.Child("object")
		case m.t.subscripts.has(n):
			n = n.Child(m.t.subObj)
		default:
			return false
		}
	}
	return false
}

func (b *builder) fieldsRead(sc []*fnState, res map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	visit := func(m *module, root *syntax.Node) {
		eachNode(m.t, root, func(n *syntax.Node) bool {
			if m.t.members.has(n) && res[m.text(strip(n.Child("object")))] {
				p := m.text(n.Child(m.t.memberProp))
				if !seen[p] && len(out) < 12 {
					seen[p] = true
					out = append(out, p)
				}
			}
			return true
		})
	}
	// the reads that matter are in conditions and in derived values that mention the result
	for _, g := range sc {
		for _, ci := range g.condsMentioning(res) {
			visit(g.mod, g.conds[ci].expr)
		}
		var cand []int
		for v := range res {
			cand = append(cand, g.index().assigns[v]...)
		}
		sort.Ints(cand)
		last := -1
		for _, ai := range cand {
			if ai != last {
				visit(g.mod, g.assigns[ai].rhs)
			}
			last = ai
		}
	}
	return out
}

// emptiness reports whether cond tests a value of vars for emptiness and whether the
// condition is true when it is empty.
func emptiness(m *module, n *syntax.Node, vars map[string]bool) (ok, emptyWhenTrue bool) {
	n = strip(n)
	if n == nil || !mentions(m, n, vars) {
		return false, false
	}
	t := m.t
	switch {
	case t.nots.has(n):
		if n.Kind == "unary_expression" && m.text(n.Child("operator")) != "!" {
			return false, false
		}
		ok, e := emptiness(m, n.Child("argument"), vars)
		if !ok {
			return false, false
		}
		return true, !e
	case n.Kind == "boolean_operator" || n.Kind == "binary_expression" && (m.text(n.Child("operator")) == "&&" || m.text(n.Child("operator")) == "||"):
		if ok, e := emptiness(m, n.Child("left"), vars); ok {
			return true, e
		}
		return emptiness(m, n.Child("right"), vars)
	}
	if l, r, op, ok := compareOps(m, n); ok {
		lt, rt := m.text(strip(l)), m.text(strip(r))
		other, tested := rt, lt
		if !mentions(m, l, vars) {
			other, tested = lt, rt
		}
		// a size compared with 0 (len(x) == 0, x.length > 0), or a value with None/null
		size := strings.HasPrefix(tested, "len(") || strings.HasSuffix(tested, ".length") || strings.HasSuffix(tested, ".size") ||
			strings.HasSuffix(tested, ".length()") || strings.HasSuffix(tested, ".count")
		zero := func(s string) bool { return s == "0" && size || t.nones[s] }
		if op == "<" && other == "0" {
			return false, false
		}
		switch {
		case t.nones[other] && outputField(m, strip(l), strip(r), vars):
			// while subtask.output is None (griptape==1.13.0 tasks/prompt_task.py:313): the
			// output field of a value built from the result is unset while work is pending;
			// once set it is the final answer, so the loop goes on while it is None
			return true, op == "!=" || op == "!==" || op == "is not"
		case zero(other) && (op == "==" || op == "===" || op == "is" || op == "<=" || op == "<"):
			return true, true
		case zero(other):
			return true, false
		case strings.Contains(strings.ToLower(other), "tool") && (t.stringKinds.has(strip(r)) || t.stringKinds.has(strip(l))):
			// stop_reason == "tool_use": pending when equal
			return true, op == "!=" || op == "!==" || op == "is not"
		case finalWord(other) && (t.stringKinds.has(strip(r)) || t.stringKinds.has(strip(l))):
			// next_step.type == "next_step_final_output", finish_reason == "stop": nothing
			// pending when equal
			return true, op == "==" || op == "===" || op == "is"
		case op == "instanceof" && finalWord(rt):
			// output instanceof FinalOutput: the final answer
			return true, true
		case op == "in" || op == "not in":
			return false, false
		}
		return false, false
	}
	if t.calls.has(n) && calleeText(m, n) == "isinstance" {
		// isinstance(output, AgentFinish): the result is the final answer
		if args := n.Child("arguments").NamedChildren(); len(args) == 2 && mentions(m, args[0], vars) && finalWord(m.text(args[1])) {
			return true, true
		}
		// isinstance(result.content, str) (autogen-agentchat 0.7.5 AssistantAgent
		// _process_model_result): a reply whose content is text, not a list of calls, is the
		// final answer
		if args := n.Child("arguments").NamedChildren(); len(args) == 2 && mentions(m, args[0], vars) && m.text(args[1]) == "str" {
			return true, true
		}
	}
	if t.calls.has(n) {
		// a type test (isinstance, hasattr, callable, any, all) is no emptiness test
		switch calleeText(m, n) {
		case "isinstance", "issubclass", "hasattr", "callable", "any", "all", "Array.isArray", "inspect.isawaitable",
			"asyncio.iscoroutine", "inspect.iscoroutinefunction":
			return false, false
		}
	}
	if t.idents.has(n) || t.members.has(n) || t.calls.has(n) || t.subscripts.has(n) {
		return true, false
	}
	return false, false
}

func (b *builder) checks(g *fnState, fl *ir.Flow, vars map[string]bool, model *ir.Call) {
	m := g.mod
	var cand []int
	seen := map[int]bool{}
	for v := range vars {
		for _, ci := range g.index().conds[v] {
			if !seen[ci] {
				seen[ci] = true
				cand = append(cand, ci)
			}
		}
	}
	sortInts(cand)
	for _, ci := range cand {
		c := g.conds[ci]
		if c.stmt == nil || !m.t.ifs.has(c.stmt) && c.loop < 0 {
			continue
		}
		ok, emptyTrue := emptiness(m, c.expr, vars)
		if !ok || c.loop < 0 && rebinds(m, g, c, vars) {
			continue
		}
		ch := ir.Check{Pos: m.pos(c.expr), Text: clip(m.text(c.expr), 80), Return: -1, Func: g.f.ID}
		if c.loop < 0 {
			var branch *syntax.Node
			if emptyTrue {
				branch = c.stmt.Child("consequence")
			} else {
				branch = c.stmt.Child("alternative")
			}
			if branch != nil {
				ch.Leaves, ch.Return = b.leaves(g, branch)
				if !ch.Leaves && !emptyTrue && recursesIn(g, c.stmt.Child("consequence")) && !recursesIn(g, branch) {
					// if (calls.length > 0 && …) { …; await streamStep({ currentStep: currentStep + 1 }) }
					// else { controller.enqueue({ type: "finish" }); self.closeStream() } (ai@6.0.325
					// dist/index.js:8807-8850): the branch that starts no next step ends the recursion
					ch.Leaves = true
				}
				// if (calls.length === 0) { more = false } under while (more && i < max): the
				// empty branch clears the flag the loop's condition tests, the loop ends
				if !ch.Leaves {
					if loop := b.setsLoopFlag(g, c, branch); loop != nil {
						ch.Leaves = true
						if n := b.after(g, loop); n != nil {
							_, ch.Return = b.leaves(g, n)
						}
					}
				}
			} else if !emptyTrue {
				// if pending { ...; continue } / return answer: what follows the if
				for n := b.after(g, c.stmt); n != nil; n = nil {
					ch.Leaves, ch.Return = b.leaves(g, n)
				}
				if !ch.Leaves && endsByLeaving(m, c.stmt.Child("consequence")) {
					// if pending { run tools; recurse; return }: every statement after the if is
					// the no-tools path, which ends the cycle where one of them leaves
					ch.Leaves, ch.Return = b.leavesAfter(g, c.stmt)
				}
				if !ch.Leaves && nonEmptyTest(m.text(c.expr)) && continuesIn(m.t, c.stmt.Child("consequence")) {
					// if (calls?.length) { run them; if (ran.length) { …; continue } } …; return
					// (@aigne/core 1.72 AIAgent._process): a test that the collection has
					// elements, the loop repeating only through the continue of its branch;
					// what follows the if leaves
					if ok, ret := b.leavesAfter(g, c.stmt); ok && ret >= 0 {
						ch.Leaves, ch.Return = true, ret
					}
				}
				// if pending { more = true } under while more: the loop ends when empty
				if !ch.Leaves && b.setsLoopFlag(g, c, c.stmt.Child("consequence")) != nil {
					ch.Leaves = true
				}
			}
		} else if !emptyTrue {
			// while pending: leaves when empty
			ch.Leaves = true
			if n := b.after(g, c.stmt); n != nil {
				_, ch.Return = b.leaves(g, n)
			}
		}
		fl.Checked = append(fl.Checked, ch)
	}
	b.ranFlags(g, fl, vars)
}

// ranFlags records the test of a flag that says whether an element of the result was
// handled (used_any_tool = False; for out in output: ... used_any_tool = True; then if not
// used_any_tool: break): the flag is set to false before a loop over a collection of vars,
// to true inside that loop, and tested negatively after it by an if whose branch leaves.
// When the reply holds no element to run the flag stays false and the loop ends: the
// decision "nothing pending", written as a flag.
func (b *builder) ranFlags(g *fnState, fl *ir.Flow, vars map[string]bool) {
	m := g.mod
	// the loops of g over a collection of vars
	over := map[int]bool{}
	for _, a := range g.assigns {
		if a.iter && a.loop >= 0 && a.rhs != nil && mentions(m, a.rhs, vars) {
			over[a.loop] = true
		}
	}
	if len(over) == 0 {
		return
	}
	lit := func(n *syntax.Node) string {
		n = strip(n)
		if n == nil || !m.t.literals.has(n) {
			return ""
		}
		return strings.ToLower(m.text(n))
	}
	for _, c := range g.conds {
		if c.loop >= 0 || c.stmt == nil || !m.t.ifs.has(c.stmt) {
			continue
		}
		neg := negated(m, c.expr)
		if neg == nil || !m.t.idents.has(strip(neg)) {
			continue
		}
		flag := m.text(strip(neg))
		if vars[flag] {
			continue
		}
		cleared, set := false, false
		for _, a := range g.assigns {
			if a.iter || len(a.lhs) != 1 || a.lhs[0] != flag || a.node == nil || a.node.Start >= c.stmt.Start {
				continue
			}
			inLoop := -1
			for _, l := range a.loops {
				if over[l] {
					inLoop = l
				}
			}
			switch lit(a.rhs) {
			case "false":
				cleared = cleared || inLoop < 0
			case "true":
				// set in the loop over the elements, and tested after that loop ended
				set = set || inLoop >= 0 && inLoop < len(g.loopNodes) && g.loopNodes[inLoop].End <= c.stmt.Start
			}
		}
		if !cleared || !set {
			continue
		}
		ch := ir.Check{Pos: m.pos(c.expr), Text: clip(m.text(c.expr), 80), Return: -1, Func: g.f.ID}
		ch.Leaves, ch.Return = b.leaves(g, c.stmt.Child("consequence"))
		if ch.Leaves {
			fl.Checked = append(fl.Checked, ch)
		}
	}
}

// boundInComprehension reports whether n lies in a comprehension whose for clause binds v
// (another variable of the same name).
func boundInComprehension(m *module, n *syntax.Node, v string) bool {
	for x := n.Parent; x != nil; x = x.Parent {
		switch x.Kind {
		case "list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression":
			for _, c := range x.Children {
				if c.Kind == "for_in_clause" {
					if l := c.Child("left"); l != nil && l.Kind == "identifier" && m.text(l) == v {
						return true
					}
				}
			}
		case "function_definition", "lambda", "class_definition", "module":
			return false
		}
	}
	return false
}

// itemOfAny reports whether n is an item of one of vars (steps[-1], cast(T, steps[-1])).
func itemOfAny(m *module, n *syntax.Node, vars map[string]bool) bool {
	n = strip(n)
	if n != nil && m.t.calls.has(n) {
		if fn := strip(n.Child("function")); fn != nil && transforms[m.text(fn)] {
			if args := n.Child("arguments").NamedChildren(); len(args) > 0 {
				n = strip(args[len(args)-1])
			}
		}
	}
	if n == nil || !m.t.subscripts.has(n) {
		return false
	}
	obj := strip(n.Child(m.t.subObj))
	return obj != nil && m.t.idents.has(obj) && vars[m.text(obj)]
}

// leavingFlag returns the name of lhs that an if of g tests negatively (if not has_action:)
// in a branch that leaves (breaks out or returns), or positively with an else that leaves
// (if use_tool: ... else: break) or a branch that leaves (a done flag: if is_done: return),
// "" if none.
func (b *builder) leavingFlag(g *fnState, lhs []string) string {
	m := g.mod
	for _, n := range lhs {
		for _, ci := range g.index().conds[n] {
			c := g.conds[ci]
			if c.loop >= 0 || c.stmt == nil || !m.t.ifs.has(c.stmt) {
				continue
			}
			if neg := negated(m, c.expr); neg != nil && m.text(strip(neg)) == n {
				if lv, _ := b.leaves(g, c.stmt.Child("consequence")); lv {
					return n
				}
			}
			// if use_tool: run it; else: break
			if m.text(strip(c.expr)) == n && c.stmt.Child("alternative") != nil {
				if lv, _ := b.leaves(g, c.stmt.Child("alternative")); lv {
					return n
				}
			}
			// if is_done: return current_reasoning, True
			if m.text(strip(c.expr)) == n {
				if lv, _ := b.leaves(g, c.stmt.Child("consequence")); lv {

					return n
				}
			}
		}
	}
	return ""
}

// rebinds reports whether the if statement of c binds the variable of vars its condition
// tests (if tool_calls_list is None: tool_calls_list = self.tool_calls()): the test reads the
// value before the call, it decides whether to make it, not what came of it.
func rebinds(m *module, g *fnState, c cond, vars map[string]bool) bool {
	for _, a := range g.assigns {
		if a.iter || a.node == nil || a.node.Start < c.stmt.Start || a.node.End > c.stmt.End ||
			c.expr != nil && a.node.Start >= c.expr.Start && a.node.End <= c.expr.End {
			continue // (not one in the condition: (_a = reply.toolCalls) !== null, compiled ?.)
		}
		for _, n := range a.lhs {
			if vars[n] && mentions(m, c.expr, map[string]bool{n: true}) {
				return true
			}
		}
	}
	return false
}

// recursesIn reports whether region n of g calls g again or a function g is a closure of (a
// step started again from a callback of its own step).
func recursesIn(g *fnState, n *syntax.Node) bool {
	if n == nil {
		return false
	}
	for j, ci := range g.callInfo {
		if j >= len(g.f.Calls) || ci.node == nil || ci.node.Start < n.Start || ci.node.End > n.End {
			continue
		}
		for _, t := range g.f.Calls[j].Targets {
			for x := g; x != nil; x = x.parent {
				if x.f.ID == t {
					return true
				}
			}
		}
	}
	return false
}

// leaves reports whether a branch returns (a final answer) or breaks out, and the return.
func (b *builder) leaves(g *fnState, n *syntax.Node) (bool, int) {
	m := g.mod
	ret := -1
	left := false
	depth := 0
	var walk func(x *syntax.Node)
	walk = func(x *syntax.Node) {
		if left || x == nil {
			return
		}
		if m.t.returns.has(x) || m.t.yields.has(x) && depth == 0 {
			for i, r := range g.retNodes {
				if r == x {
					ret = i
				}
			}
			left = true
			return
		}
		if m.t.breaks.has(x) && depth == 0 {
			left = true
			return
		}
		loop := m.t.whiles.has(x) || m.t.foreachs.has(x) || m.t.cfors.has(x) || m.t.dos.has(x)
		if loop {
			depth++
		}
		for _, c := range x.Children {
			if m.t.funcs.has(c) || m.t.lambdas.has(c) || m.t.catches.has(c) {
				continue
			}
			walk(c)
		}
		if loop {
			depth--
		}
	}
	walk(n)
	return left, ret
}

// namedIn reports whether a function of sc reads the name of the value at path v into a
// variable: name = v.name, const { name } = v.
func namedIn(sc []*fnState, v string) bool {
	for _, g := range sc {
		for _, a := range g.assigns {
			if a.iter || a.rhs == nil {
				continue
			}
			rt := g.mod.text(strip(a.rhs))
			if strings.HasPrefix(rt, v+".") && isNameProp(lastSeg(rt)) && !strings.Contains(rt[len(v)+1:], ".") {
				return true
			}
			if rt == v {
				for _, n := range a.lhs {
					if isNameProp(n) {
						return true
					}
				}
			}
		}
	}
	return false
}

// negated returns the operand of a negation (!x, not x), parentheses stripped; nil when n is
// no negation.
func negated(m *module, n *syntax.Node) *syntax.Node {
	n = strip(n)
	if n == nil || !(n.Kind == "unary_expression" && m.text(n.Child("operator")) == "!" || n.Kind == "not_operator") {
		return nil
	}
	x := n.Child("argument")
	if x == nil {
		x = n.Child("operand")
	}
	return strip(x)
}

// isNameExpr reports whether n is an element's name (tc.name, tc.function.name, tc["name"])
// or a variable holding one.
func isNameExpr(m *module, n *syntax.Node, elems, names map[string]bool) bool {
	n = strip(n)
	if n == nil {
		return false
	}
	txt := m.text(n)
	if names[txt] {
		return true
	}
	if (m.t.members.has(n) || m.t.subscripts.has(n)) && isNameProp(lastSeg(txt)) && mentions(m, n, elems) {
		return true
	}
	return false
}

// isNameRead is isNameExpr, and also name = call.get("name"): the name read from a dict
// element with a default (swarms==16.0.3 swarms/tools/base_tool.py:1441), for the lookups a
// function makes by the name of a parameter (paramLookups).
func isNameRead(m *module, n *syntax.Node, elems, names map[string]bool) bool {
	if isNameExpr(m, n, elems, names) {
		return true
	}
	n = strip(n)
	if n == nil || !m.t.calls.has(n) {
		return false
	}
	fn := strip(n.Child("function"))
	if args := n.Child("arguments"); fn != nil && args != nil && m.t.members.has(fn) && m.text(fn.Child(m.t.memberProp)) == "get" {
		if a := args.NamedChildren(); len(a) >= 1 && len(a) <= 2 && m.t.stringKinds.has(strip(a[0])) &&
			isNameProp(unquote(m.text(strip(a[0])))) && mentions(m, fn.Child("object"), elems) {
			return true
		}
	}
	return false
}

// dispatch finds where an element's name selects a callable in g, and the calls that run it.
func (b *builder) dispatch(g *fnState, elems, names map[string]bool, model *syntax.Node) []ir.Dispatch {
	m := g.mod
	t := m.t
	var out []ir.Dispatch
	callsOn := func(v string) []ir.CallRef {
		var refs []ir.CallRef
		for _, h := range scope(g) {
			for j := range h.callInfo {
				if boundInComprehension(h.mod, h.callInfo[j].node, v) {
					// {tool.metadata.get_name(): tool for tool in tools}: the table built
					// from the tools, whose variable has the looked-up tool's name, runs
					// no tool (llama-index-core==0.12.52.post1 agent/react/step.py:268)
					continue
				}
				ct := calleeText(m, h.callInfo[j].node)
				// (tool["function"](…): a member read by its quoted name runs it too)
				if ct == v || strings.HasPrefix(ct, v+".") || strings.HasPrefix(ct, v+`["`) || strings.HasPrefix(ct, v+"['") {
					refs = append(refs, ir.CallRef{Func: h.f.ID, Call: j})
				}
			}
		}
		return refs
	}
	consumer := func(lookup *syntax.Node) []ir.CallRef {
		// tools[name](...) / tools[name].invoke(...) / const tool = tools[name]
		p := b.parentIn(g, lookup)
		for p != nil && (p.Kind == "await" || p.Kind == "await_expression" || p.Kind == "parenthesized_expression" || t.members.has(p) || p.Kind == "non_null_expression" ||
			t.subscripts.has(p) && p.Child(t.subObj) == lookup && t.stringKinds.has(strip(p.Child(t.subIndex)))) {
			lookup, p = p, b.parentIn(g, p)
		}
		if p != nil && (t.calls.has(p) || t.news.has(p)) && p.Child("function") == lookup {
			if id, ok := g.callOf[p]; ok {
				return []ir.CallRef{{Func: g.f.ID, Call: id}}
			}
		}
		var refs []ir.CallRef
		for _, a := range g.assigns {
			if a.rhs != nil && (a.rhs == lookup || strip(a.rhs) == strip(lookup) || alternativesHave(m, a.rhs, lookup)) {
				for _, v := range a.lhs {
					refs = append(refs, callsOn(v)...)
				}
			}
		}
		return refs
	}
	for _, n := range g.index().lookups {
		switch {
		case t.subscripts.has(n):
			if idx := n.Child(t.subIndex); idx != nil && isNameExpr(m, idx, elems, names) && !mentions(m, n.Child(t.subObj), elems) &&
				!b.literalTable(m, n.Child(t.subObj)) {
				out = append(out, ir.Dispatch{Pos: m.pos(n), How: "map_lookup", Func: g.f.ID, Calls: consumer(n), Text: clip(m.text(n), 80)})
			}
		case t.calls.has(n):
			fn := strip(n.Child("function"))
			if fn != nil && t.idents.has(fn) && m.text(fn) == "next" {
				// next(t for t in tools if t.name == call.name): the first callable whose
				// name is the element's
				// (Python parses f(x for x in xs) with the generator expression as the arguments)
				gen := strip(n.Child("arguments"))
				if gen != nil && gen.Kind != "generator_expression" {
					if args := gen.NamedChildren(); len(args) > 0 {
						gen = strip(args[0])
					}
				}
				if b.nodeComparesName(m, gen, elems, names) {
					out = append(out, ir.Dispatch{Pos: m.pos(n), How: "name_compare", Func: g.f.ID, Calls: consumer(n), Text: clip(m.text(n), 80)})
				}
				continue
			}
			if isGetattr(m, n) {
				// getattr(self, tool.name, None)(tool): Python's attribute lookup by a name
				// picks the method that runs the call (langroid==0.69.16
				// agent/base.py:2370 handle_tool_message); the object is the table
				if args := n.Child("arguments").NamedChildren(); b.keyOfElem(g, args[1], elems, names, 0) && !mentions(m, args[0], elems) {
					out = append(out, ir.Dispatch{Pos: m.pos(n), How: "map_lookup", Func: g.f.ID, Calls: consumer(n), Text: clip(m.text(n), 80)})
				}
				continue
			}
			if fn != nil && t.idents.has(fn) {
				// getOwn(tools, call.toolName): a helper of the set that looks its second
				// operand up in its first
				if id, ok := g.callOf[n]; ok && b.lookupCall(g, id, n, elems, names) {
					out = append(out, ir.Dispatch{Pos: m.pos(n), How: "map_lookup", Func: g.f.ID, Calls: consumer(n), Text: clip(m.text(n), 80)})
				}
				continue
			}
			if fn == nil || !t.members.has(fn) || mentions(m, fn.Child("object"), elems) {
				continue
			}
			meth := m.text(fn.Child(t.memberProp))
			args := n.Child("arguments").NamedChildren()
			if (meth == "get" || meth == "get_tool" || meth == "getTool" || meth == "lookup") && len(args) > 0 && isNameExpr(m, args[0], elems, names) {
				out = append(out, ir.Dispatch{Pos: m.pos(n), How: "map_lookup", Func: g.f.ID, Calls: consumer(n), Text: clip(m.text(n), 80)})
				continue
			}
			if meth == "find" || meth == "filter" || meth == "next" {
				// tools.find(t => t.name === name)
				if id, ok := g.callOf[n]; ok {
					for _, kid := range g.f.Calls[id].ArgFuncs {
						k := b.funcs[kid]
						if b.comparesName(k, elems, names) {
							out = append(out, ir.Dispatch{Pos: m.pos(n), How: "name_compare", Func: g.f.ID, Calls: consumer(n), Text: clip(m.text(n), 80)})
						}
					}
				}
			}
		}
	}
	// if tool.name == name: tool(...)
	for _, ci := range g.condsMentioning(union(elems, names)) {
		c := g.conds[ci]
		if !t.ifs.has(c.stmt) {
			continue
		}
		if refs := b.providerRuns(g, c, elems, names); len(refs) > 0 {
			out = append(out, ir.Dispatch{Pos: m.pos(c.expr), How: "name_compare", Func: g.f.ID, Calls: refs, Text: clip(m.text(c.expr), 80)})
			continue
		}
		l, r, op, ok := compareOps(m, c.expr)
		if !ok || !(op == "==" || op == "===") {
			continue
		}
		other := r
		if !isNameExpr(m, l, elems, names) {
			if !isNameExpr(m, r, elems, names) {
				continue
			}
			other = l
		}
		other = strip(other)
		if mentions(m, other, elems) {
			continue
		}
		var refs []ir.CallRef
		if t.members.has(other) {
			refs = callsOnIn(g, m.text(strip(other.Child("object"))), c.stmt.Child("consequence"))
		}
		if len(refs) == 0 && !t.stringKinds.has(other) {
			continue
		}
		out = append(out, ir.Dispatch{Pos: m.pos(c.expr), How: "name_compare", Func: g.f.ID, Calls: refs, Text: clip(m.text(c.expr), 80)})
	}
	return out
}

// providerRuns returns, for an if statement whose test asks whether any item of a listing
// has an element's name (if any(t["name"] == tool_call.name for t in await wb.list_tools()),
// tools.some(t => t.name === call.name)), the calls of its then-branch handed that name (await
// wb.call_tool(name=tool_call.name, ...)): a provider of tools asked whether it has the one
// the element names, then asked to run it by name (autogen-agentchat==0.7.5
// agents/_assistant_agent.py:1577-1605). Nil for any other test.
func (b *builder) providerRuns(g *fnState, c cond, elems, names map[string]bool) []ir.CallRef {
	m, t := g.mod, g.mod.t
	e := strip(unAwait(m, c.expr))
	if e == nil || !t.calls.has(e) {
		return nil
	}
	fn := strip(e.Child("function"))
	asks := false
	switch {
	case fn != nil && t.idents.has(fn) && anyFuncs[m.text(fn)]:
		gen := strip(e.Child("arguments"))
		if gen != nil && gen.Kind != "generator_expression" {
			if args := gen.NamedChildren(); len(args) == 1 {
				gen = strip(args[0])
			}
		}
		asks = b.nodeComparesName(m, gen, elems, names)
	case fn != nil && t.members.has(fn) && anyMeths[m.text(fn.Child(t.memberProp))]:
		if id, ok := g.callOf[e]; ok {
			for _, kid := range g.f.Calls[id].ArgFuncs {
				asks = asks || b.comparesName(b.funcs[kid], elems, names)
			}
		}
	}
	then := c.stmt.Child("consequence")
	if !asks || then == nil {
		return nil
	}
	var refs []ir.CallRef
	for j, ci := range g.callInfo {
		if j >= len(g.f.Calls) || ci.node.Start < then.Start || ci.node.End > then.End {
			continue
		}
		if c := &g.f.Calls[j]; isTypeName(lastSeg(calleeText(m, ci.node))) && (len(c.Targets) == 0 || len(c.Keys) > 0 && b.classes[c.Keys[0]] != nil) {
			continue // (FunctionExecutionResult(name=tool_call.name, ...) builds a value: nothing run)
		}
		for _, a := range ci.node.Child("arguments").NamedChildren() {
			if a.Kind == "keyword_argument" {
				a = a.Child("value")
			}
			if isNameExpr(m, a, elems, names) {
				refs = append(refs, ir.CallRef{Func: g.f.ID, Call: j})
				break
			}
		}
	}
	return refs
}

// lookupCall reports whether call id (node n) of g runs only lookup helpers (lookupParams)
// handed an element's name as the key and, as the table, something that is no element.
func (b *builder) lookupCall(g *fnState, id int, n *syntax.Node, elems, names map[string]bool) bool {
	m := g.mod
	c := &g.f.Calls[id]
	if len(c.Targets) == 0 || len(c.Targets) > 3 {
		return false
	}
	args := n.Child("arguments").NamedChildren()
	for _, t := range c.Targets {
		ti, ki, ok := lookupParams(b.funcs[t])
		if !ok || ti >= len(args) || ki >= len(args) || !isNameExpr(m, args[ki], elems, names) ||
			mentions(m, args[ti], elems) || b.literalTable(m, args[ti]) {
			return false
		}
	}
	return true
}

// lookupParams reports whether every return of fs that hands back something is an element
// of one parameter keyed by another (return obj != null && Object.hasOwn(obj, key) ?
// obj[key] : undefined), and which: the table's and the key's positions.
func lookupParams(fs *fnState) (table, key int, ok bool) {
	fs.lookupOnce.Do(func() {
		t, k, ok := lookupParamsOf(fs)
		fs.lookup = lookupSig{t, k, ok}
	})
	return fs.lookup.table, fs.lookup.key, fs.lookup.ok
}

// lookupParamsOf computes lookupParams.
func lookupParamsOf(fs *fnState) (table, key int, ok bool) {
	if fs.body == nil || fs.gen || len(fs.retNodes) == 0 || len(fs.f.Params) < 2 {
		return 0, 0, false
	}
	m, t := fs.mod, fs.mod.t
	pos := map[string]int{}
	for i, p := range fs.f.Params {
		pos[p.Name] = i
	}
	table, key = -1, -1
	for _, r := range fs.retNodes {
		if t.raises.has(r) {
			return 0, 0, false
		}
		kids := r.NamedChildren()
		if len(kids) == 0 {
			continue
		}
		for _, alt := range alternatives(m, kids[0]) {
			alt = strip(alt)
			if alt == nil || t.nones[m.text(alt)] || alt.Kind == "unary_expression" && strings.HasPrefix(m.text(alt), "void") {
				continue
			}
			if !t.subscripts.has(alt) {
				return 0, 0, false
			}
			ti, ok1 := pos[m.text(strip(alt.Child(t.subObj)))]
			ki, ok2 := pos[m.text(strip(alt.Child(t.subIndex)))]
			if !ok1 || !ok2 || ti == ki || table >= 0 && (ti != table || ki != key) {
				return 0, 0, false
			}
			table, key = ti, ki
		}
	}
	return table, key, table >= 0
}

func alternativesHave(m *module, rhs, n *syntax.Node) bool {
	for _, a := range alternatives(m, rhs) {
		if strip(a) == strip(n) {
			return true
		}
	}
	return false
}

// callsOnIn lists the calls on v (v(...), v.m(...)) inside region.
func callsOnIn(g *fnState, v string, region *syntax.Node) []ir.CallRef {
	if region == nil || v == "" {
		return nil
	}
	var refs []ir.CallRef
	for j, ci := range g.callInfo {
		if ci.node.Start < region.Start || ci.node.End > region.End {
			continue
		}
		ct := calleeText(g.mod, ci.node)
		if ct == v || strings.HasPrefix(ct, v+".") {
			refs = append(refs, ir.CallRef{Func: g.f.ID, Call: j})
		}
	}
	return refs
}

// carriesName reports whether n is a constructor call (a callee whose last segment is a type
// name) one of whose arguments, directly or through nested constructor calls, is an element's
// name: CallToolRequest(params=CallToolRequestParams(name=tool_name)). The value it builds is
// a request naming the tool; a name only mentioned in a computation (f"{name}") is not.
func carriesName(m *module, n *syntax.Node, elems, names map[string]bool, depth int) bool {
	n = strip(unAwait(m, n))
	if n == nil || depth > 3 || !m.t.calls.has(n) || !isTypeName(lastSeg(calleeText(m, n))) {
		return false
	}
	args := n.Child("arguments")
	if args == nil {
		return false
	}
	for _, a := range args.NamedChildren() {
		if a.Kind == "keyword_argument" {
			a = a.Child("value")
		}
		if isNameExpr(m, a, elems, names) || carriesName(m, a, elems, names, depth+1) {
			return true
		}
	}
	return false
}

// nodeComparesName reports whether n is a generator expression or comprehension that keeps
// the items whose name equals an element's name (t for t in tools if t.name == call.name).
func (b *builder) nodeComparesName(m *module, n *syntax.Node, elems, names map[string]bool) bool {
	if n == nil || n.Kind != "generator_expression" && n.Kind != "list_comprehension" {
		return false
	}
	found := false
	eachNode(m.t, n, func(x *syntax.Node) bool {
		if l, r, op, ok := compareOps(m, x); ok && op == "==" && (isNameExpr(m, l, elems, names) || isNameExpr(m, r, elems, names)) {
			found = true
		}
		return !found
	})
	return found
}

func (b *builder) comparesName(k *fnState, elems, names map[string]bool) bool {
	m := k.mod
	found := false
	eachNode(m.t, k.node, func(n *syntax.Node) bool {
		if l, r, op, ok := compareOps(m, n); ok && (op == "==" || op == "===") {
			if isNameExpr(m, l, elems, names) || isNameExpr(m, r, elems, names) {
				found = true
			}
		}
		return !found
	})
	return found
}

// argDispatch: a call that receives an element's name (name_arg) or the element itself
// (element_arg) and looks the callable up itself.
func (b *builder) argDispatch(g *fnState, elems, names map[string]bool, model *syntax.Node) []ir.Dispatch {
	m := g.mod
	var out []ir.Dispatch
	for j, ci := range g.callInfo {
		c := &g.f.Calls[j]
		if ci.node == model || ignoredCall(m, c) || appendMeths[c.Method] || m.t.eachMethods[c.Method] {
			continue
		}
		if b.lookupCall(g, j, ci.node, elems, names) {
			continue // getOwn(tools, call.name): a lookup (dispatch), not a call run with the name
		}
		ctor := func() bool {
			return isTypeName(lastSeg(calleeText(m, ci.node))) && (len(c.Targets) == 0 || len(c.Keys) > 0 && b.classes[c.Keys[0]] != nil)
		}
		args := ci.node.Child("arguments").NamedChildren()
		if fn := strip(ci.node.Child("function")); fn != nil && m.t.members.has(fn) && lookupMeths[m.text(fn.Child(m.t.memberProp))] &&
			len(args) > 0 && isNameExpr(m, args[0], elems, names) {
			// kinds.get(call.name): a lookup in a map, which dispatch reads (the calls that
			// run what it selects are the tool calls; a value only translated runs nothing)
			continue
		}
		how := ""
		for _, a := range args {
			if a.Kind == "keyword_argument" {
				a = a.Child("value")
			}
			if isNameExpr(m, a, elems, names) && !ctor() && !(b.answers(c.Targets) && !b.resultRun(g, j)) {
				// (declared(tool.name), visibility_of(t.name): a function of the set that
				// answers a question about the name, whose answer nobody runs, runs nothing)
				// (Function(name=tc["name"], ...) builds a value with the name: nothing run)
				how = "name_arg"
				break
			}
			if elems[m.text(strip(a))] && (len(c.Targets) > 0 || toolishMeth.MatchString(c.Method)) && how == "" {
				how = "element_arg"
			}
		}
		if how == "" {
			continue
		}
		out = append(out, ir.Dispatch{Pos: c.Pos, How: how, Func: g.f.ID, Calls: []ir.CallRef{{Func: g.f.ID, Call: j}}, Text: c.Text})
	}
	return out
}

// toolCallFields name the collection of a model reply that holds the calls it asks for.
var toolCallFields = regexp.MustCompile(`(?i)^(tool_?calls|tool_?uses|function_?calls|tool_?requests)$`)

// batchDispatch: a call that runs what it is handed (a run verb: callTool, execute) receiving
// the whole collection of calls the result asks for, the one whose emptiness ends the loop
// (if (!response.functionCalls || response.functionCalls.length === 0) break; ... parts =
// await callableTool.callTool(response.functionCalls), @google/genai@3.3.0
// dist/node/index.mjs:16005-16013), when nothing of the set runs behind it (the caller's tool
// objects): that call runs every tool the reply asks for (collection_arg).
func (b *builder) batchDispatch(g *fnState, fl *ir.Flow, res map[string]bool, model *syntax.Node) []ir.Dispatch {
	m := g.mod
	var out []ir.Dispatch
	for j, ci := range g.callInfo {
		if j >= len(g.f.Calls) {
			break
		}
		c := &g.f.Calls[j]
		if ci.node == model || !isRunVerb(c.Method) || appendMeths[c.Method] || m.t.eachMethods[c.Method] || ignoredCall(m, c) || !opaque(b, c) {
			continue
		}
		args := ci.node.Child("arguments")
		if args == nil {
			continue
		}
		for _, a := range args.NamedChildren() {
			a = strip(a)
			if a == nil || !m.t.members.has(a) || !res[m.text(strip(a.Child("object")))] || !toolCallFields.MatchString(m.text(a.Child(m.t.memberProp))) {
				continue
			}
			pending := false
			for _, ch := range fl.Checked {
				pending = pending || ch.Leaves && !ch.Indirect && ch.Func == g.f.ID && strings.Contains(ch.Text, m.text(a))
			}
			if pending {
				out = append(out, ir.Dispatch{Pos: c.Pos, How: "collection_arg", Func: g.f.ID, Calls: []ir.CallRef{{Func: g.f.ID, Call: j}}, Text: c.Text})
				break
			}
		}
	}
	return out
}

// lookupMeths are the methods that look a value up by the key they are handed (dispatch reads
// them as map lookups).
var lookupMeths = map[string]bool{"get": true, "get_tool": true, "getTool": true, "lookup": true}

// answers reports whether every function targets may run is a function of the set every
// return of which hands back an answer about its arguments, not something to run: a truth
// value (a comparison, a membership test, a negation, and/or of them), a literal, a value
// looked up by key (m.get(k), m[k]), a choice between such, or a local bound only to such
// (if v := m.get(k): return v). False when targets is empty.
func (b *builder) answers(targets []int) bool {
	if len(targets) == 0 {
		return false
	}
	for _, id := range targets {
		g := b.funcs[id]
		m := g.mod
		var rets []*syntax.Node
		if g.exprBody {
			rets = append(rets, g.body)
		}
		for _, n := range g.retNodes {
			if m.t.raises.has(n) {
				continue
			}
			k := n.NamedChildren()
			if len(k) == 0 {
				return false
			}
			rets = append(rets, k[0])
		}
		if len(rets) == 0 {
			return false
		}
		for _, e := range rets {
			if !answer(g, e, 0) {
				return false
			}
		}
	}
	return true
}

// answer reports whether expression e of g is an answer (see answers).
func answer(g *fnState, e *syntax.Node, depth int) bool {
	m, t := g.mod, g.mod.t
	e = strip(unAwait(m, e))
	if e == nil || depth > 4 {
		return false
	}
	if truthValue(m, e) || t.stringKinds.has(e) || t.numbers.has(e) || t.literals.has(e) || e.Kind == "null" || e.Kind == "undefined" {
		return true
	}
	if t.subscripts.has(e) {
		return true
	}
	if t.calls.has(e) {
		fn := strip(e.Child("function"))
		return fn != nil && t.members.has(fn) && lookupMeths[m.text(fn.Child(t.memberProp))]
	}
	if t.ternaries.has(e) {
		alts := alternatives(m, e)
		if len(alts) < 2 {
			return false
		}
		for _, a := range alts {
			if !answer(g, a, depth+1) {
				return false
			}
		}
		return true
	}
	if t.idents.has(e) {
		binds := g.index().assigns[m.text(e)]
		found := false
		for _, ai := range binds {
			a := g.assigns[ai]
			if len(a.lhs) != 1 || a.lhs[0] != m.text(e) {
				continue
			}
			if a.iter || a.rhs == nil || !answer(g, a.rhs, depth+1) {
				return false
			}
			found = true
		}
		// if v := m.get(k): return v (walrus bindings)
		eachNode(t, g.body, func(x *syntax.Node) bool {
			if x.Kind == "named_expression" && m.text(x.Child("name")) == m.text(e) {
				found = found || len(binds) == 0
				if !answer(g, x.Child("value"), depth+1) {
					binds, found = nil, false
					return false
				}
			}
			return true
		})
		return found
	}
	return false
}

// resultRun reports whether the result of call j of g is run: called in place
// (find(name)(args), find(name).run()) or bound to a variable that is called.
func (b *builder) resultRun(g *fnState, j int) bool {
	m, t := g.mod, g.mod.t
	n := g.callInfo[j].node
	p := b.parentIn(g, n)
	for p != nil && (p.Kind == "await" || p.Kind == "await_expression" || p.Kind == "parenthesized_expression" || p.Kind == "non_null_expression" || t.members.has(p)) {
		n, p = p, b.parentIn(g, p)
	}
	if p != nil && (t.calls.has(p) || t.news.has(p)) && p.Child("function") == n {
		return true
	}
	for _, a := range g.assigns {
		if a.rhs == nil || strip(unAwait(m, a.rhs)) != strip(g.callInfo[j].node) {
			continue
		}
		for _, v := range a.lhs {
			for _, h := range scope(g) {
				for k := range h.callInfo {
					if ct := calleeText(m, h.callInfo[k].node); ct == v || strings.HasPrefix(ct, v+".") {
						return true
					}
				}
			}
		}
	}
	return false
}

// truthValue reports whether expression e is a truth value by its form: a comparison or
// membership test, a negation, a boolean literal, or and/or of such.
func truthValue(m *module, e *syntax.Node) bool {
	e = strip(e)
	if e == nil {
		return false
	}
	if _, _, _, ok := compareOps(m, e); ok {
		return true
	}
	switch {
	case e.Kind == "true" || e.Kind == "false" || e.Kind == "not_operator":
		return true
	case m.t.nots.has(e) && strings.HasPrefix(m.text(e), "!"):
		return true
	case m.t.bools.has(e) || e.Kind == "binary_expression" && (m.text(e.Child("operator")) == "&&" || m.text(e.Child("operator")) == "||"):
		for _, k := range e.NamedChildren() {
			if !truthValue(m, k) {
				return false
			}
		}
		return true
	}
	return false
}

// feeds decides whether what the dispatched calls return flows into the next model call: an
// append into (or a rebuild of) a collection the model call receives.
func (b *builder) feeds(fs *fnState, sc []*fnState, fl *ir.Flow, ci callInfo, mc *ir.Call, vals, res map[string]bool) {
	m := fs.mod
	var toolNodes []*syntax.Node
	for _, d := range fl.Dispatch {
		for _, ref := range d.Calls {
			toolNodes = append(toolNodes, b.funcs[ref.Func].callInfo[ref.Call].node)
		}
	}
	inputs := map[string]bool{}
	args := ci.node.Child("arguments")
	if args == nil {
		return
	}
	eachNode(m.t, args, func(n *syntax.Node) bool {
		if m.t.idents.has(n) || m.t.members.has(n) {
			inputs[m.text(n)] = true
			return !m.t.members.has(n)
		}
		if m.t.calls.has(n) {
			// messages: await session.getMessages(): read back from a store, which is then
			// an input too (what is appended to it reaches the call)
			if fn := strip(n.Child("function")); fn != nil && m.t.members.has(fn) {
				if obj := strip(fn.Child("object")); obj != nil && (m.t.idents.has(obj) || m.t.members.has(obj)) {
					inputs[m.text(obj)] = true
				}
			}
		}
		return true
	})
	// derivation, three levels deep: input_messages = self.write_memory_to_messages() /
	// [...history]; prompt = f"{system}\n{user}" with user = build_user(question, pad) and
	// pad = format_scratchpad(steps)
	done, text := map[int]bool{}, false
	for level := range 3 {
		var direct []int
		for in := range inputs {
			direct = append(direct, fs.index().byLHS[in]...)
		}
		sort.Ints(direct)
		for _, ai := range direct {
			a := fs.assigns[ai]
			if done[ai] {
				continue
			}
			done[ai] = true
			if level > 0 && (!text || !b.formats(fs, a.rhs)) && !concatenates(m, a.rhs) {
				continue // deeper, only into the parts a prompt text is built from
			}
			if level == 0 && a.rhs != nil && isTemplate(fs.mod, a.rhs) {
				text = true
			}
			if len(a.lhs) == 1 && inputs[a.lhs[0]] && a.rhs != nil {
				eachNode(m.t, a.rhs, func(n *syntax.Node) bool {
					if m.t.members.has(n) || m.t.idents.has(n) {
						inputs[m.text(n)] = true
						if m.t.members.has(n) {
							inputs[m.text(strip(n.Child("object")))] = true
						}
					}
					return true
				})
			}
		}
	}
	delete(inputs, m.t.self)
	if len(inputs) == 0 {
		return
	}
	var at ir.Pos
	var exec bool
	if opaque(b, mc) {
		at, exec = b.executorFeeds(sc, fl, inputs, ci.node)
	}
	if pos, ok := reachesInputs(sc, inputs, vals, toolNodes); ok {
		if exec {
			pos = at // where the executor's results go back, not some other append
		}
		fl.FeedsNext, fl.FeedPos = true, pos
		return
	}
	if pos, ok := b.recursionFeeds(fs, fl, ci.node, res); ok {
		fl.FeedsNext, fl.FeedPos = true, pos
	}
}

// recursionFeeds reports where the results of the call of fs that runs the dispatched tools
// on what model returned are handed to a call that runs fs again: const { toolMessage } =
// await resolveToolRequests(rawRequest, generatedMessage, tools); messages.push(toolMessage);
// nextRequest = { ...rawRequest, messages }; return await generateHelper(registry, {
// rawRequest: nextRequest, currentTurn: currentTurn + 1 }) (@genkit-ai/ai@1.42.0
// src/generate/action.ts:477-569, generateHelper → runInNewSpan → generateActionImpl →
// generateActionTurn): the next step is asked with what the tools gave. The tools must run on
// model's result itself, with no later call in between taking that result and handing its own
// on to them (the request a call before the model call builds is the model call's input, not
// the decision).
func (b *builder) recursionFeeds(fs *fnState, fl *ir.Flow, model *syntax.Node, res map[string]bool) (ir.Pos, bool) {
	m := fs.mod
	disp := map[int]bool{}
	for _, d := range fl.Dispatch {
		if d.Func >= 0 {
			disp[d.Func] = true
		}
	}
	if len(disp) == 0 || len(res) == 0 || model == nil {
		return ir.Pos{}, false
	}
	// runs reports whether call c reaches (through up to five calls and the callbacks handed
	// on the way) a function want accepts
	var runs func(c *ir.Call, want func(int) bool, depth int, seen map[int]bool) bool
	runs = func(c *ir.Call, want func(int) bool, depth int, seen map[int]bool) bool {
		if depth > 5 {
			return false
		}
		for i := range len(c.Targets) + len(c.ArgFuncs) {
			t := 0
			if i < len(c.Targets) {
				t = c.Targets[i]
			} else {
				t = c.ArgFuncs[i-len(c.Targets)]
			}
			if t < 0 || t >= len(b.funcs) || seen[t] {
				continue
			}
			seen[t] = true
			if want(t) {
				return true
			}
			h := b.funcs[t]
			for k := range h.f.Calls {
				if runs(&h.f.Calls[k], want, depth+1, seen) {
					return true
				}
			}
		}
		return false
	}
	derive := func(start map[string]bool) map[string]bool {
		vals := union(start, nil)
		for range 3 {
			before := len(vals)
			for _, j := range fs.index().appends {
				fn := strip(fs.callInfo[j].node.Child("function"))
				if fn != nil && m.t.members.has(fn) {
					if obj := m.text(strip(fn.Child("object"))); !vals[obj] && mentions(m, fs.callInfo[j].node.Child("arguments"), vals) {
						vals[obj] = true
					}
				}
			}
			for _, a := range fs.assigns {
				if !a.iter && a.rhs != nil && !allIn(a.lhs, vals) && mentions(m, a.rhs, vals) {
					for _, n := range a.lhs {
						vals[n] = true
					}
				}
			}
			if len(vals) == before {
				break // a round that adds nothing: so would the next
			}
		}
		return vals
	}
	bound := func(j int) map[string]bool {
		out := map[string]bool{}
		for _, a := range fs.assigns {
			if !a.iter && a.rhs != nil && containsCall(a.rhs, []*syntax.Node{fs.callInfo[j].node}) {
				for _, n := range a.lhs {
					out[n] = true
				}
			}
		}
		return out
	}
	// derived is derive(bound(k)), made once per call k (nil when k's result is bound to
	// nothing): every candidate t asks it of the calls before it.
	derived := map[int]map[string]bool{}
	derivedOut := func(k int) map[string]bool {
		if v, ok := derived[k]; ok {
			return v
		}
		var v map[string]bool
		if out := bound(k); len(out) > 0 {
			v = derive(out)
		}
		derived[k] = v
		return v
	}
	args := func(j int) *syntax.Node { return fs.callInfo[j].node.Child("arguments") }
	// from (what model's result is derived into), whether a call's arguments mention it and
	// whether a call runs fs again are each made once, when first asked
	var from map[string]bool
	fromArgs := map[int]bool{}
	mentionsFrom := func(k int) bool {
		if v, ok := fromArgs[k]; ok {
			return v
		}
		if from == nil {
			from = derive(res)
		}
		v := mentions(m, args(k), from)
		fromArgs[k] = v
		return v
	}
	rerun := map[int]bool{}
	runsAgain := func(j int) bool {
		if v, ok := rerun[j]; ok {
			return v
		}
		v := runs(&fs.f.Calls[j], func(x int) bool { return x == fs.f.ID }, 1, map[int]bool{})
		rerun[j] = v
		return v
	}
	for t := range fs.f.Calls {
		if t >= len(fs.callInfo) || fs.callInfo[t].node == nil || fs.callInfo[t].node.Start < model.End ||
			!mentionsFrom(t) || !runs(&fs.f.Calls[t], func(x int) bool { return disp[x] }, 1, map[int]bool{}) {
			continue
		}
		between := false
		for k := range fs.f.Calls {
			kn := fs.callInfo[k].node
			c := &fs.f.Calls[k]
			if k == t || kn == nil || kn.Start < model.End || kn.Start >= fs.callInfo[t].node.Start ||
				len(c.Keys) > 0 && b.classes[c.Keys[0]] != nil || !mentionsFrom(k) {
				continue
			}
			if out := derivedOut(k); out != nil && mentions(m, args(t), out) {
				between = true // (a later call's result is what the tools run on)
				break
			}
		}
		if between {
			continue
		}
		outs := derivedOut(t)
		if outs == nil {
			continue
		}
		for j := range fs.f.Calls {
			c := &fs.f.Calls[j]
			if j < len(fs.callInfo) && fs.callInfo[j].node != nil && fs.callInfo[j].node.Start > fs.callInfo[t].node.Start &&
				mentions(m, args(j), outs) && runsAgain(j) {
				return c.Pos, true
			}
		}
	}
	return ir.Pos{}, false
}

// concatenates reports whether e is an array literal that only spreads or lists values
// (stepInputMessages = [...initialMessages, ...responseMessages]): the messages the next call
// is prompted with joined from the history and what the steps appended, followed deeper like
// the parts of a prompt text (ai@6.0.325 dist/index.js:4862, prompt: promptMessages built
// from it at 4873).
func concatenates(m *module, e *syntax.Node) bool {
	e = strip(e)
	if e == nil || e.Kind != "array" {
		return false
	}
	kids := e.NamedChildren()
	for _, k := range kids {
		if k.Kind == "spread_element" {
			k = strip(k.NamedChildren()[0])
		}
		if k == nil || !m.t.idents.has(k) && !m.t.members.has(k) {
			return false
		}
	}
	return len(kids) > 0
}

// executorFeeds marks the element_arg dispatches of fl (a call in the function or its
// closures handed an element of the result: self.env.execute(action), executor.run(call))
// whose own result reaches what the next call of the site receives (outputs = [...];
// messages.append(out), results.push(await executor.run(call)); conversation.push(...results)):
// the data flow's back edge through that call, what makes it the one executor of every tool
// call rather than a helper the element is merely handed to. Both the call of the site
// (feeds checks) and the executor run nothing of the set (opaque: an object handed in, an
// interface, a stub): a parser whose helper advances a cursor the next read takes
// (cursor = advance(anchor, cursor)) computes in place, it hands nothing to the outside.
func (b *builder) executorFeeds(sc []*fnState, fl *ir.Flow, inputs map[string]bool, model *syntax.Node) (at ir.Pos, ok bool) {
	in := map[int]bool{}
	for _, g := range sc {
		in[g.f.ID] = true
	}
	for i := range fl.Dispatch {
		d := &fl.Dispatch[i]
		if d.How != "element_arg" || !in[d.Func] || len(d.Calls) != 1 || !in[d.Calls[0].Func] ||
			!opaque(b, &b.funcs[d.Calls[0].Func].f.Calls[d.Calls[0].Call]) {
			continue
		}
		node := b.funcs[d.Func].callInfo[d.Calls[0].Call].node
		if node == nil {
			continue
		}
		// what holds the call's result: a variable bound to an expression holding it
		// (outputs = [execute(a) for a in acts]), a collection it is appended to
		seeds := map[string]bool{}
		for _, g := range sc {
			gm := g.mod
			for _, a := range g.assigns {
				if a.rhs != nil && (a.rhs == node || containsCall(a.rhs, []*syntax.Node{node})) {
					for _, n := range a.lhs {
						seeds[n] = true
					}
				}
			}
			for _, j := range g.index().appends {
				gci := g.callInfo[j]
				fn := strip(gci.node.Child("function"))
				if fn != nil && gm.t.members.has(fn) && containsCall(gci.node.Child("arguments"), []*syntax.Node{node}) {
					seeds[gm.text(strip(fn.Child("object")))] = true
				}
			}
		}
		if pos, feeds := resultReaches(sc, inputs, seeds, node, model); feeds {
			d.Feeds = true
			if !ok {
				at, ok = pos, true
			}
		}
	}
	return at, ok
}

// resultReaches reports where the result of call (held in vals) is appended to or assigned
// into one of inputs, following it for three rounds through the assignments and appends of
// the scope, but never through an input (what reaches it is the answer) nor through the model
// call itself (response = model(messages) mentions the messages, it does not carry them).
func resultReaches(sc []*fnState, inputs, vals map[string]bool, call, model *syntax.Node) (ir.Pos, bool) {
	vals = union(vals, nil)
	into := func(g *fnState, recv string) bool { return inputs[recv] || inputs[rootOf(recv)] }
	for range 3 {
		for _, g := range sc {
			gm := g.mod
			for _, j := range g.index().appends {
				gci := g.callInfo[j]
				fn := strip(gci.node.Child("function"))
				if fn == nil || !gm.t.members.has(fn) {
					continue
				}
				recv := gm.text(strip(fn.Child("object")))
				if !mentions(gm, gci.node.Child("arguments"), vals) && !containsCall(gci.node.Child("arguments"), []*syntax.Node{call}) {
					continue
				}
				if into(g, recv) {
					return g.f.Calls[j].Pos, true
				}
				vals[recv] = true
			}
			for _, a := range g.assigns {
				if a.rhs == nil || a.rhs == model || containsCall(a.rhs, []*syntax.Node{model}) || !mentions(gm, a.rhs, vals) {
					continue
				}
				for _, n := range a.lhs {
					if into(g, n) {
						return gm.pos(a.node), true
					}
					vals[n] = true
				}
			}
		}
	}
	return ir.Pos{}, false
}

// reachesInputs reports where a value of vals (grown by two rounds of assignments and
// appends), or a call of toolNodes, is appended to or assigned into one of inputs (what the
// model call receives, its roots included).
func reachesInputs(sc []*fnState, inputs, vals map[string]bool, toolNodes []*syntax.Node) (ir.Pos, bool) {
	vals = union(vals, nil)
	for range 2 {
		for _, g := range sc {
			for _, j := range g.index().appends {
				fn := strip(g.callInfo[j].node.Child("function"))
				if fn != nil && g.mod.t.members.has(fn) && mentions(g.mod, g.callInfo[j].node.Child("arguments"), vals) {
					vals[g.mod.text(strip(fn.Child("object")))] = true
				}
			}
			for _, a := range g.assigns {
				if a.rhs != nil && mentions(g.mod, a.rhs, vals) {
					for _, n := range a.lhs {
						vals[n] = true
					}
				}
			}
		}
	}
	for _, g := range sc {
		gm := g.mod
		for _, j := range g.index().appends {
			gci := g.callInfo[j]
			c := &g.f.Calls[j]
			fn := strip(gci.node.Child("function"))
			if fn == nil || !gm.t.members.has(fn) {
				continue
			}
			recv := gm.text(strip(fn.Child("object")))
			if !inputs[recv] && !inputs[rootOf(recv)] {
				continue
			}
			if mentions(gm, gci.node.Child("arguments"), vals) || containsCall(gci.node, toolNodes) {
				return c.Pos, true
			}
		}
		var cand []int
		for in := range inputs {
			cand = append(cand, g.index().byLHS[in]...)
		}
		sort.Ints(cand)
		for _, ai := range cand {
			a := g.assigns[ai]
			if a.iter || len(a.lhs) != 1 || !inputs[a.lhs[0]] || a.rhs == nil {
				continue
			}
			if (appendLike(gm, a) || mentions(gm, a.rhs, map[string]bool{a.lhs[0]: true})) && mentions(gm, a.rhs, vals) {
				return gm.pos(a.node), true
			}
		}
		// text_messages[-1].content += thought + observation, trajectory[f"observation_{idx}"]
		// = self.tools[name](**args): the tools' results stored in place into a part of an
		// input (the prompt text of its last message, a key of the trajectory it formats)
		for _, a := range g.assigns {
			if a.iter || len(a.lhs) != 1 || a.rhs == nil || a.lhs[0] == baseVar(a.lhs[0]) || !inputs[baseVar(a.lhs[0])] {
				continue
			}
			if a.aug && mentions(gm, a.rhs, vals) || !a.aug && strings.Contains(a.lhs[0], "[") && containsCall(a.node, toolNodes) {
				return gm.pos(a.node), true
			}
		}
	}
	return ir.Pos{}, false
}

// baseVar returns the variable an access path starts from (text_messages for
// text_messages[-1].content).
func baseVar(s string) string {
	if i := strings.IndexAny(s, ".[("); i > 0 {
		return s[:i]
	}
	return s
}

// toolsReturned follows the tools' results a function hands back to its callers (for tc in
// self.tool_calls(): results.append(tool(**tc.arguments)); return results) when the call's
// own function tests nothing of them: a caller's test of what it got (if tool_results: …
// else: break) is the "nothing pending" test, and the results going back into the receiver
// or the arguments of that caller's call (current = Response(Prompt(tool_results=
// tool_results))), what the next round's call of the function reads, feed the next call.
func (b *builder) toolsReturned(fs *fnState, sc []*fnState, fl *ir.Flow, vals map[string]bool) {
	runs := false
	for _, d := range fl.Dispatch {
		runs = runs || len(d.Calls) > 0 && d.How != "element_arg"
	}
	if !runs || fs.gen {
		return
	}
	m := fs.mod
	held := union(vals, nil)
	for range 2 {
		for _, j := range fs.index().appends {
			fn := strip(fs.callInfo[j].node.Child("function"))
			if fn != nil && m.t.members.has(fn) && mentions(m, fs.callInfo[j].node.Child("arguments"), held) {
				held[m.text(strip(fn.Child("object")))] = true
			}
		}
		for _, a := range fs.assigns {
			if a.rhs != nil && mentions(m, a.rhs, held) {
				for _, n := range a.lhs {
					held[n] = true
				}
			}
		}
	}
	returned := false
	for _, n := range fs.retNodes {
		if k := n.NamedChildren(); len(k) > 0 && !m.t.raises.has(n) && mentions(m, k[0], held) {
			returned = true
		}
	}
	if !returned {
		return
	}
	for _, g := range b.funcs {
		if g.f.Test {
			continue
		}
		gm := g.mod
		for j := range g.f.Calls {
			c := &g.f.Calls[j]
			if j >= len(g.callInfo) || len(c.Targets) == 0 || len(c.Targets) > 3 || !slices.Contains(c.Targets, fs.f.ID) {
				continue
			}
			node := g.callInfo[j].node
			got := map[string]bool{}
			for _, a := range g.assigns {
				if a.rhs != nil && !a.iter && strip(unAwait(gm, a.rhs)) == node {
					for _, n := range a.lhs {
						got[n] = true
					}
				}
			}
			if len(got) == 0 {
				continue
			}
			part := &ir.Flow{}
			b.checks(g, part, got, nil)
			leaves := false
			for _, ch := range part.Checked {
				leaves = leaves || ch.Leaves
			}
			if !leaves {
				continue
			}
			inputs := map[string]bool{}
			if fn := strip(unAwait(gm, node.Child("function"))); fn != nil && gm.t.members.has(fn) {
				if r := gm.text(strip(fn.Child("object"))); r != gm.t.self {
					inputs[r] = true
				}
			}
			eachNode(gm.t, node.Child("arguments"), func(x *syntax.Node) bool {
				if gm.t.idents.has(x) && gm.text(x) != gm.t.self {
					inputs[gm.text(x)] = true
				}
				return true
			})
			if len(inputs) == 0 {
				continue
			}
			if pos, ok := resultReaches(scope(g), inputs, got, node, node); ok {
				fl.Checked = append(fl.Checked, part.Checked...)
				fl.FeedsNext, fl.FeedPos = true, pos
				return
			}
		}
	}
}

// identArgs returns the names of the plain variables (not self) ci passes, by position or by
// keyword.
func identArgs(m *module, ci callInfo) map[string]bool {
	inputs := map[string]bool{}
	if args := ci.node.Child("arguments"); args != nil {
		for _, a := range args.NamedChildren() {
			if a.Kind == "keyword_argument" {
				a = a.Child("value")
			}
			if a = strip(a); a != nil && m.t.idents.has(a) && m.text(a) != m.t.self {
				inputs[m.text(a)] = true
			}
		}
	}
	return inputs
}

// feedsInHelper decides FeedsNext for a result handed to a helper of the set together with
// what holds the model call's input (_handle_tool_execution(message, agent=agent), where the
// model was called with agent): the helper fills a collection through the calls that run the
// tools (tool_results = [] handed to the executor, which appends to it) and puts what it built
// from it back into that input (agent._append_messages(...), agent.messages.append(...)).
func (b *builder) feedsInHelper(sc []*fnState, fl *ir.Flow, ci callInfo, res map[string]bool) {
	m := sc[0].mod
	inputs := identArgs(m, ci)
	if len(inputs) == 0 {
		return
	}
	for _, g := range sc {
		gm := g.mod
		for j, gci := range g.callInfo {
			if j >= len(g.f.Calls) || gci.node == ci.node {
				continue
			}
			c := &g.f.Calls[j]
			args := gci.node.Child("arguments")
			if len(c.Targets) == 0 || len(c.Targets) > 3 || args == nil || !mentions(gm, args, res) {
				continue
			}
			for _, t := range c.Targets {
				h := b.funcs[t]
				carried := map[string]bool{}
				carryParams(gm, args, h, inputs, carried)
				if len(carried) == 0 {
					continue
				}
				if pos, ok := b.refills(h, carried); ok {
					fl.FeedsNext, fl.FeedPos = true, pos
					return
				}
			}
		}
	}
}

// feedsFromDispatch decides FeedsNext for a dispatch made in a helper of the set that is
// handed what holds the model call's input (kernel.invoke_function_call(function_call=fc,
// chat_history=chat_history), the model called with chat_history): the helper appends to that
// holder what it derived from the callable it selected by name (function_to_call =
// self.get_function(name) -> context(function=function_to_call) -> run -> result content ->
// chat_history.add_message(message=...)). Only what comes from the dispatched call counts:
// a helper appending anything else it computed to the holder feeds no tool result back.
func (b *builder) feedsFromDispatch(sc []*fnState, fl *ir.Flow, ci callInfo) {
	m := sc[0].mod
	inputs := identArgs(m, ci)
	if len(inputs) == 0 {
		return
	}
	inScope := map[int]bool{}
	for _, g := range sc {
		inScope[g.f.ID] = true
	}
	for _, d := range fl.Dispatch {
		if d.Func < 0 || d.Func >= len(b.funcs) || inScope[d.Func] || len(d.Calls) == 0 {
			continue // (a dispatch in the model call's own function feeds through feeds)
		}
		h := b.funcs[d.Func]
		holders := b.holderParams(sc, h, inputs)
		if len(holders) == 0 {
			continue
		}
		hm := h.mod
		outs := map[string]bool{}
		for _, ref := range d.Calls {
			if ref.Func != h.f.ID || ref.Call >= len(h.callInfo) {
				continue
			}
			for _, a := range h.assigns {
				if !a.iter && a.rhs != nil && rootedAlt(hm, a.rhs, h.callInfo[ref.Call].node) {
					for _, n := range a.lhs {
						outs[n] = true
					}
				}
			}
		}
		if len(outs) == 0 {
			continue
		}
		spreadAssigns(hm, h, outs, 4)
		for j, hci := range h.callInfo {
			if j >= len(h.f.Calls) {
				break
			}
			c := &h.f.Calls[j]
			fn := strip(unAwait(hm, hci.node.Child("function")))
			if !appendMeths[c.Method] || fn == nil || !hm.t.members.has(fn) || !mentions(hm, hci.node.Child("arguments"), outs) {
				continue
			}
			if recv := hm.text(strip(fn.Child("object"))); holders[recv] || holders[strings.SplitN(recv, ".", 2)[0]] {
				fl.FeedsNext, fl.FeedPos = true, c.Pos
				return
			}
		}
	}
}

// handedOn reports whether fs hands its parameter p as it is to a call other than a recursive
// one or an append (runLLM(request)): an input the function builds its step from, not the
// reply it decides on.
func handedOn(fs *fnState, p string) bool {
	m := fs.mod
	for j, ci := range fs.callInfo {
		if j >= len(fs.f.Calls) || fs.f.Calls[j].Recursive || appendMeths[fs.f.Calls[j].Method] {
			continue
		}
		if args := ci.node.Child("arguments"); args != nil {
			for _, a := range args.NamedChildren() {
				if a.Kind == "keyword_argument" {
					a = a.Child("value")
				}
				if a = strip(a); a != nil && m.t.idents.has(a) && m.text(a) == p {
					return true
				}
			}
		}
	}
	return false
}

// holderParams are the parameters of helper h that a call of it in sc hands one of inputs
// (by keyword or by position).
func (b *builder) holderParams(sc []*fnState, h *fnState, inputs map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, g := range sc {
		gm := g.mod
		for j, gci := range g.callInfo {
			if j >= len(g.f.Calls) || !slices.Contains(g.f.Calls[j].Targets, h.f.ID) {
				continue
			}
			args := gci.node.Child("arguments")
			if args == nil {
				continue
			}
			carryParams(gm, args, h, inputs, out)
		}
	}
	return out
}

// refills reports where helper h puts what the calls it makes filled back into one of the
// holders (its parameters named in holders): a collection bound to an empty literal, handed
// to a call of the set (which fills it), then it or what is built from it appended to a
// holder or handed to a holder's method that appends.
func (b *builder) refills(h *fnState, holders map[string]bool) (ir.Pos, bool) {
	m := h.mod
	outs := map[string]bool{}
	for _, a := range h.assigns {
		if a.iter || len(a.lhs) != 1 || a.rhs == nil {
			continue
		}
		if r := strip(a.rhs); r != nil && (r.Kind == "list" || r.Kind == "array" || r.Kind == "dictionary" || r.Kind == "object") && len(r.NamedChildren()) == 0 {
			for j, ci := range h.callInfo {
				if j < len(h.f.Calls) && len(h.f.Calls[j].Targets) > 0 && mentions(m, ci.node.Child("arguments"), map[string]bool{a.lhs[0]: true}) {
					outs[a.lhs[0]] = true
					break
				}
			}
		}
	}
	if len(outs) == 0 {
		return ir.Pos{}, false
	}
	spreadAssigns(m, h, outs, 2)
	for j, ci := range h.callInfo {
		if j >= len(h.f.Calls) {
			break
		}
		fn := strip(unAwait(m, ci.node.Child("function")))
		if fn == nil || !m.t.members.has(fn) || !mentions(m, ci.node.Child("arguments"), outs) {
			continue
		}
		recv := m.text(strip(fn.Child("object")))
		if !holders[recv] && !holders[strings.SplitN(recv, ".", 2)[0]] {
			continue
		}
		c := &h.f.Calls[j]
		if appendMeths[c.Method] {
			return c.Pos, true
		}
		for _, t := range c.Targets {
			for _, k := range scope(b.funcs[t]) {
				if len(k.index().appends) > 0 {
					return c.Pos, true
				}
			}
		}
	}
	return ir.Pos{}, false
}

func rootOf(s string) string {
	if i := strings.LastIndexByte(s, '.'); i > 0 {
		return s[:i]
	}
	return s
}

var transforms = mk("list", "tuple", "sorted", "reversed", "enumerate", "filter", "iter", "cast", "Array.from",
	"Object.values", "Object.entries", "next", "zip", "dict", "set", "json.loads", "JSON.parse", "copy.deepcopy",
	"copy.copy", "deepcopy", "structuredClone", "Promise.all", "Promise.allSettled",
	// reduce(lambda x, y: x + y, chunks): the chunks of a streamed reply folded into the whole
	"reduce", "functools.reduce")

// streamStages are the methods that pipe a stream through a stage object, with the name of
// the stage's method that takes each chunk (WHATWG streams: readable.pipeThrough(new
// TransformStream({ transform(chunk, controller) {…}, flush(controller) {…} }))).
var streamStages = map[string]string{"pipeThrough": "transform"}

// streamEnqueue is the method of a stream's controller that hands it a chunk (WHATWG streams:
// new ReadableStream({ pull(controller) { controller.enqueue(chunk) } })).
const streamEnqueue = "enqueue"

// derives reports whether the value of expr is (a part of) a value of vars: an attribute,
// element or method result of one, a conversion of one, a collection or choice holding one.
// A call that only receives a value (f(x)) makes something new and does not derive from it.
func derives(m *module, n *syntax.Node, vars map[string]bool, depth int) bool {
	n = strip(n)
	if n == nil || depth > 40 {
		return false
	}
	t := m.t
	switch {
	case t.idents.has(n) || n.Kind == "this":
		return vars[m.text(n)]
	case t.members.has(n):
		return vars[m.text(n)] || derives(m, n.Child("object"), vars, depth+1)
	case t.subscripts.has(n):
		return vars[m.text(n)] || derives(m, n.Child(t.subObj), vars, depth+1)
	case t.calls.has(n) || t.news.has(n):
		// (new Event(response.content): a constructor handed a part of the value, as a
		// Python Event(response.content) call)
		fn := unAwait(m, n.Child("function"))
		if fn != nil && t.members.has(fn) && derives(m, fn.Child("object"), vars, depth+1) {
			return true
		}
		args := n.Child("arguments")
		if fn != nil && transforms[m.text(fn)] {
			for _, a := range args.NamedChildren() {
				if derives(m, a, vars, depth+1) {
					return true
				}
			}
		}
		for _, a := range args.NamedChildren() {
			a = strip(a)
			if a != nil && a.Kind == "keyword_argument" {
				a = strip(a.Child("value"))
			}
			if a == nil {
				continue
			}
			switch {
			case t.members.has(a) || t.subscripts.has(a):
				// f(response.tool_calls): a part of the value, converted
			case a.Kind == "object" || a.Kind == "array" || a.Kind == "dictionary" || a.Kind == "list":
				// createMessage({ content: assembler.blocks() }): the parts, wrapped (a bare
				// variable in a list, complete([task]), is an input, not a part)
				if derivesPart(m, a, vars, depth+1) {
					return true
				}
				continue
			default:
				continue
			}
			if derives(m, a, vars, depth+1) {
				return true
			}
		}
		return false
	case t.lambdas.has(n) || t.funcs.has(n):
		return false
	case n.Kind == "binary_operator" || n.Kind == "unary_operator":
		return false // arithmetic makes a new number (a size, a ratio), not a part of the value
	case n.Kind == "binary_expression" && strings.Contains("+-*/%**<<>>&|^", m.text(n.Child("operator"))) &&
		m.text(n.Child("operator")) != "||" && m.text(n.Child("operator")) != "&&":
		return false
	}
	for _, c := range n.Children {
		if c.Named && derives(m, c, vars, depth+1) {
			return true
		}
	}
	return false
}

// fnIndex indexes a function's assignments and conditions by the names and attribute chains
// they mention, and lists its per-element method calls (map, forEach).
type fnIndex struct {
	assigns, conds map[string][]int
	each           []int
	// lookups are the subscripts and get/find/filter/next calls: where a name may select a
	// callable; appends the calls that grow a collection; byLHS the assignments by target.
	lookups []*syntax.Node
	appends []int
	// stages are the calls that pipe a stream through a stage (streamStages); enqueues
	// the calls that hand a chunk to a stream's controller
	stages, enqueues []int
	byLHS            map[string][]int
	// callArgs indexes the calls with targets in the set by the names in their arguments.
	callArgs map[string][]int
}

// condsMentioning lists the conditions that mention one of vars, in order.
func (g *fnState) condsMentioning(vars map[string]bool) []int {
	var out []int
	seen := map[int]bool{}
	for v := range vars {
		for _, ci := range g.index().conds[v] {
			if !seen[ci] {
				seen[ci] = true
				out = append(out, ci)
			}
		}
	}
	sort.Ints(out)
	return out
}

func (g *fnState) index() *fnIndex {
	if g.idx != nil {
		return g.idx
	}
	m := g.mod
	x := &fnIndex{assigns: map[string][]int{}, conds: map[string][]int{}}
	add := func(into map[string][]int, i int, n *syntax.Node) {
		var last string
		eachNode(m.t, n, func(c *syntax.Node) bool {
			if m.t.idents.has(c) || m.t.members.has(c) || c.Kind == "this" {
				txt := m.text(c)
				if txt != last {
					if l := into[txt]; len(l) == 0 || l[len(l)-1] != i {
						into[txt] = append(into[txt], i)
					}
					last = txt
				}
			}
			return true
		})
	}
	for i, a := range g.assigns {
		add(x.assigns, i, a.rhs)
	}
	for i, c := range g.conds {
		add(x.conds, i, c.expr)
	}
	x.callArgs = map[string][]int{}
	for j, ci := range g.callInfo {
		if j < len(g.f.Calls) && len(g.f.Calls[j].Targets) > 0 && len(g.f.Calls[j].Targets) <= 4 {
			add(x.callArgs, j, ci.node.Child("arguments"))
		}
	}
	x.byLHS = map[string][]int{}
	for i, a := range g.assigns {
		for _, n := range a.lhs {
			x.byLHS[n] = append(x.byLHS[n], i)
		}
	}
	for j, ci := range g.callInfo {
		if j >= len(g.f.Calls) {
			break
		}
		meth := g.f.Calls[j].Method
		if m.t.eachMethods[meth] {
			x.each = append(x.each, j)
		}
		if appendMeths[meth] || storeAppend.MatchString(meth) && len(g.f.Calls[j].Targets) == 0 {
			x.appends = append(x.appends, j)
		}
		if streamStages[meth] != "" {
			x.stages = append(x.stages, j)
		}
		if meth == streamEnqueue {
			x.enqueues = append(x.enqueues, j)
		}
		switch meth {
		case "get", "get_tool", "getTool", "lookup", "find", "filter", "next":
			x.lookups = append(x.lookups, ci.node)
		default:
			if isGetattr(m, ci.node) {
				x.lookups = append(x.lookups, ci.node)
			}
		}
	}
	eachNode(m.t, g.body, func(n *syntax.Node) bool {
		if m.t.subscripts.has(n) {
			x.lookups = append(x.lookups, n)
		}
		return true
	})
	sort.SliceStable(x.lookups, func(i, j int) bool { return x.lookups[i].Start < x.lookups[j].Start })
	g.idx = x
	return x
}

func sortStrings(s []string) { sort.Strings(s) }

func sortInts(s []int) { sort.Ints(s) }

// keyOfElem reports whether n, the name getattr looks up, is an element's name or is computed
// from an element (or a name of one) in g, through up to three local assignments:
// tool_name = tool.default_value("request"); handler = handler_name(type(tool), tool_name);
// getattr(self, handler, None) (langroid==0.69.16 agent/base.py:2365-2370). A method of the
// receiver picked by what the element carries is the element's dispatch.
func (b *builder) keyOfElem(g *fnState, n *syntax.Node, elems, names map[string]bool, depth int) bool {
	m := g.mod
	n = strip(n)
	if n == nil || depth > 3 {
		return false
	}
	if isNameExpr(m, n, elems, names) || mentions(m, n, union(elems, names)) {
		return true
	}
	if !m.t.idents.has(n) {
		// handler + "_async", f"tool_{name}": a local of the name inside the expression
		// (langroid==0.69.16 agent/base.py:2317 getattr(self, handler + "_async", None))
		found := false
		eachNode(m.t, n, func(c *syntax.Node) bool {
			if !found && c != n && m.t.idents.has(c) && b.keyOfElem(g, c, elems, names, depth+1) {
				found = true
			}
			return !found
		})
		return found
	}
	for _, ai := range g.index().byLHS[m.text(n)] {
		if a := g.assigns[ai]; !a.iter && a.rhs != nil && len(a.lhs) == 1 && b.keyOfElem(g, a.rhs, elems, names, depth+1) {
			return true
		}
	}
	return false
}

// isGetattr reports whether call n is Python's getattr(obj, name[, default]) with a name that
// is no string literal: an attribute looked up by a value, as a table is by a key.
func isGetattr(m *module, n *syntax.Node) bool {
	if m.t.lang != "python" || n == nil {
		return false
	}
	fn := strip(n.Child("function"))
	if fn == nil || !m.t.idents.has(fn) || m.text(fn) != "getattr" {
		return false
	}
	argl := n.Child("arguments")
	if argl == nil {
		return false
	}
	args := argl.NamedChildren()
	if len(args) < 2 || len(args) > 3 || args[0].Kind == "keyword_argument" || args[1].Kind == "keyword_argument" {
		return false
	}
	return !m.t.stringKinds.has(strip(args[1]))
}

// isNameProp reports whether a field names a tool call's callable.
func isNameProp(s string) bool {
	switch strings.ToLower(s) {
	case "name", "tool_name", "toolname", "function_name", "functionname", "tool":
		return true
	}
	return false
}

// follow traces a call's result (res: variables holding it or a part of it; elems: its
// elements) through the scope sc (a function and its closures): what derives from it, the
// tests of it, the dispatch of its elements by name. A value passed to a function of the set
// (a helper that decides or dispatches: processModelResponse(response)) is followed into
// that function's parameter, two calls deep.
func (b *builder) follow(fl *ir.Flow, sc []*fnState, res, elems map[string]bool, model *syntax.Node, depth int, seen map[int]bool) (names, toolVars map[string]bool) {
	m := sc[0].mod
	// derived values, over the scope: a worklist over the assignments that mention a
	// new value (indexed by the names and attribute chains they contain)
	queue := make([]string, 0, len(res)+len(elems))
	for n := range res {
		queue = append(queue, n)
	}
	for n := range elems {
		queue = append(queue, n)
	}
	sortStrings(queue)
	// the variables the call's result is assigned to (a helper handed one of them carries
	// the result on; one handed a value derived further, the next turn's input, does not)
	initial := union(res, nil)
	// carriers are the helpers handed the result here that return what they derived from it
	// (fl.Carriers at the top; in a helper's scope too, for the one action per reply below)
	var carriers []ir.CallRef
	streamElem := map[string]bool{}
	// outside are the callbacks, declared outside sc, that a per-element method of a
	// collection of the result runs (calls.map(runTool))
	var outside []eachKid
	outsideSeen := map[int]bool{}
	// chunkItem are the items of a collection of a stream's chunk (chunk.delta.tool_calls)
	chunkItem := map[string]bool{}
	// merged are the chunks a helper merges into a collection (that collection is the result)
	merged := map[string]bool{}
	// keyNames are the keys of an element that maps its tool's name to its arguments
	keyNames := map[string]bool{}
	for _, g := range sc {
		for _, a := range g.assigns {
			if !a.iter || a.loop < 0 {
				continue
			}
			// the chunks of a stream: items of an async iteration, or of a loop that drains
			// the call's own result (for chunk in completion)
			if g.f.Loops[a.loop].Kind == ir.LoopRangeIter || drainsCall(g, a.loop, model) {
				for _, n := range a.lhs {
					if elems[n] && !res[n] {
						streamElem[n] = true
					}
				}
			}
		}
	}
	for len(queue) > 0 && len(queue) < 10000 {
		v := queue[0]
		queue = queue[1:]
		if streamElem[v] || !res[v] {
			// a collection of an element's own (for msg in reply.messages: for call in
			// msg.tool_calls; for (const tc of chunk.delta.tool_calls ?? []) of a stream's
			// chunk): its items are elements too
			for _, g := range sc {
				for _, ai := range g.index().assigns[v] {
					// an element that is a mapping of its one tool's name to its arguments
					// (for action_name, params in action.model_dump(exclude_unset=True).items():
					// a pydantic action model with one field set; Object.entries(action)): the
					// key names the tool, the value is the element's own part
					if a := g.assigns[ai]; a.iter && len(a.lhs) == 2 && itemsOf(g.mod, a.rhs, v) && pairCalled(g, a.lhs[0], a.lhs[1]) {
						if k, val := a.lhs[0], a.lhs[1]; k != "_" && !elems[k] && !res[k] && !keyNames[k] {
							keyNames[k] = true
							if val != "_" && !elems[val] && !res[val] {
								elems[val] = true
							}
							fl.Iterated = append(fl.Iterated, g.mod.pos(a.node))
						}
						continue
					}
					if a := g.assigns[ai]; a.iter && (fieldOfAlt(g.mod, a.rhs, v) ||
						streamElem[v] && g.mod.text(strip(a.rhs)) == v && inDrain(g, a.loop, v)) {
						// (or a chunk that is itself a list, iterated in the loop that drains
						// the stream: async for messages in stream: for msg in messages, each
						// item a part of the streamed reply)
						for _, n := range a.lhs {
							if !elems[n] && !res[n] {
								elems[n] = true
								if streamElem[v] {
									chunkItem[n] = true
								}
								fl.Iterated = append(fl.Iterated, g.mod.pos(a.node))
								queue = append(queue, n)
							}
						}
					}
				}
			}
		}
		if streamElem[v] {
			// a stream's chunks collected into an accumulator (assembler.push(chunk)): the
			// accumulator holds the result
			one := map[string]bool{v: true}
			for _, g := range sc {
				for _, j := range g.index().appends {
					fn := strip(g.callInfo[j].node.Child("function"))
					if fn == nil || !g.mod.t.members.has(fn) || !mentions(g.mod, g.callInfo[j].node.Child("arguments"), one) {
						continue
					}
					if acc := g.mod.text(strip(fn.Child("object"))); !res[acc] && !elems[acc] {
						res[acc] = true
						queue = append(queue, acc)
					}
				}
				// a chunk's conversion is a chunk (delta = json.loads(chunk.model_dump_json()))
				for _, ai := range g.index().assigns[v] {
					if a := g.assigns[ai]; !a.iter && len(a.lhs) == 1 && derives(g.mod, a.rhs, one, 0) && !streamElem[a.lhs[0]] && !res[a.lhs[0]] {
						streamElem[a.lhs[0]], elems[a.lhs[0]] = true, true
						queue = append(queue, a.lhs[0])
					}
				}
				// merged by a helper of the set into a collection the function built
				// (merge_chunk(message, delta) with message = {...}): the collection holds it
				// or by a function outside the set (mergeAgentResponseChunk(modelOutput, value)
				// of a utils module not mapped, Object.assign(message, delta))
				cands := g.index().callArgs[v]
				for j := range g.callInfo {
					if j < len(g.f.Calls) && len(g.f.Calls[j].Targets) == 0 && !appendMeths[g.f.Calls[j].Method] && mentions(g.mod, g.callInfo[j].node.Child("arguments"), one) {
						cands = append(cands, j)
					}
				}
				for _, j := range cands {
					if acc := b.mergedInto(g, j, v); acc != "" && !res[acc] && !elems[acc] {
						res[acc] = true
						merged[v] = true
						queue = append(queue, acc)
					}
				}
			}
			continue
		}
		if !res[v] {
			// an element renamed as it is (const functionToolCall = tool_call, the TS cast
			// `tool_call as ChatCompletionMessageFunctionToolCall` compiled away: multi-llm-ts@5.1.1
			// dist/index.js:1537): the new name is the element
			// (only a loop variable's, in its own function: a parameter a helper is handed,
			// renamed there, stays a value the helper reads)
			for _, g := range sc {
				looped := false
				for _, byl := range g.index().byLHS[v] {
					looped = looped || g.assigns[byl].iter
				}
				if !looped {
					continue
				}
				for _, ai := range g.index().assigns[v] {
					if a := g.assigns[ai]; !a.iter && len(a.lhs) == 1 && g.mod.text(strip(a.rhs)) == v {
						if n := a.lhs[0]; n != v && !elems[n] && !res[n] {
							elems[n] = true
							queue = append(queue, n)
						}
					}
				}
			}
			// elements are not followed further (their names are, below; their own
			// collections above), but for an item of a stream chunk's collection collected
			// as it is into a local list (for (const tc of chunk.delta.tool_calls ?? [])
			// calls.push(tc)): the list holds the streamed reply's elements, iterated
			// after the stream ends (for (const call of calls))
			for _, g := range sc {
				if !chunkItem[v] {
					break
				}
				for _, j := range g.index().appends {
					fn := strip(g.callInfo[j].node.Child("function"))
					args := g.callInfo[j].node.Child("arguments").NamedChildren()
					if fn == nil || !g.mod.t.members.has(fn) || len(args) != 1 || g.mod.text(strip(args[0])) != v {
						continue
					}
					if obj := strip(fn.Child("object")); obj != nil && g.mod.t.idents.has(obj) && g.mod.text(obj) != g.mod.t.self {
						if acc := g.mod.text(obj); !res[acc] && !elems[acc] {
							res[acc] = true
							queue = append(queue, acc)
						}
					}
				}
			}
			continue
		}
		one := map[string]bool{v: true}
		for _, g := range sc {
			for _, ai := range g.index().assigns[v] {
				a := g.assigns[ai]
				if !derives(m, a.rhs, one, 0) && (!b.helperOf(g, a.rhs, one) || backEdgeOnly(g, a, model, v)) {
					continue
				}
				if r := b.reachingBind(g, v, a.node); r >= 0 && g.assigns[r].node.Kind == "with_item" && !b.bindCarries(g, g.assigns[r], model, res) && b.boundToResult(g, v, model, res) {
					continue // v rebound there to another value (the next async with ... as agen)
				}
				if initial[v] && b.helperOf(g, a.rhs, one) {
					// a helper handed the result returns what it derived from it (content =
					// await convert({ content: response.content })): it carries the result
					// on, it is no model call of its own
					ref := ir.CallRef{Func: g.f.ID, Call: g.callOf[strip(a.rhs)]}
					if !slices.Contains(carriers, ref) {
						carriers = append(carriers, ref)
					}
					if depth == 0 && !slices.Contains(fl.Carriers, ref) {
						fl.Carriers = append(fl.Carriers, ref)
					}
				}
				for _, n := range a.lhs {
					if a.iter && !res[n] && m.text(strip(a.rhs)) == v && outlives(g, a, n) {
						// the result drained (for output in output_stream) and its last
						// item read after the loop: that item is the result (see outlives)
						res[n], elems[n] = true, true
						fl.Iterated = append(fl.Iterated, m.pos(a.node))
						fl.Delivery = "iterator"
						queue = append(queue, n)
					} else if a.iter {
						if !elems[n] {
							elems[n] = true
							fl.Iterated = append(fl.Iterated, m.pos(a.node))
							if a.loop >= 0 && (g.f.Loops[a.loop].Kind == ir.LoopRangeIter || drainsCall(g, a.loop, model)) {
								streamElem[n] = true
							}
							queue = append(queue, n)
						}
					} else if !res[n] && !appendLike(m, a) {
						res[n] = true
						queue = append(queue, n)
					}
				}
			}
			for _, j := range g.index().each {
				gc := g.callInfo[j]
				recv := strip(unAwait(m, gc.node.Child("function")))
				if recv == nil || !m.t.members.has(recv) || !derives(m, recv.Child("object"), one, 0) {
					continue
				}
				for _, kid := range g.f.Calls[j].ArgFuncs {
					k := b.funcs[kid]
					for _, p := range k.f.Params {
						if !slices.Contains(sc, k) && p.Name != "" && !strings.ContainsAny(p.Name, "{[") && !outsideSeen[k.f.ID] {
							// calls.map(runTool) with runTool declared outside the scope (a
							// function of the module or of another): followed as a helper
							// handed each element, as runTool(call) would be
							outsideSeen[k.f.ID] = true
							outside = append(outside, eachKid{g: g, call: j, kid: k, param: p.Name})
						}
						if !elems[p.Name] {
							elems[p.Name] = true
							fl.Iterated = append(fl.Iterated, m.pos(gc.node))
						}
						break
					}
				}
			}
			// new ReadableStream({ async pull(controller) { … controller.enqueue(value) } }): a
			// stream whose source enqueues a value of the result carries the result on
			for _, j := range g.index().enqueues {
				if !mentions(m, g.callInfo[j].node.Child("arguments"), one) {
					continue
				}
				for _, h := range sc {
					for ci := range h.f.Calls {
						// (only the call's ArgFuncs: another worker may be setting its Flow)
						af := h.f.Calls[ci].ArgFuncs
						if !contains(af, g.f.ID) && (g.parent == nil || !contains(af, g.parent.f.ID)) {
							continue
						}
						node := h.callInfo[ci].node
						if !m.t.news.has(node) {
							continue
						}
						for _, a := range h.assigns {
							if a.iter || a.rhs == nil || strip(a.rhs) != node {
								continue
							}
							for _, n := range a.lhs {
								if !res[n] {
									// (the result again, re-read: a helper handed it
									// carries it on)
									res[n], initial[n] = true, true
									queue = append(queue, n)
								}
							}
						}
					}
				}
			}
			// stream.pipeThrough(new TransformStream({ transform(chunk, controller) {…} })):
			// the stage's transform takes the stream's chunks
			for _, j := range g.index().stages {
				fn := strip(unAwait(m, g.callInfo[j].node.Child("function")))
				if fn == nil || !m.t.members.has(fn) || !derives(m, fn.Child("object"), one, 0) {
					continue
				}
				for _, a := range g.callInfo[j].node.Child("arguments").NamedChildren() {
					id, ok := g.callOf[strip(a)]
					if !ok {
						continue
					}
					for _, kid := range g.f.Calls[id].ArgFuncs {
						k := b.funcs[kid]
						if k.name != streamStages[g.f.Calls[j].Method] || len(k.f.Params) == 0 {
							continue
						}
						if p := k.f.Params[0].Name; p != "" && !elems[p] && !res[p] {
							elems[p], streamElem[p] = true, true
							fl.Iterated = append(fl.Iterated, m.pos(g.callInfo[j].node))
							queue = append(queue, p)
						}
					}
				}
			}
			// mapWithConcurrency({ items: calls, execute: async (call) => … }): a callback a
			// helper applies per element of what it is handed with it takes the elements
			if len(g.perElem) > 0 {
				js := make([]int, 0, len(g.perElem))
				for j := range g.perElem {
					js = append(js, j)
				}
				sort.Ints(js)
				for _, j := range js {
					for _, pe := range g.perElem[j] {
						if !derives(m, pe.coll, one, 0) || len(pe.kid.f.Params) == 0 {
							continue
						}
						if p := pe.kid.f.Params[0].Name; p != "" && !strings.ContainsAny(p, "{[") && !elems[p] {
							elems[p] = true
							fl.Iterated = append(fl.Iterated, m.pos(g.callInfo[j].node))
						}
					}
				}
			}
		}
	}
	// the elements that may be tool calls: not the chunks merged into a collection (that
	// collection is); elements rebuilt as new objects (ToolCall(id=tc["id"], ...)) appended
	// to a collection make it hold the result's elements
	de := map[string]bool{}
	for n := range elems {
		if !merged[n] {
			de[n] = true
		}
	}
	// one action per reply (a text parsed into an action or a finish: answer = parse(text);
	// while not isinstance(answer, Finish)): what a helper makes of the result that is tested
	// for its type is the one element that may be a tool call
	acts, parts := map[string]bool{}, map[string]bool{}
	// (hparts: the parts of a helper's carrier, read below only for an item of them)
	hparts := map[string]bool{}
	for _, ref := range fl.Carriers {
		if !slices.Contains(carriers, ref) {
			carriers = append(carriers, ref)
		}
	}
	for _, ref := range carriers {
		top := slices.Contains(fl.Carriers, ref)
		for _, g := range sc {
			if g.f.ID != ref.Func || ref.Call >= len(g.callInfo) {
				continue
			}
			call := g.callInfo[ref.Call].node
			for _, a := range g.assigns {
				if top && !a.iter && len(a.lhs) == 1 && a.rhs != nil && strip(a.rhs) == call && kindTested(g, a.lhs[0]) {
					de[a.lhs[0]] = true
					acts[a.lhs[0]] = true
				}
				// has_action, action, action_input, thought = self._detect_tool(text); if not
				// has_action: break — the parsed action unpacked beside a flag whose negative
				// test leaves: the other parts are the one action's (its tool name, input)
				if !a.iter && len(a.lhs) > 1 && a.rhs != nil && strip(a.rhs) == call && b.leavingFlag(g, a.lhs) != "" {
					flag := b.leavingFlag(g, a.lhs)
					for _, n := range a.lhs {
						if n != flag && n != "_" {
							if !top {
								hparts[n] = true
								continue
							}
							de[n], parts[n] = true, true
						}
					}
				}
			}
		}
	}
	rebuilt := map[string]bool{}
	for range 2 {
		if len(de) == 0 {
			break // nothing to rebuild from (mentions of an empty set are false)
		}
		for _, g := range sc {
			for _, a := range g.assigns {
				if a.iter || len(a.lhs) != 1 || de[a.lhs[0]] || rebuilt[a.lhs[0]] || res[a.lhs[0]] || a.rhs == nil {
					continue
				}
				if r := strip(a.rhs); (g.mod.t.calls.has(r) || g.mod.t.news.has(r)) && isTypeName(lastSeg(calleeText(g.mod, r))) &&
					(mentions(g.mod, r.Child("arguments"), de) || mentions(g.mod, r.Child("arguments"), rebuilt)) {
					rebuilt[a.lhs[0]] = true
				}
			}
		}
	}
	for _, g := range sc {
		for _, j := range g.index().appends {
			fn := strip(g.callInfo[j].node.Child("function"))
			args := g.callInfo[j].node.Child("arguments").NamedChildren()
			if fn == nil || !g.mod.t.members.has(fn) || len(args) != 1 || !rebuilt[g.mod.text(strip(args[0]))] {
				continue
			}
			if acc := g.mod.text(strip(fn.Child("object"))); !res[acc] && !de[acc] {
				res[acc] = true
			}
		}
	}
	all := union(res, elems)
	for _, g := range sc {
		b.checks(g, fl, all, nil)
	}
	// if parsed.final: return parsed.answer: a flag of the one action per reply whose
	// branch leaves is the finish, the test that ends the loop
	for _, g := range sc {
		for _, v := range sortedKeys(acts) {
			for _, ci := range g.index().conds[v] {
				c := g.conds[ci]
				if c.loop >= 0 || c.stmt == nil || !g.mod.t.ifs.has(c.stmt) || !fieldOf(g.mod, c.expr, v) {
					continue
				}
				lv, ret := b.leaves(g, c.stmt.Child("consequence"))
				if !lv {
					continue
				}
				pos, found := g.mod.pos(c.expr), false
				for i := range fl.Checked {
					if ch := &fl.Checked[i]; ch.Func == g.f.ID && ch.Pos == pos {
						ch.Leaves, ch.Return, found = true, ret, true
					}
				}
				if !found {
					fl.Checked = append(fl.Checked, ir.Check{Pos: pos, Text: clip(g.mod.text(c.expr), 80), Return: ret, Func: g.f.ID, Leaves: true})
				}
			}
		}
	}
	if len(de) == 0 {
		// one call per reply (the legacy function_call: if (!message.function_call) return;
		// const { name } = message.function_call): a member of the result whose absence ends
		// the loop, when the result holds no collection, is the one element that may be a
		// tool call
		for _, ch := range fl.Checked {
			if !ch.Leaves || ch.Indirect || ch.State {
				continue
			}
			for _, g := range sc {
				if g.f.ID != ch.Func {
					continue
				}
				for _, c := range g.conds {
					if c.expr == nil || g.mod.pos(c.expr) != ch.Pos {
						continue
					}
					if x := negated(g.mod, c.expr); x != nil && g.mod.t.members.has(x) && derives(g.mod, x.Child("object"), res, 0) &&
						namedIn(sc, g.mod.text(x)) {
						de[g.mod.text(x)] = true
					}
				}
			}
		}
	}
	// pred = module(...); self.tools[pred.next_tool_name](**pred.next_tool_args); if
	// pred.next_tool_name == "finish": break — the result itself is the one action of the
	// step when a field of it keys a table and a field of it is tested in the loop
	for _, g := range sc {
		for _, n := range g.index().lookups {
			if !g.mod.t.subscripts.has(n) {
				continue
			}
			idx := strip(n.Child(g.mod.t.subIndex))
			if idx == nil || !g.mod.t.members.has(idx) {
				continue
			}
			if v := g.mod.text(strip(idx.Child("object"))); initial[v] && !de[v] && len(de) == 0 && kindTested(g, v) {
				acts[v], de[v] = true, true
			}
		}
	}
	// _, current_reasoning, is_done = self._extract_reasoning_step(output); if is_done:
	// return …; reasoning_step = cast(ActionReasoningStep, current_reasoning[-1]): an item of
	// such a part (the parsed steps the helper collected) is the one action
	// (llama-index-core==0.12.52.post1 agent/react/step.py:274-287)
	for _, g := range sc {
		if len(parts) == 0 && len(hparts) == 0 {
			break
		}
		for _, a := range g.assigns {
			if !a.iter && len(a.lhs) == 1 && a.rhs != nil && !de[a.lhs[0]] && itemOfAny(g.mod, a.rhs, union(parts, hparts)) {
				de[a.lhs[0]], acts[a.lhs[0]] = true, true
			}
		}
	}
	elems = de
	names = map[string]bool{}
	for n := range parts {
		names[n] = true
	}
	for n := range keyNames {
		names[n] = true
	}
	for _, g := range sc {
		if len(elems) == 0 {
			break
		}
		var cand []int
		for v := range union(elems, names) {
			cand = append(cand, g.index().assigns[v]...)
		}
		sort.Ints(cand)
		for _, ai := range cand {
			a := g.assigns[ai]
			if a.iter || a.rhs == nil {
				continue
			}
			if isNameExpr(m, a.rhs, elems, names) {
				for _, n := range a.lhs {
					names[n] = true
				}
			} else if mentions(m, a.rhs, elems) {
				for _, n := range a.lhs {
					if isNameProp(lastSeg(n)) {
						names[n] = true
					}
				}
			}
		}
	}
	// req = CallToolRequest(params=CallToolRequestParams(name=tool_name, ...)): a value built
	// by a constructor from an element's name carries the name on; the call it is handed to
	// (self.call_tool(request=req)) receives the name (see carriesName)
	for round := 0; round < 3 && len(names) > 0; round++ {
		grew := false
		for _, g := range sc {
			var cand []int
			for v := range names {
				cand = append(cand, g.index().assigns[v]...)
			}
			sort.Ints(cand)
			for _, ai := range cand {
				a := g.assigns[ai]
				if a.iter || a.rhs == nil || len(a.lhs) != 1 || names[a.lhs[0]] {
					continue
				}
				if carriesName(g.mod, a.rhs, elems, names, 0) {
					names[a.lhs[0]] = true
					grew = true
				}
			}
		}
		if !grew {
			break
		}
	}
	// TOOLS[parsed.action](parsed.action_input): a field of the one action per reply, whatever
	// it is called, that keys a table is the action's tool name
	for _, g := range sc {
		for _, n := range g.index().lookups {
			if !g.mod.t.subscripts.has(n) {
				continue
			}
			idx := strip(n.Child(g.mod.t.subIndex))
			if idx != nil && g.mod.t.members.has(idx) && acts[g.mod.text(strip(idx.Child("object")))] {
				names[g.mod.text(idx)] = true
			}
		}
	}
	var toolCalls []ir.CallRef
	toolVars = map[string]bool{}
	selects := false
	for _, g := range sc {
		if len(elems) == 0 && len(names) == 0 {
			break // a dispatch selects by an element's name
		}
		ds := b.dispatch(g, elems, names, model)
		if depth > 0 {
			// a helper's lookup of a definition whose fields it only reads selects nothing
			// to run: the name passed on to the helper that runs the tool still dispatches
			kept := ds[:0:0]
			for _, d := range ds {
				if !b.readOnlyLookup(g, d) {
					kept = append(kept, d)
				}
			}
			ds = kept
		}
		for _, d := range ds {
			toolCalls = append(toolCalls, d.Calls...)
			// (a helper's lookup whose callable runs where its caller uses what it hands
			// back: handsOn names that call; the name passed to other helpers selects nothing)
			selects = selects || d.How == "map_lookup" && depth > 0
		}
		fl.Dispatch = append(fl.Dispatch, ds...)
	}
	if len(toolCalls) == 0 && !selects && len(elems) > 0 && depth < maxFollow*followUnit {
		// an element handed to a helper (element_arg, name_arg) counts only within two
		// helpers of the result: deeper, every helper that reads a tool call would
		for _, g := range sc {
			for _, d := range b.argDispatch(g, elems, names, model) {
				if d.How == "element_arg" && depth%followUnit != 0 {
					continue // an element handed on through wrappers: only its lookup by name counts
				}
				fl.Dispatch = append(fl.Dispatch, d)
			}
		}
	}
	if len(fl.Dispatch) == 0 && !selects {
		for _, g := range sc {
			fl.Dispatch = append(fl.Dispatch, b.batchDispatch(g, fl, initial, model)...)
		}
	}
	for _, d := range fl.Dispatch {
		for _, ref := range d.Calls {
			node := b.funcs[ref.Func].callInfo[ref.Call].node
			assignsContaining(sc, node, toolVars)
		}
	}
	if depth < maxFollow*followUnit {
		for _, node := range b.followCalls(fl, sc, union(res, elems), elems, res, depth, seen) {
			// what a helper that received the result returns: the tools' results
			// (executed = await executeToolCalls(context, message))
			assignsContaining(sc, node, toolVars)
		}
		for _, x := range outside {
			if seen[x.kid.f.ID] {
				continue
			}
			seen[x.kid.f.ID] = true
			part := b.followHelper(x.kid, map[string]bool{}, map[string]bool{x.param: true}, depth+followUnit)
			if b.mergeHelper(fl, part, x.g, x.call) {
				// what the per-element calls return: the tools' results
				// (results = await Promise.all(calls.map(runTool)))
				assignsContaining(sc, x.g.callInfo[x.call].node, toolVars)
			}
		}
	}
	return names, toolVars
}

// readOnlyLookup reports whether d is a map lookup of g that runs nothing and whose value,
// kept in locals, is only tested and has fields read (tool_def = tool_defs.get(tc.tool_name);
// if tool_def and tool_def.sequential: ...; "description": tool_def.description if tool_def
// else ""): the tool's definition consulted for its metadata, not the callable — the call
// that runs the tool is handed the name elsewhere (target = self._resolve_tool_manager(
// tool_call.tool_name); await target.execute_tool(...), upsonic==0.77.3 agent/agent.py:2358,
// 2514, 2551). A lookup used in place (returned, passed on, called) or whose local is called,
// passed or returned is no read-only lookup.
func (b *builder) readOnlyLookup(g *fnState, d ir.Dispatch) bool {
	if d.How != "map_lookup" || len(d.Calls) > 0 || g.node == nil {
		return false
	}
	m := g.mod
	t := m.t
	sel := g.lookupNode(&d)
	if sel == nil {
		return false
	}
	vars := map[string]bool{}
	for _, a := range g.assigns {
		if a.rhs != nil && !a.iter && len(a.lhs) == 1 && strip(a.rhs) == sel {
			vars[a.lhs[0]] = true
		}
	}
	if len(vars) == 0 {
		return false
	}
	ok := true
	eachNode(t, g.node, func(x *syntax.Node) bool {
		if ok && t.idents.has(x) && vars[m.text(x)] && !readOnlyUse(m, x) {
			ok = false
		}
		return ok
	})
	return ok
}

// readOnlyUse reports whether identifier x is bound there (the left side of an assignment),
// tested (an if or ternary condition, an operand of not or of a comparison, or of an and/or
// that is itself tested) or the object of a field read that is not called. An operand of an
// and/or/?? whose value is kept (tool = override ?? registered) is handed on.
func readOnlyUse(m *module, x *syntax.Node) bool {
	t := m.t
	c, p := x, x.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		c, p = p, p.Parent
	}
	switch {
	case p == nil:
		return false
	case (t.assigns.has(p) && p.Child("left") == c) || (t.declarators.has(p) && p.Child("name") == c):
		return true
	case t.members.has(p):
		if p.Child("object") != c {
			return true // (x is the field's name: other.tool_def)
		}
		gp := p.Parent
		return !(t.calls.has(gp) && gp.Child("function") == p)
	case t.bools.has(p):
		return readOnlyUse(m, p)
	case t.compares.has(p):
		if op := p.Child("operator"); op != nil {
			switch m.text(op) {
			case "&&", "||", "??":
				return readOnlyUse(m, p)
			}
		}
		return true
	case t.nots.has(p):
		return true
	case t.ifs.has(p) || t.whiles.has(p):
		return p.Child("condition") == c
	case t.ternaries.has(p):
		if t.ternCond != "" {
			return p.Child(t.ternCond) == c
		}
		k := p.NamedChildren()
		return len(k) == 3 && k[1] == c
	}
	return false
}

// eachKid is a callback declared outside a flow's scope that call call of g (a per-element
// method of a collection: calls.map(runTool)) runs on each element, its parameter param
// taking the element.
type eachKid struct {
	g     *fnState
	call  int
	kid   *fnState
	param string
}

// into lists the calls of functions of the set in sc (but call itself) that are handed a
// value of res as an argument and whose result is not assigned (see ir.Flow.Into), and the
// calls, kept or not, made on an object derived from res: a step hook's result choosing the
// model the step then asks (stepModel = resolveLanguageModel(prepareStepResult?.model ??
// model); const result = await stepModel.doGenerate({…}) in a closure: ai@6.0.325
// dist/index.js:4869-4979).
func (b *builder) into(sc []*fnState, res map[string]bool, call *syntax.Node) []ir.CallRef {
	out := b.intoDirect(sc, res, call)
	for _, g := range sc {
		m := g.mod
		for j, ci := range g.callInfo {
			if ci.node == call || !m.t.calls.has(ci.node) {
				continue
			}
			fn := unAwait(m, ci.node.Child("function"))
			if fn == nil || !m.t.members.has(fn) {
				continue
			}
			obj := strip(fn.Child("object"))
			if obj == nil || !m.t.idents.has(obj) || !res[m.text(obj)] || !resolvedBy(sc, m.text(obj), call, res) {
				continue // (only a value a call resolved from what the result chose, not the result itself)
			}
			if ref := (ir.CallRef{Func: g.f.ID, Call: j}); !slices.Contains(out, ref) {
				out = append(out, ref)
			}
		}
	}
	return out
}

// resolvedBy reports whether name is assigned, in one of sc or a function they are written
// in, the result of a call other than call that is no method of a value of res
// (stepModel = resolveLanguageModel(prepareStepResult?.model ?? model), not toolCalls =
// response.output.filter(…)).
func resolvedBy(sc []*fnState, name string, call *syntax.Node, res map[string]bool) bool {
	for _, f := range sc {
		for g := f; g != nil; g = g.parent {
			for _, ai := range g.index().byLHS[name] {
				a := g.assigns[ai]
				if len(a.lhs) != 1 || a.iter || a.rhs == nil {
					continue
				}
				r := unAwait(g.mod, strip(a.rhs))
				if r == nil || r == call || !g.mod.t.calls.has(r) {
					continue
				}
				if fn := strip(r.Child("function")); fn != nil && g.mod.t.members.has(fn) && derives(g.mod, fn.Child("object"), res, 0) {
					continue
				}
				return true
			}
		}
	}
	return false
}

// intoDirect is into's first part: the calls handed a value of res whose result is not kept.
func (b *builder) intoDirect(sc []*fnState, res map[string]bool, call *syntax.Node) []ir.CallRef {
	var out []ir.CallRef
	for _, g := range sc {
		m := g.mod
		var cand []int
		for v := range res {
			cand = append(cand, g.index().callArgs[v]...)
		}
		sort.Ints(cand)
		last := -1
		for _, j := range cand {
			if j == last || j >= len(g.callInfo) {
				continue
			}
			last = j
			node := g.callInfo[j].node
			if node == call {
				continue
			}
			kept := false
			for _, a := range g.assigns {
				if a.rhs != nil && !a.iter && strip(a.rhs) == node {
					kept = true
					break
				}
			}
			if kept {
				continue
			}
			for _, a := range node.Child("arguments").NamedChildren() {
				if a.Kind == "keyword_argument" {
					a = a.Child("value")
				}
				if a != nil && (derives(m, a, res, 0) || a.Kind == "object" && derivesPart(m, a, res, 0)) {
					out = append(out, ir.CallRef{Func: g.f.ID, Call: j})
					break
				}
			}
		}
	}
	return out
}

// followCalls follows values passed as arguments into the functions called with them.
func (b *builder) followCalls(fl *ir.Flow, sc []*fnState, vals, elems, res map[string]bool, depth int, seen map[int]bool) []*syntax.Node {
	var followed []*syntax.Node
	for _, g := range sc {
		// first what reads the value where it is kept, so that the same method, also handed
		// some other part of the value, is followed for the field
		followed = append(followed, b.followFields(fl, g, vals, depth, seen)...)
		m := g.mod
		var cand []int
		for v := range vals {
			cand = append(cand, g.index().callArgs[v]...)
		}
		sort.Ints(cand)
		last := -1
		for _, j := range cand {
			if j == last {
				continue
			}
			last = j
			ci := g.callInfo[j]
			c := &g.f.Calls[j]
			if len(c.Targets) == 0 || len(c.Targets) > 4 || appendMeths[c.Method] {
				continue
			}
			args := ci.node.Child("arguments").NamedChildren()
			for _, t := range c.Targets {
				if seen[t] {
					continue
				}
				tg := b.funcs[t]
				// every argument that carries the value, mapped to the helper's parameters
				// (the message and its tool calls are often handed over side by side)
				r2, e2 := map[string]bool{}, map[string]bool{}
				// a deferred call handed the function and its arguments side by side
				// (executor.submit(self._execute_single_function_call, call),
				// functools.partial(f, tc), asyncio.to_thread(f, x), loop.run_in_executor(None,
				// f, x)): the arguments after the function are its parameters, in order
				shift := handedFunc(m, c, ci.node, args, tg)
				for i, a := range args {
					if shift >= 0 {
						if i <= shift {
							continue
						}
						i -= shift + 1
					}
					if a.Kind == "object" && i < len(tg.patNames) && tg.patNames[i] != nil {
						// f({ toolCalls: calls.filter(...), tools }) into f({ toolCalls, tools }):
						// each option to the name the parameter binds it to
						for _, pr := range a.NamedChildren() {
							var key string
							var v *syntax.Node
							switch pr.Kind {
							case "pair":
								key, v = strings.Trim(m.text(pr.Child("key")), `"'`), pr.Child("value")
							case "shorthand_property_identifier":
								key, v = m.text(pr), pr
							default:
								continue
							}
							local := tg.patNames[i][key]
							if local == "" || v == nil || !derives(m, v, vals, 0) {
								continue
							}
							if elems[m.text(strip(v))] {
								e2[local] = true
							} else {
								r2[local] = true
							}
						}
						continue
					}
					key := ""
					if a.Kind == "keyword_argument" {
						key = m.text(a.Child("name"))
						a = a.Child("value")
					}
					if a == nil || !derives(m, a, vals, 0) {
						continue
					}
					name := ""
					switch {
					case key != "":
						if tg.params[key] {
							name = key
						}
					case i < len(tg.f.Params):
						name = tg.f.Params[i].Name
					}
					if name == "" || strings.Contains(name, "{") {
						continue
					}
					if elems[m.text(strip(a))] {
						e2[name] = true
						if res[m.text(strip(a))] {
							// an item a generator of the set yields is a whole result
							// (async for response in self._call_llm(...)): followed as both
							r2[name] = true
						}
					} else {
						r2[name] = true
					}
				}
				if len(r2) == 0 && len(e2) == 0 {
					continue
				}
				seen[t] = true
				step := followUnit
				if len(r2) == 0 && depth%followUnit < maxPassOn && (c.Concurrent != "" || streams(tg)) && passesElems(m, args, e2, elems) {
					// the element handed on as it is (a task started per tool call, a
					// tracing wrapper around the call): the same element, one more hop
					step = 1
				}
				if b.mergeHelper(fl, b.followHelper(tg, r2, e2, depth+step), g, j) {
					followed = append(followed, ci.node)
				}
			}
		}
	}
	return followed
}

// handedFunc returns the index of the argument of call c (node n, arguments args) that is
// the function tg it runs later with the arguments after it (a concurrent launch or a
// functools.partial: executor.submit(fn, x), partial(fn, x)); -1 when tg is called directly.
func handedFunc(m *module, c *ir.Call, n *syntax.Node, args []*syntax.Node, tg *fnState) int {
	if !concurrentTask[c.Method] && !boundCalls[calleeText(m, n)] {
		return -1
	}
	name := lastSeg(tg.f.Name)
	for i, a := range args {
		if i > 1 || a.Kind == "keyword_argument" {
			break
		}
		if a = strip(a); (m.t.idents.has(a) || m.t.members.has(a)) && lastSeg(m.text(a)) == name {
			return i
		}
	}
	return -1
}

// followFields follows a value stored in a field of the receiver into the methods of the
// receiver g calls with no argument carrying it that read that field: self.pending_message =
// result; … self.response(r) whose body hands self.pending_message to the responder
// (langroid==0.69.16 agent/task.py:1316 and 1639, the LLM's reply kept as the task's pending
// message for the next responder). The field keeps its name in the method (the same self),
// and the value is handed on as it is: a pass-on (maxPassOn), not a helper's derivation.
func (b *builder) followFields(fl *ir.Flow, g *fnState, vals map[string]bool, depth int, seen map[int]bool) []*syntax.Node {
	if g.cls == nil {
		return nil
	}
	kept := b.keptFields(g, vals)
	if len(kept) == 0 {
		return nil
	}
	fields := make([]string, 0, len(kept))
	for f := range kept {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	var followed []*syntax.Node
	for j := range g.callInfo {
		if j >= len(g.f.Calls) || !selfCall(g, j) {
			continue
		}
		c := &g.f.Calls[j]
		if len(c.Targets) == 0 || len(c.Targets) > 3 || appendMeths[c.Method] {
			continue
		}
		for _, t := range c.Targets {
			tg := b.funcs[t]
			if seen[t] || tg.cls == nil {
				continue
			}
			r2 := map[string]bool{}
			for _, f := range fields {
				if readsField(tg, f) {
					r2[f] = true
				}
			}
			if len(r2) == 0 {
				continue
			}
			seen[t] = true
			step := followUnit
			if depth%followUnit < maxPassOn {
				step = 1 // the value itself, handed on through the receiver
			}
			if b.mergeHelper(fl, b.followHelper(tg, r2, map[string]bool{}, depth+step), g, j) {
				followed = append(followed, g.callInfo[j].node)
			}
		}
	}
	return followed
}

// feedsField marks the flow of call j of fs fed back when the call is a method of the receiver
// that reads a field the result is kept in (self.pending_message = result; the next
// self.response(r) hands self.pending_message to the responder: langroid==0.69.16
// agent/task.py:1316 and 1639): the tools ran inside the call, on what an earlier call of it
// returned, and what they returned is what the next call of it reads.
func (b *builder) feedsField(fs *fnState, j int, fl *ir.Flow, res map[string]bool) {
	if fs.cls == nil || !selfCall(fs, j) {
		return
	}
	c := &fs.f.Calls[j]
	if len(c.Targets) == 0 || len(c.Targets) > 3 {
		return
	}
	kept := b.keptFields(fs, res)
	fields := make([]string, 0, len(kept))
	for f := range kept {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		if kept[f] == (ir.Pos{}) {
			continue
		}
		for _, t := range c.Targets {
			if tg := b.funcs[t]; tg.cls != nil && readsField(tg, f) {
				fl.FeedsNext, fl.FeedPos, fl.Kept = true, kept[f], true
				return
			}
		}
	}
}

// keptFields returns the fields of the receiver (self.x) that a value of vals is kept in, in
// g's scope or by a method of the receiver g hands it to (self._process_valid_responder_result(
// r, parent, result) storing self.pending_message = result: langroid==0.69.16
// agent/task.py:1322 and 1490), each with where it is stored.
func (b *builder) keptFields(g *fnState, vals map[string]bool) map[string]ir.Pos {
	m := g.mod
	prefix := m.t.self + "."
	field := func(s string) bool {
		return strings.HasPrefix(s, prefix) && !strings.ContainsAny(s[len(prefix):], ".[(")
	}
	out := map[string]ir.Pos{}
	for v := range vals {
		if field(v) || m.t.lang == "python" && strings.HasPrefix(v, prefix) && strings.Count(v, ".") == 2 && !strings.ContainsAny(v, "[(") {
			// (self.state.last_model_output: a field of the state object the receiver
			// holds, as storedResults finds it)
			out[v] = ir.Pos{}
		}
	}
	for _, h := range scope(g) {
		for _, a := range h.assigns {
			if !a.iter && a.rhs != nil && len(a.lhs) == 1 && field(a.lhs[0]) && derives(m, a.rhs, vals, 0) {
				out[a.lhs[0]] = m.pos(a.node)
			}
		}
		for j, ci := range h.callInfo {
			if j >= len(h.f.Calls) || !selfCall(h, j) {
				continue
			}
			c := &h.f.Calls[j]
			if len(c.Targets) == 0 || len(c.Targets) > 3 {
				continue
			}
			args := ci.node.Child("arguments").NamedChildren()
			for _, t := range c.Targets {
				tg := b.funcs[t]
				if tg.cls == nil {
					continue
				}
				params := map[string]bool{}
				for i, a := range args {
					name := ""
					if a.Kind == "keyword_argument" {
						if k := m.text(a.Child("name")); tg.params[k] {
							name = k
						}
						a = a.Child("value")
					} else if i < len(tg.f.Params) {
						name = tg.f.Params[i].Name
					}
					if name != "" && a != nil && derives(m, a, vals, 0) {
						params[name] = true
					}
				}
				if len(params) == 0 {
					continue
				}
				for _, a := range tg.assigns {
					if !a.iter && a.rhs != nil && len(a.lhs) == 1 && field(a.lhs[0]) && derives(tg.mod, a.rhs, params, 0) {
						if _, ok := out[a.lhs[0]]; !ok {
							out[a.lhs[0]] = m.pos(ci.node)
						}
					}
				}
			}
		}
	}
	for f, p := range out {
		if p == (ir.Pos{}) && strings.Count(f, ".") < 2 {
			// only a value read, not stored here (a field of the receiver's state object
			// stays: a method of the receiver stored it there, see storedResults, and the
			// siblings the caller calls next read it back)
			delete(out, f)
		}
	}
	return out
}

// readsField reports whether a function of tg's scope hands field f (self.x) to a call or
// reads it in an assignment.
func readsField(tg *fnState, f string) bool {
	for _, h := range scope(tg) {
		x := h.index()
		if len(x.callArgs[f]) > 0 {
			return true
		}
		for _, ai := range x.assigns[f] {
			if a := h.assigns[ai]; a.rhs != nil && !(len(a.lhs) == 1 && a.lhs[0] == f) {
				return true
			}
		}
	}
	return false
}

// mergeHelper adds what a followed helper found (part) to fl. A selection in the helper whose
// callable the helper hands back (returns it, or passes it on) runs where the caller uses what
// the helper gives: the call j of g that reached the helper stands for the tool call site. It
// reports whether the helper added a dispatch or an iteration.
func (b *builder) mergeHelper(fl, part *ir.Flow, g *fnState, j int) bool {
	before, iterBefore := len(fl.Dispatch), len(fl.Iterated)
	fl.Checked = append(fl.Checked, part.Checked...)
	fl.Iterated = append(fl.Iterated, part.Iterated...)
	fl.Dispatch = append(fl.Dispatch, part.Dispatch...)
	conc := g.f.Calls[j].Concurrent != "" && !oneLaunch(g, j)
	for k := before; k < len(fl.Dispatch); k++ {
		d := &fl.Dispatch[k]
		if len(d.Calls) == 0 && d.How != "element_arg" {
			var launched []ir.CallRef
			d.Calls, launched = b.handsOn(b.funcs[d.Func], d, g, j)
			if len(launched) > 0 {
				d.Launched = append(append([]ir.CallRef{}, d.Launched...), launched...)
			}
		}
		if conc && len(d.Calls) > 0 {
			// the helper is launched per element (a task per tool call, a callback of a
			// raced pool): the tool calls it reaches run side by side, whatever other path
			// reaches them too
			d.Launched = append(append([]ir.CallRef{}, d.Launched...), d.Calls...)
		}
	}
	return len(fl.Dispatch) > before || len(fl.Iterated) > iterBefore
}

// oneLaunch reports whether call j of g starts one task outside any iteration (executor.
// submit(self._step_impl, ...) running a whole step under a timeout): a launch of one task in
// no loop, comprehension or closure of g. What it runs is not launched once per element.
func oneLaunch(g *fnState, j int) bool {
	if j >= len(g.callInfo) || g.f.Calls[j].Concurrent != "go" || len(g.f.Calls[j].Loops) > 0 || g.parent != nil {
		return false
	}
	m := g.mod
	for p := g.callInfo[j].node; p != nil && p != g.body; p = p.Parent {
		if m.t.comprehensions.has(p) {
			return false
		}
		for _, c := range p.Children {
			if m.t.comprehensions.has(c) {
				return false // (an element of [create_task(run(c)) for c in calls])
			}
		}
	}
	return true
}

// followHelper is what following a value into helper tg (its parameters r2, e2) finds,
// memoized: the same helper receives the same parameters from many call sites. It is
// computed afresh (only tg seen), so it does not depend on which flow asked first.
func (b *builder) followHelper(tg *fnState, r2, e2 map[string]bool, depth int) *ir.Flow {
	key := helperKey(tg.f.ID, depth, r2, e2)
	if v, ok := b.helperFlows.Load(key); ok {
		return v.(*ir.Flow)
	}
	part := &ir.Flow{}
	b.follow(part, scope(tg), r2, e2, nil, depth, map[int]bool{tg.f.ID: true})
	v, _ := b.helperFlows.LoadOrStore(key, part)
	return v.(*ir.Flow)
}

func helperKey(id, depth int, r2, e2 map[string]bool) string {
	var sb strings.Builder
	sb.WriteString(itoa(id))
	sb.WriteByte(':')
	sb.WriteString(itoa(depth))
	for _, set := range []map[string]bool{r2, e2} {
		ks := make([]string, 0, len(set))
		for k := range set {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		sb.WriteByte('|')
		sb.WriteString(strings.Join(ks, ","))
	}
	return sb.String()
}

// maxFollow is how many helper calls deep a result and its elements are followed: a
// framework's loop hands the model's message to a tool executor, which hands each call to
// a preparation step, which looks the tool up by name (Pi's runLoop -> executeToolCalls ->
// executeToolCallsParallel -> prepareToolCall).
const maxFollow = 3

// followUnit is what a helper that derives something from the value costs of the follow
// depth; a helper handed an element as it is, started as a task per element or a generator
// whose items flow back (a task per tool call, a tracing wrapper around the call's events)
// costs 1 (at most maxPassOn in a row), so that a chain of such wrappers around the lookup by
// name is followed to it (strands' executor -> _task -> _stream_with_trace -> _stream).
const followUnit = 16

// maxPassOn is how many such wrappers in a row are followed at the cost of 1.
const maxPassOn = 3

// streams reports whether fs is a generator (its items flow back to the caller that drains it).
func streams(fs *fnState) bool {
	r := fs.f.Results
	return len(r) > 0 && (r[0] == "iterator" || r[0] == "stream")
}

// passesElems reports whether the arguments hand each of the helper's element parameters an
// element as it is (a bare name of elems), and nothing else that carries the value.
func passesElems(m *module, args []*syntax.Node, e2, elems map[string]bool) bool {
	if len(e2) == 0 {
		return false
	}
	n := 0
	for _, a := range args {
		if a.Kind == "keyword_argument" {
			a = a.Child("value")
		}
		if a != nil && elems[m.text(strip(a))] {
			n++
		}
	}
	return n > 0
}

// lookupNode is the lookup expression of g that dispatch d was read from, or nil.
func (g *fnState) lookupNode(d *ir.Dispatch) *syntax.Node {
	m := g.mod
	for _, n := range g.index().lookups {
		if m.pos(n) == d.Pos && clip(m.text(n), 80) == d.Text {
			return n
		}
	}
	return nil
}

// handsOn finds where the callable that a dispatch of helper h selects runs, when h does
// not call it itself: passed to a call of a function of the set inside h, that call; returned
// (prepared = prepareToolCall(...) returns {tool, ...}), the calls of the caller g that receive
// what the call j of h gives back (executePreparedToolCall(prepared)), else call j itself.
func (b *builder) handsOn(h *fnState, d *ir.Dispatch, g *fnState, j int) (_, launched []ir.CallRef) {
	m := h.mod
	sel := h.lookupNode(d)
	if sel == nil {
		return nil, nil
	}
	vars := map[string]bool{}
	for _, a := range h.assigns {
		if a.rhs != nil && !a.iter && a.rhs.Start <= sel.Start && sel.End <= a.rhs.End && (strip(a.rhs) == sel || alternativesHave(m, a.rhs, sel)) {
			for _, n := range a.lhs {
				vars[n] = true
			}
		}
	}
	for range 2 {
		// a local choosing between it and others (const effectiveTool = event.selectedTool
		// ?? (renamed ? registry.get(newName) : registryTool), @strands-agents/sdk@1.19.0
		// dist/src/tools/executors/executor.js:57) holds what was looked up too
		for _, a := range h.assigns {
			if a.rhs == nil || a.iter || len(a.lhs) != 1 || vars[a.lhs[0]] {
				continue
			}
			for _, alt := range alternatives(m, a.rhs) {
				if alt != strip(a.rhs) && m.t.idents.has(alt) && vars[m.text(alt)] {
					vars[a.lhs[0]] = true
					break
				}
			}
		}
	}
	if len(vars) > 0 {
		var refs []ir.CallRef
		// (in h or the closures it runs: a tracing span's body that executes the tool)
		for _, x := range scope(h) {
			for k, ci := range x.callInfo {
				if k < len(x.f.Calls) {
					if at, ok := b.runsArg(x, k, ci.node, vars); ok {
						refs = appendRef(refs, at)
						if x.f.Calls[k].Concurrent != "" {
							launched = appendRef(launched, at)
						}
					}
				}
			}
		}
		if len(refs) > 0 {
			return refs, launched
		}
	}
	if !contains(g.f.Calls[j].Targets, h.f.ID) {
		// (a closure of the helper hands back what it looked up to the helper, not to the
		// caller of the helper)
		return nil, nil
	}
	returned := false
	for _, r := range h.retNodes {
		if r.Start <= sel.Start && sel.End <= r.End || len(vars) > 0 && mentions(m, r, vars) {
			returned = true
			break
		}
	}
	if !returned {
		return nil, nil
	}
	node := g.callInfo[j].node
	got := map[string]bool{}
	sc := scope(g)
	assignsContaining(sc, node, got)
	var refs []ir.CallRef
	if len(got) > 0 {
		for _, x := range sc {
			for k, ci := range x.callInfo {
				if k < len(x.f.Calls) && ci.node != node {
					if at, ok := b.runsArg(x, k, ci.node, got); ok {
						refs = appendRef(refs, at)
						if x.f.Calls[k].Concurrent != "" {
							// (the hand-over is launched per element, Promise.all(calls.map(
							// async (c) => execute(prepare(c)))): the run it reaches, shared
							// with a sequential path, runs in parallel on this one)
							launched = appendRef(launched, at)
						}
					}
				}
			}
		}
	}
	if len(refs) == 0 {
		refs = []ir.CallRef{{Func: g.f.ID, Call: j}}
	}
	return refs, launched
}

// runsArg reports whether call k of g hands a value of vars to a function of the set that
// calls it, or calls a running method of it (runTool(tool, args); executePrepared(prepared)
// that calls prepared.tool.execute): a helper that only reads it or asks it something
// (validateArguments(tool, args), tool.prepareArguments(...)) does not run it. at is the call
// that finally runs the value (prepared.tool.execute(…) inside executePrepared; call k itself
// when it is the one, or when the value leaves the set there): the tool call site, not the
// first hand-over.
func (b *builder) runsArg(g *fnState, k int, call *syntax.Node, vars map[string]bool) (at ir.CallRef, ok bool) {
	self := ir.CallRef{Func: g.f.ID, Call: k}
	c := &g.f.Calls[k]
	m := g.mod
	if len(c.Targets) == 0 && isRunVerb(c.Method) && !c.InMemory && !inCondition(g, call) {
		// executeTool({ tool, input }) of code outside the set, handed the callable itself
		// (not a test of it: if (!isExecutableTool(tool)) return)
		for _, a := range call.Child("arguments").NamedChildren() {
			a = strip(a)
			if a != nil && a.Kind == "object" {
				for _, pr := range a.NamedChildren() {
					v := pr
					if pr.Kind == "pair" {
						v = strip(pr.Child("value"))
					} else if pr.Kind != "shorthand_property_identifier" {
						continue
					}
					if v != nil && vars[m.text(v)] {
						return self, true
					}
				}
				continue
			}
			if a != nil && vars[m.text(a)] {
				return self, true
			}
		}
		return ir.CallRef{}, false
	}
	if len(c.Targets) == 0 || len(c.Targets) > 3 {
		return ir.CallRef{}, false
	}
	for i, a := range call.Child("arguments").NamedChildren() {
		if a.Kind == "keyword_argument" {
			a = a.Child("value")
		}
		if a == nil || !derives(m, a, vars, 0) {
			continue
		}
		for _, t := range c.Targets {
			tg := b.funcs[t]
			if i >= len(tg.f.Params) {
				continue
			}
			if ref, ok := b.runsName(tg, tg.f.Params[i].Name, 0); ok {
				return ref, true
			}
		}
	}
	return ir.CallRef{}, false
}

// runsName reports whether function x (or a closure of it) runs the value written e — a
// parameter's name, or ctx.field for the field of an object its parameter receives: it calls
// e or a running method of it (tool.stream(…)), or hands e on to a function of the set that
// does, as an argument (this._executeToolAttempt(options, tool, …)) or as a field of an object
// literal handed to a call together with a callback, whose first parameter receives that
// object (a middleware chain: registry.invoke(stage, { tool, … }, async function* (ctx) { …
// executor._executeToolCore(options, ctx.tool, …) }), @strands-agents/sdk@1.19.0
// dist/src/tools/executors/executor.js:86, 95, 136-150, 185), up to three hand-overs deep. It
// returns the call that runs it (effectiveTool.stream(toolContext) at executor.js:185).
func (b *builder) runsName(x *fnState, e string, depth int) (ir.CallRef, bool) {
	for _, y := range scope(x) {
		for j := range y.f.Calls {
			// by index: flows of other functions run at the same time and write their
			// calls' Flow; copying the whole Call would read it
			ct := y.f.Calls[j].Text
			if n := strings.IndexByte(ct, '('); n >= 0 {
				ct = ct[:n]
			}
			if ct == e || strings.HasPrefix(ct, e+".") && strings.Count(ct[len(e):], ".") <= 2 && toolishMeth.MatchString(lastSeg(ct)) {
				return ir.CallRef{Func: y.f.ID, Call: j}, true
			}
			if depth > 0 && strings.HasPrefix(ct, e+".") && strings.Count(ct[len(e):], ".") == 1 {
				// handed down explicitly from the lookup, any method of it runs it
				// (effectiveTool.stream(toolContext))
				return ir.CallRef{Func: y.f.ID, Call: j}, true
			}
		}
	}
	if depth >= 3 {
		return ir.CallRef{}, false
	}
	for _, y := range scope(x) {
		m := y.mod
		for j, ci := range y.callInfo {
			if j >= len(y.f.Calls) || ci.node == nil {
				continue
			}
			targets, kids := y.f.Calls[j].Targets, y.f.Calls[j].ArgFuncs
			for i, a := range ci.node.Child("arguments").NamedChildren() {
				a = strip(a)
				if a == nil {
					continue
				}
				if m.text(a) == e && len(targets) > 0 && len(targets) <= 3 {
					for _, t := range targets {
						if tg := b.funcs[t]; i < len(tg.f.Params) {
							if ref, ok := b.runsName(tg, tg.f.Params[i].Name, depth+1); ok {
								return ref, true
							}
						}
					}
					continue
				}
				field := heldField(y, a, e)
				if field == "" {
					continue
				}
				for _, kid := range kids {
					if k := b.funcs[kid]; k != nil && len(k.f.Params) > 0 && k.f.Params[0].Name != "" {
						if ref, ok := b.runsName(k, k.f.Params[0].Name+"."+field, depth+1); ok {
							return ref, true
						}
					}
				}
			}
		}
	}
	return ir.CallRef{}, false
}

// heldField returns the field of object expression a (in y) that holds the value written e:
// an object literal { tool } / { tool: e }, or a local assigned one once (const context = {
// agent, tool, … }); "" when none.
func heldField(y *fnState, a *syntax.Node, e string) string {
	m := y.mod
	obj := a
	if m.t.idents.has(a) {
		obj = nil
		for _, as := range y.assigns {
			if len(as.lhs) == 1 && as.lhs[0] == m.text(a) && !as.iter && as.rhs != nil {
				if obj != nil {
					return ""
				}
				obj = strip(as.rhs)
			}
		}
	}
	if obj == nil || obj.Kind != "object" {
		return ""
	}
	for _, pr := range obj.NamedChildren() {
		switch pr.Kind {
		case "shorthand_property_identifier":
			if m.text(pr) == e {
				return e
			}
		case "pair":
			if v := strip(pr.Child("value")); v != nil && m.text(v) == e {
				if k := pr.Child("key"); k != nil && m.t.idents.has(k) || k != nil && k.Kind == "property_identifier" {
					return m.text(k)
				}
			}
		}
	}
	return ""
}

// inCondition reports whether node n lies in one of g's conditions.
func inCondition(g *fnState, n *syntax.Node) bool {
	for _, c := range g.conds {
		if c.expr != nil && c.expr.Start <= n.Start && n.End <= c.expr.End {
			return true
		}
	}
	return false
}

// containsCall reports whether one of calls lies inside n.
func containsCall(n *syntax.Node, calls []*syntax.Node) bool {
	for _, c := range calls {
		if n.Start <= c.Start && c.End <= n.End && c != n {
			return true
		}
	}
	return false
}

// setsLoopFlag returns the enclosing loop statement whose condition reads a variable that
// branch, a branch of the test c, assigns, nil if none: the branch of a positive test (while
// has_more_tool_calls: ... if tool_calls: ... has_more_tool_calls = ...), where when nothing
// is pending the flag keeps its value and the loop ends, or the branch of the empty case
// (else { more = false } under while (more && i < max), or do { … } while (more)), which
// clears the flag and so leaves the loop without a break.
func (b *builder) setsLoopFlag(g *fnState, c cond, branch *syntax.Node) *syntax.Node {
	m := g.mod
	if branch == nil {
		return nil
	}
	set := map[string]bool{}
	for _, a := range g.assigns {
		if a.node.Start >= branch.Start && a.node.End <= branch.End {
			for _, n := range a.lhs {
				set[n] = true
			}
		}
	}
	if len(set) == 0 {
		return nil
	}
	for _, lc := range g.conds {
		if lc.loop >= 0 && contains(c.loops, lc.loop) && mentions(m, lc.expr, set) {
			return lc.stmt
		}
	}
	return nil
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// finalWord reports whether a string constant names the end of a run (a final output, a
// stop, a completion): a result compared with it decides "nothing pending".
// outputField reports whether one of l and r reads the output field of a value of vars
// (subtask.output, step.final_output): what the step produced, set once it is done.
func outputField(m *module, l, r *syntax.Node, vars map[string]bool) bool {
	for _, n := range []*syntax.Node{l, r} {
		if n != nil && m.t.members.has(n) && vars[m.text(strip(n.Child("object")))] {
			switch m.text(n.Child(m.t.memberProp)) {
			case "output", "final_output", "final_answer", "answer":
				return true
			}
		}
	}
	return false
}

func finalWord(s string) bool {
	l := strings.ToLower(s)
	for _, w := range []string{"final", "done", "complete", "finish", "end_turn", "\"stop\"", "'stop'", "finished"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// helperOf reports whether expr is a call of a function of the set that receives a value of
// vars (turn_result = resolve_turn(response, ...)): what such a helper returns is taken as
// derived from it.
func (b *builder) helperOf(g *fnState, expr *syntax.Node, vars map[string]bool) bool {
	m := g.mod
	n := strip(expr)
	if n == nil || !m.t.calls.has(n) && !m.t.news.has(n) {
		// (new GenerateResponse(modelResponse, opts): a constructor of the set handed the
		// value wraps it; the instance carries it on, read back through its fields)
		return false
	}
	id, ok := g.callOf[n]
	if !ok || len(g.f.Calls[id].Targets) == 0 || len(g.f.Calls[id].Targets) > 3 || n.Child("arguments") == nil {
		return false
	}
	for _, a := range n.Child("arguments").NamedChildren() {
		if a.Kind == "keyword_argument" {
			a = a.Child("value")
		}
		if a != nil && (derives(m, a, vars, 0) || b.builtFrom(m, a, vars)) {
			return true
		}
	}
	return false
}

// builtFrom reports whether n constructs an instance of a class of the set handed a value of
// vars itself, as a positional argument (add_subtask(ActionsSubtask(output)), griptape==1.13.0
// tasks/prompt_task.py:323, an attrs class with no __init__): the instance carries the value
// on in a field, so what a helper returns of it (the subtask) is derived from it.
func (b *builder) builtFrom(m *module, n *syntax.Node, vars map[string]bool) bool {
	n = strip(n)
	if n == nil || !m.t.calls.has(n) || n.Child("arguments") == nil {
		return false
	}
	name := calleeText(m, n)
	if !isTypeName(lastSeg(name)) || b.classByExpr(m, name) == nil {
		return false
	}
	for _, a := range n.Child("arguments").NamedChildren() {
		// (only the value itself, positional: ToolApprovalItem(agent=agent, raw_item=item),
		// openai-agents==0.24.0, records the item beside others; it is no carrier of it)
		if a = strip(a); a != nil && a.Kind != "keyword_argument" && m.t.idents.has(a) && vars[m.text(a)] {
			return true
		}
	}
	return false
}

// assignsContaining adds to into the targets of the assignments of sc whose value contains
// node.
func assignsContaining(sc []*fnState, node *syntax.Node, into map[string]bool) {
	for _, g := range sc {
		if g.node.Start > node.Start || g.node.End < node.End {
			continue
		}
		for _, a := range g.assigns {
			if a.rhs != nil && a.rhs.Start <= node.Start && node.End <= a.rhs.End {
				for _, n := range a.lhs {
					into[n] = true
				}
			}
		}
	}
}

// rootedAlt is rooted for one of the alternatives of an a ?? b / a || b / c ? a : b choice
// (const stream = prepared?.stream(req) ?? llm.stream(req)).
func rootedAlt(m *module, expr, call *syntax.Node) bool {
	for _, alt := range alternatives(m, expr) {
		if rooted(m, alt, call) {
			return true
		}
	}
	return false
}

// derivesPart reports whether a container literal holds an attribute, element or method
// result of a value of vars.
func derivesPart(m *module, n *syntax.Node, vars map[string]bool, depth int) bool {
	if n == nil || depth > 40 {
		return false
	}
	t := m.t
	if (t.members.has(n) || t.subscripts.has(n) || t.calls.has(n)) && derives(m, n, vars, depth+1) {
		return true
	}
	if t.lambdas.has(n) || t.funcs.has(n) {
		return false
	}
	for _, c := range n.Children {
		if c.Named && derivesPart(m, c, vars, depth+1) {
			return true
		}
	}
	return false
}

// endsByLeaving reports whether a branch's last statement returns, raises, breaks or
// continues: the statements after its if run only when the branch is not taken.
func endsByLeaving(m *module, branch *syntax.Node) bool {
	if branch == nil {
		return false
	}
	last := branch
	if m.t.blocks.has(branch) {
		if last = lastStmt(branch); last == nil {
			return false
		}
	}
	t := m.t
	return t.returns.has(last) || t.raises.has(last) || t.breaks.has(last) || t.continues.has(last)
}

// leavesAfter reports whether one of the statements after stmt, in the blocks enclosing it up
// to the function's body (a try's or a with's block, then what follows them), leaves: the
// function's end reached on that path is a way out too, when stmt is in no loop of g.
func (b *builder) leavesAfter(g *fnState, stmt *syntax.Node) (bool, int) {
	t := g.mod.t
	for n := stmt; n != nil && n != g.body; {
		p := b.parentIn(g, n)
		if p == nil {
			break
		}
		if t.whiles.has(p) || t.foreachs.has(p) || t.cfors.has(p) || t.dos.has(p) || t.funcs.has(p) || t.lambdas.has(p) {
			return false, -1
		}
		found := false
		for _, c := range p.Children {
			if c == n {
				found = true
				continue
			}
			if found && c.Named && c.Kind != "comment" && !t.catches.has(c) {
				if ok, ret := b.leaves(g, c); ok {
					return true, ret
				}
			}
		}
		n = p
	}
	// the end of the body: the implicit return
	return true, -1
}

// handlerStops adds the stop of a loop that goes on until a callable it dispatches to records
// the answer: while (!state.result) { response = llm.create(…); for (call of
// response.toolCalls) tools.find(t => t.name === call.toolName).run(…) }, where the result is
// set by the handler of a final-answer tool, a closure of the function registered before the
// loop (new DynamicTool({ handler: async (x) => { state.result = x } })) and run only through
// the dispatch. The loop's condition is then the decision on the model's reply: it leaves when
// the model called that tool.
func (b *builder) handlerStops(fs *fnState, c *ir.Call, fl *ir.Flow) {
	m := fs.mod
	called := false
	for _, d := range fl.Dispatch {
		called = called || len(d.Calls) > 0
	}
	if !called {
		return
	}
	for _, li := range c.Loops {
		if fs.f.Loops[li].Kind != ir.LoopFor {
			continue
		}
		for _, cd := range fs.conds {
			if cd.loop != li || cd.expr == nil {
				continue
			}
			// the chains the condition reads that a handler closure assigns
			set := map[string]bool{}
			eachNode(m.t, cd.expr, func(n *syntax.Node) bool {
				if m.t.members.has(n) || m.t.idents.has(n) {
					if x := m.text(n); b.handlerAssigns(fs, li, x) {
						set[x] = true
					}
					return false
				}
				return true
			})
			if len(set) == 0 {
				continue
			}
			// while (!answer): goes on while it is empty, leaves once the handler set it
			if ok, emptyTrue := emptiness(m, cd.expr, set); ok && emptyTrue {
				ch := ir.Check{Pos: m.pos(cd.expr), Text: clip(m.text(cd.expr), 80), Return: -1, Func: fs.f.ID, Leaves: true}
				if n := b.after(fs, cd.stmt); n != nil {
					_, ch.Return = b.leaves(fs, n)
				}
				fl.Checked = append([]ir.Check{ch}, fl.Checked...)
				return
			}
		}
		return // the innermost repeating loop only
	}
}

// handlerAssigns reports whether x is assigned in a closure of fs that fs hands to a call
// outside loop li (a handler it registers) and never calls itself.
func (b *builder) handlerAssigns(fs *fnState, li int, x string) bool {
	for _, k := range fs.kids {
		assigns := false
		for _, a := range k.assigns {
			for _, l := range a.lhs {
				assigns = assigns || l == x
			}
		}
		if !assigns || k.f.Launch != "" {
			continue
		}
		handed := false
		for i := range fs.f.Calls {
			fc := &fs.f.Calls[i]
			if slices.Contains(fc.Targets, k.f.ID) {
				return false // called by the function itself
			}
			if slices.Contains(fc.ArgFuncs, k.f.ID) && !slices.Contains(fc.Loops, li) {
				handed = true
			}
		}
		if handed {
			return true
		}
	}
	return false
}

// wrapsOnly reports whether expr is a call whose one argument is call: a context manager
// built around a generator (aclosing(gen), closing(gen)), whose entered value is that
// generator.
// wrapsGenerator reports whether call node n of fs (a call outside the set) takes one
// argument, a call of a generator of the set that yields results.
func (b *builder) wrapsGenerator(fs *fnState, n *syntax.Node) bool {
	for j, cj := range fs.callInfo {
		if j < len(fs.f.Calls) && cj.node != n && wrapsOnly(fs.mod, n, cj.node) {
			return b.yieldsResults(&fs.f.Calls[j])
		}
	}
	return false
}

func wrapsOnly(m *module, expr, call *syntax.Node) bool {
	e := strip(expr)
	if e == nil || !m.t.calls.has(e) || e == call {
		return false
	}
	args := e.Child("arguments")
	if args == nil {
		return false
	}
	k := args.NamedChildren()
	return len(k) == 1 && strip(k[0]) == call
}

// reachingBind returns the index in fs.assigns of the binding of name that a use at node
// reads: the last one before it in source order, a with item's only inside its with
// statement; -1 if none.
func (b *builder) reachingBind(fs *fnState, name string, use *syntax.Node) int {
	best, at := -1, -1
	// (the bindings of name, in source order: index().byLHS, not a scan of every assignment)
	for _, i := range fs.index().byLHS[name] {
		a := fs.assigns[i]
		if a.node == nil || a.node.Start >= use.Start || a.node.Start < at {
			continue
		}
		if a.node.Kind == "with_item" {
			w := a.node
			for w != nil && w.Kind != "with_statement" {
				w = b.parentIn(fs, w)
			}
			if w == nil || use.End > w.End {
				continue
			}
		}
		best, at = i, a.node.Start
	}
	return best
}

// bindCarries reports whether a binding holds the result: its value is the call, a context
// manager wrapping only it, or derived from a value that holds the result.
func (b *builder) bindCarries(g *fnState, a assign, call *syntax.Node, res map[string]bool) bool {
	if a.iter || a.rhs == nil {
		return true // an element binding: followed as an element
	}
	m := g.mod
	return rootedAlt(m, a.rhs, call) || wrapsOnly(m, a.rhs, call) || derives(m, a.rhs, res, 0)
}

// boundToResult reports whether g binds v to the result somewhere (so that another binding of
// v holds another value, not a collection the result is merged into).
func (b *builder) boundToResult(g *fnState, v string, call *syntax.Node, res map[string]bool) bool {
	for _, a := range g.assigns {
		if !a.iter && a.rhs != nil && slices.Contains(a.lhs, v) {
			if m := g.mod; rootedAlt(m, a.rhs, call) || wrapsOnly(m, a.rhs, call) {
				return true
			}
		}
	}
	return false
}

// storedResults are, for a call of a method of the receiver's class whose result the caller
// drops (this.send(this.thread); yield* this.#send(thread)), what holds the reply afterwards:
// the fields of the receiver the method assigns a call's result to (this.message =
// this.client.create(…)), and the fields of the receiver handed to it, which it sends through
// (the conversation the reply is added to). The caller reads them after the call.
func (b *builder) storedResults(fs *fnState, c *ir.Call, ci callInfo) []string {
	m := fs.mod
	self := m.t.self
	k := enclosingClass(fs)
	if k == nil || len(c.Targets) == 0 || len(c.Targets) > 3 {
		return nil
	}
	fn := strip(unAwait(m, ci.node.Child("function")))
	if fn == nil || !m.t.members.has(fn) || m.text(strip(fn.Child("object"))) != self {
		return nil
	}
	if p := b.parentIn(fs, ci.node); p == nil || !(m.t.exprStmts.has(p) || m.t.yields.has(p) || m.t.awaits.has(p) && m.t.exprStmts.has(b.parentIn(fs, p))) {
		return nil // its result is used: the ordinary flow
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range c.Targets {
		tf := b.funcs[t]
		if enclosingClass(tf) != k {
			return nil
		}
		for _, g := range scope(tf) {
			for _, a := range g.assigns {
				if a.iter || len(a.lhs) != 1 || a.rhs == nil || !strings.HasPrefix(a.lhs[0], self+".") || strings.ContainsAny(a.lhs[0], "[(") {
					continue
				}
				r := strip(a.rhs)
				if n := strings.Count(a.lhs[0], "."); n == 2 && m.t.lang == "python" && r != nil && g.mod.t.idents.has(r) && boundToCall(g, g.mod.text(r)) {
					// self.state.last_model_output = model_output, model_output = await
					// self.get_model_output(…): the decision kept on a state object the
					// receiver holds (browser-use==0.13.14 browser_use/agent/service.py:1201)
				} else if n != 1 || r == nil || !m.t.calls.has(r) && !m.t.news.has(r) {
					continue
				}
				if !seen[a.lhs[0]] {
					seen[a.lhs[0]] = true
					out = append(out, a.lhs[0])
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, a := range ci.node.Child("arguments").NamedChildren() {
		if a = strip(a); a != nil && m.t.members.has(a) && m.text(strip(a.Child("object"))) == self && !seen[m.text(a)] {
			seen[m.text(a)] = true
			out = append(out, m.text(a))
		}
	}
	sort.Strings(out)
	return out
}

// filledArgs are, for a call of a function of the set whose result the caller drops, the
// locals the caller built (v = Message(…)) and hands it that the callee fills in: it, or a
// helper it hands the parameter on to together with a call's result, assigns fields of that
// parameter (assistant_message = Message(role=…); self._process_model_response(…,
// assistant_message=assistant_message, …); if assistant_message.tool_calls:, agno==3.1.10
// agno/models/base.py:714-743, where _process_model_response hands the provider's response
// and the message to _populate_assistant_message, which sets assistant_message.tool_calls,
// 1125-1140). The caller reads the reply on the local afterwards.
func (b *builder) filledArgs(fs *fnState, c *ir.Call, ci callInfo) []string {
	m := fs.mod
	if m.t.lang != "python" || len(c.Targets) == 0 || len(c.Targets) > 3 {
		return nil
	}
	if p := b.parentIn(fs, ci.node); p == nil || !(m.t.exprStmts.has(p) || m.t.awaits.has(p) && m.t.exprStmts.has(b.parentIn(fs, p))) {
		return nil // its result is used: the ordinary flow
	}
	args := ci.node.Child("arguments")
	if args == nil {
		return nil
	}
	var out []string
	for j, a := range args.NamedChildren() {
		key, val := "", a
		if m.t.keywordArgs.has(a) {
			key, val = m.text(a.Child("name")), a.Child("value")
		}
		if val = strip(val); val == nil || !m.t.idents.has(val) || slices.Contains(out, m.text(val)) {
			continue
		}
		v := m.text(val)
		if v == m.t.self || fs.params[v] || !builtLocal(fs, v) {
			continue
		}
		for _, t := range c.Targets {
			tg := b.funcs[t]
			pn := key
			if pn == "" && !m.t.keywordArgs.has(a) && j < len(tg.f.Params) {
				pn = tg.f.Params[j].Name
			}
			if pn != "" && tg.params[pn] && b.fillsParam(tg, pn, 0) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// builtLocal reports whether every assignment of fs to the local name v binds a call's
// result (an object built for the call: assistant_message = Message(role=…)), and there is one.
func builtLocal(fs *fnState, v string) bool {
	return boundToCall(fs, v)
}

// fillsParam reports whether function g assigns a field of its parameter p from what a call
// returned (p.tool_calls = provider_response.tool_calls, provider_response a call's result or
// a parameter a caller hands one in), or hands p, beside a local bound to a call's result, to
// a function of the set that does (depth: how many such hands below the call).
func (b *builder) fillsParam(g *fnState, p string, depth int) bool {
	if depth > 2 {
		return false
	}
	m := g.mod
	called := map[string]bool{}
	for _, a := range g.assigns {
		if a.iter || a.rhs == nil || len(a.lhs) != 1 {
			continue
		}
		if r := unAwait(m, strip(a.rhs)); r != nil && m.t.calls.has(r) {
			called[a.lhs[0]] = true
		}
	}
	for _, a := range g.assigns {
		if a.iter || a.rhs == nil || len(a.lhs) != 1 || !strings.HasPrefix(a.lhs[0], p+".") || strings.ContainsAny(a.lhs[0], "[(") || strings.Count(a.lhs[0], ".") != 1 {
			continue
		}
		if root := baseVar(m.text(strip(a.rhs))); root != p && (called[root] || g.params[root] && depth > 0) {
			return true
		}
	}
	if depth > 0 {
		return false
	}
	for i, ci := range g.callInfo {
		if i >= len(g.f.Calls) || len(g.f.Calls[i].Targets) == 0 || len(g.f.Calls[i].Targets) > 3 {
			continue
		}
		args := ci.node.Child("arguments")
		if args == nil {
			continue
		}
		var pn []string // the callee's parameters receiving p
		withResult := false
		for j, a := range args.NamedChildren() {
			key, val := "", a
			if m.t.keywordArgs.has(a) {
				key, val = m.text(a.Child("name")), a.Child("value")
			}
			val = strip(val)
			if val == nil || !m.t.idents.has(val) {
				continue
			}
			switch {
			case called[m.text(val)]:
				withResult = true
			case m.text(val) == p:
				for _, t := range g.f.Calls[i].Targets {
					tg := b.funcs[t]
					name := key
					if name == "" && !m.t.keywordArgs.has(a) && j < len(tg.f.Params) {
						name = tg.f.Params[j].Name
					}
					if name != "" && tg.params[name] {
						pn = append(pn, name)
					}
				}
			}
		}
		if !withResult || len(pn) == 0 {
			continue
		}
		for k, t := range g.f.Calls[i].Targets {
			if k < len(pn) && b.fillsParam(b.funcs[t], pn[k], depth+1) {
				return true
			}
		}
	}
	return false
}

// boundToCall reports whether every assignment of g to the local name binds a call's result
// (model_output = await asyncio.wait_for(self.step(), timeout=…)), and there is one.
func boundToCall(g *fnState, name string) bool {
	n := 0
	for _, a := range g.assigns {
		if len(a.lhs) != 1 || a.lhs[0] != name {
			continue
		}
		if a.iter || a.rhs == nil {
			return false
		}
		if r := unAwait(g.mod, strip(a.rhs)); r == nil || !g.mod.t.calls.has(r) {
			return false
		}
		n++
	}
	return n > 0
}

// drainsBinding reports whether the use of name at node reads one of the bindings binds (the
// generator's), or a value no assignment of the function binds (a field the call stored it in).
func (b *builder) drainsBinding(fs *fnState, binds []int, name string, use *syntax.Node) bool {
	r := b.reachingBind(fs, name, use)
	return r < 0 || slices.Contains(binds, r)
}

// literalTable reports whether obj names a module-level dictionary (object) literal whose
// values are all string or number literals: a name looked up in it is translated (a tool
// name to a kind), nothing is selected to run.
func (b *builder) literalTable(m *module, obj *syntax.Node) bool {
	obj = strip(obj)
	if obj == nil || !m.t.idents.has(obj) {
		return false
	}
	s := m.syms[m.text(obj)]
	if s == nil || s.kind != symValue || s.value == nil {
		return false
	}
	v := strip(s.value)
	if v == nil || !m.t.objects.has(v) {
		return false
	}
	n := 0
	for _, p := range v.NamedChildren() {
		if !m.t.pairs.has(p) {
			if p.Kind == "comment" {
				continue
			}
			return false
		}
		if !b.constantValue(m, strip(p.Child("value"))) {
			return false
		}
		n++
	}
	return n > 0
}

// constantValue reports whether v is a string or number literal, or a class-level field of a
// class of the set holding one (WebSearchTool.kind with kind: str = 'web_search').
func (b *builder) constantValue(m *module, v *syntax.Node) bool {
	if v == nil {
		return false
	}
	if m.t.stringKinds.has(v) || m.t.numbers.has(v) {
		return true
	}
	if !m.t.members.has(v) {
		return false
	}
	cl := b.classByExpr(m, m.text(strip(v.Child("object"))))
	f := m.text(v.Child(m.t.memberProp))
	for depth := 0; cl != nil && depth < 8; depth++ {
		if fv := strip(cl.fields[f]); fv != nil {
			return cl.mod.t.stringKinds.has(fv) || cl.mod.t.numbers.has(fv)
		}
		if cl.methods[f] != nil || len(cl.baseCls) == 0 {
			return false
		}
		cl = cl.baseCls[0]
	}
	return false
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// formats reports whether rhs builds a text from its parts: a template string, or a call of
// a helper of the set (format_scratchpad(steps), build_user_prompt(question, pad)).
func (b *builder) formats(fs *fnState, rhs *syntax.Node) bool {
	r := strip(rhs)
	if r == nil {
		return false
	}
	if id, ok := fs.callOf[r]; ok {
		return len(fs.f.Calls[id].Targets) > 0 && !opaque(b, &fs.f.Calls[id])
	}
	return isTemplate(fs.mod, r)
}

// isTemplate reports whether n is a template string (`${a}`, f"{a}").
func isTemplate(m *module, n *syntax.Node) bool {
	n = strip(n)
	return n != nil && (n.Kind == "template_string" || n.Kind == "string" && strings.HasPrefix(m.text(n), "f"))
}

// outlives reports whether name n, bound by the for-each loop of assignment a of g, is read
// after that loop: a language whose loop targets stay bound to the last item (Python's for
// targets, JS's for (x of xs) without const or let) and a read of n in g's body past the
// loop's end. Draining a stream whose every chunk is the whole reply so far (for output in
// stream: yield output), the last item read after the loop is the call's result.
func outlives(g *fnState, a assign, n string) bool {
	m := g.mod
	if !m.t.forTargetsOutlive || !a.iter || a.loop < 0 || a.node == nil || g.body == nil {
		return false
	}
	if k := a.node.Child("kind"); k != nil && m.t.scopedFors[k.Kind] {
		return false
	}
	// the first mention of n after the loop: a read, not a new binding (n = ..., for n in
	// ..., [n for n in ...])
	end := a.node.End
	var first *syntax.Node
	eachNode(m.t, g.body, func(c *syntax.Node) bool {
		if first != nil || c.End <= end {
			return false // wholly before the loop's end (or done)
		}
		if m.t.idents.has(c) && c.Start >= end && m.text(c) == n && !isFieldName(m, c) {
			first = c
		}
		return first == nil
	})
	return first != nil && !binds(g, first, n)
}

// binds reports whether identifier c (named n) is bound where it stands, or inside a
// comprehension that binds n: the target of an assignment or a loop, not a read of the
// variable a loop before left bound.
func binds(g *fnState, c *syntax.Node, n string) bool {
	m := g.mod
	for x := c; x != nil && x != g.body; x = x.Parent {
		p := x.Parent
		if p == nil {
			break
		}
		if (m.t.assigns.has(p) || m.t.augAssigns.has(p) || m.t.foreachs.has(p) || m.t.comprehensions.has(p)) && x.Field == "left" && !m.t.augAssigns.has(p) {
			return true
		}
		for _, k := range p.Children {
			if m.t.comprehensions.has(k) && k != x {
				for _, v := range names(m, k.Child("left")) {
					if v == n {
						return true
					}
				}
			}
		}
	}
	return false
}

// isFieldName reports whether identifier c is the property of a member expression or a
// keyword argument's name (x.output, f(output=...)), not a read of a variable.
func isFieldName(m *module, c *syntax.Node) bool {
	p := c.Parent
	if p == nil {
		return false
	}
	if m.t.members.has(p) && p.Child(m.t.memberProp) == c {
		return true
	}
	return m.t.keywordArgs.has(p) && p.Child("name") == c
}

// continuesIn reports whether branch holds a continue of the loop around it (not of a loop or
// function nested in the branch).
func continuesIn(t *table, branch *syntax.Node) bool {
	if branch == nil {
		return false
	}
	found := false
	eachNode(t, branch, func(x *syntax.Node) bool {
		if found || x != branch && (t.whiles.has(x) || t.dos.has(x) || t.cfors.has(x) || t.foreachs.has(x) || t.funcs.has(x) || t.lambdas.has(x)) {
			return false
		}
		found = t.continues.has(x)
		return !found
	})
	return found
}

// appendRef appends ref to refs unless it is there already.
func appendRef(refs []ir.CallRef, ref ir.CallRef) []ir.CallRef {
	for _, r := range refs {
		if r == ref {
			return refs
		}
	}
	return append(refs, ref)
}

// spreadAssigns adds to names, rounds times over h's assignments (not loop iterations), every
// name assigned from an expression that mentions one of them: what is derived from them a few
// assignments down.
func spreadAssigns(m *module, h *fnState, names map[string]bool, rounds int) {
	for range rounds {
		for _, a := range h.assigns {
			if a.rhs != nil && !a.iter && mentions(m, a.rhs, names) {
				for _, n := range a.lhs {
					names[n] = true
				}
			}
		}
	}
}

// carryParams adds to out the parameters of h that the arguments args (of a call in module m)
// fill, by position or by keyword, with one of the variables named in inputs.
func carryParams(m *module, args *syntax.Node, h *fnState, inputs, out map[string]bool) {
	for i, a := range args.NamedChildren() {
		name := ""
		if a.Kind == "keyword_argument" {
			if k := m.text(a.Child("name")); h.params[k] {
				name = k
			}
			a = a.Child("value")
		} else if i < len(h.f.Params) {
			name = h.f.Params[i].Name
		}
		if a = strip(a); a != nil && name != "" && inputs[m.text(a)] {
			out[name] = true
		}
	}
}
