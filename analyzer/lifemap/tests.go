package lifemap

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// testMode is what loadTests asks go/packages about the test packages: metadata and export
// files only, nothing parsed or type-checked.
const testMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule | packages.NeedForTest | packages.NeedExportFile

// loadTests loads patterns with their test packages and extra without theirs, all from source,
// in one graph, and returns the packages of both. go/packages cannot do that in one call: with Tests it builds the test
// variants of every package it is given, and go list then compiles the test-only dependencies
// of the extra packages too (minutes on a fresh build cache: testcontainers, cloud SDKs),
// although the extra packages are there only for the facts their own code carries.
//
// So the patterns and extra are loaded without tests (one go/packages call, LoadMode), the
// metadata of the patterns' test packages with a second call (testMode: files, imports and
// export files, which the build cache holds as go vet needs them too), and the test variants
// ("p [p.test]", "p_test [p.test]") are type-checked here against the packages of the first
// call, as go/packages would have: function bodies are checked in the test variants of the
// patterns only; a package that imports one of them (a dependency recompiled for the test,
// "r [p.test]") is checked from source with its function bodies ignored; every other
// dependency comes from the first call or, when only the tests import it, from export data.
func loadTests(patterns, extra []string, opts Options, flags []string) ([]*packages.Package, error) {
	fset := token.NewFileSet()
	cfg := &packages.Config{Mode: LoadMode, Dir: opts.Dir, BuildFlags: flags, Fset: fset}
	all, err := packages.Load(cfg, append(append([]string{}, patterns...), extra...)...)
	if err != nil {
		return nil, err
	}
	tcfg := &packages.Config{Mode: testMode, Dir: opts.Dir, Tests: true, BuildFlags: flags}
	listed, err := packages.Load(tcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("test packages: %w", err)
	}
	l := &testLoader{fset: fset, byID: map[string]*packages.Package{}, done: map[string]*packages.Package{}, roots: map[string]bool{}}
	packages.Visit(all, nil, func(p *packages.Package) {
		l.byID[p.ID] = p
		if l.sizes == nil && p.TypesSizes != nil {
			l.sizes = p.TypesSizes
		}
	})
	var variants []*packages.Package
	for _, p := range listed {
		if p.ForTest != "" && l.byID[p.ID] == nil && !strings.HasSuffix(p.ID, ".test") {
			l.roots[p.ID] = true
			variants = append(variants, p)
		}
	}
	out := all
	for _, v := range variants {
		p, err := l.load(v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// testLoader type-checks the test packages of loadTests.
type testLoader struct {
	fset *token.FileSet
	// byID are the packages of the first go/packages call, done the test packages made here,
	// roots the test variants of the patterns (checked with their function bodies).
	byID, done map[string]*packages.Package
	roots      map[string]bool
	sizes      types.Sizes
}

// load returns the package of the listed test package m (or of a package it imports), made
// after its imports.
func (l *testLoader) load(m *packages.Package) (*packages.Package, error) {
	if p := l.done[m.ID]; p != nil {
		return p, nil
	}
	if p := l.byID[m.ID]; p != nil {
		l.done[m.ID] = p
		if p.Types != nil && p.Types.Complete() || p.PkgPath == "unsafe" {
			return p, nil
		}
		// A dependency the first call did not need (only the tests use it): its types are
		// completed from export data in place, since the first call's packages may refer to
		// some of its objects already.
		for _, im := range m.Imports {
			if _, err := l.load(im); err != nil {
				return nil, err
			}
		}
		if err := l.readExport(p, m.ExportFile); err != nil {
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: fmt.Sprintf("reading export data of %s: %v", m.ID, err), Kind: packages.ListError})
		}
		return p, nil
	}
	p := &packages.Package{
		ID: m.ID, Name: m.Name, PkgPath: m.PkgPath, ForTest: m.ForTest, GoFiles: m.GoFiles,
		CompiledGoFiles: m.CompiledGoFiles, OtherFiles: m.OtherFiles, IgnoredFiles: m.IgnoredFiles,
		Module: m.Module, Errors: slices.Clone(m.Errors), Fset: l.fset, TypesSizes: l.sizes,
		Imports: map[string]*packages.Package{},
	}
	l.done[m.ID] = p // an import cycle (reported by go list) ends here
	fromSource := l.roots[m.ID]
	for path, im := range m.Imports {
		ip, err := l.load(im)
		if err != nil {
			return nil, err
		}
		p.Imports[path] = ip
		fromSource = fromSource || len(ip.Syntax) > 0 // export data would not match its source types
	}
	if m.PkgPath == "unsafe" {
		p.Types = types.Unsafe
	} else if fromSource {
		l.check(p, !l.roots[m.ID])
	} else if err := l.readExport(p, m.ExportFile); err != nil {
		p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: fmt.Sprintf("reading export data of %s: %v", m.ID, err), Kind: packages.ListError})
	}
	if p.Types == nil {
		p.Types = types.NewPackage(p.PkgPath, p.Name)
		p.IllTyped = true
	}
	if p.TypesInfo == nil {
		p.TypesInfo = emptyInfo()
	}
	return p, nil
}

// check parses and type-checks p from its compiled files.
func (l *testLoader) check(p *packages.Package, ignoreBodies bool) {
	for _, name := range p.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			p.Errors = append(p.Errors, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
			continue
		}
		f, err := parser.ParseFile(l.fset, name, src, parser.AllErrors|parser.ParseComments)
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			p.Errors = append(p.Errors, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	p.TypesInfo = &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			ip := p.Imports[path]
			if ip == nil || ip.Types == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return ip.Types, nil
		}),
		IgnoreFuncBodies: ignoreBodies,
		Sizes:            l.sizes,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				return
			}
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.TypeError})
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	_ = types.NewChecker(tc, l.fset, p.Types, p.TypesInfo).Files(p.Syntax) // errors are in p.Errors
	p.IllTyped = len(p.Errors) > 0
}

// readExport reads p's types from export data, in the view of its transitive imports (and of
// p.Types itself, which the reader completes when it is there).
func (l *testLoader) readExport(p *packages.Package, file string) error {
	if file == "" {
		return errors.New("no export data file")
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return err
	}
	view := map[string]*types.Package{}
	seen := map[*packages.Package]bool{}
	var visit func(imports map[string]*packages.Package)
	visit = func(imports map[string]*packages.Package) {
		for _, ip := range imports {
			if !seen[ip] {
				seen[ip] = true
				if ip.Types != nil {
					view[ip.PkgPath] = ip.Types
				}
				visit(ip.Imports)
			}
		}
	}
	visit(p.Imports)
	if p.Types != nil {
		view[p.PkgPath] = p.Types
	}
	tp, err := gcexportdata.Read(r, l.fset, view, p.PkgPath)
	if err != nil {
		return err
	}
	p.Types = tp
	return nil
}

// emptyInfo is the types.Info of a package read from export data: the checker still runs the
// fact-carrying analyzers on it, and those look their (absent) declarations up in it.
func emptyInfo() *types.Info {
	return &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{},
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
