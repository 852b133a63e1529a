package srcir

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// resolveCalls turns the recorded call nodes into ir.Calls with callee candidates.
func (b *builder) resolveCalls() {
	b.indexCtorSites()
	b.indexFieldWrites()
	for _, fs := range b.funcs {
		b.localAliases(fs)
	}
	b.each(b.resolveCallsOf)
	// the launches found while the calls resolved, then what they mean for the calls: a call
	// in a launched function (or a function nested in one) runs concurrently. Both after the
	// parallel pass, which reads a kid's Launch from another worker.
	for _, fs := range b.funcs {
		for _, l := range fs.launches {
			if l.k.f.Launch == "" {
				l.k.f.Launch = l.conc
			}
		}
		fs.launches = nil
	}
	for _, fs := range b.funcs {
		for _, i := range fs.inherit {
			if c := &fs.f.Calls[i]; c.Concurrent == "" {
				for p := fs; p != nil; p = p.parent {
					if p.f.Launch == "all" || p.f.Launch == "go" {
						c.Concurrent = p.f.Launch
						break
					}
				}
			}
		}
		fs.inherit = nil
	}
	b.externalHooks()
}

// counterArgs records the parameters that receive a loop's counter at a call in the loop
// (while self._should_continue(iterations, ...): iterations += 1): the callee's comparison
// of such a parameter is the loop's bound, checked in a helper.
func (b *builder) counterArgs() {
	for _, fs := range b.funcs {
		if len(fs.incs) == 0 {
			continue
		}
		m := fs.mod
		inc := map[string]bool{}
		for _, in := range fs.incs {
			if len(in.loops) > 0 {
				inc[in.target] = true
			}
		}
		for i, ci := range fs.callInfo {
			if len(ci.loops) == 0 || i >= len(fs.f.Calls) || len(fs.f.Calls[i].Targets) == 0 || len(fs.f.Calls[i].Targets) > 3 {
				continue
			}
			args := ci.node.Child("arguments")
			if args == nil {
				continue
			}
			for j, a := range args.NamedChildren() {
				name := ""
				if m.t.keywordArgs.has(a) {
					name, a = m.text(a.Child("name")), a.Child("value")
				}
				if a == nil || !inc[m.text(strip(a))] {
					continue
				}
				for _, t := range fs.f.Calls[i].Targets {
					tg := b.funcs[t]
					pn := name
					if pn == "" && j < len(tg.f.Params) {
						pn = tg.f.Params[j].Name
					}
					if pn != "" && tg.params[pn] {
						if tg.counterParams == nil {
							tg.counterParams = map[string]bool{}
						}
						tg.counterParams[pn] = true
					}
				}
			}
		}
	}
}

// recursionCounters records the parameters a recursion counts its turns in: a parameter the
// function passes on as itself plus a number to a call that comes back to the function
// (directly, through helpers or a closure they run), positionally or as the value of an
// options object's entry (generateHelper(registry, { currentTurn: currentTurn + 1 }),
// @genkit-ai/ai@1.42.0 src/generate/action.ts:562-569). The function's comparison of such a
// parameter (currentTurn + 1 > maxIterations) is the recursion's bound.
func (b *builder) recursionCounters() {
	for _, fs := range b.funcs {
		m := fs.mod
		for i, ci := range fs.callInfo {
			if i >= len(fs.f.Calls) || len(fs.f.Calls[i].Targets) == 0 || len(fs.f.Calls[i].Targets) > 3 {
				continue
			}
			args := ci.node.Child("arguments")
			if args == nil {
				continue
			}
			var vals []*syntax.Node
			for _, a := range args.NamedChildren() {
				if m.t.keywordArgs.has(a) {
					a = a.Child("value")
				}
				if a = strip(a); a != nil && m.t.objects.has(a) {
					for _, p := range a.NamedChildren() {
						if m.t.pairs.has(p) {
							vals = append(vals, p.Child("value"))
						}
					}
					continue
				}
				vals = append(vals, a)
			}
			for _, v := range vals {
				x := plusConst(m, v)
				if x == nil || !m.t.idents.has(x) || !fs.params[m.text(x)] || !b.reaches(fs.f.Calls[i].Targets, fs.f.ID, 5) {
					continue
				}
				if fs.counterParams == nil {
					fs.counterParams = map[string]bool{}
				}
				fs.counterParams[m.text(x)] = true
			}
		}
	}
}

// plusConst returns x when n is x + N (N a number literal), else nil.
func plusConst(m *module, n *syntax.Node) *syntax.Node {
	n = strip(n)
	if n == nil || n.Kind != "binary_expression" && n.Kind != "binary_operator" || m.text(n.Child("operator")) != "+" {
		return nil
	}
	l, r := strip(n.Child("left")), strip(n.Child("right"))
	switch {
	case r != nil && m.t.numbers.has(r):
		return l
	case l != nil && m.t.numbers.has(l):
		return r
	}
	return nil
}

// reaches reports whether one of the functions ts calls function id within depth calls, a
// function's closures counted as run by it.
func (b *builder) reaches(ts []int, id, depth int) bool {
	seen := map[int]bool{}
	var walk func(t, d int) bool
	walk = func(t, d int) bool {
		if t == id {
			return true
		}
		if d > depth || seen[t] || t < 0 || t >= len(b.funcs) {
			return false
		}
		seen[t] = true
		g := b.funcs[t]
		for _, c := range g.f.Calls {
			if c.Descends {
				continue
			}
			for _, u := range c.Targets {
				if walk(u, d+1) {
					return true
				}
			}
		}
		for _, k := range g.kids {
			if walk(k.f.ID, d+1) {
				return true
			}
		}
		return false
	}
	for _, t := range ts {
		if walk(t, 0) {
			return true
		}
	}
	return false
}

// externalHooks exports the private methods that implement a hook of a base class outside the
// analysed set (AgentExecutor._call under Chain.invoke): nothing here calls them, the base's
// public methods do.
func (b *builder) externalHooks() {
	called := map[int]bool{}
	for _, f := range b.prog.Funcs {
		for _, c := range f.Calls {
			for _, t := range c.Targets {
				called[t] = true
			}
		}
	}
	for _, k := range b.sortedClasses() {
		if !k.exported || k.mod.t.lang != "python" {
			continue
		}
		ext := ""
		for _, base := range k.bases {
			name := strings.TrimSpace(base)
			if i := strings.IndexAny(name, "[("); i > 0 {
				name = name[:i]
			}
			if b.classByExpr(k.mod, name) != nil || primitiveType[name] || name == "ABC" || name == "Generic" || name == "Protocol" ||
				name == "BaseModel" || strings.HasSuffix(name, "Exception") || strings.HasSuffix(name, "Error") {
				continue
			}
			parts := strings.Split(name, ".")
			if s := k.mod.syms[parts[0]]; s != nil {
				if t := b.symTarget(k.mod, s, 0); t.key != "" && t.cls == nil && t.fns == nil {
					ext = strings.Join(append([]string{t.key}, parts[1:]...), ".")
					break
				}
			}
		}
		if ext == "" {
			continue
		}
		for _, name := range sortedMethodNames(k) {
			fs := k.methods[name]
			if !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__") || called[fs.f.ID] || fs.f.Exported {
				continue
			}
			fs.f.Exported, fs.f.ExportedVia = true, ext+"."+name
		}
	}
}

func (b *builder) resolveCallsOf(fs *fnState) {
	{
		m, f := fs.mod, fs.f
		fs.callOf = map[*syntax.Node]int{}
		for _, ci := range fs.callInfo {
			n := ci.node
			if !m.t.calls.has(n) && !m.t.news.has(n) {
				f.Calls = append(f.Calls, b.iterationCall(fs, ci))
				fs.callOf[n] = len(f.Calls) - 1
				continue
			}
			fn := n.Child("function")
			if fn == nil {
				fn = n.Child("constructor")
			}
			fn = unAwait(m, fn)
			text := calleeText(m, n)
			c := ir.Call{ID: len(f.Calls), Pos: m.pos(n), Source: m.source(n), Text: clip(oneLine(joinChain(m.text(n))), 100),
				Loops: ci.loops, Concurrent: ci.conc, Dominates: ci.top && len(ci.loops) > 0}
			c.Method = text
			c.Input = stdinReads[m.t.lang][text]
			if i := strings.LastIndexAny(text, "."); i >= 0 {
				c.Method = text[i+1:]
			}
			tg := b.resolveExpr(fs, fn, 0)
			if len(tg.inst) > 0 && len(tg.fns) == 0 && m.t.lang == "python" {
				tg = b.memberOf(tg.inst, "__call__") // calling an instance runs its __call__
			}
			if len(tg.fns) == 0 && tg.cls == nil && tg.mod == nil && tg.value == nil && len(tg.inst) == 0 && fn != nil && m.t.members.has(fn) {
				// getGlobalTraceProvider().createTrace(...): a method of what a call returns,
				// resolved when one class of the program alone defines a method of that name
				ms := b.methodsByName[m.text(fn.Child(m.t.memberProp))]
				if m.t.detaches[m.text(fn.Child(m.t.memberProp))] {
					ms = nil // p.then(cb): a promise's, not the one thenable class's
				}
				if obj := strip(unAwait(m, fn.Child("object"))); obj != nil && m.t.calls.has(obj) {
					if len(ms) == 1 {
						tg.fns = ms
					}
				} else if obj != nil && m.t.namedReceivers && (m.t.idents.has(obj) || m.t.members.has(obj)) && len(ms) > 1 {
					// loop.tick() on an untyped receiver: the one class defining the method
					// whose name ends with the receiver's (PregelLoop, not PregelRunner)
					recv := strings.ToLower(lastSeg(m.text(obj)))
					var hit []*fnState
					for _, x := range ms {
						if x.cls != nil && len(recv) >= 3 && strings.HasSuffix(strings.ToLower(x.cls.name), recv) {
							hit = append(hit, x)
						}
					}
					if len(hit) == 1 {
						tg.fns = hit
					}
				}
			}
			if tg.abstract != "" && c.Abstract == "" {
				c.Abstract = tg.abstract
			}
			if tg.cls != nil {
				tg.fns = append(tg.fns, tg.cls.ctor()...)
				c.Keys = append(c.Keys, tg.cls.key)
				p := b.parentIn(fs, n)
				for p != nil && (p.Kind == "conditional_expression" || p.Kind == "parenthesized_expression" || p.Kind == "boolean_operator") {
					p = b.parentIn(fs, p) // with (nullcontext() if off else Manager(...)):
				}
				entered := false
				if p != nil && p.Kind == "argument_list" {
					// stack.enter_context(Manager(...)) / enter_async_context
					if pc := b.parentIn(fs, p); pc != nil && m.t.calls.has(pc) {
						ct := calleeText(m, pc)
						entered = strings.HasSuffix(ct, ".enter_context") || strings.HasSuffix(ct, ".enter_async_context")
					}
				}
				if p != nil && (p.Kind == "with_item" || p.Kind == "as_pattern") || entered {
					// with Manager(...): its __enter__ and __exit__ run here
					for _, meth := range []string{"__enter__", "__aenter__", "__exit__", "__aexit__"} {
						tg.fns = append(tg.fns, methodOf(tg.cls, meth, false)...)
					}
				}
			}
			seen := map[int]bool{}
			addTargets(&c, f, tg.fns, seen)
			if k := fs.kidsByNode[strip(fn)]; len(c.Targets) == 0 && k != nil {
				// (async () => { … })(): a function expression called where it is written
				addTargets(&c, f, []*fnState{k}, seen)
			}
			if len(c.Targets) == 0 && tg.key != "" && tg.cls == nil {
				c.Callees = []string{tg.key}
				c.Keys = []string{tg.key}
			}
			// callbacks passed as arguments
			if args := n.Child("arguments"); args != nil {
				for ai, a := range args.NamedChildren() {
					a = strip(a)
					if a.Kind == "keyword_argument" {
						a = strip(a.Child("value"))
					}
					if a == nil {
						continue
					}
					if k := fs.kidsByNode[a]; k != nil {
						c.ArgFuncs = append(c.ArgFuncs, k.f.ID)
						continue
					}
					if a.Kind == "object" {
						// run({ type, execute: executeStep }): callbacks handed over as options, to
						// a callee that runs that option (or to code outside the set)
						for _, pr := range a.NamedChildren() {
							v := pr
							key := m.text(pr)
							switch {
							case pr.Kind == "pair":
								v, key = strip(pr.Child("value")), strings.Trim(m.text(pr.Child("key")), `"'`)
							case pr.Kind == "method_definition":
								// new TransformStream({ transform(chunk, c) {…}, flush(c) {…} }):
								// a method of the options object, run by the callee
								key = m.text(pr.Child("name"))
							case pr.Kind != "shorthand_property_identifier":
								continue
							}
							if !b.runsOption(c.Targets, ai, key) {
								continue
							}
							add := func(id int) {
								if !contains(c.ArgFuncs, id) {
									c.ArgFuncs = append(c.ArgFuncs, id)
								}
							}
							if k := fs.kidsByNode[v]; k != nil {
								add(k.f.ID)
							} else if v != nil && (m.t.idents.has(v) || v.Kind == "shorthand_property_identifier") {
								for _, t := range b.resolveName(fs, m.text(v)).fns {
									add(t.f.ID)
								}
							}
						}
						continue
					}
					if m.t.idents.has(a) || m.t.members.has(a) {
						at := b.resolveExpr(fs, a, 0)
						for _, t := range at.fns {
							c.ArgFuncs = append(c.ArgFuncs, t.f.ID)
							if ci.conc != "" && t.f.Launch == "" && t.parent == fs {
								// Promise.allSettled(calls.map(runToolCall)): a local function
								// value handed by name to a concurrent member runs as one, as the
								// arrow written in its place would (applied after the
								// parallel pass: see resolveCalls)
								fs.launches = append(fs.launches, launch{t, ci.conc})
							}
							if ai == 0 && boundCalls[calleeText(m, n)] && !seen[t.f.ID] {
								// functools.partial(self.execute_tool_call, tool_call=tc): a
								// deferred call of f with these arguments
								if len(c.Targets) == 0 {
									c.Callees, c.Keys = nil, nil // (not functools.partial itself)
								}
								seen[t.f.ID] = true
								c.Targets = append(c.Targets, t.f.ID)
								c.Callees = append(c.Callees, t.f.Name)
							}
							if ci.conc != "" || concurrentTask[c.Method] {
								// executor.submit(fn, ...): the call runs fn
								if !seen[t.f.ID] {
									seen[t.f.ID] = true
									c.Targets = append(c.Targets, t.f.ID)
									c.Callees = append(c.Callees, t.f.Name)
								}
								if c.Concurrent == "" {
									c.Concurrent = "go"
								}
							}
						}
					}
					if m.t.idents.has(a) || m.t.members.has(a) {
						if pk := paramKind(fs, m.text(a)); pk == "context" || isSignalExpr(m.text(a)) {
							c.PassesContext = true
							c.ContextArg = "param"
							if !fs.params[m.text(a)] {
								c.ContextArg = "derived"
							}
						}
					}
				}
			}
			// each callback once (a name can resolve to the same function twice: a local and
			// its alias)
			c.ArgFuncs = slices.Compact(c.ArgFuncs)
			if c.Concurrent == "" && len(m.t.detaches) > 0 && b.detached(fs, n) {
				// this.#loop(...).then(done, fail) not awaited: the async callee runs beside
				// the caller, which returns before it ends
				for _, t := range tg.fns {
					if t.async {
						c.Concurrent = "go"
					}
				}
			}
			if c.Concurrent == "" {
				fs.inherit = append(fs.inherit, c.ID) // may run in a launched function: resolveCalls
			}
			fs.callOf[n] = c.ID
			f.Calls = append(f.Calls, c)
		}
	}
}

// joinChain joins the lines of a method chain written one call a line
//
//	Promise.resolve()
//	    .then(executor)
//	    .catch((error) => { … })
//
// into one (Promise.resolve().then(executor).catch((error) => { …), so that the call's text,
// cut at its first line, still shows the calls of the chain and what they are handed.
func joinChain(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.WriteString(strings.TrimRight(lines[0], " \t\r"))
	for i, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, ".") && !strings.HasPrefix(t, "?.") {
			b.WriteString("\n")
			b.WriteString(strings.Join(lines[i+1:], "\n"))
			break
		}
		b.WriteString(t)
	}
	return b.String()
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

func paramKind(fs *fnState, name string) string {
	for _, p := range fs.f.Params {
		if p.Name == name {
			return p.Kind
		}
	}
	return ""
}

func isSignalExpr(s string) bool {
	l := strings.ToLower(s)
	return strings.HasSuffix(l, "signal") || strings.HasSuffix(l, "abortsignal") || strings.HasSuffix(l, "cancel_event") ||
		strings.HasSuffix(l, "cancellation_token") || strings.HasSuffix(l, "canceltoken")
}

// localAliases records local variables bound to functions (f = a or b, const f = x ? a : b,
// const run = this.run.bind(this)) as locals of the function.
func (b *builder) localAliases(fs *fnState) {
	m := fs.mod
	for _, a := range fs.assigns {
		if len(a.lhs) != 1 || strings.ContainsAny(a.lhs[0], ".[") {
			continue
		}
		if a.iter {
			// for runner in self.runners: out = runner(out) — each item a callable the
			// field's table holds (see fieldCallables)
			if a.rhs != nil && m.t.lang == "python" {
				if got := b.fieldCallables(fs, strip(a.rhs)); len(got) > 0 {
					fs.locals[a.lhs[0]] = append(fs.locals[a.lhs[0]], got...)
				}
			}
			continue
		}
		var got []*fnState
		for _, alt := range alternatives(m, a.rhs) {
			alt = strip(alt)
			if k := fs.kidsByNode[alt]; k != nil {
				got = append(got, k)
				continue
			}
			if alt.Kind == "call_expression" && strings.HasSuffix(calleeText(m, alt), ".bind") {
				alt = strip(alt.Child("function").Child("object"))
			}
			if m.t.idents.has(alt) || m.t.members.has(alt) {
				if alt.Kind == "identifier" && m.text(alt) == a.lhs[0] {
					continue
				}
				got = append(got, b.resolveExpr(fs, alt, 0).fns...)
				continue
			}
			got = append(got, b.tableEntries(fs, alt)...)
		}
		if len(got) > 0 {
			fs.locals[a.lhs[0]] = append(fs.locals[a.lhs[0]], got...)
		}
	}
}

// maxTableEntries caps the callables a lookup in a table of them stands for.
const maxTableEntries = 8

// tableEntries returns the functions a lookup in a field of self holding a table of
// callables may run: fn = self.handlers[key] or self.handlers.get(key), where a method of the
// class (or a base) stores into the field a dict or list literal of function values, or what
// dict()/list() makes of one, or what a method returns (langroid==0.69.16 agent/task.py:417
// self._entity_responder_map = dict(agent.entity_responders()), agent/base.py:229 returning
// [(Entity.AGENT, self.agent_response), (Entity.LLM, self.llm_response), ...], looked up at
// task.py:1638 response_fn = self._entity_responder_map[e]; response_fn(msg)).
func (b *builder) tableEntries(fs *fnState, n *syntax.Node) []*fnState {
	m, t := fs.mod, fs.mod.t
	n = strip(n)
	if n == nil {
		return nil
	}
	var obj *syntax.Node
	switch {
	case t.subscripts.has(n):
		obj = strip(n.Child(t.subObj))
	case t.calls.has(n):
		fn := strip(n.Child("function"))
		if fn == nil || !t.members.has(fn) || m.text(fn.Child(t.memberProp)) != "get" {
			return nil
		}
		obj = strip(fn.Child("object"))
	default:
		return nil
	}
	return b.fieldCallables(fs, obj)
}

// fieldCallables returns the functions a field of self holding a table of callables (obj is
// self.F) may hold: what a method of the class (or a base) stores into it (see tableEntries),
// or the default of its class-level declaration (see defaultCallables).
func (b *builder) fieldCallables(fs *fnState, obj *syntax.Node) []*fnState {
	m, t := fs.mod, fs.mod.t
	if obj == nil || !t.members.has(obj) || m.text(strip(obj.Child("object"))) != t.self {
		return nil
	}
	cls := enclosingClass(fs)
	if cls == nil {
		return nil
	}
	field := m.text(obj.Child(t.memberProp))
	lhs := t.self + "." + field
	var out []*fnState
	seen := map[*fnState]bool{}
	add := func(ks []*fnState) {
		for _, k := range ks {
			if !seen[k] && len(out) < maxTableEntries {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	for _, c := range append([]*class{cls}, cls.ancestors()...) {
		for _, name := range sortedMethodNames(c) {
			g := c.methods[name]
			for _, a := range g.assigns {
				if a.iter || a.rhs == nil || len(a.lhs) != 1 || a.lhs[0] != lhs {
					continue
				}
				add(b.callablesIn(g, a.rhs, 0))
			}
		}
		if v := c.fields[field]; v != nil && t.lang == "python" {
			add(defaultCallables(c.mod, cls, v))
		}
	}
	return out
}

// defaultCallables returns the methods of cls that the default of a class-level field
// declaration holds in a list or tuple of bound methods: an attrs field whose default is a
// Factory of a lambda taking self (griptape==1.13.0 griptape/tasks/prompt_task.py:81-87,
// subtask_runners = field(default=Factory(lambda self: [self.default_run_actions_subtasks,
// self.default_run_output_schema_validation_subtasks], takes_self=True)), looped over by
// try_run at 216: for subtask_runner in self.subtask_runners: output =
// subtask_runner(output)), or a dataclass/pydantic field whose default_factory is such a
// lambda. The methods are looked up on cls, the class of the method reading the field.
func defaultCallables(m *module, cls *class, v *syntax.Node) []*fnState {
	t := m.t
	self := ""
	for depth := 0; depth < 4; depth++ {
		v = strip(v)
		if v == nil {
			return nil
		}
		switch {
		case t.calls.has(v):
			args := v.Child("arguments")
			if args == nil {
				return nil
			}
			var next *syntax.Node
			switch lastSeg(calleeText(m, v)) {
			case "field", "Field", "ib", "attrib":
				for _, a := range args.NamedChildren() {
					if a.Kind == "keyword_argument" {
						switch m.text(a.Child("name")) {
						case "default", "default_factory", "factory":
							next = a.Child("value")
						}
					}
				}
			case "Factory":
				if kids := args.NamedChildren(); len(kids) > 0 && kids[0].Kind != "keyword_argument" {
					next = kids[0]
				}
			}
			if next == nil {
				return nil
			}
			v = next
			continue
		case t.lambdas.has(v):
			if ps := v.Child("parameters"); ps != nil {
				if kids := ps.NamedChildren(); len(kids) > 0 {
					self = m.text(kids[0])
				}
			}
			v = v.Child("body")
			continue
		}
		break
	}
	if self == "" || v == nil || v.Kind != "list" && v.Kind != "tuple" {
		return nil
	}
	var out []*fnState
	for _, e := range v.NamedChildren() {
		if e = strip(e); e == nil || !t.members.has(e) || m.text(strip(e.Child("object"))) != self {
			continue
		}
		if ks := methodOf(cls, m.text(e.Child(t.memberProp)), false); len(ks) == 1 {
			out = append(out, ks[0])
		}
	}
	return out
}

// callablesIn returns the function values a table expression of g holds: the values of a
// dict literal, the elements of a list or tuple literal (and of the pairs in it), the
// operand of dict()/list()/tuple(), what the functions a call runs return (two calls deep).
func (b *builder) callablesIn(g *fnState, v *syntax.Node, depth int) []*fnState {
	m, t := g.mod, g.mod.t
	v = strip(v)
	if v == nil || depth > 2 {
		return nil
	}
	var out []*fnState
	switch {
	case t.objects.has(v):
		for _, p := range v.NamedChildren() {
			if t.pairs.has(p) {
				out = append(out, b.callablesIn(g, p.Child("value"), depth)...)
			}
		}
	case v.Kind == "list" || v.Kind == "tuple" || v.Kind == "array":
		for _, e := range v.NamedChildren() {
			out = append(out, b.callablesIn(g, e, depth)...)
		}
	case t.idents.has(v) || t.members.has(v):
		if k := g.kidsByNode[v]; k != nil {
			return []*fnState{k}
		}
		if t.idents.has(v) {
			// agent_entity_responders = agent.entity_responders(); dict(agent_entity_responders)
			// (langroid==0.69.16 agent/task.py:403-419): what the local was bound to
			// (the assignments scanned, not g.index(): calls are not resolved yet here)
			name, bound := m.text(v), false
			for _, a := range g.assigns {
				if !a.iter && a.rhs != nil && len(a.lhs) == 1 && a.lhs[0] == name {
					bound = true
					out = append(out, b.callablesIn(g, a.rhs, depth+1)...)
				}
			}
			if bound {
				return out
			}
		}
		out = append(out, b.resolveExpr(g, v, 0).fns...)
	case t.calls.has(v):
		fn := strip(v.Child("function"))
		if fn == nil {
			return nil
		}
		if t.idents.has(fn) {
			switch m.text(fn) {
			case "dict", "list", "tuple", "OrderedDict":
				if args := v.Child("arguments"); args != nil {
					if kids := args.NamedChildren(); len(kids) == 1 {
						return b.callablesIn(g, kids[0], depth)
					}
				}
				return nil
			}
		}
		tg := b.resolveExpr(g, fn, 0)
		if len(tg.fns) == 0 || len(tg.fns) > 3 {
			return nil
		}
		for _, h := range tg.fns {
			for _, r := range h.retNodes {
				if kids := r.NamedChildren(); len(kids) == 1 {
					out = append(out, b.callablesIn(h, kids[0], depth+1)...)
				}
			}
		}
	}
	return out
}

// finish derives the per-function facts that need resolved calls, then program facts.
func (b *builder) finish() {
	b.counterArgs()
	b.recursionCounters()
	b.fieldFacts()
	// every function's loop heads first: returns reads the loops of the generators a
	// function drains (relaysResults), which may be another worker's function
	b.each(b.overCalls)
	b.each(func(fs *fnState) {
		b.returns(fs)
		b.branches(fs)
		b.cancels(fs)
		b.mints(fs)
		fs.index()
	})
	b.each(b.markRaises)
	b.each(b.raisingCalls)
	for range 2 {
		for _, fs := range b.funcs {
			b.callCancels(fs, false)
		}
	}
	for _, fs := range b.funcs {
		b.callCancels(fs, true)
	}
	b.perElementLaunches()
	b.each(b.flows)
	b.wrappedFlows()
	b.stateLeaves()
	b.stopSets()
	b.accessors()
	b.defaults()
	b.objectDefaults()
	b.keyDefaults()
	b.argDefaults()
	b.deadDefaults()
	b.fieldDefaults()
	b.fallbackDefaults()
	b.callerOptions()
	b.directives()
	b.sentinels()
}

// overCalls links loops to the call whose result they range over.
func (b *builder) overCalls(fs *fnState) {
	m := fs.mod
	// the variables bound to a call's result, with where (a loop drains the last one bound
	// before it: events = cycle(...) in a try, events = retry(...) in its handler)
	type bound struct{ call, at int }
	fromCall := map[string][]bound{}
	for _, a := range fs.assigns {
		if a.iter || len(a.lhs) != 1 || a.node == nil {
			continue
		}
		if id, ok := fs.callOf[strip(a.rhs)]; ok {
			fromCall[a.lhs[0]] = append(fromCall[a.lhs[0]], bound{id, a.node.Start})
		}
	}
	for _, a := range fs.assigns {
		// for (;;) { const { done, value } = await reader.read(); if (done) break; … }: the
		// loop steps an iterator by hand (the iterator protocol's result), it drains the
		// stream of the call the step reads, as for await (const value of …) would
		if !a.iter && len(a.loops) > 0 && fs.f.Loops[a.loops[0]].Kind == ir.LoopFor && fs.f.Loops[a.loops[0]].OverCall < 0 && m.t.declarators.has(a.node) {
			if id, ok := fs.callOf[strip(a.rhs)]; ok && iterResult(m, a.node.Child("name")) {
				fs.f.Loops[a.loops[0]].OverCall = id
				fs.f.Loops[a.loops[0]].Kind = ir.LoopRangeIter
			}
		}
		if !a.iter || a.loop < 0 {
			continue
		}
		r := strip(a.rhs)
		if id, ok := fs.callOf[r]; ok {
			fs.f.Loops[a.loop].OverCall = id
		} else if bs := fromCall[m.text(r)]; len(bs) > 0 {
			best := bs[len(bs)-1]
			for _, x := range bs {
				if x.at < r.Start && (best.at >= r.Start || x.at > best.at) {
					best = x
				}
			}
			fs.f.Loops[a.loop].OverCall = best.call
		}
		// a sync for over a generator function of the set is a stream drain
		if oc := fs.f.Loops[a.loop].OverCall; oc >= 0 && fs.f.Loops[a.loop].Kind == ir.LoopRangeList {
			for _, t := range fs.f.Calls[oc].Targets {
				if r := b.prog.Funcs[t].Results; len(r) > 0 && (r[0] == "iterator" || r[0] == "stream") {
					fs.f.Loops[a.loop].Kind = ir.LoopRangeIter
				}
			}
		}
	}
}

// iterResult reports whether pat destructures an iterator protocol result: an object pattern
// binding both done and value ({ done, value }, { done: d, value: chunk }).
func iterResult(m *module, pat *syntax.Node) bool {
	if pat == nil || pat.Kind != "object_pattern" {
		return false
	}
	keys := map[string]bool{}
	for _, c := range pat.NamedChildren() {
		switch c.Kind {
		case "shorthand_property_identifier_pattern":
			keys[m.text(c)] = true
		case "pair_pattern":
			keys[m.text(c.Child("key"))] = true
		case "object_assignment_pattern":
			keys[m.text(c.Child("left"))] = true
		}
	}
	return keys["done"] && keys["value"]
}

func innermost(loops []int) int {
	if len(loops) == 0 {
		return -1
	}
	return loops[0]
}

// returns records return, raise and throw statements and the implicit return at the end.
func (b *builder) returns(fs *fnState) {
	m, f, t := fs.mod, fs.f, fs.mod.t
	for i, n := range fs.retNodes {
		r := ir.Return{Pos: m.pos(n), Source: m.source(n), Text: clip(oneLine(m.text(n)), 100), InLoop: innermost(fs.retLoops[i])}
		var e *syntax.Node
		if k := n.NamedChildren(); len(k) > 0 {
			e = k[0]
		}
		if t.raises.has(n) {
			r.Err = b.raised(fs, e)
			r.Raise = true
			if r.Err.Kind == ir.ValCall && r.Err.Call < 0 {
				r.TryLoops, r.Caught = b.rethrown(fs, n, e)
			}
			r.State = b.stateOf(fs, n, nil)
		} else {
			r.State = b.stateOf(fs, n, e)
			r.Err = &ir.Value{Kind: ir.ValNil, Call: -1}
			if r.State == "" && (b.underCancelIf(fs, n) || b.inCancelHandler(fs, n)) {
				// if cancelled { …; return }, except KeyboardInterrupt: …; return: the run
				// ends cancelled
				r.State = "cancelled"
			}
			if e == nil {
				if oc := b.reyields(fs, b.before(fs, n)); oc >= 0 {
					// async for ev in inner(...): yield ev; return — the generator ends when
					// the inner one does, with its exits (as at the end of the body)
					r.Err = &ir.Value{Kind: ir.ValCall, Call: oc, Text: f.Calls[oc].Text, Stream: true}
				}
			}
			if e != nil {
				// return terminal / return async (ctx) => {…}: a function of its own the
				// caller runs later (a middleware chain's terminal, a callback)
				k := fs.kidsByNode[strip(e)]
				if k == nil && t.idents.has(strip(e)) {
					if ks := fs.locals[m.text(strip(e))]; len(ks) == 1 && ks[0].parent == fs {
						k = ks[0]
					}
				}
				if k != nil && k.f.Launch == "" {
					k.f.Launch = "return"
				}
				v := b.value(fs, e)
				if k != nil && v.Kind == ir.ValOther {
					v.Stream = true // a function the caller runs: what it does is the run's
				}
				if v.Kind == ir.ValOther && r.InLoop < 0 {
					// return result, where const result = await this.#loop(...): the value of
					// a call of the program's own code, handed on (a reply held in a turn
					// loop is the answer, not a hand-off)
					if rhs := b.heldCall(fs, e, n.Start); rhs != nil {
						if hv := b.value(fs, rhs); hv.Kind == ir.ValCall && len(f.Calls[hv.Call].Targets) > 0 {
							v, e = hv, rhs
						}
					}
				}
				if v.Kind == ir.ValOther && r.InLoop < 0 {
					// if mode == WAIT: out = worker.run_step(...) elif mode == STREAM: out =
					// worker.stream_step(...); return out: the result of one of them per path
					v.Alts = b.heldAlts(fs, e, n.Start)
				}
				if v.Kind == ir.ValCall {
					v = b.decorated(fs, v)
				}
				r.Values = []ir.Value{v}
				if v.Kind == ir.ValCall && !b.constructs(fs, e) {
					r.Err = &ir.Value{Kind: ir.ValCall, Call: v.Call, Text: v.Text}
				} else if v.Kind == ir.ValCall {
					r.Wraps = b.wraps(fs, e, n.Start)
				}
				if v.Stream && t.lang == "python" {
					// return gen(...): the caller drains the generator; its exits are the
					// generator's, the return itself hands the run on
					r.Err = &ir.Value{Kind: ir.ValCall, Call: v.Call, Text: v.Text, Stream: true}
				}
			}
		}
		b.reach(fs, &r, n.End) // (the calls of the returned expression run before it returns)
		if !t.raises.has(n) {
			r.Waiting = b.underPause(fs, n) || pauseKeyed(m, strip(e))
		}
		r.Guard = b.guardOf(fs, n)
		f.Returns = append(f.Returns, r)
	}
	// while True: if ctx.is_aborted: break — the body's last statement is a loop, left
	// under a cancellation test: the function ends there, cancelled
	if fs.body != nil {
		b.cancelBreaks(fs)
	}
	// the implicit return at the end of the body
	if fs.body != nil {
		last := lastStmt(fs.body)
		if fs.exprBody {
			r := ir.Return{Pos: m.pos(fs.body), Source: m.source(fs.body), Text: clip(oneLine(m.text(fs.body)), 100), InLoop: -1}
			v := b.value(fs, fs.body)
			r.Values = []ir.Value{v}
			r.Err = &ir.Value{Kind: ir.ValNil, Call: -1}
			if v.Kind == ir.ValCall {
				r.Err = &ir.Value{Kind: ir.ValCall, Call: v.Call, Text: v.Text}
			}
			b.reach(fs, &r, fs.body.End)
			f.Returns = append(f.Returns, r)
		} else if last == nil || !(t.returns.has(last) || t.raises.has(last) || endless(m, last)) {
			r := ir.Return{Pos: ir.Pos{File: m.file, Line: fs.node.EndLine}, Source: m.sourceLine(fs.node.EndLine), InLoop: -1,
				Err: &ir.Value{Kind: ir.ValNil, Call: -1}}
			if oc := b.reyields(fs, last); oc >= 0 {
				// async for ev in self._inner(...): yield ev as the generator's last statement:
				// it ends when the inner generator does (yield from), with its exits
				r.Err = &ir.Value{Kind: ir.ValCall, Call: oc, Text: f.Calls[oc].Text, Stream: true}
			}
			b.reach(fs, &r, fs.body.End)
			f.Returns = append(f.Returns, r)
		}
	}
}

// cancelBreaks records, as returns, the breaks out of the loop that is the last statement of
// fs's body taken under a test of a cancellation flag (if invocation_context.is_aborted:
// break): nothing runs after that loop, so the function ends there, cancelled.
func (b *builder) cancelBreaks(fs *fnState) {
	m, t := fs.mod, fs.mod.t
	last := lastStmt(fs.body)
	id := -1
	for i, ln := range fs.loopNodes {
		if ln == last {
			id = i
		}
	}
	if id < 0 || id >= len(fs.f.Loops) {
		return
	}
	eachNode(t, last.Child("body"), func(x *syntax.Node) bool {
		if t.whiles.has(x) || t.foreachs.has(x) || t.cfors.has(x) || t.dos.has(x) || x.Kind == "switch_statement" {
			return false // a break there leaves the inner statement
		}
		if !t.breaks.has(x) || !b.underCancelIf(fs, x) {
			return true
		}
		r := ir.Return{Pos: m.pos(x), Source: m.source(x), Text: clip(oneLine(m.text(x)), 100), InLoop: id,
			Err: &ir.Value{Kind: ir.ValNil, Call: -1}, State: "cancelled"}
		b.reach(fs, &r, x.End)
		fs.f.Returns = append(fs.f.Returns, r)
		return true
	})
}

// runsOption reports whether one of the functions targets (none: code outside the set) calls
// the option key of its parameter idx in its own body, or hands it on as an argument: execute()
// of ({ execute }) => execute(), options.execute(...) of (options) => ….
func (b *builder) runsOption(targets []int, idx int, key string) bool {
	if len(targets) == 0 {
		return true
	}
	for _, t := range targets {
		g := b.funcs[t]
		if idx >= len(g.f.Params) {
			continue
		}
		name := g.f.Params[idx].Name
		if idx < len(g.patNames) && g.patNames[idx] != nil {
			name = g.patNames[idx][key]
		} else if name != "" {
			name += "." + key
		}
		if name == "" {
			continue
		}
		if callsOption(g, name, strings.SplitN(name, ".", 2)[0]) {
			return true
		}
	}
	return false
}

// callsOption reports whether g, or a closure written in g as a call's argument that does
// not shadow root (the parameter name is bound to), calls name or hands it to a call. A closure captures the
// option it runs: recordSpan({ tracer, fn }) runs fn inside the callback it hands to
// tracer.startActiveSpan (async (span) => { … await context.with(ctx, () => fn(span)) … };
// ai@6.0.325 dist/index.js:2551).
func callsOption(g *fnState, name, root string) bool {
	for _, gc := range g.callInfo {
		// (g's Calls are being built by another goroutine: only its syntax is read)
		callee := calleeText(g.mod, gc.node)
		if callee == name {
			return true
		}
		if meth := callee[strings.LastIndexByte(callee, '.')+1:]; appendMeths[meth] || meth == "set" {
			continue // handlers.push(handler): kept for later, not run
		}
		for _, a := range gc.node.Child("arguments").NamedChildren() {
			if g.mod.text(strip(a)) == name {
				return true
			}
		}
	}
	for _, k := range g.kids {
		if !k.params[root] && handedToCall(k) && callsOption(k, name, root) {
			return true
		}
	}
	return false
}

// handedToCall reports whether closure k is written as an argument of a call (a callback
// the call runs: tracer.startActiveSpan(name, async (span) => …)), not stored or returned
// to run later (tool({ invoke: async (…) => options.execute(…) }) keeps it).
func handedToCall(k *fnState) bool {
	if k.node == nil {
		return false
	}
	p := k.node.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	return p != nil && (p.Kind == "arguments" || p.Kind == "argument_list")
}

// reyields returns the call a generator's statement n drains when n is a loop over the items
// of a generator of the set that yields each item on (a delegation written out), -1 if not.
func (b *builder) reyields(fs *fnState, n *syntax.Node) int {
	if !fs.gen || n == nil || !fs.mod.t.foreachs.has(n) {
		return -1
	}
	id := -1
	for i, ln := range fs.loopNodes {
		if ln == n {
			id = i
		}
	}
	if id < 0 || id >= len(fs.f.Loops) {
		return -1
	}
	oc := fs.f.Loops[id].OverCall
	if oc < 0 || !b.yieldsResults(&fs.f.Calls[oc]) {
		return -1
	}
	vars := map[string]bool{}
	for _, a := range fs.assigns {
		if a.iter && a.loop == id {
			for _, v := range a.lhs {
				vars[v] = true
			}
		}
	}
	m := fs.mod
	found := false
	eachNode(m.t, n.Child("body"), func(x *syntax.Node) bool {
		if m.t.yields.has(x) {
			if k := x.NamedChildren(); len(k) == 1 && vars[m.text(strip(k[0]))] {
				found = true
			}
		}
		return !found
	})
	if !found {
		return -1
	}
	return oc
}

func (m *module) sourceLine(line int) string {
	return m.source(&syntax.Node{Line: line})
}

// endless reports whether a statement is a loop without a condition that nothing breaks out
// of (while True, for (;;)): the end of the body after it is unreachable.
func endless(m *module, n *syntax.Node) bool {
	t := m.t
	if !t.whiles.has(n) && !t.cfors.has(n) {
		return false
	}
	c := strings.Trim(m.text(n.Child("condition")), "() ;")
	if c != "" && c != "True" && c != "true" && c != "1" {
		return false
	}
	broke := false
	depth := 0
	var walk func(x *syntax.Node)
	walk = func(x *syntax.Node) {
		if broke || x == nil {
			return
		}
		if t.breaks.has(x) && depth == 0 {
			broke = true
			return
		}
		loop := t.whiles.has(x) || t.foreachs.has(x) || t.cfors.has(x) || t.dos.has(x) || x.Kind == "switch_statement"
		if loop {
			depth++
		}
		for _, c := range x.Children {
			if !t.funcs.has(c) && !t.lambdas.has(c) {
				walk(c)
			}
		}
		if loop {
			depth--
		}
	}
	walk(n.Child("body"))
	return !broke
}

func lastStmt(body *syntax.Node) *syntax.Node {
	k := body.NamedChildren()
	for i := len(k) - 1; i >= 0; i-- {
		if k[i].Kind != "comment" {
			return k[i]
		}
	}
	return nil
}

// reach fills AfterLoops and AfterCalls by source order: what starts before the return,
// except in a branch that leaves before it (if (...) { await run(); return }).
func (b *builder) reach(fs *fnState, r *ir.Return, at int) {
	for i, ln := range fs.loopNodes {
		if ln.Start < at && !b.leftBefore(fs, ln, at) {
			r.AfterLoops = append(r.AfterLoops, i)
		}
	}
	// calls into functions of the set, or handed closures, may start the run; a call outside
	// the set may be the step's model call (a recursion's: the run is under way after it,
	// const response = await this.client.chat.completions.create(...) at the top of chat)
	for i, ci := range fs.callInfo {
		if ci.start < at && i < len(fs.f.Calls) && !b.leftBefore(fs, ci.node, at) {
			r.AfterCalls = append(r.AfterCalls, i)
		}
	}
}

// leftBefore reports whether n sits in a branch (of an if, else or case) that ends by
// returning or raising and ends before offset at: no path runs n and then reaches at. Inside
// a try body a raise may still lead on to its handlers, so nothing there is left.
func (b *builder) leftBefore(fs *fnState, n *syntax.Node, at int) bool {
	t := fs.mod.t
	if n == nil || fs.body == nil {
		return false
	}
	// n's ancestors must reach fs.body with no function or lambda nested in it on the way
	// (parentIn's test, made once for the whole chain: each of them then has its parent in
	// the body)
	for x := n.Parent; x != fs.body; x = x.Parent {
		if x == nil || t.funcs.has(x) || t.lambdas.has(x) {
			return false
		}
	}
	left := false
	for p := n.Parent; p != fs.body; p = p.Parent {
		pp := p.Parent
		if t.tries.has(pp) && p.Field == "body" {
			return false
		}
		if !left && p.End <= at && t.blocks.has(p) && (t.ifs.has(pp) || pp.Kind == "else_clause" || t.cases.has(pp)) {
			if last := lastStmt(p); last != nil && (t.returns.has(last) || t.raises.has(last)) {
				left = true
			}
		}
	}
	return left
}

// heldCall is the call a returned local variable holds: the right-hand side of its one
// assignment in fs, before the return at offset at, when that is a call (const r = await
// f(); return r). A variable assigned more than once, bound by a loop or assigned after the
// return holds no one call; so does one assigned in a loop or one whose fields are set.
func (b *builder) heldCall(fs *fnState, e *syntax.Node, at int) *syntax.Node {
	m := fs.mod
	e = strip(e)
	if e == nil || e.Kind != "identifier" {
		return nil
	}
	name := m.text(e)
	var rhs *syntax.Node
	built := false
	for _, a := range fs.assigns {
		for _, l := range a.lhs {
			if strings.HasPrefix(l, name+".") || strings.HasPrefix(l, name+"[") {
				// result.field = ...: a value the function builds on, not one handed on
				built = true
			}
		}
		if len(a.lhs) != 1 || a.lhs[0] != name {
			continue
		}
		if rhs != nil || a.iter || a.aug || a.rhs == nil || len(a.loops) > 0 || a.node.Start >= at {
			return nil
		}
		rhs = a.rhs
	}
	r := strip(rhs)
	if r == nil || !m.t.calls.has(r) && !m.t.news.has(r) {
		return nil
	}
	if built {
		// (but the result of the recursion's next call, decorated with this step's tool
		// calls — const completion = await this.chat(model, thread, opts);
		// completion.toolCalls = [...toolCallInfo, ...]; return completion, multi-llm-ts@5.1.1
		// dist/index.js:1575-1586 — hands back what the deeper call decided)
		id, ok := fs.callOf[strip(unAwait(m, r))]
		if !ok || id >= len(fs.f.Calls) || !fs.f.Calls[id].Recursive || !slices.Contains(fs.f.Calls[id].Targets, fs.f.ID) {
			return nil
		}
	}
	return r
}

// heldAlts returns the calls (ids in fs.f.Calls) whose results a returned variable e holds,
// one per arm of an if statement (if mode == WAIT: out = worker.run_step(...) elif mode ==
// STREAM: out = worker.stream_step(...); return out): at least two, each assigned outside
// loops before at, each in another arm of the same if statement (ir.Value.Alts). Nil when the
// variable is assigned anything else or the assignments may run one after the other.
func (b *builder) heldAlts(fs *fnState, e *syntax.Node, at int) []int {
	m := fs.mod
	e = strip(e)
	if e == nil || e.Kind != "identifier" {
		return nil
	}
	name := m.text(e)
	var nodes []*syntax.Node
	var ids []int
	for _, a := range fs.assigns {
		if !slices.Contains(a.lhs, name) {
			continue
		}
		r := strip(unAwait(m, a.rhs))
		id, ok := fs.callOf[r]
		if len(a.lhs) != 1 || a.iter || a.aug || r == nil || !ok || len(a.loops) > 0 || a.node.Start >= at {
			return nil
		}
		nodes, ids = append(nodes, a.node), append(ids, id)
	}
	if len(ids) < 2 {
		return nil
	}
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			if !b.otherArms(fs, nodes[i], nodes[j]) {
				return nil
			}
		}
	}
	return ids
}

// otherArms reports whether nodes x and y lie in different arms (then, elif, else) of the
// innermost if statement of fs that holds both.
func (b *builder) otherArms(fs *fnState, x, y *syntax.Node) bool {
	t := fs.mod.t
	for p := x.Parent; p != nil && p != fs.body; p = p.Parent {
		if !t.ifs.has(p) || y.Start < p.Start || y.End > p.End {
			continue
		}
		armOf := func(n *syntax.Node) *syntax.Node {
			for ; n != nil && n.Parent != p; n = n.Parent {
			}
			return n
		}
		ax, ay := armOf(x), armOf(y)
		return ax != nil && ay != nil && ax != ay && ax != p.Child("condition") && ay != p.Child("condition")
	}
	return false
}

// value classifies a returned expression.
func (b *builder) value(fs *fnState, e *syntax.Node) ir.Value {
	m, t := fs.mod, fs.mod.t
	e = strip(e)
	v := ir.Value{Kind: ir.ValOther, Text: clip(oneLine(m.text(e)), 80), Call: -1}
	switch {
	case e == nil:
		v.Kind = ir.ValNil
	case t.literals.has(e) || t.numbers.has(e) || t.stringKinds.has(e):
		v.Kind = ir.ValConst
		if t.nones[m.text(e)] {
			v.Kind = ir.ValNil
		}
	case t.calls.has(e) || t.news.has(e):
		if id, ok := fs.callOf[e]; ok {
			v.Kind, v.Call = ir.ValCall, id
			if k := fs.f.Calls[id].Keys; len(k) > 0 {
				v.Key = k[0]
			}
			for _, tg := range fs.f.Calls[id].Targets {
				if r := b.prog.Funcs[tg].Results; len(r) > 0 && (r[0] == "iterator" || r[0] == "stream") {
					v.Stream = true
				}
			}
		}
	}
	return v
}

// raised classifies a raised or thrown value.
func (b *builder) raised(fs *fnState, e *syntax.Node) *ir.Value {
	m, t := fs.mod, fs.mod.t
	if e == nil {
		return &ir.Value{Kind: ir.ValCall, Text: "re-raise", Call: -1}
	}
	e = strip(e)
	v := &ir.Value{Kind: ir.ValError, Text: clip(oneLine(m.text(e)), 80), Call: -1}
	ctor := e
	if t.calls.has(e) || t.news.has(e) {
		ctor = e.Child("function")
		if ctor == nil {
			ctor = e.Child("constructor")
		}
	}
	name := m.text(strip(ctor))
	short := name
	if i := strings.LastIndexByte(short, '.'); i >= 0 {
		short = short[i+1:]
	}
	if e.Kind == "identifier" && !isClassName(short) {
		// raise err / throw e: a caught error passed on, unless the except clause that
		// binds it names one error class of the set (except AgentGenerationError as e)
		if k := b.caughtAs(fs, e); k != nil {
			return &ir.Value{Kind: ir.ValError, Text: v.Text, Key: k.key, Call: -1}
		}
		return &ir.Value{Kind: ir.ValCall, Text: v.Text, Call: -1}
	}
	l := strings.ToLower(short)
	if full := strings.ToLower(v.Text); (genericErrors[short] || !stopish(l)) && !strings.Contains(full, "interruption") &&
		!strings.Contains(full, "approval") && (strings.Contains(full, "abort") || strings.Contains(full, "cancel") ||
		strings.Contains(full, "interrupted")) {
		// an error whose message says the run was cancelled: AgentError("Agent interrupted.")
		l = full
	}
	switch {
	case strings.Contains(l, "cancel") || strings.Contains(l, "abort") || strings.Contains(l, "interrupt") && !strings.Contains(l, "approval") ||
		strings.HasSuffix(l, "drained"):
		// (GraphDrained: a cooperative drain stopped the run between steps)
		v.Kind = ir.ValCtxErr
	case isClassName(short) && !genericErrors[short]:
		v.Kind = ir.ValSentinel
		v.Key = name
		if tg := b.resolveExpr(fs, ctor, 0); tg.cls != nil {
			v.Key = tg.cls.key
		} else if tg.key != "" {
			v.Key = tg.key
		}
	}
	if id, ok := fs.callOf[e]; ok && v.Kind == ir.ValError {
		_ = id
	}
	return v
}

// rethrown returns, for raise statement n of fs that passes on the error its handler caught
// (a bare raise in an except clause, raise err of except … as err, throw e of catch (e)), the
// loops of fs inside the protected block of the try, and the error class the handler names as
// written ("" when it names none or only a generic error). Nil when n rethrows nothing caught.
func (b *builder) rethrown(fs *fnState, n, e *syntax.Node) ([]int, string) {
	m, t := fs.mod, fs.mod.t
	var clause *syntax.Node
	for p := b.parentIn(fs, n); p != nil; p = b.parentIn(fs, p) {
		if t.catches.has(p) {
			clause = p
			break
		}
	}
	if clause == nil {
		return nil, ""
	}
	binding, caught := "", ""
	if par := clause.Child("parameter"); par != nil {
		binding = m.text(par) // catch (e) { … }
	}
	for _, c := range clause.NamedChildren() {
		if c.Field == "parameter" || c.Field == "body" || c.Kind == "block" || c.Kind == "comment" {
			continue
		}
		x := c
		if c.Kind == "as_pattern" {
			if al := c.Child("alias"); al != nil {
				binding = strings.TrimSpace(m.text(al))
			}
			if k := c.NamedChildren(); len(k) > 0 {
				x = k[0]
			}
		}
		if x != nil && x != c.Child("alias") && x.Kind != "tuple" && caught == "" {
			caught = m.text(strip(x))
		}
		break
	}
	if e != nil && (binding == "" || m.text(strip(e)) != binding) {
		return nil, "" // raise another error than the one caught
	}
	if short := lastSeg(caught); genericErrors[short] || short == "BaseException" {
		caught = ""
	}
	try := b.parentIn(fs, clause)
	if try == nil || !t.tries.has(try) {
		return nil, caught
	}
	body := try.Child("body")
	if body == nil {
		return nil, caught
	}
	var loops []int
	for i, ln := range fs.loopNodes {
		if ln.Start >= body.Start && ln.End <= body.End || ln.Start <= try.Start && try.End <= ln.End {
			// the loops the protected block holds, or is inside (while True: try: self.step()
			// except Exception: raise: the step's error leaves the loop it is in)
			loops = append(loops, i)
		}
	}
	return loops, caught
}

func isClassName(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// stopish reports whether an error class's name names a stop reason of its own (a bound, a
// timeout): its message does not make it a cancellation.
func stopish(l string) bool {
	return containsAny(l, []string{"max", "limit", "exceed", "timeout", "budget", "recursion", "toomany", "too_many"})
}

// constructs reports whether a returned expression builds a value of a class that is no
// error (return RunResult(...), new Response(...)): a result, not a call whose outcome it
// passes on.
func (b *builder) constructs(fs *fnState, e *syntax.Node) bool {
	m := fs.mod
	e = strip(e)
	if e == nil {
		return false
	}
	if m.t.news.has(e) {
		return true
	}
	if !m.t.calls.has(e) {
		return false
	}
	fn := strip(e.Child("function"))
	name := m.text(fn)
	if name == "cls" && classOfReceiver(fs) != nil {
		return true // cls(...) in a class method: an instance of its class
	}
	short := name[strings.LastIndexByte(name, '.')+1:]
	if !isClassName(short) || strings.HasSuffix(short, "Error") || strings.HasSuffix(short, "Exception") {
		return false
	}
	if k := b.classByExpr(m, name); k != nil {
		return true
	}
	return m.t.lang == "python" && !strings.Contains(short, "_") && strings.ToUpper(short) != short
}

// caughtAs returns the error class of the except clause that binds the identifier e (except
// Cls as e), when it names one class of the set.
func (b *builder) caughtAs(fs *fnState, e *syntax.Node) *class {
	m := fs.mod
	name := m.text(e)
	for p := b.parentIn(fs, e); p != nil; p = b.parentIn(fs, p) {
		if p.Kind != "except_clause" {
			continue
		}
		for _, c := range p.NamedChildren() {
			if c.Kind != "as_pattern" {
				continue
			}
			al := c.Child("alias")
			if al == nil || strings.TrimSpace(m.text(al)) != name {
				continue
			}
			if k := c.NamedChildren(); len(k) > 0 && k[0].Kind != "tuple" {
				if cl := b.classByExpr(m, m.text(k[0])); cl != nil && !genericErrors[cl.name] {
					return cl
				}
			}
			return nil
		}
	}
	return nil
}

// mints records id mints.
func (b *builder) mints(fs *fnState) {
	m := fs.mod
	field := map[*syntax.Node]string{}
	for _, a := range fs.assigns {
		if len(a.lhs) == 1 && a.rhs != nil {
			field[strip(a.rhs)] = a.lhs[0]
		}
	}
	for i, ci := range fs.callInfo {
		text := calleeText(m, ci.node)
		last := text
		if j := strings.LastIndexByte(last, '.'); j >= 0 {
			last = last[j+1:]
		}
		if g := parentRead.FindStringSubmatch(last); g != nil {
			// getCurrentTraceContext(): a nested run takes the caller's trace or span as its
			// parent instead of opening its own
			fs.f.Mints = append(fs.f.Mints, ir.Mint{Pos: fs.f.Calls[i].Pos, Source: fs.f.Calls[i].Source,
				Text: fs.f.Calls[i].Text, Kind: "parent", Owners: []string{g[1]}})
			continue
		}
		if runStartHook.MatchString(last) && len(fs.f.Calls[i].Targets) == 0 && b.passesRunID(m, ci.node) {
			// callback_manager.on_chain_start(..., run_id=config.get("run_id")): the hook
			// outside the set opens the run under the id it is handed, or mints one
			fs.f.Mints = append(fs.f.Mints, ir.Mint{Pos: fs.f.Calls[i].Pos, Source: fs.f.Calls[i].Source,
				Text: fs.f.Calls[i].Text, Field: "run_id"})
			continue
		}
		if !mintCalls[text] && !mintCalls[last] && !(mintName.MatchString(last) && len(fs.f.Calls[i].Targets) == 0) {
			continue
		}
		if last == "v4" && !strings.Contains(strings.ToLower(text), "uuid") && !b.importedFrom(fs, text, "uuid") {
			continue
		}
		mt := ir.Mint{Pos: fs.f.Calls[i].Pos, Source: fs.f.Calls[i].Source, Text: fs.f.Calls[i].Text}
		// the enclosing str(...) / f-string / template: the node assigned
		for p := ci.node; p != nil; p = parentOf(fs, p) {
			if f, ok := field[p]; ok {
				mt.Field = f
				if j := strings.LastIndexByte(f, '.'); j >= 0 {
					mt.Field = f[j+1:]
				}
				break
			}
		}
		fs.f.Mints = append(fs.f.Mints, mt)
	}
	b.parentPairs(fs)
}

// parentPairs records the members of object and dictionary literals that hand a child the
// parent's id under a key naming the parent ({[parentNamespace]: checkpoint.id}, parent_ns:
// checkpoint["id"] in a task's configuration): Owners names what the id is of.
func (b *builder) parentPairs(fs *fnState) {
	m := fs.mod
	for _, p := range fs.pairs {
		key := strings.Trim(m.text(p.Child("key")), "[]\"'`")
		if !strings.Contains(strings.ToLower(key), "parent") {
			continue
		}
		g := idRead.FindStringSubmatch(m.text(strip(p.Child("value"))))
		if g == nil {
			continue
		}
		fs.f.Mints = append(fs.f.Mints, ir.Mint{Pos: m.pos(p), Source: m.source(p), Text: clip(oneLine(m.text(p)), 80),
			Kind: "parent", Field: key, Owners: []string{lastSeg(g[1])}})
	}
}

// passesRunID reports whether a call is handed a run id: a keyword argument run_id=..., or
// an argument that is a variable or field named so (runId, config.run_id).
func (b *builder) passesRunID(m *module, call *syntax.Node) bool {
	for _, a := range call.Child(m.t.callArgs).NamedChildren() {
		if m.t.keywordArgs.has(a) {
			if runIDArg.MatchString(m.text(a.Child("name"))) {
				return true
			}
			continue
		}
		if s := strip(a); s != nil && (m.t.idents.has(s) || m.t.members.has(s)) && runIDArg.MatchString(m.text(s)) {
			return true
		}
	}
	return false
}

// parentOf finds n's parent inside the function body (small bodies: a linear search is fine,
// only used for mints).
func parentOf(fs *fnState, n *syntax.Node) *syntax.Node {
	var found *syntax.Node
	var walk func(x *syntax.Node, depth int)
	walk = func(x *syntax.Node, depth int) {
		if found != nil || x == nil || depth > 60 || x.Start > n.Start || x.End < n.End {
			return
		}
		for _, c := range x.Children {
			if c == n {
				found = x
				return
			}
			walk(c, depth+1)
		}
	}
	walk(fs.body, 0)
	if found != nil && (found.Kind == "argument_list" || found.Kind == "arguments" || found.Kind == "interpolation" ||
		found.Kind == "template_substitution" || found.Kind == "call" || found.Kind == "call_expression" ||
		found.Kind == "string" || found.Kind == "template_string" || found.Kind == "member_expression" || found.Kind == "attribute") {
		return found
	}
	return nil
}

func (b *builder) importedFrom(fs *fnState, name, mod string) bool {
	s := fs.mod.syms[name]
	return s != nil && s.kind == symImport && strings.Contains(s.from, mod)
}

// sentinels lists the exception and error classes of the set.
func (b *builder) sentinels() {
	for _, k := range b.sortedClasses() {
		isErr := false
		for _, base := range append([]string{}, k.bases...) {
			bs := base
			if i := strings.LastIndexByte(bs, '.'); i >= 0 {
				bs = bs[i+1:]
			}
			if strings.HasSuffix(bs, "Error") || strings.HasSuffix(bs, "Exception") || genericErrors[bs] {
				isErr = true
			}
		}
		for _, a := range k.ancestors() {
			isErr = isErr || strings.HasSuffix(a.name, "Error") || strings.HasSuffix(a.name, "Exception")
		}
		if isErr {
			b.prog.Sentinels = append(b.prog.Sentinels, ir.Sentinel{Key: k.key, Text: k.name, Pos: k.pos})
		}
	}
	sort.SliceStable(b.prog.Sentinels, func(i, j int) bool { return b.prog.Sentinels[i].Key < b.prog.Sentinels[j].Key })
}

// diagnostics reports unparsed regions that overlap a function with a loop or calls. A
// dependency's file is the loader's to report (depLoader.diagnostics: the statements read).
func (b *builder) diagnostics() []Diag {
	var out []Diag
	for _, m := range b.order {
		if m.dep {
			continue
		}
		for _, r := range m.tree.Errors {
			for _, fs := range b.funcs {
				if fs.mod != m || fs.node.Start > r.Start || fs.node.End < r.End {
					continue
				}
				if len(fs.f.Loops) == 0 && len(fs.f.Calls) == 0 {
					continue
				}
				out = append(out, Diag{Pos: ir.Pos{File: m.file, Line: r.Line},
					Msg: fmt.Sprintf("%s inside %s: facts there may be missing", describeRegion(m.tree, r), fs.f.Short)})
				break
			}
		}
	}
	return out
}

// fieldFacts indexes, over the whole program, the fields incremented on some object
// (state._currentTurn++ in a helper the loop calls) and the classes whose methods assign a
// field of their instance (this._maxTurns = maxTurns): a field compared on a value of
// unknown type is keyed by the one class that has it.
func (b *builder) fieldFacts() {
	b.incFields = map[string]bool{}
	b.fieldOwners = map[string][]*class{}
	for _, fs := range b.funcs {
		t := fs.mod.t
		for _, in := range fs.incs {
			if i := strings.LastIndexByte(in.target, '.'); i > 0 {
				b.incFields[in.target[i+1:]] = true
			}
		}
		k := fs.cls
		if k == nil {
			continue
		}
		for _, a := range fs.assigns {
			for _, n := range a.lhs {
				if rest, ok := strings.CutPrefix(n, t.self+"."); ok && !strings.ContainsAny(rest, ".[") {
					owners := b.fieldOwners[rest]
					if len(owners) == 0 || owners[len(owners)-1] != k {
						b.fieldOwners[rest] = append(owners, k)
					}
				}
			}
		}
	}
}

// directives records the lifeline: comments on the lines above functions, methods and
// class-level fields (decorators and other comments may sit between).
func (b *builder) directives() {
	add := func(m *module, line int, key string) {
		for l := line - 1; l >= 1 && l > line-12; l-- {
			t := strings.TrimSpace(m.lines[l-1])
			if strings.HasPrefix(t, "@") {
				continue
			}
			var rest string
			switch {
			case strings.HasPrefix(t, "#"):
				rest = strings.TrimSpace(strings.TrimPrefix(t, "#"))
			case strings.HasPrefix(t, "//"):
				rest = strings.TrimSpace(strings.TrimPrefix(t, "//"))
			case strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*"):
				rest = strings.TrimSpace(strings.TrimLeft(t, "/*"))
			default:
				return
			}
			v, ok := strings.CutPrefix(rest, "lifeline:")
			if !ok {
				continue
			}
			f := strings.Fields(v)
			if len(f) == 0 || f[0] == "ignore" || f[0] == "file-ignore" {
				continue
			}
			b.prog.Directives = append(b.prog.Directives, ir.Directive{Key: key, Verb: f[0], Args: f[1:], Pos: ir.Pos{File: m.file, Line: l}})
		}
	}
	for _, fs := range b.funcs {
		if fs.f.Key != "" && fs.parent == nil {
			add(fs.mod, fs.node.Line, fs.f.Key)
		}
	}
	for _, k := range b.sortedClasses() {
		names := make([]string, 0, len(k.fields)+len(k.annots))
		seen := map[string]bool{}
		for n := range k.fields {
			names = append(names, n)
			seen[n] = true
		}
		for n := range k.annots {
			if !seen[n] {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			node := k.fields[n]
			if node == nil {
				node = k.annots[n]
			}
			add(k.mod, node.Line, k.key+"."+n)
		}
	}
}

// caseValue returns the value or pattern a switch or match arm matches, nil for a default
// arm.
func caseValue(m *module, arm *syntax.Node) *syntax.Node {
	if m.t.caseValue != "" {
		return arm.Child(m.t.caseValue)
	}
	for _, k := range arm.NamedChildren() {
		if m.t.casePatterns.has(k) {
			return k
		}
	}
	return nil
}

// pauseWords name the states in which a run waits for someone (an interruption for human
// input, a pending approval).
var pauseWords = []string{"interrupt", "approval", "awaiting_input", "waiting", "paused", "human_input", "needs_input"}

// underPause reports whether the statement n runs because a condition naming a pause holds:
// the nearest if whose then-branch holds it tests an interruption or approval.
func (b *builder) underPause(fs *fnState, n *syntax.Node) bool {
	m := fs.mod
	child := n
	for p := b.parentIn(fs, n); p != nil && p != fs.body; child, p = p, b.parentIn(fs, p) {
		if m.t.cases.has(p) {
			// case 'next_step_interruption': return ... — the case's value decides
			if v := caseValue(m, p); v != nil && v != child {
				c := strings.ToLower(m.text(v))
				return containsAny(c, pauseWords) && !strings.Contains(c, "cancel")
			}
			continue
		}
		if !m.t.ifs.has(p) {
			continue
		}
		if cons := p.Child("consequence"); cons == nil || cons != child && !(cons.Start <= child.Start && child.End <= cons.End) {
			continue
		}
		// the nearest test decides: a resumed pause (if state.step is Interruption: ...)
		// holds a whole turn whose returns say why it ended
		c := strings.ToLower(m.text(p.Child("condition")))
		return containsAny(c, pauseWords) && !strings.Contains(c, "cancel") && !strings.Contains(c, "not ") && !strings.Contains(c, "!") ||
			b.pauseVar(fs, p.Child("condition"))
	}
	return false
}

// detached reports whether the promise of call n is handed to a continuation and not awaited:
// continuation reports whether call n, a continuation of a promise (p.then(cb), p.catch(cb)),
// is a statement of its own, possibly continued by more of them (.then(ok).catch(fail)):
// nothing awaits, returns or keeps the promise, so its callbacks run after the caller goes on.
func (b *builder) continuation(fs *fnState, n *syntax.Node) bool {
	m := fs.mod
	cur := n
	for p := b.parentIn(fs, cur); p != nil; cur, p = p, b.parentIn(fs, p) {
		switch {
		case m.t.exprStmts.has(p):
			return len(p.NamedChildren()) == 1
		case m.t.members.has(p) && p.Child("object") == cur && m.t.detaches[m.text(p.Child(m.t.memberProp))]:
		case m.t.calls.has(p) && p.Child("function") == cur, p.Kind == "parenthesized_expression":
		default:
			return false
		}
	}
	return false
}

// n is the receiver of a chain of m.t.detaches calls (p.then(ok, fail).catch(...)) that no
// await, return or yield takes.
func (b *builder) detached(fs *fnState, n *syntax.Node) bool {
	m := fs.mod
	cur, chained := n, false
	for p := b.parentIn(fs, cur); p != nil; cur, p = p, b.parentIn(fs, p) {
		switch {
		case m.t.members.has(p) && p.Child("object") == cur && m.t.detaches[m.text(p.Child(m.t.memberProp))]:
			chained = true
		case m.t.calls.has(p) && p.Child("function") == cur, p.Kind == "parenthesized_expression":
		case m.t.awaits.has(p) || m.t.returns.has(p) || m.t.yields.has(p):
			return false
		default:
			return chained
		}
	}
	return chained
}

// before returns the statement before n in its block (nil when n is the first).
func (b *builder) before(fs *fnState, n *syntax.Node) *syntax.Node {
	p := b.parentIn(fs, n)
	if p == nil {
		return nil
	}
	var prev *syntax.Node
	for _, c := range p.Children {
		if c == n {
			return prev
		}
		if c.Named && c.Kind != "comment" {
			prev = c
		}
	}
	return nil
}

// inCancelHandler reports whether n lies in an except / catch clause of fs that catches a
// cancellation by its class (except KeyboardInterrupt:, except asyncio.CancelledError:;
// browser-use==0.13.14 agent/service.py:2682-2689 returns the history so far there).
func (b *builder) inCancelHandler(fs *fnState, n *syntax.Node) bool {
	m, t := fs.mod, fs.mod.t
	for c, p := n, b.parentIn(fs, n); p != nil && c != fs.body; c, p = p, b.parentIn(fs, p) {
		if !t.catches.has(p) {
			continue
		}
		for _, k := range p.NamedChildren() {
			if k.Field == "parameter" || k.Field == "body" || k.Kind == "block" || k.Kind == "comment" {
				continue
			}
			x := k
			if k.Kind == "as_pattern" {
				if ks := k.NamedChildren(); len(ks) > 0 {
					x = ks[0]
				}
			}
			var names []*syntax.Node
			if x.Kind == "tuple" || x.Kind == "parenthesized_expression" {
				names = x.NamedChildren()
			} else {
				names = []*syntax.Node{x}
			}
			for _, nm := range names {
				short := lastSeg(m.text(strip(nm)))
				if l := strings.ToLower(short); interruptErrors[short] || containsAny(l, []string{"cancel", "abort"}) {
					return true
				}
			}
			break
		}
		return false // the innermost handler decides
	}
	return false
}

// underCancelIf reports whether return n is in the taken branch of an if whose condition
// reads a cancellation flag or calls a cancellation check (if agent.cancelled or
// observe_cancellation(): …; return), within its function.
func (b *builder) underCancelIf(fs *fnState, n *syntax.Node) bool {
	m, t := fs.mod, fs.mod.t
	for c, p := n, b.parentIn(fs, n); p != nil && c != fs.body; c, p = p, b.parentIn(fs, p) {
		if !t.ifs.has(p) || p.Child("consequence") != c {
			continue
		}
		hit := false
		eachNode(t, p.Child("condition"), func(x *syntax.Node) bool {
			if hit {
				return false
			}
			if t.nots.has(x) {
				return false // not cancelled: the other way
			}
			if l, r, op, ok := compareOps(m, x); ok && (op == "==" || op == "===") {
				// err.name === 'AbortError', err.message === "AbortError": the error caught is
				// an abort (@huggingface/mcp-client@0.2.3 dist/src/index.js:388); (a status or
				// stop reason tested against literals is a guard of its own, see guardOf)
				l, r = strip(l), strip(r)
				for _, pair := range [][2]*syntax.Node{{l, r}, {r, l}} {
					v, ok := literalText(m, pair[0])
					if !ok || pair[1] == nil || !t.members.has(pair[1]) {
						continue
					}
					switch m.text(pair[1].Child(m.t.memberProp)) {
					case "name", "message", "code":
						if w := strings.ToLower(v); len(v) <= 40 && containsAny(w, []string{"cancel", "abort"}) {
							hit = true
						}
					}
				}
				if hit {
					return false
				}
			}
			if t.members.has(x) || t.idents.has(x) {
				txt := m.text(x)
				last := txt[strings.LastIndexByte(txt, '.')+1:]
				// (an interrupt for approval or input is no cancellation)
				if l := strings.ToLower(last); containsAny(l, []string{"cancel", "abort"}) && strings.ToUpper(last) != last {
					hit = true
				}
			}
			return !hit
		})
		if hit {
			return true
		}
	}
	return false
}

// decorated returns, for a returned method call chained on a call that runs a callback
// (return RunContext.enter(this, opts, async (ctx) => …).middleware(...mw)), the call that
// runs it: the chained method (unknown to the set) decorates the run that call starts and
// hands it back. Other values are returned as they are.
func (b *builder) decorated(fs *fnState, v ir.Value) ir.Value {
	m := fs.mod
	for range 3 {
		c := &fs.f.Calls[v.Call]
		if len(c.Targets) > 0 || len(c.ArgFuncs) > 0 {
			return v
		}
		fn := strip(unAwait(m, fs.callInfo[v.Call].node.Child("function")))
		if fn == nil || !m.t.members.has(fn) {
			return v
		}
		obj := strip(unAwait(m, fn.Child("object")))
		id, ok := fs.callOf[obj]
		if !ok || len(fs.f.Calls[id].ArgFuncs) != 1 {
			return v
		}
		v.Call, v.Text = id, clip(oneLine(m.text(obj)), 80)
		if k := fs.f.Calls[id].Keys; len(k) > 0 {
			v.Key = k[0]
		}
	}
	return v
}

// iterMethods are the methods an iteration over an instance runs, by language.
var iterMethods = map[string][]string{
	"python":     {"__aiter__", "__anext__", "__iter__", "__next__"},
	"typescript": {"[Symbol.asyncIterator]", "[Symbol.iterator]"},
	"javascript": {"[Symbol.asyncIterator]", "[Symbol.iterator]"},
}

// iterationCall is the call an iteration over the receiver makes (for await (const _ of
// this), for x in self): of the class's iterator methods (and their overrides).
func (b *builder) iterationCall(fs *fnState, ci callInfo) ir.Call {
	m, f := fs.mod, fs.f
	n := ci.node
	c := ir.Call{ID: len(f.Calls), Pos: m.pos(n), Source: m.source(n), Text: "iterate " + m.text(n), Loops: ci.loops, Concurrent: ci.conc,
		Dominates: ci.top && len(ci.loops) > 0, Method: "iterate"}
	k := enclosingClass(fs)
	if k == nil {
		return c
	}
	seen := map[int]bool{}
	for _, name := range iterMethods[m.t.lang] {
		addTargets(&c, f, b.memberOf([]*class{k}, name).fns, seen)
	}
	return c
}

// addTargets adds the functions ts (nil and seen ones skipped) to the call's targets, callees
// and keys, marking the call recursive when one of them is f, the caller.
func addTargets(c *ir.Call, f *ir.Func, ts []*fnState, seen map[int]bool) {
	for _, t := range ts {
		if t == nil || seen[t.f.ID] {
			continue
		}
		seen[t.f.ID] = true
		c.Targets = append(c.Targets, t.f.ID)
		c.Callees = append(c.Callees, t.f.Name)
		if t.f.Key != "" {
			c.Keys = append(c.Keys, t.f.Key)
		}
		if t.f.ID == f.ID {
			c.Recursive = true
		}
	}
}

// describeRegion says what the parser could not read in an error region: `incomplete syntax
// (lines 12-12, expected ")")` for a node the parser inserted, `unparsed region (lines 4-9,
// unexpected "=")` with the region's first token otherwise.
func describeRegion(t *syntax.Tree, r syntax.Region) string {
	if r.Missing {
		if r.Expected != "" {
			return fmt.Sprintf("incomplete syntax (lines %d-%d, expected %q)", r.Line, r.EndLine, r.Expected)
		}
		return fmt.Sprintf("incomplete syntax (lines %d-%d)", r.Line, r.EndLine)
	}
	if r.Start >= 0 && r.Start < r.End && r.End <= len(t.Src) {
		tok := strings.TrimSpace(string(t.Src[r.Start:r.End]))
		if i := strings.IndexAny(tok, " \t\r\n"); i >= 0 {
			tok = tok[:i]
		}
		if len(tok) > 24 {
			tok = tok[:24] + "…"
		}
		if tok != "" && utf8.ValidString(tok) {
			return fmt.Sprintf("unparsed region (lines %d-%d, unexpected %q)", r.Line, r.EndLine, tok)
		}
	}
	return fmt.Sprintf("unparsed region (lines %d-%d)", r.Line, r.EndLine)
}
