package srcir

import (
	"sort"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// Lexical scopes of JS/TS.
//
// The lowering's data flow goes by a variable's NAME within a function. A JS/TS function can
// bind one name several times: let/const/class in nested or sibling blocks, a for head, a
// catch parameter, a closure's parameter shadowing the function's variable. Minifiers
// (esbuild, terser) reuse the same short names (r, n, a) for the distinct bindings of one
// function, so by name every test would be attributed to every call (kaibanjs@0.23.1
// dist/bundle.mjs:236, whose agent loop for(;!a&&s<i&&!u&&!l;) shares its names with a dozen
// block-scoped lets of the same method). lexicalNames resolves every identifier to its
// binding once per module and gives each binding that would be confused with another one of
// its name a unique internal name (r$$2); module.text returns it for the binding's
// identifiers and substitutes it in the text of any expression holding them, so all of the
// shared lowering sees distinct names. var and function declarations stay function-scoped,
// as does all of Python (it has no block scopes; nothing is renamed there).
//
// A binding is renamed when another binding of its name was declared before it in the same
// function (sibling or nested blocks, a for head, a catch parameter); the first keeps its
// name, so code without such reuse reads exactly as written. A closure's parameter or let
// shadowing a variable of the function around it is not renamed: the closure is lowered as
// a function of its own, where that name means its own binding only (renaming those too
// moved vercel-ai@7.0.173's streamText model call off its step recursion, dist/index.js:10377). Module-level
// bindings are never renamed and a function's parameter shadowing one is not either (each
// function's flow is its own; module names are resolved through syms).

// renameSep separates a name from its binding's number: a character of identifiers, so the
// lowering's patterns over expression text read r$$2.x as one attribute chain.
const renameSep = "$$"

// rename is one identifier whose binding has a unique internal name.
type rename struct {
	start, end int
	name       string
}

type scopeFn struct {
	program  bool
	declared map[string]int
}

type scopeBinding struct {
	name      string // the internal name
	renamable bool
}

type scopeEntry struct {
	node *syntax.Node
	fn   *scopeFn
	vars map[string]*scopeBinding
}

type scoper struct {
	m      *module
	scopes map[*syntax.Node]*scopeEntry
	stack  []*scopeEntry
	next   int
	out    []rename
}

// lexicalNames computes m.renames for a JS/TS module.
func lexicalNames(m *module) {
	if m.tree == nil || m.tree.Root == nil || m.t == nil || m.t.lang == "python" {
		return
	}
	s := &scoper{m: m, scopes: map[*syntax.Node]*scopeEntry{}}
	root := m.tree.Root
	prog := &scopeEntry{node: root, fn: &scopeFn{program: true, declared: map[string]int{}}, vars: map[string]*scopeBinding{}}
	s.scopes[root] = prog
	s.stack = []*scopeEntry{prog}
	s.declareWalk(root)
	s.stack = s.stack[:0]
	s.resolveWalk(root)
	if len(s.out) == 0 {
		return
	}
	sort.Slice(s.out, func(i, j int) bool { return s.out[i].start < s.out[j].start })
	m.renames = s.out
}

func isFuncKind(k string) bool {
	switch k {
	case "function_declaration", "generator_function_declaration", "function_expression", "generator_function",
		"method_definition", "function", "arrow_function":
		return true
	}
	return false
}

// blockScope reports whether n opens a block scope for let/const/class.
func blockScope(n *syntax.Node) bool {
	switch n.Kind {
	case "statement_block", "switch_body", "for_statement", "for_in_statement", "catch_clause", "class_static_block":
		return true
	}
	return false
}

// entry returns (creating) the scope entry of node n, whose function is fn.
func (s *scoper) entry(n *syntax.Node, fn *scopeFn) *scopeEntry {
	e := s.scopes[n]
	if e == nil {
		e = &scopeEntry{node: n, fn: fn, vars: map[string]*scopeBinding{}}
		s.scopes[n] = e
	}
	return e
}

// funcEntry is the innermost function (or program) scope on the stack.
func (s *scoper) funcEntry() *scopeEntry {
	for i := len(s.stack) - 1; i >= 0; i-- {
		e := s.stack[i]
		if e.node == s.m.tree.Root || isFuncKind(e.node.Kind) {
			return e
		}
	}
	return s.stack[0]
}

// declare binds the identifier id in scope e.
func (s *scoper) declare(e *scopeEntry, id *syntax.Node, renamable bool) {
	if id == nil || e == nil {
		return
	}
	name := s.m.tree.Text(id)
	if name == "" || e.vars[name] != nil {
		return // var x twice, a parameter and a var: one binding
	}
	b := &scopeBinding{name: name, renamable: renamable}
	if renamable && !e.fn.program && s.conflicts(e, name) {
		s.next++
		b.name = name + renameSep + strconv.Itoa(s.next)
	}
	e.fn.declared[name]++
	e.vars[name] = b
}

// conflicts reports whether a binding of name in e would be confused with another one of
// the same function: one declared before it in any of the function's scopes (a closure's
// own bindings are its own function's: its flow is lowered apart, and its reads of the
// bindings it captures go by the names those have).
func (s *scoper) conflicts(e *scopeEntry, name string) bool {
	return e.fn.declared[name] > 0
}

// pattern declares the identifiers a binding pattern binds.
func (s *scoper) pattern(e *scopeEntry, p *syntax.Node) {
	if p == nil {
		return
	}
	switch p.Kind {
	case "identifier":
		s.declare(e, p, true)
	case "shorthand_property_identifier_pattern":
		// {a} = x: the name is the property's too; it keeps it
		s.declare(e, p, false)
	case "object_pattern", "array_pattern":
		for _, c := range p.NamedChildren() {
			switch c.Kind {
			case "pair_pattern":
				s.pattern(e, c.Child("value"))
			case "object_assignment_pattern":
				s.pattern(e, c.Child("left"))
			default:
				s.pattern(e, c)
			}
		}
	case "assignment_pattern", "object_assignment_pattern":
		s.pattern(e, p.Child("left"))
	case "rest_pattern":
		if k := p.NamedChildren(); len(k) > 0 {
			s.pattern(e, k[0])
		}
	case "required_parameter", "optional_parameter":
		s.pattern(e, p.Child("pattern"))
	}
}

// params declares a function's parameters in its scope e.
func (s *scoper) params(e *scopeEntry, fn *syntax.Node) {
	if p := fn.Child("parameter"); p != nil {
		s.pattern(e, p)
	}
	if ps := fn.Child("parameters"); ps != nil {
		for _, p := range ps.NamedChildren() {
			s.pattern(e, p)
		}
	}
}

// blockOf is the innermost block scope on the stack (the function's own when none).
func (s *scoper) blockOf() *scopeEntry { return s.stack[len(s.stack)-1] }

func (s *scoper) push(e *scopeEntry) { s.stack = append(s.stack, e) }

func (s *scoper) pop() { s.stack = s.stack[:len(s.stack)-1] }

// declareWalk records the bindings of every scope, in source order.
func (s *scoper) declareWalk(n *syntax.Node) {
	pushed := false
	switch {
	case isFuncKind(n.Kind):
		if nm := n.Child("name"); nm != nil && nm.Kind == "identifier" {
			switch n.Kind {
			case "function_declaration", "generator_function_declaration":
				s.declare(s.funcEntry(), nm, true)
			}
		}
		fn := &scopeFn{declared: map[string]int{}}
		e := s.entry(n, fn)
		if nm := n.Child("name"); nm != nil && nm.Kind == "identifier" && (n.Kind == "function_expression" || n.Kind == "generator_function" || n.Kind == "function") {
			s.declare(e, nm, false) // a function expression's own name
		}
		s.push(e)
		pushed = true
		s.params(e, n)
	case n.Kind == "class_declaration":
		if nm := n.Child("name"); nm != nil && nm.Kind == "identifier" {
			s.declare(s.blockOf(), nm, true)
		}
	case blockScope(n) && n != s.m.tree.Root:
		e := s.entry(n, s.blockOf().fn)
		s.push(e)
		pushed = true
		switch n.Kind {
		case "catch_clause":
			s.pattern(e, n.Child("parameter"))
		case "for_in_statement":
			if k := n.Child("kind"); k != nil {
				switch s.m.tree.Text(k) {
				case "let", "const":
					s.pattern(e, n.Child("left"))
				case "var":
					s.pattern(s.funcEntry(), n.Child("left"))
				}
			}
		}
	case n.Kind == "lexical_declaration":
		e := s.blockOf()
		for _, d := range n.NamedChildren() {
			if d.Kind == "variable_declarator" {
				s.pattern(e, d.Child("name"))
			}
		}
	case n.Kind == "variable_declaration":
		e := s.funcEntry()
		for _, d := range n.NamedChildren() {
			if d.Kind == "variable_declarator" {
				s.pattern(e, d.Child("name"))
			}
		}
	}
	for _, c := range n.Children {
		s.declareWalk(c)
	}
	if pushed {
		s.pop()
	}
}

// resolveWalk resolves every identifier to its binding through the scopes on the stack and
// records those whose binding was renamed.
func (s *scoper) resolveWalk(n *syntax.Node) {
	e := s.scopes[n]
	if e != nil {
		s.push(e)
	}
	if n.Kind == "identifier" && len(n.Children) == 0 {
		name := s.m.tree.Text(n)
		for i := len(s.stack) - 1; i >= 0; i-- {
			if b := s.stack[i].vars[name]; b != nil {
				if b.name != name {
					s.out = append(s.out, rename{n.Start, n.End, b.name})
				}
				break
			}
		}
	}
	for _, c := range n.Children {
		s.resolveWalk(c)
	}
	if e != nil {
		s.pop()
	}
}

// renamedText is the text of n with the internal names of the renamed identifiers in it.
func (m *module) renamedText(n *syntax.Node) string {
	raw := m.tree.Text(n)
	if n == nil || raw == "" {
		return raw
	}
	rs := m.renames
	i := sort.Search(len(rs), func(i int) bool { return rs[i].start >= n.Start })
	if i == len(rs) || rs[i].start >= n.End {
		return raw
	}
	if rs[i].start == n.Start && rs[i].end == n.End {
		return rs[i].name
	}
	var sb strings.Builder
	at := n.Start
	for ; i < len(rs) && rs[i].end <= n.End; i++ {
		sb.WriteString(raw[at-n.Start : rs[i].start-n.Start])
		sb.WriteString(rs[i].name)
		at = rs[i].end
	}
	sb.WriteString(raw[at-n.Start:])
	return sb.String()
}

// plainNames rewrites the internal names in the texts the IR shows (a call, a test, a
// return, a guard, a bound as written) back to the names in the source, once the flows that
// needed them distinct are done: message$$1.stopReason is shown as message.stopReason.
func plainNames(p *ir.Program) {
	for _, f := range p.Funcs {
		for i := range f.Calls {
			c := &f.Calls[i]
			c.Text = plainName(c.Text)
			if fl := c.Flow; fl != nil {
				for j := range fl.Checked {
					fl.Checked[j].Text = plainName(fl.Checked[j].Text)
				}
				for j := range fl.Dispatch {
					fl.Dispatch[j].Text = plainName(fl.Dispatch[j].Text)
				}
			}
		}
		for i := range f.Branches {
			br := &f.Branches[i]
			br.Text, br.StopText, br.Bound.Text = plainName(br.Text), plainName(br.StopText), plainName(br.Bound.Text)
		}
		for i := range f.Returns {
			r := &f.Returns[i]
			r.Text = plainName(r.Text)
			if r.Err != nil {
				r.Err.Text = plainName(r.Err.Text)
			}
			for j := range r.Values {
				r.Values[j].Text = plainName(r.Values[j].Text)
			}
			if r.Guard != nil {
				r.Guard.Text, r.Guard.Subject = plainName(r.Guard.Text), plainName(r.Guard.Subject)
			}
		}
		for i := range f.Cancels {
			f.Cancels[i].Text = plainName(f.Cancels[i].Text)
		}
		for i := range f.Mints {
			f.Mints[i].Text = plainName(f.Mints[i].Text)
		}
		for i := range f.Stops {
			f.Stops[i].Text, f.Stops[i].StopText = plainName(f.Stops[i].Text), plainName(f.Stops[i].StopText)
		}
	}
}

// plainName drops the binding numbers (r$$2 → r) from s.
func plainName(s string) string {
	if !strings.Contains(s, renameSep) {
		return s
	}
	var sb strings.Builder
	for {
		i := strings.Index(s, renameSep)
		if i < 0 {
			break
		}
		j := i + len(renameSep)
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			sb.WriteString(s[:j]) // a $$ of the source, not a binding number
		} else {
			sb.WriteString(s[:i])
		}
		s = s[k:]
	}
	sb.WriteString(s)
	return sb.String()
}
