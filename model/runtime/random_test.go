package runtime

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

var (
	randomSeed  = flag.Uint64("random.seed", 0, "TestRandomized: run only this seed")
	randomSeeds = flag.Int("random.n", 200, "TestRandomized: number of seeds (a tenth with -short)")
)

// world is one seed's randomized environment: an agent whose model decides at random (from the
// seed and the context, so that a call repeated after a crash decides alike) and, from inside its
// calls, steers, follows up and cancels at three layers; tools that fail, fail fatally, have side
// effects with and without probes, need approval or ignore cancellation.
type world struct {
	seed    uint64
	effects *Ledger // side effects of tools with a probe
	blind   *Ledger // side effects of tools without one
	cur     atomic.Pointer[Runtime]
	hooked  sync.Map
	agent   *Agent
	// midCrashes is how many times a side-effecting tool crashes the process right after its
	// effect, before its result can be recorded.
	midCrashes atomic.Int64
	// noInput records a model call whose context did not start with the run's input.
	noInput atomic.Pointer[string]
}

// randomInput is the input of every seed's run.
const randomInput = "do the task"

func (w *world) rnd(parts ...any) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return rand.New(rand.NewPCG(w.seed, h.Sum64()))
}

func newWorld(seed uint64) *world {
	w := &world{seed: seed, effects: NewLedger(), blind: NewLedger()}
	r := w.rnd("limits")
	lim := Limits{MaxSteps: 3 + r.IntN(8), MaxTurns: 2 + r.IntN(3), ModelAttempts: 2 + r.IntN(2),
		RetryBackoff: time.Millisecond, CancelGrace: time.Duration(1+r.IntN(5)) * time.Millisecond}
	if r.IntN(3) == 0 {
		w.midCrashes.Store(1)
	}
	if r.IntN(5) == 0 {
		lim.Timeout = time.Duration(30+r.IntN(60)) * time.Millisecond
	}
	if r.IntN(5) == 0 {
		lim.TokenBudget = int64(300 + r.IntN(900))
	}
	if r.IntN(5) == 0 {
		lim.ModelCallTimeout = 4 * time.Millisecond
	}
	sleepy := func(name string, call Call) time.Duration {
		return time.Duration(w.rnd("tool", name, call.IdempotencyKey).IntN(3)) * time.Millisecond
	}
	effect := func(name string, l *Ledger, probe, approval bool) *FuncTool {
		t := &FuncTool{ToolName: name, Effect: true, NeedsApproval: approval, Fn: func(ctx context.Context, call Call) (string, error) {
			if err := Sleep(ctx, sleepy(name, call)); err != nil {
				return "", err
			}
			l.Do(call.IdempotencyKey, name+" done")
			if w.midCrashes.Add(-1) >= 0 {
				if rt := w.cur.Load(); rt != nil {
					rt.Crash()
				}
				return "", context.Canceled
			}
			return name + " done", Sleep(ctx, sleepy(name+"2", call))
		}}
		if probe {
			t.ProbeFn = func(ctx context.Context, call Call) (string, bool, error) {
				r, ok := l.Done(call.IdempotencyKey)
				return r, ok, nil
			}
		}
		return t
	}
	tools := []Tool{
		&FuncTool{ToolName: "pure", Fn: func(ctx context.Context, call Call) (string, error) { return "ok", Sleep(ctx, sleepy("pure", call)) }},
		&FuncTool{ToolName: "flaky", Fn: func(ctx context.Context, call Call) (string, error) {
			if err := Sleep(ctx, sleepy("flaky", call)); err != nil {
				return "", err
			}
			if w.rnd("flaky", call.IdempotencyKey).IntN(2) == 0 {
				return "", errors.New("flaky failure")
			}
			return "ok", nil
		}},
		&FuncTool{ToolName: "fatal", Fn: func(ctx context.Context, call Call) (string, error) {
			return "", Fatal(errors.New("unrecoverable"))
		}},
		&FuncTool{ToolName: "stubborn", Fn: func(ctx context.Context, call Call) (string, error) {
			// Ignores cancellation (keeps the clock: a logical 6 ms): abandoned after the grace.
			Sleep(context.WithoutCancel(ctx), 6*time.Millisecond)
			return "late", nil
		}},
		effect("effect", w.effects, true, false),
		effect("approve", w.effects, true, true),
		effect("blind", w.blind, false, false),
	}
	weights := []int{6, 3, 1, 1, 3, 2, 2}
	m := ModelFunc{ModelName: "random-llm", Fn: func(ctx context.Context, req Request) (Decision, error) {
		r := w.rnd("model", req.StepID, len(req.Messages), req.Attempt)
		if len(req.Messages) == 0 || req.Messages[0].Role != "user" || req.Messages[0].Text != randomInput {
			msg := fmt.Sprintf("model call of step %s without the run's input: %+v", req.StepID, req.Messages)
			w.noInput.CompareAndSwap(nil, &msg)
		}
		if rt := w.cur.Load(); rt != nil {
			if h := rt.Run(req.RunID); h != nil {
				switch p := r.Float64(); {
				case p < 0.06:
					h.Steer("steer")
				case p < 0.10:
					h.FollowUp("follow up")
				case p < 0.13:
					h.CancelModelCall()
				case p < 0.15:
					h.CancelTurn()
				case p < 0.16:
					h.Cancel()
				}
			}
		}
		delay := time.Duration(r.IntN(3)) * time.Millisecond
		if r.IntN(10) == 0 {
			delay = 8 * time.Millisecond
		}
		if err := Sleep(ctx, delay); err != nil {
			return Decision{}, err
		}
		u := model.Usage{InputTokens: int64(50 + r.IntN(100)), OutputTokens: 10}
		switch q := r.Float64(); {
		case q < 0.10:
			return Decision{}, errors.New("503 provider hiccup")
		case q < 0.11:
			return Decision{}, Permanent(errors.New("400 bad request"))
		case q > 0.75 || len(req.Messages) > 14:
			return Decision{Text: "done", Usage: u}, nil
		}
		var d Decision
		if r.IntN(3) == 0 {
			d.Text = "working"
		}
		for k := 1 + r.IntN(3); k > 0; k-- {
			n := r.IntN(19)
			i := 0
			for n >= weights[i] {
				n -= weights[i]
				i++
			}
			d.ToolCalls = append(d.ToolCalls, ToolCall{Name: tools[i].Name(), Args: map[string]any{"k": k}})
		}
		d.Usage = u
		return d, nil
	}}
	w.agent = &Agent{Name: "random", Version: fmt.Sprint(seed), Model: m, Tools: tools, Limits: lim}
	if r.IntN(10) == 0 {
		w.agent.Success = func(context.Context, Result) error { return errors.New("acceptance test failed") }
	}
	if r.IntN(3) == 0 {
		w.agent.OnStopping = func(ctx context.Context, runID, turnID string) ([]string, error) {
			if _, again := w.hooked.LoadOrStore(turnID, true); again {
				return nil, nil
			}
			return []string{"hook: one more check"}, nil
		}
	}
	return w
}

// drive plays the client of one process lifetime: it approves or denies pending approvals and
// answers a run waiting for input, until the run ends or the runtime crashes.
func (w *world) drive(ctx context.Context, rt *Runtime, h *RunHandle, r *rand.Rand) error {
	for {
		err := h.WaitFor(ctx, func(res Result) bool { return res.Status == model.StatusWaiting || res.Status.Terminal() })
		if rt.Crashed() {
			return nil
		}
		if err != nil {
			if res := h.Result(); res.Status.Terminal() {
				return nil
			}
			return err
		}
		res := h.Result()
		if res.Status.Terminal() {
			return nil
		}
		seen := res.Transitions
		pend := h.PendingApprovals()
		switch {
		case len(pend) > 0:
			for _, id := range pend {
				if r.IntN(10) < 7 {
					h.Approve(id)
				} else {
					h.Deny(id)
				}
			}
		case r.IntN(5) == 0:
			h.Cancel()
		default:
			h.FollowUp("please continue")
		}
		if err := h.WaitFor(ctx, func(res Result) bool { return res.Transitions > seen }); err != nil && !rt.Crashed() {
			if res := h.Result(); !res.Status.Terminal() {
				return err
			}
		}
	}
}

// coverage counts what the seeds exercised, to show the randomized test reaches the features.
type coverage map[string]int

func (c coverage) add(events []model.Event, crashes int) {
	c["crashes"] += crashes
	for _, ev := range events {
		switch ev.Type {
		case model.RunEnd:
			c["run "+string(ev.Status)+" "+string(ev.StopReason)]++
		case model.ToolEnd:
			c["tool "+string(ev.Outcome)]++
			if ev.Attrs[attrRecovery] != nil {
				c["tool recovered: "+fmt.Sprint(ev.Attrs[attrRecovery])]++
			}
		case model.ModelEnd:
			if ev.Error != nil {
				c["model error "+ev.Error.Kind]++
			}
		case model.TurnEnd:
			c["turn "+string(ev.StopReason)]++
		case model.InputSteer, model.InputFollowUp, model.ApprovalResolve, model.RunResumed, model.TurnStopping:
			c[string(ev.Type)+" "+string(ev.Decision)]++
		case model.StepStart:
			if len(ev.Consumes) > 0 {
				c["step consumes steer"]++
			}
		case model.TurnStart:
			if len(ev.Consumes) > 0 {
				c["turn consumes follow-up"]++
			}
		}
	}
}

// runSeed plays one seed and returns the first problem found.
func runSeed(seed uint64, dir string, cov coverage) (err error) {
	w := newWorld(seed)
	r := w.rnd("driver")
	path := filepath.Join(dir, fmt.Sprintf("seed-%d.jsonl", seed))
	// Logical time: timeouts, grace periods and delays race the same way on any machine.
	clock, ids := NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), SeqIDs()
	ctx := context.Background() // no wall-clock deadline: go test's -timeout guards against a hang
	crashes := r.IntN(4)
	nCrashed := 0
	defer func() {
		if events, _, err := ReadLog(path); err == nil {
			cov.add(events, nCrashed)
		}
	}()
	var rt *Runtime
	var prev []model.Event
	for life := 0; ; life++ {
		crashAt := 0
		if crashes > 0 {
			crashAt = 1 + r.IntN(50)
		}
		var n atomic.Int64
		rt, err = Open(Options{Path: path, Agents: []*Agent{w.agent}, Clock: clock, IDs: ids, NoSync: true,
			CrashAt: func(model.Event) bool { return crashAt > 0 && n.Add(1) == int64(crashAt) }})
		if err != nil {
			return fmt.Errorf("lifetime %d: open: %w", life, err)
		}
		if got := rt.Events(); len(got) < len(prev) || len(prev) > 0 && !reflect.DeepEqual(got[:len(prev)], prev) {
			return fmt.Errorf("lifetime %d: the log lost or changed earlier events", life)
		}
		w.cur.Store(rt)
		var hs []*RunHandle
		if life == 0 {
			h, err := rt.Start(w.agent, RunSpec{Input: randomInput})
			if err != nil && !rt.Crashed() {
				return fmt.Errorf("start: %w", err)
			}
			if h != nil {
				hs = append(hs, h)
			}
		} else if !rt.Crashed() {
			if hs, err = rt.Resume(); err != nil && !rt.Crashed() {
				return fmt.Errorf("lifetime %d: resume: %w", life, err)
			}
		}
		for _, h := range hs {
			if err := w.drive(ctx, rt, h, r); err != nil {
				return fmt.Errorf("lifetime %d: drive: %w", life, err)
			}
			if _, err := h.Wait(ctx); err != nil && !rt.Crashed() {
				return fmt.Errorf("lifetime %d: run %s: %w", life, h.ID(), err)
			}
		}
		crashed := rt.Crashed()
		if !crashed {
			if err := rt.EndSession(); err != nil {
				return fmt.Errorf("lifetime %d: %w", life, err)
			}
		}
		rt.Close()
		rt.inflight.Wait()
		prev = rt.Events()
		if !crashed {
			break
		}
		crashes--
		nCrashed++
	}
	events, rec, err := ReadLog(path)
	if err != nil {
		return fmt.Errorf("read back: %w", err)
	}
	if rec.TornBytes != 0 {
		return fmt.Errorf("torn tail in a finished log: %v", rec)
	}
	if !reflect.DeepEqual(events, prev) {
		return errors.New("replay: events read back differ from the runtime's")
	}
	var problems []string
	for _, f := range cleanFindings(events) {
		problems = append(problems, f.String())
	}
	if len(problems) > 0 {
		return fmt.Errorf("invariants:\n  %s", strings.Join(problems, "\n  "))
	}
	tree, again := project(events), project(prev)
	if !reflect.DeepEqual(tree, again) {
		return errors.New("replay: trees differ")
	}
	if len(tree.Notes) > 0 {
		return fmt.Errorf("projection notes: %v", tree.Notes)
	}
	for _, run := range tree.Sessions[0].Runs {
		if !run.Ended || !run.Status.Terminal() {
			return fmt.Errorf("run %s did not end (status %s)", run.ID, run.Status)
		}
	}
	if msg := w.noInput.Load(); msg != nil {
		return errors.New(*msg)
	}
	if key, n := w.effects.MaxApplied(); n > 1 {
		return fmt.Errorf("side effect %s applied %d times", key, n)
	}
	if key, n := w.blind.MaxApplied(); n > 1 {
		return fmt.Errorf("side effect %s (no probe) applied %d times", key, n)
	}
	var bad error
	tree.Walk(func(node any, _ int) bool {
		c, ok := node.(*model.ToolCall)
		if !ok || bad != nil {
			return true
		}
		switch {
		case (c.Name == "effect" || c.Name == "approve") && c.Outcome == model.OutcomeOK && w.effects.Applied(c.IdempotencyKey) != 1:
			bad = fmt.Errorf("tool call %s reported ok but its effect was applied %d times", c.ID, w.effects.Applied(c.IdempotencyKey))
		case c.Outcome == model.OutcomeUnknown && c.Error != nil && c.Error.Kind == "crash" && c.Name != "blind":
			bad = fmt.Errorf("tool call %s (%s) interrupted by a crash left unknown though it has a probe or no side effect", c.ID, c.Name)
		case c.Outcome == model.OutcomeUnknown && c.Name == "pure":
			bad = fmt.Errorf("tool call %s (pure) left unknown", c.ID)
		}
		return true
	})
	return bad
}

// TestRandomized drives the runtime with random decisions, tool failures, delays, steering,
// follow-ups, approvals, cancellations at three layers and crashes, and checks every invariant,
// exact replay, and that no side effect ever happens twice. A failure names its seed; rerun it
// with: go test -race -run TestRandomized ./model/runtime/ -args -random.seed=N
func TestRandomized(t *testing.T) {
	n := *randomSeeds
	if testing.Short() {
		n = max(n/10, 1)
	}
	seeds := make([]uint64, 0, n)
	if *randomSeed != 0 {
		seeds = append(seeds, *randomSeed)
	} else {
		for i := 1; i <= n; i++ {
			seeds = append(seeds, uint64(i))
		}
	}
	dir := t.TempDir()
	var mu sync.Mutex
	failed := 0
	total := coverage{}
	work := make(chan uint64)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range work {
				cov := coverage{}
				err := runSeed(seed, dir, cov)
				mu.Lock()
				for k, v := range cov {
					total[k] += v
				}
				mu.Unlock()
				if err == nil {
					os.Remove(filepath.Join(dir, fmt.Sprintf("seed-%d.jsonl", seed)))
					continue
				}
				mu.Lock()
				failed++
				if failed <= 3 {
					data, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("seed-%d.jsonl", seed)))
					t.Errorf("seed %d (rerun: go test -race -run TestRandomized ./model/runtime/ -args -random.seed=%d): %v\nlog:\n%s", seed, seed, err, data)
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range seeds {
		work <- s
	}
	close(work)
	wg.Wait()
	if failed > 0 {
		t.Errorf("%d of %d seeds failed", failed, len(seeds))
	}
	keys := make([]string, 0, len(total))
	for k := range total {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%6d  %s", total[k], k)
	}
	if len(seeds) < 100 {
		return
	}
	for _, must := range []string{"crashes", "run/resumed ", "tool unknown", "tool cancelled", "tool error",
		"tool recovered: probe: effect already done; not re-executed", "approval/resolve approved", "approval/resolve denied",
		"step consumes steer", "turn consumes follow-up", "model error provider", "model error cancelled",
		"run completed goal_reached", "run cancelled cancelled", "run failed tool_error", "run failed max_steps",
		"turn awaiting_approval", "input/steer "} {
		if total[must] == 0 {
			t.Errorf("no seed exercised %q", must)
		}
	}
}
