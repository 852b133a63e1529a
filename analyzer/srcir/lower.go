package srcir

import (
	"regexp"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

type callInfo struct {
	node  *syntax.Node
	loops []int
	top   bool
	conc  string
	start int
}

type assign struct {
	lhs   []string
	rhs   *syntax.Node
	node  *syntax.Node
	loops []int
	// iter is true for a loop or comprehension binding its element (lhs in rhs).
	iter bool
	loop int // the loop binding it (iter), -1 for a comprehension
	top  bool
	aug  bool // x += [...]
}

type cond struct {
	expr  *syntax.Node
	stmt  *syntax.Node
	loops []int
	top   bool
	// loop is the loop whose condition this is, -1 otherwise.
	loop int
}

type inc struct {
	target string
	node   *syntax.Node
	loops  []int
}

type walkState struct {
	loops []int
	top   bool
	conc  string
}

// lower walks a function body (not its nested functions) and records its loops, calls,
// returns, assignments, conditions and increments.
func (b *builder) lower(fs *fnState) {
	if fs.body == nil {
		return
	}
	byNode := map[*syntax.Node]*fnState{}
	for _, k := range fs.kids {
		byNode[k.node] = k
	}
	fs.kidsByNode = byNode
	if fs.mod.t.lambdas.has(fs.node) && !fs.mod.t.blocks.has(fs.body) {
		// an expression-bodied arrow function or lambda: an implicit return of the expression
		b.walk(fs, fs.body, walkState{top: true})
		fs.exprBody = true
		return
	}
	b.walk(fs, fs.body, walkState{top: true})
	b.collectedTasks(fs)
}

// collectedTasks marks the closures pushed onto a collection that is then handed to a
// Promise.all-style call (tasks.push(async () => run(call)); await Promise.all(tasks.map(t =>
// t()))): they run together.
func (b *builder) collectedTasks(fs *fnState) {
	m := fs.mod
	b.racedPool(fs)
	var alls []string
	for _, ci := range fs.callInfo {
		callee := calleeText(m, ci.node)
		last := callee[strings.LastIndexByte(callee, '.')+1:]
		if concurrentAll[callee] || concurrentAll[last] && last != "race" {
			alls = append(alls, m.text(ci.node.Child("arguments")))
		}
	}
	if len(alls) == 0 {
		return
	}
	for _, ci := range fs.callInfo {
		fn := strip(ci.node.Child("function"))
		if fn == nil || !m.t.members.has(fn) || !appendMeths[m.text(fn.Child(m.t.memberProp))] {
			continue
		}
		coll := m.text(strip(fn.Child("object")))
		handed := false
		for _, a := range alls {
			handed = handed || ir.IdentIn(a, coll)
		}
		if !handed {
			continue
		}
		for _, a := range ci.node.Child("arguments").NamedChildren() {
			if k := fs.kidsByNode[strip(a)]; k != nil && k.f.Launch == "" {
				k.f.Launch = "all"
			}
		}
	}
}

// perElemMeths are the array methods that apply a callback to each element.
var perElemMeths = map[string]bool{"map": true, "flatMap": true, "forEach": true}

// racedPool marks the per-element callbacks of fs as launched together ("all") when fs races
// a pool of pending work until it is empty (while (pending.size > 0) { const winner = await
// Promise.race(pending.values()); … }): what is started for each element (a generator per
// tool call, advanced by the race) runs side by side. A race outside a loop draining its
// operand is a timeout, not a pool. Modelled on @strands-agents/sdk@1.19.0
// dist/src/tools/executors/concurrent.js:36-54 (toolUseBlocks.map((toolUseBlock) => ({
// generator: this.executeTool(…) })), while (pendingSteps.size > 0) … Promise.race(
// pendingSteps.values())).
func (b *builder) racedPool(fs *fnState) {
	m := fs.mod
	pool := false
	for _, ci := range fs.callInfo {
		if calleeText(m, ci.node) != "Promise.race" || len(ci.loops) == 0 || ci.loops[0] >= len(fs.f.Loops) {
			continue
		}
		cond := fs.f.Loops[ci.loops[0]].Cond
		for _, a := range ci.node.Child("arguments").NamedChildren() {
			root := m.text(strip(a))
			if i := strings.IndexAny(root, ".[("); i >= 0 {
				root = root[:i]
			}
			pool = pool || root != "" && cond != "" && ir.IdentIn(cond, root)
		}
	}
	if !pool {
		return
	}
	for _, ci := range fs.callInfo {
		fn := strip(ci.node.Child("function"))
		if fn == nil || !m.t.members.has(fn) || !perElemMeths[m.text(fn.Child(m.t.memberProp))] {
			continue
		}
		for _, a := range ci.node.Child("arguments").NamedChildren() {
			if k := fs.kidsByNode[strip(a)]; k != nil && k.f.Launch == "" {
				k.f.Launch = "all"
			}
		}
	}
}

func (b *builder) walk(fs *fnState, n *syntax.Node, st walkState) {
	if n == nil {
		return
	}
	t := fs.mod.t
	m := fs.mod
	if !n.Named && len(n.Children) == 0 {
		return
	}
	if t.pairs.has(n) {
		fs.pairs = append(fs.pairs, n)
	}
	if op := iterOperand(m, n); op != nil && (op.Kind == "this" || t.idents.has(op) && m.text(op) == t.self) {
		// list(self), [*self], yield from self, [...this], Array.from(this), yield* this:
		// the iteration calls the class's iterator method, as for x in self does
		fs.callInfo = append(fs.callInfo, callInfo{node: op, loops: st.loops, top: st.top, conc: st.conc, start: op.Start})
	}
	switch {
	case t.funcs.has(n) || t.lambdas.has(n):
		if k := fs.kidsByNode[n]; k != nil {
			k.f.ParentLoops = append([]int{}, st.loops...)
			if st.conc != "" {
				k.f.Launch = st.conc
			}
		}
		return
	case t.classes.has(n):
		return
	case t.lang == "python" && n.Kind == "import_from_statement":
		// from .. import functions inside the body: a name of the function's own
		spec := b.pyResolve(m, m.text(n.Child("module_name")))
		for _, nm := range n.ChildrenOf("name") {
			name, alias := m.text(nm), m.text(nm)
			if nm.Kind == "aliased_import" {
				name, alias = m.text(nm.Child("name")), m.text(nm.Child("alias"))
			}
			if fs.imports == nil {
				fs.imports = map[string]*sym{}
			}
			fs.imports[alias] = &sym{kind: symImport, from: spec, name: name, pos: m.pos(n)}
		}
		return
	case t.whiles.has(n) || t.dos.has(n) || t.cfors.has(n):
		id := b.addLoop(fs, n, ir.LoopFor, st)
		fs.f.Loops[id].Retry = retryLoop(m, n)
		inner := walkState{loops: append([]int{id}, st.loops...), top: true}
		c := n.Child("condition")
		if c != nil {
			fs.f.Loops[id].Cond = m.text(c)
			fs.conds = append(fs.conds, cond{expr: c, stmt: n, loops: inner.loops, top: true, loop: id})
		}
		for _, ch := range n.Children {
			switch ch.Field {
			case "body":
				b.walk(fs, ch, inner)
			case "increment":
				b.walk(fs, ch, inner)
			case "condition":
				b.walk(fs, ch, inner)
			default:
				b.walk(fs, ch, st)
			}
		}
		return
	case t.foreachs.has(n):
		right := n.Child("right")
		kind := ir.LoopRangeList
		if n.Has("async") || n.Has("await") {
			kind = ir.LoopRangeIter
		}
		r := strip(right)
		if t.lang == "python" && r != nil && r.Kind == "call" && m.text(r.Child("function")) == "range" {
			kind = ir.LoopRangeInt
		}
		id := b.addLoop(fs, n, kind, st)
		fs.f.Loops[id].Over = clip(m.text(right), 80)
		if kind == ir.LoopRangeInt {
			// for attempt in range(1, attempts + 1): try: …; return … except: log: a retry
			// written over a count of attempts (swarms==16.0.3 swarms/agents/tool_manager.py:823)
			fs.f.Loops[id].Retry = retryLoop(m, n)
		}
		if r != nil && (r.Kind == "this" || t.idents.has(r) && m.text(r) == t.self) {
			// for await (const x of this): the iteration calls the class's iterator method
			// (resolveCallsOf), the loop drains what it yields
			fs.callInfo = append(fs.callInfo, callInfo{node: r, loops: st.loops, top: st.top, conc: st.conc, start: r.Start})
		}
		b.walk(fs, right, st)
		inner := walkState{loops: append([]int{id}, st.loops...), top: true}
		fs.assigns = append(fs.assigns, assign{lhs: names(m, n.Child("left")), rhs: right, node: n, loops: inner.loops, iter: true, loop: id, top: st.top})
		if kind == ir.LoopRangeInt {
			args := r.Child("arguments").NamedChildren()
			if len(args) > 0 {
				fs.rangeBounds = append(fs.rangeBounds, rangeBound{loop: id, bound: args[len(args)-1], node: n})
			}
		}
		for _, ch := range n.Children {
			if ch.Field == "body" {
				b.walk(fs, ch, inner)
			} else if ch.Field != "right" && ch.Field != "left" {
				b.walk(fs, ch, st)
			}
		}
		return
	case t.comprehensions.has(n):
		fs.assigns = append(fs.assigns, assign{lhs: names(m, n.Child("left")), rhs: n.Child("right"), node: n, loops: st.loops, iter: true, loop: -1})
	case (t.calls.has(n) || t.news.has(n)) && isAwaitCall(m, n):
		// JS grammars read "await (0, f)(x)" as a call of an identifier named await
		b.walk(fs, n.Child("arguments"), st)
		return
	case t.calls.has(n) || t.news.has(n):
		ci := callInfo{node: n, loops: st.loops, top: st.top, conc: st.conc, start: n.Start}
		fs.callInfo = append(fs.callInfo, ci)
		callee := calleeText(m, n)
		sub := st
		last := callee
		if i := strings.LastIndexByte(last, '.'); i >= 0 {
			last = last[i+1:]
		}
		switch {
		case concurrentAll[callee] || strings.HasSuffix(callee, ".gather") || concurrentAll[last] && last != "race":
			sub.conc = "all"
		case concurrentTask[last]:
			sub.conc = "go"
		case t.detaches[last] && last != callee && b.continuation(fs, n):
			// p.then(cb) that nothing awaits or keeps: cb runs beside the caller, after it
			// goes on
			sub.conc = "go"
		}
		for _, ch := range n.Children {
			if ch.Field == "arguments" {
				b.walk(fs, ch, sub)
			} else {
				b.walk(fs, ch, st)
			}
		}
		return
	case t.ifs.has(n):
		c := n.Child("condition")
		fs.conds = append(fs.conds, cond{expr: c, stmt: n, loops: st.loops, top: st.top, loop: -1})
		for _, ch := range n.Children {
			if ch.Field == "condition" {
				b.walk(fs, ch, st)
			} else {
				b.walk(fs, ch, walkState{loops: st.loops, conc: st.conc})
			}
		}
		return
	case t.ternaries.has(n):
		var c *syntax.Node
		if t.ternCond != "" {
			c = n.Child(t.ternCond)
		} else if k := n.NamedChildren(); len(k) == 3 {
			c = k[1]
		}
		if c != nil {
			fs.conds = append(fs.conds, cond{expr: c, stmt: n, loops: st.loops, top: false, loop: -1})
		}
	case t.catches.has(n) || n.Kind == "match_statement" || n.Kind == "switch_statement" || n.Kind == "case_clause" ||
		n.Kind == "switch_case" || n.Kind == "else_clause":
		for _, ch := range n.Children {
			b.walk(fs, ch, walkState{loops: st.loops, conc: st.conc})
		}
		return
	case t.returns.has(n) || t.raises.has(n):
		fs.retNodes = append(fs.retNodes, n)
		fs.retLoops = append(fs.retLoops, st.loops)
	case t.assigns.has(n) || t.declarators.has(n):
		l, r := n.Child("left"), n.Child("right")
		if t.declarators.has(n) {
			l, r = n.Child("name"), n.Child("value")
		}
		if r != nil {
			fs.assigns = append(fs.assigns, assign{lhs: names(m, l), rhs: r, node: n, loops: st.loops, loop: -1, top: st.top})
			if ln := strip(l); ln != nil && r != nil {
				if rr := strip(r); (rr.Kind == "binary_expression" || rr.Kind == "boolean_operator") && m.text(rr.Child("left")) == m.text(ln) && strings.Contains("+", m.text(rr.Child("operator"))) && t.numbers.has(strip(rr.Child("right"))) {
					fs.incs = append(fs.incs, inc{target: m.text(ln), node: n, loops: st.loops})
				}
			}
		}
	case n.Kind == "named_expression" && t.lang == "python":
		// if calls := reply.tool_calls: (PEP 572, camel-ai 0.2.90 ChatAgent._step_impl) binds
		// calls to a part of a value like an assignment. A walrus over a call (if task :=
		// schedule(...)) stays the call's own test: its result is not bound for the flows.
		if l, r := n.Child("name"), n.Child("value"); l != nil && r != nil && !t.calls.has(strip(r)) {
			fs.assigns = append(fs.assigns, assign{lhs: names(m, l), rhs: r, node: n, loops: st.loops, loop: -1, top: st.top})
		}
	case t.augAssigns.has(n):
		op := m.text(n.Child("operator"))
		if (op == "+=" || op == "-=") && n.Child("right") != nil && t.numbers.has(strip(n.Child("right"))) {
			fs.incs = append(fs.incs, inc{target: m.text(n.Child("left")), node: n, loops: st.loops})
		} else if r := n.Child("right"); r != nil {
			fs.assigns = append(fs.assigns, assign{lhs: names(m, n.Child("left")), rhs: r, node: n, loops: st.loops, loop: -1, top: st.top, aug: true})
		}
	case n.Kind == "with_item":
		// with Loop(...) as loop: loop holds the context manager's value (its __enter__
		// returns it in the common case)
		if v := n.Child("value"); v != nil && v.Kind == "as_pattern" {
			if k := v.NamedChildren(); len(k) > 0 {
				if al := v.Child("alias"); al != nil {
					fs.assigns = append(fs.assigns, assign{lhs: names(m, al), rhs: k[0], node: n, loops: st.loops, loop: -1, top: st.top})
				}
			}
		}
	case t.updates.has(n):
		fs.incs = append(fs.incs, inc{target: m.text(n.Child("argument")), node: n, loops: st.loops})
	}
	for _, ch := range n.Children {
		b.walk(fs, ch, st)
	}
}

type rangeBound struct {
	loop  int
	bound *syntax.Node
	node  *syntax.Node
}

func (b *builder) addLoop(fs *fnState, n *syntax.Node, kind ir.LoopKind, st walkState) int {
	m := fs.mod
	id := len(fs.f.Loops)
	outer := -1
	if len(st.loops) > 0 {
		outer = st.loops[0]
	}
	end := ir.Pos{File: m.file, Line: n.EndLine + 1}
	fs.f.Loops = append(fs.f.Loops, ir.Loop{ID: id, Kind: kind, Pos: m.pos(n), Source: m.source(n), End: end, Outer: outer, OverCall: -1})
	fs.loopNodes = append(fs.loopNodes, n)
	return id
}

// names returns the names a target binds: identifiers, attribute chains, destructured names.
func names(m *module, n *syntax.Node) []string {
	if n == nil {
		return nil
	}
	n = strip(n)
	switch n.Kind {
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list", "array_pattern", "object_pattern",
		"lexical_declaration", "variable_declaration":
		var out []string
		for _, c := range n.NamedChildren() {
			switch c.Kind {
			case "pair_pattern":
				out = append(out, names(m, c.Child("value"))...)
			case "object_assignment_pattern":
				out = append(out, names(m, c.Child("left"))...)
			case "variable_declarator":
				out = append(out, names(m, c.Child("name"))...)
			default:
				out = append(out, names(m, c)...)
			}
		}
		return out
	case "list_splat_pattern", "rest_pattern", "assignment_pattern":
		if k := n.NamedChildren(); len(k) > 0 {
			return names(m, k[0])
		}
		return nil
	}
	return []string{m.text(n)}
}

// isAwaitCall reports whether call is "await (expr)" misread as a call of await.
func isAwaitCall(m *module, call *syntax.Node) bool {
	fn := call.Child("function")
	return fn != nil && fn.Kind == "identifier" && m.text(fn) == "await"
}

// unAwait turns a callee "await (0, f)" misread as a call back into f.
func unAwait(m *module, fn *syntax.Node) *syntax.Node {
	fn = strip(fn)
	if fn != nil && (fn.Kind == "call_expression") && isAwaitCall(m, fn) {
		if k := fn.Child("arguments").NamedChildren(); len(k) > 0 {
			return strip(k[len(k)-1])
		}
	}
	return fn
}

// calleeText is the callee expression as written, without parentheses, await or (0, f).
func calleeText(m *module, call *syntax.Node) string {
	fn := call.Child("function")
	if fn == nil {
		fn = call.Child("constructor")
	}
	t := m.text(unAwait(m, fn))
	if strings.ContainsAny(t, "?!") {
		t = calleeNorm.Replace(t)
	}
	if !strings.Contains(t, "__classPrivateFieldGet") {
		return t // (the expressions below need it; most calls have neither)
	}
	t = privateMethod.ReplaceAllString(t, "this.$1")
	return privateField.ReplaceAllString(t, "this.$1")
}

// privateMethod matches tsc's call of a private method below ES2022,
// __classPrivateFieldGet(this, _Class_instances, "m", _Class_send).call: it names this.send.
var privateMethod = regexp.MustCompile(`^(?:[A-Za-z0-9_$]+\.)?__classPrivateFieldGet\(this, [A-Za-z0-9_$]+, "m", _[A-Za-z0-9$]+?_([A-Za-z0-9_$]+)\)\.(?:call|apply)$`)

// privateField matches tsc's read of a private field below ES2022,
// __classPrivateFieldGet(this, _Class_client, "f"): it names this.client.
var privateField = regexp.MustCompile(`(?:[A-Za-z0-9_$]+\.)?__classPrivateFieldGet\(this, _[A-Za-z0-9$]+?_([A-Za-z0-9_$]+), "f"\)`)

var calleeNorm = strings.NewReplacer("?.", ".", "!.", ".", "!(", "(")

var wordRe = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\s*\.\s*[A-Za-z_$#][A-Za-z0-9_$]*)*`)

// mentions reports whether the expression n mentions one of the names (an identifier or an
// attribute chain starting with one).
func mentions(m *module, n *syntax.Node, vars map[string]bool) bool {
	if n == nil || len(vars) == 0 {
		return false
	}
	found := false
	var walk func(x *syntax.Node)
	walk = func(x *syntax.Node) {
		if found || x == nil {
			return
		}
		if m.t.idents.has(x) || m.t.members.has(x) || x.Kind == "this" || x.Kind == "subscript" || x.Kind == "subscript_expression" {
			txt := m.text(x)
			if vars[txt] {
				found = true
				return
			}
			if m.t.members.has(x) || x.Kind == "subscript" || x.Kind == "subscript_expression" {
				for p := txt; ; {
					i := strings.LastIndexAny(p, ".[")
					if i <= 0 {
						break
					}
					p = strings.TrimRight(p[:i], "?")
					if vars[p] {
						found = true
						return
					}
				}
			}
		}
		for _, c := range x.Children {
			walk(c)
		}
	}
	walk(n)
	return found
}

// failureWords name a failure in a condition (if (finish.kind === 'error'), if err, if
// attempt < max_retries).
var failureWords = regexp.MustCompile(`(?i)(err|fail|retry|retries|abort|timeout|timed|exception|status|attempt)`)

// retryLoop reports whether a loop only repeats after a failure: its body ends by leaving
// (return, raise, break; a try whose block ends so), and every continue of it is in a catch
// clause or in a branch that handles a failure (its condition names one, or it raises). Such
// a loop re-issues one call (a provider retry); a turn loop goes on after the tools ran.
func retryLoop(m *module, loop *syntax.Node) bool {
	t := m.t
	body := loop.Child("body")
	if body == nil {
		return false
	}
	var leaves func(n *syntax.Node) bool
	leaves = func(n *syntax.Node) bool {
		switch {
		case n == nil:
			return false
		case t.returns.has(n) || t.raises.has(n) || t.breaks.has(n):
			return true
		case t.blocks.has(n):
			return leaves(lastStmt(n))
		case t.tries.has(n):
			return leaves(n.Child("body"))
		}
		return false
	}
	if !leaves(lastStmt(body)) {
		return false
	}
	ok := true
	// pending is the body of a branch taken when a collection is not empty (if
	// (toolCalls?.length) { run them; continue }): work the step left, not a failure, whatever
	// it rethrows on the way (if (error) throw error after the tools ran)
	var walk func(n *syntax.Node, fail, pending bool)
	walk = func(n *syntax.Node, fail, pending bool) {
		if !ok || n == nil {
			return
		}
		var body *syntax.Node
		switch {
		case t.continues.has(n):
			ok = fail
			return
		case t.funcs.has(n) || t.lambdas.has(n) || t.classes.has(n) || t.whiles.has(n) || t.dos.has(n) ||
			t.cfors.has(n) || t.foreachs.has(n):
			return
		case t.catches.has(n):
			fail = true
		case t.ifs.has(n):
			cond := m.text(n.Child("condition"))
			if failureWords.MatchString(cond) {
				fail = true
			} else if nonEmptyTest(cond) {
				body = n.Child("consequence")
			}
		case t.blocks.has(n) && !pending && raisesOwn(t, n):
			fail = true
		}
		for _, c := range n.Children {
			walk(c, fail, c == body && body != nil)
		}
	}
	// (the body itself is no branch: a throw somewhere in it, a tool's error rethrown, does not
	// make every continue a retry)
	walk(body, false, true)
	return ok
}

// lengthRe and emptyRe tell a test that a collection is not empty (x.length, x?.length > 0,
// len(x), x.size) from one that it is (x.length === 0, !x.length, not len(x)).
var (
	lengthRe = regexp.MustCompile(`\.length\b|\blen\(|\.size\b`)
	emptyRe  = regexp.MustCompile(`(===?|==|<=?)\s*[01]\b|!\s*\(?\s*[\w.?]+\.(length|size)\b|\bnot\b`)
)

// nonEmptyTest reports whether condition cond holds when a collection has elements.
func nonEmptyTest(cond string) bool {
	if !strings.Contains(cond, ".length") && !strings.Contains(cond, "len(") && !strings.Contains(cond, ".size") {
		return false // (what lengthRe needs, without running it)
	}
	return lengthRe.MatchString(cond) && !emptyRe.MatchString(cond)
}

// raisesOwn reports whether a raise or throw statement lies in block n outside the loops and
// the exception handlers nested in it: a throw in a catch of a loop over the step's tool calls
// (an argument that does not parse) does not make the block that runs the tools a failure path.
func raisesOwn(t *table, n *syntax.Node) bool {
	found := false
	eachNode(t, n, func(x *syntax.Node) bool {
		if x != n && (t.whiles.has(x) || t.dos.has(x) || t.cfors.has(x) || t.foreachs.has(x) || t.catches.has(x) ||
			t.funcs.has(x) || t.lambdas.has(x)) {
			return false
		}
		found = found || t.raises.has(x)
		return !found
	})
	return found
}

// iterBuiltins are the calls that iterate their first argument to the end, by language.
var iterBuiltins = map[string]map[string]bool{
	"python":     {"list": true, "tuple": true, "set": true, "frozenset": true, "sorted": true},
	"typescript": {"Array.from": true},
	"javascript": {"Array.from": true},
}

// iterOperand returns the operand node n iterates to the end, other than by a for statement
// (read apart): a call of an iterating builtin (list(x), Array.from(x)), a splat into a
// collection literal or a call ([*x], [...x], f(...x)), a delegating yield (yield from x,
// yield* x), a string join ("".join(x)); nil for other nodes.
func iterOperand(m *module, n *syntax.Node) *syntax.Node {
	t := m.t
	one := func(x *syntax.Node) *syntax.Node {
		if k := x.NamedChildren(); len(k) == 1 {
			return strip(k[0])
		}
		return nil
	}
	switch n.Kind {
	case "yield":
		if n.Has("from") {
			return one(n)
		}
	case "yield_expression":
		if n.Has("*") {
			return one(n)
		}
	case "list_splat", "spread_element":
		return one(n)
	}
	if fn := n.Child("function"); t.calls.has(n) && fn != nil && t.lang == "python" && t.members.has(fn) && m.text(fn.Child(t.memberProp)) == "join" &&
		t.stringKinds.has(strip(fn.Child("object"))) {
		// "".join(x)
		if args := n.Child("arguments").NamedChildren(); len(args) == 1 {
			return strip(args[0])
		}
	}
	if t.calls.has(n) && iterBuiltins[t.lang][m.text(n.Child("function"))] {
		if args := n.Child("arguments").NamedChildren(); len(args) == 1 {
			return strip(args[0])
		}
	}
	return nil
}
