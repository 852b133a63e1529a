// Command gen runs langchaingo v0.1.14's agents.Executor offline (the one-shot ReAct agent with
// llms/fake scripted answers and the real tools.Calculator) and writes what langchaingo lets an
// observer see: every callback it calls (callbacks.Handler), one JSON object a line, to
// NAME.observed.jsonl (the observation itself: langchaingo writes no log, so tests never read
// it as one), and the same callbacks as lifeline's canonical events (docs/events.md) to
// NAME.events.jsonl:
//
//	the outermost HandleChainStart (chains.Call on the executor) → session/start, run/start, turn/start
//	a nested HandleChainStart/End (the agent's LLMChain: one model decision) → step/start, model/start/end
//	HandleAgentAction → tool/start (the action's tool); HandleToolEnd/Error → tool/end; next decision → step/end
//	the outermost HandleChainError/End → step/end, turn/end, run/end (failed with the error's text, or completed)
//
// langchaingo has no log format of its own; nothing here is inferred beyond that mapping (the
// stop reason of a failed run is "error": callbacks do not say why). Run it from this directory:
//
//	GOFLAGS=-mod=mod go run . ..
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/tools"
)

// recorder is a callbacks.Handler writing the raw callbacks and the canonical events.
type recorder struct {
	callbacks.SimpleHandler
	raw, canon       *json.Encoder
	seq, depth, step int
	tool             int
	ts               time.Time
	stepOpen, call   bool
}

func (r *recorder) rawf(name string, v any) {
	r.raw.Encode(map[string]any{"callback": name, "value": v})
}

func (r *recorder) ev(fields map[string]any) {
	r.seq++
	r.ts = r.ts.Add(time.Millisecond)
	e := map[string]any{"v": 1, "seq": r.seq, "ts": r.ts.Format(time.RFC3339Nano), "session_id": "lcg-session", "source": "runtime"}
	for k, v := range fields {
		e[k] = v
	}
	if _, ok := e["run_id"]; !ok && fields["type"] != "session/start" {
		e["run_id"] = "lcg-run"
	}
	r.canon.Encode(e)
}

func (r *recorder) stepID() string { return fmt.Sprintf("lcg-step-%d", r.step) }

func (r *recorder) closeStep() {
	if r.stepOpen {
		r.ev(map[string]any{"type": "step/end", "turn_id": "lcg-turn", "step_id": r.stepID(), "outcome": "ok"})
		r.stepOpen = false
	}
}

func (r *recorder) HandleChainStart(_ context.Context, inputs map[string]any) {
	r.rawf("HandleChainStart", inputs)
	r.depth++
	if r.depth == 1 {
		r.ev(map[string]any{"type": "session/start"})
		r.ev(map[string]any{"type": "run/start", "attempt": 1, "name": "agents.Executor"})
		r.ev(map[string]any{"type": "turn/start", "turn_id": "lcg-turn"})
		return
	}
	r.closeStep()
	r.step++
	r.stepOpen = true
	r.ev(map[string]any{"type": "step/start", "turn_id": "lcg-turn", "step_id": r.stepID()})
	r.ev(map[string]any{"type": "model/start", "turn_id": "lcg-turn", "step_id": r.stepID(), "call_id": r.stepID() + "/model", "name": "fake"})
}

func (r *recorder) HandleChainEnd(_ context.Context, outputs map[string]any) {
	r.rawf("HandleChainEnd", outputs)
	r.depth--
	if r.depth > 0 {
		r.ev(map[string]any{"type": "model/end", "turn_id": "lcg-turn", "step_id": r.stepID(), "call_id": r.stepID() + "/model", "outcome": "ok", "source": "model"})
		return
	}
	r.closeStep()
	r.ev(map[string]any{"type": "turn/end", "turn_id": "lcg-turn", "outcome": "ok", "stop_reason": "goal_reached"})
	r.ev(map[string]any{"type": "run/end", "status": "completed", "stop_reason": "goal_reached"})
}

func (r *recorder) HandleChainError(_ context.Context, err error) {
	r.rawf("HandleChainError", err.Error())
	r.depth--
	if r.depth > 0 {
		return
	}
	r.closeStep()
	e := map[string]any{"message": err.Error()}
	r.ev(map[string]any{"type": "turn/end", "turn_id": "lcg-turn", "outcome": "error", "stop_reason": "error", "error": e})
	r.ev(map[string]any{"type": "run/end", "status": "failed", "stop_reason": "error", "error": e})
}

func (r *recorder) HandleAgentAction(_ context.Context, a schema.AgentAction) {
	r.rawf("HandleAgentAction", a)
	r.tool++
	r.ev(map[string]any{"type": "tool/start", "turn_id": "lcg-turn", "step_id": r.stepID(), "call_id": fmt.Sprintf("lcg-tool-%d", r.tool),
		"name": a.Tool, "source": "tool", "attrs": map[string]any{"args": a.ToolInput}})
	r.call = true
}

func (r *recorder) HandleToolStart(_ context.Context, input string) { r.rawf("HandleToolStart", input) }

func (r *recorder) HandleToolEnd(_ context.Context, output string) {
	r.rawf("HandleToolEnd", output)
	if r.call {
		r.ev(map[string]any{"type": "tool/end", "turn_id": "lcg-turn", "step_id": r.stepID(), "call_id": fmt.Sprintf("lcg-tool-%d", r.tool),
			"outcome": "ok", "source": "tool", "attrs": map[string]any{"result": output}})
		r.call = false
	}
}

func (r *recorder) HandleAgentFinish(_ context.Context, f schema.AgentFinish) {
	r.rawf("HandleAgentFinish", f.ReturnValues)
}

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	// 01_max_iterations: the model keeps choosing the calculator; the executor gives up after
	// its default MaxIterations (5) with ErrNotFinished.
	var answers []string
	for range 10 {
		answers = append(answers, "Thought: I need to calculate.\nAction: calculator\nAction Input: 2+2")
	}
	if err := scenario(dir, "01_max_iterations", answers); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func scenario(dir, name string, answers []string) error {
	raw, err := os.Create(filepath.Join(dir, name+".observed.jsonl"))
	if err != nil {
		return err
	}
	defer raw.Close()
	canon, err := os.Create(filepath.Join(dir, name+".events.jsonl"))
	if err != nil {
		return err
	}
	defer canon.Close()
	r := &recorder{raw: json.NewEncoder(raw), canon: json.NewEncoder(canon), ts: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	calc := tools.Calculator{CallbacksHandler: r}
	agent := agents.NewOneShotAgent(fake.NewFakeLLM(answers), []tools.Tool{calc}, agents.WithCallbacksHandler(r))
	ex := agents.NewExecutor(agent, agents.WithCallbacksHandler(r))
	_, err = chains.Call(context.Background(), ex, map[string]any{"input": "what is 2+2?"})
	fmt.Printf("%s: executor returned %v\n", name, err)
	return nil
}
