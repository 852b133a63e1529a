package srcir

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// compareOps returns the operands and operator of a comparison node, ok false otherwise.
func compareOps(m *module, n *syntax.Node) (l, r *syntax.Node, op string, ok bool) {
	n = strip(n)
	if n == nil {
		return nil, nil, "", false
	}
	switch n.Kind {
	case "comparison_operator":
		k := n.NamedChildren()
		ops := n.ChildrenOf("operators")
		if len(k) < 2 || len(ops) == 0 {
			return nil, nil, "", false
		}
		op = m.text(ops[0])
		if len(ops) > 1 && m.text(ops[0]) == "not" || len(ops) > 1 && m.text(ops[0]) == "is" {
			op = m.text(ops[0]) + " " + m.text(ops[1])
		}
		return k[0], k[1], op, true
	case "binary_expression":
		op = m.text(n.Child("operator"))
		switch op {
		case "<", "<=", ">", ">=", "==", "===", "!=", "!==", "in", "instanceof":
			return n.Child("left"), n.Child("right"), op, true
		}
	}
	return nil, nil, "", false
}

// eachNode calls fn on every node of n, not entering nested functions or classes.
func eachNode(t *table, n *syntax.Node, fn func(*syntax.Node) bool) {
	if n == nil {
		return
	}
	if !fn(n) {
		return
	}
	for _, c := range n.Children {
		if t.funcs.has(c) || t.lambdas.has(c) || t.classes.has(c) {
			continue
		}
		eachNode(t, c, fn)
	}
}

func (fs *fnState) key() string {
	if fs.f.Key != "" {
		return fs.f.Key
	}
	return fs.f.Name
}

// branches records comparisons of a loop counter with a bound.
func (b *builder) branches(fs *fnState) {
	m, f := fs.mod, fs.f
	counters := map[int]map[string]bool{}
	all := map[string]bool{}
	for _, in := range fs.incs {
		for _, l := range in.loops {
			if counters[l] == nil {
				counters[l] = map[string]bool{}
			}
			counters[l][in.target] = true
		}
		all[in.target] = true
	}
	// counters the loop also sets back to zero (self.n_errors = 0 after a clean step) count
	// consecutive events, not iterations: a loop that resets one can go round forever
	reset := map[int]map[string]bool{}
	for _, a := range fs.assigns {
		if a.iter || a.aug || len(a.lhs) != 1 || a.rhs == nil || m.text(strip(a.rhs)) != "0" {
			continue
		}
		for _, l := range a.loops {
			if reset[l] == nil {
				reset[l] = map[string]bool{}
			}
			reset[l][a.lhs[0]] = true
		}
	}
	classInc := map[string]bool{}
	// fields the class accumulates into (self.cost += reply["cost"]): compared with an optional
	// limit (0 < self.cost_limit <= self.cost) they are a budget the run spends
	classAcc := map[string]bool{}
	if k := enclosingClass(fs); k != nil {
		for _, c := range append([]*class{k}, k.ancestors()...) {
			for _, mf := range c.methods {
				for _, in := range mf.incs {
					if strings.HasPrefix(in.target, m.t.self+".") {
						classInc[in.target] = true
					}
				}
				for _, a := range mf.assigns {
					if a.aug && len(a.lhs) == 1 && strings.HasPrefix(a.lhs[0], m.t.self+".") && mf.mod.text(a.node.Child("operator")) == "+=" {
						classAcc[a.lhs[0]] = true
					}
				}
			}
		}
	}
	grown := map[int]map[string]bool{}
	for i, ci := range fs.callInfo {
		if i >= len(f.Calls) || !appendMeths[f.Calls[i].Method] {
			continue
		}
		fn := strip(ci.node.Child("function"))
		if fn == nil || !m.t.members.has(fn) {
			continue
		}
		for _, li := range ci.loops {
			if grown[li] == nil {
				grown[li] = map[string]bool{}
			}
			grown[li][m.text(strip(fn.Child("object")))] = true
		}
	}
	retIdx := map[*syntax.Node]int{}
	for i, n := range fs.retNodes {
		retIdx[n] = i
	}
	// locals holding the size of a collection, in a function without loops (a limits check:
	// cycle_count = len(invocation.cycles)); see stepCount below
	sized := map[string]bool{}
	if len(f.Loops) == 0 {
		for _, a := range fs.assigns {
			if !a.iter && len(a.lhs) == 1 && a.rhs != nil && sizeOf(m.text(strip(a.rhs))) != "" {
				sized[a.lhs[0]] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, c := range fs.conds {
		eachNode(m.t, c.expr, func(n *syntax.Node) bool {
			if n.Kind == "parenthesized_expression" {
				return true
			}
			pairs := comparePairs(m, n)
			for pi, pr := range pairs {
				l, r, op := pr.l, pr.r, pr.op
				if !strings.ContainsAny(op, "<>=") || op == "!=" || op == "!==" {
					continue
				}
				// 0 < self.step_limit <= self.n_calls: the bound applies only when set
				guarded := false
				for pj, o := range pairs {
					if pj != pi && (o.r == pr.l || o.l == pr.l || o.r == pr.r || o.l == pr.r) &&
						(m.text(strip(o.l)) == "0" || m.text(strip(o.r)) == "0") {
						guarded = true
					}
				}
				if resetIn(reset, c, m.text(strip(l))) || resetIn(reset, c, m.text(strip(r))) {
					continue
				}
				b.branchOf(fs, c, n, l, r, op, guarded, counters, all, classInc, classAcc, grown, sized, retIdx, seen)
			}
			return true
		})
	}
	for _, rb := range fs.rangeBounds {
		br := ir.Branch{Pos: m.pos(rb.node), Source: m.source(rb.node), Text: clip(oneLine(m.text(rb.node)), 100), Loop: rb.loop,
			InCond: true, Bound: b.operand(fs, rb.bound), Return: -1}
		b.atBound(fs, &br, b.after(fs, rb.node), retIdx)
		f.Branches = append(f.Branches, br)
	}
}

// resetIn reports whether a loop condition c sits in (or is the condition of) sets s back to
// zero.
func resetIn(reset map[int]map[string]bool, c cond, s string) bool {
	if c.loop >= 0 && reset[c.loop][s] {
		return true
	}
	for _, l := range c.loops {
		if reset[l][s] {
			return true
		}
	}
	return false
}

// comparison is one comparison of a (possibly chained) comparison expression.
type comparison struct {
	l, r *syntax.Node
	op   string
}

// comparePairs splits a comparison into its comparisons: a < b <= c (Python) is a < b and
// b <= c; any other comparison is itself.
func comparePairs(m *module, n *syntax.Node) []comparison {
	if s := strip(n); s != nil && s.Kind == "comparison_operator" {
		k, ops := s.NamedChildren(), s.ChildrenOf("operators")
		if len(k) > 2 && len(ops) == len(k)-1 {
			out := make([]comparison, 0, len(ops))
			for i, o := range ops {
				out = append(out, comparison{k[i], k[i+1], m.text(o)})
			}
			return out
		}
	}
	if l, r, op, ok := compareOps(m, n); ok {
		return []comparison{{l, r, op}}
	}
	return nil
}

// branchOf records the comparison l op r of condition c (at node n) as a branch when one
// side is a loop's counter (see branches).
func (b *builder) branchOf(fs *fnState, c cond, n, l, r *syntax.Node, op string, guarded bool, counters map[int]map[string]bool,
	all, classInc, classAcc map[string]bool, grown map[int]map[string]bool, sized map[string]bool, retIdx map[*syntax.Node]int, seen map[string]bool) {
	m, f := fs.mod, fs.f
	lt, rt := m.text(strip(l)), m.text(strip(r))
	// a recursion's turn counter tested as it will be passed on (currentTurn + 1 > max)
	if x := plusConst(m, l); x != nil && fs.counterParams[m.text(x)] {
		lt = m.text(x)
	}
	if x := plusConst(m, r); x != nil && fs.counterParams[m.text(x)] {
		rt = m.text(x)
	}
	isCounter := func(s string) (int, bool) {
		if v := sizeOf(s); v != "" {
			// len(history) - init_len < max_turns: a collection the loop grows
			for _, li := range c.loops {
				if grown[li][v] {
					return li, true
				}
			}
		}
		if c.loop >= 0 && counters[c.loop][s] {
			return c.loop, true
		}
		for _, li := range c.loops {
			if counters[li][s] {
				return li, true
			}
		}
		if classInc[s] || all[s] && len(c.loops) == 0 || fs.counterParams[s] && len(c.loops) == 0 || guarded && classAcc[s] && len(c.loops) == 0 {
			return innermost(c.loops), true
		}
		// a helper's test of a field another helper increments (prepareTurn: beginTurn
		// does state._currentTurn++, then state._currentTurn > state._maxTurns)
		if i := strings.LastIndexByte(s, '.'); i > 0 && len(c.loops) == 0 && b.incFields[s[i+1:]] && !strings.HasPrefix(s, m.t.self+".") {
			return -1, true
		}
		// a counter in a context object the loop hands to the step helper that counts
		// (while ctx.counter < self.max_steps: … self._step(ctx) doing ctx.counter += 1)
		if i := strings.LastIndexByte(s, '.'); i > 0 && c.loop >= 0 && !strings.HasPrefix(s, m.t.self+".") &&
			b.countedBy(fs, c.loop, s[:i], s[i+1:]) {
			return c.loop, true
		}
		return -1, false
	}
	loop, okL := isCounter(lt)
	bound, counterLeft := r, true
	stepCount := false
	if !okL {
		var okR bool
		loop, okR = isCounter(rt)
		if !okR {
			// a helper comparing how many steps were recorded with a cap and returning
			// the stop reason it is (if cycle_count >= turns_cap: return
			// "limit_turns"): kept below only when the exceeded branch returns a
			// literal naming a limit
			switch {
			case sized[lt] || sizeOf(lt) != "" && len(f.Loops) == 0:
				loop, bound, counterLeft, stepCount = -1, r, true, true
			case sized[rt] || sizeOf(rt) != "" && len(f.Loops) == 0:
				loop, bound, counterLeft, stepCount = -1, l, false, true
			default:
				return
			}
		} else {
			bound, counterLeft = l, false
		}
	}
	if c.loop >= 0 {
		loop = c.loop
	}
	if v := sizeOf(m.text(strip(bound))); v != "" && loop >= 0 && assignedInLoop(fs, v, loop) {
		// clientToolOutputs.length === clientToolCalls.length: the size of a collection each
		// step assigns anew (this step's tool calls) is no limit the loop counts towards; the
		// test asks whether every call of the step has its output (ai@6.0.325
		// dist/index.js:5240)
		return
	}
	key := itoa(n.Start) + ":" + itoa(l.Start)
	if seen[key] {
		return
	}
	seen[key] = true
	// a first-iteration test (turn == 1, step > 0) is no bound; but a countdown (left -= 1;
	// while left > 0) is bounded by what the counter started from
	down := false
	if bs := strip(bound); bs != nil && m.t.numbers.has(bs) {
		if v := m.text(bs); v == "0" || v == "1" || op == "==" || op == "===" {
			ct := lt
			if !counterLeft {
				ct = rt
			}
			start := b.countdownStart(fs, ct, loop)
			if start == nil || v != "0" || op == "==" || op == "===" {
				return
			}
			bound, down = start, true
		}
	}
	exceeded := counterLeft == (op == ">" || op == ">=" || op == "==" || op == "===")
	if down {
		exceeded = !exceeded // left > 0 goes on, left <= 0 is spent
	}
	br := ir.Branch{Pos: m.pos(n), Source: m.source(n), Text: clip(m.text(n), 100), Loop: loop, InCond: c.loop >= 0,
		Bound: b.operand(fs, bound), Return: -1}
	bt := m.text(strip(bound))
	br.Optional = strings.Count(m.text(c.expr), bt) > 1 || guarded
	var at *syntax.Node
	switch {
	case c.loop >= 0:
		at = b.after(fs, c.stmt)
	case exceeded:
		at = c.stmt.Child("consequence")
	default:
		at = c.stmt.Child("alternative")
	}
	b.atBound(fs, &br, at, retIdx)
	if stepCount && !b.returnsLimit(fs, br.Return) {
		return
	}
	f.Branches = append(f.Branches, br)
}

// assignedInLoop reports whether name is assigned (not only appended to) inside loop li of
// fs: a value of the iteration, not one the loop runs against.
func assignedInLoop(fs *fnState, name string, li int) bool {
	for _, a := range fs.assigns {
		if a.iter || a.aug || !slices.Contains(a.loops, li) {
			continue
		}
		if slices.Contains(a.lhs, name) {
			return true
		}
	}
	return false
}

// countdownStart returns the value a countdown counter starts from: counter is decremented
// by a constant in loop (left -= 1, left--) and assigned once before that loop, outside it
// (left = MAX_CALLS): that value. Nil when counter counts up, or has no such start.
func (b *builder) countdownStart(fs *fnState, counter string, loop int) *syntax.Node {
	m := fs.mod
	if loop < 0 || loop >= len(fs.loopNodes) {
		return nil
	}
	down := false
	for _, in := range fs.incs {
		if in.target != counter || !contains(in.loops, loop) || in.node == nil {
			continue
		}
		op := m.text(in.node.Child("operator"))
		if op == "+=" || op == "++" {
			return nil
		}
		down = down || op == "-=" || op == "--"
	}
	if !down {
		return nil
	}
	ln := fs.loopNodes[loop]
	var start *syntax.Node
	for _, a := range fs.assigns {
		if a.iter || a.aug || len(a.lhs) != 1 || a.lhs[0] != counter || a.node == nil || contains(a.loops, loop) {
			continue
		}
		if a.node.Start < ln.Start {
			start = a.rhs
		}
	}
	return start
}

// countedBy reports whether a call in loop hands obj (a local or parameter) to a function of
// the set that increments the field of the parameter receiving it (def _step(self, ctx):
// ctx.counter += 1).
func (b *builder) countedBy(fs *fnState, loop int, obj, field string) bool {
	m := fs.mod
	if !b.incFields[field] {
		return false
	}
	for i, ci := range fs.callInfo {
		if i >= len(fs.f.Calls) || !contains(ci.loops, loop) || len(fs.f.Calls[i].Targets) == 0 || len(fs.f.Calls[i].Targets) > 3 {
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
			if a == nil || m.text(strip(a)) != obj {
				continue
			}
			for _, t := range fs.f.Calls[i].Targets {
				tg := b.funcs[t]
				pn := name
				if pn == "" {
					// a method's parameters may list its receiver (self) first
					ps := tg.f.Params
					if len(ps) > 0 && ps[0].Name == m.t.self {
						ps = ps[1:]
					}
					if j < len(ps) {
						pn = ps[j].Name
					}
				}
				for _, in := range tg.incs {
					if pn != "" && in.target == pn+"."+field {
						return true
					}
				}
			}
		}
	}
	return false
}

// returnsLimit reports whether return ret of fs hands back a string literal naming a step
// limit (a stop reason: "limit_turns", "max_steps").
func (b *builder) returnsLimit(fs *fnState, ret int) bool {
	if ret < 0 || ret >= len(fs.retNodes) {
		return false
	}
	rn := fs.retNodes[ret]
	k := rn.NamedChildren()
	if len(k) == 1 && (rn.Kind == "raise_statement" || rn.Kind == "throw_statement") {
		// raise ValueError("Reached max iterations."): the error raised at the cap names it
		// (llama-index-core==0.12.52.post1 agent/react/step.py:438-439)
		if x := strip(k[0]); x != nil && (fs.mod.t.calls.has(x) || fs.mod.t.news.has(x)) && x.Child("arguments") != nil {
			if args := x.Child("arguments").NamedChildren(); len(args) == 1 {
				k = args
			}
		}
	}
	if len(k) != 1 || !fs.mod.t.stringKinds.has(strip(k[0])) {
		return false
	}
	v := strings.ToLower(fs.mod.text(strip(k[0])))
	return containsAny(v, []string{"limit", "max"}) && containsAny(v, []string{"turn", "step", "iteration", "cycle", "round"})
}

// after returns what runs when a loop ends: its else clause (Python) or the statement
// following it.
func (b *builder) after(fs *fnState, loop *syntax.Node) *syntax.Node {
	if e := loop.Child("alternative"); e != nil {
		return e
	}
	p := b.parentIn(fs, loop)
	if p == nil {
		return nil
	}
	for i, c := range p.Children {
		if c == loop {
			for _, n := range p.Children[i+1:] {
				if n.Named && n.Kind != "comment" {
					return n
				}
			}
		}
	}
	return nil
}

// parentIn finds n's parent in the function body: n lies in fs.body, and not inside a
// function or lambda nested in it (whose own node is in it); nil otherwise. It walks up
// the tree's parent links (a map of every body's nodes, built per function, cost more than
// the walks).
func (b *builder) parentIn(fs *fnState, n *syntax.Node) *syntax.Node {
	if n == nil || fs.body == nil {
		return nil
	}
	t := fs.mod.t
	p := n.Parent
	for x := p; x != nil; x = x.Parent {
		if x == fs.body {
			return p
		}
		if t.funcs.has(x) || t.lambdas.has(x) {
			return nil
		}
	}
	return nil
}

// errorLHS is the name of a variable holding the run's error message (run_error, err_msg).
var errorLHS = regexp.MustCompile(`(?i)(^|[._])(run_?)?(error|err)(_?(msg|message))?$`)

var reasonLHS = regexp.MustCompile(`(?i)(reason|status|stop|finish|outcome|state)`)

// keyedReason returns the value a setter call stores under a key naming a stop reason
// (state.set("stop_reason", "max_steps"), ctx.set_state('status', Status.MAX_STEPS)), "" for
// any other call: the method's name says it sets, the first argument is a string literal key,
// the second a string or a named constant.
func keyedReason(m *module, call *syntax.Node) string {
	fn := strip(call.Child("function"))
	if fn == nil || !m.t.members.has(fn) {
		return ""
	}
	meth := strings.ToLower(m.text(fn.Child(m.t.memberProp)))
	if meth != "set" && meth != "setstate" && meth != "put" && !strings.HasPrefix(meth, "set_") {
		return ""
	}
	args := call.Child("arguments")
	if args == nil {
		return ""
	}
	a := args.NamedChildren()
	if len(a) != 2 || !m.t.stringKinds.has(strip(a[0])) || !reasonLHS.MatchString(m.text(a[0])) {
		return ""
	}
	if v := strip(a[1]); v != nil && (m.t.stringKinds.has(v) || m.t.members.has(v)) {
		return clip(m.text(v), 80)
	}
	return ""
}

// atBound fills what the bound branch does: the return or raise it reaches, a stop reason
// written there, and its first line.
func (b *builder) atBound(fs *fnState, br *ir.Branch, at *syntax.Node, retIdx map[*syntax.Node]int) {
	if at == nil {
		return
	}
	m := fs.mod
	first := at
	if k := at.NamedChildren(); (m.t.blocks.has(at) || at.Kind == "else_clause") && len(k) > 0 {
		first = k[0]
		if m.t.blocks.has(first) && len(first.NamedChildren()) > 0 {
			first = first.NamedChildren()[0]
		}
	}
	br.AtPos, br.AtSource = m.pos(first), m.source(first)
	eachNode(m.t, at, func(n *syntax.Node) bool {
		if br.Return >= 0 {
			return false
		}
		if i, ok := retIdx[n]; ok {
			br.Return = i
			if br.StopText == "" {
				br.StopText = returnedReason(m, n)
			}
			return false
		}
		if m.t.calls.has(n) && br.StopText == "" {
			// a stop reason stored under its key in a state container (state.set("stop_reason",
			// "max_steps"), state.update(...) is not: one key, one value)
			if v := keyedReason(m, n); v != "" {
				br.StopText = v
				return true
			}
			// an error that names the bound recorded, not raised (a step's error =
			// AgentMaxStepsError(...)), here or in a helper called here
			br.StopText = b.boundErrorIn(fs, n)
		}
		if (m.t.assigns.has(n) || m.t.declarators.has(n)) && br.StopText == "" {
			l, r := n.Child("left"), n.Child("right")
			if m.t.declarators.has(n) {
				l, r = n.Child("name"), n.Child("value")
			}
			if r != nil && reasonLHS.MatchString(m.text(l)) && (m.t.stringKinds.has(strip(r)) || strings.Contains(m.text(r), ".")) {
				br.StopText = clip(m.text(r), 80)
			}
			if rr := strip(r); rr != nil && br.HandedErr == "" && (m.t.calls.has(rr) || m.t.news.has(rr)) {
				// max_turns_error = MaxTurnsExceeded(...): built here, raised or handed on
				br.HandedErr = boundErrorName(m, rr)
			} else if rr != nil && br.HandedErr == "" && m.t.stringKinds.has(rr) && errorLHS.MatchString(m.text(l)) {
				// agent_run_error = 'Failed to complete task in maximum steps': the run's
				// error message, recorded and reported after the loop (browser-use==0.13.14
				// agent/service.py:2655)
				br.HandedErr = clip(strings.Trim(m.text(rr), "\"'`"), 80)
			}
		}
		return true
	})
	if br.Return >= 0 || br.StopText != "" {
		br.HandedErr = "" // raised or returned at the bound, or a stop recorded: said there
	}
	if br.Return >= 0 && br.StopText != "" {
		if e := fs.f.Returns[br.Return].Err; e != nil && e.Kind != ir.ValNil && len(fs.f.Returns[br.Return].Values) == 0 {
			br.StopText = "" // the bound error is raised: an error at the bound, not a recorded stop
		}
	}
	if br.Return >= 0 && br.StopText == "" {
		if e := fs.f.Returns[br.Return].Err; e != nil && e.Kind != ir.ValNil && e.Kind != ir.ValCall {
			br.StopText = ""
		}
	}
}

// returnedReason returns the bound stop reason the value a return hands back carries as a
// keyword argument or an object's member named for a reason, as written: return
// Exit(exit_msg=AssistantMsg(..., finished_reason=ReplyFinishedReason.EXCEED_MAX_ITERS))
// (agentscope==2.0.11 agent/_agent.py:3736-3770), return { ..., stopReason: "max_turns" }. A
// reason that is no bound's (completed, error) is not one.
func returnedReason(m *module, ret *syntax.Node) string {
	found := ""
	eachNode(m.t, ret, func(n *syntax.Node) bool {
		if found != "" {
			return false
		}
		var k, v *syntax.Node
		switch {
		case m.t.keywordArgs.has(n):
			k, v = n.Child("name"), n.Child("value")
		case n.Kind == "pair":
			k, v = n.Child("key"), n.Child("value")
		default:
			return true
		}
		v = strip(v)
		if k == nil || v == nil || !reasonLHS.MatchString(m.text(k)) || !(m.t.stringKinds.has(v) || m.t.members.has(v)) {
			return true
		}
		if boundReason(m.text(v)) {
			found = clip(m.text(v), 80)
		}
		return true
	})
	return found
}

// boundReason reports whether a stop reason as written names a step or turn limit
// (EXCEED_MAX_ITERS, "max_turns", StopReason.MaxSteps, "limitTurns").
func boundReason(text string) bool {
	n := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(text))
	return boundReasonLimit.MatchString(n) && boundReasonUnit.MatchString(n)
}

var (
	boundReasonLimit = regexp.MustCompile(`max|limit|exceed|toomany`)
	boundReasonUnit  = regexp.MustCompile(`step|iter|turn|round|loop|recursion`)
)

// boundErrorIn returns the name of an error class naming a bound (MaxStepsError,
// RecursionLimitExceeded) that is recorded, not raised, at the bound: constructed as an
// argument of another call (ActionStep(error=AgentMaxStepsError(...))) in the call's own
// arguments or in the function it calls. An error assigned to a variable is raised or handed
// on as the run's error.
func (b *builder) boundErrorIn(fs *fnState, call *syntax.Node) string {
	found := ""
	var walk func(t *table, m *module, n *syntax.Node, inArgs bool)
	walk = func(t *table, m *module, n *syntax.Node, inArgs bool) {
		if n == nil || found != "" {
			return
		}
		if t.calls.has(n) && inArgs {
			if name := boundErrorName(m, n); name != "" {
				found = name
				return
			}
		}
		for _, c := range n.Children {
			if t.funcs.has(c) || t.lambdas.has(c) || t.classes.has(c) {
				continue
			}
			walk(t, m, c, inArgs || t.calls.has(n) && c.Field == "arguments" || t.keywordArgs.has(n))
		}
	}
	walk(fs.mod.t, fs.mod, call.Child("arguments"), true)
	if found != "" {
		return found
	}
	id, ok := fs.callOf[call]
	if !ok || len(fs.f.Calls[id].Targets) != 1 {
		return ""
	}
	t := b.funcs[fs.f.Calls[id].Targets[0]]
	walk(t.mod.t, t.mod, t.body, false)
	return found
}

func boundErrorName(m *module, call *syntax.Node) string {
	name := calleeText(m, call)
	short := name[strings.LastIndexByte(name, '.')+1:]
	if !isClassName(short) || !(strings.HasSuffix(short, "Error") || strings.HasSuffix(short, "Exception") || strings.HasSuffix(short, "Exceeded")) {
		return ""
	}
	l := strings.ToLower(short)
	if containsAny(l, []string{"max", "limit", "exceed", "toomany"}) && containsAny(l, []string{"step", "turn", "iteration", "recursion", "round", "call"}) {
		return short
	}
	return ""
}

// operand describes a bound operand.
func (b *builder) operand(fs *fnState, n *syntax.Node) ir.Operand {
	m, t := fs.mod, fs.mod.t
	n = strip(n)
	op := ir.Operand{Text: m.text(n), Kind: "other"}
	if n == nil {
		return op
	}
	if l, r, ok := fallbackOf(m, n); ok {
		// max ?? Infinity, self.max_steps or 20: the bound is the value, the literal what it
		// is when unset (kept for defaults, which prefer what sets the value)
		op = b.operand(fs, l)
		if op.Key != "" {
			fs.fallbacks = append(fs.fallbacks, fallback{key: op.Key, n: r})
		}
		return op
	}
	// len(x) / x.length: the size of a collection
	switch {
	case t.numbers.has(n):
		op.Kind, op.Const = "const", m.text(n)
	case t.idents.has(n):
		name := m.text(n)
		if fs.params[name] {
			op.Kind, op.Key = "param", fs.key()+"."+name
			return op
		}
		for _, a := range fs.assigns {
			if len(a.lhs) == 1 && a.lhs[0] == name {
				op.Kind, op.Key = "var", fs.key()+"."+name
				return op
			}
			if len(a.lhs) > 1 && slices.Contains(a.lhs, name) {
				// const { maxSteps = DEFAULT_MAX, onStep } = options || {}: one binding of
				// several with a default of its own, keyed as the one-binding pattern is
				if l := objectPattern(m, a); l != nil && patternBindings(m, l)[name] != nil {
					op.Kind, op.Key = "var", fs.key()+"."+name
					return op
				}
			}
		}
		for p := fs.parent; p != nil; p = p.parent {
			if p.params[name] {
				op.Kind, op.Key = "param", p.key()+"."+name
				return op
			}
			for _, a := range p.assigns {
				if len(a.lhs) == 1 && a.lhs[0] == name {
					// a closure's test of a local of the function around it (const
					// maxRemoteCalls = … ?? DEFAULT_MAX_REMOTE_CALLS; return
					// __asyncGenerator(…, function* () { while (n < maxRemoteCalls) … }))
					op.Kind, op.Key = "var", p.key()+"."+name
					return op
				}
			}
		}
		tg := b.resolveName(fs, name)
		if tg.value != nil {
			v, pos, ok := b.literal(tg.vmod, tg.value, 0)
			if ok {
				op.Kind, op.Const, op.ConstPos = "const", v, pos
			} else {
				op.Kind = "var"
			}
			op.Key = tg.vmod.name + "." + name
		}
	case t.members.has(n):
		obj := strip(n.Child("object"))
		prop := m.text(n.Child(t.memberProp))
		if ot := m.text(obj); ot == t.self || ot == "cls" {
			op.Kind = "field"
			if k := enclosingClass(fs); k != nil {
				op.Key = k.key + "." + prop
				for _, c := range append([]*class{k}, k.ancestors()...) {
					if b.hasFieldDefault(c, prop) {
						op.Key = c.key + "." + prop
						break
					}
				}
			}
			return op
		}
		ut := b.resolveExpr(fs, obj, 0)
		if ut.mod != nil {
			st := b.resolveSym(ut.mod.name, prop, 0)
			if st.value != nil {
				if v, pos, ok := b.literal(st.vmod, st.value, 0); ok {
					op.Kind, op.Const, op.ConstPos, op.Key = "const", v, pos, st.vmod.name+"."+prop
					return op
				}
			}
		}
		op.Kind = "field"
		if in := strip(obj); in != nil && t.members.has(in) && m.text(strip(in.Child("object"))) == t.self {
			// this.runConfig.maxIterations: an entry of a configuration the class keeps in a
			// field (see objectDefaults)
			if k := enclosingClass(fs); k != nil {
				op.Key = k.key + "." + m.text(in.Child(t.memberProp)) + "." + prop
				if c := b.configClass(k, m.text(in.Child(t.memberProp)), prop); c != nil {
					op.Key = c.key + "." + prop // self.config = config_class(**kwargs): AgentConfig.step_limit
				}
				return op
			}
		}
		if ut.cls == nil && len(ut.inst) == 1 {
			ut.cls = ut.inst[0] // a typed parameter (run_config: RunConfig | None): its class's field
		}
		if owners := b.fieldOwners[prop]; ut.cls == nil && len(owners) == 1 {
			ut.cls = owners[0] // the one class whose instances have the field
		}
		if ut.cls != nil {
			op.Key = ut.cls.key + "." + prop
			if key, v, vm := b.builtDefault(fs, obj, ut.cls, prop); key != "" {
				// params.max_iterations, params from the defaults object the class builds
				// in its constructor with max_iterations=10: that keyword is the default
				op.Key = key
				fs.fallbacks = append(fs.fallbacks, fallback{key: key, n: v, mod: vm})
			}
		} else {
			op.Key = fs.key() + "." + m.text(n)
		}
	case t.calls.has(n):
		op.Kind = "call"
		op.Text = compactText(op.Text)
		if id, ok := fs.callOf[n]; ok && id < len(fs.f.Calls) && len(fs.f.Calls[id].Targets) == 1 {
			// get_max_remote_calls_afc(config): a helper of the set returning the config's
			// value or, when it is unset, a constant (return _DEFAULT_MAX_REMOTE_CALLS_AFC):
			// that constant is the bound's default
			if h := b.funcs[fs.f.Calls[id].Targets[0]]; h != nil {
				if d := constFallback(b, h); d != nil {
					op.Key = h.key() + "()"
					fs.fallbacks = append(fs.fallbacks, fallback{key: op.Key, n: d, mod: h.mod})
				}
			}
		}
	}
	return op
}

// constFallback returns the literal (through module constants) a helper of the set returns
// when what it reads is unset: h returns that one value (by one or more returns) and, by some
// other return, a value that is no literal (return int(config.maximum_remote_calls)); raises
// aside. Nil otherwise.
func constFallback(b *builder, h *fnState) *syntax.Node {
	m := h.mod
	var lit *syntax.Node
	val, other := "", false
	for _, n := range h.retNodes {
		if !m.t.returns.has(n) {
			continue // a raise: no value handed back
		}
		k := n.NamedChildren()
		if len(k) != 1 {
			return nil
		}
		v, _, ok := b.literal(m, k[0], 0)
		switch {
		case !ok:
			other = true
		case lit == nil:
			lit, val = k[0], v
		case v != val:
			return nil
		}
	}
	if lit == nil || !other {
		return nil
	}
	return lit
}

// compactText writes an expression printed over several lines on one: the line breaks and
// indentation inside brackets dropped, any other run of them one space
// (get_max_remote_calls_afc(\n    config\n) is get_max_remote_calls_afc(config)).
func compactText(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' {
			out.WriteByte(s[i])
			continue
		}
		j, nl := i, false
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
			nl = nl || s[j] == '\n'
			j++
		}
		prev := byte(0)
		if o := out.String(); len(o) > 0 {
			prev = o[len(o)-1]
		}
		switch {
		case !nl:
			out.WriteString(s[i:j])
		case strings.IndexByte("([{", prev) >= 0 || j < len(s) && strings.IndexByte(")]}", s[j]) >= 0:
		case j < len(s):
			out.WriteByte(' ')
		}
		i = j - 1
	}
	return out.String()
}

// configClass returns the class of the set whose instance the receiver's field holds and
// that declares prop with a default: the field's class (self.config = AgentConfig(...), an
// annotation), or a class a method constructs through a parameter whose default is that class
// (self.config = config_class(**kwargs) with config_class: type = AgentConfig); nil otherwise.
func (b *builder) configClass(k *class, field, prop string) *class {
	for _, c := range b.fieldClass(k, field).cls {
		if b.hasFieldDefault(c, prop) {
			return c
		}
	}
	for _, c := range append([]*class{k}, k.ancestors()...) {
		for _, name := range sortedMethodNames(c) {
			mf := c.methods[name]
			m := mf.mod
			for _, a := range mf.assigns {
				if a.iter || len(a.lhs) != 1 || a.lhs[0] != m.t.self+"."+field || a.rhs == nil {
					continue
				}
				r := strip(a.rhs)
				if r == nil || !m.t.calls.has(r) {
					continue
				}
				fn := strip(r.Child("function"))
				if fn == nil || !m.t.idents.has(fn) || !mf.params[m.text(fn)] {
					continue
				}
				if d := strip(mf.paramDefaults[m.text(fn)]); d != nil {
					if tg := b.resolveExpr(mf, d, 0); tg.cls != nil && b.hasFieldDefault(tg.cls, prop) {
						return tg.cls
					}
				}
			}
		}
	}
	return nil
}

// builtDefault finds the keyword a constructor gives prop when it builds the class's
// defaults object: the local x (of class cls) is set from a field of the receiver (x =
// self.defaults) or from a method of the set that reads it (params =
// self.get_request_params(...), whose body starts from self.default_request_params), and a
// constructor of the enclosing class or of its nearest ancestor that sets that field builds
// an instance of cls with a keyword for prop (self.default_request_params =
// self.default_request_params or RequestParams(..., max_iterations=10)). It returns the key
// of that field's prop, the keyword's value and its module; "" when no constructor sets it
// (the class field default stays).
func (b *builder) builtDefault(fs *fnState, x *syntax.Node, cls *class, prop string) (string, *syntax.Node, *module) {
	m := fs.mod
	k := enclosingClass(fs)
	if k == nil || x == nil || !m.t.idents.has(x) || fs.params[m.text(x)] {
		return "", nil, nil
	}
	var srcs []*syntax.Node // what x is set from
	for _, a := range fs.assigns {
		if !a.iter && len(a.lhs) == 1 && a.lhs[0] == m.text(x) && a.rhs != nil {
			r := strip(a.rhs)
			if r != nil && r.Kind == "await_expression" && len(r.NamedChildren()) == 1 {
				r = strip(r.NamedChildren()[0])
			}
			srcs = append(srcs, r)
		}
	}
	// reads reports whether x is set from the receiver's field
	reads := func(field string) bool {
		for _, r := range srcs {
			if r == nil {
				continue
			}
			if m.t.members.has(r) && m.text(strip(r.Child("object"))) == m.t.self && m.text(r.Child(m.t.memberProp)) == field {
				return true
			}
			ci, ok := fs.callOf[r]
			if !ok || ci >= len(fs.f.Calls) || len(fs.f.Calls[ci].Targets) != 1 {
				continue
			}
			t := b.funcs[fs.f.Calls[ci].Targets[0]]
			if t == fs || t.cls == nil {
				continue
			}
			found := false
			eachNode(t.mod.t, t.body, func(n *syntax.Node) bool {
				if !found && t.mod.t.members.has(n) && t.mod.text(strip(n.Child("object"))) == t.mod.t.self &&
					t.mod.text(n.Child(t.mod.t.memberProp)) == field {
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
	for _, c := range append([]*class{k}, k.ancestors()...) {
		ctor := c.methods["__init__"]
		if ctor == nil {
			ctor = c.methods["constructor"]
		}
		if ctor == nil {
			continue
		}
		cm := ctor.mod
		for _, a := range ctor.assigns {
			if a.iter || len(a.lhs) != 1 || a.rhs == nil {
				continue
			}
			field, ok := strings.CutPrefix(a.lhs[0], cm.t.self+".")
			if !ok || strings.ContainsAny(field, ".[") {
				continue
			}
			for _, alt := range alternatives(cm, a.rhs) {
				alt = strip(alt)
				if alt == nil || !cm.t.calls.has(alt) {
					continue
				}
				if fn := strip(alt.Child("function")); fn == nil || b.resolveExpr(ctor, fn, 0).cls != cls {
					continue
				}
				args := alt.Child(cm.t.callArgs)
				if args == nil {
					continue
				}
				for _, arg := range args.NamedChildren() {
					if cm.t.keywordArgs.has(arg) && cm.text(arg.Child("name")) == prop && reads(field) {
						return c.key + "." + field + "." + prop, arg.Child("value"), cm
					}
				}
			}
		}
	}
	return "", nil, nil
}

// literal resolves a value to a literal through module constants (across modules).
func (b *builder) literal(m *module, n *syntax.Node, depth int) (string, ir.Pos, bool) {
	n = strip(n)
	if n == nil || depth > 6 {
		return "", ir.Pos{}, false
	}
	t := m.t
	switch {
	case t.numbers.has(n) || t.stringKinds.has(n) || t.literals.has(n):
		return m.text(n), m.pos(n), true
	case n.Kind == "unary_operator" || n.Kind == "unary_expression" && m.text(n.Child("operator")) == "-":
		return m.text(n), m.pos(n), true
	case t.assigns.has(n) && m.t.lang != "python":
		// const DEFAULT_MAX_TURNS = exports.DEFAULT_MAX_TURNS = 8 (babel): the value assigned
		return b.literal(m, n.Child("right"), depth+1)
	case t.idents.has(n):
		s := m.syms[m.text(n)]
		if s == nil {
			return "", ir.Pos{}, false
		}
		tg := b.symTarget(m, s, 0)
		if tg.value != nil && tg.value != n {
			if v, p, ok := b.literal(tg.vmod, tg.value, depth+1); ok {
				b.moveEnv(p, tg.vpos.pos)
				return v, tg.vpos.pos, true
			}
		}
	case t.members.has(n):
		obj := strip(n.Child("object"))
		if ot := m.text(obj); (ot == "exports" || ot == "module.exports") && m.t.lang != "python" {
			// this.maxTurns = exports.DEFAULT_MAX_TURNS (tsc): the module's own export
			if s := m.syms[m.text(n.Child(t.memberProp))]; s != nil && s.kind == symValue && s.value != nil && s.value != n {
				if v, _, ok := b.literal(m, s.value, depth+1); ok {
					return v, s.pos, true
				}
			}
		}
		if obj != nil && t.idents.has(obj) {
			if s := m.syms[m.text(obj)]; s != nil {
				if tg := b.symTarget(m, s, 0); tg.mod != nil {
					st := b.resolveSym(tg.mod.name, m.text(n.Child(t.memberProp)), 0)
					if st.value != nil {
						if v, p, ok := b.literal(st.vmod, st.value, depth+1); ok {
							b.moveEnv(p, st.vpos.pos)
							return v, st.vpos.pos, true
						}
					}
				}
			}
		}
	case n.Kind == "call" && (m.text(n.Child("function")) == "float" || m.text(n.Child("function")) == "int") &&
		len(n.Child("arguments").NamedChildren()) == 1 && t.stringKinds.has(n.Child("arguments").NamedChildren()[0]):
		// float("inf"): a constant written as a conversion
		return m.text(n), m.pos(n), true
	case n.Kind == "call" && envDefault(m.text(n.Child("function"))) && len(n.Child("arguments").NamedChildren()) == 2:
		// getenv("LIMIT", "10007"), os.environ.get("LIMIT", 25): the default when unset
		args := n.Child("arguments").NamedChildren()
		v, p, ok := b.literal(m, args[1], depth+1)
		if ok {
			b.noteEnv(p, envName(m, args[0]))
		}
		return v, p, ok
	case (n.Kind == "binary_expression" || n.Kind == "boolean_operator") && envRead(m, n.Child("left")) != "" &&
		(m.text(n.Child("operator")) == "??" || m.text(n.Child("operator")) == "||" || m.text(n.Child("operator")) == "or"):
		// process.env.LIMIT ?? "25", os.environ.get("LIMIT") or 25: the default when unset
		v, p, ok := b.literal(m, n.Child("right"), depth+1)
		if ok {
			b.noteEnv(p, envRead(m, n.Child("left")))
		}
		return v, p, ok
	case t.calls.has(n) && numberWraps[m.text(n.Child("function"))] && len(n.Child("arguments").NamedChildren()) >= 1 &&
		!t.stringKinds.has(strip(n.Child("arguments").NamedChildren()[0])):
		// int(getenv("LIMIT", "25")), Number(process.env.LIMIT ?? 25): a value converted
		v, p, ok := b.literal(m, n.Child("arguments").NamedChildren()[0], depth+1)
		if ok {
			if fn := m.text(n.Child("function")); fn != "str" && fn != "String" {
				// int(os.getenv("LIMIT", "20")): the number the string says
				if u := unquote(v); u != v && u != "" {
					if _, err := strconv.ParseFloat(u, 64); err == nil {
						v = u
					}
				}
			}
			b.moveEnv(p, m.pos(n))
			return v, m.pos(n), true
		}
	case n.Kind == "call" && isClassName(strings.TrimLeft(lastName(m.text(n.Child("function"))), "_")) && len(n.Child("arguments").NamedChildren()) == 1 &&
		n.Child("arguments").NamedChildren()[0].Kind != "keyword_argument":
		// _DefaultRecursionLimit(x), Decimal(x): a value wrapped in a type
		if v, p, ok := b.literal(m, n.Child("arguments").NamedChildren()[0], depth+1); ok {
			b.moveEnv(p, m.pos(n))
			return v, m.pos(n), true
		}
	case n.Kind == "call":
		// Field(default=10), field(default=10)
		if args := n.Child("arguments"); args != nil {
			for _, a := range args.NamedChildren() {
				if a.Kind == "keyword_argument" && m.text(a.Child("name")) == "default" {
					return b.literal(m, a.Child("value"), depth+1)
				}
				if a.Kind == "keyword_argument" && m.text(a.Child("name")) == "default_factory" && t.idents.has(strip(a.Child("value"))) && depth < 6 {
					// Field(default_factory=_default_max_llm_calls): what the factory returns
					// last (its fallback after reading an override: return _DEFAULT_MAX = 500)
					tg := b.resolveSym(m.name, m.text(strip(a.Child("value"))), 0)
					if len(tg.fns) == 1 {
						f := tg.fns[0]
						for i := len(f.retNodes) - 1; i >= 0; i-- {
							rn := f.retNodes[i]
							if k := rn.NamedChildren(); !f.mod.t.raises.has(rn) && len(k) > 0 {
								return b.literal(f.mod, k[0], depth+1)
							}
						}
					}
				}
			}
		}
	}
	return "", ir.Pos{}, false
}

func (b *builder) hasFieldDefault(k *class, prop string) bool {
	if _, ok := k.fields[prop]; ok {
		return true
	}
	for _, mf := range k.methods {
		for _, a := range mf.assigns {
			if len(a.lhs) == 1 && a.lhs[0] == mf.mod.t.self+"."+prop {
				return true
			}
		}
	}
	return false
}

// cancelWords are the parts of the names of cancellation flags and events.
var cancelWords = []string{"cancel", "abort", "interrupt", "stop_event", "stopevent", "shutdown", "should_stop", "shouldstop",
	"stop_requested", "_stopped", "halt"}

// isCancelName reports whether a flag's name says cancellation. An approval interruption
// (interruptions, needs_interruption) is not cancellation.
func isCancelName(s string) bool {
	l := strings.ToLower(s)
	return containsAny(l, cancelWords) && !strings.Contains(l, "interruption") && !strings.Contains(l, "approval")
}

// ownInterrupt reports whether the read txt (named last) of an interruption is of what the
// run itself computed: a local variable of the function or of one around it (let interrupted
// = false set by the tools' callback; const { interruptedResponse } = await
// resolveResumeOption(...); resolved.interrupt of a helper's result, @genkit-ai/ai@1.42.0
// src/generate/action.ts:378-383, resolve-tool-requests.ts:382-403). An interruption a tool or
// step hands back is a pause for someone's input, not a request from outside to cancel the
// run; a cancel request arrives through a field, a parameter or a module's state
// (if self.interrupt_switch:, set by interrupt()). Only the word "interrupt" is ambiguous so.
func (b *builder) ownInterrupt(fs *fnState, txt, last string) bool {
	l := strings.ToLower(last)
	if !strings.Contains(l, "interrupt") || containsAny(l, []string{"cancel", "abort", "stop", "shutdown", "halt"}) {
		return false
	}
	root := txt
	if i := strings.IndexAny(root, ".?["); i >= 0 {
		root = root[:i]
	}
	if root == fs.mod.t.self || root == "" {
		return false
	}
	own := false
	for g := fs; g != nil; g = g.parent {
		if g.params[root] {
			return false
		}
		m := g.mod
		for _, a := range g.assigns {
			if !slices.Contains(a.lhs, root) {
				continue
			}
			// every value it is set to: a literal (the flag the tools' callback raises) or
			// what a function of the set returns; a read of an event, a signal or a field
			// (interrupted = self._interrupt_event.is_set()) is a request from outside
			r := strip(a.rhs)
			if r != nil && r.Kind == "await_expression" && len(r.NamedChildren()) == 1 {
				r = strip(r.NamedChildren()[0])
			}
			switch ci, ok := g.callOf[r]; {
			case r == nil || a.iter:
				return false
			case m.t.literals.has(r) || m.t.numbers.has(r):
			case ok && ci < len(g.f.Calls) && len(g.f.Calls[ci].Targets) > 0 && !opaque(b, &g.f.Calls[ci]):
			default:
				return false
			}
			own = true
		}
	}
	return own
}

// stopHook reports whether n, named last, is called as a should-stop predicate
// (config.shouldStopAfterTurn?.(...)): a caller's hook that ends the run when it says so is
// a stop condition, not a check of cancellation.
func (b *builder) stopHook(fs *fnState, n *syntax.Node, last string) bool {
	l := strings.ToLower(last)
	if !strings.HasPrefix(l, "should") {
		return false
	}
	p := b.parentIn(fs, n)
	return p != nil && fs.mod.t.calls.has(p) && p.Child("function") == n
}

// stopFlag reports whether txt, named last, is a stop flag of the receiver: stopped on the
// receiver or on an object it holds (self.state.stopped, set by the class's stop method:
// browser-use==0.13.14 agent/service.py:2638), which a caller sets to end the run.
func (b *builder) stopFlag(fs *fnState, txt, last string) bool {
	return last == "stopped" && fs.cls != nil && strings.HasPrefix(txt, fs.mod.t.self+".") && !strings.ContainsAny(txt, "([")
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// cancels records cancellation observations: flags and signals read in conditions,
// check calls (throwIfAborted, raise_if_cancelled).
func (b *builder) cancels(fs *fnState) {
	m, t := fs.mod, fs.mod.t
	obs := func(loops []int, top bool, condLoop int) []ir.LoopObs {
		var out []ir.LoopObs
		for i, l := range loops {
			every := i == 0 && top || l == condLoop
			out = append(out, ir.LoopObs{Loop: l, EveryIteration: every})
		}
		return out
	}
	for _, c := range fs.conds {
		var hit *syntax.Node
		eachNode(t, c.expr, func(n *syntax.Node) bool {
			if hit != nil {
				return false
			}
			if t.members.has(n) || t.idents.has(n) {
				txt := m.text(n)
				last := txt[strings.LastIndexByte(txt, '.')+1:]
				if last == "aborted" || isCancelName(last) && strings.ToUpper(last) != last || b.stopFlag(fs, txt, last) {
					// (a module constant in capitals is a setting, not a request)
					if !b.stopHook(fs, n, last) && !b.ownInterrupt(fs, txt, last) {
						hit = n
					}
					return false
				}
			}
			return true
		})
		if hit == nil {
			continue
		}
		if c.loop < 0 && c.stmt != nil && m.t.ifs.has(c.stmt) {
			// a flag checked to stop: one of the branches leaves (raise, return, break)
			l1, _ := b.leaves(fs, c.stmt.Child("consequence"))
			l2, _ := b.leaves(fs, c.stmt.Child("alternative"))
			if !l1 && !l2 && !raisesIn(m.t, c.stmt.Child("consequence")) && !raisesIn(m.t, c.stmt.Child("alternative")) {
				continue
			}
		}
		cn := ir.Cancel{Pos: m.pos(hit), Text: clip(m.text(c.expr), 80), Kind: "err", Loops: obs(c.loops, c.top, c.loop)}
		if c.loop < 0 && len(c.loops) > 0 {
			cn.After = b.checkedAfter(fs, c.stmt, c.loops[0])
		}
		fs.f.Cancels = append(fs.f.Cancels, cn)
		if c.top && len(c.loops) == 0 {
			fs.f.CancelAlways = true
		}
	}
	for i, ci := range fs.callInfo {
		meth := fs.f.Calls[i].Method
		if !cancelCalls[meth] {
			continue
		}
		if meth == "cancelled" || meth == "is_cancelled" || meth == "isCancelled" {
			continue // read in a condition: recorded above
		}
		top := ci.top || len(ci.loops) > 0 && b.laterIterations(fs, ci.node, ci.loops[0])
		cn := ir.Cancel{Pos: fs.f.Calls[i].Pos, Text: fs.f.Calls[i].Text, Kind: "err", Loops: obs(ci.loops, top, -1)}
		if len(ci.loops) > 0 {
			cn.After = b.checkedAfter(fs, ci.node, ci.loops[0])
		}
		fs.f.Cancels = append(fs.f.Cancels, cn)
		if ci.top && len(ci.loops) == 0 {
			fs.f.CancelAlways = true
		}
	}
}

// laterIterations reports whether the statement of call n is a statement of loop l's body
// guarded only by a test that skips the first iteration (if (steps.length > 0)
// signal.throwIfAborted(); if i > 0: ...): it runs between every two iterations.
func (b *builder) laterIterations(fs *fnState, n *syntax.Node, l int) bool {
	m, t := fs.mod, fs.mod.t
	stmt := b.statementOf(fs, n)
	if stmt == nil || l < 0 || l >= len(fs.loopNodes) {
		return false
	}
	p := b.parentIn(fs, stmt)
	if t.blocks.has(p) {
		if ks := p.NamedChildren(); len(ks) != 1 {
			return false // the guarded block holds more than the check
		}
		p = b.parentIn(fs, p)
	}
	if !t.ifs.has(p) || p.Child("alternative") != nil {
		return false
	}
	body := b.parentIn(fs, p)
	if body == nil || body.Field != "body" || b.parentIn(fs, body) != fs.loopNodes[l] {
		return false
	}
	lhs, rhs, op, ok := compareOps(m, strip(p.Child("condition")))
	if !ok || m.text(strip(rhs)) != "0" || op != ">" && op != "!=" && op != "!==" {
		return false
	}
	// a count of what the loop has done so far: the steps list's length or a counter
	l2 := strip(lhs)
	return l2 != nil && (t.idents.has(l2) || t.members.has(l2))
}

// checkedAfter lists the calls of loop l after which every path to the end of the iteration
// passes the check k: the check's statement follows the call's in the block that holds both,
// nothing between them goes back to the loop head (continue), and the check is not under a
// condition inside its statement. A check after each step's model call is a check between
// steps even when other branches of the body (a resumed approval) check elsewhere.
func (b *builder) checkedAfter(fs *fnState, k *syntax.Node, l int) []int {
	t := fs.mod.t
	chain := func(n *syntax.Node) []*syntax.Node {
		var out []*syntax.Node
		for x := n; x != nil; x = b.parentIn(fs, x) {
			out = append(out, x)
			if x == fs.body {
				break
			}
		}
		return out
	}
	kc := chain(k)
	if len(kc) == 0 || kc[len(kc)-1] != fs.body {
		return nil
	}
	onK := map[*syntax.Node]int{}
	for i, x := range kc {
		onK[x] = i
	}
	// unconditional from a statement down to the check
	uncond := func(i int) bool {
		for j := i; j > 0; j-- {
			x, child := kc[j], kc[j-1]
			switch {
			case t.ifs.has(x):
				if x.Child("condition") != child {
					return false
				}
			case t.whiles.has(x) || t.dos.has(x) || t.cfors.has(x) || t.foreachs.has(x) || t.catches.has(x) ||
				t.ternaries.has(x) || x.Kind == "switch_statement" || x.Kind == "switch_case" || x.Kind == "match_statement" ||
				x.Kind == "finally_clause" || t.comprehensions.has(x):
				return false
			case x.Kind == "binary_expression" || x.Kind == "boolean_operator":
				if x.Child("left") != child {
					return false
				}
			}
		}
		return true
	}
	var out []int
	for j, ci := range fs.callInfo {
		if j >= len(fs.f.Calls) || ci.node == k || len(ci.loops) == 0 || !contains(ci.loops, l) || ci.node.Start >= k.Start {
			continue
		}
		// the block holding both: the first block on the call's way up that the check is under
		var blk, sc *syntax.Node
		for x, prev := b.parentIn(fs, ci.node), ci.node; x != nil; x, prev = b.parentIn(fs, x), x {
			if _, ok := onK[x]; ok && t.blocks.has(x) {
				blk, sc = x, prev
				break
			}
			if t.whiles.has(x) || t.dos.has(x) || t.cfors.has(x) || t.foreachs.has(x) {
				break // the check is outside the loop the call is in
			}
			if x == fs.body {
				break
			}
		}
		if blk == nil {
			continue
		}
		i := onK[blk] - 1
		if i < 0 || kc[i] == sc || !uncond(i) {
			continue
		}
		if b.continuesBetween(fs, ci.node.End, kc[i].Start, blk) {
			continue
		}
		out = append(out, j)
	}
	return out
}

// continuesBetween reports whether a continue of the enclosing loop lies in [from, to) inside
// blk (one of a loop nested in blk goes on with that loop).
func (b *builder) continuesBetween(fs *fnState, from, to int, blk *syntax.Node) bool {
	t := fs.mod.t
	found := false
	var walk func(x *syntax.Node)
	walk = func(x *syntax.Node) {
		if found || x.End <= from || x.Start >= to {
			return
		}
		if t.continues.has(x) {
			found = true
			return
		}
		if t.whiles.has(x) || t.dos.has(x) || t.cfors.has(x) || t.foreachs.has(x) || t.funcs.has(x) || t.lambdas.has(x) || t.classes.has(x) {
			return
		}
		for _, c := range x.Children {
			walk(c)
		}
	}
	walk(blk)
	return found
}

// callCancels propagates CancelAlways through calls on every path, and (final) records
// calls of such functions as observations.
func (b *builder) callCancels(fs *fnState, final bool) {
	for i, ci := range fs.callInfo {
		c := &fs.f.Calls[i]
		always := false
		for _, tg := range c.Targets {
			if tg != fs.f.ID && b.prog.Funcs[tg].CancelAlways {
				always = true
			}
		}
		if c.RunsArgs {
			// a workflow-DSL loop runs its steps every iteration: a step that checks
			// cancellation on every path checks it between steps (srcir dslLoops)
			for _, a := range c.ArgFuncs {
				if a != fs.f.ID && b.prog.Funcs[a].CancelAlways {
					always = true
				}
			}
		}
		if !always {
			continue
		}
		if !final {
			if ci.top && len(ci.loops) == 0 {
				fs.f.CancelAlways = true
			}
			continue
		}
		var loops []ir.LoopObs
		for j, l := range ci.loops {
			loops = append(loops, ir.LoopObs{Loop: l, EveryIteration: j == 0 && ci.top})
		}
		fs.f.Cancels = append(fs.f.Cancels, ir.Cancel{Pos: c.Pos, Text: c.Text, Kind: "call", Loops: loops})
	}
}

// defaults records the default values of bound candidates.
func (b *builder) defaults() {
	add := func(key, value string, pos ir.Pos, via string) {
		if key == "" || value == "" {
			return
		}
		b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: key, Value: clip(value, 60), Pos: pos, Via: via})
	}
	for _, m := range b.order {
		names := make([]string, 0, len(m.syms))
		for n := range m.syms {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			s := m.syms[name]
			if s.kind != symValue || s.value == nil || !isBoundish(name) {
				continue
			}
			if v, _, ok := b.literal(m, s.value, 0); ok {
				add(m.name+"."+name, v, s.pos, "const")
			}
		}
	}
	for _, k := range b.sortedClasses() {
		for name, v := range k.fields {
			if !isBoundish(name) {
				continue
			}
			if val, pos, ok := b.literal(k.mod, v, 0); ok {
				add(k.key+"."+name, val, pos, "const")
			}
		}
	}
	// each function's own defaults on every core, then in the order of b.funcs
	found := make([][]ir.Default, len(b.funcs))
	b.each(func(fs *fnState) {
		add := func(key, value string, pos ir.Pos, via string) {
			if key != "" && value != "" {
				found[fs.f.ID] = append(found[fs.f.ID], ir.Default{Key: key, Value: clip(value, 60), Pos: pos, Via: via})
			}
		}
		m := fs.mod
		for name, d := range fs.paramDefaults {
			if !isBoundish(name) {
				continue
			}
			if val, pos, ok := b.literal(m, d, 0); ok {
				add(fs.key()+"."+name, val, pos, "option")
				if fs.paramProps[name] && fs.cls != nil {
					// constructor(private maxIter: number = 0): the field this.maxIter
					add(fs.cls.key+"."+name, val, pos, "constructor")
				}
			}
		}
		k := fs.cls
		for _, a := range fs.assigns {
			// const { maxSteps = DEFAULT_MAX_STEPS } = options || {}: the binding's default
			// (an object destructured in the body, as a parameter's pattern is)
			if l := objectPattern(m, a); l != nil {
				for name, d := range patternBindings(m, l) {
					if isBoundish(name) {
						if val, pos, ok := b.literal(m, d, 0); ok {
							add(fs.key()+"."+name, val, pos, "option")
						}
					}
				}
			}
			if a.iter || len(a.lhs) != 1 || !isBoundish(a.lhs[0]) {
				continue
			}
			key := fs.key() + "." + a.lhs[0]
			if k != nil && strings.HasPrefix(a.lhs[0], m.t.self+".") {
				key = k.key + "." + strings.TrimPrefix(a.lhs[0], m.t.self+".")
			} else if strings.Contains(a.lhs[0], ".") {
				continue
			}
			alts := alternatives(m, a.rhs)
			via := "constructor"
			if len(alts) > 1 || strings.Contains(m.text(a.rhs), " is None") || unsetGuarded(fs, a.node, a.lhs[0]) {
				via = "zero_check"
			}
			// kwargs.get("max_turns", DEFAULT_MAX_TURNS), getattr(cfg, "max_steps", 20)
			if r := strip(a.rhs); r != nil && m.t.calls.has(r) {
				meth := calleeText(m, r)
				meth = meth[strings.LastIndexByte(meth, '.')+1:]
				if args := r.Child("arguments").NamedChildren(); len(args) >= 2 && (meth == "get" || meth == "getattr" || meth == "pop" || meth == "setdefault") {
					alts, via = []*syntax.Node{args[len(args)-1]}, "zero_check"
				}
			}
			for _, alt := range alts {
				alt = strip(alt)
				if m.t.idents.has(alt) && fs.params[m.text(alt)] {
					if d := fs.paramDefaults[m.text(alt)]; d != nil {
						if val, pos, ok := b.literal(m, d, 0); ok {
							add(key, val, pos, "option")
						}
					}
					continue
				}
				if val, pos, ok := b.literal(m, alt, 0); ok && !m.t.nones[val] {
					add(key, val, pos, via)
				}
			}
		}
	})
	for _, ds := range found {
		b.prog.Defaults = append(b.prog.Defaults, ds...)
	}
}

// passedArgs are, by function and bound-like parameter with a default, the argument every
// call of the function in the set passes for it (by keyword or position); a parameter some
// call leaves out, or that a call handing on *args or **kwargs may pass, is not listed.
func (b *builder) passedArgs() map[int]map[string][]argAt {
	calls := map[int][]argAt{}
	for _, g := range b.funcs {
		for i, ci := range g.callInfo {
			if i >= len(g.f.Calls) || g.f.Test {
				continue
			}
			for _, t := range g.f.Calls[i].Targets {
				if fs := b.funcs[t]; len(fs.paramDefaults) > 0 {
					calls[t] = append(calls[t], argAt{g, ci.node})
				}
			}
		}
	}
	out := map[int]map[string][]argAt{}
	for id, sites := range calls {
		fs := b.funcs[id]
		for name := range fs.paramDefaults {
			if !isBoundish(name) {
				continue
			}
			idx := -1
			for i, p := range fs.f.Params {
				if p.Name == name {
					idx = i
				}
			}
			var args []argAt
			for _, st := range sites {
				m := st.g.mod
				al := st.n.Child("arguments")
				if al == nil {
					break
				}
				var hit *syntax.Node
				pos := 0
				for _, a := range al.NamedChildren() {
					switch {
					case m.t.spreads.has(a):
						pos = -1 << 30
					case m.t.keywordArgs.has(a):
						if m.text(a.Child("name")) == name {
							hit = a.Child("value")
						}
					default:
						if pos >= 0 && pos == idx {
							hit = a
						}
						pos++
					}
				}
				if hit == nil {
					break
				}
				args = append(args, argAt{st.g, hit})
			}
			if len(args) == len(sites) {
				if out[id] == nil {
					out[id] = map[string][]argAt{}
				}
				out[id][name] = args
			}
		}
	}
	return out
}

// objectPattern returns the object pattern an assignment (or declaration) destructures its
// value into, nil if it is not one: const { maxSteps = 10 } = options.
func objectPattern(m *module, a assign) *syntax.Node {
	if a.iter || a.node == nil {
		return nil
	}
	l := a.node.Child("left")
	if m.t.declarators.has(a.node) {
		l = a.node.Child("name")
	}
	if l = strip(l); l != nil && l.Kind == "object_pattern" {
		return l
	}
	return nil
}

// patternBindings maps the names an object pattern binds with a default ({ a = 1, b: c = 2 })
// to their default values.
func patternBindings(m *module, pat *syntax.Node) map[string]*syntax.Node {
	out := map[string]*syntax.Node{}
	for _, c := range pat.NamedChildren() {
		switch c.Kind {
		case "object_assignment_pattern":
			if l, r := c.Child("left"), c.Child("right"); l != nil && r != nil {
				out[m.text(l)] = r
			}
		case "pair_pattern":
			if v := c.Child("value"); v != nil && v.Kind == "assignment_pattern" && v.Child("left") != nil && v.Child("right") != nil {
				out[m.text(v.Child("left"))] = v.Child("right")
			}
		}
	}
	return out
}

// argAt is an expression n of function g.
type argAt struct {
	g *fnState
	n *syntax.Node
}

// deadDefaults replaces the default of a bound-like parameter that every call in the set
// passes (ChainResponse(…, chain_limit=chain_limit if chain_limit is not None else
// self.chain_limit) beside __init__(…, chain_limit=10)) with what those calls pass (the
// field's None), for the parameter and the fields the function sets from it, when that
// differs from the parameter's own literal: the literal is dead, the bound starts with what
// the callers hand over. Calls that hand on the same value (run(max_turns=inf) forwarding to
// run_and_stream(max_turns=inf)) change nothing.
func (b *builder) deadDefaults() {
	passed := b.passedArgs()
	if len(passed) == 0 {
		return
	}
	byKey := map[string][]ir.Default{}
	for _, d := range b.prog.Defaults {
		byKey[d.Key] = append(byKey[d.Key], d)
	}
	ids := make([]int, 0, len(passed))
	for id := range passed {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	drop := map[string]bool{}
	var added []ir.Default
	for _, id := range ids {
		fs := b.funcs[id]
		m := fs.mod
		names := make([]string, 0, len(passed[id]))
		for n := range passed[id] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			own, _, ok := b.literal(m, fs.paramDefaults[name], 0)
			if !ok {
				continue
			}
			var vals []ir.Default
			known := true
			for _, a := range passed[id][name] {
				vs := b.argValue(a.g, a.n, byKey, 0)
				if len(vs) == 0 {
					known = false
					break
				}
				vals = append(vals, vs...)
			}
			same := true
			for _, v := range vals {
				same = same && v.Value == own
			}
			if !known || same {
				continue
			}
			keys := []string{fs.key() + "." + name}
			if fs.cls != nil && (fs.name == "constructor" || fs.name == "__init__") {
				if fs.paramProps[name] {
					keys = append(keys, fs.cls.key+"."+name)
				}
				for _, a := range fs.assigns {
					if len(a.lhs) == 1 && a.rhs != nil && !a.iter && m.text(strip(a.rhs)) == name {
						if f, ok := strings.CutPrefix(a.lhs[0], m.t.self+"."); ok && !strings.ContainsAny(f, ".[") {
							keys = append(keys, fs.cls.key+"."+f)
						}
					}
				}
			}
			for _, k := range keys {
				drop[k] = true
				for _, v := range vals {
					v.Key, v.Via = k, "option"
					added = append(added, v)
				}
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	kept := b.prog.Defaults[:0]
	for _, d := range b.prog.Defaults {
		if !drop[d.Key] {
			kept = append(kept, d)
		}
	}
	b.prog.Defaults = append(kept, added...)
}

// fallback is the literal a bound operand falls back to when unset (x ?? Infinity).
type fallback struct {
	key string
	n   *syntax.Node
	// mod is the module n is in, when not the function's own (a helper's return)
	mod *module
}

// fallbackOf splits x ?? lit, x || lit (Python x or lit) with lit a number or an infinity.
func fallbackOf(m *module, n *syntax.Node) (l, r *syntax.Node, ok bool) {
	if n == nil || !(n.Kind == "binary_expression" || n.Kind == "boolean_operator") {
		return nil, nil, false
	}
	if op := m.text(n.Child("operator")); op != "??" && op != "||" && op != "or" {
		return nil, nil, false
	}
	l, r = strip(n.Child("left")), strip(n.Child("right"))
	if l == nil || r == nil || !(m.t.idents.has(l) || m.t.members.has(l)) {
		return nil, nil, false
	}
	switch rt := m.text(r); {
	case m.t.numbers.has(r), rt == "Infinity", rt == "Number.POSITIVE_INFINITY", rt == "math.inf", rt == `float("inf")`, rt == "float('inf')":
		return l, r, true
	}
	return nil, nil, false
}

// objectDefaults gives the entries of a configuration object built as a literal their
// defaults: const execution = { maxIterations: 20, ...this.input.execution } read as
// execution.maxIterations in the same function, or handed to a constructor that keeps it in a
// field (new Runner(llm, execution) with constructor(llm, runConfig) { this.runConfig =
// runConfig }) and read as this.runConfig.maxIterations. Then the fallbacks of bound operands
// (x ?? Infinity) for the keys nothing else sets.
func (b *builder) objectDefaults() {
	type entry struct {
		v   string
		pos ir.Pos
	}
	has := map[string]bool{}
	for _, d := range b.prog.Defaults {
		has[d.Key] = true
	}
	add := func(key, v string, pos ir.Pos) {
		has[key] = true
		b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: key, Value: clip(v, 60), Pos: pos, Via: "constructor"})
	}
	for _, fs := range b.funcs {
		m := fs.mod
		objs := map[string]map[string]entry{}
		for _, a := range fs.assigns {
			if a.iter || len(a.lhs) != 1 || strings.ContainsAny(a.lhs[0], ".[") || a.rhs == nil || !m.t.objects.has(strip(a.rhs)) {
				continue
			}
			es := map[string]entry{}
			for _, p := range strip(a.rhs).NamedChildren() {
				if !m.t.pairs.has(p) {
					continue
				}
				key := unquote(m.text(p.Child("key")))
				if !isBoundish(key) {
					continue
				}
				if v, pos, ok := b.literal(m, p.Child("value"), 0); ok && !m.t.nones[v] {
					es[key] = entry{v, pos}
				}
			}
			if len(es) > 0 {
				objs[a.lhs[0]] = es
			}
		}
		if len(objs) == 0 {
			continue
		}
		for x, es := range objs {
			for key, e := range es {
				add(fs.key()+"."+x+"."+key, e.v, e.pos)
			}
		}
		for i, ci := range fs.callInfo {
			if i >= len(fs.f.Calls) {
				break
			}
			args := ci.node.Child(m.t.callArgs)
			if args == nil {
				continue
			}
			for _, t := range fs.f.Calls[i].Targets {
				g := b.funcs[t]
				if g.cls == nil || g.name != "constructor" && g.name != "__init__" {
					continue
				}
				params := g.f.Params
				if g.mod.t.lang == "python" && len(params) > 0 {
					params = params[1:] // self
				}
				for j, a := range args.NamedChildren() {
					es := objs[m.text(strip(a))]
					if es == nil || j >= len(params) {
						continue
					}
					for _, ga := range g.assigns {
						if len(ga.lhs) != 1 || ga.rhs == nil || g.mod.text(strip(ga.rhs)) != params[j].Name {
							continue
						}
						if field, ok := strings.CutPrefix(ga.lhs[0], g.mod.t.self+"."); ok && !strings.ContainsAny(field, ".[") {
							for key, e := range es {
								add(g.cls.key+"."+field+"."+key, e.v, e.pos)
							}
						}
					}
				}
			}
		}
	}
	for _, fs := range b.funcs {
		for _, fb := range fs.fallbacks {
			fm := fs.mod
			if fb.mod != nil {
				fm = fb.mod
			}
			if !has[fb.key] {
				if v, pos, ok := b.literal(fm, fb.n, 0); ok {
					has[fb.key] = true
					b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: fb.key, Value: v, Pos: pos, Via: "zero_check"})
				} else if t := fm.text(fb.n); t != "" {
					has[fb.key] = true
					b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: fb.key, Value: t, Pos: fm.pos(fb.n), Via: "zero_check"})
				}
			}
		}
	}
}

// argDefaults follows the defaults of bound parameters through the call sites that pass
// them on: run(max_steps=None) -> max_steps = max_steps or self.max_steps ->
// self._run_stream(max_steps=max_steps) gives _run_stream's max_steps the default of the
// field (its keyword default in __init__, where it is defined). Two rounds follow two calls.
func (b *builder) argDefaults() {
	byKey := map[string][]ir.Default{}
	for _, d := range b.prog.Defaults {
		byKey[d.Key] = append(byKey[d.Key], d)
	}
	for range 2 {
		// each caller's findings on every core (byKey is only read in a round), then in the
		// order of b.funcs
		found := make([][]ir.Default, len(b.funcs))
		b.each(func(g *fnState) {
			var added []ir.Default
			defer func() { found[g.f.ID] = added }()
			m := g.mod
			for i, ci := range g.callInfo {
				if i >= len(g.f.Calls) {
					break
				}
				c := &g.f.Calls[i]
				if len(c.Targets) == 0 || len(c.Targets) > 3 {
					continue
				}
				args := ci.node.Child("arguments")
				if args == nil {
					continue
				}
				for j, a := range args.NamedChildren() {
					if m.t.spreads.has(a) {
						break
					}
					name, val := "", a
					if m.t.keywordArgs.has(a) {
						name, val = m.text(a.Child("name")), a.Child("value")
					}
					for _, tid := range c.Targets {
						t := b.funcs[tid]
						pn := name
						if pn == "" && j < len(t.f.Params) && !m.t.keywordArgs.has(a) {
							pn = t.f.Params[j].Name
						}
						if pn == "" || !t.params[pn] || !isBoundish(pn) {
							continue
						}
						key := t.key() + "." + pn
						if hasValue(t.mod, byKey[key]) {
							continue
						}
						for _, d := range b.argValue(g, val, byKey, 0) {
							d.Key, d.Via = key, "option"
							added = append(added, d)
						}
					}
				}
			}
		})
		var added []ir.Default
		for _, f := range found {
			added = append(added, f...)
		}
		if len(added) == 0 {
			return
		}
		for _, d := range added {
			if len(byKey[d.Key]) == 0 || byKey[d.Key][len(byKey[d.Key])-1].Pos != d.Pos {
				byKey[d.Key] = append(byKey[d.Key], d)
				b.prog.Defaults = append(b.prog.Defaults, d)
			}
		}
	}
}

// callerOptions records what a call of the set hands a function's destructured options
// parameter in an object literal (generateText({ …, stopWhen: options?.stopWhen ??
// this.stopWhen ?? stepCountIs(maxSteps) }), @voltagent/core@2.10.0 dist/index.js:31576, into
// ai@6.0.325's function generateText({ …, stopWhen = stepCountIs(1) }), dist/index.js:4638)
// for the options that are bounds (a default of their own, or a bound's name): a default of
// Via "caller" from the calling function. For a run entry that reaches the loop through that
// call the caller's value replaces the callee's own default.
func (b *builder) callerOptions() {
	byKey := map[string][]ir.Default{}
	for _, d := range b.prog.Defaults {
		byKey[d.Key] = append(byKey[d.Key], d)
	}
	var added []ir.Default
	for _, fs := range b.funcs {
		m := fs.mod
		for i, ci := range fs.callInfo {
			if i >= len(fs.f.Calls) || len(fs.f.Calls[i].Targets) == 0 || len(fs.f.Calls[i].Targets) > 3 {
				continue
			}
			args := ci.node.Child(m.t.callArgs)
			if args == nil {
				continue
			}
			for j, a := range args.NamedChildren() {
				if a = strip(a); a == nil || !m.t.objects.has(a) {
					continue
				}
				for _, tid := range fs.f.Calls[i].Targets {
					t := b.funcs[tid]
					if tid == fs.f.ID || j >= len(t.patNames) || t.patNames[j] == nil {
						continue
					}
					for _, p := range a.NamedChildren() {
						if !m.t.pairs.has(p) {
							continue
						}
						local := t.patNames[j][unquote(m.text(p.Child("key")))]
						key := t.key() + "." + local
						if local == "" || len(byKey[key]) == 0 && !isBoundish(local) {
							continue
						}
						v := strip(p.Child("value"))
						if v == nil {
							continue
						}
						d := ir.Default{Key: key, Value: clip(oneLine(m.text(v)), 60), Pos: m.pos(v), Via: "caller", Func: fs.f.ID,
							Expr: clip(oneLine(m.text(v)), 60), ExprPos: m.pos(v)}
						if r, ok := b.optionValue(fs, v, byKey, 0); ok {
							d.Value, d.Pos = r.Value, r.Pos
						}
						added = append(added, d)
					}
				}
			}
		}
	}
	b.prog.Defaults = append(b.prog.Defaults, added...)
}

// optionValue is the value an option a caller passes amounts to when nothing the caller was
// itself given sets it: of alternatives (a ?? b ?? c) the last one that resolves; a count
// handed to a one-argument helper that makes a stop condition of it (stepCountIs(maxSteps));
// a local destructured from what a function of the set returns (const { maxSteps } = await
// this.prepareExecution(...), whose return { …, maxSteps } reads its own local); a method of
// the set called for it (this.calculateMaxSteps()); a field the constructor sets from
// alternatives (this.maxSteps = options.maxSteps ?? defaultMaxSteps). Else what argValue
// finds.
func (b *builder) optionValue(g *fnState, n *syntax.Node, byKey map[string][]ir.Default, depth int) (ir.Default, bool) {
	m := g.mod
	n = strip(n)
	if n == nil || depth > 12 {
		return ir.Default{}, false
	}
	if alts := alternatives(m, n); len(alts) > 1 {
		for i := len(alts) - 1; i >= 0; i-- {
			if d, ok := b.optionValue(g, alts[i], byKey, depth); ok {
				return d, true
			}
		}
		return ir.Default{}, false
	}
	pick := func(ds []ir.Default) (ir.Default, bool) {
		for i := len(ds) - 1; i >= 0; i-- {
			if ds[i].Value != "" && !m.t.nones[ds[i].Value] {
				return ds[i], true
			}
		}
		return ir.Default{}, false
	}
	switch {
	case m.t.calls.has(n):
		if ci, ok := g.callOf[n]; ok && ci < len(g.f.Calls) && len(g.f.Calls[ci].Targets) == 1 {
			// a function of the set called for the value (this.calculateMaxSteps()): what it
			// returns
			if t := b.funcs[g.f.Calls[ci].Targets[0]]; t != g {
				// (a parameter handed back, if (agentMaxSteps !== void 0) return
				// agentMaxSteps: what this call passes for it, when that is known)
				args := n.Child(m.t.callArgs).NamedChildren()
				for _, rn := range t.retNodes {
					k := rn.NamedChildren()
					if len(k) != 1 || !t.mod.t.idents.has(strip(k[0])) {
						continue
					}
					for pi, p := range t.f.Params {
						if p.Name == t.mod.text(strip(k[0])) && pi < len(args) {
							if d, ok := b.optionValue(g, args[pi], byKey, depth+1); ok {
								return d, true
							}
						}
					}
				}
				var ds []ir.Default
				for _, rn := range t.retNodes {
					if k := rn.NamedChildren(); len(k) == 1 && !t.mod.t.raises.has(rn) {
						if d, ok := b.optionValue(t, k[0], byKey, depth+1); ok {
							ds = append(ds, d)
						}
					}
				}
				if d, ok := pick(ds); ok {
					return d, true
				}
			}
		}
		if args := n.Child(m.t.callArgs); args != nil && len(args.NamedChildren()) == 1 {
			// stepCountIs(maxSteps): the count the condition is made of
			return b.optionValue(g, args.NamedChildren()[0], byKey, depth+1)
		}
	case m.t.idents.has(n):
		name := m.text(n)
		for h := g; h != nil; h = h.parent {
			if h.params[name] {
				break
			}
			for _, a := range h.assigns {
				if a.iter || a.rhs == nil || !slices.Contains(a.lhs, name) {
					continue
				}
				if len(a.lhs) == 1 {
					if d, ok := b.optionValue(h, a.rhs, byKey, depth+1); ok {
						return d, true
					}
					continue
				}
				// const { maxSteps } = await this.prepareExecution(...): the entry of the
				// object the function returns
				r := strip(a.rhs)
				if r != nil && r.Kind == "await_expression" && len(r.NamedChildren()) == 1 {
					r = strip(r.NamedChildren()[0])
				}
				ci, ok := h.callOf[r]
				if !ok || ci >= len(h.f.Calls) || len(h.f.Calls[ci].Targets) != 1 {
					continue
				}
				t := b.funcs[h.f.Calls[ci].Targets[0]]
				for _, rn := range t.retNodes {
					k := rn.NamedChildren()
					if len(k) != 1 || !t.mod.t.objects.has(strip(k[0])) {
						continue
					}
					for _, p := range strip(k[0]).NamedChildren() {
						switch {
						case p.Kind == "shorthand_property_identifier" && t.mod.text(p) == name:
							if d, ok := b.optionValue(t, p, byKey, depth+1); ok {
								return d, true
							}
						case t.mod.t.pairs.has(p) && unquote(t.mod.text(p.Child("key"))) == name:
							if d, ok := b.optionValue(t, p.Child("value"), byKey, depth+1); ok {
								return d, true
							}
						}
					}
				}
			}
		}
	case m.t.members.has(n):
		obj := m.text(strip(n.Child("object")))
		if k := enclosingClass(g); obj == m.t.self && k != nil {
			prop := m.text(n.Child(m.t.memberProp))
			if ctor := k.methods["constructor"]; ctor != nil {
				for _, a := range ctor.assigns {
					if len(a.lhs) == 1 && a.lhs[0] == m.t.self+"."+prop && a.rhs != nil {
						if d, ok := b.optionValue(ctor, a.rhs, byKey, depth+1); ok {
							return d, true
						}
					}
				}
			}
		}
	}
	return pick(b.argValue(g, n, byKey, 0))
}

// fieldDefaults gives a field the defaults of the constructor parameter it is set from
// (constructor(..., maxTurns) { this._maxTurns = maxTurns }): what callers pass for the
// parameter is what the field starts with.
func (b *builder) fieldDefaults() {
	byKey := map[string][]ir.Default{}
	for _, d := range b.prog.Defaults {
		byKey[d.Key] = append(byKey[d.Key], d)
	}
	for _, fs := range b.funcs {
		if fs.cls == nil || fs.name != "constructor" && fs.name != "__init__" {
			continue
		}
		m := fs.mod
		for _, a := range fs.assigns {
			if len(a.lhs) != 1 || a.rhs == nil {
				continue
			}
			field, ok := strings.CutPrefix(a.lhs[0], m.t.self+".")
			if !ok || strings.ContainsAny(field, ".[") || !isBoundish(field) {
				continue
			}
			p := m.text(strip(a.rhs))
			if !fs.params[p] {
				continue
			}
			key := fs.cls.key + "." + field
			if hasValue(m, byKey[key]) {
				continue
			}
			for _, d := range byKey[fs.key()+"."+p] {
				d.Key, d.Via = key, "constructor"
				byKey[key] = append(byKey[key], d)
				b.prog.Defaults = append(b.prog.Defaults, d)
			}
		}
	}
}

// fallbackDefaults gives what defaults() could not read at once the value its fallback
// carries once constructor and field defaults are known: a local set from a lookup whose
// fallback is a field (max_iters = input_args.pop("max_iters", self.max_iters), the field set
// from __init__(..., max_iters=7)), and a getter or @property returning a configured value or
// a default (get maxTurns() { return this.def.runConfig.maxTurns ?? DEFAULT_MAX_TURNS }),
// read as the field of its name.
func (b *builder) fallbackDefaults() {
	byKey := map[string][]ir.Default{}
	for _, d := range b.prog.Defaults {
		byKey[d.Key] = append(byKey[d.Key], d)
	}
	add := func(key string, ds []ir.Default) {
		for _, d := range ds {
			if d.Value == "" || !d.Pos.IsValid() {
				continue
			}
			d.Key, d.Value, d.Via = key, clip(d.Value, 60), "zero_check"
			byKey[key] = append(byKey[key], d)
			b.prog.Defaults = append(b.prog.Defaults, d)
		}
	}
	for _, fs := range b.funcs {
		m := fs.mod
		if fs.property && fs.cls != nil && isBoundish(fs.name) && !fs.gen && !hasValue(m, byKey[fs.cls.key+"."+fs.name]) {
			var ds []ir.Default
			for _, rn := range fs.retNodes {
				if k := rn.NamedChildren(); !m.t.raises.has(rn) && len(k) > 0 {
					for _, d := range b.argValue(fs, k[0], byKey, 0) {
						if !m.t.nones[d.Value] {
							ds = append(ds, d)
						}
					}
				}
			}
			add(fs.cls.key+"."+fs.name, ds)
		}
		for _, a := range fs.assigns {
			if a.iter || len(a.lhs) != 1 || a.rhs == nil || strings.ContainsAny(a.lhs[0], ".[") || !isBoundish(a.lhs[0]) {
				continue
			}
			key := fs.key() + "." + a.lhs[0]
			if hasValue(m, byKey[key]) {
				continue
			}
			var ds []ir.Default
			for _, d := range b.argValue(fs, a.rhs, byKey, 0) {
				if !m.t.nones[d.Value] {
					ds = append(ds, d)
				}
			}
			if r := strip(a.rhs); len(ds) == 0 && r != nil && !m.t.nones[m.text(r)] && unsetGuarded(fs, a.node, a.lhs[0]) {
				// if max_turns is None: max_turns = settings.max_agent_turns: the None is
				// no default, what replaces it is (a value set elsewhere, not read here)
				ds = append(ds, ir.Default{Value: oneLine(m.text(r)), Pos: m.pos(r)})
			}
			add(key, ds)
		}
	}
}

// unsetGuarded reports whether the assignment n to name runs only under a test that name
// is unset (if max_turns is None: / if not max_turns: / if (maxTurns === undefined)): the
// branch of the if the test holds in, in fs's own body (not in a nested function).
func unsetGuarded(fs *fnState, n *syntax.Node, name string) bool {
	m := fs.mod
	for c, p := n, n.Parent; p != nil && c != fs.body; c, p = p, p.Parent {
		if m.t.funcs.has(p) || m.t.lambdas.has(p) || m.t.classes.has(p) {
			return false
		}
		if !m.t.ifs.has(p) || c.Field != "consequence" {
			continue
		}
		if cond := p.Child("condition"); cond != nil && unsetTest(m.text(cond), name) {
			return true
		}
	}
	return false
}

// unsetTest reports whether the condition text tests name for being unset: name is None,
// not name, name == None / null / undefined (== or ===), !name, typeof name === "undefined",
// alone or as one operand of an or.
func unsetTest(cond, name string) bool {
	if !strings.Contains(cond, name) {
		return false // (every alternative has the name itself: no regexp to compile)
	}
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`(^|[^\w.$])(` + q + `\s+is\s+None|` + q + `\s*===?\s*(None|null|undefined)|(None|null|undefined)\s*===?\s*` + q +
		`|not\s+` + q + `|!\s*` + q + `|typeof\s+` + q + `\s*===?\s*["']undefined["'])($|[^\w.$(\[])`)
	return re.MatchString(cond)
}

func hasValue(m *module, ds []ir.Default) bool {
	for _, d := range ds {
		if !m.t.nones[d.Value] {
			return true
		}
	}
	return false
}

// argValue returns the defaults an argument expression of g carries: a literal, a parameter's
// default, a local's alternatives (x = x or self.limit), a field's defaults.
func (b *builder) argValue(g *fnState, n *syntax.Node, byKey map[string][]ir.Default, depth int) []ir.Default {
	m := g.mod
	n = strip(n)
	if n == nil || depth > 3 {
		return nil
	}
	if alts := alternatives(m, n); len(alts) > 1 {
		// options.maxTurns === undefined ? DEFAULT_MAX_TURNS : options.maxTurns, a ?? b:
		// what each alternative gives
		var out []ir.Default
		for _, a := range alts {
			out = append(out, b.argValue(g, a, byKey, depth+1)...)
		}
		return out
	}
	switch {
	case m.t.numbers.has(n) || m.t.stringKinds.has(n):
		return []ir.Default{{Value: m.text(n), Pos: m.pos(n)}}
	case m.t.calls.has(n):
		// kwargs.get("max_turns", DEFAULT_MAX_TURNS), getattr(cfg, "max_steps", 20)
		meth := calleeText(m, n)
		meth = meth[strings.LastIndexByte(meth, '.')+1:]
		if args := n.Child("arguments").NamedChildren(); len(args) >= 2 && (meth == "get" || meth == "getattr" || meth == "pop") {
			return b.argValue(g, args[len(args)-1], byKey, depth+1)
		}
		if v, pos, ok := b.literal(m, n, 0); ok {
			return []ir.Default{{Value: v, Pos: pos}}
		}
	case m.t.idents.has(n):
		name := m.text(n)
		if g.params[name] {
			if d := g.paramDefaults[name]; d != nil {
				if v, pos, ok := b.literal(m, d, 0); ok && !m.t.nones[v] {
					return []ir.Default{{Value: v, Pos: pos}}
				}
			}
			for _, d := range byKey[g.key()+"."+name] {
				if !m.t.nones[d.Value] {
					return []ir.Default{d}
				}
			}
		}
		var out []ir.Default
		for _, a := range g.assigns {
			if a.iter || len(a.lhs) != 1 || a.lhs[0] != name || a.rhs == nil {
				continue
			}
			for _, alt := range alternatives(m, a.rhs) {
				if m.text(strip(alt)) == name {
					continue
				}
				out = append(out, b.argValue(g, alt, byKey, depth+1)...)
			}
		}
		if len(out) == 0 && !g.params[name] && g.parent != nil {
			return b.argValue(g.parent, n, byKey, depth+1) // a closure reads its parent's variable
		}
		if len(out) == 0 {
			if v, pos, ok := b.literal(m, n, 0); ok {
				return []ir.Default{{Value: v, Pos: pos}}
			}
		}
		return out
	case m.t.members.has(n):
		obj := m.text(strip(n.Child("object")))
		k := enclosingClass(g)
		if (obj == m.t.self || obj == "cls") && k != nil {
			prop := m.text(n.Child(m.t.memberProp))
			for _, c := range append([]*class{k}, k.ancestors()...) {
				if ds := byKey[c.key+"."+prop]; len(ds) > 0 {
					// self.max_iter = max_iter or 20 (praisonaiagents==1.7.17 llm/llm.py:742):
					// the parameter's None comes first, the literal it falls back to is the value
					for _, d := range ds {
						if !m.t.nones[d.Value] {
							return []ir.Default{d}
						}
					}
					return ds[:1]
				}
			}
		}
		if v, pos, ok := b.literal(m, n, 0); ok {
			return []ir.Default{{Value: v, Pos: pos}}
		}
	}
	return nil
}

// boundWords are the parts of the names of bound candidates.
var boundWords = []string{"max", "limit", "turn", "step", "iter", "round", "budget", "depth", "recursion", "attempt", "retr", "bound", "cap"}

func isBoundish(name string) bool { return containsAny(strings.ToLower(name), boundWords) }

// raisesIn reports whether a raise or throw statement lies in n (not in nested functions).
func raisesIn(t *table, n *syntax.Node) bool {
	found := false
	eachNode(t, n, func(x *syntax.Node) bool {
		found = found || t.raises.has(x)
		return !found
	})
	return found
}

// sizeOf returns the collection whose size a counter expression measures: len(x), x.length,
// len(x) - start.
func sizeOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, " - "); i > 0 {
		s = strings.TrimSpace(s[:i])
	}
	switch {
	case strings.HasPrefix(s, "len(") && strings.HasSuffix(s, ")") && !strings.ContainsAny(s[4:len(s)-1], "(), "):
		return s[4 : len(s)-1]
	case strings.HasSuffix(s, ".length") && !strings.ContainsAny(s, "(), "):
		return strings.TrimSuffix(s, ".length")
	}
	return ""
}

// numberWraps convert a value to a number (or a string) without changing what it says.
var numberWraps = mk("int", "float", "str", "Number", "parseInt", "parseFloat", "String", "Number.parseInt", "Number.parseFloat")

// envName returns the environment variable an env lookup's key names: the string literal
// unquoted, else the key as written.
func envName(m *module, key *syntax.Node) string {
	key = strip(key)
	if v, ok := literalText(m, key); ok {
		return v
	}
	return m.text(key)
}

// envRead returns the variable an expression reads from the environment with no default of its
// own (process.env.LIMIT, process.env["LIMIT"], os.environ.get("LIMIT"), os.getenv("LIMIT")), "" if
// it reads none.
func envRead(m *module, n *syntax.Node) string {
	n = strip(n)
	switch {
	case n == nil:
		return ""
	case m.t.members.has(n) && m.text(n.Child("object")) == "process.env":
		return m.text(n.Child(m.t.memberProp))
	case m.t.subscripts.has(n) && (m.text(n.Child(m.t.subObj)) == "process.env" || m.text(n.Child(m.t.subObj)) == "os.environ"):
		return envName(m, n.Child(m.t.subIndex))
	case m.t.calls.has(n) && envDefault(m.text(n.Child("function"))) && len(n.Child("arguments").NamedChildren()) == 1:
		return envName(m, n.Child("arguments").NamedChildren()[0])
	}
	return ""
}

// noteEnv records that the default literal returns at p applies when the environment
// variable name is unset.
func (b *builder) noteEnv(p ir.Pos, name string) {
	if !p.IsValid() || name == "" {
		return
	}
	b.envMu.Lock()
	defer b.envMu.Unlock()
	if b.envs == nil {
		b.envs = map[ir.Pos]string{}
	}
	b.envs[p] = name
}

// moveEnv carries an env note from the position of a converted value to the conversion's.
func (b *builder) moveEnv(from, to ir.Pos) {
	b.envMu.Lock()
	defer b.envMu.Unlock()
	if v, ok := b.envs[from]; ok && from != to {
		b.envs[to] = v
	}
}

// envDefaults writes the env notes into the program, sorted by position.
func (b *builder) envDefaults() {
	for p, v := range b.envs {
		b.prog.EnvDefaults = append(b.prog.EnvDefaults, ir.EnvDefault{Pos: p, Var: v})
	}
	sort.Slice(b.prog.EnvDefaults, func(i, j int) bool {
		x, y := b.prog.EnvDefaults[i].Pos, b.prog.EnvDefaults[j].Pos
		if x.File != y.File {
			return x.File < y.File
		}
		return x.Line < y.Line
	})
}

func envDefault(fn string) bool {
	switch fn {
	case "getenv", "os.getenv", "os.environ.get", "environ.get":
		return true
	}
	return false
}

func lastName(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }

// keyDefaults gives a field computed from a configuration entry (self.stop = self.step +
// config["recursion_limit"] + 1) the default the entry gets where the configuration is built
// (recursion_limit=DEFAULT_RECURSION_LIMIT).
func (b *builder) keyDefaults() {
	type val struct {
		v   string
		pos ir.Pos
	}
	entry := map[string]val{}
	for _, fs := range b.funcs {
		m := fs.mod
		for _, ci := range fs.callInfo {
			args := ci.node.Child("arguments")
			if args == nil {
				continue
			}
			for _, a := range args.NamedChildren() {
				if !m.t.keywordArgs.has(a) {
					continue
				}
				name := m.text(a.Child("name"))
				if _, seen := entry[name]; seen || !isBoundish(name) {
					continue
				}
				if v, pos, ok := b.literal(m, a.Child("value"), 0); ok && !m.t.nones[v] && strip(a.Child("value")).Kind == "identifier" {
					entry[name] = val{v, pos}
				}
			}
		}
		// the same entry in an object literal: {recursionLimit: DEFAULT_RECURSION_LIMIT}
		for _, p := range fs.pairs {
			name := unquote(m.text(p.Child("key")))
			if _, seen := entry[name]; seen || !isBoundish(name) {
				continue
			}
			if v, pos, ok := b.literal(m, p.Child("value"), 0); ok && !m.t.nones[v] && strip(p.Child("value")).Kind == "identifier" {
				entry[name] = val{v, pos}
			}
		}
	}
	if len(entry) == 0 {
		return
	}
	// reads returns the configuration entry an expression reads (config["recursion_limit"],
	// config.recursionLimit), if any.
	reads := func(m *module, rhs *syntax.Node) (val, bool) {
		var hit val
		found := false
		eachNode(m.t, rhs, func(n *syntax.Node) bool {
			if found {
				return false
			}
			var name string
			switch {
			case m.t.subscripts.has(n):
				if idx := strip(n.Child(m.t.subIndex)); idx != nil && m.t.stringKinds.has(idx) {
					name = unquote(m.text(idx))
				}
			case m.t.members.has(n):
				name = m.text(n.Child(m.t.memberProp))
			}
			if e, ok := entry[name]; ok && name != "" {
				hit, found = e, true
				return false
			}
			return true
		})
		return hit, found
	}
	addField := func(k *class, field string, e val) {
		// the field is the same attribute on the class and its bases (a subclass's
		// __enter__ sets the base's self.stop)
		for _, c := range append([]*class{k}, k.ancestors()...) {
			b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: c.key + "." + field, Value: e.v, Pos: e.pos, Via: "option"})
		}
	}
	// const stop = step + (config.recursionLimit ?? 25) + 1; new Loop({..., stop}): the
	// constructed class's field of that name gets the entry's default
	for _, fs := range b.funcs {
		m := fs.mod
		locals := map[string]val{}
		for _, a := range fs.assigns {
			if a.iter || len(a.lhs) != 1 || a.rhs == nil || strings.ContainsAny(a.lhs[0], ".[") {
				continue
			}
			if e, ok := reads(m, a.rhs); ok {
				locals[a.lhs[0]] = e
			}
		}
		if len(locals) == 0 {
			continue
		}
		for i, ci := range fs.callInfo {
			if i >= len(fs.f.Calls) || !m.t.news.has(ci.node) && !m.t.calls.has(ci.node) {
				continue
			}
			var k *class
			for _, t := range fs.f.Calls[i].Targets {
				if g := b.funcs[t]; g.cls != nil && (g.name == "constructor" || g.name == "__init__") {
					k = g.cls
				}
			}
			if k == nil {
				continue
			}
			for _, a := range ci.node.Child(m.t.callArgs).NamedChildren() {
				members := []*syntax.Node{a}
				if m.t.objects.has(strip(a)) {
					members = strip(a).NamedChildren()
				}
				for _, p := range members {
					field, v := "", ""
					switch {
					case p.Kind == "shorthand_property_identifier":
						field, v = m.text(p), m.text(p)
					case m.t.pairs.has(p):
						field, v = unquote(m.text(p.Child("key"))), m.text(strip(p.Child("value")))
					case m.t.keywordArgs.has(p):
						field, v = m.text(p.Child("name")), m.text(strip(p.Child("value")))
					}
					if e, ok := locals[v]; ok && field != "" {
						addField(k, field, e)
					}
				}
			}
		}
	}
	for _, fs := range b.funcs {
		m, k := fs.mod, fs.cls
		if k == nil {
			continue
		}
		for _, a := range fs.assigns {
			if a.iter || len(a.lhs) != 1 || !strings.HasPrefix(a.lhs[0], m.t.self+".") || a.rhs == nil {
				continue
			}
			eachNode(m.t, a.rhs, func(n *syntax.Node) bool {
				if !m.t.subscripts.has(n) {
					return true
				}
				idx := strip(n.Child(m.t.subIndex))
				if idx == nil || !m.t.stringKinds.has(idx) {
					return true
				}
				if e, ok := entry[unquote(m.text(idx))]; ok {
					// the field is the same attribute on the class and its bases (a
					// subclass's __enter__ sets the base's self.stop)
					for _, c := range append([]*class{k}, k.ancestors()...) {
						b.prog.Defaults = append(b.prog.Defaults, ir.Default{Key: c.key + "." + strings.TrimPrefix(a.lhs[0], m.t.self+"."),
							Value: e.v, Pos: e.pos, Via: "option"})
					}
					return false
				}
				return true
			})
		}
	}
}
