package srcir

import "github.com/lifeline-dev/lifeline/analyzer/syntax"

// accessors marks the calls that only read a part of an operand (ir.Call.Accessor): calls
// whose every target is a function of the program every return of which hands back a part of
// a parameter or of the receiver — the parameter itself, an attribute, an element, an element
// a loop over such a part binds — or nothing (a child accessor node.child("body"),
// unwrap(node)). Without types, the callee's body is the evidence; a call passing a
// cancellation carrier is never one.
func (b *builder) accessors() {
	// two phases on every core: whether each function returns a part (reading only), then
	// each function's own calls marked from that (writing only the function's calls)
	part := make([]bool, len(b.funcs))
	b.each(func(fs *fnState) { part[fs.f.ID] = b.returnsPart(fs) })
	b.each(func(fs *fnState) {
		for i := range fs.f.Calls {
			c := &fs.f.Calls[i]
			if len(c.Targets) == 0 || c.PassesContext {
				continue
			}
			all := true
			for _, t := range c.Targets {
				all = all && t >= 0 && t < len(b.funcs) && part[t]
			}
			c.Accessor = all
			if i < len(fs.callInfo) {
				c.Descends = b.delegates(fs, fs.callInfo[i].node, c.Targets)
			}
		}
	})
}

// delegates reports whether call node n of method fs hands the call on to an object the
// receiver holds (ir.Call.Descends), not to the receiver itself:
//   - under the method's own name (return self.wrapped.prepare_messages(...) in
//     prepare_messages, this.inner.run(...) in run): a wrapper delegating to what it wraps,
//     one link down a chain of wrappers;
//   - to a method of the receiver's own class family (targets: the call's resolved
//     functions) on an instance the receiver keeps in a field (self._summary_agent =
//     ChatAgent(...); self._summary_agent.step(prompt)): a child object of the same kind
//     runs its own run, on its own state; what it does is not this run's next step, so a
//     path back to the method through it is no turn recursion.
func (b *builder) delegates(fs *fnState, n *syntax.Node, targets []int) bool {
	m, t := fs.mod, fs.mod.t
	if fs.cls == nil || fs.name == "" || n == nil {
		return false
	}
	fn := strip(unAwait(m, n.Child("function")))
	if fn == nil || !t.members.has(fn) {
		return false
	}
	obj := strip(fn.Child("object"))
	if obj == nil || !t.members.has(obj) || m.text(strip(obj.Child("object"))) != t.self {
		return false
	}
	if m.text(fn.Child(t.memberProp)) == fs.name {
		return true
	}
	return len(targets) > 0 && b.ofFamily(fs.cls, targets)
}

// ofFamily reports whether every target is a method of class k, of one of its base classes
// or of one of its subclasses.
func (b *builder) ofFamily(k *class, targets []int) bool {
	fam := map[*class]bool{k: true}
	for _, c := range k.ancestors() {
		fam[c] = true
	}
	for _, c := range k.descendants() {
		fam[c] = true
	}
	for _, tg := range targets {
		if tg < 0 || tg >= len(b.funcs) || b.funcs[tg].cls == nil || !fam[b.funcs[tg].cls] {
			return false
		}
	}
	return true
}

// returnsPart reports whether every return of fs hands back a part of its parameters or
// receiver or nothing, at least one a part, and it raises nothing.
func (b *builder) returnsPart(fs *fnState) bool {
	if fs.body == nil || fs.gen || fs.exprBody || len(fs.retNodes) == 0 {
		return false
	}
	if b.forcesIteration(fs, 0) {
		return false // self._force(); return self._tool_calls: the part is computed first
	}
	m, t := fs.mod, fs.mod.t
	parts := 0
	for _, n := range fs.retNodes {
		if t.raises.has(n) {
			return false
		}
		kids := n.NamedChildren()
		if len(kids) == 0 {
			continue
		}
		e := strip(kids[0])
		if e == nil || t.nones[m.text(e)] {
			continue
		}
		if !b.partOf(fs, e, 0) {
			return false
		}
		parts++
	}
	return parts > 0
}

// partOf reports whether expression n is a part of fs's parameters or receiver.
func (b *builder) partOf(fs *fnState, n *syntax.Node, depth int) bool {
	n = strip(n)
	if n == nil || depth > 8 {
		return false
	}
	m, t := fs.mod, fs.mod.t
	switch {
	case n.Kind == "this" || t.idents.has(n):
		name := m.text(n)
		if name == t.self || fs.params[name] {
			// a parameter reassigned to something else is judged by what it is assigned
			for _, a := range fs.assigns {
				for _, l := range a.lhs {
					if l == name && a.rhs != nil && !b.partOf(fs, a.rhs, depth+1) {
						return false
					}
				}
			}
			return true
		}
		found := false
		for _, a := range fs.assigns {
			for _, l := range a.lhs {
				if l != name {
					continue
				}
				if a.rhs == nil || !b.partOf(fs, a.rhs, depth+1) {
					return false
				}
				found = true
			}
		}
		return found
	case t.members.has(n):
		obj := n.Child("object")
		if obj == nil {
			if kids := n.NamedChildren(); len(kids) > 0 {
				obj = kids[0]
			}
		}
		return b.partOf(fs, obj, depth+1)
	case t.subscripts.has(n):
		return b.partOf(fs, n.Child(t.subObj), depth+1)
	}
	return false
}

// forcesIteration reports whether fs, or a function it calls (three calls deep), iterates the
// receiver (list(self), for x in self) with an iterator method that drains a call running
// nothing of the set (for chunk in self.model.execute(...)): a getter that first runs the
// lazy computation its object stands for (def tool_calls(self): self._force(); return
// self._tool_calls), which hands back what that computation produced, not a stored part.
func (b *builder) forcesIteration(fs *fnState, depth int) bool {
	if depth > 3 {
		return false
	}
	for i := range fs.f.Calls {
		c := &fs.f.Calls[i]
		for _, t := range c.Targets {
			if t < 0 || t >= len(b.funcs) || t == fs.f.ID {
				continue
			}
			g := b.funcs[t]
			if c.Method == "iterate" {
				if b.drainsOpaque(g, 0) {
					return true
				}
				continue
			}
			if b.forcesIteration(g, depth+1) {
				return true
			}
		}
	}
	return false
}

// drainsOpaque reports whether a loop of g ranges over a call running nothing of the set
// (for chunk in self.model.execute(...)), over a local every binding of which is such a call
// (generator = self.model.execute(...) in each branch of an if; for chunk in generator), or
// over a generator of the set that does either, up to three deep (for chunk in
// self._iter_events()).
func (b *builder) drainsOpaque(g *fnState, depth int) bool {
	if depth > 3 {
		return false
	}
	lazy := func(j int) bool {
		c := &g.f.Calls[j]
		return opaque(b, c) && c.Method != "iterate" && !iterBuiltins[g.mod.t.lang][c.Text]
	}
	for li, l := range g.f.Loops {
		if l.OverCall >= 0 && l.OverCall < len(g.f.Calls) {
			if lazy(l.OverCall) {
				return true
			}
			c := &g.f.Calls[l.OverCall]
			if len(c.Targets) > 0 && len(c.Targets) <= 3 && c.Method != "iterate" {
				for _, t := range c.Targets {
					if h := b.funcs[t]; h != g && h.gen && b.drainsOpaque(h, depth+1) {
						return true
					}
				}
			}
			continue
		}
		for _, a := range g.assigns {
			if !a.iter || a.loop != li || a.rhs == nil || !g.mod.t.idents.has(strip(a.rhs)) {
				continue
			}
			v, bound, all := g.mod.text(strip(a.rhs)), 0, true
			for _, d := range g.assigns {
				if d.iter || len(d.lhs) != 1 || d.lhs[0] != v || d.rhs == nil {
					continue
				}
				j, ok := g.callOf[strip(unAwait(g.mod, d.rhs))]
				if bound++; !ok || j >= len(g.f.Calls) || !lazy(j) {
					all = false
				}
			}
			if bound > 0 && all {
				return true
			}
		}
	}
	return false
}
