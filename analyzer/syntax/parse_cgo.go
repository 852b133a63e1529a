//go:build cgo

package syntax

import (
	"fmt"
	"sort"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Available reports whether this binary can parse (it was built with cgo).
const Available = true

type grammar struct {
	ptr   unsafe.Pointer // the C TSLanguage
	kinds []string       // by kind id
	ids   []uint16       // KindID of each kind, by kind id
	named []bool         // by kind id
	// keep marks the anonymous kinds copied even without a field (keywords the readers
	// test for: async, await, the generator star); other anonymous tokens (punctuation,
	// keywords) are skipped unless they have a field (operators do).
	keep []bool
	// drop marks kinds not copied at all (comments); prune kinds copied without their
	// children (type annotations and declarations: their text is still there by range).
	drop, prune []bool
	fields      []string // by field id
	// flags are keep/drop/prune as the C walk reads them (LL_ANON, LL_DROP, LL_PRUNE).
	flags []uint8
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
)

func loadGrammars() {
	grammars = map[Lang]*grammar{}
	for l, ptr := range map[Lang]unsafe.Pointer{
		Python:     tspy.Language(),
		TypeScript: tsts.LanguageTypescript(),
		TSX:        tsts.LanguageTSX(),
		JavaScript: tsjs.Language(),
	} {
		p := sitter.NewLanguage(ptr)
		g := &grammar{ptr: ptr}
		for i := uint32(0); i < p.NodeKindCount(); i++ {
			g.kinds = append(g.kinds, p.NodeKindForId(uint16(i)))
			g.ids = append(g.ids, KindID(g.kinds[len(g.kinds)-1]))
			g.named = append(g.named, p.NodeKindIsNamed(uint16(i)))
			k := g.kinds[len(g.kinds)-1]
			g.keep = append(g.keep, k == "async" || k == "await" || k == "*")
			g.drop = append(g.drop, k == "comment" && g.named[len(g.named)-1])
			g.prune = append(g.prune, pruned[k] && g.named[len(g.named)-1] && l != Python)
			var f uint8
			if !g.named[i] && !g.keep[i] {
				f |= llAnon
			}
			if g.drop[i] {
				f |= llDrop
			}
			if g.prune[i] {
				f |= llPrune
			}
			g.flags = append(g.flags, f)
		}
		if len(g.flags) == 0 {
			g.flags = []uint8{0}
		}
		for i := uint32(0); i <= p.FieldCount(); i++ {
			g.fields = append(g.fields, p.FieldNameForId(uint16(i)))
		}
		grammars[l] = g
	}
}

// Parse parses src as lang and copies the tree into Go values. Syntax errors do not fail
// it: they are recorded as Tree.Errors. The C side walks the tree in one call (flatParse);
// the nodes are built here from its preorder records.
func Parse(file string, lang Lang, src []byte) (*Tree, error) {
	grammarsOnce.Do(loadGrammars)
	g := grammars[lang]
	if g == nil {
		return nil, fmt.Errorf("%s: no grammar for %q", file, lang)
	}
	recs, errs, release, err := flatParse(lang, g, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %s parser: %w", file, lang, err)
	}
	defer release()
	t := &Tree{File: file, Lang: lang, Src: src, text: string(src)}
	c := &copier{t: t, g: g, lines: lineStarts(src), errs: errs}
	t.Root = c.build(recs)
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
