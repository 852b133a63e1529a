// Package syntax is lifeline's plain-Go copy of a concrete syntax tree: node kinds, field
// names, children, byte ranges, lines and error flags, as a tree-sitter parser produced them
// (see Parse; it needs cgo). The tree is copied into Go values once, so everything that reads
// it (analyzer/srcir) is pure Go and testable without cgo.
package syntax

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
)

// kindReg numbers node kinds across grammars (0 is "", the kind of synthetic nodes).
var kindReg = struct {
	sync.Mutex
	ids map[string]uint16
}{ids: map[string]uint16{"": 0}}

// KindID returns the process-wide number of a node kind (Node.KindID), assigning the next
// one to a kind not seen yet. Grammars have a few hundred kinds each; past 65535 distinct
// kinds every new one shares the last number.
func KindID(kind string) uint16 {
	kindReg.Lock()
	defer kindReg.Unlock()
	if id, ok := kindReg.ids[kind]; ok {
		return id
	}
	id := uint16(min(len(kindReg.ids), 65535))
	kindReg.ids[kind] = id
	return id
}

// Node is one node of a concrete syntax tree. Anonymous tokens (punctuation, keywords) are
// kept only when they have a field name (operators) or are one of the keywords readers test
// for (async, await, the generator's *).
type Node struct {
	// Kind is the grammar's node kind ("function_definition", "call_expression", "(").
	Kind string
	// Field is the field name this node has in its parent ("body", "condition"), "" if none.
	Field string
	// KindID is Kind's process-wide number (KindID(Kind)): readers test node kinds against
	// sets of kinds by number instead of hashing the string (0 is the empty kind).
	KindID uint16
	// Named is false for anonymous tokens (punctuation, keywords).
	Named bool
	// Error marks an ERROR node (an unparsed region); Missing a node the parser inserted.
	Error, Missing bool
	// Start and End are byte offsets in the source; Line and EndLine 1-based lines.
	Start, End    int
	Line, EndLine int
	Children      []*Node
	// Parent is the node whose Children hold this one, nil for the root.
	Parent *Node
}

// Child returns the first child with the given field name, nil if none.
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// ChildrenOf returns the children with the given field name.
func (n *Node) ChildrenOf(field string) []*Node {
	var out []*Node
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			out = append(out, c)
		}
	}
	return out
}

// NamedChildren returns the named children. When every child is named (most nodes the
// readers ask) it is the node's own child list, capacity-limited (an append copies it): it
// must not be written into.
func (n *Node) NamedChildren() []*Node {
	if n == nil {
		return nil
	}
	for i, c := range n.Children {
		if !c.Named {
			out := make([]*Node, i, len(n.Children))
			copy(out, n.Children[:i])
			for _, c := range n.Children[i+1:] {
				if c.Named {
					out = append(out, c)
				}
			}
			return out
		}
	}
	if len(n.Children) == 0 {
		return []*Node{}
	}
	return n.Children[:len(n.Children):len(n.Children)]
}

// Has reports whether n has an anonymous child token of the given kind ("async", "await").
func (n *Node) Has(kind string) bool {
	if n == nil {
		return false
	}
	for _, c := range n.Children {
		if !c.Named && c.Kind == kind {
			return true
		}
	}
	return false
}

// Region is an unparsed or incomplete region of a file.
type Region struct {
	Line, EndLine int
	Start, End    int
	Missing       bool
	// Expected is what the parser inserted for a Missing region: the kind of the node the
	// grammar expected there (")", "identifier").
	Expected string
}

// Tree is a parsed file.
type Tree struct {
	File string
	Lang Lang
	Src  []byte
	Root *Node
	// Errors are the regions the parser could not parse (ERROR and MISSING nodes), in order.
	Errors []Region
	// text is Src as a string, made once: Text slices it instead of copying.
	text string
}

// Source returns the whole source as a string (made once at parse: no copy).
func (t *Tree) Source() string {
	if len(t.text) != len(t.Src) {
		return string(t.Src)
	}
	return t.text
}

// Text returns the source text of n (a substring of the source, no copy).
func (t *Tree) Text(n *Node) string {
	if n == nil || n.Start < 0 || n.End > len(t.Src) || n.Start > n.End {
		return ""
	}
	if len(t.text) != len(t.Src) {
		return string(t.Src[n.Start:n.End])
	}
	return t.text[n.Start:n.End]
}

// Lang is a source language a grammar reads.
type Lang string

// Languages.
const (
	Python     Lang = "python"
	TypeScript Lang = "typescript"
	TSX        Lang = "tsx"
	JavaScript Lang = "javascript"
)

// LangOf returns the language of a file name from its extension, "" for files lifeline does
// not read (declaration files .d.ts carry no bodies and are skipped too).
func LangOf(name string) Lang {
	base := strings.ToLower(filepath.Base(name))
	if strings.HasSuffix(base, ".d.ts") || strings.HasSuffix(base, ".d.mts") || strings.HasSuffix(base, ".d.cts") {
		return ""
	}
	switch filepath.Ext(base) {
	case ".py", ".pyi":
		if filepath.Ext(base) == ".pyi" {
			return ""
		}
		return Python
	case ".ts", ".mts", ".cts":
		return TypeScript
	case ".tsx":
		return TSX
	case ".js", ".mjs", ".cjs", ".jsx":
		return JavaScript
	}
	return ""
}

// ErrNoCgo is returned by Parse in a binary built without cgo.
var ErrNoCgo = errors.New("lifeline was built without cgo: Python/TypeScript reading needs a cgo build (CGO_ENABLED=1)")

// MaxDepth bounds the depth of the copied tree: deeper nodes are cut (their region is reported
// as unparsed), so that adversarial nesting cannot exhaust the stack of the readers.
const MaxDepth = 400
