// Package worklist visits a graph with a worklist: each node's successors (an accessor of the
// node) are tested for a sink, and each successor's kind selects a visitor from a map whose
// result is queued. A loop that repeats a call, tests its result, dispatches its elements by
// name and feeds what the callables return back into the next iteration — over a graph, with
// nothing from outside. Not a turn loop.
package worklist

// Node is a node of the graph.
type Node struct {
	Kind  string
	Name  string
	edges []*Node
}

// Successors returns the nodes n has an edge to.
func (n *Node) Successors() []*Node { return n.edges }

// Visitor visits one node and returns the nodes to visit next.
type Visitor func(n *Node) ([]*Node, error)

// Graph is a graph with visitors by node kind.
type Graph struct {
	visitors map[string]Visitor
}

// Reach returns the names of the nodes reachable from start, stopping at the first sink.
func (g *Graph) Reach(start *Node) ([]string, error) {
	var out []string
	queue := []*Node{start}
	seen := map[*Node]bool{}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		next := n.Successors()
		if len(next) == 0 {
			return append(out, n.Name), nil
		}
		for _, m := range next {
			visit, ok := g.visitors[m.Kind]
			if !ok {
				continue
			}
			more, err := visit(m)
			if err != nil {
				return nil, err
			}
			out = append(out, m.Name)
			queue = append(queue, more...)
		}
	}
	return out, nil
}
