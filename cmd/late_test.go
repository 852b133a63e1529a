package cmd

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// truthCounts are the counts of a fixture's expected.json (the real generator's account).
type truthCounts struct {
	Sessions        int `json:"sessions"`
	Runs            int `json:"runs"`
	Turns           int `json:"turns"`
	Steps           int `json:"steps"`
	ModelCalls      int `json:"model_calls"`
	ToolCalls       int `json:"tool_calls"`
	FailedToolCalls int `json:"failed_tool_calls"`
}

func readTruth(t *testing.T, path string) truthCounts {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c truthCounts
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// TestLateSpansPlaced reads testdata/traces/otel-late (two real OTLP exports, see its README):
// the handoff trace's get_exchange_rate tool span comes in a batch of its own after 280 spans of
// other traces, long after its trace's root span. timeline, check and stats must place it under
// its real parent, as when it comes with its trace, and agree on the counts, which are the sum of
// the two exports' expected.json.
func TestLateSpansPlaced(t *testing.T) {
	const dir = "testdata/traces/otel-late/"
	together, err := os.ReadFile("../" + dir + "together.otlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	copies := strings.Count(string(together), "\n") - 1 // gen.sh: the handoff, then the copies
	h := readTruth(t, "../testdata/traces/otel/openai-agents_03_handoff.expected.json")
	o := readTruth(t, "../testdata/traces/otel/langgraph_02_tool_error.expected.json")
	want := truthCounts{
		Sessions: h.Sessions + copies*o.Sessions, Runs: h.Runs + copies*o.Runs, Turns: h.Turns + copies*o.Turns,
		Steps: h.Steps + copies*o.Steps, ModelCalls: h.ModelCalls + copies*o.ModelCalls,
		ToolCalls: h.ToolCalls + copies*o.ToolCalls, FailedToolCalls: h.FailedToolCalls + copies*o.FailedToolCalls,
	}
	type run struct {
		ID         string `json:"id"`
		Status     string `json:"status"`
		StopReason string `json:"stop_reason"`
		truthCounts
	}
	runsOf := func(file string) []run {
		out, stderr, code := lifeline(t, "", "timeline", "--format", "json", dir+file)
		if code != 0 || stderr != "" {
			t.Fatalf("timeline %s: exit %d, stderr:\n%s", file, code, stderr)
		}
		var tree struct {
			Sessions []json.RawMessage `json:"sessions"`
			Runs     []run             `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &tree); err != nil {
			t.Fatal(err)
		}
		if len(tree.Sessions) != want.Sessions {
			t.Errorf("timeline %s: %d sessions, want %d", file, len(tree.Sessions), want.Sessions)
		}
		slices.SortFunc(tree.Runs, func(a, b run) int { return strings.Compare(a.ID, b.ID) })
		return tree.Runs
	}
	late, whole := runsOf("late_child.otlp.jsonl"), runsOf("together.otlp.jsonl")
	if !slices.Equal(late, whole) {
		t.Errorf("timeline: the runs with the span late differ from those with it in its trace:\n%+v\n%+v", late, whole)
	}
	var sum truthCounts
	for _, r := range late {
		sum.Runs++
		sum.Turns += r.Turns
		sum.Steps += r.Steps
		sum.ModelCalls += r.ModelCalls
		sum.ToolCalls += r.ToolCalls
		sum.FailedToolCalls += r.FailedToolCalls
	}
	sum.Sessions = want.Sessions // counted above
	if sum != want {
		t.Errorf("timeline: counts %+v, want (expected.json) %+v", sum, want)
	}

	out, stderr, code := lifeline(t, "", "stats", "--format", "json", dir+"late_child.otlp.jsonl")
	if code != 0 || stderr != "" {
		t.Fatalf("stats: exit %d, stderr:\n%s", code, stderr)
	}
	var st struct {
		Totals truthCounts `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	st.Totals.Sessions = want.Sessions // stats counts runs, not sessions
	if st.Totals != want {
		t.Errorf("stats: totals %+v, want %+v", st.Totals, want)
	}

	out, stderr, code = lifeline(t, "", "check", dir+"late_child.otlp.jsonl")
	if code != 0 || stderr != "" || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("check: exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
	_, stderrWhole, _ := lifeline(t, "", "check", dir+"together.otlp.jsonl")
	outWhole, _, _ := lifeline(t, "", "check", dir+"together.otlp.jsonl")
	if out != outWhole || stderrWhole != "" {
		t.Errorf("check: %q with the span late, %q with it in its trace", out, outWhole)
	}

	// from a pipe the input cannot be read ahead: the late span is still reported, not lost
	_, stderr, _ = lifeline(t, string(mustRead(t, "../"+dir+"late_child.otlp.jsonl")), "stats", "-")
	if !strings.Contains(stderr, "<stdin>:22: ") || !strings.Contains(stderr, "a06022177af6065a") || !strings.Contains(stderr, "rather than a pipe") {
		t.Errorf("stats -: the late span read from a pipe is not reported:\n%s", stderr)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDepthKeepsCounts: timeline --depth cuts the nodes shown, not the counts. The summary and
// each run's counts stay those of the whole runs (what stats reports), at every depth.
func TestDepthKeepsCounts(t *testing.T) {
	const file = "testdata/traces/otel-late/together.otlp.jsonl"
	type counts struct {
		Summary json.RawMessage   `json:"summary"`
		Runs    []json.RawMessage `json:"runs"`
	}
	read := func(args ...string) counts {
		out, stderr, code := lifeline(t, "", append([]string{"timeline", "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("timeline %v: exit %d: %s", args, code, stderr)
		}
		var c counts
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	whole := read(file)
	for depth := range 4 {
		got := read("--depth", string(rune('0'+depth)), file)
		if string(got.Summary) != string(whole.Summary) {
			t.Errorf("--depth %d: summary %s, want %s", depth, got.Summary, whole.Summary)
		}
		if depth > 0 && len(got.Runs) != len(whole.Runs) {
			t.Fatalf("--depth %d: %d runs, want %d", depth, len(got.Runs), len(whole.Runs))
		}
		for i := range got.Runs {
			if string(got.Runs[i]) != string(whole.Runs[i]) {
				t.Errorf("--depth %d: run %s, want %s", depth, got.Runs[i], whole.Runs[i])
			}
		}
	}
}
