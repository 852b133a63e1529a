package goir_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"golang.org/x/tools/go/packages"
)

const mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

func load(t *testing.T) *ir.Program {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: "../recognize/testdata/shapes"}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}
