package stats_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/stats"
	"github.com/lifeline-dev/lifeline/tracer"
)

// truth is a <scenario>.expected.json: what the generator that ran the real framework observed.
type truth struct {
	Runs            int `json:"runs"`
	Turns           int `json:"turns"`
	Steps           int `json:"steps"`
	ModelCalls      int `json:"model_calls"`
	ToolCalls       int `json:"tool_calls"`
	FailedToolCalls int `json:"failed_tool_calls"`
	RunsDetail      []struct {
		Status     string `json:"status"`
		StopReason string `json:"stop_reason"`
	} `json:"runs_detail"`
}

// scenarios returns, for every <scenario>.expected.json under the folders, one log of that
// scenario (the first JSON Lines or OTLP view by name) and its truth. Scenarios with an .inferable.json (the log
// does not show everything the generator saw) are left out.
func scenarios(t *testing.T, dirs ...string) (files []string, truths []truth) {
	t.Helper()
	for _, dir := range dirs {
		exps, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.expected.json"))
		for _, exp := range exps {
			base := strings.TrimSuffix(exp, ".expected.json")
			if _, err := os.Stat(base + ".inferable.json"); err == nil {
				continue
			}
			views, _ := filepath.Glob(base + ".*")
			views = slices.DeleteFunc(views, func(v string) bool {
				return !strings.HasSuffix(v, ".jsonl") && !strings.HasSuffix(v, ".otlp.json") // logs, not state files
			})
			if len(views) == 0 {
				continue
			}
			sort.Strings(views)
			b, err := os.ReadFile(exp)
			if err != nil {
				t.Fatal(err)
			}
			var tr truth
			if err := json.Unmarshal(b, &tr); err != nil {
				t.Fatalf("%s: %v", exp, err)
			}
			files, truths = append(files, views[0]), append(truths, tr)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no scenarios under %v", dirs)
	}
	return files, truths
}

func summarise(t *testing.T, files []string, opts stats.Options) *stats.Report {
	t.Helper()
	st := stats.NewStream(opts, true)
	rep, err := tracer.Read(files, tracer.Options{}, st.Apply)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Errors {
		t.Errorf("decode error: %v", e)
	}
	return st.Report()
}

// nearestRank is the q-quantile of vs by nearest rank, computed here on its own.
func nearestRank(vs []float64, q float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(i, 0)]
}

func counts(list []stats.NameCount) map[string]int {
	m := map[string]int{}
	for _, c := range list {
		m[c.Name] = c.Count
	}
	return m
}

// TestFixtureTruth summarises the scenarios the generators ran against real frameworks (OTLP
// from the Vercel AI SDK, OpenAI Agents streams, LangGraph streams, DeepSeek Harness sessions,
// OpenAI Agents traces) all at once, and compares every figure with the sums of their
// expected.json files: runs by status and stop reason, bounds, totals, and the percentiles of
// steps and turns over the scenarios of one run.
func TestFixtureTruth(t *testing.T) {
	dirs := []string{"testdata/traces/otel-more", "testdata/samples/openai-agents-streams", "testdata/samples/langgraph-streams",
		"testdata/samples/deepseek-harness", "testdata/traces/openai-agents", "testdata/traces/otel"}
	files, truths := scenarios(t, dirs...)
	got := summarise(t, files, stats.Options{})
	var want stats.Totals
	status, stop, bounds := map[string]int{}, map[string]int{}, map[string]int{}
	var steps, turns []float64
	single := 0
	for _, tr := range truths {
		want.Runs += tr.Runs
		want.Turns += tr.Turns
		want.Steps += tr.Steps
		want.ModelCalls += tr.ModelCalls
		want.ToolCalls += tr.ToolCalls
		want.FailedToolCalls += tr.FailedToolCalls
		for _, r := range tr.RunsDetail {
			status[r.Status]++
			stop[r.StopReason]++
			switch r.StopReason {
			case "max_steps", "max_turns", "timeout", "budget_exceeded":
				bounds[r.StopReason]++
			}
		}
		if tr.Runs == 1 {
			single++
			steps, turns = append(steps, float64(tr.Steps)), append(turns, float64(tr.Turns))
		}
	}
	t.Logf("%d scenarios, %d runs, %d steps", len(files), want.Runs, want.Steps)
	if got.Runs != want.Runs || got.Totals.Turns != want.Turns || got.Totals.Steps != want.Steps ||
		got.Totals.ModelCalls != want.ModelCalls || got.Totals.ToolCalls != want.ToolCalls || got.Totals.FailedToolCalls != want.FailedToolCalls {
		t.Errorf("totals %+v (runs %d), want %+v", got.Totals, got.Runs, want)
	}
	if g := counts(got.ByStatus); !mapsEqual(g, status) {
		t.Errorf("by status %v, want %v", g, status)
	}
	if g := counts(got.ByStopReason); !mapsEqual(g, stop) {
		t.Errorf("by stop reason %v, want %v", g, stop)
	}
	gb := map[string]int{}
	for _, b := range got.Bounds {
		gb[string(b.StopReason)] = b.Runs
		if len(b.RunIDs) != min(b.Runs, 10) {
			t.Errorf("bound %s: %d ids for %d runs", b.StopReason, len(b.RunIDs), b.Runs)
		}
	}
	if !mapsEqual(gb, bounds) || len(bounds) == 0 {
		t.Errorf("bounds %v, want %v (and some)", gb, bounds)
	}
	// percentiles: the scenarios of a single run, summarised on their own
	var one []string
	for i, tr := range truths {
		if tr.Runs == 1 {
			one = append(one, files[i])
		}
	}
	got1 := summarise(t, one, stats.Options{})
	for _, q := range []struct {
		name string
		got  stats.Quantiles
		want []float64
	}{{"steps", got1.Overall.Steps, steps}, {"turns", got1.Overall.Turns, turns}} {
		if q.got.Count != int64(single) || !q.got.Exact {
			t.Errorf("%s: count %d exact %v, want %d exact", q.name, q.got.Count, q.got.Exact, single)
		}
		for _, p := range []struct {
			q   float64
			got float64
		}{{0.5, q.got.P50}, {0.9, q.got.P90}, {0.99, q.got.P99}, {1, q.got.Max}} {
			if w := nearestRank(q.want, p.q); p.got != w {
				t.Errorf("%s p%.0f = %v, want %v", q.name, p.q*100, p.got, w)
			}
		}
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

var _ = model.StatusCompleted
