package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStatsCommand: stats reads a folder of real logs into the JSON report (the figures
// themselves are checked against the fixtures' expected.json in model/stats), groups by each
// --by key, and refuses bad flags with exit 1.
func TestStatsCommand(t *testing.T) {
	for _, by := range []string{"agent", "model", "tool", "day"} {
		out, stderr, code := lifeline(t, "", "stats", "--format", "json", "--by", by, "testdata/traces/openai-agents")
		if code != 0 {
			t.Fatalf("--by %s: exit %d: %s", by, code, stderr)
		}
		var rep struct {
			Runs   int    `json:"runs"`
			By     string `json:"by"`
			Groups []struct {
				Key  string `json:"key"`
				Runs int    `json:"runs"`
			} `json:"groups"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Runs == 0 || rep.By != by || len(rep.Groups) == 0 {
			t.Errorf("--by %s: %d runs, by %q, %d groups", by, rep.Runs, rep.By, len(rep.Groups))
		}
	}
	out, _, code := lifeline(t, "", "stats", "testdata/traces/otel-more")
	if code != 0 || !strings.Contains(out, "runs that hit a bound") || !strings.Contains(out, "max_steps") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"--by", "week"}, {"--format", "csv"}} {
		_, stderr, code := lifeline(t, "", append([]string{"stats"}, append(bad, "testdata/traces/otel-more")...)...)
		if code != 1 || !strings.Contains(stderr, bad[1]) {
			t.Errorf("%v: exit %d, %q", bad, code, stderr)
		}
	}
}
