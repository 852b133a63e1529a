package lifecycle

import (
	"go/ast"
	"go/types"
	"iter"
	"sort"
	"strings"
	"sync"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis/checker"
)

// implFlag is the -implmodels flag: the interface methods and func types whose
// implementations in other packages call the model, as KEY=IMPLEMENTATION pairs separated by
// commas. A package analyzed on its own cannot see the packages that import it; a driver that
// holds the whole program (lifeline vet) computes the list from a first round
// (CrossPackageModels) and analyzes again with it.
var implFlag string

func init() {
	Analyzer.Flags.StringVar(&implFlag, "implmodels", "", "comma-separated KEY=IMPLEMENTATION pairs: interface methods and func types (profile keys) whose implementations in other packages call the model (lifeline vet sets it from a first round over the whole program)")
}

// implModels parses -implmodels once per value: key → the implementations named.
var implModels struct {
	sync.Mutex
	flag string
	m    map[string]string
}

func crossModel(key string) (string, bool) {
	implModels.Lock()
	defer implModels.Unlock()
	if implModels.m == nil || implModels.flag != implFlag {
		implModels.flag, implModels.m = implFlag, map[string]string{}
		for _, kv := range strings.Split(implFlag, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			if k != "" {
				implModels.m[k] = v
			}
		}
	}
	impl, ok := implModels.m[key]
	return impl, ok
}

// ImplModelsFlag is the name of the flag CrossPackageModels' result is set to.
const ImplModelsFlag = "implmodels"

// loopCalls adds to keys the interface methods and named func types called in body (closures
// included): p.Next(ctx, h) through an interface, step(ctx, st) through a func type.
func loopCalls(info *types.Info, body *ast.BlockStmt, keys map[string]bool) {
	if body == nil {
		return
	}
	ast.Inspect(body, func(node ast.Node) bool {
		call, ok := node.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if fn, ok := info.Uses[sel.Sel].(*types.Func); ok {
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
					keys[roles.Key(fn)] = true
				}
			}
		}
		if n, ok := types.Unalias(info.TypeOf(call.Fun)).(*types.Named); ok {
			if _, ok := n.Underlying().(*types.Signature); ok {
				keys[roles.Key(n.Obj())] = true
			}
		}
		return true
	})
}

// funcValue returns the declared function or method a value expression names (f, pkg.F,
// c.Method), nil for anything else.
func funcValue(info *types.Info, e ast.Expr) *types.Func {
	var obj types.Object
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj = info.Uses[x]
	case *ast.SelectorExpr:
		obj = info.Uses[x.Sel]
	}
	fn, _ := obj.(*types.Func)
	return fn
}

// CrossPackageModels reads the facts of a finished analysis of a whole program (the lifecycle
// actions among acts) and returns the -implmodels value that lets each package see the model
// calls its interfaces and func types lead to in the packages that import it: an interface
// method (or a named func type) that takes a context.Context first and returns an error, that
// nothing else makes a model call, implemented in another package by a method (or, for a func
// type, a function or method converted to it there) whose summary reaches a model call and runs
// no turn loop of its own (an agent run through an interface is a run, not a model call), and
// that some loop calls. The value is "" when there is none.
func CrossPackageModels(acts iter.Seq[*checker.Action]) string {
	type impl struct {
		fn  *types.Func
		pkg *types.Package
	}
	var impls []impl
	var ifaces, funcTypes []*types.TypeName
	// func types a function is converted or assigned to, by the package that does it
	uses := map[*types.TypeName][]impl{}
	// the keys of the interface methods and func types called inside a loop somewhere: only
	// those can make a loop a turn loop
	inLoop := map[string]bool{}
	seenPkg := map[*types.Package]bool{}
	table, _ := ProfileTable()
	for act := range acts {
		if act.Analyzer.Name != Analyzer.Name || act.Err != nil || act.Package == nil || act.Package.Types == nil {
			continue
		}
		pkg := act.Package.Types
		if seenPkg[pkg] {
			continue
		}
		seenPkg[pkg] = true
		for _, of := range act.AllObjectFacts() {
			fn, ok := of.Object.(*types.Func)
			s, isSum := of.Fact.(*Summary)
			if !ok || !isSum || fn.Pkg() != pkg || len(s.Model) == 0 || len(s.Loops) > 0 || s.Runs {
				continue
			}
			impls = append(impls, impl{fn: fn, pkg: pkg})
		}
		for _, name := range pkg.Scope().Names() {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			switch tn.Type().Underlying().(type) {
			case *types.Interface:
				ifaces = append(ifaces, tn)
			case *types.Signature:
				funcTypes = append(funcTypes, tn)
			}
		}
		info := act.Package.TypesInfo
		if info == nil {
			continue
		}
		// a function or method value handed where a named func type is expected: a call's
		// argument, a conversion, a composite literal's field, an assignment
		use := func(t types.Type, e ast.Expr) {
			n, ok := types.Unalias(t).(*types.Named)
			if !ok {
				return
			}
			if _, ok := n.Underlying().(*types.Signature); !ok {
				return
			}
			if fn := funcValue(info, e); fn != nil {
				uses[n.Obj()] = append(uses[n.Obj()], impl{fn: fn, pkg: pkg})
			}
		}
		for _, f := range act.Package.Syntax {
			ast.Inspect(f, func(node ast.Node) bool {
				switch x := node.(type) {
				case *ast.ForStmt:
					loopCalls(info, x.Body, inLoop)
				case *ast.RangeStmt:
					loopCalls(info, x.Body, inLoop)
				}
				switch x := node.(type) {
				case *ast.CallExpr:
					if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
						use(tv.Type, x.Args[0])
						return true
					}
					sig, ok := types.Unalias(info.TypeOf(x.Fun)).(*types.Signature)
					if !ok {
						return true
					}
					for i, a := range x.Args {
						switch {
						case i < sig.Params().Len()-1 || !sig.Variadic() && i < sig.Params().Len():
							use(sig.Params().At(i).Type(), a)
						case sig.Variadic() && sig.Params().Len() > 0:
							if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok {
								use(sl.Elem(), a)
							}
						}
					}
				case *ast.KeyValueExpr:
					if id, ok := x.Key.(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
							use(v.Type(), x.Value)
						}
					}
				case *ast.AssignStmt:
					if len(x.Lhs) == len(x.Rhs) {
						for i, l := range x.Lhs {
							use(info.TypeOf(l), x.Rhs[i])
						}
					}
				}
				return true
			})
		}
	}
	// model-calling functions, for the func types' conversions
	calls := map[*types.Func]bool{}
	for _, im := range impls {
		calls[im.fn] = true
	}
	decides := func(sig *types.Signature) bool {
		res := sig.Results()
		return sig.Params().Len() > 0 && roles.IsContext(sig.Params().At(0).Type()) &&
			res.Len() >= 1 && roles.IsError(res.At(res.Len()-1).Type()) && !roles.InferModelCall(sig)
	}
	bound := func(key string) bool { return table != nil && len(table.Lookup(key)) > 0 }
	found := map[string]string{}
	for _, tn := range ifaces {
		it := tn.Type().Underlying().(*types.Interface)
		for i := 0; i < it.NumMethods(); i++ {
			m := it.Method(i)
			key := roles.Key(m)
			if key == "" || bound(key) || !decides(m.Type().(*types.Signature)) {
				continue
			}
			for _, im := range impls {
				sig := im.fn.Type().(*types.Signature)
				if im.pkg == tn.Pkg() || im.fn.Name() != m.Name() || sig.Recv() == nil {
					continue
				}
				recv := sig.Recv().Type()
				if types.IsInterface(recv) {
					continue
				}
				if types.Implements(recv, it) || types.Implements(types.NewPointer(recv), it) {
					found[key] = roles.ShortName(roles.Key(im.fn))
					break
				}
			}
		}
	}
	for _, tn := range funcTypes {
		key := roles.Key(tn)
		if key == "" || bound(key) || !decides(tn.Type().Underlying().(*types.Signature)) {
			continue
		}
		for _, u := range uses[tn] {
			if u.pkg != tn.Pkg() && calls[u.fn] {
				found[key] = roles.ShortName(roles.Key(u.fn))
				break
			}
		}
	}
	var out []string
	for k, v := range found {
		if !inLoop[k] {
			continue
		}
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
