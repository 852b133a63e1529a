package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// Shape is what a scenario's lifecycle tree must look like: node counts, and the status and
// stop reason of each run in the order the runs were queued.
type Shape struct {
	Runs            int                `json:"runs"`
	Turns           int                `json:"turns"`
	Steps           int                `json:"steps"`
	ModelCalls      int                `json:"model_calls"`
	ToolCalls       int                `json:"tool_calls"`
	FailedToolCalls int                `json:"failed_tool_calls"`
	Connections     int                `json:"connections,omitempty"`
	Statuses        []model.RunStatus  `json:"statuses"`
	StopReasons     []model.StopReason `json:"stop_reasons"`
}

// ShapeOf measures a tree.
func ShapeOf(t *model.Tree) Shape {
	s := t.Summarize()
	sh := Shape{Runs: s.Runs, Turns: s.Turns, Steps: s.Steps, ModelCalls: s.ModelCalls, ToolCalls: s.ToolCalls,
		FailedToolCalls: s.FailedToolCalls}
	for _, se := range t.Sessions {
		sh.Connections += len(se.Connections)
		for _, r := range se.Runs {
			sh.Statuses = append(sh.Statuses, r.Status)
			sh.StopReasons = append(sh.StopReasons, r.StopReason)
		}
	}
	return sh
}

// Diff describes how got differs from the expected shape s ("" when they match).
func (s Shape) Diff(got Shape) string {
	var out string
	add := func(what string, want, have any) { out += fmt.Sprintf("%s: want %v, got %v; ", what, want, have) }
	for _, f := range []struct {
		name      string
		want, got int
	}{{"runs", s.Runs, got.Runs}, {"turns", s.Turns, got.Turns}, {"steps", s.Steps, got.Steps},
		{"model calls", s.ModelCalls, got.ModelCalls}, {"tool calls", s.ToolCalls, got.ToolCalls},
		{"failed tool calls", s.FailedToolCalls, got.FailedToolCalls}, {"connections", s.Connections, got.Connections}} {
		if f.want != f.got {
			add(f.name, f.want, f.got)
		}
	}
	if !slices.Equal(s.Statuses, got.Statuses) {
		add("statuses", s.Statuses, got.Statuses)
	}
	if !slices.Equal(s.StopReasons, got.StopReasons) {
		add("stop reasons", s.StopReasons, got.StopReasons)
	}
	return out
}

// Scenario is a built-in, scripted run of the reference runtime.
type Scenario struct {
	Name        string
	Description string
	// Expect is the shape of the tree the scenario must produce.
	Expect Shape
	play   func(ctx context.Context, env *Env) error
}

// Env is what a scenario plays in: one session log, reopened by a new Runtime after a simulated
// crash, with the clock and id generator shared by every runtime opened on it.
type Env struct {
	Path       string
	Clock      Clock
	IDs        IDGen
	Recoveries []Recovery
	rts        []*Runtime
}

// Open opens a runtime on the env's log with the given agents.
func (env *Env) Open(agents ...*Agent) (*Runtime, error) {
	rt, err := Open(Options{Path: env.Path, Clock: env.Clock, IDs: env.IDs, Agents: agents})
	if err != nil {
		return nil, err
	}
	env.rts = append(env.rts, rt)
	env.Recoveries = append(env.Recoveries, rt.Recovery())
	return rt, nil
}

func (env *Env) close() {
	for _, rt := range env.rts {
		rt.Close()
	}
}

// ScenarioOptions configure RunScenario.
type ScenarioOptions struct {
	// Path is the log to write (default: a temporary file, removed afterwards). It must not exist
	// or be empty.
	Path string
	// Clock defaults to a VirtualClock starting now (logical time: the scenario's outcome does
	// not depend on the machine's speed), IDs to SeqIDs (readable, deterministic ids).
	Clock Clock
	IDs   IDGen
}

// ScenarioResult is what a scenario produced, read back from its log.
type ScenarioResult struct {
	Scenario   Scenario
	Path       string
	Events     []model.Event
	Tree       *model.Tree
	Recoveries []Recovery
}

// Lookup returns the scenario with the given name.
func Lookup(name string) (Scenario, bool) {
	for _, s := range Scenarios() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// ScenarioNames lists the scenario names in order.
func ScenarioNames() []string {
	var out []string
	for _, s := range Scenarios() {
		out = append(out, s.Name)
	}
	return out
}

// RunScenario plays the named scenario and reads its log back.
func RunScenario(ctx context.Context, name string, opts ScenarioOptions) (*ScenarioResult, error) {
	sc, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q", name)
	}
	env := &Env{Path: opts.Path, Clock: opts.Clock, IDs: opts.IDs}
	if env.Clock == nil {
		env.Clock = NewVirtualClock(time.Now().UTC().Truncate(time.Millisecond))
	}
	if env.IDs == nil {
		env.IDs = SeqIDs()
	}
	if env.Path == "" {
		dir, err := os.MkdirTemp("", "lifeline-demo-")
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", name, err)
		}
		defer os.RemoveAll(dir)
		env.Path = filepath.Join(dir, "session.jsonl")
	} else if fi, err := os.Stat(env.Path); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("scenario %s: log %s already exists and is not empty", name, env.Path)
	}
	// The scenario's client waits on the scenario's clock too (ctx carries it).
	err := sc.play(WithClock(ctx, env.Clock), env)
	env.close()
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", name, err)
	}
	events, _, err := ReadLog(env.Path)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: read back: %w", name, err)
	}
	return &ScenarioResult{Scenario: sc, Path: env.Path, Events: events, Tree: model.Project(cloneEvents(events)), Recoveries: env.Recoveries}, nil
}

// --- building blocks ---------------------------------------------------------------------

func usage(in, out int64) model.Usage {
	return model.Usage{InputTokens: in, OutputTokens: out, CostUSD: float64(in)*3e-6 + float64(out)*15e-6}
}

func final(text string) Script {
	return Script{Delay: 3 * time.Millisecond, Decision: Decision{Text: text, Usage: usage(900, 60)}}
}

func calls(cs ...ToolCall) Script {
	return Script{Delay: 3 * time.Millisecond, Decision: Decision{ToolCalls: cs, Usage: usage(700, 40)}}
}

func tc(name string, kv ...any) ToolCall {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return ToolCall{Name: name, Args: args}
}

// pure returns a tool without side effects that answers after delay (honouring ctx).
func pure(name string, delay time.Duration, answer string) *FuncTool {
	return &FuncTool{ToolName: name, Fn: func(ctx context.Context, call Call) (string, error) {
		if err := Sleep(ctx, delay); err != nil {
			return "", err
		}
		return answer, nil
	}}
}

// untilCancelled returns a tool that signals started and then works until it is cancelled (it
// never finishes by itself, so nothing but the cancellation decides how it ends).
func untilCancelled(name string, started chan<- struct{}) *FuncTool {
	return &FuncTool{ToolName: name, Fn: func(ctx context.Context, call Call) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		return "", ctx.Err()
	}}
}

func agent(name string, m Model, lim Limits, tools ...Tool) *Agent {
	return &Agent{Name: name, Version: "v1", Model: m, Tools: tools, Limits: lim}
}

// single opens a runtime, starts one run of a and waits for it.
func single(ctx context.Context, env *Env, a *Agent, input string, during func(rt *Runtime, h *RunHandle) error) error {
	rt, err := env.Open(a)
	if err != nil {
		return err
	}
	h, err := rt.Start(a, RunSpec{Input: input})
	if err != nil {
		return err
	}
	if during != nil {
		if err := during(rt, h); err != nil {
			return err
		}
	}
	if _, err := h.Wait(ctx); err != nil {
		return err
	}
	return rt.EndSession()
}

func one(st model.RunStatus, sr model.StopReason) ([]model.RunStatus, []model.StopReason) {
	return []model.RunStatus{st}, []model.StopReason{sr}
}

func shape(runs, turns, steps, mc, tcs, failed int, st model.RunStatus, sr model.StopReason) Shape {
	s, r := one(st, sr)
	return Shape{Runs: runs, Turns: turns, Steps: steps, ModelCalls: mc, ToolCalls: tcs, FailedToolCalls: failed, Statuses: s, StopReasons: r}
}

// Scenarios returns the built-in scenarios, the first being the default.
func Scenarios() []Scenario {
	return []Scenario{
		{Name: "happy", Description: "multi-step run: three tool calls in parallel, one more, then the answer",
			Expect: shape(1, 1, 3, 3, 4, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm",
					calls(tc("search", "q", "go release notes"), tc("search", "q", "go memory model"), tc("fetch", "url", "https://go.dev/doc")),
					calls(tc("summarize", "n", 3)),
					final("Go 1.26 is out; here is a summary of its notes."))
				a := agent("researcher", m, Limits{}, pure("search", 15*time.Millisecond, "3 hits"),
					pure("fetch", 25*time.Millisecond, "<html>…</html>"), pure("summarize", 10*time.Millisecond, "summary"))
				return single(ctx, env, a, "What changed in Go 1.26?", nil)
			}},
		{Name: "tool-error", Description: "a tool fails; the error goes back to the model as a tool result and the run recovers",
			Expect: shape(1, 1, 3, 3, 2, 1, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm",
					calls(tc("weather", "city", "Atlantis")),
					calls(tc("weather", "city", "Lisbon")),
					final("Atlantis is not a known city; Lisbon is sunny."))
				w := &FuncTool{ToolName: "weather", Fn: func(ctx context.Context, call Call) (string, error) {
					if err := Sleep(ctx, 5*time.Millisecond); err != nil {
						return "", err
					}
					if call.Args["city"] == "Atlantis" {
						return "", errors.New("city not found: Atlantis")
					}
					return "sunny, 24°C", nil
				}}
				return single(ctx, env, agent("forecaster", m, Limits{}, w), "Weather in Atlantis?", nil)
			}},
		{Name: "fatal-tool-error", Description: "a tool fails fatally: its sibling is cancelled, the turn ends and the run fails (tool_error)",
			Expect: shape(1, 1, 1, 1, 2, 1, model.StatusFailed, model.StopToolError),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm", calls(tc("deploy", "env", "prod"), tc("scan", "repo", "app")))
				deploy := &FuncTool{ToolName: "deploy", Effect: true, Fn: func(ctx context.Context, call Call) (string, error) {
					if err := Sleep(ctx, 10*time.Millisecond); err != nil {
						return "", err
					}
					return "", Fatal(errors.New("credentials revoked: cannot continue"))
				}}
				return single(ctx, env, agent("deployer", m, Limits{}, deploy, pure("scan", time.Second, "clean")), "Deploy app to prod", nil)
			}},
		{Name: "max-steps", Description: "the model keeps calling tools; the run stops at its step bound (max_steps)",
			Expect: shape(1, 1, 3, 3, 3, 0, model.StatusFailed, model.StopMaxSteps),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm", calls(tc("search", "q", "a")), calls(tc("search", "q", "b")), calls(tc("search", "q", "c")), calls(tc("search", "q", "d")))
				return single(ctx, env, agent("looper", m, Limits{MaxSteps: 3}, pure("search", 5*time.Millisecond, "nothing yet")), "Find it", nil)
			}},
		{Name: "timeout", Description: "the run's deadline passes during a slow model call, which is cancelled (timeout)",
			Expect: shape(1, 1, 2, 2, 1, 0, model.StatusFailed, model.StopTimeout),
			play: func(ctx context.Context, env *Env) error {
				slow := final("too late")
				slow.Delay = 2 * time.Second
				m := NewScriptedModel("scripted-llm", calls(tc("search", "q", "x")), slow)
				return single(ctx, env, agent("slowpoke", m, Limits{Timeout: 80 * time.Millisecond}, pure("search", 20*time.Millisecond, "hits")), "Be quick", nil)
			}},
		{Name: "provider-retry", Description: "a provider error and a call timeout are retried inside the step, each attempt its own model call",
			Expect: shape(1, 1, 2, 4, 1, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				hang := final("never")
				hang.Delay = 2 * time.Second
				m := NewScriptedModel("scripted-llm",
					Script{Delay: 2 * time.Millisecond, Err: errors.New("503 service unavailable")},
					hang,
					calls(tc("search", "q", "retry")),
					final("Done after retries."))
				lim := Limits{ModelAttempts: 3, ModelCallTimeout: 40 * time.Millisecond, RetryBackoff: 5 * time.Millisecond}
				return single(ctx, env, agent("persistent", m, lim, pure("search", 5*time.Millisecond, "hits")), "Search, despite the outage", nil)
			}},
		{Name: "approval", Description: "a sensitive call waits for approval (run waiting); after approval a second turn runs it and finishes",
			Expect: shape(1, 2, 3, 2, 1, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm", calls(tc("pay", "to", "ACME", "eur", 120)), final("Paid ACME 120 EUR."))
				pay := &FuncTool{ToolName: "pay", Effect: true, NeedsApproval: true, Fn: func(ctx context.Context, call Call) (string, error) {
					return "payment #4411 sent", Sleep(ctx, 10*time.Millisecond)
				}}
				return single(ctx, env, agent("payer", m, Limits{}, pay), "Pay the ACME invoice", func(rt *Runtime, h *RunHandle) error {
					if err := h.WaitStatus(ctx, model.StatusWaiting); err != nil {
						return err
					}
					if err := Sleep(ctx, 20*time.Millisecond); err != nil { // the approver reads the request
						return err
					}
					for _, id := range h.PendingApprovals() {
						if err := h.Approve(id); err != nil {
							return err
						}
					}
					return nil
				})
			}},
		{Name: "steer", Description: "steering input sent during a step is consumed at the next step boundary of the same turn",
			Expect: shape(1, 1, 2, 2, 1, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				var rt *Runtime
				first := calls(tc("convert", "value", 100))
				first.Hook = func(ctx context.Context, req Request) { rt.Run(req.RunID).Steer("use metric units") }
				m := NewScriptedModel("scripted-llm", first, final("100 °F is 37.8 °C."))
				a := agent("converter", m, Limits{}, pure("convert", 5*time.Millisecond, "37.8"))
				var err error
				if rt, err = env.Open(a); err != nil {
					return err
				}
				return startWait(ctx, rt, a, "Convert 100 °F")
			}},
		{Name: "follow-up", Description: "a follow-up sent during the turn waits for its stop boundary and starts a second turn",
			Expect: shape(1, 2, 2, 2, 0, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				var rt *Runtime
				first := final("Bonjour means hello.")
				first.Hook = func(ctx context.Context, req Request) { rt.Run(req.RunID).FollowUp("And in Italian?") }
				m := NewScriptedModel("scripted-llm", first, final("Ciao."))
				a := agent("translator", m, Limits{})
				var err error
				if rt, err = env.Open(a); err != nil {
					return err
				}
				return startWait(ctx, rt, a, "What does bonjour mean?")
			}},
		{Name: "cancel-model-call", Description: "one model call is aborted; the step retries it and the run completes",
			Expect: shape(1, 1, 1, 2, 0, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				var rt *Runtime
				stuck := final("never")
				stuck.Delay = 2 * time.Second
				stuck.Hook = func(ctx context.Context, req Request) { rt.Run(req.RunID).CancelModelCall() }
				m := NewScriptedModel("scripted-llm", stuck, final("Answer on the second call."))
				a := agent("impatient", m, Limits{})
				var err error
				if rt, err = env.Open(a); err != nil {
					return err
				}
				return startWait(ctx, rt, a, "Answer quickly")
			}},
		{Name: "cancel-turn", Description: "the current turn is cancelled mid-tool; the run waits for input and a follow-up turn completes it",
			Expect: shape(1, 2, 2, 2, 1, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				started := make(chan struct{}, 1)
				crawl := untilCancelled("crawl", started)
				m := NewScriptedModel("scripted-llm", calls(tc("crawl", "site", "example.org")), final("Here is a short answer instead."))
				a := agent("crawler", m, Limits{}, crawl)
				return single(ctx, env, a, "Crawl example.org", func(rt *Runtime, h *RunHandle) error {
					select {
					case <-started:
					case <-ctx.Done():
						return ctx.Err()
					}
					if err := h.CancelTurn(); err != nil {
						return err
					}
					if err := h.WaitStatus(ctx, model.StatusWaiting); err != nil {
						return err
					}
					return h.FollowUp("Skip the crawl; answer briefly.")
				})
			}},
		{Name: "cancel-run", Description: "the whole run is cancelled while a tool runs: calls, step, turn and run end cancelled",
			Expect: shape(1, 1, 1, 1, 1, 0, model.StatusCancelled, model.StopCancelled),
			play: func(ctx context.Context, env *Env) error {
				started := make(chan struct{}, 1)
				crawl := untilCancelled("crawl", started)
				m := NewScriptedModel("scripted-llm", calls(tc("crawl", "site", "example.org")))
				return single(ctx, env, agent("crawler", m, Limits{}, crawl), "Crawl example.org", func(rt *Runtime, h *RunHandle) error {
					select {
					case <-started:
					case <-ctx.Done():
						return ctx.Err()
					}
					return h.Cancel()
				})
			}},
		{Name: "crash-resume", Description: "the process crashes mid-tool after a side effect; on restart the probe confirms it (not repeated) and the run resumes",
			Expect: shape(1, 1, 2, 2, 2, 0, model.StatusCompleted, model.StopGoalReached),
			play:   playCrashResume},
		{Name: "retry", Description: "a run fails after exhausting provider retries; a retry is a new run (parent_run_id, attempt 2) that completes",
			Expect: Shape{Runs: 2, Turns: 2, Steps: 2, ModelCalls: 4, Statuses: []model.RunStatus{model.StatusFailed, model.StatusCompleted},
				StopReasons: []model.StopReason{model.StopModelError, model.StopGoalReached}},
			play: func(ctx context.Context, env *Env) error {
				down := Script{Delay: 2 * time.Millisecond, Err: errors.New("502 bad gateway")}
				m := NewScriptedModel("scripted-llm", down, down, down, final("Answered on attempt 2."))
				a := agent("retrier", m, Limits{ModelAttempts: 3})
				rt, err := env.Open(a)
				if err != nil {
					return err
				}
				h, err := rt.Start(a, RunSpec{Input: "Summarise the outage report"})
				if err != nil {
					return err
				}
				if _, err := h.Wait(ctx); err != nil {
					return err
				}
				h2, err := rt.Retry(h.ID())
				if err != nil {
					return err
				}
				if _, err := h2.Wait(ctx); err != nil {
					return err
				}
				return rt.EndSession()
			}},
		{Name: "subagent", Description: "a tool delegates to a sub-agent: a child run (kind subagent, parent_run_id) in the same session",
			Expect: Shape{Runs: 2, Turns: 2, Steps: 4, ModelCalls: 4, ToolCalls: 2, Statuses: []model.RunStatus{model.StatusCompleted, model.StatusCompleted},
				StopReasons: []model.StopReason{model.StopGoalReached, model.StopGoalReached}},
			play: func(ctx context.Context, env *Env) error {
				child := agent("librarian", NewScriptedModel("scripted-llm-small", calls(tc("search", "q", "lifecycle models")), final("Three relevant papers.")),
					Limits{}, pure("search", 10*time.Millisecond, "3 papers"))
				parent := agent("lead", NewScriptedModel("scripted-llm", calls(tc("research", "task", "find papers on agent lifecycles")), final("The librarian found three papers.")),
					Limits{}, SubAgent("research", child))
				rt, err := env.Open(parent, child)
				if err != nil {
					return err
				}
				return startWait(ctx, rt, parent, "Find papers on agent lifecycles")
			}},
		{Name: "reconnect", Description: "the client's connection drops mid-run and reattaches with a new connection; the run never notices",
			Expect: Shape{Runs: 1, Turns: 1, Steps: 2, ModelCalls: 2, ToolCalls: 1, Connections: 2,
				Statuses: []model.RunStatus{model.StatusCompleted}, StopReasons: []model.StopReason{model.StopGoalReached}},
			play: func(ctx context.Context, env *Env) error {
				// The client acts while the run waits on it (inside the build, then inside the
				// second model call), so that the log is the same on every machine.
				started, dropped := make(chan struct{}, 1), make(chan struct{})
				answering, back := make(chan struct{}, 1), make(chan struct{})
				build := &FuncTool{ToolName: "build", Fn: func(ctx context.Context, call Call) (string, error) {
					started <- struct{}{}
					select {
					case <-dropped:
					case <-ctx.Done():
						return "", ctx.Err()
					}
					return "build ok", Sleep(ctx, 10*time.Millisecond)
				}}
				answer := final("Built.")
				answer.Hook = func(ctx context.Context, req Request) {
					answering <- struct{}{}
					select {
					case <-back:
					case <-ctx.Done():
					}
				}
				m := NewScriptedModel("scripted-llm", calls(tc("build", "target", "all")), answer)
				a := agent("builder", m, Limits{}, build)
				rt, err := env.Open(a)
				if err != nil {
					return err
				}
				h, err := rt.Start(a, RunSpec{Input: "Build everything"})
				if err != nil {
					return err
				}
				wait := func(ch <-chan struct{}) error {
					select {
					case <-ch:
						return nil
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				if err := wait(started); err != nil {
					return err
				}
				c1, err := rt.Attach(h.ID(), 0)
				if err != nil {
					return err
				}
				c1.Catchup()
				if err := c1.Close(); err != nil { // the browser tab drops
					return err
				}
				close(dropped)
				if err := wait(answering); err != nil { // the run has moved on: its next step
					return err
				}
				c2, err := rt.Attach(h.ID(), c1.Cursor()) // reattach: a new connection, same view
				if err != nil {
					return err
				}
				close(back)
				if _, err := h.Wait(ctx); err != nil {
					return err
				}
				if len(c2.Catchup()) == 0 {
					return errors.New("reattached connection saw no events")
				}
				if err := c2.Close(); err != nil {
					return err
				}
				return rt.EndSession()
			}},
		{Name: "hook", Description: "a turn-stopping hook re-inserts work: the turn takes one more step before it ends",
			Expect: shape(1, 1, 2, 2, 0, 0, model.StatusCompleted, model.StopGoalReached),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm", final("Total: 41."), final("Checked: the total is 42."))
				a := agent("accountant", m, Limits{})
				checked := false
				a.OnStopping = func(ctx context.Context, runID, turnID string) ([]string, error) {
					if checked {
						return nil, nil
					}
					checked = true
					return []string{"Double-check the total before you stop."}, nil
				}
				return single(ctx, env, a, "Add up the invoice", nil)
			}},
		{Name: "budget", Description: "the token budget is exceeded by a model call; the run fails before running its tools",
			Expect: shape(1, 1, 2, 2, 1, 0, model.StatusFailed, model.StopBudgetExceeded),
			play: func(ctx context.Context, env *Env) error {
				m := NewScriptedModel("scripted-llm", calls(tc("search", "q", "a")), calls(tc("search", "q", "b")))
				return single(ctx, env, agent("spender", m, Limits{TokenBudget: 1000}, pure("search", 5*time.Millisecond, "hits")), "Search twice", nil)
			}},
	}
}

func startWait(ctx context.Context, rt *Runtime, a *Agent, input string) error {
	h, err := rt.Start(a, RunSpec{Input: input})
	if err != nil {
		return err
	}
	if _, err := h.Wait(ctx); err != nil {
		return err
	}
	return rt.EndSession()
}

// playCrashResume: a side-effecting "email" call applies its effect, then the process dies
// before its result is recorded (a pure "lookup" call is in flight too). A new runtime opens
// the log, resumes: the probe confirms the email was sent (not sent again) and lookup re-runs.
func playCrashResume(ctx context.Context, env *Env) error {
	outbox := NewLedger()
	var current *Runtime
	email := &FuncTool{ToolName: "email", Effect: true,
		Fn: func(ctx context.Context, call Call) (string, error) {
			if err := Sleep(ctx, 5*time.Millisecond); err != nil {
				return "", err
			}
			res := outbox.Do(call.IdempotencyKey, "sent to "+fmt.Sprint(call.Args["to"]))
			if call.rt == current {
				call.rt.Crash() // the process dies right after the effect, before tool/end
				return "", context.Canceled
			}
			return res, nil
		},
		ProbeFn: func(ctx context.Context, call Call) (string, bool, error) {
			r, ok := outbox.Done(call.IdempotencyKey)
			return r, ok, nil
		}}
	m := NewScriptedModel("scripted-llm", calls(tc("email", "to", "ops@example.org"), tc("lookup", "id", 7)), final("Ops notified; ticket 7 is open."))
	a := agent("notifier", m, Limits{}, email, pure("lookup", 30*time.Millisecond, "ticket 7: open"))
	rt, err := env.Open(a)
	if err != nil {
		return err
	}
	current = rt
	h, err := rt.Start(a, RunSpec{Input: "Tell ops about ticket 7"})
	if err != nil {
		return err
	}
	if _, err := h.Wait(ctx); !errors.Is(err, ErrCrashed) {
		return fmt.Errorf("expected the run to be cut short by the crash, got %v", err)
	}
	rt.Close()
	rt2, err := env.Open(a)
	if err != nil {
		return err
	}
	hs, err := rt2.Resume()
	if err != nil {
		return err
	}
	for _, h := range hs {
		if _, err := h.Wait(ctx); err != nil {
			return err
		}
	}
	if key, n := outbox.MaxApplied(); n != 1 {
		return fmt.Errorf("side effect %q applied %d times, want exactly once", key, n)
	}
	return rt2.EndSession()
}
