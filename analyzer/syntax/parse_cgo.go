//go:build cgo

package syntax

import (
	"fmt"
	"sort"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Available reports whether this binary can parse (it was built with cgo).
const Available = true

type grammar struct {
	lang  *sitter.Language
	kinds []string // by kind id
	named []bool   // by kind id
	// keep marks the anonymous kinds copied even without a field (keywords the readers
	// test for: async, await, the generator star); other anonymous tokens (punctuation,
	// keywords) are skipped unless they have a field (operators do).
	keep []bool
	// drop marks kinds not copied at all (comments); prune kinds copied without their
	// children (type annotations and declarations: their text is still there by range).
	drop, prune []bool
	fields      []string // by field id
}

// pruned are the TypeScript kinds whose subtrees say nothing about the lifecycle.
var pruned = map[string]bool{
	"type_annotation": true, "type_arguments": true, "type_parameters": true, "interface_declaration": true,
	"type_alias_declaration": true, "implements_clause": true, "opting_type_annotation": true,
	"omitting_type_annotation": true, "asserts_annotation": true, "type_predicate_annotation": true,
}

var (
	grammarsOnce sync.Once
	grammars     map[Lang]*grammar
	parsers      = map[Lang]*sync.Pool{}
)

func loadGrammars() {
	grammars = map[Lang]*grammar{}
	for l, p := range map[Lang]*sitter.Language{
		Python:     sitter.NewLanguage(tspy.Language()),
		TypeScript: sitter.NewLanguage(tsts.LanguageTypescript()),
		TSX:        sitter.NewLanguage(tsts.LanguageTSX()),
		JavaScript: sitter.NewLanguage(tsjs.Language()),
	} {
		g := &grammar{lang: p}
		for i := uint32(0); i < p.NodeKindCount(); i++ {
			g.kinds = append(g.kinds, p.NodeKindForId(uint16(i)))
			g.named = append(g.named, p.NodeKindIsNamed(uint16(i)))
			k := g.kinds[len(g.kinds)-1]
			g.keep = append(g.keep, k == "async" || k == "await" || k == "*")
			g.drop = append(g.drop, k == "comment" && g.named[len(g.named)-1])
			g.prune = append(g.prune, pruned[k] && g.named[len(g.named)-1] && l != Python)
		}
		for i := uint32(0); i <= p.FieldCount(); i++ {
			g.fields = append(g.fields, p.FieldNameForId(uint16(i)))
		}
		grammars[l] = g
		lang := p
		parsers[l] = &sync.Pool{New: func() any {
			ps := sitter.NewParser()
			if err := ps.SetLanguage(lang); err != nil {
				return nil
			}
			return ps
		}}
	}
}

// Parse parses src as lang and copies the tree into Go values. Syntax errors do not fail
// it: they are recorded as Tree.Errors.
func Parse(file string, lang Lang, src []byte) (*Tree, error) {
	grammarsOnce.Do(loadGrammars)
	g := grammars[lang]
	if g == nil {
		return nil, fmt.Errorf("%s: no grammar for %q", file, lang)
	}
	pool := parsers[lang]
	ps, _ := pool.Get().(*sitter.Parser)
	if ps == nil {
		return nil, fmt.Errorf("%s: cannot create a %s parser", file, lang)
	}
	defer pool.Put(ps)
	tr := ps.Parse(src, nil)
	if tr == nil {
		return nil, fmt.Errorf("%s: the %s parser gave up", file, lang)
	}
	defer tr.Close()
	t := &Tree{File: file, Lang: lang, Src: src}
	// a tree without errors has no MISSING nodes: no need to ask for each node
	c := &copier{t: t, g: g, lines: lineStarts(src), errs: tr.RootNode().HasError()}
	cur := tr.Walk()
	defer cur.Close()
	t.Root = c.copy(cur, 0)
	return t, nil
}

// lineStarts returns the byte offsets where lines begin.
func lineStarts(src []byte) []int {
	out := []int{0}
	for i, b := range src {
		if b == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

type copier struct {
	t     *Tree
	g     *grammar
	lines []int
	last  int // line index of the previous lookup: offsets mostly grow
	errs  bool
}

// line returns the 1-based line of byte offset off.
func (c *copier) line(off int) int {
	i := c.last
	if i >= len(c.lines) || c.lines[i] > off {
		i = sort.Search(len(c.lines), func(j int) bool { return c.lines[j] > off }) - 1
	} else {
		for i+1 < len(c.lines) && c.lines[i+1] <= off {
			i++
		}
	}
	c.last = max(i, 0)
	return max(i, 0) + 1
}

// copy copies the node under the cursor and its subtree. It asks the C library only what it
// cannot derive (kind, field, range, missing flag): every call crosses cgo.
func (c *copier) copy(cur *sitter.TreeCursor, depth int) *Node {
	g, t := c.g, c.t
	n := cur.Node()
	id := int(n.KindId())
	fid := int(cur.FieldId())
	if id < len(g.kinds) && (g.drop[id] || !g.named[id] && fid == 0 && !g.keep[id]) && depth > 0 {
		if c.errs && n.IsMissing() {
			start := int(n.StartByte())
			l := c.line(start)
			t.Errors = append(t.Errors, Region{Line: l, EndLine: l, Start: start, End: start, Missing: true})
		}
		return nil
	}
	out := &Node{Start: int(n.StartByte()), End: int(n.EndByte())}
	if id < len(g.kinds) {
		out.Kind, out.Named = g.kinds[id], g.named[id]
	}
	if id == 65535 { // ts_builtin_sym_error
		out.Kind, out.Named, out.Error = "ERROR", true, true
	}
	if fid > 0 && fid < len(g.fields) {
		out.Field = g.fields[fid]
	}
	out.Line = c.line(out.Start)
	out.EndLine = out.Line
	if out.End > out.Start {
		out.EndLine = c.line(out.End - 1)
	}
	if c.errs && n.IsMissing() {
		out.Missing = true
	}
	if out.Error || out.Missing {
		t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End, Missing: out.Missing})
	}
	if id < len(g.prune) && g.prune[id] || !cur.GotoFirstChild() {
		return out
	}
	if depth >= MaxDepth {
		cur.GotoParent()
		t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End})
		return out
	}
	for {
		if k := c.copy(cur, depth+1); k != nil {
			out.Children = append(out.Children, k)
		}
		if !cur.GotoNextSibling() {
			break
		}
	}
	cur.GotoParent()
	return out
}
