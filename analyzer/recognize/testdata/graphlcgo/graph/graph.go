// Package graph is a LangGraph-style state graph whose superstep loop is a worklist of node
// names, not a counter: each superstep runs the current nodes in goroutines (a node is a struct
// whose Function field the graph keeps in a map by name, run through a retry helper), merges
// their results and picks the next nodes by calling the conditional edge functions on the new
// state, until no node is left. Nothing bounds it and nothing checks the context between
// supersteps: a graph that cycles runs for ever.
package graph

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// END is the name of the virtual end node.
const END = "END"

// Errors of the graph.
var (
	ErrNodeNotFound   = errors.New("graph: node not found")
	ErrNoOutgoingEdge = errors.New("graph: no outgoing edge")
	ErrEntryNotSet    = errors.New("graph: entry point not set")
)

// Node is a node of the graph.
type Node struct {
	Name        string
	Description string
	Function    func(ctx context.Context, state interface{}) (interface{}, error)
}

// Edge is a static edge.
type Edge struct{ From, To string }

// Command is a node result that updates the state and overrides the edges.
type Command struct {
	Update interface{}
	Goto   []string
}

// RetryPolicy says how often a failing node is retried.
type RetryPolicy struct {
	MaxRetries int
	Backoff    time.Duration
}

// Schema merges a node's update into the state.
type Schema interface {
	Update(state, update interface{}) (interface{}, error)
}

// StateGraph is a graph under construction.
type StateGraph struct {
	nodes            map[string]Node
	edges            []Edge
	conditionalEdges map[string]func(ctx context.Context, state interface{}) string
	entryPoint       string
	retryPolicy      *RetryPolicy
	stateMerger      func(ctx context.Context, state interface{}, results []interface{}) (interface{}, error)
	schema           Schema
}

// NewStateGraph returns an empty graph.
func NewStateGraph() *StateGraph {
	return &StateGraph{nodes: map[string]Node{}, conditionalEdges: map[string]func(ctx context.Context, state interface{}) string{}}
}

// AddNode registers a node.
func (g *StateGraph) AddNode(name, description string, fn func(ctx context.Context, state interface{}) (interface{}, error)) {
	g.nodes[name] = Node{Name: name, Description: description, Function: fn}
}

// AddEdge adds a static edge.
func (g *StateGraph) AddEdge(from, to string) { g.edges = append(g.edges, Edge{From: from, To: to}) }

// AddConditionalEdge adds an edge whose target the function picks from the state.
func (g *StateGraph) AddConditionalEdge(from string, fn func(ctx context.Context, state interface{}) string) {
	g.conditionalEdges[from] = fn
}

// SetEntryPoint sets the first node.
func (g *StateGraph) SetEntryPoint(name string) { g.entryPoint = name }

// SetRetryPolicy sets the retry policy of the nodes.
func (g *StateGraph) SetRetryPolicy(p *RetryPolicy) { g.retryPolicy = p }

// SetStateMerger sets the function that merges the results of parallel nodes.
func (g *StateGraph) SetStateMerger(m func(ctx context.Context, state interface{}, results []interface{}) (interface{}, error)) {
	g.stateMerger = m
}

// Config configures one invocation.
type Config struct {
	Callbacks []func(ctx context.Context, node string, state interface{})
}

// StateRunnable is a compiled graph.
type StateRunnable struct{ graph *StateGraph }

// Compile checks the graph and returns its runnable.
func (g *StateGraph) Compile() (*StateRunnable, error) {
	if g.entryPoint == "" {
		return nil, ErrEntryNotSet
	}
	return &StateRunnable{graph: g}, nil
}

// Invoke runs the graph on the initial state.
func (r *StateRunnable) Invoke(ctx context.Context, initialState interface{}) (interface{}, error) {
	return r.InvokeWithConfig(ctx, initialState, nil)
}

// InvokeWithConfig runs the graph superstep after superstep until no node is left.
func (r *StateRunnable) InvokeWithConfig(ctx context.Context, initialState interface{}, config *Config) (interface{}, error) {
	state := initialState
	currentNodes := []string{r.graph.entryPoint}
	for len(currentNodes) > 0 {
		var active []string
		for _, n := range currentNodes {
			if n != END {
				active = append(active, n)
			}
		}
		currentNodes = active
		if len(currentNodes) == 0 {
			break
		}
		var wg sync.WaitGroup
		results := make([]interface{}, len(currentNodes))
		errs := make([]error, len(currentNodes))
		for i, name := range currentNodes {
			node, ok := r.graph.nodes[name]
			if !ok {
				return nil, fmt.Errorf("%w: %s", ErrNodeNotFound, name)
			}
			wg.Add(1)
			go func(i int, n Node) {
				defer wg.Done()
				res, err := r.executeNodeWithRetry(ctx, n, state)
				results[i] = res
				errs[i] = err
			}(i, node)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		var gotos []string
		var updates []interface{}
		for _, res := range results {
			if cmd, ok := res.(*Command); ok {
				gotos = append(gotos, cmd.Goto...)
				updates = append(updates, cmd.Update)
			} else {
				updates = append(updates, res)
			}
		}
		var err error
		switch {
		case r.graph.schema != nil:
			for _, u := range updates {
				state, err = r.graph.schema.Update(state, u)
				if err != nil {
					return nil, fmt.Errorf("graph: update state: %w", err)
				}
			}
		case r.graph.stateMerger != nil:
			state, err = r.graph.stateMerger(ctx, state, updates)
			if err != nil {
				return nil, fmt.Errorf("graph: merge state: %w", err)
			}
		case len(updates) > 0:
			state = updates[len(updates)-1]
		}
		var next []string
		if len(gotos) > 0 {
			next = gotos
		} else {
			for _, name := range currentNodes {
				if edge, ok := r.graph.conditionalEdges[name]; ok {
					to := edge(ctx, state)
					if to == "" {
						return nil, fmt.Errorf("graph: conditional edge of %s returned no node", name)
					}
					next = append(next, to)
					continue
				}
				found := false
				for _, e := range r.graph.edges {
					if e.From == name {
						next = append(next, e.To)
						found = true
					}
				}
				if !found {
					return nil, fmt.Errorf("%w: %s", ErrNoOutgoingEdge, name)
				}
			}
		}
		currentNodes = next
		if config != nil {
			for _, cb := range config.Callbacks {
				for _, name := range active {
					cb(ctx, name, state)
				}
			}
		}
	}
	return state, nil
}

// executeNodeWithRetry runs one node, retrying it with a backoff when it fails.
func (r *StateRunnable) executeNodeWithRetry(ctx context.Context, node Node, state interface{}) (interface{}, error) {
	maxRetries, backoff := 1, time.Duration(0)
	if p := r.graph.retryPolicy; p != nil {
		maxRetries, backoff = p.MaxRetries, p.Backoff
	}
	var lastErr error
	for attempt := 0; attempt < maxRetries; attempt++ {
		res, err := node.Function(ctx, state)
		if err == nil {
			return res, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff * time.Duration(attempt+1)):
		}
	}
	return nil, fmt.Errorf("graph: node %s: %w", node.Name, lastErr)
}
