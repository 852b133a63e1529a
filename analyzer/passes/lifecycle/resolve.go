package lifecycle

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// resolver binds roles to objects: directives (this package's source and facts from
// dependencies), profiles, then inference.
type resolver struct {
	pass     *analysis.Pass
	table    *roles.Table
	cache    map[types.Object][]roles.Binding
	declared map[types.Object][]roles.Binding // directives in this package
	pkgs     map[string]*types.Package        // transitive imports by path
	ifaces   map[string]*types.Interface      // interface of an interface-method rule key
	used     map[string]bool                  // profiles that bound something
	errs     []error
	tools    []toolIface
	toolsOK  bool
}

// toolIface is an interface bound to the tool role (or holding a tool_call method) and the name
// of its run method.
type toolIface struct {
	iface  *types.Interface
	method string
}

// toolIfaces lists the tool interfaces declared in this package and its imports.
func (r *resolver) toolIfaces() []toolIface {
	if r.toolsOK {
		return r.tools
	}
	r.toolsOK = true
	for _, pkg := range r.pkgs {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 {
				continue
			}
			for i := 0; i < iface.NumMethods(); i++ {
				m := iface.Method(i)
				if _, isTool := r.Has(m, roles.ToolCall); isTool {
					r.tools = append(r.tools, toolIface{iface: iface, method: m.Name()})
				}
			}
		}
	}
	return r.tools
}

func newResolver(pass *analysis.Pass, table *roles.Table) *resolver {
	r := &resolver{
		pass: pass, table: table,
		cache:    map[types.Object][]roles.Binding{},
		declared: map[types.Object][]roles.Binding{},
		pkgs:     map[string]*types.Package{},
		ifaces:   map[string]*types.Interface{},
		used:     map[string]bool{},
	}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if _, ok := r.pkgs[p.Path()]; ok {
			return
		}
		r.pkgs[p.Path()] = p
		for _, q := range p.Imports() {
			visit(q)
		}
	}
	visit(pass.Pkg)
	r.readDirectives()
	return r
}

// readDirectives binds the //lifeline: directives on this package's declarations and exports
// them as facts for dependent packages.
func (r *resolver) readDirectives() {
	for _, f := range r.pass.Files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				r.bindDirectives(d.Doc, r.pass.TypesInfo.Defs[d.Name])
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						r.bindDirectives(doc, r.pass.TypesInfo.Defs[s.Name])
						if st, ok := s.Type.(*ast.StructType); ok {
							r.fieldDirectives(st)
						}
						if it, ok := s.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									r.bindDirectives(m.Doc, r.pass.TypesInfo.Defs[n])
								}
							}
						}
					case *ast.ValueSpec:
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						for _, n := range s.Names {
							r.bindDirectives(doc, r.pass.TypesInfo.Defs[n])
						}
					}
				}
			}
		}
	}
	for obj, bs := range r.declared {
		if obj.Pkg() != r.pass.Pkg {
			continue
		}
		var rules []roles.Rule
		for _, b := range bs {
			rules = append(rules, b.Rule)
		}
		if _, isField := obj.(*types.Var); isField && obj.(*types.Var).IsField() {
			continue // fields cannot carry facts; dependents see them through ObjectRoles of the type
		}
		r.pass.ExportObjectFact(obj, &Declared{Rules: rules})
	}
}

func (r *resolver) fieldDirectives(st *ast.StructType) {
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			r.bindDirectives(f.Doc, r.pass.TypesInfo.Defs[n])
			r.bindDirectives(f.Comment, r.pass.TypesInfo.Defs[n])
		}
	}
}

func (r *resolver) bindDirectives(doc *ast.CommentGroup, obj types.Object) {
	if obj == nil {
		return
	}
	for _, d := range roles.Directives(doc) {
		b, ok, err := d.BindingOf(roles.Key(obj))
		if err != nil {
			r.errs = append(r.errs, fmt.Errorf("%s: %w", r.pass.Fset.Position(d.Comment.Pos()), err))
			continue
		}
		if ok {
			r.declared[obj] = append(r.declared[obj], b)
		}
	}
}

// Roles returns the roles bound to obj.
func (r *resolver) Roles(obj types.Object) []roles.Binding {
	if obj == nil {
		return nil
	}
	if bs, ok := r.cache[obj]; ok {
		return bs
	}
	bs := r.compute(obj)
	if key := roles.Key(obj); key != "" {
		// a profile's "not" rule vetoes an inferred role
		kept := bs[:0:0]
		for _, b := range bs {
			if _, vetoed := r.table.Vetoed(key, b.Role); vetoed && b.Provenance.Confidence == model.ConfidenceInferred {
				continue
			}
			kept = append(kept, b)
		}
		bs = kept
	}
	r.cache[obj] = bs
	for _, b := range bs {
		if b.Provenance.Confidence == model.ConfidenceProfile {
			r.used[profileName(b.Provenance.Rule)] = true
		}
	}
	return bs
}

func profileName(rule string) string {
	var name string
	fmt.Sscanf(rule, "profile %s", &name)
	if n := len(name); n > 0 && name[n-1] == ':' {
		name = name[:n-1]
	}
	return name
}

func (r *resolver) compute(obj types.Object) []roles.Binding {
	if fn, ok := obj.(*types.Func); ok {
		obj = fn.Origin()
	}
	var bs []roles.Binding
	bs = append(bs, r.declared[obj]...)
	if obj.Pkg() != nil && obj.Pkg() != r.pass.Pkg {
		var d Declared
		if r.pass.ImportObjectFact(obj, &d) {
			for _, rule := range d.Rules {
				bs = append(bs, roles.Binding{Role: rule.Role, Rule: rule,
					Provenance: model.Provenance{Confidence: model.ConfidenceDeclared, Rule: "directive on " + roles.ShortName(roles.Key(obj))}})
			}
		}
	}
	key := roles.Key(obj)
	bs = append(bs, r.table.Lookup(key)...)
	if fn, ok := obj.(*types.Func); ok && len(bs) == 0 {
		bs = append(bs, r.implemented(fn)...)
	}
	if len(bs) > 0 {
		return bs
	}
	return r.infer(obj)
}

// implemented returns the call roles of the interface methods that a concrete method
// implements (a concrete chat model's Generate is a model call).
func (r *resolver) implemented(fn *types.Func) []roles.Binding {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return nil
	}
	recv := sig.Recv().Type()
	if types.IsInterface(recv) {
		return nil
	}
	var bs []roles.Binding
	for _, key := range r.table.CallableKeys() {
		if !strings.HasSuffix(key, "."+fn.Name()) {
			continue
		}
		iface := r.ifaceOf(key)
		if iface == nil || !hasMethodNamed(iface, fn.Name()) {
			continue
		}
		if types.Implements(recv, iface) || types.Implements(types.NewPointer(recv), iface) {
			for _, b := range r.table.Lookup(key) {
				b.Provenance.Rule += " (implemented by " + roles.ShortName(roles.Key(fn)) + ")"
				bs = append(bs, b)
			}
		}
	}
	return bs
}

func hasMethodNamed(iface *types.Interface, name string) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		if iface.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// ifaceOf finds the interface type of an interface-method key among the imported packages.
func (r *resolver) ifaceOf(key string) *types.Interface {
	if it, ok := r.ifaces[key]; ok {
		return it
	}
	var found *types.Interface
	for path, pkg := range r.pkgs {
		if len(key) <= len(path)+1 || key[:len(path)] != path || key[len(path)] != '.' {
			continue
		}
		rest := key[len(path)+1:]
		for i := 0; i < len(rest); i++ {
			if rest[i] == '.' {
				if tn, ok := pkg.Scope().Lookup(rest[:i]).(*types.TypeName); ok {
					if it, ok := tn.Type().Underlying().(*types.Interface); ok {
						found = it
					}
				}
				break
			}
		}
	}
	r.ifaces[key] = found
	return found
}

// LookupFunc finds a function or method by key among the imported packages.
func (r *resolver) LookupFunc(key string) *types.Func {
	for path, pkg := range r.pkgs {
		if len(key) <= len(path)+1 || key[:len(path)] != path || key[len(path)] != '.' {
			continue
		}
		rest := key[len(path)+1:]
		typ, name := "", rest
		for i := 0; i < len(rest); i++ {
			if rest[i] == '.' {
				typ, name = rest[:i], rest[i+1:]
				break
			}
		}
		if typ == "" {
			if fn, ok := pkg.Scope().Lookup(name).(*types.Func); ok {
				return fn
			}
			continue
		}
		tn, ok := pkg.Scope().Lookup(typ).(*types.TypeName)
		if !ok {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, name)
		if fn, ok := obj.(*types.Func); ok {
			return fn
		}
	}
	return nil
}

func (r *resolver) infer(obj types.Object) []roles.Binding {
	inferred := func(role roles.Role, why string) []roles.Binding {
		return []roles.Binding{{Role: role, Rule: roles.Rule{Role: role, Object: roles.Key(obj)},
			Provenance: model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: " + why}}}
	}
	switch o := obj.(type) {
	case *types.Func:
		sig := o.Type().(*types.Signature)
		if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
			return nil
		}
		if roles.InferModelCall(sig) {
			return inferred(roles.ModelCall, "interface method returns tool calls")
		}
		if impl, ok := crossModel(roles.Key(o)); ok {
			return inferred(roles.ModelCall, "interface method implemented in another package by "+impl+", which calls the model")
		}
		if n := roles.NamedOf(sig.Recv().Type()); n != nil {
			if m, ok := roles.InferToolInterface(n.Obj()); ok && m == o {
				return inferred(roles.ToolCall, "method of a tool interface")
			}
		}
	case *types.TypeName:
		if sig, ok := o.Type().Underlying().(*types.Signature); ok && roles.InferModelCall(sig) {
			return inferred(roles.ModelCall, "func type returns tool calls")
		}
		if _, ok := o.Type().Underlying().(*types.Signature); ok {
			if impl, ok := crossModel(roles.Key(o)); ok {
				return inferred(roles.ModelCall, "func type given "+impl+" in another package, which calls the model")
			}
		}
		if roles.InferStopReasonType(o) {
			return inferred(roles.StopReason, "type with stop reason constants")
		}
		if roles.InferStatusType(o) {
			return inferred(roles.Status, "type with terminal status constants")
		}
		if _, ok := roles.InferToolInterface(o); ok {
			return inferred(roles.Tool, "tool interface")
		}
	case *types.Var:
		if o.Parent() == o.Pkg().Scope() && roles.IsError(o.Type()) {
			if reason, ok := roles.InferBoundError(o.Name()); ok {
				bs := inferred(roles.BoundError, "sentinel error named for a loop bound")
				bs[0].Rule.StopReason = reason
				return bs
			}
		}
	}
	return nil
}

// Has reports whether obj plays role, and returns the binding.
func (r *resolver) Has(obj types.Object, role roles.Role) (roles.Binding, bool) {
	for _, b := range r.Roles(obj) {
		if b.Role == role {
			return b, true
		}
	}
	return roles.Binding{}, false
}

// calleeObj returns the object a call (or a func value expression) refers to: a *types.Func
// for static calls and interface method calls, a *types.Var for func-typed variables and
// fields.
func calleeObj(info *types.Info, fun ast.Expr) types.Object {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			return sel.Obj()
		}
		return info.Uses[f.Sel]
	}
	return nil
}

// staticCallee is typeutil.Callee restricted to functions.
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// typeRoles returns the roles of the named type of a func-typed expression (a call through a
// value of type ai.ModelFunc is a model call).
func (r *resolver) typeRoles(t types.Type) []roles.Binding {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	return r.Roles(n.Origin().Obj())
}
