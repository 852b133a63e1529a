package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeJoin: timeline --code and check --code print the join of a reference-runtime log with
// the runtime's map (text and json), map --traces marks what the log's run took, and --code
// with a format that cannot show it is refused.
func TestCodeJoin(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.jsonl")
	if out, errOut, code := lifeline(t, "", "demo", "max-steps", "--log", log); code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code := lifeline(t, "", "timeline", "--code", "./model/runtime", log)
	if code != 0 || !strings.Contains(out, "exit    failed  model/runtime/loop.go:") || !strings.Contains(out, "hit after 3 steps [below]") {
		t.Fatalf("timeline --code: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = lifeline(t, "", "timeline", "--format", "json", "--code", "./model/runtime", log)
	var doc struct {
		Summary struct{ Runs int }
		Code    struct {
			Runs []struct {
				RunID string `json:"run_id"`
				Exit  struct{ Pos, Confidence string }
				Bound struct {
					Hit    bool
					Agrees string
				}
			}
			Findings []any
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("timeline --format json --code: exit %d, %v\n%.500s", code, err, out)
	}
	if len(doc.Code.Runs) != 1 || !strings.HasPrefix(doc.Code.Runs[0].Exit.Pos, "model/runtime/loop.go:") || !doc.Code.Runs[0].Bound.Hit || doc.Code.Runs[0].Bound.Agrees != "below" || len(doc.Code.Findings) != 0 {
		t.Fatalf("json code: %+v", doc.Code)
	}
	if out, errOut, code := lifeline(t, "", "check", "--code", "./model/runtime", log); code != 0 || !strings.Contains(out, "ok:") || !strings.Contains(out, "code: what the map") {
		t.Fatalf("check --code: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = lifeline(t, "", "map", "./model/runtime", "--traces", log)
	if code != 0 || !strings.Contains(out, "coverage: exits 1 of 5") || !strings.Contains(out, "NOT TAKEN") {
		t.Fatalf("map --traces: exit %d\n%.800s", code, out)
	}
	out, _, code = lifeline(t, "", "map", "--format", "json", "./model/runtime", "--traces", log)
	if code != 0 || !strings.Contains(out, `"taken": {`) || !strings.Contains(out, `"run_ids": [`) {
		t.Fatalf("map --format json --traces: exit %d\n%.800s", code, out)
	}
	if _, errOut, code := lifeline(t, "", "timeline", "--format", "waterfall", "--code", "./model/runtime", log); code != 1 || !strings.Contains(errOut, "--code") {
		t.Fatalf("timeline --format waterfall --code: exit %d, %s", code, errOut)
	}
}
