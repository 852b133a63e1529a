// Package srcir is the Python and TypeScript/JavaScript front-end of lifeline's lifecycle IR
// (analyzer/ir): it reads files parsed by analyzer/syntax (tree-sitter trees copied into Go
// values) and records, for each function, method, closure, arrow function and (async)
// generator, its loops, calls with callee candidates from a simple cross-file call graph
// (self/this methods through the class and its bases and subclasses, imported functions across
// modules, relative imports, require and re-exports, aliases), counter/bound comparisons,
// returns and raises, cancellation checks, id mints, defaults of bound candidates and the data
// flow of call results that the agent shape keys on. The language knowledge is in small
// declarative tables (lang.go); the lowering is shared.
//
// # Names
//
// A Python module is named by its dotted path from the first directory without __init__.py
// (a namespace package inside the analysed roots counts, PEP 420): "smolagents.agents". A
// JS/TS module is named by the nearest package.json's name and the file's path in the
// package without extension: "@openai/agents-core/dist/run". Func.Key, the profile key, is
// module + "." + [Class "."] + name ("smolagents.agents.MultiStepAgent.run",
// "@openai/agents-core/dist/run.Runner.run"); fields and parameters of bound candidates are
// keyed Class key + "." + field and function key + "." + parameter. Nested functions are
// named parent + "." + name, anonymous ones (lambdas, arrow functions) parent + "$" + n, and
// have no key. Program.Lang is "python", "typescript" (TS, or TS and JS), "javascript", or
// "mixed".
//
// # Returns
//
// A return is an ir.Return whose Err is a nil value (no error), or, for return f(...), the
// call passed through; a raise or throw is a Return with Err set and no Values: a sentinel
// (an exception class named after something other than a generic error), a cancellation
// (CancelledError, AbortError, an error whose message says aborted), another error, or, for a
// bare raise / throw err, a propagated one. The end of a body that can be reached is an
// implicit return; yields are not returns (generators are marked by Func.Results).
package srcir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// IsSourcePath reports whether arg names Python or TypeScript/JavaScript sources: a file with
// one of their extensions, or a directory that holds some (and no Go package pattern).
func IsSourcePath(arg string) bool {
	st, err := os.Stat(arg)
	if err != nil {
		return false
	}
	if !st.IsDir() {
		return syntax.LangOf(arg) != ""
	}
	found := false
	_ = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if p != arg && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if syntax.LangOf(p) != "" {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func skipDir(name string) bool {
	switch name {
	case "node_modules", "__pycache__", ".git", ".venv", "venv", ".tox", ".mypy_cache", "site-packages":
		return true
	}
	return strings.HasPrefix(name, ".")
}

// Collect lists the source files under paths (files or directories), sorted, each once.
// Nested node_modules, virtual environments and hidden directories are not entered (name
// them explicitly to read them). Of a compiled module present as .js, .mjs and .cjs, one is
// read (.js, else .mjs); a .js beside its .ts source is skipped; a package built twice, as ES
// modules and as CommonJS, is read in its ES build (dropCommonJSTwins).
func Collect(paths []string) ([]string, error) {
	var files, pkgs []string
	seen := map[string]bool{}
	for _, arg := range paths {
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if syntax.LangOf(abs) == "" {
				return nil, fmt.Errorf("%s: not a Python, TypeScript or JavaScript file", arg)
			}
			if !seen[abs] {
				seen[abs] = true
				files = append(files, abs)
			}
			continue
		}
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable entries are skipped
			}
			if d.IsDir() {
				if p != abs && skipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Name() == "package.json" {
				pkgs = append(pkgs, filepath.Dir(p))
			}
			if !d.Type().IsRegular() || syntax.LangOf(p) == "" || strings.HasSuffix(p, ".min.js") || seen[p] {
				return nil
			}
			seen[p] = true
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	files = dropCommonJSTwins(files, pkgs)
	// one of each compiled module's variants
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	var out []string
	for _, f := range files {
		ext := filepath.Ext(f)
		stem := strings.TrimSuffix(f, ext)
		switch ext {
		case ".js", ".jsx":
			if have[stem+".ts"] || have[stem+".tsx"] {
				continue
			}
		case ".mjs":
			if have[stem+".js"] || have[stem+".mts"] || have[stem+".ts"] {
				continue
			}
		case ".cjs":
			if have[stem+".js"] || have[stem+".mjs"] || have[stem+".cts"] || have[stem+".ts"] {
				continue
			}
		}
		out = append(out, f)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("no Python, TypeScript or JavaScript files in %s", strings.Join(paths, " "))
	}
	return out, nil
}

// Diag is a problem with the input that does not stop the build: an unparsed region
// overlapping a function that matters, an unreadable file.
type Diag struct {
	Pos ir.Pos
	Msg string
	// Name names Pos.File for display when it is a dependency's file ("ai/dist/index.js").
	Name string
}

func (d Diag) String() string { return fmt.Sprintf("%s:%d: %s", d.Pos.File, d.Pos.Line, d.Msg) }

// BuildFiles reads and parses files and builds their IR. Files that cannot be read are
// reported as Diags; a build without cgo fails with syntax.ErrNoCgo.
//
// roots are the directories the files were collected from (Collect's paths): a Python
// namespace package (a directory without __init__.py, PEP 420) inside one of them is part of
// its modules' names.
func BuildFiles(files []string, roots ...string) (*ir.Program, []Diag, error) {
	p, err := ParseFiles(files, roots...)
	if err != nil {
		return nil, nil, err
	}
	prog, d := p.Build()
	return prog, d, nil
}

// Parsed is a set of files read and parsed once for more than one build: lifeline map builds
// the named files alone (Build) and, when their code runs no turn loop of its own, reads
// their installed dependencies too (LoadDeps) from the same trees instead of parsing every
// file again. The builds only read the trees.
type Parsed struct {
	roots []string
	trees []*syntax.Tree
	orig  map[string][]byte
	lines map[string][]string
	diags []Diag
}

// ParseFiles reads and parses files (BuildFiles's first half); roots as BuildFiles's. A
// build without cgo fails with syntax.ErrNoCgo.
func ParseFiles(files []string, roots ...string) (*Parsed, error) {
	trees, orig, lines, diags, err := parseFiles(files)
	if err != nil {
		return nil, err
	}
	return &Parsed{roots: roots, trees: trees, orig: orig, lines: lines, diags: diags}, nil
}

// Build builds the IR of the parsed files alone, as BuildFiles does: the files that could not
// be read or parsed, then the build's own diagnostics.
func (p *Parsed) Build() (*ir.Program, []Diag) {
	prog, d := build(p.trees, p.orig, p.lines, nil, nil, p.roots...)
	return prog, append(slices.Clip(p.diags), d...)
}

// parseFiles reads and parses files on as many goroutines as there are processors: the
// trees in the files' order, the text as written of the files whose parsed text was
// rewritten, the lines of each file as written, the files that could not be read or parsed.
func parseFiles(files []string) ([]*syntax.Tree, map[string][]byte, map[string][]string, []Diag, error) {
	type result struct {
		tree  *syntax.Tree
		orig  []byte   // the file as written, when what was parsed is rewritten
		lines []string // the lines of the file as written (module.source), split here in parallel
		diag  *Diag
		err   error
	}
	results := make([]result, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				f := files[i]
				src, err := os.ReadFile(f)
				if err != nil {
					results[i].diag = &Diag{Pos: ir.Pos{File: f, Line: 1}, Msg: "cannot read: " + err.Error()}
					continue
				}
				lang := syntax.LangOf(f)
				if tb := tableOf(lang); tb != nil {
					// compiled private members read back as members (privates.go); the
					// source lines shown stay the file's own
					orig := src
					if ds, ok := desugarPrivate(src, tb); ok {
						results[i].orig = orig
						src = ds
					}
					// compiled async generators read back as written (asyncgen.go)
					if ds, ok := desugarAsyncGen(src, tb); ok {
						results[i].orig = orig
						src = ds
					}
					if tb.lang != "python" {
						// and so are tsc's compiled optional chains (optchain.go)
						if ds, ok := desugarOptional(src); ok {
							results[i].orig = orig
							src = ds
						}
						// and esbuild's (lowered.go)
						if ds, ok := desugarLooseOptional(src); ok {
							results[i].orig = orig
							src = ds
						}
					}
				}
				t, err := syntax.Parse(f, lang, src)
				switch {
				case errors.Is(err, syntax.ErrNoCgo):
					results[i].err = err
				case err != nil:
					results[i].diag = &Diag{Pos: ir.Pos{File: f, Line: 1}, Msg: err.Error()}
				default:
					results[i].tree = t
					if o := results[i].orig; o != nil {
						results[i].lines = strings.Split(string(o), "\n")
					} else {
						results[i].lines = strings.Split(t.Source(), "\n")
					}
				}
			}
		}()
	}
	for _, i := range bySize(files) {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var trees []*syntax.Tree
	var diags []Diag
	orig := map[string][]byte{}
	lines := map[string][]string{}
	for _, r := range results {
		switch {
		case r.err != nil:
			return nil, nil, nil, nil, r.err
		case r.diag != nil:
			diags = append(diags, *r.diag)
		case r.tree != nil:
			trees = append(trees, r.tree)
			if r.orig != nil {
				orig[r.tree.File] = r.orig
			}
			lines[r.tree.File] = r.lines
		}
	}
	return trees, orig, lines, diags, nil
}

// bySize returns the indexes of files, largest first: the workers parse the large files
// while there are small ones left to even out their ends (the results keep the files'
// order). A file that cannot be stat'ed counts as empty.
func bySize(files []string) []int {
	size := make([]int64, len(files))
	order := make([]int, len(files))
	for i, f := range files {
		order[i] = i
		if st, err := os.Stat(f); err == nil {
			size[i] = st.Size()
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	return order
}

// Build builds the IR of parsed files. It is pure Go and never panics on any tree.
func Build(trees []*syntax.Tree, roots ...string) (*ir.Program, []Diag) {
	return build(trees, nil, nil, nil, nil, roots...)
}

// newModule makes the module of tree t with its source lines: lines when split already, else
// those of orig (the text as written, when the parsed text was rewritten), else the tree's.
// The lines are split here, up front, because the passes run on every core (b.each) and
// may show lines of the same module at once.
func newModule(t *syntax.Tree, tb *table, lines []string, orig []byte) *module {
	m := &module{file: t.File, tree: t, t: tb, syms: map[string]*sym{}}
	switch {
	case lines != nil:
		m.lines = lines
	case orig != nil:
		m.lines = strings.Split(string(orig), "\n")
	default:
		m.lines = strings.Split(t.Source(), "\n")
	}
	return m
}

// build is Build with, for the files whose parsed text was rewritten (desugarPrivate), the
// text as written: the source lines the IR shows; and the lines already split, by file (a
// file without them is split here).
//
// specs are the bare import specifiers resolved to installed files (deps.go): the module a
// specifier names is the one of its file; deps are the files of dependencies.
func build(trees []*syntax.Tree, orig map[string][]byte, lines map[string][]string, specs map[string]string, deps Deps, roots ...string) (*ir.Program, []Diag) {
	absRoots, nsRoot := analysisRoots(trees, roots)
	b := &builder{mods: map[string]*module{}, byFile: map[string]*module{}, classes: map[string]*class{}, nsRoot: nsRoot, specs: specs}
	lang := ""
	for _, t := range trees {
		tb := tableOf(t.Lang)
		if tb == nil || t.Root == nil {
			continue
		}
		m := newModule(t, tb, lines[t.File], orig[t.File])
		_, m.dep = deps[t.File]
		m.name, m.isPkg = moduleName(t.File, tb, absRoots, nsRoot)
		if b.mods[m.name] != nil { // two files claim a name: keep both, the second by file
			m.name = m.name + "#" + filepath.Base(t.File)
		}
		b.mods[m.name] = m
		b.byFile[m.file] = m
		b.order = append(b.order, m)
		switch {
		case lang == "":
			lang = tb.lang
		case lang != tb.lang && !(strings.Contains(lang, "script") && strings.Contains(tb.lang, "script")):
			lang = "mixed"
		case lang != tb.lang:
			lang = "typescript"
		}
	}
	b.prog = &ir.Program{Lang: lang}
	for _, m := range b.order {
		b.declare(m)
	}
	b.linkClasses()
	b.each(b.lower)
	b.resolveCalls()
	b.dslLoops()
	b.finish()
	b.envDefaults()
	return b.prog, b.diagnostics()
}

// moduleName returns a file's module name: Python's dotted path from the first directory
// without __init__.py; for JS/TS the package name (from the nearest package.json) and the
// path inside it, without extension.
func moduleName(file string, t *table, roots []string, nsRoot map[string]bool) (string, bool) {
	dir, base := filepath.Split(file)
	dir = filepath.Clean(dir)
	if t.lang == "python" {
		stem := strings.TrimSuffix(base, filepath.Ext(base))
		parts := []string{}
		isPkg := stem == "__init__"
		if !isPkg {
			parts = append(parts, stem)
		}
		for d := dir; ; {
			if _, err := os.Stat(filepath.Join(d, "__init__.py")); err != nil && !namespacePkg(d, roots, nsRoot) {
				break
			}
			parts = append([]string{filepath.Base(d)}, parts...)
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
		if len(parts) == 0 {
			parts = []string{filepath.Base(dir)}
		}
		return strings.Join(parts, "."), isPkg
	}
	stem := strings.TrimSuffix(file, filepath.Ext(file))
	for d := dir; ; {
		if data, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			name := pkgJSONName(data)
			if name == "" {
				name = filepath.Base(d)
			}
			rel, _ := filepath.Rel(d, stem)
			return name + "/" + filepath.ToSlash(rel), false
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return filepath.Base(dir) + "/" + filepath.Base(stem), false
}

// pkgJSONName reads the "name" of a package.json without a JSON library pass over the
// whole (possibly large) file: the first "name" key.
func pkgJSONName(data []byte) string {
	s := string(data)
	i := strings.Index(s, `"name"`)
	if i < 0 {
		return ""
	}
	s = strings.TrimLeft(s[i+6:], " \t\r\n:")
	if !strings.HasPrefix(s, `"`) {
		return ""
	}
	s = s[1:]
	if j := strings.IndexByte(s, '"'); j >= 0 {
		return s[:j]
	}
	return ""
}

// namespacePkg reports whether d, a directory without __init__.py, is a namespace package
// of the analysis: inside (or one of) the roots, and not a source root itself (src, lib,
// site-packages, a project directory with pyproject.toml or setup.py).
func namespacePkg(d string, roots []string, nsRoot map[string]bool) bool {
	switch filepath.Base(d) {
	case "src", "lib", "site-packages", "dist-packages", "python", ".":
		return false
	}
	if exists(filepath.Join(d, "pyproject.toml")) || exists(filepath.Join(d, "setup.py")) {
		return false
	}
	if nsRoot[d] {
		return true // (the top of the roots' packages, see analysisRoots)
	}
	for _, r := range roots {
		if d == r {
			return nsRoot[r]
		}
		if rel, err := filepath.Rel(r, d); err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// each runs fn on every function, on as many goroutines as there are processors: the phases
// that call it only write the state of the function they are given (and read what earlier
// phases wrote).
func (b *builder) each(fn func(*fnState)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(b.funcs)/64))
	if workers == 1 {
		for _, fs := range b.funcs {
			fn(fs)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(b.funcs) {
					return
				}
				fn(b.funcs[i])
			}
		}()
	}
	wg.Wait()
}
