// Package wrapper has calls that hand over a part of what the function was handed: a tool
// wrapper delegating to the tool it wraps (through the interface it implements itself, so the
// call graph says it may call itself), and a walk down a tree. Recursions through them walk
// down a finite structure.
package wrapper

import "context"

// Tool is a callable tool.
type Tool interface {
	Call(ctx context.Context, args []byte) (any, error)
}

// Named renames a tool.
type Named struct {
	name  string
	inner Tool
}

// Call delegates to the wrapped tool.
func (t *Named) Call(ctx context.Context, args []byte) (any, error) {
	return t.inner.Call(ctx, args)
}

// Node is a binary tree.
type Node struct {
	Left, Right *Node
	Value       int
}

// Sum adds the values of a tree.
func Sum(n *Node) int {
	if n == nil {
		return 0
	}
	return n.Value + Sum(n.Left) + Sum(n.Right)
}

// Step is a recursion on fresh state: it hands over a new slice, not a part of its input.
func Step(ctx context.Context, msgs []string, more func([]string) []string) []string {
	next := more(msgs)
	if len(next) == len(msgs) {
		return msgs
	}
	return Step(ctx, append(msgs, next...), more)
}
