// Package lifemap builds lifecycle maps: it loads packages (from source for the analyzed
// modules, from export data for the rest; see Load), runs the lifecycle pass on them (and, for
// facts, on their dependencies) with golang.org/x/tools/go/analysis/checker, and turns the
// results into a model.Map with module-relative positions.
package lifemap

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// LoadMode is what the analyzers need from go/packages for the packages they analyze. It
// lacks packages.NeedDeps on purpose: go/packages then type-checks only the packages named as
// patterns from source and reads every other dependency from the compiler's export data (the
// build cache), as go vet does. Load names the analyzed modules' own dependencies as patterns
// too, so that the lifecycle pass's facts flow between them.
const LoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo |
	packages.NeedModule | packages.NeedForTest

// listMode is the first, type-free pass of Load: the import graph with module information,
// from go list alone.
const listMode = packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule

// Options control loading.
type Options struct {
	// Dir is the directory the patterns are resolved in ("" = current directory).
	Dir string
	// Tests includes the test files, as go vet does: a package with tests is returned as its
	// test variant ("p [p.test]", its files and its in-package tests) instead of p, an external
	// test package as itself ("p_test [p.test]"), and the generated test main not at all, so
	// that each file is analyzed once.
	Tests bool
	// Tags are build tags.
	Tags []string
	// SourceRoot is the directory the positions of Python and TypeScript/JavaScript files under
	// it are relative to ("" = the current directory); see BuildSourcesIn.
	SourceRoot string
	// Deps also loads from source every non-standard package the analyzed packages import
	// (other modules included), so that the recognizer follows a run entry into the framework
	// code it reaches without the user listing it.
	Deps bool
}

// Load loads packages for analysis and fails with a clear error when any of them (or a
// dependency) has errors: lifeline does not analyze code that does not type-check.
//
// The packages matching patterns, and the packages of the same modules that they import
// (directly or through other packages of those modules), are parsed and type-checked from
// source; everything else (the standard library, third-party modules) comes from export data
// and is never type-checked from source. The lifecycle pass therefore carries facts (model
// calls reached through helpers, loops, directives) between the packages of the analyzed
// modules, but not out of other modules: their roles come from the mapping profiles and
// directives bound to their exported API. Load returns the packages matching patterns only.
//
// The packages of the modules that patterns do not match are found with a first, type-free go
// list. A "./..." pattern usually matches all of them: Load then loads the patterns alone and
// checks afterwards, loading again with the missing packages when there are some.
func Load(patterns []string, opts Options) ([]*packages.Package, error) {
	var flags []string
	if len(opts.Tags) > 0 {
		flags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	files := false
	for _, p := range patterns {
		files = files || strings.HasSuffix(p, ".go")
	}
	var extra []string
	if !files && !slices.Contains(patterns, "./...") {
		cfg := &packages.Config{Mode: listMode, Dir: opts.Dir, Tests: opts.Tests, BuildFlags: flags}
		listed, err := packages.Load(cfg, patterns...)
		if err != nil {
			return nil, fmt.Errorf("listing Go packages %s in %s (Go patterns resolve in that directory's module): %w", strings.Join(patterns, " "), dirOrCwd(opts.Dir), err)
		}
		extra = moduleImports(listed)
		if opts.Deps {
			extra = nonStdImports(listed)
		}
	}
	pkgs, err := loadTyped(patterns, extra, opts, flags)
	if err != nil {
		return nil, err
	}
	if !files && extra == nil {
		missing := moduleImports(pkgs)
		if opts.Deps {
			missing = nonStdImports(pkgs)
		}
		if len(missing) > 0 {
			if pkgs, err = loadTyped(patterns, missing, opts, flags); err != nil {
				return nil, err
			}
		}
	}
	if opts.Tests {
		pkgs = testVariants(pkgs)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	errs := loadErrors(pkgs)
	if len(errs) > 0 {
		const max = 10
		more := ""
		if len(errs) > max {
			more = fmt.Sprintf("\n\t(and %d more)", len(errs)-max)
			errs = errs[:max]
		}
		return nil, fmt.Errorf("packages do not load or type-check:\n\t%s%s", strings.Join(errs, "\n\t"), more)
	}
	return pkgs, nil
}

// loadErrors returns the errors of pkgs and their dependencies, each once, positions
// module-relative. When a package has type or syntax errors, the go command's report of its
// failed compilation ("# pkg" and the same errors again, at position "-") is left out.
func loadErrors(pkgs []*packages.Package) []string {
	rel := NewRelativizer(pkgs)
	var errs []string
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typed := false
		for _, e := range p.Errors {
			typed = typed || e.Kind == packages.TypeError || e.Kind == packages.ParseError
		}
		for _, e := range p.Errors {
			if typed && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relPos(rel, e.Pos) + ": " + e.Msg
			}
			if !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	})
	return errs
}

// relPos rewrites the file of a "file:line:col" position with rel.
func relPos(rel *Relativizer, pos string) string {
	file, rest := pos, ""
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 || strings.Trim(file[i+1:], "0123456789") != "" || i == len(file)-1 {
			break
		}
		file, rest = file[:i], file[i:]+rest
	}
	if !filepath.IsAbs(file) {
		return pos
	}
	return rel.Rel(file) + rest
}

// loadTyped loads patterns and extra with LoadMode (both from source, their dependencies from
// export data) and returns the packages patterns match.
func loadTyped(patterns, extra []string, opts Options, flags []string) ([]*packages.Package, error) {
	var all []*packages.Package
	var err error
	if opts.Tests && len(extra) > 0 {
		all, err = loadTests(patterns, extra, opts, flags)
	} else {
		cfg := &packages.Config{Mode: LoadMode, Dir: opts.Dir, Tests: opts.Tests, BuildFlags: flags}
		all, err = packages.Load(cfg, append(append([]string{}, patterns...), extra...)...)
	}
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	// Packages read from export data have types but no syntax and no types.Info; the checker
	// still runs the analyzers that carry facts (the lifecycle pass, ctrlflow) on them, and those
	// expect an Info to look their (absent) declarations up in.
	packages.Visit(all, nil, func(p *packages.Package) {
		if p.TypesInfo == nil && p.Types != nil {
			p.TypesInfo = emptyInfo()
		}
	})
	if len(extra) == 0 {
		return all, nil
	}
	isExtra := map[string]bool{}
	for _, e := range extra {
		isExtra[e] = true
	}
	var pkgs []*packages.Package
	for _, p := range all {
		if !isExtra[p.PkgPath] {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// testVariants keeps the packages go vet checks when test files are included: p is left out
// when its test variant (the package recompiled with its _test.go files) is there, and so is
// the generated test main.
func testVariants(pkgs []*packages.Package) []*packages.Package {
	tested := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" && p.ForTest == p.PkgPath {
			tested[p.PkgPath] = true
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		testMain := p.Name == "main" && strings.HasSuffix(p.ID, ".test") && tested[strings.TrimSuffix(p.ID, ".test")]
		if p.ForTest == "" && tested[p.PkgPath] || testMain {
			continue
		}
		out = append(out, p)
	}
	return out
}

// moduleImports returns the import paths of the packages of roots' modules that roots import,
// directly or through other packages of those modules, and that are not among roots. Packages
// outside any module (the standard library, GOPATH) bring no others.
func moduleImports(roots []*packages.Package) []string {
	mods := map[string]bool{}
	paths := map[string]bool{}
	for _, p := range roots {
		paths[p.PkgPath] = true
		if p.Module != nil {
			mods[p.Module.Path] = true
		}
	}
	var extra []string
	seen := map[string]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		for _, q := range p.Imports {
			if seen[q.ID] || q.Module == nil || !mods[q.Module.Path] {
				continue
			}
			seen[q.ID] = true
			if !paths[q.PkgPath] {
				paths[q.PkgPath] = true
				extra = append(extra, q.PkgPath)
			}
			visit(q)
		}
	}
	for _, p := range roots {
		visit(p)
	}
	sort.Strings(extra)
	return extra
}

// nonStdImports returns the import paths of the packages that roots import, directly or
// through other packages, that belong to roots' own modules or to the modules roots import
// directly (the framework an agent is built on), and that are not among roots. Deeper
// dependencies (provider SDKs' transports, cloud clients) stay export data: following every
// module from source costs minutes and gigabytes on real projects.
func nonStdImports(roots []*packages.Package) []string {
	mods := map[string]bool{}
	for _, p := range roots {
		if p.Module != nil {
			mods[p.Module.Path] = true
		}
	}
	for _, p := range roots {
		for _, q := range p.Imports {
			if q.Module != nil {
				mods[q.Module.Path] = true
			}
		}
	}
	paths := map[string]bool{}
	for _, p := range roots {
		paths[p.PkgPath] = true
	}
	var extra []string
	seen := map[string]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		for _, q := range p.Imports {
			if seen[q.ID] || q.Module == nil || !mods[q.Module.Path] {
				continue
			}
			seen[q.ID] = true
			if !paths[q.PkgPath] {
				paths[q.PkgPath] = true
				extra = append(extra, q.PkgPath)
			}
			visit(q)
		}
	}
	for _, p := range roots {
		visit(p)
	}
	sort.Strings(extra)
	return extra
}

// Build runs the lifecycle pass on pkgs and assembles their map.
func Build(pkgs []*packages.Package) (*model.Map, error) {
	passLoops := map[model.Position]bool{} // the pass's loops, once reconciled with the recognizer
	var passSites []model.CallSite
	graph, err := checker.Analyze([]*analysis.Analyzer{lifecycle.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, fmt.Errorf("analyzing: %w", err)
	}
	m := &model.Map{Packages: []string{}, Entries: []model.Entry{}}
	rel := NewRelativizer(pkgs)
	m.Module = rel.Main
	profiles := map[string]bool{}
	var errs []error
	for _, act := range graph.Roots {
		if act.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", act.Package.PkgPath, act.Err))
			continue
		}
		res, ok := act.Result.(*lifecycle.Result)
		if !ok {
			continue
		}
		m.Packages = append(m.Packages, act.Package.PkgPath)
		for _, p := range res.Profiles {
			profiles[p] = true
		}
		m.Entries = append(m.Entries, res.Entries...)
		for _, l := range res.Loops {
			passLoops[l.Map.Pos] = true
			if !l.Retry {
				// the model calls the pass reached (through helpers and the facts of other
				// packages): the recognizer's exits count a call reaching one as a step
				passSites = append(passSites, l.Map.ModelCalls...)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := addRecognized(m, pkgs, passLoops, passSites); err != nil {
		return nil, err
	}
	for p := range profiles {
		m.Profiles = append(m.Profiles, p)
	}
	sort.Strings(m.Profiles)
	sort.Strings(m.Packages)
	Relativize(m, rel.Rel)
	sort.SliceStable(m.Entries, func(i, j int) bool { return m.Entries[i].Pos.Less(m.Entries[j].Pos) })
	inferTerms(m)
	return m, nil
}

// Relativizer maps absolute file names to module-relative paths.
type Relativizer struct {
	// Main is the main module's path ("" when the packages belong to none).
	Main string
	mods []mod
}

type mod struct {
	dir, path string
	main      bool
}

// NewRelativizer collects the modules of pkgs and their dependencies.
func NewRelativizer(pkgs []*packages.Package) *Relativizer {
	r := &Relativizer{}
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module == nil || p.Module.Dir == "" || seen[p.Module.Dir] {
			return
		}
		seen[p.Module.Dir] = true
		r.mods = append(r.mods, mod{dir: filepath.Clean(p.Module.Dir), path: p.Module.Path, main: p.Module.Main})
		if p.Module.Main && r.Main == "" {
			r.Main = p.Module.Path
		}
	})
	sort.Slice(r.mods, func(i, j int) bool { return len(r.mods[i].dir) > len(r.mods[j].dir) })
	return r
}

// Rel returns file relative to its module: "dir/file.go" in the main module,
// "module/path/dir/file.go" in another module, the file name unchanged otherwise.
func (r *Relativizer) Rel(file string) string {
	if file == "" {
		return ""
	}
	for _, m := range r.mods {
		rel, err := filepath.Rel(m.dir, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if m.main {
			return rel
		}
		return m.path + "/" + rel
	}
	return filepath.ToSlash(file)
}

// Relativize rewrites every position of m with rel.
func Relativize(m *model.Map, rel func(string) string) {
	fix := func(p *model.Position) { p.File = rel(p.File) }
	for i := range m.Entries {
		e := &m.Entries[i]
		fix(&e.Pos)
		for j := range e.Exits {
			fix(&e.Exits[j].Pos)
		}
		for j := range e.IDs {
			fix(&e.IDs[j].Pos)
		}
		for j := range e.Loops {
			l := &e.Loops[j]
			// loops are shared between entries (facts): copy before rewriting
			l.ModelCalls = append([]model.CallSite{}, l.ModelCalls...)
			l.ToolCalls = append([]model.CallSite{}, l.ToolCalls...)
			fix(&l.Pos)
			fix(&l.CancelPos)
			if l.Bound != nil {
				b := *l.Bound
				fix(&b.Pos)
				fix(&b.DefaultPos)
				fix(&b.PassedPos)
				l.Bound = &b
			}
			if l.OnBound != nil {
				ob := *l.OnBound
				fix(&ob.Pos)
				l.OnBound = &ob
			}
			for k := range l.ModelCalls {
				fix(&l.ModelCalls[k].Pos)
			}
			for k := range l.ToolCalls {
				fix(&l.ToolCalls[k].Pos)
			}
		}
	}
}

// dirOrCwd names the directory the go command runs in.
func dirOrCwd(dir string) string {
	if dir != "" {
		return dir
	}
	return "the current directory"
}
