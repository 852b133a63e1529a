package lifemap_test

import (
	"fmt"
	"testing"
)

// TestMergedIDs: an entry the lifecycle pass and the recognizer both infer keeps the id sites
// of both (recognize/testdata/shapes/sessionstamp, modelled on godeps/agentsdk-go@v1.0.0
// pkg/api/agent.go:249-278, 497, 1806-1812): the pass finds the request id prepare mints with
// uuid.New(), the recognizer the session id a helper formats from the clock when the request
// has none. Before, the recognizer's ids were dropped whenever the pass had found one.
func TestMergedIDs(t *testing.T) {
	m := buildMap(t, "../recognize/testdata/shapes", "./sessionstamp/...")
	for _, tc := range []struct {
		entry string
		want  string
	}{
		{"sessionstamp.Runtime.Run", "[minted 96 minted 125]"},
		{"core.Agent.Run", "[]"},
	} {
		t.Run(tc.entry, func(t *testing.T) {
			found := false
			for _, e := range m.Entries {
				if e.Func != tc.entry {
					continue
				}
				found = true
				got := []string{}
				for _, s := range e.IDs {
					got = append(got, fmt.Sprintf("%s %d", s.Kind, s.Pos.Line))
				}
				if fmt.Sprint(got) != tc.want {
					t.Errorf("ids %v, want %s (%+v)", got, tc.want, e.IDs)
				}
			}
			if !found {
				t.Fatal("no entry")
			}
		})
	}
}
