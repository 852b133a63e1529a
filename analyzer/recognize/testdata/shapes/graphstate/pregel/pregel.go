// Package pregel is a bulk-synchronous engine generic over its state: a superstep runs every
// vertex of the frontier on a worker pool, the vertices send messages that make the next
// frontier, and the run ends when the frontier is empty or the superstep limit is reached.
package pregel

import (
	"context"
	"errors"
	"sync"
)

// ErrMaxSupersteps is returned when the run reaches Options.MaxSupersteps.
var ErrMaxSupersteps = errors.New("pregel: superstep limit reached")

// Options configure a runtime.
type Options struct {
	// MaxSupersteps bounds the run (0: unlimited).
	MaxSupersteps int
	Workers       int
}

// Message goes from a vertex to the vertex named To.
type Message struct{ From, To string }

// VertexContext is what a vertex gets: the shared state and a way to send.
type VertexContext[S any] struct {
	State S
	Send  func(Message)
}

// Vertex is a unit of computation.
type Vertex[S any] interface {
	Run(ctx context.Context, vctx VertexContext[S]) error
}

// Graph gives the runtime its vertices and state.
type Graph[S any] interface {
	Roots() []string
	Vertex(name string) Vertex[S]
	State() S
	Commit() error
}

// Runtime runs a graph superstep by superstep.
type Runtime[S any] struct {
	g    Graph[S]
	opts Options
	mu   sync.Mutex
	next map[string]bool
}

// New returns a runtime for g.
func New[S any](g Graph[S], opts Options) *Runtime[S] {
	return &Runtime[S]{g: g, opts: opts, next: map[string]bool{}}
}

type runState struct {
	frontier []string
	steps    int
}

// Run runs the graph to quiescence.
func (r *Runtime[S]) Run(ctx context.Context) error {
	st := &runState{frontier: r.g.Roots()}
	for len(st.frontier) > 0 {
		if err := r.preconditions(ctx, st); err != nil {
			return err
		}
		if err := r.superstep(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

// preconditions stops the run when it is cancelled or has used its supersteps.
func (r *Runtime[S]) preconditions(ctx context.Context, st *runState) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.opts.MaxSupersteps > 0 && st.steps >= r.opts.MaxSupersteps {
		return ErrMaxSupersteps
	}
	return nil
}

// superstep runs the frontier and computes the next one.
func (r *Runtime[S]) superstep(ctx context.Context, st *runState) error {
	st.steps++
	if err := r.runVertices(ctx, st.frontier); err != nil {
		return err
	}
	if err := r.g.Commit(); err != nil {
		return err
	}
	r.mu.Lock()
	var next []string
	for n := range r.next {
		next = append(next, n)
	}
	r.next = map[string]bool{}
	r.mu.Unlock()
	st.frontier = next
	return nil
}

// runVertices runs the vertices on a pool of workers fed from a channel.
func (r *Runtime[S]) runVertices(ctx context.Context, names []string) error {
	work := func(ctx context.Context, name string) error {
		return r.runVertex(ctx, name)
	}
	p := newPool(ctx, r.opts.Workers, work)
	for _, n := range names {
		p.tasks <- n
	}
	close(p.tasks)
	return p.wait()
}

func (r *Runtime[S]) runVertex(ctx context.Context, name string) error {
	v := r.g.Vertex(name)
	if v == nil {
		return errors.New("pregel: unknown vertex " + name)
	}
	vctx := VertexContext[S]{State: r.g.State(), Send: func(m Message) {
		r.mu.Lock()
		r.next[m.To] = true
		r.mu.Unlock()
	}}
	return v.Run(ctx, vctx)
}

type pool struct {
	tasks chan string
	wg    sync.WaitGroup
	once  sync.Once
	err   error
}

func newPool(ctx context.Context, n int, fn func(context.Context, string) error) *pool {
	if n <= 0 {
		n = 1
	}
	p := &pool{tasks: make(chan string)}
	for range n {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.loop(ctx, fn)
		}()
	}
	return p
}

// loop is a worker: it runs the tasks it receives until the channel closes.
func (p *pool) loop(ctx context.Context, fn func(context.Context, string) error) {
	for {
		select {
		case <-ctx.Done():
			return
		case task, ok := <-p.tasks:
			if !ok {
				return
			}
			if err := fn(ctx, task); err != nil {
				p.once.Do(func() { p.err = err })
			}
		}
	}
}

func (p *pool) wait() error {
	p.wg.Wait()
	return p.err
}
