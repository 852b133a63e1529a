package goir

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestClassifyLinear: an error rebuilt through switches of many cases, level after level, is a
// web of phis whose edges all lead to the level before; classifying the returned value must
// visit each value once, not every path (the unmemoized walk made 20^6 visits here).
func TestClassifyLinear(t *testing.T) {
	var src strings.Builder
	src.WriteString("package p\n\ntype E struct{ err error }\n\nfunc (e *E) Error() string { return \"e\" }\n\n" +
		"func wrap(err error) error { return &E{err} }\n\nfunc F(k []int) error {\n\tvar err error\n")
	const levels, cases = 6, 20
	for l := range levels {
		fmt.Fprintf(&src, "\tswitch k[%d] {\n", l)
		for c := range cases {
			fmt.Fprintf(&src, "\tcase %d:\n\t\terr = wrap(err)\n", c)
		}
		src.WriteString("\t}\n")
	}
	src.WriteString("\treturn err\n}\n")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src.String(), parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	before := classifySteps.Load()
	if _, err := BuildSources(fset, []Source{{Types: pkg, Syntax: []*ast.File{f}, TypesInfo: info}}); err != nil {
		t.Fatal(err)
	}
	if steps := classifySteps.Load() - before; steps > 50*levels*cases {
		t.Errorf("classify took %d steps for %d phi edges: not linear", steps, levels*cases)
	}
}
