package model_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
)

// order lists the sessions and their runs by id, in the tree's order.
func order(t *model.Tree) string {
	var b strings.Builder
	for _, s := range t.Sessions {
		b.WriteString(s.ID + ":")
		for _, r := range s.Runs {
			b.WriteString(r.ID + ",")
		}
		b.WriteString(";")
	}
	return b.String()
}

func TestRunFilterMatch(t *testing.T) {
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	r := &model.Run{ID: "r1", SessionID: "s1", Status: model.StatusFailed, StopReason: model.StopMaxSteps}
	r.Start, r.End, r.Ended = t0, t0.Add(time.Hour), true
	open := &model.Run{ID: "r2", SessionID: "s1", Status: model.StatusRunning}
	open.Start = t0
	timeless := &model.Run{ID: "r3", SessionID: "s2", Status: model.StatusCompleted, StopReason: model.StopGoalReached}
	tests := []struct {
		name string
		f    model.RunFilter
		run  *model.Run
		want bool
	}{
		{"zero selects all", model.RunFilter{}, timeless, true},
		{"run id", model.RunFilter{RunID: "r1"}, r, true},
		{"other run id", model.RunFilter{RunID: "r9"}, r, false},
		{"session", model.RunFilter{SessionID: "s1"}, open, true},
		{"other session", model.RunFilter{SessionID: "s2"}, r, false},
		{"status one of", model.RunFilter{Statuses: []model.RunStatus{model.StatusCancelled, model.StatusFailed}}, r, true},
		{"status not", model.RunFilter{Statuses: []model.RunStatus{model.StatusCompleted}}, r, false},
		{"stop reason", model.RunFilter{StopReasons: []model.StopReason{model.StopMaxSteps}}, r, true},
		{"stop reason not", model.RunFilter{StopReasons: []model.StopReason{model.StopTimeout}}, r, false},
		{"since inside", model.RunFilter{Since: t0.Add(30 * time.Minute)}, r, true},
		{"since after its end", model.RunFilter{Since: t0.Add(2 * time.Hour)}, r, false},
		{"since, still open", model.RunFilter{Since: t0.Add(24 * time.Hour)}, open, true},
		{"until after start", model.RunFilter{Until: t0.Add(time.Minute)}, r, true},
		{"until at start", model.RunFilter{Until: t0}, r, false},
		{"time bound, no times", model.RunFilter{Since: t0}, timeless, false},
		{"all of them", model.RunFilter{RunID: "r1", SessionID: "s1", Statuses: []model.RunStatus{model.StatusFailed}, Since: t0, Until: t0.Add(time.Hour)}, r, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.Match(tt.run); got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseTimeBound(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		err  string
	}{
		{"2026-11-02T10:00:00Z", time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC), ""},
		{"2026-11-02T10:00:00.5+02:00", time.Date(2026, 11, 2, 8, 0, 0, 5e8, time.UTC), ""},
		{"2026-11-02", time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), ""},
		{"2h", now.Add(-2 * time.Hour), ""},
		{"90m", now.Add(-90 * time.Minute), ""},
		{"-2h", time.Time{}, "positive"},
		{"yesterday", time.Time{}, "neither an RFC 3339 time"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := model.ParseTimeBound(tt.in, now)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !got.Equal(tt.want) {
				t.Fatalf("%v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestRunFilterValidate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		f    model.RunFilter
		want string
	}{
		{model.RunFilter{Statuses: []model.RunStatus{"done"}}, `unknown status "done"`},
		{model.RunFilter{StopReasons: []model.StopReason{"finished"}}, `unknown stop reason "finished"`},
		{model.RunFilter{StopReasons: []model.StopReason{"other:quota"}}, ""},
		{model.RunFilter{Since: t0, Until: t0}, "is not before"},
	} {
		err := tt.f.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: %v, want %q", tt.f, err, tt.want)
		}
	}
}

// TestSelectionFixtures: on the Vercel AI SDK scenarios the generator ran (testdata/traces/
// otel-more), a selection by status or stop reason keeps as many runs as their expected.json
// files say, whole or cut to a depth, and one by run or session id keeps that run alone.
func TestSelectionFixtures(t *testing.T) {
	dir := "../testdata/traces/otel-more"
	logs, _ := filepath.Glob(filepath.Join(dir, "*.otlp.json*"))
	exps, _ := filepath.Glob(filepath.Join(dir, "*.expected.json"))
	byStatus, byStop := map[model.RunStatus]int{}, map[model.StopReason]int{}
	for _, e := range exps {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		var tr struct {
			RunsDetail []struct {
				Status     model.RunStatus  `json:"status"`
				StopReason model.StopReason `json:"stop_reason"`
			} `json:"runs_detail"`
		}
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatal(err)
		}
		for _, r := range tr.RunsDetail {
			byStatus[r.Status]++
			byStop[r.StopReason]++
		}
	}
	var evs []model.Event
	if _, err := tracer.Read(logs, tracer.Options{}, func(ev *model.Event) { evs = append(evs, *ev) }); err != nil {
		t.Fatal(err)
	}
	whole := model.Project(evs)
	some := whole.Sessions[len(whole.Sessions)-1].Runs[0]
	select1 := func(f model.RunFilter, depth int) *model.Tree {
		s := model.NewSelection(f, depth)
		for i := range evs {
			ev := evs[i]
			s.Apply(&ev)
		}
		return s.Tree()
	}
	tests := []struct {
		name  string
		f     model.RunFilter
		depth int
		runs  int
		check func(*model.Tree) bool
	}{
		{"failed", model.RunFilter{Statuses: []model.RunStatus{model.StatusFailed}}, -1, byStatus[model.StatusFailed], nil},
		{"cancelled or waiting", model.RunFilter{Statuses: []model.RunStatus{model.StatusCancelled, model.StatusWaiting}}, -1, byStatus[model.StatusCancelled] + byStatus[model.StatusWaiting], nil},
		{"max_steps", model.RunFilter{StopReasons: []model.StopReason{model.StopMaxSteps}}, -1, byStop[model.StopMaxSteps],
			func(t *model.Tree) bool { return t.Summarize().Steps > 0 }},
		{"goal reached, runs only", model.RunFilter{StopReasons: []model.StopReason{model.StopGoalReached}}, model.DepthRuns, byStop[model.StopGoalReached],
			func(t *model.Tree) bool { return shown(t).Turns == 0 }},
		{"completed, to turns", model.RunFilter{Statuses: []model.RunStatus{model.StatusCompleted}}, model.DepthTurns, byStatus[model.StatusCompleted],
			func(t *model.Tree) bool { s := shown(t); return s.Turns > 0 && s.Steps == 0 }},
		{"to steps", model.RunFilter{}, model.DepthSteps, whole.Summarize().Runs,
			func(t *model.Tree) bool {
				s, c, w := shown(t), t.Summarize(), whole.Summarize()
				c.Sessions, w.Sessions = 0, 0
				// the cut is of the nodes shown; the counts stay those of the whole runs
				return s.Steps == w.Steps && s.ModelCalls == 0 && c == w
			}},
		{"one run", model.RunFilter{RunID: some.ID}, -1, 1,
			func(t *model.Tree) bool { return t.Sessions[0].Runs[0].ID == some.ID && t.Summarize().Steps > 0 }},
		{"one session", model.RunFilter{SessionID: some.SessionID}, -1, len(whole.Sessions[len(whole.Sessions)-1].Runs), nil},
		{"everything, in the log's order", model.RunFilter{}, -1, whole.Summarize().Runs,
			func(t *model.Tree) bool { return order(t) == order(whole) && t.Summarize() == whole.Summarize() }},
		{"nothing", model.RunFilter{RunID: "no-such-run"}, -1, 0, nil},
		{"until before every run", model.RunFilter{Until: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}, -1, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.runs == 0 && tt.f.RunID == "" && tt.f.Until.IsZero() {
				t.Fatal("the truth has no such run: the case tests nothing")
			}
			got := select1(tt.f, tt.depth)
			if n := got.Summarize().Runs; n != tt.runs {
				t.Errorf("%d runs, want %d", n, tt.runs)
			}
			if tt.check != nil && !tt.check(got) {
				t.Errorf("tree %+v", got.Summarize())
			}
		})
	}
}

// shown counts the nodes a tree holds (Summarize counts what a depth cut left out too).
func shown(t *model.Tree) model.Summary {
	var s model.Summary
	t.Walk(func(n any, _ int) bool {
		switch n := n.(type) {
		case *model.Session:
			s.Sessions++
		case *model.Run:
			s.Runs++
		case *model.Turn:
			s.Turns++
		case *model.Step:
			s.Steps++
		case *model.ModelCall:
			s.ModelCalls++
		case *model.ToolCall:
			s.ToolCalls++
			if n.Failed() {
				s.FailedToolCalls++
			}
		}
		return true
	})
	return s
}
