package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestMapRenderTerms: a map's framework words are printed one line per profile, after the
// header; a map without terms prints no such line.
func TestMapRenderTerms(t *testing.T) {
	m := &model.Map{Packages: []string{"agents"}, Entries: []model.Entry{}, Terms: []model.Term{
		{Profile: "openai-agents", Text: "turn, max_turns = Step"},
		{Profile: "openai-agents", Text: "Runner.run = Run"},
		{Profile: "otel", Text: "span = Step"},
	}}
	var b bytes.Buffer
	if err := MapRender(&b, m); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"lifecycle map of agents",
		"framework words (openai-agents): turn, max_turns = Step; Runner.run = Run",
		"framework words (otel): span = Step",
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d: got\n%s\nwant %q", i+1, b.String(), w)
		}
	}
	b.Reset()
	m.Terms = nil
	if err := MapRender(&b, m); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "framework words") {
		t.Errorf("terms line without terms:\n%s", b.String())
	}
}

// TestMapRenderGuardAndEnv: an exit standing for several outcomes prints them all and the test
// it is taken under; a default read from the environment names its variable.
func TestMapRenderGuardAndEnv(t *testing.T) {
	m := &model.Map{Packages: []string{"agent"}, Entries: []model.Entry{{
		Func: "agent.runLoop", Pos: model.Position{File: "agent.js", Line: 1},
		Loops: []model.Loop{{Pos: model.Position{File: "agent.js", Line: 3}, Kind: model.LoopFor, Func: "agent.runLoop",
			Bound: &model.Bound{Expr: "self.stop", Default: `"10000"`, DefaultPos: model.Position{File: "config.py", Line: 31},
				DefaultEnv: "LANGGRAPH_DEFAULT_RECURSION_LIMIT", Pos: model.Position{File: "agent.js", Line: 4}}}},
		Exits: []model.Exit{{Pos: model.Position{File: "agent.js", Line: 8}, Source: "return;", Outcome: "failed", StopReason: model.StopError,
			Outcomes: []model.ExitOutcome{{Outcome: "failed", StopReason: model.StopError, When: "error"},
				{Outcome: "cancelled", StopReason: model.StopCancelled, When: "aborted"}},
			Guard: `message.stopReason === "error" || message.stopReason === "aborted"`}},
	}}}
	var b bytes.Buffer
	if err := MapRender(&b, m); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(default "10000" at config.py:31, unless LANGGRAPH_DEFAULT_RECURSION_LIMIT is set)`,
		"failed (error) | cancelled (cancelled) agent.js:8",
		`- taken when message.stopReason === "error" || message.stopReason === "aborted": "error" → failed (error), "aborted" → cancelled (cancelled)`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("map text lacks %q:\n%s", want, b.String())
		}
	}
}
