//go:build cgo

package syntax

import (
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Available reports whether this binary can parse (it was built with cgo).
const Available = true

type grammar struct {
	lang   *sitter.Language
	kinds  []string // by kind id
	fields []string // by field id
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
	cur := tr.Walk()
	defer cur.Close()
	t.Root = t.copy(g, cur, 0)
	return t, nil
}

func (t *Tree) copy(g *grammar, cur *sitter.TreeCursor, depth int) *Node {
	n := cur.Node()
	kind := ""
	if id := int(n.KindId()); id < len(g.kinds) {
		kind = g.kinds[id]
	}
	field := ""
	if id := int(cur.FieldId()); id > 0 && id < len(g.fields) {
		field = g.fields[id]
	}
	sp, ep := n.StartPosition(), n.EndPosition()
	out := &Node{Kind: kind, Field: field, Named: n.IsNamed(), Error: n.IsError(), Missing: n.IsMissing(),
		Start: int(n.StartByte()), End: int(n.EndByte()), Line: int(sp.Row) + 1, EndLine: int(ep.Row) + 1}
	if out.Error || out.Missing {
		t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End, Missing: out.Missing})
	}
	if depth >= MaxDepth {
		if n.ChildCount() > 0 {
			t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End})
		}
		return out
	}
	if cur.GotoFirstChild() {
		out.Children = make([]*Node, 0, n.ChildCount())
		for {
			out.Children = append(out.Children, t.copy(g, cur, depth+1))
			if !cur.GotoNextSibling() {
				break
			}
		}
		cur.GotoParent()
	}
	return out
}
