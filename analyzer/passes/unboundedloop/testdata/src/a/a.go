package a

import (
	"context"
	"time"

	"fw"
)

func loopForever(ctx context.Context, m fw.Model) {
	for { // want `turn loop around fw.Model.Generate has no bound and no cancellation exit`
		msg, err := m.Generate(ctx, nil)
		if err != nil || len(msg.ToolCalls) == 0 {
			return
		}
	}
}

func bounded(ctx context.Context, m fw.Model) {
	for i := 0; i < 10; i++ {
		m.Generate(ctx, nil)
	}
}

func boundedInBody(ctx context.Context, maxSteps int) error {
	step := 0
	for {
		if step >= maxSteps {
			return fw.ErrMaxSteps
		}
		step++
		fw.Complete(ctx, "x")
	}
}

func cancellable(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			return
		}
		fw.Complete(ctx, "x")
	}
}

func viaHelper(ctx context.Context, m fw.Model) {
	for { // want `turn loop around fw.Model.Generate has no bound`
		fw.Ask(ctx, m)
	}
}

func recurse(ctx context.Context, m fw.Model) error { // want `turn recursion around fw.Model.Generate has no bound`
	msg, err := m.Generate(ctx, nil)
	if err != nil || len(msg.ToolCalls) == 0 {
		return err
	}
	return recurse(ctx, m)
}

func recurseBounded(ctx context.Context, m fw.Model, turn, max int) error {
	if turn+1 > max {
		return fw.ErrMaxSteps
	}
	if _, err := m.Generate(ctx, nil); err != nil {
		return err
	}
	return recurseBounded(ctx, m, turn+1, max)
}

func notATurnLoop(ctx context.Context, tools []fw.Tool) {
	for {
		for _, t := range tools {
			t.Call(ctx, "")
		}
	}
}

func ignored(ctx context.Context) {
	//lifeline:ignore unboundedloop the daemon runs until the process exits
	for {
		fw.Complete(ctx, "x")
	}
}

// retryForever retries one model call until it succeeds: a retry loop with no bound.
func retryForever(ctx context.Context, m fw.Model) *fw.Message {
	for { // want `retry loop around fw.Model.Generate has no bound and no cancellation exit: a model call that keeps failing is retried forever`
		out, err := m.Generate(ctx, nil)
		if err == nil {
			return out
		}
		time.Sleep(time.Second)
	}
}

// Ranges over finite collections are bounded by their length.

func overSlice(ctx context.Context, m fw.Model, prompts []string) {
	for range prompts {
		m.Generate(ctx, nil)
	}
}

func overArray(ctx context.Context, m fw.Model, prompts [3]string) {
	for _, p := range prompts {
		fw.Complete(ctx, p)
	}
}

func overArrayPointer(ctx context.Context, prompts *[3]string) {
	for _, p := range prompts {
		fw.Complete(ctx, p)
	}
}

func overString(ctx context.Context, s string) {
	for _, r := range s {
		fw.Complete(ctx, string(r))
	}
}

func overMap(ctx context.Context, prompts map[string]string) {
	for k := range prompts {
		fw.Complete(ctx, k)
	}
}

func overInt(ctx context.Context, n int) {
	for range n {
		fw.Complete(ctx, "x")
	}
}

type prompts []string

func overNamedSlice(ctx context.Context, ps prompts) {
	for _, p := range ps {
		fw.Complete(ctx, p)
	}
}

func overSliceParam[S ~[]string](ctx context.Context, ps S) {
	for _, p := range ps {
		fw.Complete(ctx, p)
	}
}

// A map the loop inserts into may produce the new entries (the spec leaves it open): not
// bounded by its length.
func growingMap(ctx context.Context, queue map[string]bool) {
	for k := range queue { // want `turn loop around fw.Complete has no bound and no cancellation exit`
		out, _ := fw.Complete(ctx, k)
		queue[out] = true
	}
}

// A channel has no length bound: a producer can keep sending.
func overChannel(ctx context.Context, prompts <-chan string) {
	for p := range prompts { // want `turn loop around fw.Complete has no bound and no cancellation exit`
		fw.Complete(ctx, p)
	}
}

// A function iterator may never stop.
func overIterator(ctx context.Context, next func(yield func(string) bool)) {
	for p := range next { // want `turn loop around fw.Complete has no bound and no cancellation exit`
		fw.Complete(ctx, p)
	}
}

func overChanParam[C ~chan string](ctx context.Context, ps C) {
	for p := range ps { // want `turn loop around fw.Complete has no bound and no cancellation exit`
		fw.Complete(ctx, p)
	}
}

type agenda struct{ todo map[string]int }

func (a *agenda) growingField(ctx context.Context) {
	for k := range a.todo { // want `turn loop around fw.Complete has no bound`
		fw.Complete(ctx, k)
		a.todo[k+"'"]++
	}
}

func (a *agenda) otherMapGrows(ctx context.Context, done map[string]int) {
	for k := range a.todo {
		fw.Complete(ctx, k)
		done[k]++
	}
}

// stopsOnlyOnFailure leaves only when the model call fails: it goes round again on every
// success, whatever the model asks, so it is a turn loop without a final-answer exit (not a
// retry-until-success loop, which leaves when the call succeeds).
func stopsOnlyOnFailure(ctx context.Context, m fw.Model, tools map[string]fw.Tool) {
	for { // want `turn loop around fw.Model.Generate has no bound and no cancellation exit`
		msg, err := m.Generate(ctx, nil)
		if err != nil {
			return
		}
		for _, c := range msg.ToolCalls {
			tools[c.Name].Call(ctx, c.Args)
		}
	}
}

// node is a linked list of prompts.
type node struct {
	prompt []fw.Message
	next   *node
}

// Next returns the following node.
func (n *node) Next() *node { return n.next }

// walkList walks a linked list: bounded by the list, whatever each step calls.
func walkList(ctx context.Context, m fw.Model, head *node) {
	for n := head; n != nil; n = n.Next() {
		m.Generate(ctx, n.prompt)
	}
	for n := head; n != nil; n = n.next {
		m.Generate(ctx, n.prompt)
	}
}
