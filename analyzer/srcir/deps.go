package srcir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// Dependencies: a mapped file that imports an installed package reaches the code of that
// package (Vercel's ai behind @voltagent/core's Agent.generateText, @langchain/langgraph's
// Pregel loop behind langchain's createAgent), as a Go package reaches the packages it
// imports. BuildWithDeps follows the imports of the analysed files into the installed
// packages they name, lazily and by name: a module of a dependency is read only when a
// top-level statement of the code already read uses a name it defines or re-exports (the
// analysed files: every statement; a dependency's module: the statements defining the
// names asked of it, and what those use in turn), so a package's entry that re-exports a
// hundred modules costs the few that define what is used.
//
// JS/TS: a bare specifier resolves as Node does, from the importing file's directory up
// through node_modules (package.json "exports" with the "import" or "require" condition as
// the importing file uses, "node", "default"; else "module" or "main"; else index.js).
// Python: an absolute module resolves in the site-packages (or --target) directory the
// analysed files' packages sit in. Unresolvable imports stay unresolved, as before. The
// modules of the analysed files' own packages are not loaded (a user who names five files of
// a package gets those five), and a dependency's imports of a further package are followed
// once more (maxDepHops: an app on a framework on an engine), no further; the whole is
// bounded (maxDepBytes).

// maxDepHops is how many package boundaries the loading crosses from the analysed files: 2
// = the packages they import and those packages' own dependencies (@acme/app → midlayer →
// steploop in lifemap/testdata/deps), not further.
const maxDepHops = 2

// maxDepBytes bounds the source read from dependencies; maxDepFile is the largest module of a
// dependency read (a vendored blob of several megabytes is no code the flow needs read).
const (
	maxDepBytes = 12 << 20
	maxDepFile  = 1 << 20
)

// Deps describes the dependency files BuildWithDeps read: by absolute file name, the name
// to show for the file, its package's name and its path in the package
// ("ai/dist/index.js"), or its path from the site-packages directory
// ("pydantic_graph/graph.py").
type Deps map[string]string

// BuildWithDeps is BuildFiles that also reads the modules of installed dependencies the
// files reach (see the comment above maxDepHops). It returns the dependency files read.
func BuildWithDeps(files []string, roots ...string) (*ir.Program, []Diag, Deps, error) {
	p, err := ParseFiles(files, roots...)
	if err != nil {
		return nil, nil, nil, err
	}
	dl, err := p.LoadDeps()
	if err != nil {
		return nil, nil, nil, err
	}
	prog, diags := dl.Build()
	return prog, diags, dl.Deps, nil
}

// DepLoad is what LoadDeps read: the analysed files' trees with those of the dependency
// modules they reach, ready to build (BuildWithDeps's second half).
type DepLoad struct {
	// Deps are the dependency files the analysed files reach (BuildWithDeps's Deps): none
	// when no import resolves to an installed module defining a name used.
	Deps  Deps
	l     *depLoader
	roots []string
	trees []*syntax.Tree
	orig  map[string][]byte
	lines map[string][]string
	specs map[string]string
	diags []Diag // the files that could not be read or parsed, the analysed and the dependencies'
}

// LoadDeps reads the modules of the installed dependencies the parsed files reach (see the
// comment above maxDepHops), from the parsed trees (they are not parsed again).
func (p *Parsed) LoadDeps() (*DepLoad, error) {
	trees := slices.Clip(p.trees)
	orig, lines := maps.Clone(p.orig), maps.Clone(p.lines)
	diags := slices.Clip(p.diags)
	l := newDepLoader(trees, p.roots)
	// A worklist, not a turn loop: the loop ends when no file is pending, and each file is
	// read once.
	for len(l.pending) > 0 {
		batch := l.pending
		l.pending = nil
		sort.Strings(batch)
		dt, dorig, dlines, ddiags, err := parseFiles(batch)
		if err != nil {
			return nil, err
		}
		for _, d := range ddiags {
			_, d.Name = l.displayOf(d.Pos.File)
			diags = append(diags, d)
		}
		for f, o := range dorig {
			orig[f] = o
		}
		for f, ls := range dlines {
			lines[f] = ls
		}
		for _, t := range dt {
			l.loaded(t)
		}
		l.drain()
	}
	deps := Deps{}
	for _, f := range l.order {
		if f.dep && f.used {
			trees = append(trees, f.tree)
			deps[f.tree.File] = f.display
		}
	}
	specs := map[string]string{}
	for s, f := range l.specs {
		if l.files[f] != nil && (!l.files[f].dep || l.files[f].used) {
			specs[s] = f
		}
	}
	return &DepLoad{Deps: deps, l: l, roots: p.roots, trees: trees, orig: orig, lines: lines, specs: specs, diags: diags}, nil
}

// Build builds the IR of the analysed files and the dependency modules read, as
// BuildWithDeps: the files that could not be read or parsed, the build's own diagnostics,
// then the syntax errors of the dependency files read (DepLoad.Diags's last part).
func (d *DepLoad) Build() (*ir.Program, []Diag) {
	prog, bd := build(d.trees, d.orig, d.lines, d.specs, d.Deps, d.roots...)
	return prog, append(append(slices.Clip(d.diags), bd...), d.l.diagnostics()...)
}

// Diags are Build's diagnostics without building: those of the files that could not be read
// or parsed and the syntax errors of the dependency files read, not the build's own (which
// name an analysed function, with an empty Diag.Name).
func (d *DepLoad) Diags() []Diag {
	return append(slices.Clip(d.diags), d.l.diagnostics()...)
}

// maxDepDiags is how many syntax errors are reported for one dependency file.
const maxDepDiags = 3

// diagnostics reports the syntax errors of the dependency files read that overlap a
// statement the loader read (what the analysed code reaches through it), and, in a file asked
// for a name it was not found to define, those outside every statement read (a definition
// the error may have swallowed). Diag.Name names the file as the map does.
func (l *depLoader) diagnostics() []Diag {
	var out []Diag
	for _, f := range l.order {
		if !f.dep || f.tree == nil || len(f.tree.Errors) == 0 {
			continue
		}
		var n int
		for _, r := range f.tree.Errors {
			read := false
			for i, s := range f.stmts {
				read = read || f.done[i] && s.Start <= r.End && r.Start <= s.End
			}
			if !read && !f.missed {
				continue
			}
			if n++; n > maxDepDiags {
				continue
			}
			what := "in the code the analysed files reach"
			if !read {
				what = "where a name the analysed files import was looked for"
			}
			out = append(out, Diag{Pos: ir.Pos{File: f.tree.File, Line: r.Line}, Name: f.display,
				Msg: fmt.Sprintf("%s in a dependency, %s: facts there may be missing", describeRegion(f.tree, r), what)})
		}
		if n > maxDepDiags {
			last := out[len(out)-1]
			last.Msg = fmt.Sprintf("and %d more syntax errors in this dependency file", n-maxDepDiags)
			out = append(out, last)
		}
	}
	return out
}

// depFile is a file the loader read: an analysed one or a dependency's.
type depFile struct {
	tree    *syntax.Tree
	m       *module // a scratch module: its imports, re-exports and top-level names
	dep     bool
	hop     int
	pkgDir  string // JS: the package's directory; Python: the site directory
	display string
	// stmts are the top-level statements, decl the statements declaring each name
	stmts []*syntax.Node
	decl  map[string][]int
	done  map[int]bool
	asked map[string]bool
	// want are the names asked before the file was parsed
	want []string
	// used: a name asked of it is defined or re-exported there (or it is analysed)
	used bool
	// resolved caches the files of the bare specifiers it imports
	resolved map[string]string
	// missed: a name asked of it is neither defined nor re-exported there
	missed bool
}

type depLoader struct {
	scratch *builder
	files   map[string]*depFile
	order   []*depFile
	// starAsk says the next ask is for a module a star re-export names (export * from,
	// __exportStar(require(…))): only a module whose text holds the name is parsed (a
	// package's entry asked for a name it re-exports that way is parsed regardless)
	starAsk bool
	// pending are the files to parse in the next round; work the statements to read
	pending []string
	work    []stmtRef
	bytes   int64
	// userPkgs are the packages of the analysed files: JS package directories, Python
	// distributions (pyDist)
	userPkgs map[string]bool
	pyRoots  []string
	absRoots []string
	nsRoot   map[string]bool
	// specs are the bare specifiers resolved, to their files
	specs   map[string]string
	pkgDirs map[string]string // directory -> its package's directory ("" none)
	pkgJSON map[string]*pkgManifest
	nmDirs  map[string]string // directory + "\x00" + package name -> the installed package's directory
	dists   map[string]map[string]string
	// exist caches whether a candidate module file exists (resolvePy asks it at every use of
	// an imported name)
	exist map[string]bool
}

// exists is exists(p), asked of the file system once per path.
func (l *depLoader) exists(p string) bool {
	e, ok := l.exist[p]
	if !ok {
		if l.exist == nil {
			l.exist = map[string]bool{}
		}
		e = exists(p)
		l.exist[p] = e
	}
	return e
}

type stmtRef struct {
	f *depFile
	i int
}

func newDepLoader(trees []*syntax.Tree, roots []string) *depLoader {
	absRoots, nsRoot := analysisRoots(trees, roots)
	l := &depLoader{scratch: &builder{}, files: map[string]*depFile{}, userPkgs: map[string]bool{},
		absRoots: absRoots, nsRoot: nsRoot, specs: map[string]string{},
		pkgDirs: map[string]string{}, pkgJSON: map[string]*pkgManifest{}, nmDirs: map[string]string{}}
	pyRoot := map[string]bool{}
	for _, t := range trees {
		tb := tableOf(t.Lang)
		if tb == nil || t.Root == nil {
			continue
		}
		if tb.lang == "python" {
			name, isPkg := moduleName(t.File, tb, absRoots, nsRoot)
			parts := strings.Split(name, ".")
			up := len(parts)
			if !isPkg {
				up--
			}
			d := filepath.Dir(t.File)
			for range up {
				d = filepath.Dir(d)
			}
			if !pyRoot[d] {
				pyRoot[d] = true
				l.pyRoots = append(l.pyRoots, d)
			}
			l.userPkgs[l.pyDist(d, t.File, parts[0])] = true
		} else if pd := l.packageDir(filepath.Dir(t.File)); pd != "" {
			l.userPkgs[pd] = true
		}
	}
	for _, t := range trees {
		f := l.add(t, false, 0)
		if f == nil {
			continue
		}
		f.used = true
		for i := range f.stmts {
			l.readStmt(f, i)
		}
	}
	l.drain()
	return l
}

// analysisRoots are the absolute roots of the analysis and those that are Python namespace
// packages themselves (see build).
func analysisRoots(trees []*syntax.Tree, roots []string) ([]string, map[string]bool) {
	var absRoots []string
	for _, r := range roots {
		if a, err := filepath.Abs(r); err == nil {
			if st, err := os.Stat(a); err == nil && !st.IsDir() {
				a = filepath.Dir(a)
			}
			absRoots = append(absRoots, a)
		}
	}
	// a root without __init__.py is itself a namespace package when its files import
	// themselves by its name (langgraph/: "from langgraph.graph import ..."); otherwise it
	// only holds packages
	nsRoot := map[string]bool{}
	for _, r := range absRoots {
		if exists(filepath.Join(r, "__init__.py")) {
			// a root inside a regular package whose top directory has no __init__.py (the
			// files of llama_index/core/agent/react with llama_index/ a PEP 420 namespace
			// and "from llama_index.core.agent.types import ..."): that directory is a
			// namespace package of the analysis when the files import themselves through
			// it (llama-index-core==0.12.52.post1)
			top := filepath.Dir(r)
			for exists(filepath.Join(top, "__init__.py")) && filepath.Dir(top) != top {
				top = filepath.Dir(top)
			}
			if nsRoot[top] || exists(filepath.Join(top, "__init__.py")) || !importsItself(trees, r, filepath.Base(top)) {
				continue
			}
			switch filepath.Base(top) {
			case "src", "lib", "site-packages", "dist-packages", "python", ".":
				continue
			}
			nsRoot[top] = true
			continue
		}
		// a root without __init__.py inside a regular package (browser_use/tools/ of
		// browser_use/, itself a PEP 420 portion of it) is that package's subpackage when the
		// files import it by its dotted name (from browser_use.tools.service import Tools,
		// browser-use==0.13.14 agent/service.py:75)
		if dotted, chain := nsChain(r); dotted != "" && importsName(trees, dotted) {
			for _, d := range chain {
				nsRoot[d] = true
			}
			continue
		}
		base := filepath.Base(r)
		for _, t := range trees {
			if t.Lang == syntax.Python && strings.HasPrefix(t.File, r+string(filepath.Separator)) &&
				(bytes.Contains(t.Src, []byte("from "+base+".")) || bytes.Contains(t.Src, []byte("import "+base+"."))) {
				nsRoot[r] = true
				break
			}
		}
	}
	return absRoots, nsRoot
}

// nsChain returns the dotted name of dir, a directory without __init__.py, when a regular
// package holds it (through at most three directories without __init__.py), and those
// directories (dir first); "" when none does.
func nsChain(dir string) (string, []string) {
	parts, chain := []string{filepath.Base(dir)}, []string{dir}
	for d := dir; len(chain) <= 3; {
		p := filepath.Dir(d)
		if p == d {
			return "", nil
		}
		switch filepath.Base(p) {
		case "src", "lib", "site-packages", "dist-packages", "python", ".":
			return "", nil
		}
		if exists(filepath.Join(p, "pyproject.toml")) || exists(filepath.Join(p, "setup.py")) {
			return "", nil
		}
		if exists(filepath.Join(p, "__init__.py")) {
			for ; exists(filepath.Join(p, "__init__.py")) && filepath.Dir(p) != p; p = filepath.Dir(p) {
				parts = append([]string{filepath.Base(p)}, parts...)
			}
			return strings.Join(parts, "."), chain
		}
		parts = append([]string{filepath.Base(p)}, parts...)
		chain = append(chain, p)
		d = p
	}
	return "", nil
}

// importsName reports whether a Python file imports a module of the package with dotted
// name (from name.x import ..., import name.x, from name import x).
func importsName(trees []*syntax.Tree, name string) bool {
	for _, t := range trees {
		if t.Lang == syntax.Python && (bytes.Contains(t.Src, []byte("from "+name+".")) ||
			bytes.Contains(t.Src, []byte("import "+name+".")) || bytes.Contains(t.Src, []byte("from "+name+" import "))) {
			return true
		}
	}
	return false
}

// importsItself reports whether a Python file under dir imports a module of package name
// (from name.x import ..., import name.x).
func importsItself(trees []*syntax.Tree, dir, name string) bool {
	for _, t := range trees {
		if t.Lang == syntax.Python && strings.HasPrefix(t.File, dir+string(filepath.Separator)) &&
			(bytes.Contains(t.Src, []byte("from "+name+".")) || bytes.Contains(t.Src, []byte("import "+name+"."))) {
			return true
		}
	}
	return false
}

// add registers a parsed file: its scratch module (imports resolved to absolute stems for
// JS, dotted names for Python) and its top-level statements.
func (l *depLoader) add(t *syntax.Tree, dep bool, hop int) *depFile {
	tb := tableOf(t.Lang)
	if tb == nil || t.Root == nil {
		return nil
	}
	m := &module{file: t.File, tree: t, t: tb, syms: map[string]*sym{}, exported: map[string]bool{}, aliases: map[string][]string{}}
	if tb.lang == "python" {
		m.name, m.isPkg = moduleName(t.File, tb, l.absRoots, l.nsRoot)
	} else {
		m.name = filepath.ToSlash(strings.TrimSuffix(t.File, filepath.Ext(t.File)))
	}
	l.scratch.topLevel(m, t.Root, false)
	f := &depFile{tree: t, m: m, dep: dep, hop: hop, decl: map[string][]int{}, done: map[int]bool{}, asked: map[string]bool{}}
	topStmts(tb, t.Root, &f.stmts)
	for i, s := range f.stmts {
		for _, n := range stmtNames(m, s) {
			f.decl[n] = append(f.decl[n], i)
		}
	}
	l.files[t.File] = f
	l.order = append(l.order, f)
	return f
}

// topStmts lists the top-level statements, those of top-level blocks (if, try, with) too.
func topStmts(t *table, n *syntax.Node, out *[]*syntax.Node) {
	for _, c := range n.Children {
		switch c.Kind {
		case "if_statement", "try_statement", "block", "else_clause", "except_clause", "finally_clause",
			"with_statement", "elif_clause", "statement_block":
			topStmts(t, c, out)
		default:
			if c.Named {
				*out = append(*out, c)
			}
		}
	}
}

// stmtNames are the names a top-level statement defines.
func stmtNames(m *module, s *syntax.Node) []string {
	switch s.Kind {
	case "export_statement":
		if d := s.Child("declaration"); d != nil {
			return stmtNames(m, d)
		}
		return nil
	case "decorated_definition":
		if d := s.Child("definition"); d != nil {
			return stmtNames(m, d)
		}
		return nil
	case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
		"function_definition", "class_definition":
		if nm := s.Child("name"); nm != nil {
			return []string{m.text(nm)}
		}
	case "lexical_declaration", "variable_declaration":
		var out []string
		for _, d := range s.NamedChildren() {
			if d.Kind == "variable_declarator" {
				if nm := d.Child("name"); nm != nil && nm.Kind == "identifier" {
					out = append(out, m.text(nm))
				}
			}
		}
		return out
	case "expression_statement":
		if len(s.Children) == 0 {
			return nil
		}
		e := s.Children[0]
		if e.Kind == "assignment" || e.Kind == "assignment_expression" {
			lt := m.text(e.Child("left"))
			lt = strings.TrimPrefix(strings.TrimPrefix(lt, "module."), "exports.")
			if lt != "" && !strings.ContainsAny(lt, ".[( ,") {
				return []string{lt}
			}
		}
	}
	return nil
}

// readStmt reads top-level statement i of f once: the names it uses of its own module, of
// the modules it imports.
func (l *depLoader) readStmt(f *depFile, i int) {
	if f.done[i] {
		return
	}
	f.done[i] = true
	l.work = append(l.work, stmtRef{f, i})
}

func (l *depLoader) drain() {
	for len(l.work) > 0 {
		r := l.work[len(l.work)-1]
		l.work = l.work[:len(l.work)-1]
		l.uses(r.f, r.f.stmts[r.i])
	}
}

func (l *depLoader) uses(f *depFile, s *syntax.Node) {
	l.usesIn(f, s, f.m.t.funcs.has(s) || f.m.t.lambdas.has(s))
}

// usesIn reads the uses of names in n; inFunc says n is in a function's body (code that
// runs when called, not a module's initializer: only such code reaches another package).
func (l *depLoader) usesIn(f *depFile, n *syntax.Node, inFunc bool) {
	m := f.m
	walkAll(n, func(n *syntax.Node) bool {
		switch {
		case !inFunc && (m.t.funcs.has(n) || m.t.lambdas.has(n)):
			l.usesIn(f, n, true)
			return false
		case m.t.members.has(n):
			// mod.name of an imported module; the member's own name is no use of a name
			obj := strip(n.Child("object"))
			if obj == nil {
				return true
			}
			if obj.Kind == "identifier" {
				if sy := m.syms[m.text(obj)]; sy != nil && sy.kind == symModule {
					l.ask(f, sy.from, m.text(n.Child(m.t.memberProp)), inFunc)
					return false
				}
				l.use(f, m.text(obj), inFunc)
				return false
			}
			l.usesIn(f, obj, inFunc)
			return false
		case n.Kind == "identifier" || n.Kind == "shorthand_property_identifier":
			l.use(f, m.text(n), inFunc)
		}
		return true
	})
}

// use reads a name a statement of f uses: the statements of f defining it, or what f
// imports by it.
func (l *depLoader) use(f *depFile, name string, inFunc bool) {
	if ds := f.decl[name]; len(ds) > 0 {
		for _, d := range ds {
			l.readStmt(f, d)
		}
		return
	}
	if sy := f.m.syms[name]; sy != nil {
		switch sy.kind {
		case symImport:
			l.ask(f, sy.from, sy.name, inFunc)
		case symModule:
			l.ask(f, sy.from, "", inFunc)
		}
	}
}

// ask asks module spec (imported by f) for name ("" the module itself); inFunc says the
// use is in a function's body: a use elsewhere (a schema built when the module loads) does
// not cross into another package.
func (l *depLoader) ask(f *depFile, spec, name string, inFunc bool) {
	star := l.starAsk
	l.starAsk = false
	file, hop, ok := l.resolve(f, spec)
	if !ok || hop > f.hop && !inFunc {
		return
	}
	g := l.files[file]
	if g == nil {
		if l.bytes > maxDepBytes {
			return
		}
		src, err := os.ReadFile(file)
		if err != nil || len(src) > maxDepFile {
			return
		}
		if star && name != "" && !bytes.Contains(src, []byte(name)) {
			// (a module an index re-exports everything from, export * from './x', that
			// does not define the name: not parsed)
			return
		}
		l.bytes += int64(len(src))
		g = &depFile{dep: true, hop: hop, asked: map[string]bool{}}
		l.files[file] = g
		l.pending = append(l.pending, file)
	}
	if g.tree == nil {
		if name != "" && !slices.Contains(g.want, name) {
			g.want = append(g.want, name)
		} else if name == "" {
			g.used = true
		}
		return
	}
	if name == "" {
		g.used = true
		return
	}
	l.askName(g, name)
}

// loaded takes a parsed dependency file and answers the names asked of it.
func (l *depLoader) loaded(t *syntax.Tree) {
	stub := l.files[t.File]
	if stub == nil {
		return
	}
	delete(l.files, t.File)
	f := l.add(t, true, stub.hop)
	if f == nil {
		return
	}
	f.used = stub.used
	f.pkgDir, f.display = l.displayOf(t.File)
	for _, n := range stub.want {
		l.askName(f, n)
	}
}

// askName asks dependency file f for a top-level name: the statements defining it, or the
// module it re-exports it from.
func (l *depLoader) askName(f *depFile, name string) {
	if f.asked[name] {
		return
	}
	f.asked[name] = true
	m := f.m
	if ds := f.decl[name]; len(ds) > 0 {
		f.used = true
		for _, d := range ds {
			l.readStmt(f, d)
		}
		return
	}
	if sy := m.syms[name]; sy != nil {
		f.used = true
		switch sy.kind {
		case symImport:
			if sy.from == m.name {
				l.askName(f, sy.name)
			} else {
				l.ask(f, sy.from, sy.name, true)
			}
		case symModule:
			l.ask(f, sy.from, "", true)
		case symValue:
			for i, s := range f.stmts {
				if s.Start <= sy.value.Start && sy.value.End <= s.End {
					l.readStmt(f, i)
				}
			}
		}
		return
	}
	found := len(m.star) > 0
	if m.t.lang == "python" && m.isPkg {
		// from pkg import sub: a submodule
		found = true
		l.ask(f, m.name+"."+name, "", true)
	}
	for _, st := range m.star {
		f.used = true
		l.starAsk = true
		l.ask(f, st, name, true)
	}
	if m.t.lang != "python" {
		// tsc's Object.defineProperty(exports, "Agent", { get: function () { return a_1.Agent; } })
		q := `"` + name + `"`
		if strings.Contains(m.text(f.tree.Root), q) {
			for i, s := range f.stmts {
				if s.Kind == "expression_statement" && strings.Contains(m.text(s), q) && strings.Contains(m.text(s), "exports") {
					found = true
					f.used = true
					l.readStmt(f, i)
				}
			}
		}
	}
	if !found {
		f.missed = true
	}
}

// resolve finds the file module spec names, imported by f, and its hop count; ok is false
// when it is not installed, is a module of an analysed package not analysed, or is beyond
// maxDepHops.
func (l *depLoader) resolve(f *depFile, spec string) (string, int, bool) {
	if f.m.t.lang == "python" {
		return l.resolvePy(f, spec)
	}
	if strings.HasPrefix(spec, "/") {
		// a relative specifier, made absolute by the scratch module's name
		file := resolveStem(filepath.FromSlash(spec))
		if file == "" {
			return "", 0, false
		}
		if l.files[file] == nil && l.userPkgs[l.packageDir(filepath.Dir(file))] {
			return "", 0, false
		}
		return file, f.hop, true
	}
	if strings.HasPrefix(spec, "node:") || spec == "" {
		return "", 0, false
	}
	name, sub := splitSpec(spec)
	pd := l.installed(filepath.Dir(f.tree.File), name)
	if pd == "" {
		return "", 0, false
	}
	hop := f.hop
	if l.packageDir(filepath.Dir(f.tree.File)) != pd {
		hop++
	}
	if file, ok := f.resolved[spec]; ok {
		if file == "" || l.files[file] == nil && (hop > maxDepHops || l.userPkgs[pd]) {
			return "", 0, false
		}
		return file, hop, true
	}
	file := l.entry(pd, sub, !requires(f.tree.Src, spec))
	if f.resolved == nil {
		f.resolved = map[string]string{}
	}
	f.resolved[spec] = file
	if file == "" {
		return "", 0, false
	}
	if l.files[file] == nil && (hop > maxDepHops || l.userPkgs[pd]) {
		return "", 0, false
	}
	if _, ok := l.specs[spec]; !ok {
		l.specs[spec] = file
	}
	return file, hop, true
}

// requires reports whether src loads spec with require() (CommonJS), not import.
func requires(src []byte, spec string) bool {
	return bytes.Contains(src, []byte(`require("`+spec+`")`)) || bytes.Contains(src, []byte(`require('`+spec+`')`))
}

func (l *depLoader) resolvePy(f *depFile, spec string) (string, int, bool) {
	if spec == "" || strings.HasPrefix(spec, ".") {
		return "", 0, false
	}
	top, _, _ := strings.Cut(spec, ".")
	rel := filepath.FromSlash(strings.ReplaceAll(spec, ".", "/"))
	for _, r := range l.pyRoots {
		for _, c := range []string{rel + ".py", filepath.Join(rel, "__init__.py")} {
			p := filepath.Join(r, c)
			if l.files[p] != nil {
				return p, l.files[p].hop, true
			}
			if !l.exists(p) {
				continue
			}
			dist := l.pyDist(r, p, top)
			if l.userPkgs[dist] {
				return "", 0, false // a module of an analysed package the user did not name
			}
			hop := f.hop
			ftop, _, _ := strings.Cut(f.m.name, ".")
			if l.pyDist(r, f.tree.File, ftop) != dist {
				hop++
			}
			if hop > maxDepHops {
				return "", 0, false
			}
			return p, hop, true
		}
	}
	return "", 0, false
}

// pyDist names the installed distribution a Python file in site directory root belongs to,
// by the RECORD files of root's *.dist-info directories (langgraph-prebuilt's
// langgraph/prebuilt is not langgraph's langgraph/graph, though both are in the namespace
// package langgraph); a file no RECORD lists (a checkout) belongs to its top-level package.
func (l *depLoader) pyDist(root, file, top string) string {
	if l.dists == nil {
		l.dists = map[string]map[string]string{}
	}
	byFile, ok := l.dists[root]
	if !ok {
		byFile = map[string]string{}
		recs, _ := filepath.Glob(filepath.Join(root, "*.dist-info", "RECORD"))
		for _, rec := range recs {
			data, err := os.ReadFile(rec)
			if err != nil {
				continue
			}
			dist := filepath.Base(filepath.Dir(rec))
			for _, line := range strings.Split(string(data), "\n") {
				p, _, _ := strings.Cut(line, ",")
				if strings.HasSuffix(p, ".py") {
					byFile[filepath.Join(root, filepath.FromSlash(p))] = dist
				}
			}
		}
		l.dists[root] = byFile
	}
	if d, ok := byFile[file]; ok {
		return d
	}
	return "top:" + top
}

// splitSpec splits a bare specifier into the package's name and the subpath ("." or
// "./x"): "@scope/pkg/x" -> "@scope/pkg", "./x".
func splitSpec(spec string) (string, string) {
	parts := strings.Split(spec, "/")
	n := 1
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		n = 2
	}
	if len(parts) <= n {
		return spec, "."
	}
	return strings.Join(parts[:n], "/"), "./" + strings.Join(parts[n:], "/")
}

// installed finds package name as Node does from dir: dir/node_modules/name, then each
// parent's.
func (l *depLoader) installed(dir, name string) string {
	key := dir + "\x00" + name
	if pd, ok := l.nmDirs[key]; ok {
		return pd
	}
	pd := ""
	for d := dir; ; {
		if filepath.Base(d) != "node_modules" {
			c := filepath.Join(d, "node_modules", filepath.FromSlash(name))
			if exists(filepath.Join(c, "package.json")) {
				pd = c
				break
			}
		}
		p := filepath.Dir(d)
		if p == d {
			break
		}
		d = p
	}
	l.nmDirs[key] = pd
	return pd
}

// packageDir is the directory of the package dir belongs to: the nearest package.json with
// a name ("" if none). A package.json without one (dist/esm's {"type": "module"}) is not a
// package's root.
func (l *depLoader) packageDir(dir string) string {
	if pd, ok := l.pkgDirs[dir]; ok {
		return pd
	}
	pd := ""
	if pm := l.manifest(dir); pm != nil && pm.Name != "" {
		pd = dir
	} else if p := filepath.Dir(dir); p != dir {
		pd = l.packageDir(p)
	}
	l.pkgDirs[dir] = pd
	return pd
}

// pkgManifest is what the loader reads of a package.json.
type pkgManifest struct {
	Name    string          `json:"name"`
	Main    string          `json:"main"`
	Module  string          `json:"module"`
	Type    string          `json:"type"`
	Exports json.RawMessage `json:"exports"`
}

func (l *depLoader) manifest(dir string) *pkgManifest {
	if pm, ok := l.pkgJSON[dir]; ok {
		return pm
	}
	var pm *pkgManifest
	if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		var v pkgManifest
		if json.Unmarshal(data, &v) == nil {
			pm = &v
		}
	}
	l.pkgJSON[dir] = pm
	return pm
}

// entry resolves subpath sub ("." or "./x") of the package in pd: its "exports" (the
// "import" condition for an ES import, "require" for require(), then "node", "default"),
// else "module" (ES imports) or "main", else the file or index.
func (l *depLoader) entry(pd, sub string, esm bool) string {
	pm := l.manifest(pd)
	if pm == nil {
		return ""
	}
	conds := []string{"require", "node", "default", "import"}
	if esm {
		conds = []string{"import", "module", "node", "default", "require"}
	}
	if len(pm.Exports) > 0 {
		var ex any
		if json.Unmarshal(pm.Exports, &ex) == nil {
			if target := exportTarget(ex, sub, conds); target != "" {
				return resolveFile(filepath.Join(pd, filepath.FromSlash(target)))
			}
		}
	}
	if sub != "." {
		return resolveStem(filepath.Join(pd, filepath.FromSlash(sub)))
	}
	for _, m := range []string{pm.Module, pm.Main} {
		if m == pm.Module && !esm {
			continue
		}
		if m != "" {
			if f := resolveStem(filepath.Join(pd, filepath.FromSlash(m))); f != "" {
				return f
			}
		}
	}
	return resolveStem(filepath.Join(pd, "index"))
}

// exportTarget looks subpath sub up in a package.json "exports" value: a string (the
// package's "."), a map of subpaths (with "*" patterns) or of conditions, an array of
// alternatives.
func exportTarget(ex any, sub string, conds []string) string {
	switch v := ex.(type) {
	case string:
		if sub == "." {
			return v
		}
		return ""
	case map[string]any:
		subpaths := false
		for k := range v {
			subpaths = strings.HasPrefix(k, ".")
			break
		}
		if !subpaths {
			if sub != "." {
				return ""
			}
			return condTarget(v, conds)
		}
		if t, ok := v[sub]; ok {
			return condTarget(t, conds)
		}
		for k, t := range v {
			pre, post, ok := strings.Cut(k, "*")
			if ok && strings.HasPrefix(sub, pre) && strings.HasSuffix(sub, post) && len(sub) >= len(pre)+len(post) {
				star := sub[len(pre) : len(sub)-len(post)]
				if r := condTarget(t, conds); r != "" {
					return strings.ReplaceAll(r, "*", star)
				}
			}
		}
	case []any:
		for _, e := range v {
			if r := exportTarget(e, sub, conds); r != "" {
				return r
			}
		}
	}
	return ""
}

// condTarget picks a conditional export's target by the conditions in order ("types" is
// never one: declarations are no code).
func condTarget(t any, conds []string) string {
	switch v := t.(type) {
	case string:
		return v
	case []any:
		for _, e := range v {
			if r := condTarget(e, conds); r != "" {
				return r
			}
		}
	case map[string]any:
		for _, c := range conds {
			if e, ok := v[c]; ok {
				if r := condTarget(e, conds); r != "" && syntax.LangOf(r) != "" {
					return r
				}
			}
		}
	}
	return ""
}

// resolveFile is p when it is a source file lifeline reads, else resolveStem(p).
func resolveFile(p string) string {
	if syntax.LangOf(p) != "" && isFile(p) {
		return p
	}
	return resolveStem(p)
}

// resolveStem finds the source file a module path without (or with a compiled) extension
// names: p.js, p.mjs, p.cjs, p.ts…, then p/index.*.
func resolveStem(p string) string {
	if syntax.LangOf(p) != "" && isFile(p) {
		return p
	}
	base := p
	switch filepath.Ext(p) {
	case ".js", ".mjs", ".cjs", ".jsx":
		base = strings.TrimSuffix(p, filepath.Ext(p))
	}
	exts := []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"}
	for _, e := range exts {
		if isFile(base + e) {
			return base + e
		}
	}
	for _, e := range exts {
		if f := filepath.Join(p, "index"+e); isFile(f) {
			return f
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// displayOf names a dependency file: its package's name and its path in the package (JS),
// its path from the site directory (Python).
func (l *depLoader) displayOf(file string) (string, string) {
	if syntax.LangOf(file) == syntax.Python {
		for _, r := range l.pyRoots {
			if rel, err := filepath.Rel(r, file); err == nil && !strings.HasPrefix(rel, "..") {
				return r, filepath.ToSlash(rel)
			}
		}
		return "", filepath.ToSlash(file)
	}
	pd := l.packageDir(filepath.Dir(file))
	if pd == "" {
		return "", filepath.ToSlash(file)
	}
	name := filepath.Base(pd)
	if pm := l.manifest(pd); pm != nil && pm.Name != "" {
		name = pm.Name
	}
	rel, _ := filepath.Rel(pd, file)
	return pd, path.Join(name, filepath.ToSlash(rel))
}

// walkAll calls fn on every node of n, nested functions and classes too; fn returning false
// skips the node's children.
func walkAll(n *syntax.Node, fn func(*syntax.Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		walkAll(c, fn)
	}
}
