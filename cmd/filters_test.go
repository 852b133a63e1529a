package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTimelineCheckFilters runs timeline and check with the run filters on real logs (two
// fixtures of different files merged, and an invariant fixture) and reads the JSON outputs.
func TestTimelineCheckFilters(t *testing.T) {
	const two = "testdata/traces/otel-more/vercel-ai_04_step_limit.otlp.json testdata/traces/otel-more/vercel-ai_01_tool_loop.otlp.json"
	type summary struct {
		Summary struct{ Runs, Turns, Steps, ModelCalls int } `json:"summary"`
		Runs    []struct {
			ID         string `json:"id"`
			Status     string `json:"status"`
			StopReason string `json:"stop_reason"`
		} `json:"runs"`
		Sessions []struct {
			Runs []struct {
				Turns []json.RawMessage `json:"turns"`
			} `json:"runs"`
		} `json:"sessions"`
	}
	timeline := func(t *testing.T, flags string) summary {
		t.Helper()
		out, stderr, code := lifeline(t, "", append(append([]string{"timeline", "--format", "json"}, strings.Fields(flags)...), strings.Fields(two)...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var s summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	all := timeline(t, "")
	if all.Summary.Runs != 2 {
		t.Fatalf("unfiltered: %d runs, want 2 (the expected.json files say one run each)", all.Summary.Runs)
	}
	limited := ""
	for _, r := range all.Runs {
		if r.StopReason == "max_steps" {
			limited = r.ID
		}
	}
	tests := []struct {
		flags string
		runs  int
		stop  string
	}{
		{"--status failed", 1, "max_steps"},
		{"--status completed", 1, "goal_reached"},
		{"--status failed,completed", 2, ""},
		{"--stop-reason max_steps --stop-reason max_turns", 1, "max_steps"},
		{"--run " + limited, 1, "max_steps"},
		{"--since 2000-01-01 --until 2100-01-01T00:00:00Z", 2, ""},
		{"--since 2100-01-01", 0, ""},
		{"--until 2000-01-01", 0, ""},
		{"--depth 1", 2, ""},
		{"--status cancelled", 0, ""},
	}
	for _, tt := range tests {
		t.Run("timeline "+tt.flags, func(t *testing.T) {
			s := timeline(t, tt.flags)
			if s.Summary.Runs != tt.runs || len(s.Runs) != tt.runs {
				t.Fatalf("%d runs, want %d", s.Summary.Runs, tt.runs)
			}
			if tt.stop != "" && s.Runs[0].StopReason != tt.stop {
				t.Errorf("stop reason %s, want %s", s.Runs[0].StopReason, tt.stop)
			}
			if strings.Contains(tt.flags, "--depth 1") {
				for _, se := range s.Sessions {
					for _, r := range se.Runs {
						if len(r.Turns) != 0 {
							t.Errorf("--depth 1 kept %d turns in the tree", len(r.Turns))
						}
					}
				}
				if s.Summary != all.Summary { // the cut is of the nodes shown, not of the counts
					t.Errorf("--depth 1: summary %+v, want %+v", s.Summary, all.Summary)
				}
			}
		})
	}
	bad := []struct{ flags, want string }{
		{"--status done", `unknown status "done"`},
		{"--stop-reason finished", `unknown stop reason "finished"`},
		{"--since yesterday", "--since"},
		{"--depth 9", "--depth 9"},
	}
	for _, tt := range bad {
		t.Run("refused "+tt.flags, func(t *testing.T) {
			for _, c := range []string{"timeline", "check"} {
				if c == "check" && strings.HasPrefix(tt.flags, "--depth") {
					continue
				}
				_, stderr, code := lifeline(t, "", append(append([]string{c}, strings.Fields(tt.flags)...), "testdata/invariants/clean.jsonl")...)
				if code != 1 || !strings.Contains(stderr, tt.want) {
					t.Errorf("%s %s: exit %d, stderr %q, want 1 and %q", c, tt.flags, code, stderr, tt.want)
				}
			}
		})
	}
	// check: the findings of the L7 fixture are about run-1; another run or session has none
	for _, tt := range []struct {
		flags string
		code  int
	}{{"", 3}, {"--run run-1", 3}, {"--run run-2", 0}, {"--status completed,failed,cancelled,waiting,running", 3}, {"--session no-such", 0}} {
		t.Run("check "+tt.flags, func(t *testing.T) {
			out, stderr, code := lifeline(t, "", append(append([]string{"check"}, strings.Fields(tt.flags)...), "testdata/invariants/L7_stop_reason_downgrade.jsonl")...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			if tt.code == 3 && !strings.Contains(out, "L7 error") {
				t.Errorf("no L7 finding:\n%s", out)
			}
		})
	}
}
