package srcir

import (
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

type builder struct {
	// dslSteps are the step functions of workflow-DSL loops (dslloop.go), set before the
	// flows and only read by them.
	dslSteps map[*fnState]dslStep
	// apps memoizes applications (perelem.go), filled on one goroutine before the flows
	apps    map[*fnState]map[string]application
	prog    *ir.Program
	mods    map[string]*module
	byFile  map[string]*module
	order   []*module
	funcs   []*fnState
	classes map[string]*class // by key
	// methodsByName indexes every method by bare name (for calls on values of unknown type
	// whose method name is defined by exactly one class of the analysed set).
	methodsByName map[string][]*fnState
	// nsRoot marks the analysis roots that are Python namespace packages themselves.
	nsRoot map[string]bool
	// incFields are the field names incremented on some object anywhere; fieldOwners the
	// classes that assign each field of their instance (fieldFacts).
	incFields   map[string]bool
	fieldOwners map[string][]*class
	// helperFlows memoizes followHelper (key: helper, depth, parameters).
	helperFlows sync.Map
	// fieldCls caches fieldClass.
	fieldCls map[string]typeRef
	// ctorSites are the calls that may construct a class, by the class name they call
	// (ToolManager(agent=self)), indexed once all functions are lowered (see ctorArgClasses).
	ctorSites map[string][]ctorSite
	// fieldWrites are the assignments to a field of another object, by field name
	// (indexFieldWrites).
	fieldWrites map[string][]fieldWrite
	fieldMu     sync.Mutex
	// envs are the defaults read from the environment (ir.Program.EnvDefaults), by the
	// position literal returns for them.
	envs  map[ir.Pos]string
	envMu sync.Mutex
	// callSites are, while stopSets runs, the call sites of each function by its id.
	callSites [][]callSite
	// pkgMods caches, by the name of a Python package whose __init__ is not analysed, the
	// analysed modules inside it (see unloadedInit).
	pkgMods map[string][]*module
	pkgMu   sync.Mutex
	// fnByNode indexes every function by its node (built once, on first use, after the
	// declarations: see objectMember).
	fnByNode   map[*syntax.Node]*fnState
	fnNodeOnce sync.Once
	// specs are the bare import specifiers resolved to the installed files of dependencies
	// (deps.go), by specifier: "ai" -> .../node_modules/ai/dist/index.js.
	specs map[string]string
}

type module struct {
	name  string
	isPkg bool
	file  string
	tree  *syntax.Tree
	t     *table
	syms  map[string]*sym
	star  []string // modules whose names are re-exported (export * from, from x import *)
	lines []string
	// exported are the names a JS/TS module exports.
	exported        map[string]bool
	hasExportSyntax bool
	// aliases are the top-level names bound to another top-level name (let Agent = _Agent).
	aliases map[string][]string
	// dep marks a dependency's module (deps.go), read because the analysed code reaches it.
	dep bool
}

type symKind int

const (
	symFunc symKind = iota + 1
	symClass
	symValue // a module-level variable (constant or alias)
	symImport
	symModule // an imported module
)

type sym struct {
	kind  symKind
	fn    *fnState
	cls   *class
	value *syntax.Node // symValue
	pos   ir.Pos
	// symImport: the module spec and the name imported from it ("" for the module itself)
	from, name string
	mod        *module
}

type class struct {
	name, key string
	mod       *module
	node      *syntax.Node
	pos       ir.Pos
	bases     []string // base expressions as written
	baseCls   []*class
	subs      []*class
	methods   map[string]*fnState
	// fields are class-level declarations with a value (dataclass/pydantic fields, TS fields).
	fields map[string]*syntax.Node
	// annots are the type annotations of class-level fields (model: Model, client?: Client).
	annots   map[string]*syntax.Node
	exported bool
}

// fnState is the per-function working state.
// launch is a kid function to be marked as launched with conc ("all", "go").
type launch struct {
	k    *fnState
	conc string
}

type fnState struct {
	// launches are the local function values this function hands by name to a concurrent
	// member (Promise.allSettled(calls.map(runToolCall))), recorded while calls resolve in
	// parallel and applied after (resolveCalls): another worker reads the kids' Launch.
	launches []launch
	// inherit are the calls (ids in f.Calls) that run concurrently if a function around
	// them is launched, decided after the launches are known.
	inherit []int
	// imports are the names a Python import statement in the body binds (def f(): from ..
	// import functions), resolved like the module's own imports.
	imports map[string]*sym
	f       *ir.Func
	mod     *module
	node    *syntax.Node // the function node
	body    *syntax.Node
	cls     *class
	parent  *fnState
	name    string // bare name ("" for anonymous)
	// locals are nested named functions and local function aliases by name.
	locals map[string][]*fnState
	// paramDefaults maps parameters to their default values.
	paramDefaults map[string]*syntax.Node
	// paramProps are a TypeScript constructor's parameter properties (constructor(private
	// maxIter = 0)): each is also a field of the instance.
	paramProps map[string]bool
	params     map[string]bool
	// paramTypes are the parameters' type annotations.
	paramTypes map[string]*syntax.Node
	// counterParams are parameters a caller's loop passes its counter to (counterArgs).
	counterParams map[string]bool
	// property is true for a method read as an attribute (@property, a TS getter).
	property bool
	// localTypes caches the classes of local variables (see localClasses).
	localTypes     map[string]typeRef
	localTypesOnce sync.Once
	kids           []*fnState
	gen, async     bool
	// patNames are, by parameter index, the options a destructured object parameter binds
	// (option key -> local name: { model: modelArg, tools } -> model: modelArg, tools: tools)
	patNames []map[string]string
	// yieldsOwn: a generator that yields a value outside its loops over items (hasYield)
	yieldsOwn bool
	// raises is true when every path of the function raises (markRaises); raiseVals are
	// what it raises.
	raises    bool
	raiseVals []ir.Value
	// recorded while lowering
	loopNodes []*syntax.Node
	callNodes []*syntax.Node
	callInfo  []callInfo
	retNodes  []*syntax.Node
	// fallbacks are the literals bound operands fall back to (branches)
	fallbacks []fallback
	// wraps are the flows of calls that belong to the calls their callbacks return (flows)
	wraps       []wrapFlow
	pairs       []*syntax.Node // the key: value members of object and dictionary literals
	assigns     []assign
	conds       []cond
	incs        []inc
	kidsByNode  map[*syntax.Node]*fnState
	exprBody    bool
	rangeBounds []rangeBound
	retLoops    [][]int
	// callOf maps a call node to its index in f.Calls.
	callOf map[*syntax.Node]int
	idx    *fnIndex
	// perElem are, by call index, the callbacks the call hands to a helper that applies
	// them per element of another argument (perElementLaunches).
	perElem map[int][]perElemArg
	// lookup memoizes lookupParams (it reads only what declare and lower set, and flows ask
	// it of every target of every call they follow, from every worker).
	lookupOnce sync.Once
	lookup     lookupSig
}

// lookupSig is what lookupParams found: the table's and the key's parameter positions.
type lookupSig struct {
	table, key int
	ok         bool
}

func (b *builder) file(m *module) *syntax.Tree { return m.tree }

func (m *module) text(n *syntax.Node) string { return m.tree.Text(n) }

func (m *module) pos(n *syntax.Node) ir.Pos {
	if n == nil {
		return ir.Pos{}
	}
	return ir.Pos{File: m.file, Line: n.Line}
}

// source returns the trimmed source line of n.
func (m *module) source(n *syntax.Node) string {
	if n == nil {
		return ""
	}
	if n.Line < 1 || n.Line > len(m.lines) {
		return ""
	}
	return clip(strings.TrimSpace(m.lines[n.Line-1]), 120)
}

// clip shortens s to n runes (n-1 and an ellipsis when it has more), reading no further than
// the (n+1)th rune: a line of a minified bundle is the whole module (kaibanjs@0.23.1
// dist/bundle.mjs: 263 lines, one of 766 000 characters), and each call's source is a clip
// of its line.
func clip(s string, n int) string {
	if len(s) <= n {
		return s // no more runes than bytes
	}
	cut, count := 0, 0
	for i := range s {
		if count == n-1 {
			cut = i
		}
		if count == n {
			return s[:cut] + "…"
		}
		count++
	}
	return s
}

// short returns a readable module name: the last component.
func (m *module) short() string {
	n := m.name
	if i := strings.LastIndexAny(n, "./"); i >= 0 {
		n = n[i+1:]
	}
	if n == "index" || n == "__init__" || n == "" {
		d := strings.TrimRight(m.name[:max(0, len(m.name)-len(n))], "./")
		if i := strings.LastIndexAny(d, "./"); i >= 0 {
			d = d[i+1:]
		}
		if d != "" {
			return d
		}
	}
	return n
}

// declare records a module's top-level symbols and every function of the file.
func (b *builder) declare(m *module) {
	m.exported = map[string]bool{}
	m.aliases = map[string][]string{}
	desugarAsync(m)
	b.topLevel(m, m.tree.Root, false)
	b.walkDecl(m, m.tree.Root, nil, nil)
}

func (b *builder) newFn(m *module, n *syntax.Node, cls *class, parent *fnState, name string) *fnState {

	f := &ir.Func{ID: len(b.prog.Funcs), Parent: -1, BodyOf: -1, Pkg: m.name, Pos: m.pos(n), Source: m.source(n)}
	fs := &fnState{f: f, mod: m, node: n, cls: cls, parent: parent, name: name, locals: map[string][]*fnState{},
		paramDefaults: map[string]*syntax.Node{}, params: map[string]bool{}, paramTypes: map[string]*syntax.Node{}}
	fs.body = n.Child("body")
	fs.async = n.Has("async")
	fs.gen = n.Has("*") || strings.HasPrefix(n.Kind, "generator")
	switch {
	case parent != nil && cls != nil:
		// a method of a class declared in a function: the class's (not a closure the
		// function runs), resolving names in the function's scope
		f.Name = cls.key + "." + name
		f.Key = f.Name
		f.Short = m.short() + "." + cls.name + "." + name
		f.Recv = cls.name
		if name != "" {
			cls.methods[name] = fs
		}
	case parent != nil:
		f.Parent = parent.f.ID
		root := parent
		for root.parent != nil && root.cls == nil {
			root = root.parent
		}
		if name != "" {
			f.Name = parent.f.Name + "." + name
			f.Short = root.f.Short + "." + name
		} else {
			f.Name = parent.f.Name + "$" + itoa(len(parent.kids)+1)
			f.Short = root.f.Short + " (closure)"
		}
		parent.kids = append(parent.kids, fs)
		if name != "" {
			parent.locals[name] = append(parent.locals[name], fs)
		}
	case cls != nil:
		f.Name = cls.key + "." + name
		f.Key = f.Name
		f.Short = m.short() + "." + cls.name + "." + name
		f.Recv = cls.name
		if name != "" {
			cls.methods[name] = fs
		}
		f.Exported = cls.exported && exportedName(name) && !hasModifier(m, n, "private", "protected")
	default:
		if name == "" {
			name = "<anonymous>@" + itoa(n.Line)
		}
		f.Name = m.name + "." + name
		f.Key = f.Name
		f.Short = m.short() + "." + name
		f.Exported = exportedName(name) && b.moduleExports(m, name)
	}
	f.Test = isTestFile(m.file)
	b.params(fs)
	if y := b.hasYield(fs); fs.gen || y {
		fs.gen = true
		if fs.async {
			f.Results = []string{"stream"}
		} else {
			f.Results = []string{"iterator"}
		}
	}
	b.prog.Funcs = append(b.prog.Funcs, f)
	b.funcs = append(b.funcs, fs)
	return fs
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func exportedName(n string) bool {
	return n != "" && (!strings.HasPrefix(n, "_") || strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__") && n != "__init__") &&
		!strings.HasPrefix(n, "#")
}

// moduleExports reports whether a top-level name is visible from other modules.
func (b *builder) moduleExports(m *module, name string) bool {
	if m.t.lang == "python" {
		for _, part := range strings.Split(m.name, ".") {
			if strings.HasPrefix(part, "_") && !strings.HasPrefix(part, "__") {
				return false
			}
		}
		return true
	}
	return m.exported[name] || !m.hasExportSyntax
}

// paramProperty reports whether a TypeScript parameter declares a field of the instance
// too (an accessibility modifier or readonly before its name).
func paramProperty(p *syntax.Node) bool {
	for _, c := range p.Children {
		if c.Kind == "accessibility_modifier" || c.Kind == "readonly" || c.Kind == "override_modifier" {
			return true
		}
	}
	return false
}

func hasModifier(m *module, n *syntax.Node, mods ...string) bool {
	for _, c := range n.Children {
		if c.Kind == "accessibility_modifier" {
			t := m.text(c)
			for _, x := range mods {
				if t == x {
					return true
				}
			}
		}
	}
	if nm := n.Child("name"); nm != nil && nm.Kind == "private_property_identifier" {
		return true
	}
	return false
}

func isTestFile(f string) bool {
	base := filepath.Base(f)
	if strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py" {
		return true
	}
	for _, s := range []string{".test.", ".spec."} {
		if strings.Contains(base, s) {
			return true
		}
	}
	for _, d := range strings.Split(filepath.ToSlash(filepath.Dir(f)), "/") {
		if d == "__tests__" || d == "tests" || d == "test" {
			return true
		}
	}
	return false
}

// hasYield reports whether the body yields; it sets fs.yieldsOwn when a yield is outside
// every loop over items (one value the generator computes, not the items of something it
// iterates: a stream's events passed on).
func (b *builder) hasYield(fs *fnState) bool {
	found := false
	t := fs.mod.t
	var walk func(n *syntax.Node, inFor bool)
	walk = func(n *syntax.Node, inFor bool) {
		if n == nil || found && fs.yieldsOwn {
			return
		}
		if t.yields.has(n) {
			found = true
			fs.yieldsOwn = fs.yieldsOwn || !inFor && !n.Has("*") && !n.Has("from")
			return
		}
		if t.foreachs.has(n) {
			// a loop over items (a stream's events, a collection); for i in range(n)
			// repeats a computation
			r := strip(n.Child("right"))
			inFor = inFor || !(t.calls.has(r) && fs.mod.text(r.Child("function")) == "range")
		}
		for _, c := range n.Children {
			if t.funcs.has(c) || t.lambdas.has(c) || t.classes.has(c) {
				continue
			}
			walk(c, inFor)
		}
	}
	walk(fs.body, false)
	return found
}

// params records parameters, their kinds and defaults.
func (b *builder) params(fs *fnState) {
	m := fs.mod
	ps := fs.node.Child("parameters")
	if ps == nil {
		ps = fs.node.Child("parameter")
	}
	if ps == nil {
		return
	}
	list := ps.NamedChildren()
	if ps.Kind == "identifier" {
		list = []*syntax.Node{ps}
	}
	for i, p := range list {
		var name string
		var def, typ *syntax.Node
		switch p.Kind {
		case "identifier":
			name = m.text(p)
		case "list_splat_pattern", "dictionary_splat_pattern", "rest_pattern":
			name = strings.TrimLeft(m.text(p), "*.")
		case "typed_parameter":
			for _, c := range p.NamedChildren() {
				if c.Kind == "identifier" || c.Kind == "list_splat_pattern" || c.Kind == "dictionary_splat_pattern" {
					name = strings.TrimLeft(m.text(c), "*")
					break
				}
			}
			typ = p.Child("type")
		case "default_parameter", "typed_default_parameter":
			name, def, typ = m.text(p.Child("name")), p.Child("value"), p.Child("type")
		case "required_parameter", "optional_parameter":
			pat := p.Child("pattern")
			def, typ = p.Child("value"), p.Child("type")
			if pat != nil && m.t.idents.has(pat) && paramProperty(p) {
				if fs.paramProps == nil {
					fs.paramProps = map[string]bool{}
				}
				fs.paramProps[m.text(pat)] = true
			}
			if pat != nil && pat.Kind == "object_pattern" {
				b.patternDefaults(fs, pat)
				name = m.text(pat)
			} else {
				name = m.text(pat)
			}
		case "assignment_pattern":
			name, def = m.text(p.Child("left")), p.Child("right")
			if l := p.Child("left"); l != nil && l.Kind == "object_pattern" {
				b.patternDefaults(fs, l)
			}
		case "object_pattern":
			b.patternDefaults(fs, p)
			name = m.text(p)
		default:
			continue
		}
		if i == 0 && fs.cls != nil && (name == "self" || name == "cls") {
			continue
		}
		fs.params[name] = true
		if typ != nil {
			fs.paramTypes[name] = typ
		}
		if def != nil {
			fs.paramDefaults[name] = def
		}
		kind := "value"
		tt := strings.ToLower(m.text(typ))
		ln := strings.ToLower(name)
		switch {
		case strings.Contains(tt, "abortsignal") || ln == "signal" || strings.HasSuffix(ln, "signal") ||
			strings.Contains(ln, "cancel") && (strings.Contains(ln, "token") || strings.Contains(ln, "event")):
			kind = "context"
		case tt == "int" || tt == "number" || tt == "float":
			kind = "int"
		case tt == "str" || tt == "string":
			kind = "string"
		case strings.Contains(tt, "callable") || strings.Contains(tt, "=>"):
			kind = "func"
		}
		fs.f.Params = append(fs.f.Params, ir.Param{Name: name, Kind: kind})
	}
}

// patternDefaults records the defaults of a destructured options parameter
// ({ maxTurns = DEFAULT_MAX_TURNS }).
func (b *builder) patternDefaults(fs *fnState, pat *syntax.Node) {
	idx := len(fs.f.Params)
	for len(fs.patNames) <= idx {
		fs.patNames = append(fs.patNames, nil)
	}
	names := map[string]string{}
	fs.patNames[idx] = names
	m := fs.mod
	for _, c := range pat.NamedChildren() {
		switch c.Kind {
		case "object_assignment_pattern":
			l := c.Child("left")
			fs.paramDefaults[m.text(l)] = c.Child("right")
			fs.params[m.text(l)] = true
			names[m.text(l)] = m.text(l)
		case "shorthand_property_identifier_pattern":
			fs.params[m.text(c)] = true
			names[m.text(c)] = m.text(c)
		case "pair_pattern":
			key := strings.Trim(m.text(c.Child("key")), `"'`)
			v := c.Child("value")
			if v != nil && v.Kind == "assignment_pattern" {
				fs.paramDefaults[m.text(v.Child("left"))] = v.Child("right")
				fs.params[m.text(v.Child("left"))] = true
				names[key] = m.text(v.Child("left"))
			} else if v != nil {
				fs.params[m.text(v)] = true
				if m.t.idents.has(v) {
					names[key] = m.text(v)
				}
			}
		}
	}
}

// walkDecl creates the Funcs and classes of a subtree in source order.
func (b *builder) walkDecl(m *module, n *syntax.Node, cls *class, parent *fnState) {
	t := m.t
	for _, c := range n.Children {
		switch {
		case c.Named && t.calls.has(c) && parent == nil && cls == nil && iife(m, c) != nil:
			// var X = /* @__PURE__ */ (() => { class X { … } … return X; })(): how compilers
			// wrap a class with static initializers; what the function declares is the
			// module's (its classes and functions are top-level)
			fn := iife(m, c)
			b.newFn(m, fn, nil, nil, "")
			b.walkDecl(m, fn, nil, nil)
			b.walkDecl(m, c.Child("arguments"), nil, nil)
		case c.Named && (t.funcs.has(c) || t.lambdas.has(c)):
			name := b.fnName(m, c, n)
			var fs *fnState
			if cls != nil && (c.Kind == "method_definition" || c.Kind == "function_definition") && classBodyOf(cls, c) {
				// a method (of a class declared in a function too: a method of that class,
				// in the function's scope)
				fs = b.newFn(m, c, cls, parent, name)
			} else if parent == nil && cls == nil && name != "" && !t.lambdas.has(c) && c.Kind != "function_expression" {
				fs = b.newFn(m, c, nil, nil, name)
				if s := m.syms[name]; s == nil || s.kind != symFunc {
					m.syms[name] = &sym{kind: symFunc, fn: fs, pos: m.pos(c)}
				}
			} else if parent == nil && cls == nil && name != "" && n.Kind == "variable_declarator" {
				fs = b.newFn(m, c, nil, nil, name)
				m.syms[name] = &sym{kind: symFunc, fn: fs, pos: m.pos(c)}
			} else if parent == nil && cls != nil {
				fs = b.newFn(m, c, cls, nil, name) // a field holding an arrow function
			} else if parent == nil {
				fs = b.newFn(m, c, nil, nil, name)
			} else if k := ctorMethod(m, c, n, parent); k != nil && name != "" {
				// this.generateContent = async (params) => { … } in a constructor: a method
				// of the instance (tsc's class-field arrows, hand-written JS), in the
				// constructor's scope
				fs = b.newFn(m, c, k, parent, name)
				fs.f.Exported = k.exported && exportedName(name)
			} else {
				fs = b.newFn(m, c, nil, parent, name)
			}
			fs.property = isProperty(m, c, n)
			b.walkDecl(m, c, nil, fs)
		case c.Named && t.classes.has(c):
			k := b.newClass(m, c, parent, n)
			b.walkDecl(m, c, k, parent)
		default:
			b.walkDecl(m, c, cls, parent)
		}
	}
}

// ctorMethod returns the class whose constructor parent is when function node c is the
// value a statement of the constructor's own body assigns to a field of this
// (this.generateContent = async (params) => { … }: @google/genai@3.3.0
// dist/node/index.mjs:15980, Models' constructor); nil otherwise, and for Python (a lambda
// in __init__ is a value, not a method), for a method of that name the class already has, and
// for an assignment under a branch or inside a nested block.
func ctorMethod(m *module, c, n *syntax.Node, parent *fnState) *class {
	if m.t.lang == "python" || parent.cls == nil || parent.name != "constructor" || n.Kind != "assignment_expression" || n.Child("right") != c {
		return nil
	}
	l := strip(n.Child("left"))
	if l == nil || !m.t.members.has(l) || strip(l.Child("object")) == nil || strip(l.Child("object")).Kind != "this" {
		return nil
	}
	if parent.cls.methods[m.text(l.Child(m.t.memberProp))] != nil {
		return nil
	}
	// the assignment is a statement of the constructor's body itself
	stmt := n.Parent
	if stmt == nil || stmt.Kind != "expression_statement" || stmt.Parent != parent.body {
		return nil
	}
	return parent.cls
}

// iife returns the function a call calls where it is written ((() => { … })(),
// (function () { … })()), nil if none.
func iife(m *module, call *syntax.Node) *syntax.Node {
	fn := call.Child("function")
	if fn == nil || fn.Kind != "parenthesized_expression" {
		return nil
	}
	if fn = strip(fn); fn != nil && (m.t.funcs.has(fn) || m.t.lambdas.has(fn)) {
		return fn
	}
	return nil
}

// classBodyOf reports whether function node c is a member of class k's body.
func classBodyOf(k *class, c *syntax.Node) bool {
	body := k.node.Child(k.mod.t.classBody)
	if body == nil {
		return false
	}
	for _, x := range body.Children {
		if x == c {
			return true
		}
		if x.Kind == "decorated_definition" {
			for _, y := range x.Children {
				if y == c {
					return true
				}
			}
		}
	}
	return false
}

// fnName names a function node: its own name, or the variable, field or key it is bound to.
func (b *builder) fnName(m *module, n, parent *syntax.Node) string {
	if nm := n.Child("name"); nm != nil {
		if nm.Kind == "computed_property_name" {
			// [(_X_a = new WeakMap(), _X_send = function …, Symbol.asyncIterator)]: compiled
			// private state assigned in the key; the key is the sequence's last value
			if k := nm.NamedChildren(); len(k) == 1 {
				if e := k[0]; e.Kind == "parenthesized_expression" && len(e.NamedChildren()) == 1 {
					if sq := e.NamedChildren()[0]; m.t.seqs.has(sq) {
						for len(sq.NamedChildren()) > 0 && m.t.seqs.has(sq) {
							sq = sq.NamedChildren()[len(sq.NamedChildren())-1]
						}
						return "[" + m.text(sq) + "]"
					}
				}
			}
		}
		return m.text(nm)
	}
	switch parent.Kind {
	case "variable_declarator", "public_field_definition", "field_definition":
		if nm := parent.Child("name"); nm != nil {
			return m.text(nm)
		}
		if nm := parent.Child("property"); nm != nil {
			return m.text(nm)
		}
	case "pair":
		return strings.Trim(m.text(parent.Child("key")), `"'`)
	case "assignment_expression", "assignment":
		l := m.text(parent.Child("left"))
		if i := strings.LastIndexByte(l, '.'); i >= 0 {
			l = l[i+1:]
		}
		return l
	}
	return ""
}

func (b *builder) newClass(m *module, n *syntax.Node, parent *fnState, holder *syntax.Node) *class {
	name := m.text(n.Child("name"))
	inner := ""
	if n.Kind == "class" && name != "" {
		// var LlmEngine = class _LlmEngine {} (esbuild keeps the inner name of a class that
		// refers to itself): the class is named by what it is bound to, the inner name
		// refers to it too
		inner, name = name, ""
	}
	if name == "" && n.Kind == "class" {
		// var Pregel = class extends Runnable {} (how bundlers and tsc emit classes), or
		// exports.Pregel = class {}: the class is named by what it is bound to
		switch {
		case holder != nil && holder.Kind == "variable_declarator" && holder.Child("value") == n:
			if nm := holder.Child("name"); nm != nil && m.t.idents.has(nm) {
				name = m.text(nm)
			}
		case holder != nil && holder.Kind == "assignment_expression" && holder.Child("right") == n:
			if l := holder.Child("left"); l != nil && (m.t.idents.has(l) || m.t.members.has(l)) {
				name = lastSeg(m.text(l))
			}
		}
		if name == "" {
			name = inner
		}
		if name == "" {
			name = "<class>@" + itoa(n.Line)
		}
		if parent == nil && !b.moduleExports(m, name) {
			// const _Agent = class _Agent {}; let Agent = _Agent (esbuild, a class with
			// static members or decorators): the class is what the module exports it as
			for _, a := range m.aliases[name] {
				if b.moduleExports(m, a) {
					inner, name = name, a
					break
				}
			}
		}
	}
	k := &class{name: name, mod: m, node: n, pos: m.pos(n), methods: map[string]*fnState{}, fields: map[string]*syntax.Node{},
		annots: map[string]*syntax.Node{}}
	k.key = m.name + "." + name
	if parent != nil {
		k.key = parent.f.Name + "." + name
	}
	for b.classes[k.key] != nil {
		k.key += "'"
	}
	b.classes[k.key] = k
	k.exported = parent == nil && exportedName(name) && b.moduleExports(m, name)
	// bases
	if m.t.lang == "python" {
		if sc := n.Child("superclasses"); sc != nil {
			for _, a := range sc.NamedChildren() {
				if a.Kind != "keyword_argument" {
					k.bases = append(k.bases, m.text(a))
				}
			}
		}
	} else {
		for _, c := range n.Children {
			if c.Kind == "class_heritage" {
				for _, h := range c.Children {
					if h.Kind == "extends_clause" {
						if v := h.Child("value"); v != nil {
							k.bases = append(k.bases, m.text(v))
						}
					} else if h.Named && h.Kind != "implements_clause" {
						k.bases = append(k.bases, m.text(h)) // JS grammar: class_heritage holds the expression
					}
				}
			}
		}
	}
	// fields
	if body := n.Child("body"); body != nil {
		for _, s := range body.Children {
			switch {
			case s.Kind == "expression_statement" && len(s.Children) > 0 && s.Children[0].Kind == "assignment":
				a := s.Children[0]
				if l := a.Child("left"); l != nil && l.Kind == "identifier" && a.Child("right") != nil {
					k.fields[m.text(l)] = a.Child("right")
				}
				if l, ty := a.Child("left"), a.Child("type"); l != nil && l.Kind == "identifier" && ty != nil {
					k.annots[m.text(l)] = ty
				}
			case m.t.fieldDefs.has(s):
				nm := s.Child("name")
				if nm == nil {
					nm = s.Child("property")
				}
				if v := s.Child("value"); nm != nil && v != nil {
					k.fields[m.text(nm)] = v
				}
				if ty := s.Child("type"); nm != nil && ty != nil {
					k.annots[m.text(nm)] = ty
				}
			}
		}
	}
	b.helperFields(m, k)
	if parent == nil && name != "" {
		m.syms[name] = &sym{kind: symClass, cls: k, pos: m.pos(n)}
		if s := m.syms[inner]; inner != "" && inner != name && (s == nil || s.kind == symValue && s.value == n) {
			m.syms[inner] = m.syms[name]
		}
	}
	return k
}

// helperFields records the fields a compiled constructor defines through a helper:
// __publicField(this, "maxTurns", DEFAULT_MAX_TURNS) (esbuild), _defineProperty(this, …)
// (babel), _define_property(this, …) (swc), written for the class field maxTurns =
// DEFAULT_MAX_TURNS.
func (b *builder) helperFields(m *module, k *class) {
	if len(m.t.fieldDefines) == 0 {
		return
	}
	body := k.node.Child(m.t.classBody)
	for _, meth := range body.NamedChildren() {
		if meth.Kind != "method_definition" || m.text(meth.Child("name")) != "constructor" {
			continue
		}
		var visit func(n *syntax.Node)
		visit = func(n *syntax.Node) {
			switch {
			case n == nil:
			case m.t.exprStmts.has(n), m.t.seqs.has(n), n.Kind == "parenthesized_expression":
				for _, c := range n.NamedChildren() {
					visit(c)
				}
			case m.t.calls.has(n) && m.t.fieldDefines[lastSeg(m.text(n.Child("function")))]:
				args := n.Child(m.t.callArgs).NamedChildren()
				if len(args) == 3 && m.text(args[0]) == m.t.self && m.t.stringKinds.has(args[1]) {
					if f := unquote(m.text(args[1])); f != "" && k.fields[f] == nil {
						k.fields[f] = args[2]
					}
				}
			}
		}
		for _, st := range meth.Child("body").NamedChildren() {
			visit(st)
		}
	}
}

// topLevel records imports, module variables and exports of a module's top level (and of
// the blocks of top-level if/try statements).
func (b *builder) topLevel(m *module, n *syntax.Node, exported bool) {
	t := m.t
	for _, c := range n.Children {
		switch c.Kind {
		case "import_statement":
			if t.lang == "python" {
				for _, nm := range c.ChildrenOf("name") {
					if nm.Kind == "aliased_import" {
						m.syms[m.text(nm.Child("alias"))] = &sym{kind: symModule, from: m.text(nm.Child("name")), pos: m.pos(c)}
					} else {
						full := m.text(nm)
						first, _, _ := strings.Cut(full, ".")
						m.syms[first] = &sym{kind: symModule, from: first, pos: m.pos(c)}
					}
				}
				continue
			}
			b.jsImport(m, c)
		case "import_from_statement", "future_import_statement":
			from := m.text(c.Child("module_name"))
			spec := b.pyResolve(m, from)
			for _, nm := range c.ChildrenOf("name") {
				name, alias := m.text(nm), m.text(nm)
				if nm.Kind == "aliased_import" {
					name, alias = m.text(nm.Child("name")), m.text(nm.Child("alias"))
				}
				m.syms[alias] = &sym{kind: symImport, from: spec, name: name, pos: m.pos(c)}
			}
			for _, w := range c.Children {
				if w.Kind == "wildcard_import" {
					m.star = append(m.star, spec)
				}
			}
		case "export_statement":
			m.hasExportSyntax = true
			src := c.Child("source")
			if d := c.Child("declaration"); d != nil {
				for _, nm := range declNames(m, d) {
					m.exported[nm] = true
					if c.Has("default") && m.syms["default"] == nil {
						// export default class Agent {}: the module's default is Agent
						m.exported["default"] = true
						m.syms["default"] = &sym{kind: symImport, from: m.name, name: nm, pos: m.pos(c)}
					}
				}
				b.topLevel(m, &syntax.Node{Children: []*syntax.Node{d}}, true)
				continue
			}
			if v := c.Child("value"); v != nil {
				m.exported["default"] = true
				if v.Kind == "identifier" {
					m.exported[m.text(v)] = true
					if m.text(v) != "default" && m.syms["default"] == nil {
						// export default runTool: the module's default is runTool
						m.syms["default"] = &sym{kind: symImport, from: m.name, name: m.text(v), pos: m.pos(c)}
					}
				}
				continue
			}
			clause := false
			for _, e := range c.Children {
				if e.Kind != "export_clause" {
					continue
				}
				clause = true
				for _, sp := range e.NamedChildren() {
					name := m.text(sp.Child("name"))
					alias := name
					if a := sp.Child("alias"); a != nil {
						alias = m.text(a)
					}
					m.exported[alias] = true
					if src != nil {
						m.syms[alias] = &sym{kind: symImport, from: b.jsResolve(m, unquote(m.text(src))), name: name, pos: m.pos(c)}
					} else if alias != name {
						m.syms[alias] = &sym{kind: symImport, from: m.name, name: name, pos: m.pos(c)}
					}
				}
			}
			if !clause && src != nil { // export * from './x'
				m.star = append(m.star, b.jsResolve(m, unquote(m.text(src))))
			}
		case "lexical_declaration", "variable_declaration":
			for _, d := range c.NamedChildren() {
				if d.Kind != "variable_declarator" {
					continue
				}
				name, val := d.Child("name"), d.Child("value")
				if val == nil {
					continue
				}
				if spec, ok := requireOf(m, val); ok {
					b.bindRequire(m, name, spec, c)
					continue
				}
				if t.assigns.has(val) && t.lang != "python" {
					// var _default = exports.default = runTool (babel)
					b.cjsExport(m, val)
				}
				if name.Kind == "identifier" && !t.funcs.has(val) && !t.lambdas.has(val) {
					m.syms[m.text(name)] = &sym{kind: symValue, value: val, pos: m.pos(d)}
					if val.Kind == "identifier" {
						m.aliases[m.text(val)] = append(m.aliases[m.text(val)], m.text(name))
					}
				}
				if exported {
					m.exported[m.text(name)] = true
				}
			}
		case "expression_statement":
			if len(c.Children) == 0 {
				continue
			}
			e := c.Children[0]
			switch e.Kind {
			case "assignment":
				l, r := e.Child("left"), e.Child("right")
				if l != nil && l.Kind == "identifier" && r != nil && !t.lambdas.has(r) {
					m.syms[m.text(l)] = &sym{kind: symValue, value: r, pos: m.pos(e)}
				}
			case "assignment_expression":
				b.cjsExport(m, e)
			case "call_expression":
				// tsc's __exportStar(require("./x"), exports)
				fn := m.text(e.Child("function"))
				if strings.HasSuffix(fn, "__exportStar") || strings.HasSuffix(fn, "__export") {
					if args := e.Child("arguments"); args != nil && len(args.NamedChildren()) > 0 {
						if spec, ok := requireOf(m, args.NamedChildren()[0]); ok {
							m.star = append(m.star, b.jsResolve(m, spec))
							m.hasExportSyntax = true
						} else if len(args.NamedChildren()) == 2 {
							b.exportMap(m, args.NamedChildren()[1], c)
						}
					}
				} else if args := e.Child("arguments").NamedChildren(); fn == "Object.defineProperty" && len(args) == 3 && m.text(args[0]) == "exports" {
					// tsc's re-export: Object.defineProperty(exports, "Agent", { enumerable:
					// true, get: function () { return agent_1.Agent; } })
					b.cjsGetter(m, unquote(m.text(args[1])), args[2], e)
				} else if len(args) == 2 && t.idents.has(args[0]) && (emptyObject(m, args[0]) || m.text(args[0]) == "exports") {
					// swc's _export(exports, { Agent: function() { return Agent; } }) too
					// a minified bundle's export map: the helper renamed, its shape kept
					b.exportMap(m, args[1], c)
				}
			case "binary_expression":
				// 0 && (module.exports = { Agent, run }): esbuild's annotation of a CommonJS
				// bundle's export names, for Node's lexer
				if r := strip(e.Child("right")); r != nil && r.Kind == "assignment_expression" && m.text(e.Child("left")) == "0" {
					b.cjsExport(m, r)
				}
			}
		case "if_statement", "try_statement", "block", "else_clause", "except_clause", "finally_clause",
			"with_statement", "elif_clause":
			b.topLevel(m, c, exported)
		case "decorated_definition":
			b.topLevel(m, c, exported)
		}
	}
}

// emptyObject reports whether a top-level name is bound to {} (the exports object of a
// bundled module: var index_exports = {}).
func emptyObject(m *module, id *syntax.Node) bool {
	s := m.syms[m.text(id)]
	return s != nil && s.kind == symValue && s.value != nil && m.t.objects.has(s.value) && len(s.value.NamedChildren()) == 0
}

// exportMap reads esbuild's export map, __export(index_exports, { Agent: () => Agent,
// default: () => index_default }): each key is an exported name, each getter returns the
// module's local it exports.
func (b *builder) exportMap(m *module, obj *syntax.Node, stmt *syntax.Node) {
	if obj.Kind != "object" {
		return
	}
	for _, p := range obj.NamedChildren() {
		if p.Kind != "pair" {
			continue
		}
		body, ok := getterResult(m, p.Child("value"))
		if !ok {
			continue
		}
		if body == nil || body.Kind != "identifier" {
			continue
		}
		name, local := unquote(m.text(p.Child("key"))), m.text(body)
		m.hasExportSyntax = true
		m.exported[name] = true
		m.exported[local] = true
		if name != local && m.syms[name] == nil {
			m.syms[name] = &sym{kind: symImport, from: m.name, name: local, pos: m.pos(stmt)}
		}
	}
}

// declNames returns the names a declaration introduces.
func declNames(m *module, d *syntax.Node) []string {
	if nm := d.Child("name"); nm != nil {
		return []string{m.text(nm)}
	}
	var out []string
	for _, c := range d.NamedChildren() {
		if c.Kind == "variable_declarator" {
			out = append(out, m.text(c.Child("name")))
		}
	}
	return out
}

// cjsExport handles exports.X = Y / module.exports = {...} / module.exports = Y.
func (b *builder) cjsExport(m *module, e *syntax.Node) {
	l, r := e.Child("left"), e.Child("right")
	lt := m.text(l)
	if r == nil {
		return
	}
	rt := m.text(r)
	switch {
	case strings.HasPrefix(lt, "exports.") || strings.HasPrefix(lt, "module.exports."):
		m.hasExportSyntax = true
		name := lt[strings.LastIndexByte(lt, '.')+1:]
		m.exported[name] = true
		if r.Kind == "identifier" {
			m.exported[rt] = true
			if name != rt {
				m.syms[name] = &sym{kind: symImport, from: m.name, name: rt, pos: m.pos(e)}
			}
		} else if spec, ok := requireOf(m, r); ok {
			m.syms[name] = &sym{kind: symModule, from: b.jsResolve(m, spec), pos: m.pos(e)}
		} else if from, orig, ok := b.moduleMember(m, r); ok {
			// exports.Agent = agent_1.Agent, exports.run = require("./run").run: a re-export
			m.syms[name] = &sym{kind: symImport, from: from, name: orig, pos: m.pos(e)}
		} else if rt != "void 0" && r.Kind != "assignment_expression" && !m.t.funcs.has(r) && !m.t.lambdas.has(r) && !m.t.classes.has(r) {
			// exports.DEFAULT_MAX_TURNS = 10 (tsc declares it "void 0" first): a module value
			if s := m.syms[name]; s == nil || s.kind == symValue {
				m.syms[name] = &sym{kind: symValue, value: r, pos: m.pos(e)}
			}
		}
	case lt == "module.exports":
		m.hasExportSyntax = true
		if spec, ok := requireOf(m, r); ok {
			// module.exports = require("./agent"): the module re-exports all of another's
			m.star = append(m.star, b.jsResolve(m, spec))
			return
		}
		if r.Kind == "identifier" {
			m.exported[rt] = true
		}
		if r.Kind == "object" {
			for _, p := range r.NamedChildren() {
				switch p.Kind {
				case "shorthand_property_identifier":
					m.exported[m.text(p)] = true
				case "pair":
					k, v := m.text(p.Child("key")), p.Child("value")
					m.exported[k] = true
					if v != nil && v.Kind == "identifier" {
						m.exported[m.text(v)] = true
					}
				}
			}
		}
	}
}

// moduleMember recognizes a member of another module, m_1.Agent where m_1 is bound to
// require("./agent"), or require("./agent").Agent: the module and the name.
func (b *builder) moduleMember(m *module, n *syntax.Node) (from, name string, ok bool) {
	n = strip(n)
	if n == nil || !m.t.members.has(n) {
		return "", "", false
	}
	obj, prop := strip(n.Child("object")), n.Child(m.t.memberProp)
	if obj == nil || prop == nil {
		return "", "", false
	}
	if obj.Kind == "identifier" {
		if sy := m.syms[m.text(obj)]; sy != nil && sy.kind == symModule {
			return sy.from, m.text(prop), true
		}
		return "", "", false
	}
	if spec, ok := requireOf(m, obj); ok {
		return b.jsResolve(m, spec), m.text(prop), true
	}
	return "", "", false
}

// getterResult is what a getter function returns: the body of () => Agent, the one return of
// function () { return Agent; } (ok false: v is no function).
func getterResult(m *module, v *syntax.Node) (*syntax.Node, bool) {
	if v == nil || !m.t.lambdas.has(v) && !m.t.funcs.has(v) {
		return nil, false
	}
	body := strip(v.Child("body"))
	if m.t.blocks.has(body) {
		if st := body.NamedChildren(); len(st) == 1 && m.t.returns.has(st[0]) && len(st[0].NamedChildren()) == 1 {
			body = strip(st[0].NamedChildren()[0])
		}
	}
	return body, true
}

// cjsGetter reads tsc's Object.defineProperty(exports, name, { get: function () { return
// m_1.Agent; } }): the getter's module member is what name exports.
func (b *builder) cjsGetter(m *module, name string, desc *syntax.Node, at *syntax.Node) {
	if name == "" || name == "__esModule" || desc == nil || desc.Kind != "object" {
		return
	}
	for _, p := range desc.NamedChildren() {
		if p.Kind != "pair" || m.text(p.Child("key")) != "get" {
			continue
		}
		body, ok := getterResult(m, p.Child("value"))
		if !ok {
			return
		}
		if from, orig, ok := b.moduleMember(m, body); ok {
			m.hasExportSyntax = true
			m.exported[name] = true
			if m.syms[name] == nil {
				m.syms[name] = &sym{kind: symImport, from: from, name: orig, pos: m.pos(at)}
			}
		}
		return
	}
}

func unquote(s string) string { return strings.Trim(s, "\"'`") }

// requireOf recognizes require("spec") (and await import("spec")).
func requireOf(m *module, n *syntax.Node) (string, bool) {
	for n != nil && (n.Kind == "await_expression" || n.Kind == "parenthesized_expression") && len(n.NamedChildren()) > 0 {
		n = n.NamedChildren()[0]
	}
	if n == nil || n.Kind != "call_expression" {
		return "", false
	}
	fn := m.text(n.Child("function"))
	if fn != "require" && fn != "import" && !m.t.interopRequires[lastSeg(fn)] {
		return "", false
	}
	args := n.Child("arguments").NamedChildren()
	if fn != "require" && fn != "import" {
		// __importDefault(require("./x")), __toESM(require("./x"), 1)
		if len(args) == 0 || len(args) > 2 {
			return "", false
		}
		return requireOf(m, args[0])
	}
	if len(args) != 1 {
		return "", false
	}
	if args[0].Kind != "string" {
		return "", false
	}
	return unquote(m.text(args[0])), true
}

func (b *builder) bindRequire(m *module, name *syntax.Node, spec string, at *syntax.Node) {
	mod := b.jsResolve(m, spec)
	switch name.Kind {
	case "identifier":
		m.syms[m.text(name)] = &sym{kind: symModule, from: mod, pos: m.pos(at)}
	case "object_pattern":
		for _, p := range name.NamedChildren() {
			switch p.Kind {
			case "shorthand_property_identifier_pattern":
				m.syms[m.text(p)] = &sym{kind: symImport, from: mod, name: m.text(p), pos: m.pos(at)}
			case "pair_pattern":
				m.syms[m.text(p.Child("value"))] = &sym{kind: symImport, from: mod, name: m.text(p.Child("key")), pos: m.pos(at)}
			}
		}
	}
}

func (b *builder) jsImport(m *module, c *syntax.Node) {
	src := c.Child("source")
	if src == nil {
		return
	}
	mod := b.jsResolve(m, unquote(m.text(src)))
	for _, cl := range c.Children {
		if cl.Kind != "import_clause" {
			continue
		}
		for _, x := range cl.NamedChildren() {
			switch x.Kind {
			case "identifier": // default import
				m.syms[m.text(x)] = &sym{kind: symImport, from: mod, name: "default", pos: m.pos(c)}
			case "namespace_import":
				for _, id := range x.NamedChildren() {
					m.syms[m.text(id)] = &sym{kind: symModule, from: mod, pos: m.pos(c)}
				}
			case "named_imports":
				for _, sp := range x.NamedChildren() {
					if sp.Kind != "import_specifier" {
						continue
					}
					name := m.text(sp.Child("name"))
					alias := name
					if a := sp.Child("alias"); a != nil {
						alias = m.text(a)
					}
					m.syms[alias] = &sym{kind: symImport, from: mod, name: name, pos: m.pos(c)}
				}
			}
		}
	}
}

// pyResolve turns a Python import's module (possibly relative: ".x", "..y") into a dotted
// module name.
func (b *builder) pyResolve(m *module, spec string) string {
	if !strings.HasPrefix(spec, ".") {
		return spec
	}
	dots := len(spec) - len(strings.TrimLeft(spec, "."))
	rest := spec[dots:]
	parts := strings.Split(m.name, ".")
	if !m.isPkg {
		parts = parts[:len(parts)-1]
	}
	for i := 1; i < dots && len(parts) > 0; i++ {
		parts = parts[:len(parts)-1]
	}
	base := strings.Join(parts, ".")
	switch {
	case base == "":
		return rest
	case rest == "":
		return base
	}
	return base + "." + rest
}

// jsResolve turns an import specifier into a module name: relative specifiers against the
// importing module (./x, ./x.js for x.ts, ./dir for dir/index); bare ones stay as written.
func (b *builder) jsResolve(m *module, spec string) string {
	if !strings.HasPrefix(spec, ".") {
		return spec
	}
	dir := path.Dir(m.name)
	p := path.Clean(path.Join(dir, spec))
	for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"} {
		p = strings.TrimSuffix(p, ext)
	}
	return p
}

// isProperty reports whether a function node is read as an attribute: a Python method under
// @property / @cached_property, a TS/JS getter.
func isProperty(m *module, fn, parent *syntax.Node) bool {
	for _, c := range fn.Children {
		if !c.Named && m.text(c) == "get" {
			return true
		}
	}
	if nm := fn.Child("name"); nm != nil && fn.Kind == "method_definition" && nm.Start > fn.Start && nm.Start <= len(m.tree.Src) {
		// the grammar may keep the get keyword as no token of its own: the words before
		// the name say it (static get maxTurns())
		for _, w := range strings.Fields(string(m.tree.Src[fn.Start:nm.Start])) {
			if w == "get" {
				return true
			}
		}
	}
	if parent == nil || parent.Kind != "decorated_definition" {
		return false
	}
	for _, d := range parent.Children {
		if d.Kind == "decorator" && strings.HasSuffix(strings.TrimSpace(m.text(d)), "property") {
			return true
		}
	}
	return false
}

// firstParam is the name of the function's first parameter as written ("" when none).
func (fs *fnState) firstParam() string {
	ps := fs.node.Child("parameters")
	if ps == nil {
		return ""
	}
	list := ps.NamedChildren()
	if len(list) == 0 || list[0].Kind != "identifier" {
		return ""
	}
	return fs.mod.text(list[0])
}
