package recognize_test

import "testing"

// The spanrecur shape (testdata/goshapes/spanrecur) is genkit/go@v1.4.0's generate loop without
// its profile: ai/generate.go:204-410 (a recursive closure run in a tracing-span callback, the
// tools in one goroutine each sending their results on a channel), the middlewares of
// ai/model_middleware.go:82-100 and 418-420 chained by core/middleware.go:33-40, and the front
// door ai/generate.go:413-545.

// TestGoroutineToolResultsFeedRecursion checks tool outputs gathered from a channel the
// per-call goroutines send them on (handleToolRequests, genkit ai/generate.go:775-868:
// resultChan <- result{value: multipartResp}; res := <-resultChan) into the request the
// recursion is called with: before, the output stopped at the send on a local channel, the
// site did not feed the next call, and a recursion needs that to repeat a decision: no loop and
// no entry at all. The depth check `turn+1 > maxTurns` in the callback, on the parameter the
// callback captured, is the recursion's bound (before: none), its default the 5 set in the
// function around the closure.
func TestGoroutineToolResultsFeedRecursion(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "spanrecur.GenerateWithRequest")
	if e == nil {
		t.Fatalf("spanrecur.GenerateWithRequest: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 147 {
		t.Fatalf("want the one loop at generate.go:147 (the generate closure), got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "generate.go:149" {
		t.Errorf("model calls %s, want generate.go:149", got)
	}
	if got := siteLines(l.ToolCalls); got != "generate.go:184" || !l.ParallelTools {
		t.Errorf("tool calls %s parallel %v, want generate.go:184, parallel", got, l.ParallelTools)
	}
	if l.Bound == nil || l.Bound.Expr != "maxTurns" || l.Bound.Default != "5" || l.Bound.Pos.Line != 156 {
		t.Errorf("bound %+v, want maxTurns default 5 at generate.go:156", l.Bound)
	}
	want := map[int]string{135: "not_started", 139: "not_started", 151: "failed (error)",
		154: "completed (goal_reached)", 157: "failed (max_turns)", 161: "failed (error)"}
	checkExits(t, e, want)
}

// TestMiddlewareNextNoRecursion checks middlewares that each return a closure calling the
// `next` ModelFunc it was handed. The refined call graph resolves `next` to every ModelFunc
// the chain passes, the middleware's own closure among them; before, each middleware closure
// was a turn recursion and the exported middleware constructors run entries (genkit: five
// invented loops, ai/model_middleware.go:84, 179, 219, 337, 420). Calling the next link of a
// chain of wrappers walks down a finite chain.
func TestMiddlewareNextNoRecursion(t *testing.T) {
	res := recognizeGoShapes(t)
	for _, name := range []string{"spanrecur.WithTiming", "spanrecur.WithValidation", "spanrecur.Chain"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: want no run entry, got loops %+v", name, e.Loops)
		}
	}
	if e := entry(res, "spanrecur.GenerateWithRequest"); e != nil && len(e.Loops) != 1 {
		t.Errorf("spanrecur.GenerateWithRequest: want only the generate closure's loop, got %+v", e.Loops)
	}
}

// TestPassThroughExit checks a front door that builds the options and hands the run on with
// `return GenerateWithRequest(ctx, r, o, nil)` (genkit/go@v1.4.0 ai/generate.go:545,
// ai/prompt.go:252, genkit/genkit.go:955; the same shape in agenticgokit@v0.5.5,
// goskills@v0.3.5 and gollem@v0.10.0, bench/corpus-go-holdout2/BASELINE.md class 5): the
// callee's exits are the entry's, and the return itself hands back the callee's outcome
// (propagated); before, that return was not listed.
func TestPassThroughExit(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "spanrecur.Generate")
	if e == nil {
		t.Fatalf("spanrecur.Generate: want a run entry, got none")
	}
	want := map[int]string{210: "not_started", 212: "propagated", 151: "failed (error)", 154: "completed (goal_reached)"}
	checkExits(t, e, want)
}
