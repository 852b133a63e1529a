// Package astwalk walks a Go syntax tree with handlers chosen by node kind: a recursion whose
// "model call" is a child accessor (children(n) of an ast.Node), whose result is tested for
// emptiness (a leaf ends the walk), whose elements' kind names select a handler from a map,
// and whose handlers' results are walked next. Every part of a turn's shape is there except
// the model: nothing but the tree itself enters the walk. Not a turn loop.
package astwalk

import (
	"go/ast"
	"reflect"
)

// Handler rewrites one node and returns the nodes to walk next.
type Handler func(n ast.Node) []ast.Node

// Walker walks a syntax tree.
type Walker struct {
	handlers map[string]Handler
	seen     []string
}

// New returns a walker with its handlers.
func New() *Walker { return &Walker{handlers: map[string]Handler{}} }

// children returns the direct children of a node.
func children(n ast.Node) []ast.Node {
	var out []ast.Node
	ast.Inspect(n, func(m ast.Node) bool {
		if m == n {
			return true
		}
		if m != nil {
			out = append(out, m)
		}
		return false
	})
	return out
}

// Walk walks n and every node a handler returns.
func (w *Walker) Walk(n ast.Node) []string {
	kids := children(n)
	if len(kids) == 0 {
		return w.seen
	}
	for _, k := range kids {
		kind := reflect.TypeOf(k).Elem().Name()
		h, ok := w.handlers[kind]
		if !ok {
			continue
		}
		w.seen = append(w.seen, kind)
		for _, next := range h(k) {
			w.Walk(next)
		}
	}
	return w.seen
}
