package stats

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// feedSmallRuns applies n runs of one turn, one step and one model call each, per runs to a
// session (bench/gen -format small-runs), with a failed tool call in every tenth run.
func feedSmallRuns(apply func(*model.Event), n, per int) {
	t0 := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	seqs := map[string]int64{}
	for i := range n {
		s := "s" + strconv.Itoa(i/per)
		r, tu, st, m := "r"+strconv.Itoa(i), "t"+strconv.Itoa(i), "st"+strconv.Itoa(i), "m"+strconv.Itoa(i)
		ev := func(e model.Event) {
			seqs[s]++
			e.V, e.Seq, e.TS, e.Source, e.SessionID = 1, seqs[s], t0.Add(time.Duration(i*10+int(seqs[s]))*time.Millisecond), model.SourceRuntime, s
			apply(&e)
		}
		if i%per == 0 {
			ev(model.Event{Type: model.SessionStart})
		}
		ev(model.Event{Type: model.RunStart, RunID: r, Attempt: 1, Name: "agent-" + strconv.Itoa(i%3)})
		ev(model.Event{Type: model.TurnStart, RunID: r, TurnID: tu})
		ev(model.Event{Type: model.StepStart, RunID: r, TurnID: tu, StepID: st})
		ev(model.Event{Type: model.ModelStart, RunID: r, TurnID: tu, StepID: st, CallID: m, Name: "gpt-4.1"})
		ev(model.Event{Type: model.ModelEnd, RunID: r, TurnID: tu, StepID: st, CallID: m, Outcome: model.OutcomeOK, Usage: &model.Usage{InputTokens: int64(800 + i%100), OutputTokens: 37, CostUSD: 0.001}})
		if i%10 == 0 {
			ev(model.Event{Type: model.ToolStart, RunID: r, TurnID: tu, StepID: st, CallID: "c" + strconv.Itoa(i), Name: "search"})
			ev(model.Event{Type: model.ToolEnd, RunID: r, TurnID: tu, StepID: st, CallID: "c" + strconv.Itoa(i), Outcome: model.OutcomeError, Error: &model.ErrorInfo{Kind: "tool", Message: "boom"}})
		}
		ev(model.Event{Type: model.StepEnd, RunID: r, TurnID: tu, StepID: st, Outcome: model.OutcomeOK})
		ev(model.Event{Type: model.TurnEnd, RunID: r, TurnID: tu, Outcome: model.OutcomeOK, StopReason: model.StopGoalReached})
		ev(model.Event{Type: model.RunEnd, RunID: r, Status: model.StatusCompleted, StopReason: model.StopGoalReached})
		if i%per == per-1 {
			ev(model.Event{Type: model.SessionEnd})
		}
		if i%per == per-1 {
			delete(seqs, s)
		}
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestStatsMemoryFlat: a Stream summarises each run once it has ended and forgets it, so what
// it holds grows by a few bytes a run (the id of every run handed over, one 8-byte slot, and
// the Sequencer's seq counter of every session), not by the 1.9 KB a run a whole tree takes.
// Measured at the end of the input, before Report, over 2,000 and 20,000 runs. Counts of
// bytes, not time: the budget holds on any machine.
func TestStatsMemoryFlat(t *testing.T) {
	const small, large = 2000, 20000
	for _, tt := range []struct {
		name   string
		per    int
		budget float64
	}{{"a session per run", 1, 120}, {"100 runs a session", 100, 40}} {
		t.Run(tt.name, func(t *testing.T) {
			measure := func(n int) float64 {
				base := liveHeap()
				st := NewStream(Options{}, false)
				feedSmallRuns(st.Apply, n, tt.per)
				held := liveHeap()
				rep := st.Report()
				if rep.Runs != n || rep.Totals.FailedToolCalls != (n+9)/10 {
					t.Fatalf("%d runs, %d failed tool calls, want %d, %d", rep.Runs, rep.Totals.FailedToolCalls, n, (n+9)/10)
				}
				runtime.KeepAlive(st)
				if held < base {
					return 0
				}
				return float64(held - base)
			}
			a, b := measure(small), measure(large)
			per := (b - a) / (large - small)
			t.Logf("held %.0f B after %d runs, %.0f B after %d: %.1f B a run", a, small, b, large, per)
			if per > tt.budget {
				t.Errorf("the stream holds %.0f bytes a run, want at most %.0f (ended runs must be forgotten)", per, tt.budget)
			}
		})
	}
}
