package goir

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestBodiesIgnored: go/packages type-checks some dependencies with their function bodies
// ignored (syntax without the types of the bodies' identifiers); SSA cannot be built from that,
// and an instantiation of one of its generic functions, or one of its half-built methods asked
// for by the call graph, made the whole program fail (trpc-agent-go through otel/metric). Such
// a package contributes its types only, and the others still make a program.
func TestBodiesIgnored(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	newInfo := func() *types.Info {
		return &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
			Instances: map[*ast.Ident]types.Instance{}}
	}
	depFile := parse("dep.go", `package dep

type Counter struct{ n int }

func (c *Counter) Add(d int) int { var x = c.n + d; c.n = x; return helper(x) }

func helper(x int) int { return x * 2 }

type Gauge struct{ v int }

func (g *Gauge) Set(v int) int { g.v = helper(v); return g.v }

// Meter is implemented by both.
type Meter interface{ Value() int }

func (c *Counter) Value() int { return helper(c.n) }

func (g Gauge) Value() int { return helper(g.v) }

// Twice applies f twice.
func Twice[T any](x T, f func(T) T) T { return f(f(x)) }
`)
	depInfo := newInfo()
	dep, err := (&types.Config{IgnoreFuncBodies: true}).Check("example.com/dep", fset, []*ast.File{depFile}, depInfo)
	if err != nil {
		t.Fatal(err)
	}
	mainFile := parse("main.go", `package app

import "example.com/dep"

func Run(c *dep.Counter) int { return dep.Twice(c.Add(1), func(x int) int { return x + 1 }) }
`)
	mainInfo := newInfo()
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "example.com/dep" {
			return dep, nil
		}
		return importer.Default().Import(path)
	})
	app, err := (&types.Config{Importer: imp}).Check("example.com/app", fset, []*ast.File{mainFile}, mainInfo)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := BuildSources(fset, []Source{
		{Types: dep, Syntax: []*ast.File{depFile}, TypesInfo: depInfo},
		{Types: app, Syntax: []*ast.File{mainFile}, TypesInfo: mainInfo},
	})
	if err != nil {
		t.Fatalf("a dependency checked without bodies fails the program: %v", err)
	}
	names := map[string]bool{}
	for _, f := range prog.Funcs {
		names[f.Name] = true
	}
	if !names["example.com/app.Run"] {
		t.Errorf("app.Run missing: %v", names)
	}
	if names["(*example.com/dep.Counter).Add"] {
		t.Errorf("dep.Counter.Add built from a body without types: %v", names)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
