// Package goir is the Go front-end of lifeline's lifecycle IR (analyzer/ir): it builds SSA
// (golang.org/x/tools/go/ssa) for every loaded package that has syntax, a CHA call graph
// (golang.org/x/tools/go/callgraph/cha) over it, and records for each function its loops
// (natural loops from SSA dominance, matched to their statements), calls with callee
// candidates, counter/bound comparisons, returns, cancellation checks (on every iteration's
// path or not: the check's block dominates every back edge of the loop), id mints, and the data
// flow of call results that the agent shape keys on (see flow.go).
package goir

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// Build builds the IR of the packages that have syntax among pkgs and their dependencies
// (packages read from export data only contribute types). It never panics: an internal error
// of SSA construction is returned as an error.
func Build(pkgs []*packages.Package) (prog *ir.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("goir: building SSA: %v", r)
		}
	}()
	b, ok := newBuilder(pkgs)
	if !ok {
		return &ir.Program{Lang: "go"}, nil
	}
	if b == nil {
		return nil, fmt.Errorf("goir: building SSA failed")
	}
	return b.build(), nil
}

type builder struct {
	fset    *token.FileSet
	prog    *ssa.Program
	src     []*ssa.Package // packages built from source
	srcPkgs map[*types.Package]*Source
	cg      *callgraph.Graph
	// vta is the VTA call graph of the source functions (refining cg): what a func value —
	// a func field, a closure returned by a call (an iterator), a func passed along — may be.
	vta   *callgraph.Graph
	out   *ir.Program
	ids   map[*ssa.Function]int
	funcs []*funcState
	lines map[string][]string
	// ifaces indexes the interfaces of the source packages by method name.
	ifaces map[string][]*types.Named
	// incFields are the struct fields incremented by a constant somewhere (loop counters kept
	// in a struct: a state machine's step count).
	incFields map[*types.Var]bool
	// grownFields are the slice fields appended to in place somewhere (x.steps = append(x.steps,
	// …)): their length counts what a loop recorded.
	grownFields map[*types.Var]bool
	// fieldUses indexes, per struct field, the field reads of every function built from source
	// (computed on first use): a reply kept in a runner's state is read by its other methods.
	fieldUses map[*types.Var][]fieldUse
	// counters are the functions whose result is a process-wide counter's next value (an
	// atomic add on a package-level variable): id minters.
	counters map[*ssa.Function]bool
	// envDecls are the source function declarations, for reading the helpers a default is
	// computed by (defaults).
	envDecls map[*types.Func]*ast.FuncDecl
	// passOn memoizes passesOn.
	passOn map[*ssa.Function]bool
}

// fieldUse is a read of a field's address in a function.
type fieldUse struct {
	fs *funcState
	fa *ssa.FieldAddr
}

// funcState is the per-function working state.
type funcState struct {
	fn    *ssa.Function
	f     *ir.Func
	loops []*natLoop
	// loopOf maps a block to the innermost loop containing it.
	blockLoops map[*ssa.BasicBlock][]int
	callIdx    map[ssa.CallInstruction]int
	retIdx     map[*ssa.Return]int
	syntax     ast.Node
	binExprs   map[token.Pos]*ast.BinaryExpr
	returns    map[token.Pos]*ast.ReturnStmt
	calls      map[token.Pos]*ast.CallExpr
	// overCalls are the walks and cursor drains over a call's result (resolved to calls later).
	overCalls []overCall
	// classified memoizes classify.
	classified map[ssa.Value]ir.Value
	// stopCalls are the calls deciding each StopSet (index in f.Stops).
	stopCalls []ssa.CallInstruction
}

type natLoop struct {
	header  *ssa.BasicBlock
	latches []*ssa.BasicBlock
	blocks  map[*ssa.BasicBlock]bool
	stmt    ast.Stmt
}

// Source is one package to build the IR of: its types, syntax and type information.
type Source struct {
	Types     *types.Package
	Syntax    []*ast.File
	TypesInfo *types.Info
}

// BuildSources builds the IR of the given packages (other packages they import contribute
// types only), as Build does; the analysis passes use it on the package they analyze.
func BuildSources(fset *token.FileSet, srcs []Source) (prog *ir.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("goir: building SSA: %v", r)
		}
	}()
	var all []*Source
	for i := range srcs {
		all = append(all, &srcs[i])
	}
	b := newBuilderFrom(fset, all, false)
	if b == nil {
		return nil, fmt.Errorf("goir: building SSA failed")
	}
	return b.build(), nil
}

// newBuilder returns the builder of pkgs, false when there is nothing to build.
func newBuilder(pkgs []*packages.Package) (*builder, bool) {
	var fset *token.FileSet
	var all []*Source
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if fset == nil && p.Fset != nil {
			fset = p.Fset
		}
		if p.Types == nil || p.IllTyped {
			return
		}
		s := &Source{Types: p.Types}
		if len(p.Syntax) > 0 && p.TypesInfo != nil && len(p.TypesInfo.Defs) > 0 && !isStdPath(p.PkgPath) {
			s.Syntax, s.TypesInfo = p.Syntax, p.TypesInfo
		}
		all = append(all, s)
	})
	if fset == nil {
		return nil, false
	}
	return newBuilderFrom(fset, all, false), true
}

// newBuilderFrom creates the SSA program of all; retried is true on the second attempt, made
// after some packages failed to build (nil when some fail again).
func newBuilderFrom(fset *token.FileSet, all []*Source, retried bool) *builder {
	srcPkgs := map[*types.Package]*Source{}
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	var src []*ssa.Package
	for _, p := range all {
		if created[p.Types] {
			continue
		}
		created[p.Types] = true
		if len(p.Syntax) > 0 && p.TypesInfo != nil && bodiesChecked(p.Syntax, p.TypesInfo) {
			src = append(src, prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, true))
			srcPkgs[p.Types] = p
		} else {
			prog.CreatePackage(p.Types, nil, nil, true)
		}
	}
	// Packages only referred to by export data (indirect dependencies) need an ssa.Package too.
	var visit func(tp *types.Package)
	visit = func(tp *types.Package) {
		for _, imp := range tp.Imports() {
			if !created[imp] {
				created[imp] = true
				prog.CreatePackage(imp, nil, nil, true)
				visit(imp)
			}
		}
	}
	for _, p := range all {
		visit(p.Types)
	}
	// A package whose SSA cannot be built (an internal error of the builder on some
	// dependency's code) is left out: the program is made again with it as types only, since
	// its half-built functions would fail again when the call graph asks for them.
	var failed []*types.Package
	for _, p := range src {
		if !safeBuild(p) {
			failed = append(failed, p.Pkg)
		}
	}
	if len(failed) > 0 && !retried {
		drop := map[*types.Package]bool{}
		for _, t := range failed {
			drop[t] = true
		}
		kept := make([]*Source, 0, len(all))
		for _, p := range all {
			if drop[p.Types] {
				p = &Source{Types: p.Types}
			}
			kept = append(kept, p)
		}
		return newBuilderFrom(fset, kept, true)
	}
	if len(failed) > 0 {
		return nil
	}
	return &builder{fset: fset, prog: prog, src: src, srcPkgs: srcPkgs, ids: map[*ssa.Function]int{},
		lines: map[string][]string{}, ifaces: map[string][]*types.Named{}, incFields: map[*types.Var]bool{}, grownFields: map[*types.Var]bool{}}
}

// bodiesChecked reports whether the type information covers the function bodies of files
// (go/packages type-checks some dependencies with their bodies ignored): SSA needs it.
func bodiesChecked(files []*ast.File, info *types.Info) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			checked := true
			found := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if found {
					return false
				}
				if id, ok := n.(*ast.Ident); ok && id.Name != "_" {
					found = true
					checked = info.Uses[id] != nil || info.Defs[id] != nil
				}
				return true
			})
			if found {
				return checked
			}
		}
	}
	return true
}

func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func (b *builder) build() *ir.Program {
	b.out = &ir.Program{Lang: "go"}
	b.cg = cha.CallGraph(b.prog)
	b.collectInterfaces()
	// The functions with bodies in source packages, closures included, in a stable order.
	var fns []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || seen[fn] || len(fn.Blocks) == 0 {
			return
		}
		seen[fn] = true
		fns = append(fns, fn)
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, p := range b.src {
		var names []string
		for n := range p.Members {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			switch m := p.Members[n].(type) {
			case *ssa.Function:
				add(m)
			case *ssa.Type:
				// A generic type has no method set of its own (MethodValue refuses it): its
				// methods' generic bodies are read once, for every instantiation, and the
				// calls of an instance reach them through Function.Origin.
				if n, ok := m.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
					for i := 0; i < n.NumMethods(); i++ {
						if fn := b.prog.FuncValue(n.Method(i)); fn != nil && fn.Pkg == p {
							add(fn)
						}
					}
					continue
				}
				for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
					ms := b.prog.MethodSets.MethodSet(t)
					for i := 0; i < ms.Len(); i++ {
						if fn := b.prog.MethodValue(ms.At(i)); fn != nil && fn.Pkg == p && fn.Synthetic == "" {
							add(fn)
						}
					}
				}
			}
		}
	}
	// by file name and offset, not token.Pos: go/packages parses files concurrently, so the
	// file set's bases (and a Pos order across files) change from run to run
	sortFuncs(b.fset, fns)
	described := make(map[*ssa.Function]bool, len(fns))
	for _, fn := range fns {
		described[fn] = true
	}
	insts := b.instantiate(described)
	mergeInstances(b.cg, b.cg, insts)
	b.vta = b.refine(fns, insts)
	mergeInstances(b.vta, b.vta, insts)
	// what VTA resolves in the instances goes into the graph the flow walks up and down too:
	// CHA does not see the instances made for generic types (see instantiate), nor resolve
	// their calls through a generic interface
	mergeInstances(b.cg, b.vta, insts)
	// from here on only generic bodies stand for their instances: a value traced into a call of
	// an instance, or out of one to its callers, is in the instructions the IR describes
	for _, g := range []*callgraph.Graph{b.cg, b.vta} {
		for _, fn := range insts {
			if n := g.Nodes[fn]; n != nil {
				g.DeleteNode(n)
			}
		}
	}
	stableEdges(b.cg)
	stableEdges(b.vta)
	for _, fn := range fns {
		b.ids[fn] = len(b.out.Funcs)
		f := &ir.Func{ID: len(b.out.Funcs), Parent: -1}
		b.out.Funcs = append(b.out.Funcs, f)
		b.funcs = append(b.funcs, &funcState{fn: fn, f: f})
	}
	b.scanIncFields()
	for _, fs := range b.funcs {
		b.describe(fs)
	}
	for _, fs := range b.funcs {
		b.calls(fs)
	}
	b.scanCounters()
	for _, fs := range b.funcs {
		b.returnsOf(fs)
		b.branches(fs)
		b.stopExits(fs)
		b.cancels(fs)
		b.mints(fs)
	}
	// CancelAlways travels through calls on every path (two rounds cover helper chains).
	for range 2 {
		for _, fs := range b.funcs {
			b.cancelAlways(fs)
		}
	}
	for _, fs := range b.funcs {
		b.callCancels(fs)
	}
	b.flows()
	b.defaults()
	return b.out
}

// sortFuncs orders functions by position (file name, offset), then name: the same order on
// every run.
func sortFuncs(fset *token.FileSet, fns []*ssa.Function) {
	type key struct {
		file string
		off  int
		name string
	}
	keys := make(map[*ssa.Function]key, len(fns))
	for _, fn := range fns {
		k := key{name: fn.String()}
		if fn.Pos().IsValid() {
			p := fset.Position(fn.Pos())
			k.file, k.off = p.Filename, p.Offset
		}
		keys[fn] = k
	}
	sort.SliceStable(fns, func(i, j int) bool {
		a, b := keys[fns[i]], keys[fns[j]]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.off != b.off {
			return a.off < b.off
		}
		return a.name < b.name
	})
}

// stableEdges orders every node's edges by caller, call site and callee: the graphs are built
// from maps, and a walk that stops after a few callers must see the same ones on every run.
func stableEdges(g *callgraph.Graph) {
	names := map[*ssa.Function]string{}
	name := func(fn *ssa.Function) string {
		s, ok := names[fn]
		if !ok {
			s = fn.String()
			names[fn] = s
		}
		return s
	}
	key := func(e *callgraph.Edge) (string, token.Pos, string) {
		var pos token.Pos
		if e.Site != nil {
			pos = e.Site.Pos()
		}
		return name(e.Caller.Func), pos, name(e.Callee.Func)
	}
	less := func(a, b *callgraph.Edge) bool {
		ac, ap, ae := key(a)
		bc, bp, be := key(b)
		if ac != bc {
			return ac < bc
		}
		if ap != bp {
			return ap < bp
		}
		return ae < be
	}
	for _, n := range g.Nodes {
		sort.SliceStable(n.In, func(i, j int) bool { return less(n.In[i], n.In[j]) })
		sort.SliceStable(n.Out, func(i, j int) bool { return less(n.Out[i], n.Out[j]) })
	}
}

// refine computes the VTA call graph (golang.org/x/tools/go/callgraph/vta) of fns over the
// CHA graph: the types and function literals that flow to each dynamic call site through
// assignments, fields, returns, parameters and channels of the loaded code.
func (b *builder) refine(fns, insts []*ssa.Function) *callgraph.Graph {
	set := make(map[*ssa.Function]bool, len(fns)+len(insts))
	for _, fn := range fns {
		set[fn] = true
	}
	// the instantiations of generic code are what VTA can follow: their values have the
	// program's types, a generic body's have type parameters
	for _, fn := range insts {
		set[fn] = true
	}
	fns = append(fns[:len(fns):len(fns)], insts...)
	// the wrappers the code makes values of (bound method values, thunks) carry the flow from
	// the method they call to their own results
	var ops []*ssa.Value
	for _, fn := range fns {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				for _, op := range in.Operands(ops[:0]) {
					if w, ok := (*op).(*ssa.Function); ok && w.Synthetic != "" && !set[w] {
						set[w] = true
					}
					if mc, ok := (*op).(*ssa.MakeClosure); ok {
						if w, ok := mc.Fn.(*ssa.Function); ok && w.Synthetic != "" {
							set[w] = true
						}
					}
				}
			}
		}
	}
	if len(insts) > 0 {
		// the instantiations made here for generic types (see instantiate) are not in the
		// program-wide CHA graph: VTA then computes its own CHA over the set it is given
		return vta.CallGraph(set, nil)
	}
	return vta.CallGraph(set, b.cg)
}

// collectInterfaces indexes the named interfaces of the source packages by method name.
func (b *builder) collectInterfaces() {
	for _, p := range b.src {
		scope := p.Pkg.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			it, ok := named.Underlying().(*types.Interface)
			if !ok || it.NumMethods() == 0 || it.NumMethods() > 30 {
				continue
			}
			for i := 0; i < it.NumMethods(); i++ {
				m := it.Method(i).Name()
				b.ifaces[m] = append(b.ifaces[m], named)
			}
		}
	}
}

func (b *builder) pos(p token.Pos) ir.Pos {
	if !p.IsValid() {
		return ir.Pos{}
	}
	position := b.fset.Position(p)
	return ir.Pos{File: position.Filename, Line: position.Line}
}

// source returns the trimmed source line at p.
func (b *builder) source(p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	position := b.fset.Position(p)
	lines, ok := b.lines[position.Filename]
	if !ok {
		if data, err := os.ReadFile(position.Filename); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		b.lines[position.Filename] = lines
	}
	if position.Line < 1 || position.Line > len(lines) {
		return ""
	}
	s := strings.TrimSpace(lines[position.Line-1])
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// describe fills the function's identity, parameters, loops and syntax indexes.
func (b *builder) describe(fs *funcState) {
	fn, f := fs.fn, fs.f
	f.Name = fn.String()
	f.Pkg = fn.Pkg.Pkg.Path()
	f.Pos = b.pos(fn.Pos())
	f.Source = b.source(fn.Pos())
	f.Test = strings.HasSuffix(f.Pos.File, "_test.go")
	if p := fn.Parent(); p != nil {
		if id, ok := b.ids[p]; ok {
			f.Parent = id
		}
		root := p
		for root.Parent() != nil {
			root = root.Parent()
		}
		f.Short = shortFunc(root) + " (closure)"
	} else {
		f.Short = shortFunc(fn)
		if obj, ok := fn.Object().(*types.Func); ok {
			f.Key = roles.Key(obj)
			f.Exported = obj.Exported()
			sig := obj.Type().(*types.Signature)
			if sig.Recv() != nil {
				n := roles.NamedOf(sig.Recv().Type())
				if n != nil {
					f.Recv = n.Obj().Name()
					f.Implements = b.implements(n, obj.Name())
					if f.Exported && !n.Obj().Exported() {
						f.Exported = false
						for _, k := range f.Implements {
							if iface := b.ifaceExported(k); iface {
								f.Exported, f.ExportedVia = true, k
								break
							}
						}
						if !f.Exported {
							if by := handedOutBy(n); by != "" {
								f.Exported, f.ExportedBy = true, by
							}
						}
					}
				}
			}
		}
	}
	sig := fn.Signature
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		f.Params = append(f.Params, ir.Param{Name: p.Name(), Kind: paramKind(p.Type())})
	}
	for i := 0; i < sig.Results().Len(); i++ {
		f.Results = append(f.Results, resultKind(sig.Results().At(i).Type()))
	}
	fs.syntax = fn.Syntax()
	fs.binExprs = map[token.Pos]*ast.BinaryExpr{}
	fs.returns = map[token.Pos]*ast.ReturnStmt{}
	fs.calls = map[token.Pos]*ast.CallExpr{}
	var stmts []ast.Stmt
	if fs.syntax != nil {
		var body ast.Node = fs.syntax
		switch s := fs.syntax.(type) {
		case *ast.FuncDecl:
			body = s.Body
		case *ast.FuncLit:
			body = s.Body
		case *ast.RangeStmt: // the body of a range-over-func loop
			body = s.Body
		}
		if body != nil && !isNilNode(body) {
			ast.Inspect(body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BinaryExpr:
					fs.binExprs[x.OpPos] = x
				case *ast.ReturnStmt:
					fs.returns[x.Return] = x
				case *ast.CallExpr:
					fs.calls[x.Lparen] = x
				case *ast.ForStmt:
					stmts = append(stmts, x)
				case *ast.RangeStmt:
					if t := b.info(fn).TypeOf(x.X); t != nil {
						if _, isFunc := t.Underlying().(*types.Signature); isFunc {
							// range over a function: its body is a separate (yield) function
							f.Loops = append(f.Loops, ir.Loop{ID: len(f.Loops), Kind: ir.LoopRangeIter, Pos: b.pos(x.For),
								Source: b.source(x.For), End: b.pos(x.End()), Outer: -1, Over: render(x.X), OverCall: -1})
							fs.loops = append(fs.loops, &natLoop{stmt: x, blocks: map[*ssa.BasicBlock]bool{}})
							return true
						}
					}
					stmts = append(stmts, x)
				}
				return true
			})
		}
	}
	b.loops(fs, stmts)
}

func isNilNode(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.BlockStmt:
		return x == nil
	}
	return false
}

func shortFunc(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		if k := roles.Key(obj); k != "" {
			return roles.ShortName(k)
		}
	}
	return fn.Name()
}

// implements returns the keys of the interface methods (of source packages) that method name of
// n implements.
func (b *builder) implements(n *types.Named, name string) []string {
	var out []string
	for _, iface := range b.ifaces[name] {
		it := iface.Underlying().(*types.Interface)
		if types.Implements(n, it) || types.Implements(types.NewPointer(n), it) {
			if iface.Obj().Pkg() != nil {
				out = append(out, iface.Obj().Pkg().Path()+"."+iface.Obj().Name()+"."+name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// handedOutBy names an exported function, method of an exported type or variable of n's
// package whose type or results hand out n or *n (an exported constructor returning the
// unexported agent type), "" when there is none: the exported methods of n are then callable
// from other packages although n's name is not exported.
func handedOutBy(n *types.Named) string {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return ""
	}
	is := func(t types.Type) bool {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		m, ok := types.Unalias(t).(*types.Named)
		return ok && m.Origin() == n.Origin()
	}
	results := func(sig *types.Signature) bool {
		for i := 0; i < sig.Results().Len(); i++ {
			if is(sig.Results().At(i).Type()) {
				return true
			}
		}
		return false
	}
	scope := obj.Pkg().Scope()
	for _, name := range scope.Names() {
		if !token.IsExported(name) {
			continue
		}
		switch o := scope.Lookup(name).(type) {
		case *types.Func:
			if results(o.Type().(*types.Signature)) {
				return o.Pkg().Path() + "." + name
			}
		case *types.Var:
			if is(o.Type()) {
				return o.Pkg().Path() + "." + name
			}
		case *types.TypeName:
			t, ok := o.Type().(*types.Named)
			if !ok {
				continue
			}
			for i := 0; i < t.NumMethods(); i++ {
				if m := t.Method(i); m.Exported() && results(m.Type().(*types.Signature)) {
					return o.Pkg().Path() + "." + name + "." + m.Name()
				}
			}
		}
	}
	return ""
}

// ifaceExported reports whether the interface of an interface-method key is exported.
func (b *builder) ifaceExported(key string) bool {
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return false
	}
	j := strings.LastIndexByte(key[:i], '.')
	name := key[j+1 : i]
	return name != "" && token.IsExported(name)
}

func paramKind(t types.Type) string {
	if isContext(t) {
		return "context"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			return "int"
		}
		if u.Info()&types.IsString != 0 {
			return "string"
		}
	case *types.Signature:
		return "func"
	}
	return "value"
}

func resultKind(t types.Type) string {
	if roles.IsError(t) {
		return "error"
	}
	if isStream(t) {
		switch t.Underlying().(type) {
		case *types.Chan:
			return "chan"
		case *types.Signature:
			return "iterator"
		}
		return "stream"
	}
	if _, ok := t.Underlying().(*types.Signature); ok {
		return "func"
	}
	return "value"
}

func isContext(t types.Type) bool {
	n := roles.NamedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// isStream reports whether t is a channel one can receive from, an iter.Seq-shaped function,
// or a type with a Next method returning a bool last.
func isStream(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return u.Dir() != types.SendOnly
	case *types.Signature:
		if u.Params().Len() == 1 && u.Results().Len() == 0 {
			if y, ok := u.Params().At(0).Type().Underlying().(*types.Signature); ok && y.Results().Len() == 1 {
				bt, ok := y.Results().At(0).Type().Underlying().(*types.Basic)
				return ok && bt.Kind() == types.Bool
			}
		}
		return false
	}
	if chanHandle(t) {
		return true
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Next")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	r := fn.Type().(*types.Signature).Results()
	if r.Len() == 0 {
		return false
	}
	bt, ok := r.At(r.Len() - 1).Type().Underlying().(*types.Basic)
	return ok && bt.Kind() == types.Bool
}

// chanHandle reports whether t is a handle whose consumer ranges over a channel of chunks it
// hands out: an interface with a method taking nothing and returning a receive channel of
// values (Stream.Chunks() <-chan *StreamChunk, agenticgokit@v0.5.5 v1beta/streaming.go:134),
// not a done signal (Done() <-chan struct{}).
func chanHandle(t types.Type) bool {
	it, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < it.NumMethods(); i++ {
		sig, ok := it.Method(i).Type().(*types.Signature)
		if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			continue
		}
		ch, ok := sig.Results().At(0).Type().Underlying().(*types.Chan)
		if !ok || ch.Dir() == types.SendOnly {
			continue
		}
		if st, ok := ch.Elem().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			continue
		}
		return true
	}
	return false
}

func render(e ast.Expr) string {
	s := types.ExprString(e)
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}

// info returns the type information of fn's package.
func (b *builder) info(fn *ssa.Function) *types.Info {
	if p := b.srcPkgs[fn.Pkg.Pkg]; p != nil && p.TypesInfo != nil {
		return p.TypesInfo
	}
	return &types.Info{}
}

func fnOf(v ssa.Value) *ssa.Function {
	f, _ := v.(*ssa.Function)
	return f
}

func safeBuild(p *ssa.Package) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	p.Build()
	return true
}

// accessor reports whether a call only reads a part of one of its operands (see
// ir.Call.Accessor): no context argument, no error, channel, iterator or func result, a
// result whose type — or whose element type, for a slice, array or map — is the type of the
// receiver or of an argument (n.Child("body") *Node on a *Node, n.Children() []ast.Node on an
// ast.Node, pair.Next() *Pair), and other operands that only select the part (strings,
// integers, booleans). Basic types and the empty interface say nothing about a part.
func accessor(com *ssa.CallCommon) bool {
	sig := com.Signature()
	if sig == nil || sig.Results().Len() == 0 {
		return false
	}
	var operands []types.Type
	if com.IsInvoke() {
		operands = append(operands, com.Value.Type())
	}
	for _, a := range com.Args {
		if isContext(a.Type()) {
			return false
		}
		operands = append(operands, a.Type())
	}
	for i := 0; i < sig.Results().Len(); i++ {
		t := sig.Results().At(i).Type()
		if isErrorType(t) || isStream(t) {
			return false
		}
		if _, fn := t.Underlying().(*types.Signature); fn {
			return false
		}
	}
	kind := func(t types.Type) types.Type {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return nil
		case *types.Interface:
			if u.Empty() {
				return nil
			}
		}
		return t
	}
	r := sig.Results().At(0).Type()
	if p, ok := r.Underlying().(*types.Pointer); ok {
		r = p.Elem()
	}
	switch u := r.Underlying().(type) {
	case *types.Slice:
		r = u.Elem()
	case *types.Array:
		r = u.Elem()
	case *types.Map:
		r = u.Elem()
	}
	rk := kind(r)
	if rk == nil {
		return false
	}
	part := false
	for _, o := range operands {
		if ok := kind(o); ok != nil && types.Identical(ok, rk) {
			part = true
			continue
		}
		// the other operands only select the part (a field name, an index, a flag):
		// a value handed in (s.WithInput(&in), s.With(opt)) is new information
		if b, ok := o.Underlying().(*types.Basic); !ok || b.Info()&(types.IsString|types.IsInteger|types.IsBoolean) == 0 {
			return false
		}
	}
	return part
}

// descends reports whether a call of fn hands over, as its receiver or an argument, a part of
// one of fn's parameters of that parameter's own kind (see ir.Call.Descends): t.inner.Call()
// in a method of t's type, walk(n.Left), walk(c) for c in n.Children.
func descends(fn *ssa.Function, com *ssa.CallCommon) bool {
	if nextLink(fn, com) {
		return true
	}
	operands := append([]ssa.Value{}, com.Args...)
	if com.IsInvoke() {
		operands = append(operands, com.Value)
	}
	for _, a := range operands {
		for _, p := range fn.Params {
			if sameKind(a.Type(), p.Type()) && partOf(a, p, 0) {
				return true
			}
		}
	}
	return false
}

// nextLink reports whether com calls the func value that the function which made the closure
// fn was handed as a parameter: a middleware's `return func(ctx, req) { …; return next(ctx,
// req) }` inside `func(next ModelFunc) ModelFunc`. Each closure made so calls the next link of
// a chain of wrappers it was built around, a finite chain, even when the call graph resolves
// next to the closure itself (the chain passes every link as some link's next).
func nextLink(fn *ssa.Function, com *ssa.CallCommon) bool {
	if com.IsInvoke() || fn.Parent() == nil {
		return false
	}
	v, cell := com.Value, false
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		v, cell = ld.X, true // the parameter's variable, captured by reference
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return false
	}
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 {
		return false
	}
	parent := fn.Parent()
	// paramOf reports whether bnd is a parameter of parent, or a variable only ever set to one
	paramOf := func(bnd ssa.Value) bool {
		if p, ok := bnd.(*ssa.Parameter); ok {
			return !cell && p.Parent() == parent
		}
		al, ok := bnd.(*ssa.Alloc)
		if !ok || !cell || al.Referrers() == nil {
			return false
		}
		set := false
		for _, r := range *al.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == al {
				p, ok := st.Val.(*ssa.Parameter)
				if !ok || p.Parent() != parent {
					return false // reassigned: not (only) what the function was handed
				}
				set = true
			}
		}
		return set
	}
	made := false
	for _, blk := range parent.Blocks {
		for _, in := range blk.Instrs {
			mc, ok := in.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || i >= len(mc.Bindings) {
				continue
			}
			if !paramOf(mc.Bindings[i]) {
				return false
			}
			made = true
		}
	}
	return made
}

// sameKind reports whether two types are the same once pointers are removed (interfaces:
// either implements the other, as a wrapper's field of the interface type it implements).
func sameKind(a, b types.Type) bool {
	strip := func(t types.Type) types.Type {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			return p.Elem()
		}
		return t
	}
	a, b = strip(a), strip(b)
	if types.Identical(a, b) {
		return true
	}
	if _, ok := a.Underlying().(*types.Basic); ok {
		return false
	}
	if ia, ok := a.Underlying().(*types.Interface); ok && !ia.Empty() {
		return types.Implements(b, ia) || types.Implements(types.NewPointer(b), ia)
	}
	if ib, ok := b.Underlying().(*types.Interface); ok && !ib.Empty() {
		return types.Implements(a, ib) || types.Implements(types.NewPointer(a), ib)
	}
	return false
}

// partOf reports whether v is a component of parameter p (a field, an element, a map value,
// a conversion of one), not p itself.
func partOf(v ssa.Value, p *ssa.Parameter, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if fa, ok := x.X.(*ssa.FieldAddr); ok {
				return fa.X == p || partOf(fa.X, p, depth+1)
			}
			if ia, ok := x.X.(*ssa.IndexAddr); ok {
				return ia.X == p || partOf(ia.X, p, depth+1)
			}
		}
	case *ssa.FieldAddr:
		return x.X == p || partOf(x.X, p, depth+1)
	case *ssa.Field:
		return x.X == p || partOf(x.X, p, depth+1)
	case *ssa.Index:
		return x.X == p || partOf(x.X, p, depth+1)
	case *ssa.IndexAddr:
		return x.X == p || partOf(x.X, p, depth+1)
	case *ssa.Lookup:
		return x.X == p || partOf(x.X, p, depth+1)
	case *ssa.Extract:
		if l, ok := x.Tuple.(*ssa.Lookup); ok {
			return l.X == p || partOf(l.X, p, depth+1)
		}
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok {
			return ta.X == p || partOf(ta.X, p, depth+1)
		}
	case *ssa.TypeAssert:
		return partOf(x.X, p, depth+1)
	case *ssa.ChangeType:
		return partOf(x.X, p, depth+1)
	case *ssa.ChangeInterface:
		return partOf(x.X, p, depth+1)
	case *ssa.MakeInterface:
		return partOf(x.X, p, depth+1)
	case *ssa.Slice:
		return x.X == p || partOf(x.X, p, depth+1)
	}
	return false
}

// instantiate returns the instantiations of the generic functions among described (and of the
// closures inside them), in a stable order: those the program calls (in the CHA graph), and
// the methods of every instantiation of a generic type of the source packages that the code
// uses (StateGraph[AgentState]: an engine's Invoke is instantiated only where an application
// calls it, which the packages read may not do). goir describes a generic body once; what its
// instances call and who calls them is moved onto it by mergeInstances.
func (b *builder) instantiate(described map[*ssa.Function]bool) []*ssa.Function {
	generic := func(fn *ssa.Function) bool {
		if fn == nil || len(fn.Blocks) == 0 {
			return false
		}
		o := fn.Origin()
		return o != nil && o != fn && described[o]
	}
	seen := map[*ssa.Function]bool{}
	var out []*ssa.Function
	var addFn func(fn *ssa.Function)
	addFn = func(fn *ssa.Function) {
		if seen[fn] || !generic(fn) {
			return
		}
		seen[fn] = true
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			addFn(a)
		}
	}
	for fn := range b.cg.Nodes {
		addFn(fn)
	}
	if len(out) == 0 {
		return nil
	}
	// the instantiated generic types of the source packages the code refers to, methods forced
	named := map[*types.Named]bool{}
	var queue []*types.Named
	var note func(t types.Type, depth int)
	note = func(t types.Type, depth int) {
		if t == nil || depth > 3 {
			return
		}
		switch u := t.(type) {
		case *types.Pointer:
			note(u.Elem(), depth+1)
		case *types.Slice:
			note(u.Elem(), depth+1)
		case *types.Map:
			note(u.Key(), depth+1)
			note(u.Elem(), depth+1)
		case *types.Named:
			if u.TypeArgs().Len() == 0 || named[u] || b.srcPkgs[u.Obj().Pkg()] == nil {
				return
			}
			for i := 0; i < u.TypeArgs().Len(); i++ {
				if hasTypeParam(u.TypeArgs().At(i)) {
					return
				}
			}
			named[u] = true
			queue = append(queue, u)
		}
	}
	scan := func(fns []*ssa.Function) {
		var ops []*ssa.Value
		for _, fn := range fns {
			for _, p := range fn.Params {
				note(p.Type(), 0)
			}
			for _, blk := range fn.Blocks {
				for _, in := range blk.Instrs {
					if v, ok := in.(ssa.Value); ok {
						note(v.Type(), 0)
					}
					for _, op := range in.Operands(ops[:0]) {
						if *op != nil {
							note((*op).Type(), 0)
						}
					}
				}
			}
		}
	}
	var all []*ssa.Function
	for fn := range described {
		all = append(all, fn)
	}
	scan(all)
	scan(out)
	for round := 0; round < 4 && len(queue) > 0; round++ {
		batch := queue
		queue = nil
		sort.Slice(batch, func(i, j int) bool { return batch[i].String() < batch[j].String() })
		from := len(out)
		for _, n := range batch {
			for _, t := range []types.Type{n, types.NewPointer(n)} {
				ms := b.prog.MethodSets.MethodSet(t)
				for i := 0; i < ms.Len(); i++ {
					if fn := b.prog.MethodValue(ms.At(i)); fn != nil {
						addFn(unwrap(fn))
					}
				}
			}
		}
		scan(out[from:])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// hasTypeParam reports whether t mentions a type parameter.
func hasTypeParam(t types.Type) bool {
	switch u := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return hasTypeParam(u.Elem())
	case *types.Slice:
		return hasTypeParam(u.Elem())
	case *types.Array:
		return hasTypeParam(u.Elem())
	case *types.Map:
		return hasTypeParam(u.Key()) || hasTypeParam(u.Elem())
	case *types.Chan:
		return hasTypeParam(u.Elem())
	case *types.Named:
		for i := 0; i < u.TypeArgs().Len(); i++ {
			if hasTypeParam(u.TypeArgs().At(i)) {
				return true
			}
		}
	case *types.Signature:
		for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if hasTypeParam(tup.At(i).Type()) {
					return true
				}
			}
		}
	}
	return false
}

// mergeInstances gives each generic body described the edges of its instantiations in g: a
// call of an instance is a call of the generic body (its callers reach it), and a call made
// in an instance is made at the same site of the generic body (a call through a
// type-parameter value, a func field of a generic struct, resolves to what the instances
// resolve it to). The edges are read from src (g itself, or the VTA graph for the instances
// only VTA saw). Sites are matched by position and kind of call.
func mergeInstances(g, src *callgraph.Graph, insts []*ssa.Function) {
	sites := map[*ssa.Function]map[token.Pos][]ssa.CallInstruction{}
	siteOf := func(o *ssa.Function, s ssa.CallInstruction) ssa.CallInstruction {
		idx, ok := sites[o]
		if !ok {
			idx = map[token.Pos][]ssa.CallInstruction{}
			for _, blk := range o.Blocks {
				for _, in := range blk.Instrs {
					if ci, ok := in.(ssa.CallInstruction); ok && ci.Pos().IsValid() {
						idx[ci.Pos()] = append(idx[ci.Pos()], ci)
					}
				}
			}
			sites[o] = idx
		}
		if !s.Pos().IsValid() {
			return nil
		}
		var found ssa.CallInstruction
		for _, c := range idx[s.Pos()] {
			if fmt.Sprintf("%T", c) == fmt.Sprintf("%T", s) {
				if found != nil {
					return nil // ambiguous
				}
				found = c
			}
		}
		return found
	}
	isInst := map[*ssa.Function]bool{}
	for _, fn := range insts {
		isInst[fn] = true
	}
	type edge struct {
		caller *ssa.Function
		site   ssa.CallInstruction
		callee *ssa.Function
	}
	seen := map[edge]bool{}
	var add []edge
	for _, fn := range insts {
		n := src.Nodes[fn]
		if n == nil {
			continue
		}
		o := fn.Origin()
		for _, e := range n.Out {
			if e.Site == nil {
				continue
			}
			if s := siteOf(o, e.Site); s != nil {
				add = append(add, edge{o, s, e.Callee.Func})
			}
		}
		for _, e := range n.In {
			if e.Site == nil || isInst[e.Caller.Func] {
				continue // an instance's own calls are moved with its Out edges
			}
			add = append(add, edge{e.Caller.Func, e.Site, o})
		}
	}
	for _, e := range add {
		if w := unwrap(e.callee); w != e.callee && isInst[w] {
			e.callee = w // a wrapper of an instance (a pointer receiver's method value)
		}
		if isInst[e.callee] {
			e.callee = e.callee.Origin()
		}
		if seen[e] {
			continue
		}
		seen[e] = true
		callgraph.AddEdge(g.CreateNode(e.caller), e.site, g.CreateNode(e.callee))
	}
}
