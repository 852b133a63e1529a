package runtime

import (
	"encoding/json"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// The reducer: every event written (live) or read back (recovery) is folded into this state by
// the same function, and the run loop decides only from it. That is what makes a resumed run
// continue exactly where the durable facts say it was.

// Attribute keys the runtime writes and reads back.
const (
	attrArgs       = "args"
	attrResult     = "result"
	attrText       = "text"
	attrToolCalls  = "tool_calls"
	attrAttempt    = "attempt"
	attrFatal      = "fatal"
	attrRecovery   = "recovery"
	attrStopReason = "stop_reason"
	attrScope      = "scope"
	attrExecutes   = "executes"
	attrParentCall = "parent_call_id"
	attrHook       = "hook"
	attrReason     = "reason"
	// attrInput on run/queued is the run's input, durable with the run itself.
	attrInput = "input"
	// attrInterrupted on model/end marks a call a process stop interrupted (not an attempt).
	attrInterrupted = "interrupted"
)

type callState struct {
	req        ToolCall
	stepID     string // the step the call was decided in
	execStep   string // the step that executes it (tool/start)
	started    bool
	ended      bool
	outcome    model.Outcome
	result     string
	err        *model.ErrorInfo
	fatal      bool
	sideEffect bool
	requested  bool
	decision   model.Decision
}

type stepState struct {
	id        string
	modelOpen string
	attempts  int
	giveUp    bool // the last model error was not retryable
	lastErr   *model.ErrorInfo
	decided   bool
	decision  Decision
	executes  []string // approved calls carried into this step
	ended     bool
	outcome   model.Outcome
}

// toRun lists the tool calls this step executes: the decision's calls that need no approval,
// or the approved calls it carries.
func (s *stepState) toRun() []string {
	if len(s.executes) > 0 {
		return s.executes
	}
	var out []string
	for _, c := range s.decision.ToolCalls {
		if !c.Approval {
			out = append(out, c.ID)
		}
	}
	return out
}

type turnState struct {
	id       string
	step     *stepState // open step
	last     *stepState // last ended step
	steps    int
	stopping bool // turn/stopping written since the last step started
	// cancelling is set when a step ended because the turn was cancelled: the turn must end
	// cancelled next (durable, so that a crash in between does not lose the cancellation).
	cancelling bool
	ended      bool
	outcome    model.Outcome
	stop       model.StopReason
	scope      string // "turn" when only the turn was cancelled
}

type inputState struct {
	id       string
	kind     model.EventType
	text     string
	consumed bool
}

type runState struct {
	id, parent, kind, agentName, version, parentCall string
	attempt                                          int
	agent                                            *Agent
	input                                            string
	hasInput                                         bool // the input is known (run/queued attrs.input, or the user message)
	inputRecorded                                    bool // the user message is in the log
	status                                           model.RunStatus
	transitions                                      int
	wait                                             model.WaitReason
	stop                                             model.StopReason
	ended                                            bool
	endErr                                           *model.ErrorInfo
	startTS                                          time.Time
	turns, steps                                     int
	turn                                             *turnState
	lastTurn                                         *turnState
	inputs                                           []*inputState
	calls                                            map[string]*callState
	callOrder                                        []string
	usage                                            model.Usage
	cause                                            model.StopReason // a durable run-ending cause
	causeErr                                         *model.ErrorInfo
	finalText                                        string
	msgs                                             []Message
}

func (r *runState) setCause(reason model.StopReason, err *model.ErrorInfo) {
	if reason == "" || reason == model.StopGoalReached || reason.IsPause() {
		return
	}
	if best := model.Highest(r.cause, reason); best != r.cause {
		r.cause, r.causeErr = best, err
	}
}

func (r *runState) pending(kind model.EventType) []*inputState {
	var out []*inputState
	for _, in := range r.inputs {
		if !in.consumed && in.kind == kind {
			out = append(out, in)
		}
	}
	return out
}

func (r *runState) hasPendingInput() bool {
	for _, in := range r.inputs {
		if !in.consumed {
			return true
		}
	}
	return false
}

// pendingApprovals are calls needing an approval that has not been decided.
func (r *runState) pendingApprovals() []*callState {
	var out []*callState
	for _, id := range r.callOrder {
		if c := r.calls[id]; c.req.Approval && c.decision == "" {
			out = append(out, c)
		}
	}
	return out
}

// approvedWaiting are approved calls not yet started.
func (r *runState) approvedWaiting() []string {
	var out []string
	for _, id := range r.callOrder {
		if c := r.calls[id]; c.req.Approval && c.decision == model.DecisionApproved && !c.started {
			out = append(out, id)
		}
	}
	return out
}

func (r *runState) result() Result {
	return Result{RunID: r.id, Status: r.status, WaitReason: r.wait, Transitions: r.transitions, StopReason: r.stop,
		Error: r.endErr, Text: r.finalText, Usage: r.usage, Turns: r.turns, Steps: r.steps}
}

func (r *runState) consume(ids []string, kind model.EventType) {
	for _, id := range ids {
		for _, in := range r.inputs {
			if in.id == id && !in.consumed {
				in.consumed = true
				r.msgs = append(r.msgs, Message{Role: "user", Text: in.text})
			}
		}
	}
}

// decodeAttr re-reads a JSON attribute (as decoded from the log) into a typed value.
func decodeAttr(attrs map[string]any, key string, into any) {
	v, ok := attrs[key]
	if !ok {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		_ = json.Unmarshal(b, into)
	}
}

func attrString(attrs map[string]any, key string) string {
	s, _ := attrs[key].(string)
	return s
}

// apply folds one event into the runtime's state. It is called with rt.mu held, for events
// just written and for events read back on open, and must depend on nothing else.
func (rt *Runtime) apply(ev *model.Event) {
	for _, id := range []string{ev.RunID, ev.TurnID, ev.StepID, ev.CallID, ev.ConnectionID, ev.InputID} {
		if id != "" {
			rt.used[id] = true
		}
	}
	switch ev.Type {
	case model.SessionStart:
		rt.session = ev.SessionID
		return
	case model.SessionEnd:
		rt.sessionEnded = true
		return
	case model.ConnectionOpen:
		rt.conns[ev.ConnectionID] = ev.RunID
		rt.connOrder = append(rt.connOrder, ev.ConnectionID)
		return
	case model.ConnectionClose:
		delete(rt.conns, ev.ConnectionID)
		return
	case model.RunQueued:
		r := &runState{id: ev.RunID, parent: ev.ParentRunID, kind: ev.Kind, attempt: ev.Attempt,
			agentName: ev.Name, version: ev.AgentVersion, status: model.StatusQueued,
			parentCall: attrString(ev.Attrs, attrParentCall), calls: map[string]*callState{},
			agent: rt.agents[ev.Name]}
		if in, ok := ev.Attrs[attrInput].(string); ok {
			r.input, r.hasInput = in, true
		}
		rt.runs[r.id] = r
		rt.runOrder = append(rt.runOrder, r.id)
		return
	}
	r := rt.runs[ev.RunID]
	if r == nil {
		return // a session-level event (message without run)
	}
	t := r.turn
	var st *stepState
	if t != nil {
		st = t.step
	}
	switch ev.Type {
	case model.Message:
		if ev.Role == "user" {
			if !r.inputRecorded { // the first user message of a run is its input
				r.inputRecorded = true
				if !r.hasInput {
					r.input, r.hasInput = ev.Text, true
				}
			}
			r.msgs = append(r.msgs, Message{Role: "user", Text: ev.Text})
		}
	case model.RunStart:
		r.status = model.StatusRunning
		r.transitions++
		if r.startTS.IsZero() {
			r.startTS = ev.TS
		}
	case model.RunStatusChange:
		r.status, r.wait = ev.Status, ev.WaitReason
		r.transitions++
		if ev.StopReason != "" {
			r.stop, _ = model.Resolve(r.id, r.stop, ev.StopReason)
		}
	case model.RunEnd:
		r.status, r.wait, r.ended = ev.Status, "", true
		r.transitions++
		r.stop, _ = model.Resolve(r.id, r.stop, ev.StopReason)
		r.endErr = ev.Error
	case model.TurnStart:
		r.turn = &turnState{id: ev.TurnID}
		r.turns++
		r.consume(ev.Consumes, model.InputFollowUp)
	case model.TurnStopping:
		if t != nil {
			t.stopping = true
		}
	case model.TurnEnd:
		if t == nil {
			return
		}
		t.ended, t.outcome, t.stop, t.scope = true, ev.Outcome, ev.StopReason, attrString(ev.Attrs, attrScope)
		r.lastTurn, r.turn = t, nil
		if t.scope != "turn" {
			r.setCause(ev.StopReason, ev.Error)
		}
	case model.StepStart:
		if t == nil {
			return
		}
		s := &stepState{id: ev.StepID}
		decodeAttr(ev.Attrs, attrExecutes, &s.executes)
		t.step, t.stopping = s, false
		t.steps++
		r.steps++
		r.consume(ev.Consumes, model.InputSteer)
	case model.StepEnd:
		if st == nil {
			return
		}
		st.ended, st.outcome = true, ev.Outcome
		t.last, t.step = st, nil
		if attrString(ev.Attrs, attrScope) == "turn" {
			t.cancelling = true
		} else {
			r.setCause(model.StopReason(attrString(ev.Attrs, attrStopReason)), ev.Error)
		}
	case model.ModelStart:
		if st != nil {
			st.modelOpen = ev.CallID
			st.attempts++
		}
	case model.ModelEnd:
		if st == nil {
			return
		}
		st.modelOpen = ""
		if interrupted, _ := ev.Attrs[attrInterrupted].(bool); interrupted {
			// A process stop is not a provider error: the interrupted call does not count
			// against the step's model attempts.
			st.attempts--
			break
		}
		r.cancelled(t, ev)
		if ev.Usage != nil {
			r.usage = r.usage.Add(*ev.Usage)
		}
		if ev.Outcome != model.OutcomeOK {
			st.lastErr = ev.Error
			st.giveUp = ev.Error != nil && !ev.Error.Retryable
			break
		}
		st.decided = true
		st.decision.Text = attrString(ev.Attrs, attrText)
		decodeAttr(ev.Attrs, attrToolCalls, &st.decision.ToolCalls)
		if st.decision.Text != "" {
			r.finalText = st.decision.Text
		}
		r.msgs = append(r.msgs, Message{Role: "assistant", Text: st.decision.Text, ToolCalls: st.decision.ToolCalls})
		for _, c := range st.decision.ToolCalls {
			r.calls[c.ID] = &callState{req: c, stepID: st.id}
			r.callOrder = append(r.callOrder, c.ID)
		}
		if a := r.agent; a != nil && a.Limits.TokenBudget > 0 && r.usage.Total() > a.Limits.TokenBudget {
			r.setCause(model.StopBudgetExceeded, &model.ErrorInfo{Kind: "budget",
				Message: "token budget exceeded: " + itoa(r.usage.Total()) + " > " + itoa(a.Limits.TokenBudget) + " tokens"})
		}
	case model.ToolStart:
		c := r.calls[ev.CallID]
		if c == nil { // a call the runtime made up (never happens in its own logs)
			c = &callState{req: ToolCall{ID: ev.CallID, Name: ev.Name}}
			r.calls[ev.CallID] = c
			r.callOrder = append(r.callOrder, ev.CallID)
		}
		c.started, c.execStep, c.sideEffect = true, ev.StepID, ev.SideEffect
	case model.ToolEnd:
		c := r.calls[ev.CallID]
		if c == nil {
			return
		}
		c.ended, c.outcome, c.err = true, ev.Outcome, ev.Error
		c.result = attrString(ev.Attrs, attrResult)
		c.fatal, _ = ev.Attrs[attrFatal].(bool)
		r.cancelled(t, ev)
		text, isErr := c.result, ev.Outcome != model.OutcomeOK
		if isErr {
			text = string(ev.Outcome) + ": " + ev.Error.String()
		}
		r.msgs = append(r.msgs, Message{Role: "tool", CallID: c.req.ID, Text: text, IsError: isErr})
		if c.fatal {
			r.setCause(model.StopToolError, ev.Error)
		}
	case model.InputSteer, model.InputFollowUp:
		r.inputs = append(r.inputs, &inputState{id: ev.InputID, kind: ev.Type, text: ev.Text})
	case model.ApprovalRequest:
		if c := r.calls[ev.CallID]; c != nil {
			c.requested = true
		}
	case model.ApprovalResolve:
		if c := r.calls[ev.CallID]; c != nil {
			c.decision = ev.Decision
			if ev.Decision == model.DecisionDenied {
				r.msgs = append(r.msgs, Message{Role: "tool", CallID: c.req.ID, Text: "denied by the approver; the call was not run", IsError: true})
			}
		}
	}
}

// cancelled applies the cancellation a call's end event records (see runExec.cancelAttrs).
func (r *runState) cancelled(t *turnState, ev *model.Event) {
	reason := model.StopReason(attrString(ev.Attrs, attrStopReason))
	switch {
	case reason == "":
	case attrString(ev.Attrs, attrScope) == "turn":
		if t != nil {
			t.cancelling = true
		}
	default:
		r.setCause(reason, ev.Error)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
