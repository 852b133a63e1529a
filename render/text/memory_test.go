package text

import (
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// smallRuns is the tree of n runs of one turn, one step and one model call each, every run in
// a session of its own (bench/gen -format small-runs -per 1).
func smallRuns(n int) *model.Tree {
	p := model.NewProjector()
	t0 := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	for i := range n {
		s, r := "s"+strconv.Itoa(i), "r"+strconv.Itoa(i)
		tu, st, m := "t"+strconv.Itoa(i), "st"+strconv.Itoa(i), "m"+strconv.Itoa(i)
		seq := int64(0)
		ev := func(e model.Event) {
			seq++
			e.V, e.Seq, e.TS, e.Source = 1, seq, t0.Add(time.Duration(i*10+int(seq))*time.Millisecond), model.SourceRuntime
			p.Apply(&e)
		}
		ev(model.Event{Type: model.SessionStart, SessionID: s})
		ev(model.Event{Type: model.RunStart, SessionID: s, RunID: r, Attempt: 1})
		ev(model.Event{Type: model.TurnStart, SessionID: s, RunID: r, TurnID: tu})
		ev(model.Event{Type: model.StepStart, SessionID: s, RunID: r, TurnID: tu, StepID: st})
		ev(model.Event{Type: model.ModelStart, SessionID: s, RunID: r, TurnID: tu, StepID: st, CallID: m, Name: "gpt-4.1"})
		ev(model.Event{Type: model.ModelEnd, SessionID: s, RunID: r, TurnID: tu, StepID: st, CallID: m, Outcome: model.OutcomeOK, Usage: &model.Usage{InputTokens: 812, OutputTokens: 37}})
		ev(model.Event{Type: model.StepEnd, SessionID: s, RunID: r, TurnID: tu, StepID: st, Outcome: model.OutcomeOK})
		ev(model.Event{Type: model.TurnEnd, SessionID: s, RunID: r, TurnID: tu, Outcome: model.OutcomeOK, StopReason: model.StopGoalReached})
		ev(model.Event{Type: model.RunEnd, SessionID: s, RunID: r, Status: model.StatusCompleted, StopReason: model.StopGoalReached})
		ev(model.Event{Type: model.SessionEnd, SessionID: s})
	}
	return p.Tree()
}

// heldWriter measures, at every tenth write the renderer makes, the live heap after a
// collection: what the renderer holds while it writes, besides the tree.
type heldWriter struct {
	writes int
	peak   uint64
}

func (h *heldWriter) Write(b []byte) (int, error) {
	if h.writes++; h.writes%10 == 1 {
		h.peak = max(h.peak, liveHeap())
	}
	return len(b), nil
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestRenderMemoryPerRun: the text renderer writes the tree one session at a time, so what it
// holds while it writes does not grow with the tree (a flattened view of every row took about
// 1 KB a small run, 5 rows of 208 bytes), and what it allocates in all is about 100 bytes a
// row (it was 2 KB a row, 10 KB a small run: segment lists of its own for every row, garbage
// that let the collector's headroom grow to several times the tree). Counts of bytes, not
// time: the budgets hold on any machine, with a wide margin.
func TestRenderMemoryPerRun(t *testing.T) {
	const small, large = 1000, 10000
	type result struct{ held, alloc float64 }
	measure := func(n int) result {
		tree := smallRuns(n)
		base := liveHeap()
		h := &heldWriter{}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := Render(h, tree, Options{Width: 100}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(tree)
		held := float64(0)
		if h.peak > base {
			held = float64(h.peak - base)
		}
		return result{held: held, alloc: float64(after.TotalAlloc - before.TotalAlloc)}
	}
	a, b := measure(small), measure(large)
	perRunHeld := (b.held - a.held) / (large - small)
	perRunAlloc := (b.alloc - a.alloc) / (large - small)
	t.Logf("held while writing: %.0f B after %d runs, %.0f B after %d: %.1f B a run; allocated %.0f B a run",
		a.held, small, b.held, large, perRunHeld, perRunAlloc)
	if perRunHeld > 200 {
		t.Errorf("the renderer holds %.0f bytes a run while it writes, want at most 200 (it should hold one session's rows)", perRunHeld)
	}
	if perRunAlloc > 1500 {
		t.Errorf("the renderer allocates %.0f bytes a run (5 rows), want at most 1500", perRunAlloc)
	}
}

var _ io.Writer = (*heldWriter)(nil)
