// Package graph is a LangGraph-style state graph: nodes are functions kept in a map by name,
// edges and conditional edges say which node runs next, and the compiled runnable's Invoke
// runs supersteps until the END node is reached or the step limit is hit.
package graph

import (
	"context"
	"errors"
	"fmt"
)

// END is the name of the virtual end node.
const END = "__end__"

// NodeFunc is a node: it receives the state and returns the new state.
type NodeFunc func(ctx context.Context, state any) (any, error)

// EdgeFunc picks the next node from the state.
type EdgeFunc func(ctx context.Context, state any) string

// StateGraph is a graph under construction.
type StateGraph struct {
	nodes       map[string]NodeFunc
	edges       map[string]string
	conditional map[string]EdgeFunc
	entry       string
}

// NewStateGraph returns an empty graph.
func NewStateGraph() *StateGraph {
	return &StateGraph{nodes: map[string]NodeFunc{}, edges: map[string]string{}, conditional: map[string]EdgeFunc{}}
}

// AddNode registers a node.
func (g *StateGraph) AddNode(name string, fn NodeFunc) { g.nodes[name] = fn }

// AddEdge adds an unconditional edge.
func (g *StateGraph) AddEdge(from, to string) { g.edges[from] = to }

// AddConditionalEdges adds an edge whose target the function picks.
func (g *StateGraph) AddConditionalEdges(from string, fn EdgeFunc) { g.conditional[from] = fn }

// SetEntryPoint sets the first node.
func (g *StateGraph) SetEntryPoint(name string) { g.entry = name }

// ErrRecursionLimit is returned when the graph runs more supersteps than allowed.
var ErrRecursionLimit = errors.New("graph: recursion limit reached")

// Runnable is a compiled graph.
type Runnable struct {
	g              *StateGraph
	RecursionLimit int
}

// Compile checks the graph and returns its runnable.
func (g *StateGraph) Compile() (*Runnable, error) {
	if _, ok := g.nodes[g.entry]; !ok {
		return nil, fmt.Errorf("graph: entry point %q is not a node", g.entry)
	}
	return &Runnable{g: g, RecursionLimit: 25}, nil
}

// Invoke runs the graph from its entry point on the state.
func (r *Runnable) Invoke(ctx context.Context, state any) (any, error) {
	current := r.g.entry
	for step := 0; ; step++ {
		if step >= r.RecursionLimit {
			return state, ErrRecursionLimit
		}
		if err := ctx.Err(); err != nil {
			return state, err
		}
		fn, ok := r.g.nodes[current]
		if !ok {
			return state, fmt.Errorf("graph: no node %q", current)
		}
		next, err := fn(ctx, state)
		if err != nil {
			return state, fmt.Errorf("graph: node %s: %w", current, err)
		}
		state = next
		if edge, ok := r.g.conditional[current]; ok {
			current = edge(ctx, state)
		} else {
			current = r.g.edges[current]
		}
		if current == END {
			return state, nil
		}
	}
}
