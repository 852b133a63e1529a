package srcir

import (
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// Ways out of a function that are no return statement, and the state a function records on
// its way out.

// markRaises marks the functions every path of which raises (a throwError(e): never helper):
// a call of one, as a statement, leaves its caller. Run once every function's returns are
// recorded.
func (b *builder) markRaises(fs *fnState) {
	if fs.body == nil || fs.exprBody || fs.gen || len(fs.retNodes) == 0 || len(fs.f.Returns) != len(fs.retNodes) {
		return // no statement at all, or the end of the body can be reached
	}
	for _, n := range fs.retNodes {
		if !fs.mod.t.raises.has(n) {
			return
		}
	}
	fs.raises = true
	for _, r := range fs.f.Returns {
		fs.raiseVals = append(fs.raiseVals, *r.Err)
	}
}

// awaitedCall reports whether call node n is the operand of an await (through parentheses).
func awaitedCall(n *syntax.Node) bool {
	p := n.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	return p != nil && (p.Kind == "await" || p.Kind == "await_expression")
}

// raisingCalls records, as raises, the calls that always raise when they are a statement of
// their own: a cancellation check that throws (signal.throwIfAborted()) and a call of a
// function of the set every path of which raises (this.throwError(error)).
func (b *builder) raisingCalls(fs *fnState) {
	m := fs.mod
	for i, ci := range fs.callInfo {
		if i >= len(fs.f.Calls) {
			break
		}
		c := &fs.f.Calls[i]
		stmt := b.statementOf(fs, ci.node)
		c.Dropped = stmt != nil
		c.Awaited = awaitedCall(ci.node)
		var err *ir.Value
		switch {
		case throwingChecks[c.Method]:
			err = &ir.Value{Kind: ir.ValCtxErr, Text: c.Text, Call: -1}
		case len(c.Targets) > 0 && b.allRaise(c.Targets):
			err = b.raisedBy(fs, ci.node, c)
		default:
			continue
		}
		if stmt == nil {
			continue
		}
		r := ir.Return{Pos: c.Pos, Source: c.Source, Text: clip(oneLine(m.text(stmt)), 100), Err: err,
			InLoop: innermost(ci.loops), Raise: true}
		b.reach(fs, &r, ci.start)
		r.State = b.stateOf(fs, stmt, nil)
		fs.f.Returns = append(fs.f.Returns, r)
	}
	// return this.handleError(error, oc, options, startTime) (@voltagent/core@2.10.0
	// dist/index.js:31864, handleError 36615-36658 throws on every path): the function leaves
	// with what the helper raises, it hands back no value of the callee's
	for i := range fs.f.Returns {
		r := &fs.f.Returns[i]
		if r.Raise || r.Err == nil || r.Err.Kind != ir.ValCall || r.Err.Call < 0 || r.Err.Call >= len(fs.f.Calls) || r.Err.Call >= len(fs.callInfo) {
			continue
		}
		if c := &fs.f.Calls[r.Err.Call]; len(c.Targets) > 0 && b.allRaise(c.Targets) {
			r.Err = b.raisedBy(fs, fs.callInfo[r.Err.Call].node, c)
			r.Raise = true
		}
	}
}

func (b *builder) allRaise(targets []int) bool {
	for _, t := range targets {
		if t < 0 || t >= len(b.funcs) || !b.funcs[t].raises {
			return false
		}
	}
	return true
}

// raisedBy classifies what a call of raising functions raises: what their raises agree on,
// or, for a helper that raises the value it is handed (throwError(error)), the argument.
func (b *builder) raisedBy(fs *fnState, call *syntax.Node, c *ir.Call) *ir.Value {
	var kinds []ir.Value
	for _, t := range c.Targets {
		kinds = append(kinds, b.funcs[t].raiseVals...)
	}
	same := len(kinds) > 0
	for _, k := range kinds {
		same = same && k.Kind == kinds[0].Kind && k.Key == kinds[0].Key
	}
	switch {
	case same && (kinds[0].Kind == ir.ValCtxErr || kinds[0].Kind == ir.ValSentinel):
		return &ir.Value{Kind: kinds[0].Kind, Key: kinds[0].Key, Text: c.Text, Call: -1}
	case same && kinds[0].Kind == ir.ValCall:
		// raise param: the argument is what is raised
		if args := call.Child(fs.mod.t.callArgs).NamedChildren(); len(args) == 1 {
			v := b.raised(fs, args[0])
			v.Call = -1
			return v
		}
	}
	return &ir.Value{Kind: ir.ValError, Text: c.Text, Call: -1}
}

// statementOf returns the expression statement that is call (possibly awaited), nil when
// the call's value is used.
func (b *builder) statementOf(fs *fnState, call *syntax.Node) *syntax.Node {
	cur := call
	for p := b.parentIn(fs, cur); p != nil; cur, p = p, b.parentIn(fs, p) {
		switch {
		case fs.mod.t.exprStmts.has(p):
			if len(p.NamedChildren()) == 1 {
				return p
			}
			return nil
		case fs.mod.t.awaits.has(p) || p.Kind == "parenthesized_expression":
		default:
			return nil
		}
	}
	return nil
}

// stateOf returns the discriminator of the state the statement stmt leaves with: of the
// object literal it returns (e), else of one assigned by the simple statements just before
// it in its block (turnEnds = {kind: 'aborted', ...}; throw error). A compound statement in
// between (a branch that may assign another) ends the search.
func (b *builder) stateOf(fs *fnState, stmt, e *syntax.Node) string {
	m := fs.mod
	if d := discriminator(m, strip(e)); d != "" {
		return d
	}
	p := b.parentIn(fs, stmt)
	// (the statements of a JS switch arm are its own children, no block: case Kind.Error:
	// this._finishStream('failed'); return;)
	if p == nil || !m.t.blocks.has(p) && p != fs.body && !(m.t.cases.has(p) && m.t.caseValue != "") {
		return ""
	}
	kids := p.NamedChildren()
	i := len(kids) - 1
	for i >= 0 && kids[i] != stmt {
		i--
	}
	if st := b.fieldState(fs, kids[:max(i, 0)], e); st != "" {
		return st
	}
	// a bare return (return, return None) right after a call of the set handing over a
	// status (self._set_status(RunStatus.error); return): the status it records
	bare := i >= 0 && e == nil && !m.t.raises.has(stmt) || e != nil && m.t.nones[m.text(strip(e))]
	for j := i - 1; j >= 0; j-- {
		k := kids[j]
		switch {
		case k.Kind == "comment":
			continue
		case m.t.exprStmts.has(k):
			ks := k.NamedChildren()
			if len(ks) == 1 && (m.t.assigns.has(ks[0])) {
				if d := discriminator(m, strip(ks[0].Child("right"))); d != "" {
					return d
				}
			}
			if bare && len(ks) == 1 {
				if st := b.statusHanded(fs, ks[0]); st != "" {
					return st
				}
			}
			bare = false
		case k.Kind == "lexical_declaration" || k.Kind == "variable_declaration":
			for _, d := range k.NamedChildren() {
				if m.t.declarators.has(d) {
					if s := discriminator(m, strip(d.Child("value"))); s != "" {
						return s
					}
				}
			}
		default:
			return ""
		}
	}
	return ""
}

// fieldState returns the status a return of a local (return run_response) leaves with when
// a simple statement of the same block before it sets that local's status field to a literal
// or an enumeration member naming an outcome (run_response.status = RunStatus.error, in an
// except handler, agno==3.1.10 agno/agent/_run.py:693-710 and 737-758), with no statement in
// between setting the field again; "" else.
func (b *builder) fieldState(fs *fnState, before []*syntax.Node, e *syntax.Node) string {
	m := fs.mod
	if e = strip(e); e == nil || !m.t.idents.has(e) || m.t.lang != "python" {
		return ""
	}
	v := m.text(e)
	for j := len(before) - 1; j >= 0; j-- {
		k := before[j]
		if !m.t.exprStmts.has(k) {
			for key := range stateKeys {
				if strings.Contains(m.text(k), v+"."+key) {
					return "" // a branch may set it otherwise
				}
			}
			continue
		}
		ks := k.NamedChildren()
		if len(ks) != 1 || !m.t.assigns.has(ks[0]) {
			continue
		}
		l, r := strip(ks[0].Child("left")), strip(ks[0].Child("right"))
		if l == nil || r == nil || !m.t.members.has(l) || m.text(strip(l.Child("object"))) != v || !stateKeys[m.text(l.Child(m.t.memberProp))] {
			continue
		}
		var w string
		switch {
		case m.t.stringKinds.has(r):
			w = unquote(m.text(r))
		case m.t.members.has(r) && m.t.idents.has(strip(r.Child("object"))):
			w = m.text(r.Child(m.t.memberProp))
		}
		if len(w) <= 24 && !strings.ContainsAny(w, " \t\n") && stateWord(w) {
			return w
		}
		return ""
	}
	return ""
}

// statusHanded returns the status a call of the set hands over as a literal argument (a
// string, or a member of an enumeration: RunStatus.error) when it names an outcome, "" else.
func (b *builder) statusHanded(fs *fnState, n *syntax.Node) string {
	m := fs.mod
	n = strip(n)
	if n != nil && (n.Kind == "await" || n.Kind == "await_expression") && len(n.NamedChildren()) == 1 {
		n = strip(n.NamedChildren()[0])
	}
	if n == nil || !m.t.calls.has(n) {
		return ""
	}
	id, ok := fs.callOf[n]
	if !ok || len(fs.f.Calls[id].Targets) == 0 {
		return "" // a logger's or printer's words say nothing about the run
	}
	args := n.Child(m.t.callArgs)
	if args == nil {
		return ""
	}
	for _, a := range args.NamedChildren() {
		if m.t.keywordArgs.has(a) {
			a = a.Child("value")
		}
		a = strip(a)
		var v string
		switch {
		case a == nil:
			continue
		case m.t.stringKinds.has(a):
			v = unquote(m.text(a))
		case m.t.members.has(a) && m.t.idents.has(strip(a.Child("object"))) && m.text(strip(a.Child("object"))) != m.t.self:
			v = m.text(a.Child(m.t.memberProp))
		default:
			continue
		}
		if len(v) <= 24 && !strings.ContainsAny(v, " \t\n") && stateWord(v) {
			return v
		}
	}
	return ""
}

// stateWord reports whether a status value names an outcome the recognizer reads
// (ir.StateWords).
func stateWord(v string) bool { return ir.StateWord(v) != "" }

// discriminator returns the string value of n's discriminator field (stateKeys) when n is
// an object or dictionary literal.
func discriminator(m *module, n *syntax.Node) string {
	if n == nil || !m.t.objects.has(n) {
		return ""
	}
	for _, p := range n.NamedChildren() {
		if !m.t.pairs.has(p) {
			continue
		}
		k := strings.Trim(m.text(p.Child("key")), "\"'`")
		v := strip(p.Child("value"))
		if stateKeys[k] && v != nil && m.t.stringKinds.has(v) {
			return strings.Trim(m.text(v), "\"'`")
		}
	}
	return ""
}

// pauseVar reports whether the condition cond is a variable the function binds from a call
// naming a pause (const {shouldReturn} = handleInterruptedOutcome(...); if (shouldReturn)).
func (b *builder) pauseVar(fs *fnState, cond *syntax.Node) bool {
	m := fs.mod
	c := strip(cond)
	if c == nil || !m.t.idents.has(c) {
		return false
	}
	name := m.text(c)
	for _, a := range fs.assigns {
		if a.iter {
			continue
		}
		bound := false
		for _, l := range a.lhs {
			bound = bound || l == name
		}
		if !bound {
			continue
		}
		r := strip(a.rhs)
		if r == nil || !m.t.calls.has(r) {
			return false
		}
		callee := strings.ToLower(calleeText(m, r))
		return containsAny(callee, pauseWords) && !strings.Contains(callee, "cancel")
	}
	return false
}

// pauseKeyed reports whether n is an object or dictionary literal with a member keyed by a
// pause ({ [INTERRUPT]: interrupts }, {...latest, [INTERRUPT]: ...}, {"__interrupt__": ...}):
// what is returned hands back the pending interruption the run waits on.
func pauseKeyed(m *module, n *syntax.Node) bool {
	if n == nil || !m.t.objects.has(n) {
		return false
	}
	for _, p := range n.NamedChildren() {
		if !m.t.pairs.has(p) {
			continue
		}
		k := strings.ToLower(m.text(p.Child("key")))
		if containsAny(k, pauseWords) && !strings.Contains(k, "cancel") {
			return true
		}
	}
	return false
}

// wraps lists the calls whose results a returned construction is built from: the calls in
// it and those the variables in it hold (const stream = await super.stream(...); return new
// StreamWithAbort(toEventStream(stream))).
func (b *builder) wraps(fs *fnState, e *syntax.Node, at int) []int {
	m := fs.mod
	var out []int
	seen := map[int]bool{}
	add := func(n *syntax.Node) {
		if id, ok := fs.callOf[n]; ok && !seen[id] && len(fs.f.Calls[id].Targets) > 0 {
			seen[id] = true
			out = append(out, id)
		}
	}
	args := strip(e).Child(m.t.callArgs)
	eachNode(m.t, args, func(n *syntax.Node) bool {
		switch {
		case m.t.calls.has(n):
			add(n)
		case n.Kind == "identifier":
			if rhs := b.heldCall(fs, n, at); rhs != nil {
				add(rhs)
			}
		}
		return true
	})
	return out
}

// guardOf returns the test of a value against literals that statement n runs under
// (ir.Return.Guard): the nearest enclosing if whose then-branch holds n and whose condition
// compares one value for equality with literals (==, ===, in a literal collection, joined by
// or), or the switch/match arm holding n with literal values (the empty arms falling into it
// included). Ifs with other conditions in between are passed over: n still runs only when the
// guard holds.
func (b *builder) guardOf(fs *fnState, n *syntax.Node) *ir.Guard {
	m := fs.mod
	child := n
	for p := b.parentIn(fs, n); p != nil && p != fs.body; child, p = p, b.parentIn(fs, p) {
		switch {
		case m.t.funcs.has(p) || m.t.lambdas.has(p):
			return nil
		case m.t.cases.has(p):
			if g := b.armGuard(fs, p); g != nil {
				return g
			}
		case m.t.ifs.has(p):
			cons := p.Child("consequence")
			if cons == nil || !(cons == child || cons.Start <= child.Start && child.End <= cons.End) {
				continue
			}
			cond := p.Child("condition")
			var subj *syntax.Node
			var vals []string
			if literalTest(m, cond, &subj, &vals) && subj != nil && len(vals) > 0 {
				return &ir.Guard{Pos: m.pos(cond), Text: clip(oneLine(m.text(strip(cond))), 120), Subject: m.text(subj),
					Field: tailName(m, subj), Values: vals}
			}
		}
	}
	return nil
}

// literalTest reports whether cond is an equality test of one value (*subj) against
// literals, collecting them into vals: a == "x", "x" === a, a in ("x", "y"), and such tests of
// the same value joined by || / or.
func literalTest(m *module, cond *syntax.Node, subj **syntax.Node, vals *[]string) bool {
	cond = strip(cond)
	if cond == nil {
		return false
	}
	if cond.Kind == "boolean_operator" || cond.Kind == "binary_expression" {
		if op := m.text(cond.Child("operator")); op == "||" || op == "or" {
			return literalTest(m, cond.Child("left"), subj, vals) && literalTest(m, cond.Child("right"), subj, vals)
		}
	}
	l, r, op, ok := compareOps(m, cond)
	if !ok {
		return false
	}
	l, r = strip(l), strip(r)
	var s *syntax.Node
	var got []string
	switch op {
	case "==", "===":
		if v, ok := literalText(m, r); ok {
			s, got = l, []string{v}
		} else if v, ok := literalText(m, l); ok {
			s, got = r, []string{v}
		}
	case "in":
		if r != nil && (r.Kind == "tuple" || r.Kind == "list" || r.Kind == "set" || r.Kind == "array") {
			for _, k := range r.NamedChildren() {
				v, ok := literalText(m, strip(k))
				if !ok {
					return false
				}
				got = append(got, v)
			}
			s = l
		}
	}
	if s == nil || len(got) == 0 || m.t.stringKinds.has(s) {
		return false
	}
	if *subj != nil && m.text(*subj) != m.text(s) {
		return false
	}
	*subj = s
	*vals = append(*vals, got...)
	return true
}

// literalText returns the value of a string literal without its quotes.
func literalText(m *module, n *syntax.Node) (string, bool) {
	if n == nil || !m.t.stringKinds.has(n) {
		return "", false
	}
	t := m.text(n)
	if strings.ContainsAny(t, "${") && strings.HasPrefix(t, "`") {
		return "", false // a template with substitutions
	}
	return strings.Trim(t, "\"'`"), true
}

// tailName returns the last field, key or method name of an expression (message.stopReason
// → stopReason, resp["status"] → status, r.status() → status), or the identifier itself.
func tailName(m *module, n *syntax.Node) string {
	n = strip(n)
	for n != nil {
		switch {
		case m.t.calls.has(n):
			n = strip(n.Child("function"))
		case m.t.members.has(n):
			return m.text(n.Child(m.t.memberProp))
		case m.t.subscripts.has(n):
			if v, ok := literalText(m, strip(n.Child(m.t.subIndex))); ok {
				return v
			}
			return ""
		default:
			return m.text(n)
		}
	}
	return ""
}

// armGuard returns the guard of a switch/match arm: the switch's subject against the arm's
// literal values and those of the empty arms just before it (case "error": case "aborted":
// return), nil when a value is not a literal.
func (b *builder) armGuard(fs *fnState, arm *syntax.Node) *ir.Guard {
	m := fs.mod
	body := b.parentIn(fs, arm)
	sw := body
	if sw != nil && m.t.blocks.has(sw) || sw != nil && (sw.Kind == "switch_body") {
		sw = b.parentIn(fs, sw)
	}
	if sw == nil {
		return nil
	}
	subj := strip(sw.Child("value"))
	if subj == nil {
		subj = strip(sw.Child("subject"))
	}
	if subj == nil || body == nil {
		return nil
	}
	arms := body.NamedChildren()
	i := len(arms) - 1
	for i >= 0 && arms[i] != arm {
		i--
	}
	j := i
	for j > 0 && m.t.cases.has(arms[j-1]) && emptyArm(m, arms[j-1]) {
		j--
	}
	var vals []string
	for _, a := range arms[j : i+1] {
		v := caseValue(m, a)
		if v == nil {
			return nil
		}
		got, ok := patternLiterals(m, strip(v))
		if !ok {
			return nil
		}
		vals = append(vals, got...)
	}
	if len(vals) == 0 {
		return nil
	}
	return &ir.Guard{Pos: m.pos(arm), Text: clip(oneLine(m.text(subj)+" is "+strings.Join(vals, ", ")), 120),
		Subject: m.text(subj), Field: tailName(m, subj), Values: vals}
}

// emptyArm reports whether a switch arm has no statement (it falls into the next one).
func emptyArm(m *module, arm *syntax.Node) bool {
	v := caseValue(m, arm)
	for _, k := range arm.NamedChildren() {
		if k != v && k.Kind != "comment" && !m.t.casePatterns.has(k) {
			return false
		}
	}
	return true
}

// patternLiterals returns the string literals of a case value or match pattern ("error",
// "error" | "aborted").
func patternLiterals(m *module, n *syntax.Node) ([]string, bool) {
	if n == nil {
		return nil, false
	}
	if v, ok := literalText(m, n); ok {
		return []string{v}, true
	}
	switch n.Kind {
	case "case_pattern", "union_pattern", "string_pattern":
		var out []string
		for _, k := range n.NamedChildren() {
			got, ok := patternLiterals(m, k)
			if !ok {
				return nil, false
			}
			out = append(out, got...)
		}
		return out, len(out) > 0
	}
	return nil, false
}
