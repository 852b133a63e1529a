package srcir

import (
	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// stopSets records the lists of stop conditions a loop checks each step (ir.StopSet): a call
// whose result an if or the loop's condition tests, in the loop or in a function of the set
// the loop's condition calls (do { … } while (await shouldStartNextStep())), that receives a
// value built from a parameter whose default makes predicates (stopWhen = isStepCount(1),
// isStepCount returning an arrow function). The parameter's default is the bound's default.
func (b *builder) stopSets() {
	// the call sites of every function of the set, in the order of b.funcs and their calls
	// (callerPredicate asks for them once per argument name; a scan of every call each time
	// made stopSets quadratic in the set's size)
	sites := make([][]callSite, len(b.funcs))
	for _, g := range b.funcs {
		for j, c := range g.f.Calls {
			if j >= len(g.callInfo) {
				continue
			}
			for ti, t := range c.Targets {
				if t >= 0 && t < len(sites) && !contains(c.Targets[:ti], t) {
					sites[t] = append(sites[t], callSite{g, g.callInfo[j].node})
				}
			}
		}
	}
	b.callSites = sites
	defer func() { b.callSites = nil }()
	for _, fs := range b.funcs {
		for li, l := range fs.f.Loops {
			if l.Kind != ir.LoopFor {
				continue
			}
			// the deciding functions: the loop's own function, and those its condition calls
			deciders := []*fnState{fs}
			for j, c := range fs.f.Calls {
				if len(c.Loops) == 0 || c.Loops[0] != li || !b.inLoopCond(fs, li, fs.callInfo[j].node) {
					continue
				}
				for _, t := range c.Targets {
					deciders = append(deciders, b.funcs[t])
				}
			}
			for di, g := range deciders {
				if b.stopSetIn(fs, li, g, di == 0) {
					break
				}
			}
		}
		// a recursion (Loop -1): a function that calls itself from its body or a callback
		// of it (a stream's flush starting the next step) decides there, or in the closures
		// its tests call, whether to go on
		if b.callsItself(fs) {
			for _, g := range scope(fs) {
				if b.stopSetIn(fs, -1, g, false) {
					break
				}
			}
		}
	}
}

// callsItself reports whether fs or a closure of it calls fs outside fs's loops.
func (b *builder) callsItself(fs *fnState) bool {
	for _, g := range scope(fs) {
		for _, c := range g.f.Calls {
			if g == fs && len(c.Loops) > 0 {
				continue
			}
			if contains(c.Targets, fs.f.ID) {
				return true
			}
		}
	}
	return false
}

// inLoopCond reports whether node n is inside the condition of loop li of fs.
func (b *builder) inLoopCond(fs *fnState, li int, n *syntax.Node) bool {
	for _, c := range fs.conds {
		if c.loop == li && c.expr != nil && c.expr.Start <= n.Start && n.End <= c.expr.End {
			return true
		}
	}
	return false
}

// stopSetIn looks in g (fs itself when own) for a tested call that receives stop conditions,
// and records it as a StopSet of loop li of fs.
func (b *builder) stopSetIn(fs *fnState, li int, g *fnState, own bool) bool {
	m := g.mod
	for _, c := range g.conds {
		if c.stmt == nil || !m.t.ifs.has(c.stmt) && c.loop < 0 {
			continue
		}
		found := false
		eachNode(m.t, c.expr, func(n *syntax.Node) bool {
			if found || !m.t.calls.has(n) {
				return !found
			}
			id, ok := g.callOf[n]
			if !ok || own && !contains(g.f.Calls[id].Loops, li) {
				return true
			}
			owner, param, def := b.predicateArg(g, n)
			if owner == nil {
				return true
			}
			ss := ir.StopSet{Pos: m.pos(n), Source: m.source(n), Text: param, Loop: li, Key: owner.key() + "." + param, Return: -1}
			if cons := c.stmt.Child("consequence"); cons != nil {
				at := cons
				if k := cons.NamedChildren(); len(k) > 0 {
					at = k[0]
				}
				ss.AtPos, ss.AtSource = m.pos(at), m.source(at)
			}
			fs.f.Stops = append(fs.f.Stops, ss)
			b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: ss.Key, Value: clip(oneLine(owner.mod.text(def)), 80), Pos: owner.mod.pos(def), Via: "option"})
			found = true
			return false
		})
		if found {
			return true
		}
	}
	return false
}

// predicateArg finds, among the arguments of call n in g (options of an object literal too),
// a value derived from a parameter of g or an enclosing function whose default is a list of
// predicates or a call of a function of the set that returns one: the function, the
// parameter and its default.
func (b *builder) predicateArg(g *fnState, n *syntax.Node) (*fnState, string, *syntax.Node) {
	m := g.mod
	var names []string
	eachNode(m.t, n.Child("arguments"), func(x *syntax.Node) bool {
		if m.t.idents.has(x) || x.Kind == "shorthand_property_identifier" {
			names = append(names, m.text(x))
		}
		return true
	})
	for _, name := range names {
		// the name, or what it was assigned from, one step: stopConditions = asArray(stopWhen)
		for s := g; s != nil; s = s.parent {
			cands := []string{name}
			for _, ai := range s.index().byLHS[name] {
				if a := s.assigns[ai]; a.rhs != nil && !a.iter {
					eachNode(m.t, a.rhs, func(x *syntax.Node) bool {
						if m.t.idents.has(x) {
							cands = append(cands, s.mod.text(x))
						}
						return true
					})
				}
			}
			for _, p := range cands {
				if def := s.paramDefaults[p]; def != nil && b.makesPredicates(s, def) {
					return s, p, def
				}
				if !s.params[p] || s.paramDefaults[p] != nil {
					continue
				}
				// a parameter without a default, that the function's one caller in the set
				// fills from a parameter of its own with one: new Result({ stopWhen, … })
				// in streamTextInternal({ stopWhen = isStepCount(1), … })
				if owner, param, def := b.callerPredicate(s, p); owner != nil {
					return owner, param, def
				}
			}
		}
	}
	return nil, "", nil
}

// callerPredicate finds, at the one call of fs in the set, the argument for fs's parameter p:
// a parameter of the calling function (or an enclosing one) whose default makes predicates.
func (b *builder) callerPredicate(fs *fnState, p string) (*fnState, string, *syntax.Node) {
	if fs.f.ID < 0 || fs.f.ID >= len(b.callSites) || len(b.callSites[fs.f.ID]) != 1 {
		return nil, "", nil // no caller, or more than one: which one's default is unknown
	}
	site, node := b.callSites[fs.f.ID][0].fn, b.callSites[fs.f.ID][0].node
	m := site.mod
	for key, v := range boundArgs(m, fs, node.Child("arguments").NamedChildren()) {
		if l, ok := fs.localOf(key); !ok || l != p {
			continue
		}
		// (the value, or a name it is built from: stopConditions: asArray(stopWhen))
		var names []string
		eachNode(m.t, v, func(x *syntax.Node) bool {
			if m.t.idents.has(x) || x.Kind == "shorthand_property_identifier" {
				names = append(names, m.text(x))
			}
			return true
		})
		for _, name := range names {
			for s := site; s != nil; s = s.parent {
				if def := s.paramDefaults[name]; def != nil && b.makesPredicates(s, def) {
					return s, name, def
				}
			}
		}
	}
	return nil, "", nil
}

// callSite is a call of a function of the set: the calling function and the call's node.
type callSite struct {
	fn   *fnState
	node *syntax.Node
}

// makesPredicates reports whether a default value is a function, a list of functions, or a
// call of a function of the set that returns a function (isStepCount(1)).
func (b *builder) makesPredicates(fs *fnState, def *syntax.Node) bool {
	m := fs.mod
	def = strip(def)
	if def == nil {
		return false
	}
	if m.t.lambdas.has(def) || m.t.funcs.has(def) {
		return true
	}
	if def.Kind == "array" || def.Kind == "list" {
		for _, e := range def.NamedChildren() {
			if b.makesPredicates(fs, e) {
				return true
			}
		}
		return false
	}
	if !m.t.calls.has(def) {
		return false
	}
	fn := strip(def.Child("function"))
	if fn == nil || !m.t.idents.has(fn) {
		return false
	}
	for _, t := range b.resolveName(fs, m.text(fn)).fns {
		for _, r := range t.retNodes {
			if k := r.NamedChildren(); len(k) == 1 && (t.mod.t.lambdas.has(strip(k[0])) || t.mod.t.funcs.has(strip(k[0]))) {
				return true
			}
		}
	}
	return false
}
