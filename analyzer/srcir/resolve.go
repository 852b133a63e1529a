package srcir

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// module finds an analysed module by name (JS: also dir/index, a package's dist or src index).
func (b *builder) module(name string) *module {
	if m := b.mods[name]; m != nil {
		return m
	}
	for _, suf := range []string{"/index", "/dist/index", "/src/index", "/lib/index", "/dist/esm/index", "/dist/cjs/index"} {
		if m := b.mods[name+suf]; m != nil {
			return m
		}
	}
	if m := b.mods[name+".__init__"]; m != nil {
		return m
	}
	if f, ok := b.specs[name]; ok {
		// a dependency's entry (package.json exports or main) outside those places
		return b.byFile[f]
	}
	return nil
}

// target is what a name or expression refers to.
type target struct {
	fns []*fnState
	cls *class
	mod *module
	// key is a qualified name for things outside the analysed set ("asyncio.gather").
	key   string
	value *syntax.Node // a module-level value
	vmod  *module
	vpos  *sym
	// inst are the analysed classes the value is an instance of (a typed parameter, a field
	// assigned a constructed or typed value, a property's return type).
	inst []*class
	// abstract is the key of the member on the instance's declared class (the base class a
	// call goes through: "smolagents.models.Model.generate"), for a method of an instance.
	abstract string
}

// resolveSym resolves name in module modName, following imports and re-exports.
func (b *builder) resolveSym(modName, name string, depth int) target {
	return b.resolveSymIn(modName, name, depth, nil)
}

// starKey is a module whose star re-exports a resolution looked name up in.
type starKey struct {
	m    *module
	name string
}

// resolveSymIn is resolveSym; seen holds the modules whose star re-exports the resolution has
// looked the name up in, at the smallest depth: a module's stars are searched again only
// from a smaller depth (one that reaches further), so barrels of modules re-exporting each
// other (export * from in a cycle) cost one search of each module, not one per path.
func (b *builder) resolveSymIn(modName, name string, depth int, seen map[starKey]int) target {
	if depth > 8 {
		return target{}
	}
	m := b.module(modName)
	if m == nil {
		if sub := b.module(modName + "." + name); sub != nil && name != "" && sub.t.lang == "python" {
			// from . import _utils where the package's __init__ is not among the analysed
			// files: the submodule itself
			return target{mod: sub}
		}
		if t, ok := b.unloadedInit(modName, name, depth); ok {
			return t
		}
		if name == "" {
			return target{key: modName}
		}
		return target{key: modName + "." + name}
	}
	if name == "" {
		return target{mod: m}
	}
	if s := m.syms[name]; s != nil {
		return b.symTargetIn(m, s, depth, seen)
	}
	if sub := b.module(strings.TrimSuffix(m.name, ".__init__") + "." + name); sub != nil && m.t.lang == "python" {
		// from .. import functions: a submodule of the package (its __init__ need not name it)
		return target{mod: sub}
	}
	if len(m.star) > 0 {
		k := starKey{m, name}
		if d, ok := seen[k]; ok && d <= depth {
			return target{key: modName + "." + name}
		}
		if seen == nil {
			seen = map[starKey]int{}
		}
		seen[k] = depth
	}
	for _, st := range m.star {
		if t := b.resolveSymIn(st, name, depth+1, seen); t.fns != nil || t.cls != nil || t.mod != nil || t.value != nil {
			return t
		}
	}
	return target{key: modName + "." + name}
}

// unloadedInit resolves from pkg import Name when pkg is a Python package whose __init__ is
// not among the analysed files (only some of its modules are: the package's __init__
// re-exports a submodule's class or function, from .agent import Agent) to the one class or
// function of that name defined at the top of an analysed module inside pkg. Two or more
// such definitions are ambiguous: nothing.
func (b *builder) unloadedInit(pkg, name string, depth int) (target, bool) {
	if name == "" || pkg == "" {
		return target{}, false
	}
	b.pkgMu.Lock()
	mods, ok := b.pkgMods[pkg]
	if !ok {
		for _, m := range b.order {
			if m.t.lang == "python" && strings.HasPrefix(m.name, pkg+".") {
				mods = append(mods, m)
			}
		}
		if b.pkgMods == nil {
			b.pkgMods = map[string][]*module{}
		}
		b.pkgMods[pkg] = mods
	}
	b.pkgMu.Unlock()
	var found *sym
	var in *module
	for _, m := range mods {
		if s := m.syms[name]; s != nil && (s.kind == symClass || s.kind == symFunc) {
			if found != nil && found != s {
				return target{}, false
			}
			found, in = s, m
		}
	}
	if found == nil {
		return target{}, false
	}
	return b.symTarget(in, found, depth+1), true
}

func (b *builder) symTarget(m *module, s *sym, depth int) target {
	return b.symTargetIn(m, s, depth, nil)
}

// symTargetIn is symTarget within a resolution that has searched the star re-exports in seen
// (resolveSymIn).
func (b *builder) symTargetIn(m *module, s *sym, depth int, seen map[starKey]int) target {
	switch s.kind {
	case symFunc:
		return target{fns: []*fnState{s.fn}}
	case symClass:
		return target{cls: s.cls}
	case symModule:
		return b.resolveSymIn(s.from, "", depth+1, seen)
	case symImport:
		if s.from == m.name && s.name != "" {
			if s2 := m.syms[s.name]; s2 != nil && s2 != s {
				return b.symTargetIn(m, s2, depth+1, seen)
			}
			if sub := b.module(strings.TrimSuffix(m.name, ".__init__") + "." + s.name); sub != nil && m.t.lang == "python" {
				// from . import functions in a package's __init__: its submodule
				return target{mod: sub}
			}
			return target{}
		}
		return b.resolveSymIn(s.from, s.name, depth+1, seen)
	case symValue:
		t := target{value: s.value, vmod: m, vpos: s}
		// an alias of functions: f = a or b, const f = cond ? a : b
		for _, alt := range alternatives(m, s.value) {
			if alt.Kind == "identifier" && m.text(alt) != "" {
				if s2 := m.syms[m.text(alt)]; s2 != nil && s2 != s && depth < 6 {
					at := b.symTargetIn(m, s2, depth+1, seen)
					t.fns = append(t.fns, at.fns...)
					if at.cls != nil && t.cls == nil {
						t.cls = at.cls
					}
				}
			}
		}
		return t
	}
	return target{}
}

// alternatives returns the operands of an "a or b" / "a || b" / "a ?? b" / "c ? a : b" alias
// expression (the expression itself otherwise).
func alternatives(m *module, n *syntax.Node) []*syntax.Node {
	if n == nil {
		return nil
	}
	n = strip(n)
	switch n.Kind {
	case "boolean_operator", "binary_expression":
		op := m.text(n.Child("operator"))
		if op == "or" || op == "||" || op == "??" {
			return append(alternatives(m, n.Child("left")), alternatives(m, n.Child("right"))...)
		}
	case "conditional_expression":
		kids := n.NamedChildren()
		if len(kids) == 3 {
			return append(alternatives(m, kids[0]), alternatives(m, kids[2])...)
		}
	case "ternary_expression":
		return append(alternatives(m, n.Child("consequence")), alternatives(m, n.Child("alternative"))...)
	}
	return []*syntax.Node{n}
}

// strip removes parentheses, await and TS type assertions around an expression.
func strip(n *syntax.Node) *syntax.Node {
	for n != nil {
		if !wrapperKinds.has(n) {
			return n // most nodes: one bit test instead of comparing the kind's name
		}
		switch n.Kind {
		case "parenthesized_expression", "await", "await_expression", "non_null_expression", "as_expression",
			"satisfies_expression", "type_assertion":
			kids := n.NamedChildren()
			if len(kids) == 0 {
				return n
			}
			n = kids[0]
		case "named_expression":
			// (fc_count := len(function_calls)) == 0: a Python walrus is the value it binds
			v := n.Child("value")
			if v == nil {
				return n
			}
			n = v
		case "sequence_expression": // (0, mod.f)
			kids := n.NamedChildren()
			if len(kids) == 0 {
				return n
			}
			n = kids[len(kids)-1]
		default:
			return n
		}
	}
	return n
}

// wrapperKinds are the kinds strip looks through.
var wrapperKinds = mkKinds("parenthesized_expression", "await", "await_expression", "non_null_expression", "as_expression",
	"satisfies_expression", "type_assertion", "sequence_expression", "named_expression")

// linkClasses resolves base classes and records subclasses.
func (b *builder) linkClasses() {
	b.reexports()
	b.reexportsOnDisk()
	for _, k := range b.sortedClasses() {
		for _, base := range k.bases {
			if bc := b.classByExpr(k.mod, base); bc != nil && bc != k && (k.mod.dep || !bc.mod.dep) {
				// (an analysed class keeps the methods it was read with: a dependency's
				// base class would answer its this.method() and super calls, which the
				// analysed overrides answered: PartialRunnable extends @langchain/core's
				// Runnable)
				k.baseCls = append(k.baseCls, bc)
				bc.subs = append(bc.subs, k)
			}
		}
	}
	b.privateMethods()
	b.methodsByName = map[string][]*fnState{}
	for _, k := range b.sortedClasses() {
		for name, fs := range k.methods {
			b.methodsByName[name] = append(b.methodsByName[name], fs)
			// overrides
			for _, anc := range k.ancestors() {
				if am := anc.methods[name]; am != nil {
					fs.f.Implements = append(fs.f.Implements, am.f.Key)
				}
			}
		}
	}
}

// privateMethods makes the functions tsc writes for a class's private methods below ES2022
// (_Runner_send = async function* _Runner_send(thread) {…}, beside the class or in a computed
// key's initializers) methods of that class: this.#send(…), as desugarPrivate rewrites their
// calls, runs them, and this in them is an instance of the class.
func (b *builder) privateMethods() {
	byMod := map[*module][]*class{}
	for _, k := range b.sortedClasses() {
		if len(k.mod.t.privateGets) > 0 {
			byMod[k.mod] = append(byMod[k.mod], k)
		}
	}
	if len(byMod) == 0 {
		return
	}
	for _, fs := range b.funcs {
		if !strings.HasPrefix(fs.name, "_") || len(byMod[fs.mod]) == 0 {
			continue
		}
		for _, k := range byMod[fs.mod] {
			name, ok := strings.CutPrefix(fs.name, "_"+k.name+"_")
			if !ok || name == "" || name == "instances" || k.methods["#"+name] != nil {
				continue
			}
			name = "#" + name
			k.methods[name] = fs
			if fs.cls == nil && enclosingClass(fs) == nil {
				fs.cls = k
			}
			break
		}
	}
}

// reexports marks the classes and functions of a private Python module (_assistant_agent)
// that a public module imports under a public name (a package's __init__: from
// ._assistant_agent import AssistantAgent) as exported: users reach them by that name.
func (b *builder) reexports() {
	for _, m := range b.order {
		if m.t.lang != "python" || !b.moduleExports(m, "") {
			continue
		}
		for _, s := range sortedSyms(m) {
			if s.kind != symImport || s.from == m.name {
				continue
			}
			t := b.symTarget(m, s, 0)
			switch {
			case t.cls != nil && !t.cls.exported && exportedName(t.cls.name) && b.classes[t.cls.mod.name+"."+t.cls.name] == t.cls:
				t.cls.exported = true
				for name, fs := range t.cls.methods {
					fs.f.Exported = exportedName(name)
				}
			case len(t.fns) == 1 && t.fns[0].parent == nil && t.fns[0].cls == nil && exportedName(t.fns[0].name):
				t.fns[0].f.Exported = true
			}
		}
	}
}

// reexportsOnDisk is reexports for a private module mapped without its package: a file
// named on its own (autogen_agentchat/agents/_assistant_agent.py, whose package's __init__.py
// does from ._assistant_agent import AssistantAgent) is read with the __init__.py beside it on
// disk, not parsed, only for the names it imports from the module.
func (b *builder) reexportsOnDisk() {
	for _, m := range b.order {
		if m.t.lang != "python" || m.dep || m.isPkg || b.moduleExports(m, "") {
			continue
		}
		base := m.name[strings.LastIndex(m.name, ".")+1:]
		pkg := strings.TrimSuffix(strings.TrimSuffix(m.name, base), ".")
		if !strings.HasPrefix(base, "_") || strings.HasPrefix(base, "__") || pkg == "" || b.mods[pkg] != nil {
			continue
		}
		if p := pkg[strings.LastIndex(pkg, ".")+1:]; strings.HasPrefix(p, "_") && !strings.HasPrefix(p, "__") {
			continue // the package is private too
		}
		src, err := os.ReadFile(filepath.Join(filepath.Dir(m.file), "__init__.py"))
		if err != nil {
			continue
		}
		for _, name := range initImports(string(src), base) {
			s := m.syms[name]
			switch {
			case s == nil || !exportedName(name):
			case s.kind == symClass && s.cls != nil && !s.cls.exported:
				s.cls.exported = true
				for mn, fs := range s.cls.methods {
					fs.f.Exported = exportedName(mn)
				}
			case s.kind == symFunc && s.fn != nil && s.fn.parent == nil && s.fn.cls == nil:
				s.fn.f.Exported = true
			}
		}
	}
}

// initImports returns the names an __init__.py's text imports from its sibling module base
// (from .base import A, B as C / from .base import (A, B)).
func initImports(src, base string) []string {
	re := regexp.MustCompile(`(?m)^\s*from\s+\.` + regexp.QuoteMeta(base) + `\s+import\s+(\([^)]*\)|[^\n#]*)`)
	var out []string
	for _, mm := range re.FindAllStringSubmatch(src, -1) {
		for _, part := range strings.Split(strings.Trim(mm[1], "() \t\r\n"), ",") {
			f := strings.Fields(part)
			if len(f) > 0 {
				out = append(out, f[0])
			}
		}
	}
	return out
}

func (b *builder) sortedClasses() []*class {
	var out []*class
	for _, fs := range b.funcs {
		_ = fs
	}
	seen := map[*class]bool{}
	for _, m := range b.order {
		for _, s := range sortedSyms(m) {
			if s.kind == symClass && !seen[s.cls] {
				seen[s.cls] = true
				out = append(out, s.cls)
			}
		}
	}
	for _, k := range b.classes {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func sortedSyms(m *module) []*sym {
	var out []*sym
	for _, s := range m.syms {
		out = append(out, s)
	}
	// by line (a stable sort, as the insertion sort it replaces: that was quadratic in a
	// module's symbols, and a bundled dist file declares thousands)
	sort.SliceStable(out, func(i, j int) bool { return out[i].pos.Line < out[j].pos.Line })
	return out
}

func (b *builder) classByExpr(m *module, expr string) *class {
	expr = strings.TrimSpace(expr)
	if i := strings.IndexAny(expr, "[<("); i > 0 {
		expr = expr[:i] // Generic[T], Base<T>
	}
	parts := strings.Split(expr, ".")
	s := m.syms[parts[0]]
	if s == nil {
		return nil
	}
	t := b.symTarget(m, s, 0)
	for _, p := range parts[1:] {
		if t.mod == nil {
			return nil
		}
		t = b.resolveSym(t.mod.name, p, 0)
	}
	return t.cls
}

// ancestors returns the base classes, transitively, nearest first.
func (k *class) ancestors() []*class {
	var out []*class
	seen := map[*class]bool{k: true}
	queue := append([]*class{}, k.baseCls...)
	for len(queue) > 0 && len(out) < 50 {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c)
		queue = append(queue, c.baseCls...)
	}
	return out
}

// descendants returns the subclasses, transitively.
func (k *class) descendants() []*class {
	var out []*class
	seen := map[*class]bool{k: true}
	queue := append([]*class{}, k.subs...)
	for len(queue) > 0 && len(out) < 200 {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c)
		queue = append(queue, c.subs...)
	}
	return out
}

// methodOf finds the implementations a call of name on an instance of k may run: the nearest
// definition in k or its bases, and the overrides in its subclasses.
func methodOf(k *class, name string, withSubs bool) []*fnState {
	var out []*fnState
	if fs := k.methods[name]; fs != nil {
		out = append(out, fs)
	} else {
		for _, a := range k.ancestors() {
			if fs := a.methods[name]; fs != nil {
				out = append(out, fs)
				break
			}
		}
	}
	if withSubs {
		for _, d := range k.descendants() {
			if fs := d.methods[name]; fs != nil {
				out = append(out, fs)
			}
		}
	}
	return out
}

func (k *class) ctor() []*fnState {
	for _, n := range []string{"__init__", "constructor"} {
		if fs := methodOf(k, n, false); len(fs) > 0 {
			return fs
		}
	}
	return nil
}

// resolveName resolves an identifier in a function's scope.
func (b *builder) resolveName(fs *fnState, name string) target {
	for s := fs; s != nil; s = s.parent {
		if l := s.locals[name]; len(l) > 0 {
			return target{fns: l}
		}
		if tr, ok := b.localClasses(s)[name]; ok {
			return target{inst: tr.cls, key: tr.ext}
		}
		if im := s.imports[name]; im != nil {
			return b.symTarget(s.mod, im, 0)
		}
	}
	if name == "cls" {
		if k := classOfReceiver(fs); k != nil {
			// a class method's receiver is its class: cls() is an instance
			return target{cls: k}
		}
	}
	m := fs.mod
	if s := m.syms[name]; s != nil {
		return b.symTarget(m, s, 0)
	}
	return target{key: name}
}

// resolveExpr resolves a callee expression: a name, a module attribute, a method of self/this
// (through the class, its bases and subclasses), super().m, a field whose class is known.
func (b *builder) resolveExpr(fs *fnState, n *syntax.Node, depth int) target {
	n = strip(n)
	if n == nil || depth > 6 {
		return target{}
	}
	m, t := fs.mod, fs.mod.t
	if alts := alternatives(m, n); len(alts) > 1 {
		// (executor?.call ?? call)(ctx), (opts.run || run)(x), (f ? a : b)(x): the call runs
		// one of the alternatives, so each is a candidate (an option that overrides a default
		// step function; a value outside the analysed set adds nothing)
		var out target
		for _, a := range alts {
			tg := b.resolveExpr(fs, a, depth+1)
			if tg.cls != nil {
				tg.fns = append(tg.fns, tg.cls.ctor()...)
			}
			for _, f := range tg.fns {
				if !slices.Contains(out.fns, f) {
					out.fns = append(out.fns, f)
				}
			}
			for _, k := range tg.inst {
				if !slices.Contains(out.inst, k) {
					out.inst = append(out.inst, k)
				}
			}
		}
		return out
	}
	switch {
	case t.idents.has(n):
		return b.resolveName(fs, m.text(n))
	case t.members.has(n):
		obj, prop := strip(n.Child("object")), m.text(n.Child(t.memberProp))
		ot := m.text(obj)
		cls := enclosingClass(fs)
		if t.invokes[prop] && obj != nil {
			// fn.call(this, x): runs fn; compiled this.#send(x) is
			// __classPrivateFieldGet(this, _X_instances, "m", _X_send).call(this, x)
			if t.calls.has(obj) && t.privateGets[lastSeg(m.text(strip(obj.Child("function"))))] {
				if a := obj.Child(t.callArgs); a != nil && len(a.NamedChildren()) == 4 {
					return b.resolveExpr(fs, a.NamedChildren()[3], depth+1)
				}
			}
			if tg := b.resolveExpr(fs, obj, depth+1); len(tg.fns) > 0 {
				return target{fns: tg.fns}
			}
		}
		switch {
		case (ot == t.self || ot == "cls" || thisAlias(fs, ot)) && cls != nil:
			tg := b.memberOf([]*class{cls}, prop)
			tg.abstract = ""
			return tg
		case (ot == "super()" || ot == "super") && cls != nil:
			for _, a := range cls.ancestors() {
				if f := a.methods[prop]; f != nil {
					return target{fns: []*fnState{f}}
				}
			}
			return target{fns: externalHookOf(cls, prop)}
		}
		ut := b.resolveExpr(fs, obj, depth+1)
		switch {
		case len(ut.inst) > 0:
			return b.memberOf(ut.inst, prop)
		case ut.mod != nil:
			return b.resolveSym(ut.mod.name, prop, 0)
		case ut.cls != nil: // a class attribute or static method
			return target{fns: methodOf(ut.cls, prop, false)}
		case ut.key != "" && ut.fns == nil && ut.value == nil:
			return target{key: ut.key + "." + prop}
		case ut.value != nil && ut.vmod != nil && len(ut.fns) == 0:
			// StreamUtil.reduce(…) with export const StreamUtil = { readAll, reduce }: a
			// module-level object literal used as a namespace of functions
			if fns := b.objectMember(ut.vmod, strip(ut.value), prop); len(fns) > 0 {
				return target{fns: fns}
			}
		}
		return target{}
	case t.subscripts.has(n):
		// self.handlers[key](…): what the table in the field holds
		return target{fns: b.tableEntries(fs, n)}
	case n.Kind == "call" || n.Kind == "call_expression":
		// a factory's result: the callee's annotated return type (get_trace_provider() ->
		// TraceProvider); super().m is handled above
		fn := n.Child("function")
		if fn == nil || m.text(fn) == "super" {
			return target{}
		}
		ft := b.resolveExpr(fs, fn, depth+1)
		if ft.cls != nil {
			return target{inst: []*class{ft.cls}} // Cls(...).method(): an instance
		}
		if tr := b.returnType(ft.fns); !tr.empty() {
			return target{inst: tr.cls, key: tr.ext}
		}
		return target{}
	}
	return target{}
}

// thisAlias reports whether name is, in JS/TS, a local of fs or of a function enclosing it
// bound once to this (const self = this; written so a function* callback — which does not
// bind a lexical this — can reach the instance: self._streamFromModel(…) in the terminal
// a middleware chain runs, @strands-agents/sdk@1.19.0 dist/src/agent/agent.js:1640-1665;
// const executor = this, dist/src/tools/executors/executor.js:146-151).
func thisAlias(fs *fnState, name string) bool {
	if fs == nil || fs.mod.t.lang == "python" || name == "" {
		return false
	}
	for s := fs; s != nil; s = s.parent {
		n, ok := 0, false
		for _, a := range s.assigns {
			for _, l := range a.lhs {
				if l != name {
					continue
				}
				n++
				if r := strip(a.rhs); r != nil && r.Kind == "this" && !a.iter && !a.aug {
					ok = true
				}
			}
		}
		if s.params[name] || n > 1 || n == 1 && !ok {
			return false
		}
		if ok {
			return true
		}
	}
	return false
}

// returnType is the annotated return type shared by functions (the first that has one).
func (b *builder) returnType(fns []*fnState) typeRef {
	for _, f := range fns {
		if f.async || f.gen {
			continue // a coroutine or generator is not its annotated value until awaited/drained
		}
		if tr := b.typeOf(f.mod, f.node.Child("return_type")); !tr.empty() {
			return tr
		}
	}
	for _, f := range fns {
		if f.async || f.gen || f.mod.t.lang == "python" {
			continue
		}
		if ks := b.bodyReturn(f, 0); len(ks) > 0 {
			return typeRef{cls: ks}
		}
	}
	return typeRef{}
}

// bodyReturn infers, for compiled JavaScript without annotations, the analysed class of
// what every return of f hands back: a constructed instance (return new C(…)), a local
// assigned one (const compiled = new C(…); … return compiled), this (a builder method), or
// the result of a method of one of those or of this whose own body does so, a few calls deep
// (StateGraph.compile() returns this._compileResolved(…), which returns compiled.validate(),
// which returns this: @langchain/langgraph@1.7.3 dist/graph/state.js:433-505). Only syntax
// is read (the functions' Calls may be being built).
func (b *builder) bodyReturn(f *fnState, depth int) []*class {
	if depth > 3 || f.body == nil || f.exprBody || len(f.retNodes) == 0 {
		return nil
	}
	var out []*class
	for _, rn := range f.retNodes {
		if f.mod.t.raises.has(rn) {
			continue // (a throw hands nothing back)
		}
		kids := rn.NamedChildren()
		if len(kids) != 1 {
			return nil
		}
		ks := b.exprClass(f, kids[0], depth)
		if len(ks) == 0 {
			return nil // every return must hand back an instance
		}
		if out == nil {
			out = ks
		} else if !sameClasses(out, ks) {
			return nil
		}
	}
	return out
}

// exprClass is the analysed class of expression e in f, for bodyReturn.
func (b *builder) exprClass(f *fnState, e *syntax.Node, depth int) []*class {
	m := f.mod
	e = unAwait(m, strip(e))
	if e == nil {
		return nil
	}
	switch {
	case e.Kind == "this":
		if k := enclosingClass(f); k != nil {
			return []*class{k}
		}
	case e.Kind == "new_expression":
		return b.valueType(nil, m, e).cls
	case m.t.idents.has(e):
		// a local assigned once, a constructed instance
		name := m.text(e)
		var rhs *syntax.Node
		for _, a := range f.assigns {
			if len(a.lhs) == 1 && a.lhs[0] == name {
				if rhs != nil || a.iter || a.aug || a.rhs == nil {
					return nil
				}
				rhs = a.rhs
			}
		}
		if r := strip(rhs); r != nil && r.Kind == "new_expression" {
			return b.valueType(nil, m, r).cls
		}
	case m.t.calls.has(e):
		fn := strip(e.Child("function"))
		if fn != nil && m.t.idents.has(fn) && depth == 0 {
			// this._toolExecutor = resolveToolExecutor(config?.toolExecutor): a factory
			// function of the set that constructs one of several classes
			return b.factoryReturn(f, m.text(fn))
		}
		if fn == nil || !m.t.members.has(fn) {
			return nil
		}
		obj := strip(fn.Child("object"))
		var recv []*class
		if obj != nil && obj.Kind == "this" {
			if k := enclosingClass(f); k != nil {
				recv = []*class{k}
			}
		} else if obj != nil && m.t.idents.has(obj) {
			recv = b.exprClass(f, obj, depth)
		}
		if len(recv) == 0 {
			return nil
		}
		prop := m.text(fn.Child(m.t.memberProp))
		var out []*class
		for _, k := range recv {
			for _, g := range methodOf(k, prop, false) {
				if g.async || g.gen {
					continue
				}
				if ks := b.bodyReturn(g, depth+1); len(ks) > 0 {
					if out != nil && !sameClasses(out, ks) {
						return nil
					}
					out = ks
				}
			}
		}
		return out
	}
	return nil
}

// factoryReturn is, for a call of the plain function name in f (not a method, not a local),
// the analysed classes its factory body constructs: every non-raising return hands back a
// constructed instance (return new C(…)) or one of its own parameters (an instance the caller
// built, passed through), and at least one constructs. A function choosing among classes
// (switch (kind) { case 'sequential': return new SequentialToolExecutor(); case undefined:
// return new ConcurrentToolExecutor(); default: return kind }, @strands-agents/sdk@1.19.0
// dist/src/agent/agent.js:71-84) returns any of them: a call on what it returns may run
// each class's method. Compiled JavaScript has no return annotation to say so.
func (b *builder) factoryReturn(f *fnState, name string) []*class {
	if f == nil || f.mod.t.lang == "python" {
		return nil
	}
	var sym *sym
	for s := f; s != nil; s = s.parent {
		if len(s.locals[name]) > 0 || s.params[name] {
			return nil
		}
		if im := s.imports[name]; im != nil {
			sym = im
			break
		}
	}
	if sym == nil {
		sym = f.mod.syms[name]
	}
	if sym == nil {
		return nil
	}
	tg := b.symTarget(f.mod, sym, 0)
	if len(tg.fns) != 1 {
		return nil
	}
	g := tg.fns[0]
	if g.async || g.gen || g.body == nil || g.exprBody || len(g.retNodes) == 0 || enclosingClass(g) != nil {
		return nil
	}
	var out []*class
	for _, rn := range g.retNodes {
		if g.mod.t.raises.has(rn) {
			continue
		}
		kids := rn.NamedChildren()
		if len(kids) != 1 {
			return nil
		}
		e := unAwait(g.mod, strip(kids[0]))
		switch {
		case e != nil && e.Kind == "new_expression":
			ks := b.valueType(nil, g.mod, e).cls
			if len(ks) == 0 {
				return nil
			}
			for _, k := range ks {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		case e != nil && g.mod.t.idents.has(e) && g.params[g.mod.text(e)]:
			// (the caller's own instance, handed back)
		default:
			return nil
		}
	}
	return out
}

func sameClasses(a, b []*class) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// classOfReceiver is, in a Python class method (def m(cls, ...), or a closure of one), the
// class its first parameter cls stands for; nil elsewhere.
func classOfReceiver(fs *fnState) *class {
	for s := fs; s != nil; s = s.parent {
		if s.cls != nil {
			if s.mod.t.lang == "python" && s.firstParam() == "cls" {
				return s.cls
			}
			return nil
		}
	}
	return nil
}

func enclosingClass(fs *fnState) *class {
	for s := fs; s != nil; s = s.parent {
		if s.cls != nil {
			return s.cls
		}
	}
	return nil
}

// typeRef is what a type annotation or a constructed value names: analysed classes, or the
// key of a class outside the analysed set ("openai.AsyncOpenAI").
type typeRef struct {
	cls []*class
	ext string
}

func (r typeRef) empty() bool { return len(r.cls) == 0 && r.ext == "" }

// memberOf resolves attribute prop of an instance of ks: the methods (nearest definition and
// subclass overrides), a property's return type, or a field's class; an unknown member is
// keyed on the first class ("pkg.Class.prop") so that profiles can name it.
func (b *builder) memberOf(ks []*class, prop string) target {
	var fns []*fnState
	for _, k := range ks {
		fns = append(fns, methodOf(k, prop, true)...)
	}
	if len(fns) > 0 {
		var tr typeRef
		for _, f := range fns {
			if f.property {
				tr = b.typeOf(f.mod, f.node.Child("return_type"))
				if tr.empty() {
					tr = b.typeOf(f.mod, f.node.Child("type"))
				}
				break
			}
		}
		if !tr.empty() {
			return target{inst: tr.cls, key: tr.ext}
		}
		return target{fns: fns, abstract: ks[0].key + "." + prop}
	}
	for _, k := range ks {
		if tr := b.fieldClass(k, prop); !tr.empty() {
			return target{inst: tr.cls, key: tr.ext}
		}
	}
	for _, k := range ks {
		if c := b.classField(k, prop); c != nil {
			return target{cls: c}
		}
	}
	if len(ks) > 0 {
		return target{key: ks[0].key + "." + prop}
	}
	return target{}
}

// classField returns the class a class-level field of k (or of a base) holds as a value, not
// an instance: runner = RequirementAgentRunner, so that new this.runner(...) constructs it
// and a subclass may swap it.
func (b *builder) classField(k *class, field string) *class {
	for _, c := range append([]*class{k}, k.ancestors()...) {
		if v := strip(c.fields[field]); v != nil && (c.mod.t.idents.has(v) || c.mod.t.members.has(v)) {
			if kc := b.classByExpr(c.mod, c.mod.text(v)); kc != nil {
				return kc
			}
		}
	}
	return nil
}

// typeOf resolves a type annotation to the classes it names: A, A | B, Optional[A],
// Union[A, B], "A" (a forward reference), TS ": A | undefined". Generic containers
// (list[A], dict[str, A]) name no instance; None and primitives are skipped.
func (b *builder) typeOf(m *module, typ *syntax.Node) typeRef {
	if typ == nil {
		return typeRef{}
	}
	return b.typeText(m, m.text(typ), 0)
}

func (b *builder) typeText(m *module, s string, depth int) typeRef {
	var out typeRef
	if depth > 4 {
		return out
	}
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ":"))
	s = strings.Trim(s, `"'`)
	for _, part := range splitTop(s, '|') {
		part = strings.TrimSpace(part)
		for _, w := range []string{"Optional[", "Union[", "typing.Optional[", "typing.Union[", "Annotated[", "typing.Annotated[", "ClassVar[", "Final["} {
			if strings.HasPrefix(part, w) && strings.HasSuffix(part, "]") {
				inner := part[len(w) : len(part)-1]
				alts := splitTop(inner, ',')
				if strings.HasPrefix(w, "Annotated") || strings.HasPrefix(w, "typing.Annotated") {
					alts = alts[:1]
				}
				for _, a := range alts {
					r := b.typeText(m, a, depth+1)
					out.cls = append(out.cls, r.cls...)
					if out.ext == "" {
						out.ext = r.ext
					}
				}
				part = ""
				break
			}
		}
		part = strings.Trim(strings.TrimSpace(part), `"'`)
		if part == "" || strings.ContainsAny(part, "[<({") || primitiveType[part] {
			continue
		}
		if k := b.classByExpr(m, part); k != nil {
			out.cls = append(out.cls, k)
			continue
		}
		parts := strings.Split(part, ".")
		if s := m.syms[parts[0]]; s != nil && out.ext == "" {
			if t := b.symTarget(m, s, 0); t.key != "" && t.fns == nil && t.cls == nil {
				out.ext = strings.Join(append([]string{t.key}, parts[1:]...), ".")
			}
		}
	}
	return out
}

var primitiveType = mk("None", "str", "int", "float", "bool", "bytes", "dict", "list", "Any", "object", "string", "number",
	"boolean", "undefined", "null", "void", "any", "unknown", "never", "Dict", "List", "Callable", "Sequence", "Mapping")

// splitTop splits s at sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '<', '{':
			depth++
		case ']', ')', '>', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// valueType is the class of a value: a constructor call (Class(...), new Class(...)), a
// typed parameter of fs, or the classes of another local.
func (b *builder) valueType(fs *fnState, m *module, v *syntax.Node) typeRef {
	var out typeRef
	for _, alt := range alternatives(m, v) {
		r := strip(alt)
		if r == nil {
			continue
		}
		switch {
		case r.Kind == "call" || r.Kind == "new_expression":
			fn := r.Child("function")
			if fn == nil {
				fn = r.Child("constructor")
			}
			txt := m.text(fn)
			if k := b.classByExpr(m, txt); k != nil {
				out.cls = append(out.cls, k)
			} else if parts := strings.Split(txt, "."); out.ext == "" && m.syms[parts[0]] != nil && isTypeName(parts[len(parts)-1]) {
				if t := b.symTarget(m, m.syms[parts[0]], 0); t.key != "" && t.fns == nil && t.cls == nil {
					out.ext = strings.Join(append([]string{t.key}, parts[1:]...), ".")
				}
			}
		case m.t.idents.has(r) && fs != nil && fs.params[m.text(r)]:
			tr := b.typeOf(m, fs.paramTypes[m.text(r)])
			out.cls = append(out.cls, tr.cls...)
			if out.ext == "" {
				out.ext = tr.ext
			}
		case fs != nil && m.t.lang != "python" && m.t.calls.has(r):
			// this.#graph = workflow.compile({…}) with const workflow = new StateGraph(…):
			// what the method of the constructed local returns (bodyReturn)
			out.cls = append(out.cls, b.exprClass(fs, r, 0)...)
		}
	}
	return out
}

// isTypeName reports whether a name is written like a class (CamelCase).
func isTypeName(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// localClasses returns the classes of fs's typed parameters and of the locals assigned a
// constructed value or annotated (x: T = ...), computed once.
func (b *builder) localClasses(fs *fnState) map[string]typeRef {
	fs.localTypesOnce.Do(func() {
		out := map[string]typeRef{}
		m := fs.mod
		for name, ty := range fs.paramTypes {
			if tr := b.typeOf(m, ty); !tr.empty() {
				out[name] = tr
			}
		}
		for _, a := range fs.assigns {
			if a.iter && len(a.lhs) == 1 && a.rhs != nil && m.t.idents.has(strip(a.rhs)) {
				// for wb in workbench, workbench: Sequence[Workbench]: an element of a
				// parameter annotated as a collection of a class is an instance of it
				if ty := fs.paramTypes[m.text(strip(a.rhs))]; ty != nil {
					if inner := elemType(m.text(ty)); inner != "" {
						if tr := b.typeText(m, inner, 1); !tr.empty() {
							out[a.lhs[0]] = tr
						}
					}
				}
				continue
			}
			if a.iter || len(a.lhs) != 1 || strings.ContainsAny(a.lhs[0], ".[") || a.rhs == nil {
				continue
			}
			tr := b.typeOf(m, a.node.Child("type"))
			if tr.empty() {
				tr = b.valueType(nil, m, a.rhs)
			}
			if r := strip(a.rhs); tr.empty() && r != nil && r.Kind == "call" && m.t.lang == "python" {
				// runner = cls(): a class method constructs an instance of its class
				if fn := strip(r.Child("function")); fn != nil && m.t.idents.has(fn) && m.text(fn) == "cls" {
					if k := classOfReceiver(fs); k != nil {
						tr.cls = []*class{k}
					}
				}
			}
			if r := strip(a.rhs); tr.empty() && r != nil && (r.Kind == "call" || r.Kind == "call_expression") && selfCallee(m, r) {
				// params = self.get_request_params(request_params), def get_request_params(...)
				// -> RequestParams: an instance of the method's annotated return type (only
				// methods of self: a callee on another local would need these very types). The
				// method is looked up on the enclosing class itself, not through resolveExpr:
				// outside a class self is a name, and resolving it would ask for these very
				// locals again (a deadlock on localTypesOnce).
				if k := enclosingClass(fs); k != nil {
					tg := b.memberOf([]*class{k}, m.text(strip(r.Child("function")).Child(m.t.memberProp)))
					if tg.cls != nil {
						tr.cls = []*class{tg.cls}
					} else if rt := b.returnType(tg.fns); len(rt.cls) > 0 {
						tr.cls = rt.cls
					}
				}
			}
			if r := strip(a.rhs); tr.empty() && r != nil && m.t.members.has(r) && m.text(strip(r.Child("object"))) == m.t.self {
				// agent = self.agent: the local holds what the field of the class holds
				// (fieldClass reads declarations and assignments only, never these locals)
				if k := enclosingClass(fs); k != nil {
					tr = b.fieldClass(k, m.text(r.Child(m.t.memberProp)))
				}
			}
			if r := strip(a.rhs); tr.empty() && r != nil && r.Kind == "new_expression" {
				// new this.runner(...): the class a field of the class holds
				if ctor := strip(r.Child("constructor")); ctor != nil && m.t.members.has(ctor) && m.text(strip(ctor.Child("object"))) == m.t.self {
					if k := enclosingClass(fs); k != nil {
						if kc := b.classField(k, m.text(ctor.Child(m.t.memberProp))); kc != nil {
							tr.cls = []*class{kc}
						}
					}
				}
			}
			if !tr.empty() {
				prev := out[a.lhs[0]]
				prev.cls = append(prev.cls, tr.cls...)
				if prev.ext == "" {
					prev.ext = tr.ext
				}
				out[a.lhs[0]] = prev
			}
		}
		fs.localTypes = out
	})
	return fs.localTypes
}

// elemType returns the element type written in a collection annotation (Sequence[T],
// List[T], list[T], Iterable[T], T[], Array<T>, ReadonlyArray<T>), "" for any other.
func elemType(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ":"))
	for _, w := range elemGenerics {
		if strings.HasPrefix(s, w.open) && strings.HasSuffix(s, w.close) {
			inner := s[len(w.open) : len(s)-len(w.close)]
			if len(splitTop(inner, ',')) == 1 {
				return strings.TrimSpace(inner)
			}
		}
	}
	if inner, ok := strings.CutSuffix(s, "[]"); ok && !strings.ContainsAny(inner, "[]<>|()") {
		return inner
	}
	return ""
}

// selfCallee reports whether call's callee is a method of self/this (self.m(...)).
func selfCallee(m *module, call *syntax.Node) bool {
	fn := strip(call.Child("function"))
	return fn != nil && m.t.members.has(fn) && m.text(strip(fn.Child("object"))) == m.t.self
}

// fieldClass finds the classes of self.<field>: a class-level annotation (field: Class), an
// assignment self.field = Class(...) / = a typed parameter / self.field: Class = ... in a
// method of k or its bases.
func (b *builder) fieldClass(k *class, field string) typeRef {
	key := k.key + "\x00" + field
	b.fieldMu.Lock()
	c, ok := b.fieldCls[key]
	b.fieldMu.Unlock()
	if ok {
		return c
	}
	c = b.findFieldClass(k, field, true)
	b.fieldMu.Lock()
	if b.fieldCls == nil {
		b.fieldCls = map[string]typeRef{}
	}
	b.fieldCls[key] = c
	b.fieldMu.Unlock()
	return c
}

func (b *builder) findFieldClass(k *class, field string, cross bool) typeRef {
	for _, c := range append([]*class{k}, k.ancestors()...) {
		if ty := c.annots[field]; ty != nil {
			if tr := b.typeOf(c.mod, ty); !tr.empty() {
				return tr
			}
		}
		if v := c.fields[field]; v != nil {
			if tr := b.valueType(nil, c.mod, v); !tr.empty() {
				return tr
			}
		}
	}
	for _, c := range append([]*class{k}, k.ancestors()...) {
		for _, name := range sortedMethodNames(c) {
			fs := c.methods[name]
			for _, a := range fs.assigns {
				if len(a.lhs) != 1 || a.lhs[0] != fs.mod.t.self+"."+field || a.rhs == nil {
					continue
				}
				tr := b.typeOf(fs.mod, a.node.Child("type"))
				if tr.empty() {
					tr = b.valueType(fs, c.mod, a.rhs)
				}
				if r := strip(a.rhs); len(tr.cls) == 0 && r != nil && fs.mod.t.idents.has(r) && fs.params[fs.mod.text(r)] {
					// self.agent = agent, def __init__(self, agent: Any), built as
					// ToolManager(agent=self) in Agent's __init__: the object handed is the
					// constructing class's instance
					if ks := b.ctorArgClasses(c, fs, fs.mod.text(r)); len(ks) > 0 {
						tr = typeRef{cls: ks}
					}
				}
				if !tr.empty() {
					return tr
				}
			}
		}
	}
	if cross {
		return b.outsideFieldClass(k, field)
	}
	return typeRef{}
}

// outsideFieldClass finds the class of k's field from where another object's method writes
// it on an instance of k: agent.tool_struct = BaseTool(...) in ToolManager.setup_tools, with
// agent = self.agent holding the Agent that built the manager (swarms==16.0.3
// swarms/agents/tool_manager.py:78-86; Agent declares no tool_struct of its own). The
// receiver's class is read from the writer's parameter annotation or the field of the
// writer's own class it was read from (without looking further outside: one level).
func (b *builder) outsideFieldClass(k *class, field string) typeRef {
	for _, w := range b.fieldWrites[field] {
		fs, a := w.fs, w.fs.assigns[w.assign]
		m := fs.mod
		v := strings.TrimSuffix(a.lhs[0], "."+field)
		var recv typeRef
		if ty := fs.paramTypes[v]; ty != nil {
			recv = b.typeOf(m, ty)
		}
		if recv.empty() {
			for _, d := range fs.assigns {
				r := strip(d.rhs)
				if d.iter || len(d.lhs) != 1 || d.lhs[0] != v || r == nil || !m.t.members.has(r) || m.text(strip(r.Child("object"))) != m.t.self {
					continue
				}
				if owner := enclosingClass(fs); owner != nil {
					recv = b.findFieldClass(owner, m.text(r.Child(m.t.memberProp)), false)
				}
				break
			}
		}
		if !slices.Contains(recv.cls, k) {
			continue
		}
		tr := b.typeOf(m, a.node.Child("type"))
		if tr.empty() {
			tr = b.valueType(fs, m, a.rhs)
		}
		if !tr.empty() {
			return tr
		}
	}
	return typeRef{}
}

// fieldWrite is an assignment v.field = … in fs to a field of an object other than its own
// receiver (see outsideFieldClass).
type fieldWrite struct {
	fs     *fnState
	assign int
}

// indexFieldWrites indexes, by field name, the assignments of every function to a field of
// a plain variable other than the receiver (agent.tool_struct = BaseTool(...)). It runs once,
// after every function is lowered and before calls resolve.
func (b *builder) indexFieldWrites() {
	b.fieldWrites = map[string][]fieldWrite{}
	for _, fs := range b.funcs {
		for i, a := range fs.assigns {
			if a.iter || a.aug || len(a.lhs) != 1 || a.rhs == nil {
				continue
			}
			v, field, ok := strings.Cut(a.lhs[0], ".")
			if !ok || v == fs.mod.t.self || v == "" || strings.ContainsAny(field, ".[") || strings.ContainsAny(v, "[(") {
				continue
			}
			b.fieldWrites[field] = append(b.fieldWrites[field], fieldWrite{fs, i})
		}
	}
}

func sortedMethodNames(c *class) []string {
	out := make([]string, 0, len(c.methods))
	for n := range c.methods {
		out = append(out, n)
	}
	sort.Strings(out)
	// the constructor first: that is where fields get their values
	for i, n := range out {
		if n == "__init__" || n == "constructor" {
			copy(out[1:i+1], out[:i])
			out[0] = n
			break
		}
	}
	return out
}

// externalHookOf returns, for super.prop(...) when prop is defined by a base outside the
// set, the class's hooks that base method runs: the template method of a runnable base
// (Runnable.stream drives the subclass's _streamIterator) is named after its public method
// with a leading underscore; the class, its bases and its subclasses may define it.
func externalHookOf(cls *class, prop string) []*fnState {
	external := false
	for _, c := range append([]*class{cls}, cls.ancestors()...) {
		external = external || len(c.bases) > len(c.baseCls)
	}
	if !external || prop == "" {
		return nil
	}
	// the hooks of the class, its bases and its subclasses (this is an instance of any)
	all := append([]*class{cls}, cls.ancestors()...)
	for i := 0; i < len(all) && i < 64; i++ {
		for _, sc := range all[i].subs {
			if !slices.Contains(all, sc) {
				all = append(all, sc)
			}
		}
	}
	var out []*fnState
	for _, c := range all {
		for _, name := range sortedMethodNames(c) {
			if strings.HasPrefix(name, "_"+prop) && len(name) > len(prop)+1 && !strings.HasPrefix(name, "__") {
				out = append(out, c.methods[name])
			}
		}
	}
	return out
}

// ctorSite is a call that may construct a class: Name(...) or new Name(...) in fs.
type ctorSite struct {
	fs   *fnState
	node *syntax.Node
}

// indexCtorSites indexes the calls of every function whose callee's last name is written
// like a class (ToolManager(...), mod.ToolManager(...), new ToolManager(...)), by that name.
// It runs once, after every function is lowered and before calls resolve.
func (b *builder) indexCtorSites() {
	b.ctorSites = map[string][]ctorSite{}
	for _, fs := range b.funcs {
		for _, ci := range fs.callInfo {
			n := ci.node
			if n == nil || !fs.mod.t.calls.has(n) && !fs.mod.t.news.has(n) {
				continue
			}
			if name := lastSeg(calleeText(fs.mod, n)); isTypeName(name) {
				b.ctorSites[name] = append(b.ctorSites[name], ctorSite{fs, n})
			}
		}
	}
}

// ctorArgClasses returns the classes of the objects k's constructor ctor receives as its
// parameter p where the code constructs k handing its own receiver (ToolManager(agent=self),
// new Manager(this), by keyword or position): a helper object built by its owner and keeping
// it (self.agent = agent) holds an instance of the owner's class. Nil when no construction
// hands a receiver.
func (b *builder) ctorArgClasses(k *class, ctor *fnState, p string) []*class {
	if b.ctorSites == nil || !slices.Contains(k.ctor(), ctor) {
		return nil
	}
	var out []*class
	for _, st := range b.ctorSites[k.name] {
		m := st.fs.mod
		if b.classByExpr(m, calleeText(m, st.node)) != k {
			continue
		}
		if a := strip(paramArg(m, st.node, ctor, p)); a == nil || m.text(a) != m.t.self {
			continue
		}
		if owner := enclosingClass(st.fs); owner != nil && owner != k && !slices.Contains(out, owner) {
			out = append(out, owner)
		}
	}
	return out
}

// objectMember returns the functions member prop of a module-level object literal obj (of
// module m) is bound to: a shorthand property naming a function of the module ({ reduce }),
// a key whose value is a function or names one ({ reduce: reduceStream }), or a method
// ({ reduce(s, f) { … } }). Nil when obj is no object literal or prop names no function.
func (b *builder) objectMember(m *module, obj *syntax.Node, prop string) []*fnState {
	if obj == nil || !m.t.objects.has(obj) || prop == "" {
		return nil
	}
	b.fnNodeOnce.Do(func() {
		b.fnByNode = make(map[*syntax.Node]*fnState, len(b.funcs))
		for _, f := range b.funcs {
			if f.node != nil {
				b.fnByNode[f.node] = f
			}
		}
	})
	byName := func(name string) []*fnState {
		if s := m.syms[name]; s != nil && (s.kind == symFunc || s.kind == symImport) {
			return b.symTarget(m, s, 1).fns
		}
		return nil
	}
	for _, pr := range obj.NamedChildren() {
		switch {
		case pr.Kind == "shorthand_property_identifier" && m.text(pr) == prop:
			return byName(prop)
		case m.t.pairs.has(pr) && strings.Trim(m.text(pr.Child("key")), `"'`) == prop:
			v := strip(pr.Child("value"))
			if v == nil {
				return nil
			}
			if f := b.fnByNode[v]; f != nil {
				return []*fnState{f}
			}
			if m.t.idents.has(v) {
				return byName(m.text(v))
			}
			return nil
		case pr.Kind == "method_definition" && m.text(pr.Child("name")) == prop:
			if f := b.fnByNode[pr]; f != nil {
				return []*fnState{f}
			}
			return nil
		}
	}
	return nil
}
