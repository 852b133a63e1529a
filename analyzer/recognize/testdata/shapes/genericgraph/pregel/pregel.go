// Package pregel is a generic superstep engine without any bound: each superstep runs the
// active nodes (a generic Node[S] interface) in goroutines under a WaitGroup, merges their
// states through the state type's own Merge method (a call on a type-parameter value) and
// picks the next nodes through the edges, until END. Nothing stops a graph that cycles.
package pregel

import (
	"context"
	"fmt"
	"sync"
)

// END is the name of the virtual end node.
const END = "END"

// Mergeable is the constraint of a state: two states of a superstep merge into one.
type Mergeable[S any] interface {
	Merge(other S) S
}

// Node runs on the state.
type Node[S any] interface {
	Run(ctx context.Context, state S) (S, error)
}

// NodeFunc adapts a function to a Node.
type NodeFunc[S any] func(ctx context.Context, state S) (S, error)

// Run calls f.
func (f NodeFunc[S]) Run(ctx context.Context, state S) (S, error) { return f(ctx, state) }

// Router picks the next nodes from the merged state.
type Router[S any] func(state S) []string

// Graph is a compiled graph.
type Graph[S Mergeable[S]] struct {
	nodes   map[string]Node[S]
	routers map[string]Router[S]
	start   string
}

// New returns an empty graph starting at start.
func New[S Mergeable[S]](start string) *Graph[S] {
	return &Graph[S]{nodes: map[string]Node[S]{}, routers: map[string]Router[S]{}, start: start}
}

// Add registers a node and the router run after it.
func (g *Graph[S]) Add(name string, n Node[S], next Router[S]) {
	g.nodes[name] = n
	g.routers[name] = next
}

// Run runs the graph until every branch reached END.
func (g *Graph[S]) Run(ctx context.Context, state S) (S, error) {
	active := []string{g.start}
	for {
		results := make([]S, len(active))
		errs := make([]error, len(active))
		var wg sync.WaitGroup
		for i, name := range active {
			node, ok := g.nodes[name]
			if !ok {
				return state, fmt.Errorf("pregel: no node %q", name)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = node.Run(ctx, state)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				return state, fmt.Errorf("pregel: node %s: %w", active[i], err)
			}
		}
		for _, r := range results {
			state = state.Merge(r)
		}
		var next []string
		for _, name := range active {
			for _, n := range g.routers[name](state) {
				if n != END {
					next = append(next, n)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		active = next
	}
	return state, nil
}
