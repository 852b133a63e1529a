package cmd

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model/runtime"
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

// TestCodeJoinMismatch: check --code reports a run of the reference runtime that went past the
// default bound of its turn loop (30 steps; Limits.MaxSteps defaults to 25) as join-pastbound and
// exits 3; --format json carries it under "code".
func TestCodeJoinMismatch(t *testing.T) {
	log := filepath.Join(t.TempDir(), "long.jsonl")
	var script []runtime.Script
	for range 31 {
		script = append(script, runtime.Script{Decision: runtime.Decision{ToolCalls: []runtime.ToolCall{{Name: "search", Args: map[string]any{}}}}})
	}
	a := &runtime.Agent{Name: "looper", Version: "v1", Model: runtime.NewScriptedModel("scripted-llm", script...), Limits: runtime.Limits{MaxSteps: 30},
		Tools: []runtime.Tool{&runtime.FuncTool{ToolName: "search", Fn: func(context.Context, runtime.Call) (string, error) { return "nothing", nil }}}}
	rt, err := runtime.Open(runtime.Options{Path: log, Clock: runtime.NewVirtualClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)), IDs: runtime.SeqIDs(), Agents: []*runtime.Agent{a}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := rt.Start(a, runtime.RunSpec{Input: "find it"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	rt.Close()
	out, errOut, code := lifeline(t, "", "check", "--code", "./model/runtime", log)
	if code != 3 || !strings.Contains(out, "join-pastbound warning: the run took 30 steps") {
		t.Fatalf("check --code: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = lifeline(t, "", "check", "--format", "json", "--code", "./model/runtime", log)
	var rep struct {
		Code struct {
			Findings []struct{ Check string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 3 || len(rep.Code.Findings) != 1 || rep.Code.Findings[0].Check != "join-pastbound" {
		t.Fatalf("check --format json --code: exit %d, %v\n%.600s", code, err, out)
	}
}
