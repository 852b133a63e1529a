package graph

// The node wrappers of smallnest/langgraphgo@v0.5.0 graph/retry.go and parallel.go, reduced:
// each keeps the Node it wraps and calls its Function field itself (retry.go:65, 142, 232, 317,
// parallel.go:51), and the graph's AddNodeWith… methods store the wrapper's bound Execute as
// another node's Function (retry.go:98-110, parallel.go:86-96, 135-152; on MessageGraph there,
// whose AddNode stores a Node just as StateGraph's does). So the one Function field holds every
// node func of the library, and the engine's call of it resolves to all of them.

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// RetryNode wraps a node with retry logic (retry.go:34-95).
type RetryNode struct {
	node        Node
	maxAttempts int
}

// Execute runs the node with retry logic.
func (rn *RetryNode) Execute(ctx context.Context, state interface{}) (interface{}, error) {
	var lastErr error
	for attempt := 1; attempt <= rn.maxAttempts; attempt++ {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("retry cancelled: %w", ctx.Err())
		default:
		}
		result, err := rn.node.Function(ctx, state)
		if err == nil {
			return result, nil
		}
		lastErr = err
	}
	return nil, fmt.Errorf("max retries (%d) exceeded: %w", rn.maxAttempts, lastErr)
}

// AddNodeWithRetry adds a node with retry logic.
func (g *StateGraph) AddNodeWithRetry(name, description string, fn func(context.Context, interface{}) (interface{}, error), maxAttempts int) {
	rn := &RetryNode{node: Node{Name: name, Description: description, Function: fn}, maxAttempts: maxAttempts}
	g.AddNode(name, description, rn.Execute)
}

// TimeoutNode wraps a node with a timeout (retry.go:113-153).
type TimeoutNode struct {
	node    Node
	timeout time.Duration
}

// Execute runs the node with timeout.
func (tn *TimeoutNode) Execute(ctx context.Context, state interface{}) (interface{}, error) {
	timeoutCtx, cancel := context.WithTimeout(ctx, tn.timeout)
	defer cancel()
	type result struct {
		value interface{}
		err   error
	}
	resultChan := make(chan result, 1)
	go func() {
		value, err := tn.node.Function(timeoutCtx, state)
		resultChan <- result{value: value, err: err}
	}()
	select {
	case res := <-resultChan:
		return res.value, res.err
	case <-timeoutCtx.Done():
		return nil, fmt.Errorf("node %s timed out after %v", tn.node.Name, tn.timeout)
	}
}

// AddNodeWithTimeout adds a node with timeout.
func (g *StateGraph) AddNodeWithTimeout(name, description string, fn func(context.Context, interface{}) (interface{}, error), timeout time.Duration) {
	tn := &TimeoutNode{node: Node{Name: name, Description: description, Function: fn}, timeout: timeout}
	g.AddNode(name, description, tn.Execute)
}

// CircuitBreaker wraps a node with a circuit breaker (retry.go:185-256).
type CircuitBreaker struct {
	node      Node
	threshold int
	failures  int
}

// Execute runs the node unless the circuit is open.
func (cb *CircuitBreaker) Execute(ctx context.Context, state interface{}) (interface{}, error) {
	if cb.failures >= cb.threshold {
		return nil, fmt.Errorf("circuit breaker open for %s", cb.node.Name)
	}
	result, err := cb.node.Function(ctx, state)
	if err != nil {
		cb.failures++
		return nil, err
	}
	cb.failures = 0
	return result, nil
}

// AddNodeWithCircuitBreaker adds a node with a circuit breaker.
func (g *StateGraph) AddNodeWithCircuitBreaker(name, description string, fn func(context.Context, interface{}) (interface{}, error), threshold int) {
	cb := &CircuitBreaker{node: Node{Name: name, Description: description, Function: fn}, threshold: threshold}
	g.AddNode(name, description, cb.Execute)
}

// RateLimiter wraps a node with a rate limit (retry.go:273-318).
type RateLimiter struct {
	node     Node
	maxCalls int
	calls    int
}

// Execute runs the node unless the limit is reached.
func (rl *RateLimiter) Execute(ctx context.Context, state interface{}) (interface{}, error) {
	if rl.calls >= rl.maxCalls {
		return nil, fmt.Errorf("rate limit exceeded for %s", rl.node.Name)
	}
	rl.calls++
	return rl.node.Function(ctx, state)
}

// AddNodeWithRateLimit adds a node with rate limiting.
func (g *StateGraph) AddNodeWithRateLimit(name, description string, fn func(context.Context, interface{}) (interface{}, error), maxCalls int) {
	rl := &RateLimiter{node: Node{Name: name, Description: description, Function: fn}, maxCalls: maxCalls}
	g.AddNode(name, description, rl.Execute)
}

// ParallelNode runs a set of nodes in parallel (parallel.go:10-83).
type ParallelNode struct {
	nodes []Node
	name  string
}

// Execute runs all nodes in parallel and collects results.
func (pn *ParallelNode) Execute(ctx context.Context, state interface{}) (interface{}, error) {
	type result struct {
		index int
		value interface{}
		err   error
	}
	results := make(chan result, len(pn.nodes))
	var wg sync.WaitGroup
	for i, node := range pn.nodes {
		wg.Add(1)
		go func(idx int, n Node) {
			defer wg.Done()
			value, err := n.Function(ctx, state)
			results <- result{index: idx, value: value, err: err}
		}(i, node)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	outputs := make([]interface{}, len(pn.nodes))
	var firstError error
	for res := range results {
		if res.err != nil && firstError == nil {
			firstError = res.err
		}
		outputs[res.index] = res.value
	}
	if firstError != nil {
		return nil, fmt.Errorf("parallel execution failed: %w", firstError)
	}
	return outputs, nil
}

// AddParallelNodes adds a set of nodes that execute in parallel.
func (g *StateGraph) AddParallelNodes(groupName string, nodes map[string]func(context.Context, interface{}) (interface{}, error)) {
	parallelNodes := make([]Node, 0, len(nodes))
	for name, fn := range nodes {
		parallelNodes = append(parallelNodes, Node{Name: name, Function: fn})
	}
	pn := &ParallelNode{name: groupName, nodes: parallelNodes}
	g.AddNode(groupName, "Parallel execution group: "+groupName, pn.Execute)
}

// MapReduceNode runs map nodes in parallel and reduces their results (parallel.go:100-131).
type MapReduceNode struct {
	name     string
	mapNodes []Node
	reducer  func([]interface{}) (interface{}, error)
}

// Execute runs the map phase and the reducer.
func (mr *MapReduceNode) Execute(ctx context.Context, state interface{}) (interface{}, error) {
	pn := &ParallelNode{name: mr.name + "_map", nodes: mr.mapNodes}
	results, err := pn.Execute(ctx, state)
	if err != nil {
		return nil, fmt.Errorf("map phase failed: %w", err)
	}
	if mr.reducer != nil {
		return mr.reducer(results.([]interface{}))
	}
	return results, nil
}

// AddMapReduceNode adds a map-reduce node.
func (g *StateGraph) AddMapReduceNode(name string, mapFunctions map[string]func(context.Context, interface{}) (interface{}, error), reducer func([]interface{}) (interface{}, error)) {
	mapNodes := make([]Node, 0, len(mapFunctions))
	for nodeName, fn := range mapFunctions {
		mapNodes = append(mapNodes, Node{Name: nodeName, Function: fn})
	}
	mr := &MapReduceNode{name: name, reducer: reducer, mapNodes: mapNodes}
	g.AddNode(name, "Map-reduce node: "+name, mr.Execute)
}

// FanOutFanIn adds parallel workers and a collector node (parallel.go:155-177).
func (g *StateGraph) FanOutFanIn(source, collector string, workerFuncs map[string]func(context.Context, interface{}) (interface{}, error), collectFunc func([]interface{}) (interface{}, error)) {
	g.AddParallelNodes(source+"_workers", workerFuncs)
	g.AddNode(collector, "Collector node: "+collector, func(_ context.Context, state interface{}) (interface{}, error) {
		if results, ok := state.([]interface{}); ok {
			return collectFunc(results)
		}
		return nil, fmt.Errorf("invalid state for collector: expected []interface{}")
	})
	g.AddEdge(source, source+"_workers")
	g.AddEdge(source+"_workers", collector)
}
