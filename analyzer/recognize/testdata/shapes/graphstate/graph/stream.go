package graph

import (
	"context"
	"iter"

	"example.com/shapes/graphstate/pregel"
)

// RunFunc runs a graph on its input; the run goes on while the caller drains it.
type RunFunc func(ctx context.Context, input map[string]any) iter.Seq2[map[string]any, error]

// RunMiddleware wraps every run of a graph.
type RunMiddleware func(RunFunc) RunFunc

// Executor runs a graph's nodes.
type Executor interface {
	Execute(ctx context.Context, g *Graph, input map[string]any) iter.Seq2[map[string]any, error]
}

// BSPExecutor runs a graph on the pregel engine, superstep after superstep.
type BSPExecutor struct{ MaxSteps int }

// Execute returns the run's iterator: the engine starts when it is drained, in a goroutine,
// and the iterator yields the final state.
func (e *BSPExecutor) Execute(ctx context.Context, g *Graph, input map[string]any) iter.Seq2[map[string]any, error] {
	return func(yield func(map[string]any, error) bool) {
		st := &store{values: map[string]any{}, reducers: g.b.reducers}
		for k, v := range input {
			st.values[k] = v
		}
		errc := make(chan error, 1)
		go func() {
			errc <- e.runPregel(ctx, g, st)
		}()
		if err := <-errc; err != nil {
			yield(nil, err)
			return
		}
		yield(st.values, nil)
	}
}

func (e *BSPExecutor) runPregel(ctx context.Context, g *Graph, st *store) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return e.runtime(g, st).Run(ctx)
}

func (e *BSPExecutor) runtime(g *Graph, st *store) *pregel.Runtime[Scope] {
	return pregel.New[Scope](&adapter{g: g, state: st}, pregel.Options{MaxSupersteps: e.MaxSteps, Workers: 4})
}

func (g *Graph) wrapRun(core RunFunc, mws []RunMiddleware) RunFunc {
	for i := len(mws) - 1; i >= 0; i-- {
		core = mws[i](core)
	}
	return core
}

func (g *Graph) execute(ctx context.Context, exec Executor, input map[string]any) iter.Seq2[map[string]any, error] {
	return func(yield func(map[string]any, error) bool) {
		for out, err := range exec.Execute(ctx, g, input) {
			if !yield(out, err) {
				return
			}
		}
	}
}

// executeWith runs the graph on exec, or on the default executor.
func (g *Graph) executeWith(ctx context.Context, exec Executor, input map[string]any) iter.Seq2[map[string]any, error] {
	if exec == nil {
		exec = &BSPExecutor{MaxSteps: DefaultMaxSteps}
	}
	return g.execute(ctx, exec, input)
}

// Stream runs the graph through its run middleware and an executor; nothing runs until the
// caller drains the iterator it returns.
func (g *Graph) Stream(ctx context.Context, input map[string]any, mws ...RunMiddleware) iter.Seq2[map[string]any, error] {
	core := func(ctx context.Context, input map[string]any) iter.Seq2[map[string]any, error] {
		return g.executeWith(ctx, nil, input)
	}
	return g.wrapRun(core, mws)(ctx, input)
}
