package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/lifeline-dev/lifeline/model"
)

// runExec is the process-local part of a run: its loop goroutine, contexts, cancel handles and
// signals. Everything durable is in runState (rebuilt from the log); all fields are guarded by
// rt.mu except the ones the loop goroutine alone touches.
type runExec struct {
	rt     *Runtime
	run    *runState
	agent  *Agent
	lim    Limits
	handle *RunHandle
	done   chan struct{}
	wake   chan struct{}
	err    error

	ctx    context.Context // the run's context: cancelled by Cancel, timeout or a crash
	cancel context.CancelFunc

	turnID     string
	turnCtx    context.Context
	turnCancel context.CancelFunc

	modelCancel    context.CancelFunc
	modelCancelled bool
	turnCancelReq  string

	sig    model.StopReason // in-memory run-ending signal (cancel, timeout, hook error)
	sigErr *model.ErrorInfo

	hookDone string
	success  *successResult
	timer    Timer // the run's deadline, on the runtime's clock
}

type successResult struct {
	turn string
	err  error
}

func (rt *Runtime) newExec(r *runState) *runExec {
	e := &runExec{rt: rt, run: r, agent: r.agent, lim: r.agent.Limits.withDefaults(),
		done: make(chan struct{}), wake: make(chan struct{}, 1)}
	e.ctx, e.cancel = context.WithCancel(rt.root)
	e.handle = &RunHandle{e: e}
	rt.execs[r.id] = e
	return e
}

func (rt *Runtime) launch(e *runExec) {
	rt.wg.Add(1)
	go e.loop()
}

func (e *runExec) wakeUp() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

func (e *runExec) ended() bool {
	e.rt.mu.Lock()
	defer e.rt.mu.Unlock()
	return e.run.ended
}

// signal records a run-ending cause that comes from outside the log (cancel, timeout) and
// cancels everything in flight. Call with rt.mu held.
func (e *runExec) signal(reason model.StopReason, err *model.ErrorInfo) {
	if best := model.Highest(e.sig, reason); best != e.sig {
		e.sig, e.sigErr = best, err
	}
	e.cancel()
	e.wakeUp()
}

// cause resolves the durable cause and the signalled one by priority.
func (e *runExec) cause() (model.StopReason, *model.ErrorInfo) {
	c := model.Highest(e.run.cause, e.sig)
	if c == "" {
		return "", nil
	}
	if c == e.sig && e.sigErr != nil {
		return c, e.sigErr
	}
	return c, e.run.causeErr
}

// write appends a run event. Call with rt.mu held.
func (e *runExec) write(ev *model.Event) error {
	ev.RunID = e.run.id
	_, err := e.rt.append(ev)
	return err
}

func (e *runExec) loop() {
	defer e.rt.wg.Done()
	defer close(e.done)
	defer e.cancel()
	defer func() {
		e.rt.mu.Lock()
		if e.timer != nil {
			e.timer.Stop()
		}
		if e.turnCancel != nil {
			e.turnCancel()
		}
		e.rt.mu.Unlock()
	}()
	for {
		e.rt.mu.Lock()
		before := len(e.rt.events)
		act, done, err := e.next()
		progressed := len(e.rt.events) != before
		if err != nil && !errors.Is(err, ErrCrashed) {
			err = fmt.Errorf("run %s: %w", e.run.id, err)
		}
		e.err = err
		if act == nil && !done && err == nil && !progressed {
			e.err = fmt.Errorf("run %s: runtime made no progress (status %s)", e.run.id, e.run.status)
			done = true
		}
		e.rt.mu.Unlock()
		if err != nil || done {
			return
		}
		if act != nil {
			act()
		}
	}
}

func outcomeFor(cause model.StopReason) model.Outcome {
	if cause == model.StopCancelled || cause == model.StopTimeout {
		return model.OutcomeCancelled
	}
	return model.OutcomeError
}

var causeNames = map[model.StopReason]string{
	model.StopCancelled: "cancel", model.StopTimeout: "timeout", model.StopToolError: string(model.ToolEnd),
	model.StopModelError: string(model.ModelEnd), model.StopBudgetExceeded: "budget", model.StopMaxSteps: "max_steps",
	model.StopMaxTurns: "max_turns", model.StopGoalReached: "success_check", model.StopError: "error",
}

// next decides, from the durable state and the signals, what the run does now. It either writes
// the events of an instant transition, or returns an action to perform outside the lock (a model
// call, tool calls, a hook, a wait), or reports that the loop is done. Call with rt.mu held.
func (e *runExec) next() (func(), bool, error) {
	rt, r := e.rt, e.run
	if rt.crashed {
		return nil, true, ErrCrashed
	}
	if r.ended {
		return nil, true, nil
	}
	if e.lim.Timeout > 0 && !r.startTS.IsZero() {
		deadline := r.startTS.Add(e.lim.Timeout)
		if !rt.clock.Now().Before(deadline) {
			e.signal(model.StopTimeout, &model.ErrorInfo{Kind: "timeout", Message: fmt.Sprintf("run timed out after %s", e.lim.Timeout)})
		} else if e.timer == nil {
			e.timer = rt.clock.AfterFunc(deadline.Sub(rt.clock.Now()), func() {
				rt.mu.Lock()
				defer rt.mu.Unlock()
				if !r.ended {
					e.signal(model.StopTimeout, &model.ErrorInfo{Kind: "timeout", Message: fmt.Sprintf("run timed out after %s", e.lim.Timeout)})
				}
			})
		}
	}
	if r.hasInput && !r.inputRecorded {
		// A crash after run/queued, before the user message: the input is durable in
		// run/queued; record the message it stands for before anything reads the context.
		ev := inputMessage(r.id, r.input)
		ev.Attrs = map[string]any{attrRecovery: "restored from run/queued after restart"}
		return nil, false, e.write(ev)
	}
	cause, cerr := e.cause()
	if r.status == model.StatusQueued {
		if cause != "" {
			return e.endRun(cause, cerr)
		}
		return nil, false, e.write(&model.Event{Type: model.RunStart, ParentRunID: r.parent, Attempt: r.attempt,
			Kind: r.kind, Name: r.agentName, AgentVersion: r.version})
	}
	t := r.turn
	if cause == "" && !r.hasInput {
		// A run whose input never reached the log (a log written before run/queued carried the
		// input, cut by a crash): it cannot execute, and must not complete as if it had.
		cause, cerr = model.StopError, &model.ErrorInfo{Kind: "input", Message: "the run's input was never recorded (the process stopped between run/queued and the user message); not executed"}
	}
	if cause != "" {
		if t != nil {
			return e.closeTurn(t, cause, cerr, "")
		}
		return e.endRun(cause, cerr)
	}
	if t != nil && (e.turnCancelReq == t.id || t.cancelling) {
		return e.closeTurn(t, model.StopCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "turn cancelled"}, "turn")
	}
	if r.status == model.StatusWaiting {
		switch {
		case r.wait == model.WaitApproval && len(r.pendingApprovals()) == 0:
			return nil, false, e.write(&model.Event{Type: model.RunStatusChange, Status: model.StatusRunning, Cause: string(model.ApprovalResolve)})
		case r.wait != model.WaitApproval && r.hasPendingInput():
			return nil, false, e.write(&model.Event{Type: model.RunStatusChange, Status: model.StatusRunning, Cause: "input"})
		}
		return e.waitAction(), false, nil
	}
	if t == nil {
		return e.betweenTurns()
	}
	if st := t.step; st != nil {
		return e.inStep(t, st)
	}
	return e.betweenSteps(t)
}

// endRun writes run/end for a run-ending cause.
func (e *runExec) endRun(cause model.StopReason, cerr *model.ErrorInfo) (func(), bool, error) {
	// One write per terminal status, so that each status has its own code site (attrs.code.site).
	if cause == model.StopCancelled {
		return nil, true, e.write(&model.Event{Type: model.RunEnd, Status: model.StatusCancelled, StopReason: cause, Error: cerr, Cause: causeNames[cause]})
	}
	return nil, true, e.write(&model.Event{Type: model.RunEnd, Status: model.StatusFailed, StopReason: cause, Error: cerr, Cause: causeNames[cause]})
}

// closeTurn ends the open step (reconciling calls a crash left open) and then the turn, for a
// run-ending cause (scope "") or a turn cancellation (scope "turn").
func (e *runExec) closeTurn(t *turnState, cause model.StopReason, cerr *model.ErrorInfo, scope string) (func(), bool, error) {
	attrs := map[string]any{}
	if scope != "" {
		attrs[attrScope] = scope
	}
	if st := t.step; st != nil {
		if st.modelOpen != "" {
			return nil, false, e.closeOrphanModel(t, st)
		}
		var orphans []*callState
		for _, id := range e.stepCalls(st) {
			if c := e.run.calls[id]; c.started && !c.ended {
				orphans = append(orphans, c)
			}
		}
		if len(orphans) > 0 {
			return e.toolsAction(t, st, nil, orphans, true), false, nil
		}
		attrs[attrStopReason] = string(cause)
		return nil, false, e.write(&model.Event{Type: model.StepEnd, TurnID: t.id, StepID: st.id, Outcome: outcomeFor(cause), Error: cerr, Attrs: attrs})
	}
	if scope == "turn" {
		e.turnCancelReq = ""
	}
	if len(attrs) == 0 {
		attrs = nil
	}
	return nil, false, e.write(&model.Event{Type: model.TurnEnd, TurnID: t.id, Outcome: outcomeFor(cause), StopReason: cause, Error: cerr, Attrs: attrs})
}

// stepCalls are the tool calls a step executes (its decision's, or the approved ones it carries).
func (e *runExec) stepCalls(st *stepState) []string {
	var out []string
	for _, id := range st.toRun() {
		if e.run.calls[id] != nil {
			out = append(out, id)
		}
	}
	return out
}

// closeOrphanModel ends a model call a process stop interrupted. A crash is not a provider
// error: the call ends cancelled with attrs.interrupted, and the reducer does not count it
// against the step's model attempts (the step re-issues the same attempt, without backoff).
func (e *runExec) closeOrphanModel(t *turnState, st *stepState) error {
	return e.write(&model.Event{Type: model.ModelEnd, TurnID: t.id, StepID: st.id, CallID: st.modelOpen, Name: e.agent.Model.Name(),
		Outcome: model.OutcomeCancelled, Error: &model.ErrorInfo{Kind: "crash", Message: "interrupted: the process stopped during the model call (not a provider error; not counted as an attempt)", Retryable: true},
		Attrs: map[string]any{attrRecovery: "interrupted; closed after restart", attrInterrupted: true}})
}

func (e *runExec) betweenTurns() (func(), bool, error) {
	r := e.run
	lt := r.lastTurn
	if lt == nil || r.hasPendingInput() || len(r.approvedWaiting()) > 0 || lt.stop == model.StopAwaitingApproval {
		if r.turns >= e.lim.MaxTurns {
			return e.endRun(model.StopMaxTurns, &model.ErrorInfo{Kind: "limit", Message: fmt.Sprintf("max turns (%d) reached", e.lim.MaxTurns)})
		}
		var consumes []string
		for _, in := range r.pending(model.InputFollowUp) {
			consumes = append(consumes, in.id)
		}
		return nil, false, e.write(&model.Event{Type: model.TurnStart, TurnID: e.rt.newID("turn"), Consumes: consumes})
	}
	switch {
	case lt.scope == "turn":
		return nil, false, e.write(&model.Event{Type: model.RunStatusChange, Status: model.StatusWaiting, WaitReason: model.WaitUserInput, Cause: string(model.TurnEnd)})
	case lt.stop == model.StopGoalReached:
		if e.success == nil || e.success.turn != lt.id {
			return e.successAction(lt.id), false, nil
		}
		if err := e.success.err; err != nil {
			return e.endRun(model.StopError, &model.ErrorInfo{Kind: "success_check", Message: err.Error()})
		}
		err := e.write(&model.Event{Type: model.RunEnd, Status: model.StatusCompleted, StopReason: model.StopGoalReached, Cause: causeNames[model.StopGoalReached]})
		return nil, true, err
	}
	return e.endRun(model.StopError, &model.ErrorInfo{Kind: "runtime", Message: fmt.Sprintf("turn %s ended with %s and nothing decides the run", lt.id, lt.stop)})
}

func (e *runExec) inStep(t *turnState, st *stepState) (func(), bool, error) {
	r := e.run
	if !st.decided && len(st.executes) == 0 {
		if st.modelOpen != "" {
			return nil, false, e.closeOrphanModel(t, st)
		}
		if st.giveUp || st.attempts >= e.lim.ModelAttempts {
			msg := fmt.Sprintf("model failed %d time(s)", st.attempts)
			if st.lastErr != nil {
				msg += ": " + st.lastErr.String()
			}
			return nil, false, e.write(&model.Event{Type: model.StepEnd, TurnID: t.id, StepID: st.id, Outcome: model.OutcomeError,
				Error: &model.ErrorInfo{Kind: "model", Message: msg}, Attrs: map[string]any{attrStopReason: string(model.StopModelError)}})
		}
		return e.modelAction(t, st), false, nil
	}
	var fresh, orphans []*callState
	for _, id := range e.stepCalls(st) {
		c := r.calls[id]
		switch {
		case !c.started:
			fresh = append(fresh, c)
		case !c.ended:
			orphans = append(orphans, c)
		}
	}
	if len(fresh)+len(orphans) > 0 {
		return e.toolsAction(t, st, fresh, orphans, false), false, nil
	}
	return nil, false, e.write(&model.Event{Type: model.StepEnd, TurnID: t.id, StepID: st.id, Outcome: model.OutcomeOK})
}

func (e *runExec) betweenSteps(t *turnState) (func(), bool, error) {
	r := e.run
	steers := r.pending(model.InputSteer)
	approved := r.approvedWaiting()
	if t.last == nil || len(steers) > 0 || len(approved) > 0 || len(e.stepCalls(t.last)) > 0 {
		if r.steps >= e.lim.MaxSteps {
			return nil, false, e.write(&model.Event{Type: model.TurnEnd, TurnID: t.id, Outcome: model.OutcomeError, StopReason: model.StopMaxSteps,
				Error: &model.ErrorInfo{Kind: "limit", Message: fmt.Sprintf("max steps (%d) reached", e.lim.MaxSteps)}})
		}
		ev := &model.Event{Type: model.StepStart, TurnID: t.id, StepID: e.rt.newID("step")}
		for _, in := range steers {
			ev.Consumes = append(ev.Consumes, in.id)
		}
		if len(approved) > 0 {
			ev.Attrs = map[string]any{attrExecutes: approved}
		}
		return nil, false, e.write(ev)
	}
	if pend := r.pendingApprovals(); len(pend) > 0 {
		for _, c := range pend {
			if !c.requested {
				if err := e.write(&model.Event{Type: model.ApprovalRequest, CallID: c.req.ID, Name: c.req.Name,
					Attrs: map[string]any{attrArgs: c.req.Args}}); err != nil {
					return nil, false, err
				}
			}
		}
		if err := e.write(&model.Event{Type: model.RunStatusChange, Status: model.StatusWaiting, WaitReason: model.WaitApproval,
			StopReason: model.StopAwaitingApproval, CallID: pend[0].req.ID, Cause: string(model.ApprovalRequest)}); err != nil {
			return nil, false, err
		}
		return nil, false, e.write(&model.Event{Type: model.TurnEnd, TurnID: t.id, Outcome: model.OutcomeOK, StopReason: model.StopAwaitingApproval})
	}
	if !t.stopping {
		return nil, false, e.write(&model.Event{Type: model.TurnStopping, TurnID: t.id})
	}
	if e.agent.OnStopping != nil && e.hookDone != hookKey(t) {
		return e.hookAction(t), false, nil
	}
	return nil, false, e.write(&model.Event{Type: model.TurnEnd, TurnID: t.id, Outcome: model.OutcomeOK, StopReason: model.StopGoalReached})
}

func hookKey(t *turnState) string { return fmt.Sprintf("%s/%d", t.id, t.steps) }

// turnContext returns the context of turn t (a child of the run's), made on first use.
func (e *runExec) turnContext(t *turnState) context.Context {
	if e.turnID != t.id {
		if e.turnCancel != nil {
			e.turnCancel()
		}
		e.turnCtx, e.turnCancel = context.WithCancel(e.ctx)
		e.turnID = t.id
	}
	return e.turnCtx
}

// still reports whether the loop may go on with step st of turn t after the lock was released.
func (e *runExec) still(t *turnState, st *stepState) bool {
	c, _ := e.cause()
	return !e.rt.crashed && c == "" && e.run.turn == t && t.step == st && e.turnCancelReq != t.id
}

func (e *runExec) waitAction() func() {
	return func() {
		select {
		case <-e.wake:
		case <-e.ctx.Done():
		}
	}
}

func (e *runExec) successAction(turnID string) func() {
	res := e.run.result()
	check := e.agent.Success
	ctx := e.ctx
	return func() {
		var err error
		if check != nil {
			_, err = guard(ctx, &e.rt.inflight, func(ctx context.Context) (struct{}, error) { return struct{}{}, check(ctx, res) })
		}
		e.rt.mu.Lock()
		e.success = &successResult{turn: turnID, err: err}
		e.rt.mu.Unlock()
	}
}

func (e *runExec) hookAction(t *turnState) func() {
	ctx := e.turnContext(t)
	key, runID, turnID, hook := hookKey(t), e.run.id, t.id, e.agent.OnStopping
	return func() {
		texts, err := guard(ctx, &e.rt.inflight, func(ctx context.Context) ([]string, error) { return hook(ctx, runID, turnID) })
		rt := e.rt
		rt.mu.Lock()
		defer rt.mu.Unlock()
		e.hookDone = key
		if rt.crashed || ctx.Err() != nil {
			return
		}
		if err != nil {
			e.signal(model.StopError, &model.ErrorInfo{Kind: "hook", Message: "turn-stopping hook: " + err.Error()})
			return
		}
		for _, text := range texts {
			if err := e.write(&model.Event{Type: model.InputSteer, InputID: rt.newID("input"), Text: text,
				Attrs: map[string]any{attrHook: true}}); err != nil {
				return
			}
		}
	}
}

// guard runs fn (user code) with ctx, returning early when ctx is done (fn is then abandoned:
// its late result is dropped) and turning a panic into an error wrapping errPanic. The call is
// an activity of the clock (see VirtualClock) until guard returns, unless ctx already carries
// one that the caller ends.
func guard[T any](ctx context.Context, wg *sync.WaitGroup, fn func(ctx context.Context) (T, error)) (T, error) {
	type out struct {
		v   T
		err error
	}
	if ctx.Value(activityKey{}) == nil {
		var end func()
		ctx, end = beginActivity(ctx)
		defer end()
	}
	ch := make(chan out, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if p := recover(); p != nil {
				ch <- out{err: fmt.Errorf("%w: %v", errPanic, p)}
			}
		}()
		v, err := fn(ctx)
		ch <- out{v, err}
	}()
	select {
	case o := <-ch:
		return o.v, o.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

func (e *runExec) modelAction(t *turnState, st *stepState) func() {
	rt, r := e.rt, e.run
	turnCtx := e.turnContext(t)
	attempt := st.attempts + 1
	return func() {
		if attempt > 1 {
			if Sleep(turnCtx, e.lim.RetryBackoff) != nil { // on the runtime's clock (turnCtx carries it)
				return // cancelled: next() decides
			}
		}
		rt.mu.Lock()
		if !e.still(t, st) {
			rt.mu.Unlock()
			return
		}
		callID := rt.newID("model")
		m := e.agent.Model
		if err := e.write(&model.Event{Type: model.ModelStart, TurnID: t.id, StepID: st.id, CallID: callID, Name: m.Name(),
			Attrs: map[string]any{attrAttempt: attempt}}); err != nil {
			rt.mu.Unlock()
			return
		}
		req := Request{RunID: r.id, StepID: st.id, Attempt: attempt, Messages: append([]Message(nil), r.msgs...), Tools: e.agent.toolNames()}
		ctx, cancel := context.WithCancel(turnCtx)
		if e.lim.ModelCallTimeout > 0 {
			ctx, cancel = withTimeout(turnCtx, rt.clock, e.lim.ModelCallTimeout)
		}
		// The call is an activity until its model/end is written.
		ctx, endActivity := beginActivity(ctx)
		defer endActivity()
		e.modelCancel, e.modelCancelled = cancel, false
		rt.mu.Unlock()

		dec, err := guard(ctx, &e.rt.inflight, func(ctx context.Context) (Decision, error) { return m.Decide(ctx, req) })
		rt.mu.Lock()
		defer rt.mu.Unlock()
		e.modelCancel = nil
		deadline := timedOut(ctx)
		cancel()
		if rt.crashed {
			return
		}
		ev := &model.Event{Type: model.ModelEnd, TurnID: t.id, StepID: st.id, CallID: callID, Name: m.Name()}
		if !dec.Usage.IsZero() && err == nil {
			u := dec.Usage
			ev.Usage = &u
		}
		if err == nil {
			e.recordDecision(ev, &dec)
			if e.write(ev) == nil && dec.Text != "" {
				e.write(&model.Event{Type: model.Message, StepID: st.id, Role: "assistant", Text: dec.Text, Source: model.SourceModel})
			}
			return
		}
		sig, _ := e.cause()
		switch {
		case sig != "":
			ev.Outcome, ev.Error = model.OutcomeCancelled, &model.ErrorInfo{Kind: string(sig), Message: "model call cancelled: run " + string(sig)}
			if sig == model.StopCancelled {
				ev.Error.Kind = "cancelled"
			}
			ev.Attrs = e.cancelAttrs(t)
		case e.turnCancelReq == t.id:
			ev.Outcome, ev.Error = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "model call cancelled: turn cancelled"}
			ev.Attrs = e.cancelAttrs(t)
		case e.modelCancelled:
			ev.Outcome, ev.Error = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "model call cancelled", Retryable: true}
		case deadline:
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "timeout", Message: fmt.Sprintf("model call timed out after %s", e.lim.ModelCallTimeout), Retryable: true}
		case IsPermanent(err):
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: err.Error()}
		default:
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "provider", Message: err.Error(), Retryable: true}
		}
		e.write(ev)
	}
}

// recordDecision gives the decision's tool calls their ids, keys and approval flags and puts
// the decision in the model/end event, from which it is read back.
func (e *runExec) recordDecision(ev *model.Event, dec *Decision) {
	ev.Outcome = model.OutcomeOK
	for i := range dec.ToolCalls {
		c := &dec.ToolCalls[i]
		c.ID = e.rt.newID("tool")
		if c.IdempotencyKey == "" {
			c.IdempotencyKey = c.ID
		}
		if ar, ok := e.agent.tool(c.Name).(ApprovalRequirer); ok && ar.RequiresApproval(*c) {
			c.Approval = true
		}
	}
	ev.Attrs = map[string]any{}
	if dec.Text != "" {
		ev.Attrs[attrText] = dec.Text
	}
	if len(dec.ToolCalls) > 0 {
		ev.Attrs[attrToolCalls] = dec.ToolCalls
	}
}

// A toolJob is one tool call to execute or to reconcile after a crash.
type toolJob struct {
	c       *callState
	tool    Tool
	call    Call
	orphan  bool
	done    chan struct{}
	probing atomic.Bool
}

type toolOut struct {
	result   string
	err      error
	outcome  model.Outcome // set when the job decided the outcome itself (reconciliation)
	errInfo  *model.ErrorInfo
	recovery string
}

// toolsAction starts the fresh calls (tool/start each, in decision order) and reconciles the
// orphans a crash left started without a result, all in parallel; each tool/end is written as
// its call finishes. With ending set, orphans are only confirmed (probe) or closed, never run.
func (e *runExec) toolsAction(t *turnState, st *stepState, fresh, orphans []*callState, ending bool) func() {
	rt, r := e.rt, e.run
	base := e.turnContext(t)
	if ending {
		// Reconciling a run that is ending (cancelled, timed out, failed) only probes or closes
		// calls: that bookkeeping must finish although the run's context is done; only a
		// crash stops it.
		base = rt.root
	}
	var jobs []*toolJob
	mk := func(c *callState, orphan bool) *toolJob {
		return &toolJob{c: c, tool: e.agent.tool(c.req.Name), orphan: orphan, done: make(chan struct{}), call: Call{ID: c.req.ID, Name: c.req.Name, Args: c.req.Args,
			IdempotencyKey: c.req.IdempotencyKey, RunID: r.id, SessionID: rt.session, rt: rt}}
	}
	for _, c := range orphans {
		jobs = append(jobs, mk(c, true))
	}
	for _, c := range fresh {
		jobs = append(jobs, mk(c, false))
	}
	return func() {
		ctx, cancelStep := context.WithCancel(base)
		defer cancelStep()
		fatal := false
		rt.mu.Lock()
		if !ending && !e.still(t, st) {
			rt.mu.Unlock()
			return
		}
		for _, j := range jobs {
			if j.orphan {
				continue
			}
			side := j.tool != nil && j.tool.SideEffect()
			ev := &model.Event{Type: model.ToolStart, TurnID: t.id, StepID: st.id, CallID: j.c.req.ID, Name: j.c.req.Name,
				SideEffect: side}
			if j.c.req.Args != nil {
				ev.Attrs = map[string]any{attrArgs: j.c.req.Args}
			}
			if side {
				ev.IdempotencyKey = j.c.req.IdempotencyKey
			}
			if err := e.write(ev); err != nil {
				rt.mu.Unlock()
				return
			}
		}
		rt.mu.Unlock()

		finished := make(chan *toolJob, len(jobs))
		// Each call is an activity from before any of the goroutines starts until its tool/end
		// is written, so that parallel calls start at the same logical instant.
		jctxs, ends := make([]context.Context, len(jobs)), make([]func(), len(jobs))
		for i := range jobs {
			jctxs[i], ends[i] = beginActivity(ctx)
		}
		for i, j := range jobs {
			jctx, endActivity := jctxs[i], ends[i]
			go func(j *toolJob) {
				defer close(j.done)
				out := e.runJob(jctx, j, ending)
				rt.mu.Lock()
				if e.finishTool(jctx, t, j, out, &fatal) {
					cancelStep()
				}
				rt.mu.Unlock()
				endActivity()
				finished <- j
			}(j)
		}
		left := len(jobs)
		for left > 0 {
			select {
			case <-finished:
				left--
				continue
			case <-ctx.Done():
			}
			break
		}
		if left == 0 {
			return
		}
		// Cancelled: give the calls a grace period to return, then abandon the stragglers. A
		// call whose effect is being probed is waited for (the probe is bounded by ProbeTimeout).
		grace := rt.clock.NewTimer(e.lim.CancelGrace)
		defer grace.Stop()
		for left > 0 {
			select {
			case <-finished:
				left--
				continue
			case <-grace.C():
			}
			break
		}
		rt.mu.Lock()
		var probing []*toolJob
		for _, j := range jobs {
			switch {
			case j.c.ended || rt.crashed:
			case j.probing.Load():
				probing = append(probing, j)
			default:
				e.abandon(t, j)
			}
		}
		rt.mu.Unlock()
		for _, j := range probing {
			<-j.done
		}
	}
}

// runJob executes, re-executes, probes or closes one call (outside the lock).
func (e *runExec) runJob(ctx context.Context, j *toolJob, ending bool) toolOut {
	run := func() (string, error) {
		if j.tool == nil {
			return "", fmt.Errorf("unknown tool %q", j.c.req.Name)
		}
		res, err := guard(ctx, &e.rt.inflight, func(ctx context.Context) (string, error) { return j.tool.Run(ctx, j.call) })
		if err != nil && errors.Is(err, errPanic) {
			err = Fatal(err)
		}
		return res, err
	}
	if !j.orphan {
		res, err := run()
		return toolOut{result: res, err: err}
	}
	crash := func(msg string) *model.ErrorInfo { return &model.ErrorInfo{Kind: "crash", Message: msg} }
	if j.tool == nil || !j.tool.SideEffect() {
		if ending {
			return toolOut{outcome: model.OutcomeCancelled, errInfo: crash("interrupted by a process stop; not re-run because the run is ending"), recovery: "closed"}
		}
		res, err := run()
		return toolOut{result: res, err: err, recovery: "re-executed after restart (no side effect)"}
	}
	p, ok := j.tool.(Prober)
	if !ok {
		return toolOut{outcome: model.OutcomeUnknown, errInfo: crash("side-effecting call interrupted by a process stop; no probe to confirm its effect, not re-executed"), recovery: "unknown"}
	}
	type probed struct {
		res  string
		done bool
	}
	// The probe is recovery bookkeeping: no cancellation of the step, turn or run stops it,
	// only a crash or its own deadline.
	pctx, cancel := withTimeout(e.rt.root, e.rt.clock, e.lim.ProbeTimeout)
	pctx = context.WithValue(pctx, activityKey{}, ctx.Value(activityKey{})) // the call's activity
	j.probing.Store(true)
	pr, err := guard(pctx, &e.rt.inflight, func(pctx context.Context) (probed, error) {
		res, done, err := p.Probe(pctx, j.call)
		return probed{res, done}, err
	})
	j.probing.Store(false)
	cancel()
	res, done := pr.res, pr.done
	switch {
	case done:
		return toolOut{result: res, err: err, recovery: "probe: effect already done; not re-executed"}
	case err != nil:
		return toolOut{outcome: model.OutcomeUnknown, errInfo: crash("side-effecting call interrupted by a process stop; probe failed: " + err.Error()), recovery: "unknown"}
	case ending:
		return toolOut{outcome: model.OutcomeCancelled, errInfo: crash("interrupted by a process stop; probe: not done; not run because the run is ending"), recovery: "probe: not done"}
	}
	res, err = run()
	return toolOut{result: res, err: err, recovery: "probe: not done; executed after restart"}
}

var errPanic = errors.New("panic")

// finishTool writes a call's tool/end. It reports whether the call failed fatally (the step's
// other calls are then cancelled). Call with rt.mu held.
func (e *runExec) finishTool(ctx context.Context, t *turnState, j *toolJob, out toolOut, fatal *bool) bool {
	if e.rt.crashed || j.c.ended {
		return false
	}
	ev := &model.Event{Type: model.ToolEnd, TurnID: t.id, StepID: j.c.execStep, CallID: j.c.req.ID, Name: j.c.req.Name, Attrs: map[string]any{}}
	if out.recovery != "" {
		ev.Attrs[attrRecovery] = out.recovery
	}
	isFatal := false
	switch {
	case out.outcome != "":
		ev.Outcome, ev.Error = out.outcome, out.errInfo
	case out.err == nil:
		ev.Outcome = model.OutcomeOK
		ev.Attrs[attrResult] = out.result
	case ctx.Err() != nil && !IsFatal(out.err):
		ev.Outcome, ev.Error = model.OutcomeCancelled, e.cancelInfo(t, *fatal)
		for k, v := range e.cancelAttrs(t) {
			ev.Attrs[k] = v
		}
	case IsFatal(out.err):
		isFatal = true
		ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: out.err.Error()}
		ev.Attrs[attrFatal] = true
	default:
		ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: out.err.Error()}
	}
	if len(ev.Attrs) == 0 {
		ev.Attrs = nil
	}
	if e.write(ev) != nil {
		return false
	}
	if isFatal {
		*fatal = true
	}
	return isFatal
}

// cancelInfo says why a call was cancelled. Call with rt.mu held.
func (e *runExec) cancelInfo(t *turnState, siblingFatal bool) *model.ErrorInfo {
	sig, _ := e.cause()
	switch {
	case sig == model.StopTimeout:
		return &model.ErrorInfo{Kind: "timeout", Message: "tool call cancelled: run timed out"}
	case sig == model.StopCancelled:
		return &model.ErrorInfo{Kind: "cancelled", Message: "tool call cancelled: run cancelled"}
	case e.turnCancelReq == t.id:
		return &model.ErrorInfo{Kind: "cancelled", Message: "tool call cancelled: turn cancelled"}
	case siblingFatal:
		return &model.ErrorInfo{Kind: "cancelled", Message: "tool call cancelled: another call of the step failed fatally"}
	}
	return &model.ErrorInfo{Kind: "cancelled", Message: "tool call cancelled"}
}

// cancelAttrs records on a cancelled call's end event why it was cancelled (a run-ending cause,
// or the turn's cancellation), so that the cancellation is durable from that event on: a crash
// before the step ends does not forget it. Call with rt.mu held.
func (e *runExec) cancelAttrs(t *turnState) map[string]any {
	if sig, _ := e.cause(); sig == model.StopCancelled || sig == model.StopTimeout {
		return map[string]any{attrStopReason: string(sig)}
	}
	if e.turnCancelReq == t.id {
		return map[string]any{attrStopReason: string(model.StopCancelled), attrScope: "turn"}
	}
	return nil
}

// abandon closes a call whose tool did not return within the cancel grace. Call with rt.mu held.
func (e *runExec) abandon(t *turnState, j *toolJob) {
	ev := &model.Event{Type: model.ToolEnd, TurnID: t.id, StepID: j.c.execStep, CallID: j.c.req.ID, Name: j.c.req.Name,
		Outcome: model.OutcomeCancelled, Error: e.cancelInfo(t, false), Attrs: e.cancelAttrs(t)}
	if j.tool != nil && j.tool.SideEffect() {
		ev.Outcome = model.OutcomeUnknown
		ev.Error = &model.ErrorInfo{Kind: "cancelled", Message: fmt.Sprintf("side-effecting call did not stop within %s of its cancellation; its effect is unknown", e.lim.CancelGrace)}
	}
	e.write(ev)
}

// input records steer or follow-up input for the run.
func (e *runExec) input(kind model.EventType, text string) error {
	rt := e.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.crashed {
		return ErrCrashed
	}
	if e.run.ended {
		return ErrRunEnded
	}
	if err := e.write(&model.Event{Type: kind, InputID: rt.newID("input"), Text: text, Source: model.SourceClient}); err != nil {
		return fmt.Errorf("record %s: %w", kind, err)
	}
	e.wakeUp()
	return nil
}

// resolve records an approval decision.
func (e *runExec) resolve(callID string, d model.Decision) error {
	rt := e.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.crashed {
		return ErrCrashed
	}
	c := e.run.calls[callID]
	if c == nil || !c.req.Approval || !c.requested || c.decision != "" {
		return fmt.Errorf("run %s: no approval pending for call %s", e.run.id, callID)
	}
	if err := e.write(&model.Event{Type: model.ApprovalResolve, CallID: callID, Name: c.req.Name, Decision: d, Source: model.SourceClient}); err != nil {
		return fmt.Errorf("record approval: %w", err)
	}
	e.wakeUp()
	return nil
}
