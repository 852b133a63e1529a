package html

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// gen writes canonical events with increasing seq and time.
type gen struct {
	seq      int64
	t        time.Time
	timeless bool
	evs      []model.Event
}

func newGen() *gen { return &gen{t: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)} }

func (g *gen) at(d time.Duration, e model.Event) {
	g.seq++
	g.t = g.t.Add(d)
	e.V, e.Seq = model.SchemaVersion, g.seq
	if !g.timeless {
		e.TS = g.t
	}
	if e.Source == "" {
		e.Source = model.SourceRuntime
	}
	g.evs = append(g.evs, e)
}

const ms = time.Millisecond

type ids struct{ s, r, t, st, c string }

func (g *gen) ev(d time.Duration, typ model.EventType, id ids, mod func(*model.Event)) {
	e := model.Event{Type: typ, SessionID: id.s, RunID: id.r, TurnID: id.t, StepID: id.st, CallID: id.c}
	if mod != nil {
		mod(&e)
	}
	g.at(d, e)
}

// step writes one step with a model call and the given tool calls (run in parallel).
func (g *gen) step(id ids, model_ string, usage model.Usage, tools []toolSpec) {
	g.ev(2*ms, model.StepStart, id, nil)
	mc := id
	mc.c = id.st + "-m"
	g.ev(1*ms, model.ModelStart, mc, func(e *model.Event) { e.Name = model_ })
	g.ev(420*ms, model.ModelEnd, mc, func(e *model.Event) {
		e.Name, e.Outcome, e.Usage, e.Source = model_, model.OutcomeOK, &usage, model.SourceModel
	})
	for i, tl := range tools {
		tc := id
		tc.c = fmt.Sprintf("%s-t%d", id.st, i+1)
		g.ev(1*ms, model.ToolStart, tc, func(e *model.Event) {
			e.Name, e.Attrs, e.SideEffect = tl.name, tl.args, tl.side
		})
	}
	outcome := model.OutcomeOK
	for i, tl := range tools {
		tc := id
		tc.c = fmt.Sprintf("%s-t%d", id.st, i+1)
		g.ev(tl.dur, model.ToolEnd, tc, func(e *model.Event) {
			e.Name, e.Outcome, e.Source = tl.name, model.OutcomeOK, model.SourceTool
			if tl.err != "" {
				e.Outcome, e.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: tl.err}
			}
		})
	}
	g.ev(1*ms, model.StepEnd, id, func(e *model.Event) { e.Outcome = outcome })
}

type toolSpec struct {
	name string
	dur  time.Duration
	args map[string]any
	err  string
	side bool
}

// basicEvents: one run, two turns, parallel tool calls, usage, completed.
func basicEvents(timeless bool) []model.Event {
	g := newGen()
	g.timeless = timeless
	s := ids{s: "sess-1"}
	r := ids{s: "sess-1", r: "run-1"}
	g.ev(0, model.SessionStart, s, nil)
	g.ev(5*ms, model.RunStart, r, func(e *model.Event) { e.Name, e.Attempt, e.AgentVersion = "researcher", 1, "v3" })
	t1 := r
	t1.t = "turn-1"
	g.ev(2*ms, model.TurnStart, t1, nil)
	st := t1
	st.st = "step-1"
	g.step(st, "gpt-5", model.Usage{InputTokens: 812, OutputTokens: 96, CostUSD: 0.0042}, []toolSpec{
		{name: "web_search", dur: 300 * ms, args: map[string]any{"query": "agent lifecycle"}},
		{name: "read_file", dur: 120 * ms, args: map[string]any{"path": "notes.md"}},
	})
	st.st = "step-2"
	g.step(st, "gpt-5", model.Usage{InputTokens: 1400, OutputTokens: 210, CachedTokens: 800, CostUSD: 0.0061}, nil)
	g.ev(2*ms, model.TurnEnd, t1, func(e *model.Event) { e.Outcome = model.OutcomeOK })
	t2 := r
	t2.t = "turn-2"
	g.ev(50*ms, model.TurnStart, t2, nil)
	st = t2
	st.st = "step-3"
	g.step(st, "gpt-5", model.Usage{InputTokens: 1900, OutputTokens: 150, CostUSD: 0.007}, []toolSpec{
		{name: "write_file", dur: 80 * ms, args: map[string]any{"path": "report.md", "bytes": 2048}, side: true},
	})
	st.st = "step-4"
	g.step(st, "gpt-5", model.Usage{InputTokens: 2100, OutputTokens: 60, CostUSD: 0.0065}, nil)
	g.ev(2*ms, model.TurnEnd, t2, func(e *model.Event) { e.Outcome = model.OutcomeOK; e.StopReason = model.StopGoalReached })
	g.ev(3*ms, model.RunEnd, r, func(e *model.Event) { e.Status, e.StopReason = model.StatusCompleted, model.StopGoalReached })
	g.ev(10*ms, model.SessionEnd, s, nil)
	return g.evs
}

// complexEvents: a parent run that hands off to a sub-agent, a failing tool call, a failed run
// retried as attempt 2, a run left open, and a run completed despite a failed step (L5).
func complexEvents() []model.Event {
	g := newGen()
	s := ids{s: "sess-9"}
	g.ev(0, model.SessionStart, s, nil)
	// Run A: triage agent, hands off to billing sub-agent.
	a := ids{s: "sess-9", r: "run-a"}
	g.ev(3*ms, model.RunStart, a, func(e *model.Event) { e.Name, e.Attempt = "triage", 1 })
	ta := a
	ta.t = "turn-a1"
	g.ev(1*ms, model.TurnStart, ta, nil)
	sa := ta
	sa.st = "step-a1"
	g.step(sa, "claude-sonnet", model.Usage{InputTokens: 500, OutputTokens: 40}, []toolSpec{
		{name: "transfer_to_billing", dur: 20 * ms, args: map[string]any{"reason": "refund request"}},
	})
	// Sub-agent run B inside A's turn.
	b := ids{s: "sess-9", r: "run-b"}
	g.ev(2*ms, model.RunStart, b, func(e *model.Event) { e.Name, e.Kind, e.ParentRunID, e.Attempt = "billing", "handoff", "run-a", 1 })
	tb := b
	tb.t = "turn-b1"
	g.ev(1*ms, model.TurnStart, tb, nil)
	sb := tb
	sb.st = "step-b1"
	g.step(sb, "claude-haiku", model.Usage{InputTokens: 700, OutputTokens: 55}, []toolSpec{
		{name: "lookup_invoice", dur: 90 * ms, args: map[string]any{"invoice": "INV-2291"}},
		{name: "issue_refund", dur: 140 * ms, args: map[string]any{"amount": 42.5}, err: "payment gateway timeout after 30s", side: true},
	})
	g.ev(1*ms, model.TurnEnd, tb, func(e *model.Event) {
		e.Outcome, e.StopReason, e.Error = model.OutcomeError, model.StopToolError, &model.ErrorInfo{Kind: "tool", Message: "issue_refund failed"}
	})
	g.ev(1*ms, model.RunEnd, b, func(e *model.Event) {
		e.Status, e.StopReason, e.Error = model.StatusFailed, model.StopToolError, &model.ErrorInfo{Kind: "tool", Message: "issue_refund failed: payment gateway timeout"}
	})
	// Retry of B as attempt 2.
	b2 := ids{s: "sess-9", r: "run-b2"}
	g.ev(5*ms, model.RunStart, b2, func(e *model.Event) { e.Name, e.Kind, e.ParentRunID, e.Attempt = "billing", "retry", "run-b", 2 })
	ap := b2
	ap.c = "approve-refund"
	g.ev(1*ms, model.RunStatusChange, ap, func(e *model.Event) { e.Status, e.WaitReason = model.StatusWaiting, model.WaitApproval })
	g.ev(1*ms, model.ApprovalRequest, ap, nil)
	g.ev(350*ms, model.ApprovalResolve, ap, func(e *model.Event) { e.Decision, e.Source = model.DecisionApproved, model.SourceClient })
	g.ev(1*ms, model.RunStatusChange, b2, func(e *model.Event) { e.Status, e.Cause = model.StatusRunning, string(model.ApprovalResolve) })
	tb2 := b2
	tb2.t = "turn-b2"
	g.ev(1*ms, model.TurnStart, tb2, nil)
	sb2 := tb2
	sb2.st = "step-b2"
	g.step(sb2, "claude-haiku", model.Usage{InputTokens: 760, OutputTokens: 70}, []toolSpec{
		{name: "issue_refund", dur: 110 * ms, args: map[string]any{"amount": 42.5}, side: true},
	})
	g.ev(1*ms, model.TurnEnd, tb2, func(e *model.Event) { e.Outcome, e.StopReason = model.OutcomeOK, model.StopGoalReached })
	g.ev(1*ms, model.RunEnd, b2, func(e *model.Event) { e.Status, e.StopReason = model.StatusCompleted, model.StopGoalReached })
	// Back in A: final step, turn ends, run completed.
	sa.st = "step-a2"
	g.step(sa, "claude-sonnet", model.Usage{InputTokens: 1200, OutputTokens: 80}, nil)
	g.ev(1*ms, model.TurnEnd, ta, func(e *model.Event) { e.Outcome, e.StopReason = model.OutcomeOK, model.StopGoalReached })
	g.ev(1*ms, model.RunEnd, a, func(e *model.Event) { e.Status, e.StopReason = model.StatusCompleted, model.StopGoalReached })
	// Run C: still running, a tool call never returned.
	c := ids{s: "sess-9", r: "run-c"}
	g.ev(20*ms, model.RunStart, c, func(e *model.Event) { e.Name, e.Attempt = "follow-up", 1 })
	tc := c
	tc.t = "turn-c1"
	g.ev(1*ms, model.TurnStart, tc, nil)
	sc := tc
	sc.st = "step-c1"
	g.ev(1*ms, model.StepStart, sc, nil)
	mc := sc
	mc.c = "step-c1-m"
	g.ev(1*ms, model.ModelStart, mc, func(e *model.Event) { e.Name = "claude-sonnet" })
	g.ev(300*ms, model.ModelEnd, mc, func(e *model.Event) {
		e.Name, e.Outcome, e.Usage = "claude-sonnet", model.OutcomeOK, &model.Usage{InputTokens: 900, OutputTokens: 30}
	})
	cc := sc
	cc.c = "step-c1-t1"
	g.ev(1*ms, model.ToolStart, cc, func(e *model.Event) { e.Name = "send_email"; e.SideEffect = true })
	// Run D: completed although its last step failed (an L5 finding), status written by a tool (L8).
	d := ids{s: "sess-9", r: "run-d"}
	g.ev(5*ms, model.RunStart, d, func(e *model.Event) { e.Name, e.Attempt = "summarizer", 1 })
	td := d
	td.t = "turn-d1"
	g.ev(1*ms, model.TurnStart, td, nil)
	sd := td
	sd.st = "step-d1"
	g.ev(1*ms, model.StepStart, sd, nil)
	md := sd
	md.c = "step-d1-m"
	g.ev(1*ms, model.ModelStart, md, func(e *model.Event) { e.Name = "claude-haiku" })
	g.ev(200*ms, model.ModelEnd, md, func(e *model.Event) {
		e.Name, e.Outcome, e.Error = "claude-haiku", model.OutcomeError, &model.ErrorInfo{Kind: "provider", Message: "429 rate limited", Retryable: true}
	})
	g.ev(1*ms, model.StepEnd, sd, func(e *model.Event) { e.Outcome = model.OutcomeError })
	g.ev(1*ms, model.TurnEnd, td, func(e *model.Event) { e.Outcome = model.OutcomeOK })
	g.ev(1*ms, model.RunEnd, d, func(e *model.Event) {
		e.Status, e.StopReason, e.Source = model.StatusCompleted, model.StopGoalReached, model.SourceTool
	})
	return g.evs
}

// hostile is text that would break out of a careless page.
var hostile = []string{
	`<script>alert(1)</script>`,
	`</svg><img src=x onerror=alert(2)>`,
	`</script><script>alert(3)</script>`,
	`"'><b onmouseover=alert(4)>q"uote's`,
	`javascript:alert(5)`,
	"<!-- \u2028\u2029 --> ]]> {{.}} ${x} `tick`",
}

// hostileEvents puts the hostile strings in every text field a trace can carry.
func hostileEvents() []model.Event {
	g := newGen()
	s := ids{s: "sess-<script>alert(6)</script>"}
	g.ev(0, model.SessionStart, s, nil)
	r := ids{s: s.s, r: `run-"</script>`}
	g.ev(1*ms, model.RunStart, r, func(e *model.Event) { e.Name = hostile[0]; e.AgentVersion = hostile[2] })
	t := r
	t.t = "turn-</svg>"
	g.ev(1*ms, model.TurnStart, t, nil)
	st := t
	st.st = "step-javascript:alert(7)"
	var tools []toolSpec
	for i, h := range hostile {
		tools = append(tools, toolSpec{name: h, dur: time.Duration(i+1) * 10 * ms,
			args: map[string]any{h: h, "html": `<img src=x onerror=alert(8)>`, "href": "javascript:alert(9)"}, err: h})
	}
	g.step(st, hostile[1], model.Usage{InputTokens: 1}, tools)
	g.ev(1*ms, model.TurnEnd, t, func(e *model.Event) {
		e.Outcome = model.OutcomeError
		e.Error = &model.ErrorInfo{Kind: hostile[3], Message: hostile[2]}
	})
	g.ev(1*ms, model.RunEnd, r, func(e *model.Event) {
		e.Status, e.StopReason, e.Error = model.StatusFailed, model.StopToolError, &model.ErrorInfo{Kind: "tool", Message: hostile[4]}
	})
	return g.evs
}

// bigEvents generates a trace of about n nodes: runs of 25 turns of 20 steps, each with one
// model call and one to three tool calls; ids are UUID-like, about 1% of tool calls fail.
func bigEvents(n int) []model.Event {
	rng := rand.New(rand.NewPCG(1, 2))
	uuid := func() string {
		return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint64()&0xffffffffffff)
	}
	g := newGen()
	g.evs = make([]model.Event, 0, n*2+16)
	s := ids{s: uuid()}
	g.ev(0, model.SessionStart, s, nil)
	tools := []string{"web_search", "read_file", "write_file", "run_shell", "grep", "http_get", "sql_query"}
	nodes := 1
	for nodes < n {
		r := ids{s: s.s, r: uuid()}
		g.ev(5*ms, model.RunStart, r, func(e *model.Event) { e.Name, e.Attempt = "agent", 1 })
		nodes++
		for tu := 0; tu < 25 && nodes < n; tu++ {
			t := r
			t.t = uuid()
			g.ev(2*ms, model.TurnStart, t, nil)
			nodes++
			for sp := 0; sp < 20 && nodes < n; sp++ {
				st := t
				st.st = uuid()
				g.ev(1*ms, model.StepStart, st, nil)
				mc := st
				mc.c = uuid()
				g.ev(1*ms, model.ModelStart, mc, func(e *model.Event) { e.Name = "gpt-5" })
				g.ev(time.Duration(200+rng.IntN(800))*ms, model.ModelEnd, mc, func(e *model.Event) {
					e.Name, e.Outcome = "gpt-5", model.OutcomeOK
					e.Usage = &model.Usage{InputTokens: int64(500 + rng.IntN(3000)), OutputTokens: int64(20 + rng.IntN(400)), CostUSD: 0.003}
				})
				k := 1 + rng.IntN(3)
				calls := make([]ids, k)
				for c := range calls {
					calls[c] = st
					calls[c].c = uuid()
					name := tools[rng.IntN(len(tools))]
					g.ev(1*ms, model.ToolStart, calls[c], func(e *model.Event) {
						e.Name = name
						e.Attrs = map[string]any{"arg": fmt.Sprintf("item-%d", rng.IntN(1000))}
					})
				}
				for c := range calls {
					fail := rng.IntN(100) == 0
					g.ev(time.Duration(5+rng.IntN(300))*ms, model.ToolEnd, calls[c], func(e *model.Event) {
						e.Outcome, e.Source = model.OutcomeOK, model.SourceTool
						if fail {
							e.Outcome, e.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: "exit status 1"}
						}
					})
				}
				g.ev(1*ms, model.StepEnd, st, func(e *model.Event) { e.Outcome = model.OutcomeOK })
				nodes += 2 + k
			}
			g.ev(1*ms, model.TurnEnd, t, func(e *model.Event) { e.Outcome = model.OutcomeOK })
		}
		g.ev(1*ms, model.RunEnd, r, func(e *model.Event) { e.Status, e.StopReason = model.StatusCompleted, model.StopGoalReached })
	}
	g.ev(1*ms, model.SessionEnd, s, nil)
	return g.evs
}
