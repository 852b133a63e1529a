package srcir

import (
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// Leave tests on shared state (a step helper's loop): the loop repeats a helper (self.step(),
// yield* this.processTurn(...)) that calls the model and runs the tools, and leaves on a test
// of the state the helper wrote, not of a value returned to it (if self.messages[-1]["role"]
// == "exit": return ...; const last = this.messages.at(-1); if (last.role !== "tool") return).
// The model call's result never comes back to the loop; what the step appended to a field of
// the receiver is what the loop decides on. Such a test is recorded among the Checked of the
// flow of each call below the loop that dispatches tools (ir.Check.State).

// maxStateDepth is how many calls above the function holding a call the loop testing the
// state may sit (run -> step -> query), and how deep the methods writing the state are looked
// for (query -> add_message).
const maxStateDepth = 3

// stateLeaves adds the state tests of the loops above every call whose flow dispatches tools.
func (b *builder) stateLeaves() {
	callers := map[int][]ir.CallRef{}
	for _, fs := range b.funcs {
		for j, c := range fs.f.Calls {
			for _, t := range c.Targets {
				callers[t] = append(callers[t], ir.CallRef{Func: fs.f.ID, Call: j})
			}
		}
	}
	written := map[int]map[string]bool{}
	for _, fs := range b.funcs {
		if fs.f.Test {
			continue
		}
		for j := range fs.f.Calls {
			c := &fs.f.Calls[j]
			fl := c.Flow
			if fl == nil || len(fl.Dispatch) == 0 {
				continue
			}
			fields := map[string]bool{}
			for k := range b.writes(fs, written, 0) {
				fields[k] = true
			}
			for _, t := range c.Targets {
				if tg := b.funcs[t]; tg.cls != nil && selfCall(fs, j) {
					for k := range b.writes(tg, written, 0) {
						fields[k] = true
					}
				}
			}
			// the state the call decides on: what it (or the self method it calls) is
			// handed of the receiver (self.model.query(self.messages)); a queue's get() or
			// an event source reads no state the loop tests
			in := b.inputs(fs, j, 0)
			b.stateFeeds(fl, in, written)
			kept, recorded := b.resultFields(fs, j, fl, written)
			if pos, ok := b.resultsFed(fs, j, kept); ok && !fl.FeedsNext {
				fl.FeedsNext, fl.FeedPos = true, pos
			}
			for k := range fields {
				if !in[k] {
					delete(fields, k)
				}
			}
			for k := range recorded {
				fields[k] = true
			}
			if len(fields) == 0 {
				continue
			}
			fl.Checked = append(fl.Checked, b.stateTests(fs, j, fields, callers)...)
		}
	}
}

// writes returns the fields of the receiver fs writes (self.F.append(...), this.F.push(...),
// self.F = ..., self.F[k] = ...), itself or through methods of its class it calls on the
// receiver (self.add_message(...)), by the fields' texts (self.messages).
func (b *builder) writes(fs *fnState, memo map[int]map[string]bool, depth int) map[string]bool {
	if w, ok := memo[fs.f.ID]; ok {
		return w
	}
	w := map[string]bool{}
	memo[fs.f.ID] = w // (a recursion sees what is found so far)
	if depth > maxStateDepth {
		return w
	}
	for _, g := range scope(fs) {
		m := g.mod
		field := func(s string) string { return stateField(fs, s) }
		for _, j := range g.index().appends {
			fn := strip(unAwait(m, g.callInfo[j].node.Child("function")))
			if fn == nil || !m.t.members.has(fn) {
				continue
			}
			obj := strip(fn.Child("object"))
			if f := field(m.text(obj)); f != "" {
				w[f] = true
			} else if m.t.idents.has(obj) && objParam(fs, m.text(obj)) {
				// messages.push(reply) on a collection parameter: the caller's own list
				// (yield* this.turn(messages, …) in a loop testing messages.at(-1))
				w[m.text(obj)] = true
			}
		}
		for _, a := range g.assigns {
			if a.iter {
				continue
			}
			for _, n := range a.lhs {
				if f := field(n); f != "" {
					w[f] = true
				}
			}
		}
		for j, ci := range g.callInfo {
			if j >= len(g.f.Calls) {
				break
			}
			fn := strip(unAwait(m, ci.node.Child("function")))
			if fn == nil || !m.t.members.has(fn) || m.text(strip(fn.Child("object"))) != m.t.self {
				continue
			}
			for _, t := range g.f.Calls[j].Targets {
				if tg := b.funcs[t]; tg.cls != nil && tg != fs {
					for k := range b.writes(tg, memo, depth+1) {
						w[k] = true
					}
				}
			}
		}
		// a method of the program called on a field (self.history.add_item(item)) that
		// writes its own receiver (self.history.append(history_item)) writes that field
		for j, ci := range g.callInfo {
			if j >= len(g.f.Calls) {
				break
			}
			fn := strip(unAwait(m, ci.node.Child("function")))
			if fn == nil || !m.t.members.has(fn) {
				continue
			}
			f := field(m.text(strip(fn.Child("object"))))
			if f == "" || w[f] || !strings.HasPrefix(f, m.t.self+".") {
				continue
			}
			for _, t := range g.f.Calls[j].Targets {
				if tg := b.funcs[t]; tg.cls != nil && tg.cls != fs.cls && ownWrites(tg, b.writes(tg, memo, depth+1)) {
					w[f] = true
				}
			}
		}
	}
	return w
}

// ownWrites reports whether one of the fields w (what fs writes) is a field of fs's own
// receiver.
func ownWrites(fs *fnState, w map[string]bool) bool {
	for k := range w {
		if strings.HasPrefix(k, fs.mod.t.self+".") {
			return true
		}
	}
	return false
}

// maxResultDepth is how many calls below a method of the receiver the tools it runs may be.
const maxResultDepth = 6

// resultFields returns the fields of the receiver in which the step holding call j records
// what the tools of j's decision gave: kept are those written by a method of the receiver the
// step calls after j that reaches a dispatched tool (self._execute_actions() -> result = await
// self.multi_act(...); self.state.last_result = result), recorded those and the fields a
// method called after j writes from one of them handed to it (self._finalize() ->
// self._make_history_item(..., self.state.last_result) -> self.history.add_item(...)). A loop
// testing a recorded field (if self.history.is_done(): return True) leaves on the tool
// results, as a loop testing the reply leaves on the reply.
func (b *builder) resultFields(fs *fnState, j int, fl *ir.Flow, written map[int]map[string]bool) (kept, recorded map[string]bool) {
	tools := map[int]bool{}
	for _, d := range fl.Dispatch {
		for _, ref := range d.Calls {
			tools[ref.Func] = true
		}
	}
	if len(tools) == 0 || fs.cls == nil || !selfCall(fs, j) {
		return nil, nil
	}
	reaches := func(g *fnState) bool {
		frontier, seen := []int{g.f.ID}, map[int]bool{g.f.ID: true}
		for depth := 0; depth <= maxResultDepth && len(frontier) > 0; depth++ {
			var next []int
			for _, id := range frontier {
				if tools[id] {
					return true
				}
				for _, h := range scope(b.funcs[id]) {
					if tools[h.f.ID] {
						return true
					}
					for _, c := range h.f.Calls {
						for _, t := range c.Targets {
							if !seen[t] {
								seen[t] = true
								next = append(next, t)
							}
						}
					}
				}
			}
			frontier = next
		}
		return false
	}
	after := func(each func(tg *fnState)) {
		for k := j + 1; k < len(fs.callInfo) && k < len(fs.f.Calls); k++ {
			if !selfCall(fs, k) {
				continue
			}
			for _, t := range fs.f.Calls[k].Targets {
				if tg := b.funcs[t]; tg.cls == fs.cls && tg != fs {
					each(tg)
				}
			}
		}
	}
	kept = map[string]bool{}
	after(func(tg *fnState) {
		if reaches(tg) {
			b.fineWrites(tg, kept, written, 0)
		}
	})
	if len(kept) == 0 {
		return nil, nil
	}
	recorded = map[string]bool{}
	for k := range kept {
		recorded[k] = true
	}
	var handed func(g *fnState, depth int)
	handed = func(g *fnState, depth int) {
		for q := range g.callInfo {
			if q >= len(g.f.Calls) || !selfCall(g, q) {
				continue
			}
			if readsArg(g, q, kept) {
				for _, t := range g.f.Calls[q].Targets {
					if tg := b.funcs[t]; tg.cls == fs.cls {
						b.fineWrites(tg, recorded, written, 0)
					}
				}
			} else if depth < 2 {
				for _, t := range g.f.Calls[q].Targets {
					if tg := b.funcs[t]; tg.cls == fs.cls && tg != g {
						handed(tg, depth+1)
					}
				}
			}
		}
	}
	after(func(tg *fnState) { handed(tg, 0) })
	return kept, recorded
}

// fineWrites adds to out the fields of the receiver g writes, by their whole texts
// (self.state.last_result = result, self.history.add_item(item) of a method writing its own
// receiver), itself or through the methods of its class it calls on the receiver, two deep.
func (b *builder) fineWrites(g *fnState, out map[string]bool, memo map[int]map[string]bool, depth int) {
	self := g.mod.t.self + "."
	for _, h := range scope(g) {
		m := h.mod
		for _, a := range h.assigns {
			if a.iter || a.aug {
				continue
			}
			for _, n := range a.lhs {
				if strings.HasPrefix(n, self) && !strings.ContainsAny(n, "[(") {
					out[n] = true
				}
			}
		}
		for j, ci := range h.callInfo {
			if j >= len(h.f.Calls) {
				break
			}
			fn := strip(unAwait(m, ci.node.Child("function")))
			if fn == nil || !m.t.members.has(fn) {
				continue
			}
			obj := m.text(strip(fn.Child("object")))
			if obj == m.t.self {
				for _, t := range h.f.Calls[j].Targets {
					if tg := b.funcs[t]; depth < 2 && tg.cls == g.cls && tg != g {
						b.fineWrites(tg, out, memo, depth+1)
					}
				}
				continue
			}
			if !strings.HasPrefix(obj, self) || strings.ContainsAny(obj, "[(") {
				continue
			}
			if appendMeths[h.f.Calls[j].Method] {
				out[obj] = true
				continue
			}
			for _, t := range h.f.Calls[j].Targets {
				if tg := b.funcs[t]; tg.cls != nil && tg.cls != g.cls && ownWrites(tg, b.writes(tg, memo, 1)) {
					out[obj] = true
				}
			}
		}
	}
}

// hasField reports whether text is one of fields or a part of one (self.state.last_result.x).
func hasField(fields map[string]bool, text string) bool {
	for {
		if fields[text] {
			return true
		}
		i := strings.LastIndexAny(text, ".[")
		if i <= 0 {
			return false
		}
		text = text[:i]
	}
}

// readsArg reports whether the arguments of call j of g read one of fields (self.F, or a part
// of it).
func readsArg(g *fnState, j int, fields map[string]bool) bool {
	m := g.mod
	found := false
	eachNode(m.t, g.callInfo[j].node.Child("arguments"), func(n *syntax.Node) bool {
		if !found && m.t.members.has(n) && hasField(fields, m.text(n)) {
			found = true
		}
		return !found
	})
	return found
}

// resultsFed returns where the step holding call j hands one of the fields kept (the tool
// results it recorded, see resultFields) to a call before j, itself or through the methods of
// the receiver it calls there (self._prepare_context() ->
// self._message_manager.create_state_messages(result=self.state.last_result)): what the tools
// gave goes into the next decision's input, the loop's back edge through the receiver.
func (b *builder) resultsFed(fs *fnState, j int, kept map[string]bool) (ir.Pos, bool) {
	if len(kept) == 0 {
		return ir.Pos{}, false
	}
	var walk func(g *fnState, upto, depth int, seen map[int]bool) (ir.Pos, bool)
	walk = func(g *fnState, upto, depth int, seen map[int]bool) (ir.Pos, bool) {
		seen[g.f.ID] = true
		for q := 0; q < upto && q < len(g.callInfo) && q < len(g.f.Calls); q++ {
			if !selfCall(g, q) && readsArg(g, q, kept) {
				return g.f.Calls[q].Pos, true
			}
			if depth >= 2 || !selfCall(g, q) {
				continue
			}
			for _, t := range g.f.Calls[q].Targets {
				if tg := b.funcs[t]; tg.cls == fs.cls && !seen[t] {
					if pos, ok := walk(tg, len(tg.f.Calls), depth+1, seen); ok {
						return pos, true
					}
				}
			}
		}
		return ir.Pos{}, false
	}
	return walk(fs, j, 0, map[int]bool{})
}

// inputs returns the fields of the receiver call j of fs is handed (self.F, this.F in its
// arguments), or, for a call of a method on the receiver, those the calls of that method are
// handed (self.query() -> self.model.query(self.messages)), two methods deep.
func (b *builder) inputs(fs *fnState, j, depth int) map[string]bool {
	m := fs.mod
	out := map[string]bool{}
	eachNode(m.t, fs.callInfo[j].node.Child("arguments"), func(n *syntax.Node) bool {
		if m.t.members.has(n) {
			if t := m.text(n); stateField(fs, t) == t {
				out[t] = true
			}
		}
		if m.t.idents.has(n) && objParam(fs, m.text(n)) {
			out[m.text(n)] = true // a collection parameter handed on whole: create({ messages })
		}
		return true
	})
	if depth >= 2 || !selfCall(fs, j) {
		return out
	}
	for _, t := range fs.f.Calls[j].Targets {
		tg := b.funcs[t]
		if tg == fs || tg.cls == nil {
			continue
		}
		for k := range tg.callInfo {
			if k >= len(tg.f.Calls) {
				break
			}
			for f := range b.inputs(tg, k, depth+1) {
				out[f] = true
			}
		}
	}
	return out
}

// stateTests climbs from call j of fs to the loops that repeat it (in fs, or in the callers
// up to maxStateDepth calls above, when each call on the way is one of the receiver's own
// methods) and returns the tests in those loops that read one of fields and leave the loop.
func (b *builder) stateTests(fs *fnState, j int, fields map[string]bool, callers map[int][]ir.CallRef) []ir.Check {
	type at struct {
		g      *fnState
		call   int
		fields map[string]bool
	}
	var out []ir.Check
	frontier := []at{{fs, j, fields}}
	seen := map[int]bool{fs.f.ID: true}
	for depth := 0; depth <= maxStateDepth && len(frontier) > 0; depth++ {
		var next []at
		for _, x := range frontier {
			g := x.g
			c := &g.f.Calls[x.call]
			found := false
			own := x.fields
			if depth == 0 {
				// a collection parameter of the step is the state of the loops of its
				// callers, which hand their list: in the step's own loops it is its input
				// (reply = await client.chat(messages) is tested as the result it is)
				own = map[string]bool{}
				for f := range x.fields {
					if strings.Contains(f, ".") {
						own[f] = true
					}
				}
			}
			for _, li := range c.Loops {
				l := g.f.Loops[li]
				if l.Kind != ir.LoopFor || l.Retry || l.OverCall == x.call || len(own) == 0 {
					continue
				}
				if cs := b.loopStateTests(g, li, own); len(cs) > 0 {
					out = append(out, cs...)
					found = true
				}
				break // the innermost repeating loop
			}
			if found || depth == maxStateDepth {
				continue
			}
			// the callers that call g as a method of their own receiver
			fn := g
			for fn.parent != nil && len(fn.f.ParentLoops) == 0 && fn.f.Launch == "" {
				fn = fn.parent
			}
			if fn != g {
				continue // (a closure: its calls are not its class's)
			}
			if len(callers[g.f.ID]) > 4 {
				continue
			}
			for _, ref := range callers[g.f.ID] {
				h := b.funcs[ref.Func]
				if seen[h.f.ID] {
					continue
				}
				// the caller's names for the state: the receiver's fields when it calls g
				// on its own receiver, and, for an object parameter of g, the object it
				// hands (step(llm, st): st.messages for state.messages)
				hf := map[string]bool{}
				own := h.cls != nil && selfCall(h, ref.Call)
				for f := range x.fields {
					root, rest, _ := strings.Cut(f, ".")
					switch {
					case root == g.mod.t.self:
						if own {
							hf[f] = true
						}
					case h.mod == g.mod:
						if a := argFor(h, ref.Call, g, root); a != "" && rest != "" {
							hf[a+"."+rest] = true
						} else if a != "" && !strings.Contains(f, ".") {
							hf[a] = true // the collection parameter itself: what the caller hands
						}
					}
				}
				if len(hf) == 0 {
					continue
				}
				seen[h.f.ID] = true
				next = append(next, at{h, ref.Call, hf})
			}
		}
		frontier = next
	}
	return out
}

// selfCall reports whether call j of h is a call of a method on h's receiver (self.step(),
// yield* this.turn(...)).
func selfCall(h *fnState, j int) bool {
	m := h.mod
	fn := strip(unAwait(m, h.callInfo[j].node.Child("function")))
	return fn != nil && m.t.members.has(fn) && m.text(strip(fn.Child("object"))) == m.t.self
}

// loopStateTests returns the tests of loop li of g that read one of fields (or a local bound
// from one: last = this.messages.at(-1)) and leave the loop: the loop's own condition, or an
// if in its body whose branch returns or breaks out of it.
func (b *builder) loopStateTests(g *fnState, li int, fields map[string]bool) []ir.Check {
	m := g.mod
	vars := map[string]bool{}
	// a list handed whole (messages) is read where it is the object of an access
	// (messages.at(-1), messages[messages.length - 1]), not where it is handed on again
	// (answer = step(messages) is what the step returns)
	var colls []string
	for f := range fields {
		if strings.Contains(f, ".") {
			vars[f] = true
		} else {
			colls = append(colls, f)
		}
	}
	sort.Strings(colls)
	readsColl := func(n *syntax.Node) bool {
		t := m.text(strip(unAwait(m, strip(n))))
		for _, c := range colls {
			if strings.HasPrefix(t, c+".") || strings.HasPrefix(t, c+"[") || strings.HasPrefix(t, c+"?.") {
				return true
			}
		}
		return false
	}
	for range 2 {
		for _, a := range g.assigns {
			if a.iter || a.rhs == nil || len(a.lhs) != 1 || vars[a.lhs[0]] || !contains(a.loops, li) && a.loop != li {
				continue
			}
			if mentions(m, a.rhs, vars) || readsColl(a.rhs) {
				vars[a.lhs[0]] = true
			}
		}
	}
	// a predicate reading the state (done, status = self.done(); while not is_finish()):
	// a call, in the loop, of a method on the receiver or a closure of g that reads one of
	// fields; what it answers, and a condition calling it, read the state
	for j, ci := range g.callInfo {
		if j >= len(g.f.Calls) || !contains(ci.loops, li) {
			continue
		}
		reads := false
		for _, t := range g.f.Calls[j].Targets {
			if tg := b.funcs[t]; (selfCall(g, j) || tg.parent == g) && readsFields(tg, fields) {
				reads = true
			}
		}
		if !reads {
			continue
		}
		vars[m.text(strip(ci.node.Child("function")))] = true
		for _, a := range g.assigns {
			if !a.iter && a.rhs != nil && strip(a.rhs) == ci.node {
				for _, n := range a.lhs {
					vars[n] = true
				}
			}
		}
	}
	var out []ir.Check
	idx := g.condsMentioning(vars)
	for _, c := range colls {
		for _, ci := range g.condsMentioning(map[string]bool{c: true}) {
			if t := m.text(g.conds[ci].expr); strings.Contains(t, c+".") || strings.Contains(t, c+"[") || strings.Contains(t, c+"?.") {
				idx = append(idx, ci)
			}
		}
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	for _, ci := range idx {
		c := g.conds[ci]
		if c.stmt == nil {
			continue
		}
		ch := ir.Check{Pos: m.pos(c.expr), Text: clip(m.text(c.expr), 80), Return: -1, Func: g.f.ID, State: true}
		switch {
		case c.loop == li:
			ch.Leaves = true
			if n := b.after(g, c.stmt); n != nil {
				_, ch.Return = b.leaves(g, n)
			}
		case len(c.loops) > 0 && c.loops[0] == li && m.t.ifs.has(c.stmt):
			for _, branch := range []*syntax.Node{c.stmt.Child("consequence"), c.stmt.Child("alternative")} {
				if branch == nil || ch.Leaves {
					continue
				}
				ch.Leaves, ch.Return = b.leaves(g, branch)
			}
		}
		if ch.Leaves {
			out = append(out, ch)
		}
	}
	return out
}

// readsFields reports whether fs (or a closure of it) reads one of fields (self.messages).
func readsFields(fs *fnState, fields map[string]bool) bool {
	for _, g := range scope(fs) {
		m := g.mod
		found := false
		eachNode(m.t, g.body, func(n *syntax.Node) bool {
			if !found && m.t.members.has(n) && fields[m.text(n)] {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// stateField returns the field of the state s is or reads (self.messages of
// self.messages[-1]["role"]): a field of the receiver, or of an object parameter of fs
// (state.messages of def step(llm, state)), which a caller hands its own object (a
// parameter, a local or a global: step(llm, st)); "" for any other text.
func stateField(fs *fnState, s string) string {
	root, rest, ok := strings.Cut(s, ".")
	if !ok || root == "" {
		return ""
	}
	if root != fs.mod.t.self && !objParam(fs, root) {
		return ""
	}
	if i := strings.IndexAny(rest, ".[("); i >= 0 {
		rest = rest[:i]
	}
	if rest == "" || strings.ContainsAny(root, "[(?!") {
		return ""
	}
	return root + "." + rest
}

// objParam reports whether name is a parameter of fs (or of the function a closure of fs
// sits in) other than the receiver.
func objParam(fs *fnState, name string) bool {
	for g := fs; g != nil; g = g.parent {
		if name != g.mod.t.self && g.params[name] {
			return true
		}
	}
	return false
}

// argFor returns the text of the argument call j of h hands to parameter p of g when it is
// a name or an attribute chain (st, self.state), by position or keyword; "" otherwise.
func argFor(h *fnState, j int, g *fnState, p string) string {
	m := h.mod
	a := strip(paramArg(m, h.callInfo[j].node, g, p))
	if a == nil || !m.t.idents.has(a) && !m.t.members.has(a) {
		return ""
	}
	return m.text(a)
}

// paramArg returns the argument node a call (in module m) hands to parameter p of g, by
// keyword or by position (Python's self of a method not counted); nil when there is none.
func paramArg(m *module, call *syntax.Node, g *fnState, p string) *syntax.Node {
	args := call.Child(m.t.callArgs)
	if args == nil {
		return nil
	}
	params := g.f.Params
	if g.cls != nil && g.mod.t.lang == "python" && len(params) > 0 && params[0].Name == g.mod.t.self {
		params = params[1:]
	}
	pos := -1
	for i, q := range params {
		if q.Name == p {
			pos = i
		}
	}
	var a *syntax.Node
	for i, n := range args.NamedChildren() {
		if n.Kind == "keyword_argument" {
			if m.text(n.Child("name")) == p {
				a = n.Child("value")
			}
			continue
		}
		if i == pos && a == nil {
			a = n
		}
	}
	return a
}

// stateFeeds marks the element_arg dispatches of fl whose one executor's result goes back
// into the state the call is handed (in: self.messages of self.model.query(self.messages),
// found through the receiver's methods): the executor's outputs, as they are or through any
// call they are an argument of (self.model.format_observation_messages(message, outputs)),
// appended to such a field or handed to a method of the receiver that writes one
// (self.add_messages(*...), self.add_message("user", o)). That is the data flow's back edge
// when the model call sits in a step helper and the loop only decides on the shared state
// (executorFeeds follows it within one scope).
func (b *builder) stateFeeds(fl *ir.Flow, in map[string]bool, written map[int]map[string]bool) {
	if len(in) == 0 {
		return
	}
	for i := range fl.Dispatch {
		d := &fl.Dispatch[i]
		if d.How != "element_arg" || d.Feeds || len(d.Calls) != 1 || d.Calls[0].Func != d.Func {
			continue
		}
		g := b.funcs[d.Func]
		if g.f.Test || d.Calls[0].Call >= len(g.callInfo) || !opaque(b, &g.f.Calls[d.Calls[0].Call]) {
			continue
		}
		node := g.callInfo[d.Calls[0].Call].node
		if node == nil {
			continue
		}
		if pos, ok := b.reachesState(g, node, in, written); ok {
			d.Feeds = true
			if !fl.FeedsNext {
				fl.FeedsNext, fl.FeedPos = true, pos
			}
		}
	}
}

// reachesState reports where the result of call (a call node of g or its closures) is
// appended to a field of in or handed to a method of the receiver that writes one, following
// it through the assignments of g's scope for three rounds.
func (b *builder) reachesState(g *fnState, call *syntax.Node, in map[string]bool, written map[int]map[string]bool) (ir.Pos, bool) {
	sc := scope(g)
	vals := map[string]bool{}
	holds := func(gm *module, n *syntax.Node) bool {
		return n != nil && (n == call || containsCall(n, []*syntax.Node{call}) || mentions(gm, n, vals))
	}
	for range 3 {
		for _, h := range sc {
			hm := h.mod
			for j, ci := range h.callInfo {
				if j >= len(h.f.Calls) || ci.node == call || !holds(hm, ci.node.Child("arguments")) {
					continue
				}
				fn := strip(unAwait(hm, ci.node.Child("function")))
				if fn == nil || !hm.t.members.has(fn) {
					continue
				}
				recv := hm.text(strip(fn.Child("object")))
				if appendMeths[h.f.Calls[j].Method] && in[stateField(g, recv)] {
					return h.f.Calls[j].Pos, true
				}
				if recv != hm.t.self || g.cls == nil {
					continue
				}
				for _, t := range h.f.Calls[j].Targets {
					if tg := b.funcs[t]; tg.cls != nil {
						for k := range b.writes(tg, written, 1) {
							if in[k] {
								return h.f.Calls[j].Pos, true
							}
						}
					}
				}
			}
			for _, a := range h.assigns {
				if a.rhs == nil || !holds(hm, a.rhs) {
					continue
				}
				for _, n := range a.lhs {
					if in[stateField(g, n)] {
						return hm.pos(a.node), true
					}
					vals[n] = true
				}
			}
		}
	}
	return ir.Pos{}, false
}
