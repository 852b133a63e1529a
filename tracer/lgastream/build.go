package lgastream

import (
	"fmt"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// runB is one invocation read from the facts.
type runB struct {
	line        int
	ts, end     time.Time
	resume      bool
	inferredNew bool // started by a model call right after a final answer (updates/messages)
	steps       []*stepB
	content     bool
	interrupted bool
	breakpoint  bool
	// pauseInferred: the pause is read from a resume that follows (not from a marker)
	pauseInferred bool
	// quiet counts the values chunks of a resume that added no message before its first one
	quiet      int
	errText    string
	errTool    bool
	lastNext   int
	openTasks  map[string]*fact // debug tasks started and not ended
	lastModel  *fact
	toolsAfter int // tool results since the last model call
	byCall     map[string]*callB
	stepOf     map[string]*stepB // requested call id → the step whose model call requested it
}

type stepB struct {
	model *fact
	calls []*callB
	ts    time.Time
}

type callB struct {
	id, name    string
	ts, end     time.Time
	line        int
	ended       bool
	failed      bool
	interrupted bool
}

type builder struct {
	em              *ingest.Emitter
	st              *ingest.Shared
	mode            string
	timeless        bool
	session         string
	sessionInferred bool
	runs            []*runB
	cur             *runB
	ids             []string
}

func (b *builder) start(f *fact, resume bool) *runB {
	r := &runB{line: f.line, ts: f.ts, resume: resume, byCall: map[string]*callB{}, openTasks: map[string]*fact{}, stepOf: map[string]*stepB{}}
	b.runs = append(b.runs, r)
	b.cur = r
	return r
}

// enteredBeforePause: a resume that starts with a node's ToolMessages for calls the paused run
// prev left pending means interrupt() was inside that node (a node that called interrupt() runs
// again from the start on resume), so those calls ran before the pause too: they are calls of
// prev, interrupted. f is the resume's first fact, rest the facts from it on.
func (b *builder) enteredBeforePause(prev *runB, f *fact, rest []*fact) {
	if !prev.interrupted || prev.breakpoint || prev.pauseInferred || len(prev.byCall) != 0 || f.k != fTool || f.synthetic {
		return
	}
	pend := map[string]bool{}
	for _, id := range prev.pending() {
		pend[id] = true
	}
	for _, g := range rest {
		if g.line != f.line || g.k != fTool {
			break
		}
		if pend[g.id] && !g.synthetic {
			c := b.call(prev, &fact{id: g.id, name: g.name, line: prev.line, ts: g.ts})
			c.ended, c.interrupted = true, true
		}
	}
}

// build groups the facts into invocations (runs) and steps, then emits them.
func (b *builder) build(facts []*fact, firstLine int) {
	explicitInputs := b.mode == "debug" || b.mode == "values"
	for fi, f := range facts {
		r := b.cur
		if r == nil {
			r = b.start(f, false)
		}
		switch f.k {
		case fInput:
			if r.content {
				r = b.start(f, false)
			}
			continue
		case fResume:
			if r.content {
				if !r.interrupted && r.errText == "" && len(r.pending()) > 0 {
					// the invocation stopped with the model's calls unanswered and the next one
					// starts from the same state: it paused (a breakpoint, or an interrupt the
					// mode does not show)
					r.interrupted, r.breakpoint, r.pauseInferred = true, true, true
				}
				r = b.start(f, true)
			} else if r.resume {
				r.quiet++
			}
			continue
		case fNext:
			r.lastNext = f.next
			continue
		case fTaskStart:
			r.openTasks[f.task] = f
			continue
		case fTaskEnd:
			delete(r.openTasks, f.task)
			continue
		}
		if r.interrupted && f.k != fInterrupt {
			// work after a pause is the resume (Command(resume=…) or None on the same thread)
			if b.mode == "updates" {
				b.enteredBeforePause(r, f, facts[fi:])
			}
			r = b.start(f, true)
		} else if b.mode == "values" && r.resume && !r.content && r.quiet == 0 && len(b.runs) > 1 {
			// values: the resume's first superstep after its starting state returns these
			// ToolMessages: the node interrupted at the pause (its __interrupt__ chunk) was the
			// one running the tools
			b.enteredBeforePause(b.runs[len(b.runs)-2], f, facts[fi:])
		}
		if f.k == fModel && r.toolsAfter == 0 && len(r.pending()) > 0 {
			// a model call while the last one's calls are unanswered and none ran: within one
			// invocation the loop never does that, so the invocation paused there and a resume
			// answered the calls without running them (a rejected approval)
			r.interrupted, r.pauseInferred = true, true
			r = b.start(f, true)
		}
		if f.k == fModel && !explicitInputs && r.lastModel != nil && len(r.lastModel.calls) == 0 && r.toolsAfter == 0 {
			// a model call right after a final answer: a new input on the thread (the input
			// itself is not in this mode)
			r = b.start(f, false)
			r.inferredNew = true
		}
		r.content = true
		if !f.ts.IsZero() {
			r.end = f.ts
		}
		switch f.k {
		case fModel:
			st := &stepB{model: f, ts: f.ts}
			r.steps = append(r.steps, st)
			r.lastModel, r.toolsAfter = f, 0
			for _, id := range f.calls {
				r.stepOf[id] = st // the step a call of this id joins (the latest request wins)
			}
		case fRewrite, fNode:
		case fToolStart:
			b.call(r, f)
		case fTool:
			if f.synthetic {
				continue // the node answered for the tool (a rejected approval): not an execution
			}
			c := b.call(r, f)
			c.ended, c.failed, c.end = true, f.failed, f.ts
			r.toolsAfter++
		case fInterrupt:
			r.interrupted, r.breakpoint = true, f.breakpoint
			calls := f.more
			if f.id != "" {
				calls = append([][2]string{{f.id, f.name}}, calls...)
			}
			for _, in := range calls {
				c := b.call(r, &fact{id: in[0], name: in[1], line: f.line, ts: f.ts})
				c.ended, c.interrupted, c.end = true, true, f.ts
			}
		case fError:
			r.errText = f.err
			if f.id != "" {
				c := b.call(r, &fact{id: f.id, name: f.name, line: f.line, ts: f.ts})
				c.ended, c.end = true, f.ts
				if !reCancel.MatchString(f.err) {
					c.failed = true
				}
				r.errTool = true
			}
		}
	}
	for _, r := range b.runs {
		if len(r.openTasks) == 0 || r.interrupted || r.errText != "" {
			continue
		}
		// a node's task was running when the stream stopped: the calls the model asked for
		// and no call answered are the ones it was running
		for _, id := range r.pending() {
			name := ""
			for i, c := range r.lastModel.calls {
				if c == id {
					name = r.lastModel.callNames[i]
				}
			}
			t := r.anyTask()
			b.call(r, &fact{id: id, name: name, line: t.line, ts: t.ts})
		}
	}
	for i, r := range b.runs {
		b.emitRun(i, r)
	}
}

// call returns the run's call of f's tool call id, made and placed in the step whose model call
// requested it (else the last step; else a tool-only step: a resume runs the pending call first).
func (b *builder) call(r *runB, f *fact) *callB {
	if c := r.byCall[f.id]; c != nil && f.id != "" {
		return c
	}
	c := &callB{id: f.id, name: f.name, ts: f.ts, line: f.line}
	if f.id != "" {
		r.byCall[f.id] = c
	}
	st := r.stepOf[f.id]
	if st == nil && len(r.steps) > 0 {
		st = r.steps[len(r.steps)-1] // the last step (its model's ids did not match)
	}
	if st == nil {
		st = &stepB{ts: f.ts} // a tool-only step: a resume runs the pending call first
		r.steps = append(r.steps, st)
	}
	st.calls = append(st.calls, c)
	return c
}

func (b *builder) emit(ev model.Event, line int, ts time.Time) {
	ev.SessionID = b.session
	if ev.Origin == nil {
		ev.Origin = b.em.At(line)
	}
	if ev.TS.IsZero() {
		ev.TS = ts
	}
	b.em.Emit(&ev)
}

// pending returns the tool calls the run's last model call requested that no call answered.
func (r *runB) pending() []string {
	if r.lastModel == nil {
		return nil
	}
	var out []string
	for _, id := range r.lastModel.calls {
		if c := r.byCall[id]; c == nil {
			out = append(out, id)
		}
	}
	return out
}

func (b *builder) emitRun(i int, r *runB) {
	if b.st.StartSession(b.session) {
		ev := model.Event{Type: model.SessionStart, Source: model.SourceRuntime, Inferred: []string{"start"}}
		if b.sessionInferred {
			ev.Inferred = append(ev.Inferred, "ids")
			ev.Attrs = map[string]any{"note": "the " + b.mode + " chunks carry no thread id: one session per file"}
		}
		b.emit(ev, r.line, r.ts)
	}
	k := b.st.NextRun(b.session)
	runID := b.st.Unique("run", fmt.Sprintf("%s/run-%d", b.session, k))
	rs := model.Event{Type: model.RunStart, RunID: runID, Attempt: 1, Name: "LangGraph", Source: model.SourceRuntime, Inferred: []string{"ids"}}
	if b.timeless {
		rs.Inferred = append(rs.Inferred, "ts")
		rs.Attrs = map[string]any{"note": "astream " + b.mode + " chunks carry no timestamps: order kept"}
	}
	if r.resume && i > 0 {
		rs.Kind, rs.ParentRunID = "resume", b.runIDs(i-1)
		rs.Inferred = append(rs.Inferred, "kind")
	}
	b.ids = append(b.ids, runID)
	b.emit(rs, r.line, r.ts)
	turnID := b.st.Unique("turn", runID+"/turn-1")
	b.emit(model.Event{Type: model.TurnStart, RunID: runID, TurnID: turnID, Source: model.SourceRuntime, Inferred: []string{"turn"}}, r.line, r.ts)
	for n, st := range r.steps {
		stepID := b.st.Unique("step", fmt.Sprintf("%s/step-%d", turnID, n+1))
		line, ts := r.line, st.ts
		if st.model != nil {
			line = st.model.line
		} else if len(st.calls) > 0 {
			line = st.calls[0].line
		}
		attrs := map[string]any(nil)
		if st.model == nil {
			attrs = map[string]any{"executes": "the calls pending when the run paused, before any model call"}
		}
		b.emit(model.Event{Type: model.StepStart, RunID: runID, TurnID: turnID, StepID: stepID, Source: model.SourceRuntime, Inferred: []string{"step"}, Attrs: attrs}, line, ts)
		if m := st.model; m != nil {
			id := m.id
			if id == "" {
				id = fmt.Sprintf("%s/model", stepID)
			}
			callID := b.st.Unique("model", id)
			b.emit(model.Event{Type: model.ModelStart, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, Source: model.SourceModel, Inferred: []string{"start"}}, m.line, m.ts)
			me := model.Event{Type: model.ModelEnd, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, Source: model.SourceModel, Outcome: model.OutcomeOK, Usage: m.usage}
			if len(m.calls) > 0 {
				me.Attrs = map[string]any{"tool_calls": m.calls}
			}
			b.emit(me, m.line, m.ts)
		}
		out := model.OutcomeOK
		var stepErr *model.ErrorInfo
		for _, c := range st.calls {
			id := c.id
			if id == "" {
				id = stepID + "/tool"
			}
			callID := b.st.Unique("tool", id)
			b.emit(model.Event{Type: model.ToolStart, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, Name: c.name, Source: model.SourceRuntime}, c.line, c.ts)
			if !c.ended && r.errText == "" {
				continue // still running when the stream stopped
			}
			te := model.Event{Type: model.ToolEnd, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, Name: c.name, Source: model.SourceTool, Outcome: model.OutcomeOK}
			switch {
			case c.interrupted:
				te.Attrs = map[string]any{"interrupted": true, "note": "interrupt() inside the tool paused the graph; the tool runs again on resume"}
			case c.failed && r.errText != "" && r.errTool:
				te.Outcome, te.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: firstLine(r.errText)}
				out, stepErr = model.OutcomeError, te.Error
			case c.failed:
				te.Outcome, te.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: "the tool's ToolMessage has status error (returned to the model)"}
			case !c.ended:
				te.Outcome, te.Error, te.Inferred = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: firstLine(r.errText)}, []string{"end"}
				out, stepErr = model.OutcomeCancelled, te.Error
			}
			b.emit(te, c.line, c.end)
		}
		if r.open() && n == len(r.steps)-1 {
			break
		}
		end := st.ts
		if st.model != nil && st.model.ts.After(end) {
			end = st.model.ts
		}
		for _, c := range st.calls {
			if c.end.After(end) {
				end = c.end
			}
			if c.ts.After(end) {
				end = c.ts
			}
		}
		b.emit(model.Event{Type: model.StepEnd, RunID: runID, TurnID: turnID, StepID: stepID, Source: model.SourceRuntime, Outcome: out, Error: stepErr}, line, end)
	}
	b.endRun(r, runID, turnID)
}

// anyTask returns the earliest open task of the run.
func (r *runB) anyTask() *fact {
	var first *fact
	for _, t := range r.openTasks {
		if first == nil || t.line < first.line {
			first = t
		}
	}
	return first
}

// open says whether the stream stopped in the middle of the run: no end, pause or error in it.
func (r *runB) open() bool {
	st, _, _ := r.outcome()
	return st == model.StatusRunning
}

// outcome is the run's status and stop reason, and whether it is inferred from a pending call.
func (r *runB) outcome() (model.RunStatus, model.StopReason, string) {
	switch {
	case r.errText != "":
		switch {
		case reCancel.MatchString(r.errText):
			return model.StatusCancelled, model.StopCancelled, ""
		case reRecursion.MatchString(r.errText):
			return model.StatusFailed, model.StopMaxSteps, ""
		case r.errTool:
			return model.StatusFailed, model.StopToolError, ""
		}
		return model.StatusFailed, model.StopError, ""
	case r.interrupted:
		if r.pauseInferred {
			return model.StatusWaiting, model.StopAwaitingApproval, "pause"
		}
		if r.breakpoint {
			return model.StatusWaiting, model.StopAwaitingApproval, "breakpoint"
		}
		return model.StatusWaiting, model.StopAwaitingApproval, "interrupt"
	}
	for _, c := range r.byCall {
		if !c.ended {
			return model.StatusRunning, "", ""
		}
	}
	if len(r.openTasks) > 0 {
		return model.StatusRunning, "", "" // a node was still running when the stream stopped
	}
	if len(r.pending()) > 0 {
		if r.lastNext > 0 {
			// the last checkpoint names the node to run next and nothing ran it: a static
			// breakpoint (interrupt_before) stopped the graph
			return model.StatusWaiting, model.StopAwaitingApproval, "breakpoint"
		}
		return model.StatusRunning, "", ""
	}
	if r.lastModel != nil && len(r.lastModel.calls) == 0 {
		if r.lastModel.text == StepLimitAnswer {
			return model.StatusFailed, model.StopMaxSteps, ""
		}
		return model.StatusCompleted, model.StopGoalReached, ""
	}
	return model.StatusRunning, "", ""
}

func (b *builder) endRun(r *runB, runID, turnID string) {
	st, stop, cause := r.outcome()
	switch st {
	case model.StatusRunning:
		return // reported open: the stream stopped while the run went on
	case model.StatusWaiting:
		ws := model.Event{Type: model.RunStatusChange, RunID: runID, Status: model.StatusWaiting, WaitReason: model.WaitApproval, StopReason: model.StopAwaitingApproval,
			Source: model.SourceRuntime, Cause: cause, Inferred: []string{"status"}}
		if p := r.pending(); len(p) > 0 {
			ws.Attrs = map[string]any{"pending_tool_calls": p}
		}
		b.emit(ws, r.line, r.end)
		b.emit(model.Event{Type: model.TurnEnd, RunID: runID, TurnID: turnID, Source: model.SourceRuntime, Outcome: model.OutcomeOK, StopReason: model.StopAwaitingApproval, Inferred: []string{"turn"}}, r.line, r.end)
		return
	}
	var e *model.ErrorInfo
	out := model.OutcomeOK
	switch st {
	case model.StatusFailed:
		out, e = model.OutcomeError, &model.ErrorInfo{Kind: "error", Message: firstLine(r.errText)}
		if r.errText == "" {
			e.Message = "the prebuilt agent's step-limit answer: the recursion limit stopped the loop"
		}
	case model.StatusCancelled:
		out, e = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: firstLine(r.errText)}
	}
	b.emit(model.Event{Type: model.TurnEnd, RunID: runID, TurnID: turnID, Source: model.SourceRuntime, Outcome: out, StopReason: stop, Error: e, Inferred: []string{"turn"}}, r.line, r.end)
	b.emit(model.Event{Type: model.RunEnd, RunID: runID, Status: st, StopReason: stop, Error: e, Source: model.SourceRuntime, Inferred: []string{"status"}}, r.line, r.end)
}

func (b *builder) runIDs(i int) string {
	if i < len(b.ids) {
		return b.ids[i]
	}
	return ""
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
