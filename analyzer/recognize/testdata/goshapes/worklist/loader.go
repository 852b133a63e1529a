// Package worklist is a dependency loader's worklist: modelled on lifeline's own
// analyzer/srcir/deps.go (commit 9b091d0, BuildWithDeps :55-97, depLoader.loaded :432-447,
// askName :449-504, ask :390-430, add :231-253). Each round parses the pending files; each
// parsed file is added (its module built), the names asked of it are answered, and answering a
// name may ask another file, which becomes pending. The loop ends when no file is pending.
// Lifeline's Go inference took add for a model call: its result's module is tested
// (m.lang != "python"), a collection of it is iterated, a part of it is compared with another
// part of the same module (sy.from == m.name), and the module's own text method ran as "the
// tools". The module's method runs whatever the name compared; nothing is selected by it.
package worklist

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type Tree struct {
	File string
	Src  string
	Lang string
}

type symbol struct {
	kind int
	from string
	name string
}

type module struct {
	name  string
	lang  string
	tree  *Tree
	syms  map[string]*symbol
	star  []string
	stmts []*node
}

// node is a top-level statement of the module's syntax tree.
type node struct {
	Kind string
	Text string
}

func (m *module) text(i int) string { return m.stmts[i].Text }

func (m *module) root() string { return m.tree.Src }

type file struct {
	tree  *Tree
	m     *module
	hop   int
	want  []string
	asked map[string]bool
	decl  map[string][]int
	done  map[int]bool
}

type loader struct {
	files   map[string]*file
	order   []*file
	pending []string
	work    []ref
	bytes   int
}

func parse(names []string) ([]*Tree, error) {
	var out []*Tree
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, &Tree{File: n, Src: string(src), Lang: "js"})
	}
	return out, nil
}

// Load reads the files and, round by round, the files their names are asked of.
func Load(names []string) ([]*Tree, error) {
	trees, err := parse(names)
	if err != nil {
		return nil, err
	}
	l := &loader{files: map[string]*file{}}
	for _, t := range trees {
		l.add(t, 0)
	}
	for len(l.pending) > 0 {
		batch := l.pending
		l.pending = nil
		sort.Strings(batch)
		dt, err := parse(batch)
		if err != nil {
			return nil, err
		}
		for _, t := range dt {
			l.loaded(t)
		}
		l.drain()
	}
	var out []*Tree
	for _, f := range l.order {
		out = append(out, f.tree)
	}
	return out, nil
}

func (l *loader) add(t *Tree, hop int) *file {
	m := &module{name: moduleName(t.File), lang: t.Lang, tree: t, syms: map[string]*symbol{}}
	for _, s := range strings.Split(t.Src, ";") {
		m.stmts = append(m.stmts, &node{Kind: "expression_statement", Text: s})
	}
	f := &file{tree: t, m: m, hop: hop, asked: map[string]bool{}, decl: map[string][]int{}, done: map[int]bool{}}
	for i, s := range m.stmts {
		if k, _, ok := strings.Cut(s.Text, "="); ok {
			f.decl[strings.TrimSpace(k)] = append(f.decl[strings.TrimSpace(k)], i)
		}
	}
	l.files[t.File] = f
	l.order = append(l.order, f)
	return f
}

func (l *loader) loaded(t *Tree) {
	stub := l.files[t.File]
	if stub == nil {
		return
	}
	delete(l.files, t.File)
	f := l.add(t, stub.hop)
	if f == nil {
		return
	}
	for _, n := range stub.want {
		l.askName(f, n)
	}
}

func (l *loader) askName(f *file, name string) {
	if f.asked[name] {
		return
	}
	f.asked[name] = true
	m := f.m
	if ds := f.decl[name]; len(ds) > 0 {
		for _, d := range ds {
			l.read(f, d)
		}
		return
	}
	if sy := m.syms[name]; sy != nil {
		switch sy.kind {
		case 1:
			if sy.from == m.name {
				l.askName(f, sy.name)
			} else {
				l.ask(f, sy.from, sy.name)
			}
		case 2:
			l.ask(f, sy.from, "")
		}
		return
	}
	for _, st := range m.star {
		l.ask(f, st, name)
	}
	if m.lang != "python" {
		q := `"` + name + `"`
		if !strings.Contains(m.root(), q) {
			return
		}
		for i, st := range f.m.stmts {
			if st.Kind == "expression_statement" && strings.Contains(m.text(i), q) && strings.Contains(m.text(i), "exports") {
				l.read(f, i)
			}
		}
	}
}

func (l *loader) read(f *file, i int) {
	if f.done[i] {
		return
	}
	f.done[i] = true
	l.work = append(l.work, ref{f, i})
}

type ref struct {
	f *file
	i int
}

// drain reads the statements asked (deps.go drain :323-329, usesIn :338-366): a member of an
// imported module asks that module for the member's name.
func (l *loader) drain() {
	for len(l.work) > 0 {
		r := l.work[len(l.work)-1]
		l.work = l.work[:len(l.work)-1]
		m := r.f.m
		obj, prop, ok := strings.Cut(m.text(r.i), ".")
		if !ok {
			continue
		}
		if sy := m.syms[obj]; sy != nil && sy.kind == 2 {
			l.ask(r.f, sy.from, m.text(r.i)[len(obj)+1:len(obj)+1+len(prop)])
		}
	}
}

// resolve finds the file spec names and its hop count (deps.go resolve :506-560).
func (l *loader) resolve(f *file, spec string) (string, int, bool) {
	hop := f.hop
	if strings.HasPrefix(spec, ".") {
		return filepath.Join(filepath.Dir(f.tree.File), spec), hop, true
	}
	pd := l.installed(filepath.Dir(f.tree.File), spec)
	if pd == "" {
		return "", 0, false
	}
	return l.entry(pd), hop + 1, hop < 1
}

// moduleName is a file's module name: a Python package's directory holds __init__.py
// (srcir.go moduleName :360-390).
func moduleName(file string) string {
	name := strings.TrimSuffix(file, filepath.Ext(file))
	if _, err := os.Stat(filepath.Join(filepath.Dir(file), "__init__.py")); err == nil {
		return filepath.Dir(name)
	}
	return name
}

// installed is the directory of the package name installed for dir (deps.go installed).
func (l *loader) installed(dir, name string) string {
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		p := filepath.Join(d, "node_modules", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// entry is a package's entry module (deps.go entry).
func (l *loader) entry(pd string) string { return filepath.Join(pd, "index.js") }

func (l *loader) ask(f *file, spec, name string) {
	spec, hop, ok := l.resolve(f, spec)
	if !ok {
		return
	}
	g := l.files[spec]
	if g == nil {
		if l.bytes > 1<<20 {
			return
		}
		src, err := os.ReadFile(spec)
		if err != nil {
			return
		}
		l.bytes += len(src)
		g = &file{hop: hop, asked: map[string]bool{}}
		l.files[spec] = g
		l.pending = append(l.pending, spec)
	}
	if g.tree == nil {
		g.want = append(g.want, name)
		return
	}
	l.askName(g, name)
}
