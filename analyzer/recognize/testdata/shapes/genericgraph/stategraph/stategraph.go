// Package stategraph is a LangGraph-style state graph built on generics: the state type is a type
// parameter, nodes are NodeFunc[S] values kept in a map by name, and the compiled runnable's
// InvokeWithConfig runs supersteps under a recursion limit taken from a config struct.
package stategraph

import (
	"context"
	"errors"
	"fmt"
)

// END is the name of the virtual end node.
const END = "__end__"

// NodeFunc is a node: it receives the state and returns the new state.
type NodeFunc[S any] func(ctx context.Context, state S) (S, error)

// EdgeFunc picks the next node from the state.
type EdgeFunc[S any] func(ctx context.Context, state S) string

// Node is a named node.
type Node[S any] struct {
	Name string
	Fn   NodeFunc[S]
}

// StateGraph is a graph under construction.
type StateGraph[S any] struct {
	nodes       map[string]Node[S]
	edges       map[string]string
	conditional map[string]EdgeFunc[S]
	entry       string
}

// NewStateGraph returns an empty graph.
func NewStateGraph[S any]() *StateGraph[S] {
	return &StateGraph[S]{nodes: map[string]Node[S]{}, edges: map[string]string{}, conditional: map[string]EdgeFunc[S]{}}
}

// AddNode registers a node.
func (g *StateGraph[S]) AddNode(name string, fn NodeFunc[S]) {
	g.nodes[name] = Node[S]{Name: name, Fn: fn}
}

// AddEdge adds an unconditional edge.
func (g *StateGraph[S]) AddEdge(from, to string) { g.edges[from] = to }

// AddConditionalEdge adds an edge whose target the function picks.
func (g *StateGraph[S]) AddConditionalEdge(from string, fn EdgeFunc[S]) { g.conditional[from] = fn }

// SetEntryPoint sets the first node.
func (g *StateGraph[S]) SetEntryPoint(name string) { g.entry = name }

// ErrRecursionLimit is returned when the graph runs more supersteps than allowed.
var ErrRecursionLimit = errors.New("stategraph: recursion limit reached")

// Config configures one invocation.
type Config struct {
	RecursionLimit int
}

// Runnable is a compiled graph.
type Runnable[S any] struct {
	g *StateGraph[S]
}

// Compile checks the graph and returns its runnable.
func (g *StateGraph[S]) Compile() (*Runnable[S], error) {
	if _, ok := g.nodes[g.entry]; !ok {
		return nil, fmt.Errorf("stategraph: entry point %q is not a node", g.entry)
	}
	return &Runnable[S]{g: g}, nil
}

// Invoke runs the graph with the default configuration.
func (r *Runnable[S]) Invoke(ctx context.Context, state S) (S, error) {
	return r.InvokeWithConfig(ctx, state, Config{RecursionLimit: 25})
}

// InvokeWithConfig runs the graph from its entry point on the state.
func (r *Runnable[S]) InvokeWithConfig(ctx context.Context, state S, cfg Config) (S, error) {
	current := r.g.entry
	for step := 0; ; step++ {
		if step >= cfg.RecursionLimit {
			return state, ErrRecursionLimit
		}
		if err := ctx.Err(); err != nil {
			return state, err
		}
		node, ok := r.g.nodes[current]
		if !ok {
			return state, fmt.Errorf("stategraph: no node %q", current)
		}
		next, err := node.Fn(ctx, state)
		if err != nil {
			return state, fmt.Errorf("stategraph: node %s: %w", current, err)
		}
		state = next
		if edge, ok := r.g.conditional[current]; ok {
			current = edge(ctx, state)
		} else {
			current = r.g.edges[current]
		}
		if current == END {
			break
		}
	}
	return state, nil
}
