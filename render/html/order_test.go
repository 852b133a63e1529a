package html

import (
	"encoding/json"
	"testing"

	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

// decoded is the part of the page data these tests read.
type decoded struct {
	K   []int    `json:"k"`
	P   []int    `json:"p"`
	ID  []string `json:"id"`
	F   []int    `json:"f"`
	Sum struct {
		Failed      int `json:"failed"`
		FailedNodes int `json:"failed_nodes"`
	} `json:"sum"`
}

func decode(t *testing.T, sc rendertest.Scenario) decoded {
	t.Helper()
	b, err := Data(sc.Tree, sc.Findings, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var d decoded
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func scenarioNamed(t *testing.T, name string) rendertest.Scenario {
	for _, sc := range rendertest.All(t) {
		if sc.Name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %s", name)
	return rendertest.Scenario{}
}

// TestSubagentUnderItsToolCall: a sub-agent run is shown under the tool call of its parent run
// that was running when it started (not after the parent's last step), rows stay in pre-order,
// and a retry run (started after its parent ended) stays under its parent run.
func TestSubagentUnderItsToolCall(t *testing.T) {
	for _, tc := range []struct{ scenario, child, tool, retry string }{
		{"subagent", "run-child", "call_delegate", "run-try2"},
		{"demo-subagent", "", "", ""},
	} {
		d := decode(t, scenarioNamed(t, tc.scenario))
		depth := make([]int, len(d.K))
		last := map[int]int{}
		for i := range d.K {
			if d.P[i] != 0 {
				pa := i - d.P[i]
				depth[i] = depth[pa] + 1
				if l, ok := last[pa]; ok && l != i-1 && depth[i-1] < depth[i] {
					t.Errorf("%s: row %d is not in pre-order", tc.scenario, i)
				}
			}
			last[i] = i
		}
		nested := 0
		for i := range d.K {
			if d.K[i] != 1 || d.P[i] == 0 {
				continue
			}
			pa := i - d.P[i]
			if d.F[i]&flagChildRun == 0 {
				continue
			}
			if tc.retry != "" && d.ID[i] == tc.retry {
				if d.K[pa] != 1 {
					t.Errorf("%s: retry run under a %d, want its parent run", tc.scenario, d.K[pa])
				}
				continue
			}
			if d.K[pa] != 6 {
				t.Errorf("%s: child run %s is under row kind %d (%s), want the tool call that started it", tc.scenario, d.ID[i], d.K[pa], d.ID[pa])
				continue
			}
			if tc.tool != "" && (d.ID[i] != tc.child || d.ID[pa] != tc.tool) {
				t.Errorf("%s: %s under %s, want %s under %s", tc.scenario, d.ID[i], d.ID[pa], tc.child, tc.tool)
			}
			nested++
		}
		if nested == 0 {
			t.Errorf("%s: no sub-agent run nested under a tool call", tc.scenario)
		}
	}
}

// TestOneRootCauseOneError: the step, turn and run that fail because one tool call failed are
// marked as propagated, and the page counts one error, not four.
func TestOneRootCauseOneError(t *testing.T) {
	for _, tc := range []struct {
		scenario     string
		errors, rows int
	}{{"errors", 2, 5}} {
		d := decode(t, scenarioNamed(t, tc.scenario))
		if tc.errors >= 0 && (d.Sum.Failed != tc.errors || d.Sum.FailedNodes != tc.rows) {
			t.Errorf("%s: %d errors of %d failed rows, want %d of %d", tc.scenario, d.Sum.Failed, d.Sum.FailedNodes, tc.errors, tc.rows)
		}
		for i := range d.K {
			if d.F[i]&flagPropagated != 0 && d.F[i]&flagFailed == 0 {
				t.Errorf("%s: row %d propagated but not failed", tc.scenario, i)
			}
		}
	}
}
