// Package graph is a LangGraph-style state graph on the pregel engine: nodes are funcs kept in
// a map by name, they read the shared state through a scope and return a command (channel
// updates, the nodes to go to); the engine merges the updates into the state's channels with
// their reducers at the superstep barrier, and the next nodes read them from there.
package graph

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"example.com/shapes/graphstate/pregel"
)

// END is the pseudo-node that ends the run.
const END = "__end__"

// DefaultMaxSteps bounds a run when the caller sets no limit.
const DefaultMaxSteps = 25

// Scope is a node's view of the shared state.
type Scope interface {
	Get(key string) (any, bool)
}

// Command is what a node returns: updates to the state's channels and the next nodes.
type Command struct {
	Updates map[string]any
	Next    []string
}

// NodeFunc is a node's computation.
type NodeFunc func(ctx context.Context, scope Scope) (*Command, error)

// Middleware wraps every node func.
type Middleware func(NodeFunc) NodeFunc

// Reducer merges an update into a channel's value.
type Reducer func(old, update any) any

type node struct {
	name  string
	fn    NodeFunc
	retry int
}

// Builder builds a graph.
type Builder struct {
	nodes    map[string]*node
	reducers map[string]Reducer
	start    string
	mws      []Middleware
}

// New returns an empty builder.
func New() *Builder {
	return &Builder{nodes: map[string]*node{}, reducers: map[string]Reducer{}}
}

// Node adds a node.
func (b *Builder) Node(name string, fn NodeFunc) *Builder {
	b.nodes[name] = &node{name: name, fn: fn, retry: 2}
	return b
}

// Channel sets the reducer of a state channel.
func (b *Builder) Channel(key string, r Reducer) *Builder {
	b.reducers[key] = r
	return b
}

// Start sets the first node.
func (b *Builder) Start(name string) *Builder {
	b.start = name
	return b
}

// Use adds node middleware.
func (b *Builder) Use(mw Middleware) *Builder {
	b.mws = append(b.mws, mw)
	return b
}

// Build returns the graph.
func (b *Builder) Build() (*Graph, error) {
	if b.start == "" {
		return nil, errors.New("graph: no start node")
	}
	return &Graph{b: b}, nil
}

// Graph is a built graph.
type Graph struct{ b *Builder }

// Options configure one run.
type Options struct {
	MaxSteps int
}

// store keeps the channels: node writes are pending until the barrier commits them.
type store struct {
	mu       sync.Mutex
	values   map[string]any
	pending  []map[string]any
	reducers map[string]Reducer
}

func (s *store) write(updates map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, updates)
}

func (s *store) commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.pending {
		for k, v := range u {
			if r, ok := s.reducers[k]; ok {
				s.values[k] = r(s.values[k], v)
			} else {
				s.values[k] = v
			}
		}
	}
	s.pending = nil
	return nil
}

type view struct{ s *store }

func (v view) Get(key string) (any, bool) {
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	x, ok := v.s.values[key]
	return x, ok
}

// adapter makes the graph a pregel graph.
type adapter struct {
	g     *Graph
	state *store
}

func (a *adapter) Roots() []string { return []string{a.g.b.start} }

func (a *adapter) State() Scope { return view{a.state} }

func (a *adapter) Commit() error { return a.state.commit() }

func (a *adapter) Vertex(name string) pregel.Vertex[Scope] {
	if _, ok := a.g.b.nodes[name]; !ok {
		return nil
	}
	return &vertex{name: name, a: a}
}

type vertex struct {
	name string
	a    *adapter
}

// Run runs the node the vertex stands for and sends to the nodes its command names.
func (v *vertex) Run(ctx context.Context, vctx pregel.VertexContext[Scope]) error {
	n, ok := v.a.g.b.nodes[v.name]
	if !ok {
		return fmt.Errorf("graph: no node %q", v.name)
	}
	fn := n.fn
	for i := len(v.a.g.b.mws) - 1; i >= 0; i-- {
		fn = v.a.g.b.mws[i](fn)
	}
	cmd, err := executeNodeWithRetry(ctx, fn, vctx.State, n.retry)
	if err != nil {
		return fmt.Errorf("graph: node %s: %w", v.name, err)
	}
	v.a.state.write(cmd.Updates)
	for _, next := range cmd.Next {
		if next == END {
			continue
		}
		vctx.Send(pregel.Message{From: v.name, To: next})
	}
	return nil
}

// executeNodeWithRetry runs a node again after a failure, up to retries more times.
func executeNodeWithRetry(ctx context.Context, fn NodeFunc, scope Scope, retries int) (*Command, error) {
	var lastErr error
	for attempt := 0; attempt <= retries; attempt++ {
		cmd, err := fn(ctx, scope)
		if err == nil {
			return cmd, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 10 * time.Millisecond):
		}
	}
	return nil, lastErr
}

// Run runs the graph from the initial channel values until no node is left.
func (g *Graph) Run(ctx context.Context, input map[string]any, opts *Options) (map[string]any, error) {
	if input == nil {
		return nil, errors.New("graph: no input")
	}
	maxSteps := DefaultMaxSteps
	if opts != nil && opts.MaxSteps > 0 {
		maxSteps = opts.MaxSteps
	}
	st := &store{values: map[string]any{}, reducers: g.b.reducers}
	for k, v := range input {
		st.values[k] = v
	}
	rt := pregel.New[Scope](&adapter{g: g, state: st}, pregel.Options{MaxSupersteps: maxSteps, Workers: 4})
	if err := rt.Run(ctx); err != nil {
		return nil, fmt.Errorf("graph: run: %w", err)
	}
	return st.values, nil
}
