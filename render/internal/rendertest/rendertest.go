// Package rendertest holds what the renderers' tests share: representative lifecycle trees built
// from canonical events (parallel tools, errors, an approval wait, sub-agent and retry runs, open
// nodes, a timeless tree, hostile names), extra scenarios read from JSON Lines event logs, a
// generator of large trees for benchmarks, and golden-file comparison with an -update flag.
package rendertest

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Update reports whether the tests run with -update (rewrite golden files).
func Update() bool { return *update }

// Scenario is one named test input: its events, the tree projected from them and the findings
// the invariant checker reports on them.
type Scenario struct {
	Name     string
	Events   []model.Event
	Tree     *model.Tree
	Findings []model.Finding
}

// Base is the time every built-in scenario starts at.
var Base = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// b builds an event log with a per-session seq and times relative to Base.
type b struct {
	evs      []model.Event
	seq      map[string]int64
	timeless bool
}

func (x *b) add(ms int, ev model.Event) {
	if x.seq == nil {
		x.seq = map[string]int64{}
	}
	x.seq[ev.SessionID]++
	ev.V, ev.Seq = model.SchemaVersion, x.seq[ev.SessionID]
	if !x.timeless {
		ev.TS = Base.Add(time.Duration(ms) * time.Millisecond)
	}
	if ev.Source == "" {
		ev.Source = model.SourceRuntime
	}
	x.evs = append(x.evs, ev)
}

type ids struct{ s, r, t, st string }

func (x *b) session(ms int, s string) { x.add(ms, model.Event{Type: model.SessionStart, SessionID: s}) }
func (x *b) runStart(ms int, i ids, agent string, mod func(*model.Event)) {
	ev := model.Event{Type: model.RunStart, SessionID: i.s, RunID: i.r, Name: agent, Attempt: 1}
	if mod != nil {
		mod(&ev)
	}
	x.add(ms, ev)
}
func (x *b) runEnd(ms int, i ids, st model.RunStatus, sr model.StopReason, err *model.ErrorInfo) {
	x.add(ms, model.Event{Type: model.RunEnd, SessionID: i.s, RunID: i.r, Status: st, StopReason: sr, Error: err})
}
func (x *b) turnStart(ms int, i ids) {
	x.add(ms, model.Event{Type: model.TurnStart, SessionID: i.s, RunID: i.r, TurnID: i.t})
}
func (x *b) turnEnd(ms int, i ids, o model.Outcome, sr model.StopReason, err *model.ErrorInfo) {
	x.add(ms, model.Event{Type: model.TurnEnd, SessionID: i.s, RunID: i.r, TurnID: i.t, Outcome: o, StopReason: sr, Error: err})
}
func (x *b) stepStart(ms int, i ids) {
	x.add(ms, model.Event{Type: model.StepStart, SessionID: i.s, RunID: i.r, TurnID: i.t, StepID: i.st})
}
func (x *b) stepEnd(ms int, i ids, o model.Outcome, err *model.ErrorInfo) {
	x.add(ms, model.Event{Type: model.StepEnd, SessionID: i.s, RunID: i.r, TurnID: i.t, StepID: i.st, Outcome: o, Error: err})
}
func (x *b) model(ms, endMS int, i ids, call, name string, in, out int64, cost float64, o model.Outcome, err *model.ErrorInfo) {
	x.add(ms, model.Event{Type: model.ModelStart, SessionID: i.s, RunID: i.r, TurnID: i.t, StepID: i.st, CallID: call, Name: name, Source: model.SourceModel})
	if endMS < 0 {
		return
	}
	var u *model.Usage
	if in != 0 || out != 0 || cost != 0 {
		u = &model.Usage{InputTokens: in, OutputTokens: out, CostUSD: cost}
	}
	x.add(endMS, model.Event{Type: model.ModelEnd, SessionID: i.s, RunID: i.r, TurnID: i.t, StepID: i.st, CallID: call, Name: name,
		Usage: u, Outcome: o, Error: err, Source: model.SourceModel})
}
func (x *b) toolStart(ms int, i ids, call, name string) {
	x.add(ms, model.Event{Type: model.ToolStart, SessionID: i.s, RunID: i.r, TurnID: i.t, StepID: i.st, CallID: call, Name: name, Source: model.SourceTool})
}
func (x *b) toolEnd(ms int, i ids, call, name string, o model.Outcome, err *model.ErrorInfo) {
	x.add(ms, model.Event{Type: model.ToolEnd, SessionID: i.s, RunID: i.r, TurnID: i.t, StepID: i.st, CallID: call, Name: name, Outcome: o, Error: err, Source: model.SourceTool})
}

func scenario(name string, evs []model.Event) Scenario {
	return Scenario{Name: name, Events: evs, Tree: model.Project(clone(evs)), Findings: model.CheckEvents(clone(evs))}
}

func clone(evs []model.Event) []model.Event { return append([]model.Event(nil), evs...) }

// Basic is one completed run: a turn of two steps, the first with a model call and two
// parallel (overlapping) tool calls, with token usage and cost.
func Basic() Scenario {
	var x b
	i := ids{"sess-basic", "run-1", "turn-1", "step-1"}
	x.session(0, i.s)
	x.runStart(10, i, "helper", func(e *model.Event) { e.AgentVersion = "v3" })
	x.turnStart(20, i)
	x.stepStart(30, i)
	x.model(40, 900, i, "msg-1", "gpt-4.1", 1200, 80, 0.0031, model.OutcomeOK, nil)
	x.toolStart(910, i, "call_weather", "get_weather")
	x.toolStart(915, i, "call_news", "get_news")
	x.toolEnd(1400, i, "call_news", "get_news", model.OutcomeOK, nil)
	x.toolEnd(1650, i, "call_weather", "get_weather", model.OutcomeOK, nil)
	x.stepEnd(1660, i, model.OutcomeOK, nil)
	i.st = "step-2"
	x.stepStart(1670, i)
	x.model(1680, 2500, i, "msg-2", "gpt-4.1", 1500, 220, 0.0048, model.OutcomeOK, nil)
	x.stepEnd(2510, i, model.OutcomeOK, nil)
	x.add(2520, model.Event{Type: model.TurnStopping, SessionID: i.s, RunID: i.r, TurnID: i.t})
	x.turnEnd(2530, i, model.OutcomeOK, model.StopGoalReached, nil)
	x.runEnd(2540, i, model.StatusCompleted, model.StopGoalReached, nil)
	x.add(2600, model.Event{Type: model.SessionEnd, SessionID: i.s})
	return scenario("basic", x.evs)
}

// Errors is a run that fails: a model call errors and is retried, a tool call fails and the
// failure ends the turn and the run with tool_error.
func Errors() Scenario {
	var x b
	i := ids{"sess-err", "3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f", "turn-1", "step-1"}
	x.session(0, i.s)
	x.runStart(5, i, "researcher", nil)
	x.turnStart(10, i)
	x.stepStart(20, i)
	x.model(30, 530, i, "req-1", "claude-sonnet", 0, 0, 0, model.OutcomeError, &model.ErrorInfo{Kind: "provider", Message: "529 overloaded", Retryable: true})
	x.model(700, 1500, i, "req-2", "claude-sonnet", 900, 40, 0.002, model.OutcomeOK, nil)
	x.toolStart(1510, i, "toolu_01", "fetch_url")
	x.toolEnd(4510, i, "toolu_01", "fetch_url", model.OutcomeError, &model.ErrorInfo{Kind: "timeout", Message: "GET https://example.com timed out after 3s"})
	x.stepEnd(4520, i, model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: "fetch_url failed"})
	x.turnEnd(4530, i, model.OutcomeError, model.StopToolError, &model.ErrorInfo{Kind: "tool", Message: "fetch_url failed"})
	x.runEnd(4540, i, model.StatusFailed, model.StopToolError, &model.ErrorInfo{Kind: "tool", Message: "fetch_url failed"})
	return scenario("errors", x.evs)
}

// Approval is a run that pauses for an approval between two turns.
func Approval() Scenario {
	var x b
	i := ids{"sess-appr", "run-appr", "turn-a", "step-a1"}
	x.session(0, i.s)
	x.runStart(0, i, "ops-bot", nil)
	x.turnStart(10, i)
	x.stepStart(20, i)
	x.model(30, 600, i, "m-a1", "gpt-4.1-mini", 300, 25, 0.0004, model.OutcomeOK, nil)
	x.add(610, model.Event{Type: model.ApprovalRequest, SessionID: i.s, RunID: i.r, CallID: "call_rm", Name: "delete_branch"})
	x.stepEnd(615, i, model.OutcomeOK, nil)
	x.add(620, model.Event{Type: model.RunStatusChange, SessionID: i.s, RunID: i.r, CallID: "call_rm", Status: model.StatusWaiting, WaitReason: model.WaitApproval, StopReason: model.StopAwaitingApproval})
	x.turnEnd(625, i, model.OutcomeOK, model.StopAwaitingApproval, nil)
	x.add(5625, model.Event{Type: model.ApprovalResolve, SessionID: i.s, RunID: i.r, CallID: "call_rm", Decision: model.DecisionApproved, Source: model.SourceClient})
	x.add(5630, model.Event{Type: model.RunStatusChange, SessionID: i.s, RunID: i.r, Status: model.StatusRunning, Cause: "approval/resolve"})
	i.t, i.st = "turn-b", "step-b1"
	x.turnStart(5640, i)
	x.stepStart(5650, i)
	x.toolStart(5660, i, "call_rm", "delete_branch")
	x.evs[len(x.evs)-1].SideEffect = true
	x.evs[len(x.evs)-1].IdempotencyKey = "rm-feature-x"
	x.toolEnd(5900, i, "call_rm", "delete_branch", model.OutcomeOK, nil)
	x.model(5910, 6400, i, "m-b1", "gpt-4.1-mini", 350, 30, 0.0005, model.OutcomeOK, nil)
	x.stepEnd(6410, i, model.OutcomeOK, nil)
	x.turnEnd(6420, i, model.OutcomeOK, model.StopGoalReached, nil)
	x.runEnd(6430, i, model.StatusCompleted, model.StopGoalReached, nil)
	return scenario("approval", x.evs)
}

// Subagent is a parent run whose tool call delegates to a sub-agent run (parent_run_id, kind
// subagent), followed by a retry run (attempt 2) of a first attempt that timed out.
func Subagent() Scenario {
	var x b
	p := ids{"sess-sub", "run-parent", "turn-p1", "step-p1"}
	c := ids{"sess-sub", "run-child", "turn-c1", "step-c1"}
	x.session(0, p.s)
	x.runStart(0, p, "planner", nil)
	x.turnStart(10, p)
	x.stepStart(20, p)
	x.model(30, 400, p, "m-p1", "gpt-4.1", 500, 60, 0.001, model.OutcomeOK, nil)
	x.toolStart(410, p, "call_delegate", "transfer_to_coder")
	x.runStart(420, c, "coder", func(e *model.Event) { e.ParentRunID, e.Kind = p.r, "subagent" })
	x.turnStart(425, c)
	x.stepStart(430, c)
	x.model(435, 1200, c, "m-c1", "gpt-4.1", 800, 300, 0.004, model.OutcomeOK, nil)
	x.toolStart(1210, c, "call_test", "run_tests")
	x.toolEnd(2210, c, "call_test", "run_tests", model.OutcomeOK, nil)
	x.stepEnd(2220, c, model.OutcomeOK, nil)
	x.turnEnd(2230, c, model.OutcomeOK, model.StopGoalReached, nil)
	x.runEnd(2240, c, model.StatusCompleted, model.StopGoalReached, nil)
	x.toolEnd(2250, p, "call_delegate", "transfer_to_coder", model.OutcomeOK, nil)
	x.stepEnd(2260, p, model.OutcomeOK, nil)
	x.turnEnd(2270, p, model.OutcomeOK, model.StopGoalReached, nil)
	x.runEnd(2280, p, model.StatusCompleted, model.StopGoalReached, nil)
	// A second request: attempt 1 times out, attempt 2 (parent_run_id, kind retry) succeeds.
	a := ids{"sess-sub", "run-try1", "turn-t1", "step-t1"}
	x.runStart(3000, a, "planner", nil)
	x.turnStart(3010, a)
	x.stepStart(3020, a)
	x.model(3030, 8030, a, "m-t1", "gpt-4.1", 0, 0, 0, model.OutcomeError, &model.ErrorInfo{Kind: "timeout", Message: "no response in 5s"})
	x.stepEnd(8040, a, model.OutcomeError, &model.ErrorInfo{Kind: "timeout", Message: "no response in 5s"})
	x.turnEnd(8050, a, model.OutcomeError, model.StopTimeout, nil)
	x.runEnd(8060, a, model.StatusFailed, model.StopTimeout, &model.ErrorInfo{Kind: "timeout", Message: "no response in 5s"})
	r := ids{"sess-sub", "run-try2", "turn-r1", "step-r1"}
	x.runStart(8100, r, "planner", func(e *model.Event) { e.ParentRunID, e.Kind, e.Attempt = a.r, "retry", 2 })
	x.turnStart(8110, r)
	x.stepStart(8120, r)
	x.model(8130, 9000, r, "m-r1", "gpt-4.1", 510, 70, 0.0011, model.OutcomeOK, nil)
	x.stepEnd(9010, r, model.OutcomeOK, nil)
	x.turnEnd(9020, r, model.OutcomeOK, model.StopGoalReached, nil)
	x.runEnd(9030, r, model.StatusCompleted, model.StopGoalReached, nil)
	return scenario("subagent", x.evs)
}

// Open is a live run: its turn, step, a tool call and the session were never ended.
func Open() Scenario {
	var x b
	i := ids{"sess-open", "run-live", "turn-1", "step-1"}
	x.session(0, i.s)
	x.runStart(0, i, "watcher", nil)
	x.turnStart(5, i)
	x.stepStart(10, i)
	x.model(20, 300, i, "m-1", "gpt-4.1", 100, 10, 0, model.OutcomeOK, nil)
	x.toolStart(310, i, "call_slow", "long_poll")
	x.toolStart(320, i, "call_fast", "read_file")
	x.toolEnd(500, i, "call_fast", "read_file", model.OutcomeOK, nil)
	x.model(600, -1, i, "m-2", "gpt-4.1", 0, 0, 0, "", nil)
	x.add(2000, model.Event{Type: model.Message, SessionID: i.s, RunID: i.r, Role: "user", Text: "still there?", Source: model.SourceClient})
	return scenario("open", x.evs)
}

// Timeless is a small log whose events carry no timestamps (order only).
func Timeless() Scenario {
	x := b{timeless: true}
	i := ids{"sess-nots", "run-1", "turn-1", "step-1"}
	x.session(0, i.s)
	x.runStart(0, i, "smol", nil)
	x.turnStart(0, i)
	x.stepStart(0, i)
	x.model(0, 0, i, "m-1", "qwen", 40, 12, 0, model.OutcomeOK, nil)
	x.toolStart(0, i, "c-1", "final_answer")
	x.toolEnd(0, i, "c-1", "final_answer", model.OutcomeOK, nil)
	x.stepEnd(0, i, model.OutcomeOK, nil)
	x.turnEnd(0, i, model.OutcomeOK, model.StopGoalReached, nil)
	x.runEnd(0, i, model.StatusCompleted, model.StopGoalReached, nil)
	ev := &x.evs[len(x.evs)-1]
	ev.Inferred = []string{"stop_reason"}
	return scenario("timeless", x.evs)
}

// HostileName is a string with everything a renderer must neutralise.
const HostileName = "<script>alert('x')</script> \x1b[31mred\x1b]0;title\x07\x1b[0m \"q\" `b` a:b;c#d %%{init} [x](y){z} --> |p| & </svg>\nline2\u202eevil"

// Hostile is a run whose agent, model, tool and error texts try to break every output format,
// including a tool call that was inferred rather than recorded.
func Hostile() Scenario {
	var x b
	i := ids{"sess-<script>", "run:\"1\";#", HostileName[:20], "step\n1"}
	x.session(0, i.s)
	x.runStart(0, i, HostileName, nil)
	x.turnStart(5, i)
	x.stepStart(10, i)
	x.model(15, 200, i, "m-1", "model:\"x\";#<b>", 10, 5, 0, model.OutcomeOK, nil)
	x.toolStart(210, i, "call-1", HostileName)
	x.toolEnd(300, i, "call-1", HostileName, model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: HostileName})
	x.evs[len(x.evs)-1].Inferred = []string{"end"}
	x.toolStart(310, i, "call-2", "日本語ツール🔧")
	x.toolEnd(400, i, "call-2", "日本語ツール🔧", model.OutcomeOK, nil)
	x.stepEnd(410, i, model.OutcomeError, nil)
	x.turnEnd(420, i, model.OutcomeError, model.StopToolError, nil)
	x.runEnd(430, i, model.StatusFailed, model.StopToolError, &model.ErrorInfo{Kind: "tool", Message: "failed: " + HostileName})
	return scenario("hostile", x.evs)
}

// All returns every built-in scenario followed by those read from JSON Lines event logs in
// rendertest's testdata/scenarios directory (the demo scenarios and real samples go there).
func All(tb testing.TB) []Scenario {
	tb.Helper()
	out := []Scenario{Basic(), Errors(), Approval(), Subagent(), Open(), Timeless(), Hostile()}
	files, _ := filepath.Glob(filepath.Join(Dir(), "testdata", "scenarios", "*.jsonl"))
	sort.Strings(files)
	for _, f := range files {
		evs, err := ReadLog(f)
		if err != nil {
			tb.Fatalf("rendertest: %v", err)
		}
		out = append(out, scenario(strings.TrimSuffix(filepath.Base(f), ".jsonl"), evs))
	}
	return out
}

// Dir is the directory of this package's source.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// ReadLog reads a canonical JSON Lines event log.
func ReadLog(path string) ([]model.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read event log: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), model.MaxLineBytes)
	var evs []model.Event
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		ev, err := model.DecodeLine(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return evs, nil
}

// Golden compares got with testdata/golden/<name> of the calling package, or rewrites the file
// when the test runs with -update.
func Golden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("golden file %s missing (run go test with -update to create it): %v", path, err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("output differs from %s (run go test with -update to accept):\n%s", path, diff(string(want), string(got)))
	}
}

// Variant is one rendering the golden tests compare: its options and the suffix of its golden
// files.
type Variant[O any] struct {
	Suffix string
	Opts   O
}

// GoldenVariants runs, for every scenario of All and every variant, a subtest named
// <scenario><suffix> that compares what render writes for them with the golden file of that
// name (Golden). An error of render fails the subtest.
func GoldenVariants[O any](t *testing.T, variants []Variant[O], render func(w io.Writer, sc Scenario, o O) error) {
	t.Helper()
	for _, sc := range All(t) {
		for _, v := range variants {
			t.Run(sc.Name+v.Suffix, func(t *testing.T) {
				Golden(t, sc.Name+v.Suffix, Output(t, func(w io.Writer) error { return render(w, sc, v.Opts) }))
			})
		}
	}
}

// Output returns what render writes; an error of render fails the test.
func Output(tb testing.TB, render func(w io.Writer) error) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Bench benchmarks render writing to a counter, reporting the allocations and the bytes
// written per op.
func Bench(b *testing.B, render func(w io.Writer) error) {
	b.Helper()
	var n int64
	b.ReportAllocs()
	for b.Loop() {
		var c countWriter
		if err := render(&c); err != nil {
			b.Fatal(err)
		}
		n = int64(c)
	}
	b.ReportMetric(float64(n), "bytes/op")
	b.SetBytes(n)
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// diff shows the first differing lines.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			if shown++; shown == 5 {
				b.WriteString("  ...\n")
				break
			}
		}
	}
	return b.String()
}

// Big generates a tree of about spans nodes: one session, runs of 10 turns, each turn of 10
// steps, each step with one model call and two overlapping tool calls (one in 50 failing).
func Big(spans int) *model.Tree {
	const perStep, perTurn, perRun = 3 + 1, 10, 10
	steps := spans / perStep
	var x b
	s := "sess-big"
	x.session(0, s)
	ms := 0
	n := 0
	for r := 0; n < steps; r++ {
		i := ids{s: s, r: fmt.Sprintf("run-%05d", r)}
		x.runStart(ms, i, "bench-agent", nil)
		for t := 0; t < perRun && n < steps; t++ {
			i.t = fmt.Sprintf("%s-turn-%02d", i.r, t)
			x.turnStart(ms, i)
			for k := 0; k < perTurn && n < steps; k++ {
				n++
				i.st = fmt.Sprintf("%s-step-%02d", i.t, k)
				ms++
				x.stepStart(ms, i)
				x.model(ms, ms+3, i, i.st+"-m", "gpt-4.1", 1000, 100, 0.001, model.OutcomeOK, nil)
				x.toolStart(ms+4, i, i.st+"-a", "search")
				x.toolStart(ms+5, i, i.st+"-b", "read_file")
				o, e := model.OutcomeOK, (*model.ErrorInfo)(nil)
				if n%50 == 0 {
					o, e = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: "file not found"}
				}
				x.toolEnd(ms+8, i, i.st+"-a", "search", model.OutcomeOK, nil)
				x.toolEnd(ms+9, i, i.st+"-b", "read_file", o, e)
				ms += 10
				x.stepEnd(ms, i, model.OutcomeOK, nil)
			}
			ms++
			x.turnEnd(ms, i, model.OutcomeOK, model.StopGoalReached, nil)
		}
		ms++
		x.runEnd(ms, i, model.StatusCompleted, model.StopGoalReached, nil)
	}
	return model.Project(x.evs)
}
