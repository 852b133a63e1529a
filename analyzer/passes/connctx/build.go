package connctx

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// buildSSA builds the SSA form of the package the way golang.org/x/tools/go/analysis/passes/
// buildssa does, and returns its source functions (function literals included, in source
// order). The pass builds it itself instead of requiring buildssa so that only the packages
// that read a connection's context (see hasConnRoot) pay for it: requiring buildssa builds it
// for every package vetted.
func buildSSA(pass *analysis.Pass) (*ssa.Package, []*ssa.Function) {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	var funcs []*ssa.Function
	var addAnons func(f *ssa.Function)
	addAnons = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			addAnons(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if f := prog.FuncValue(obj); f != nil {
				addAnons(f)
			}
		}
	}
	return pkg, funcs
}
