package langchain

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// builder turns linked runs into canonical events.
type builder struct {
	em *ingest.Emitter
	st *ingest.Shared
	// timeless is set for streamEvents input: no record carries a time; order is kept.
	timeless bool
	format   string
}

var (
	reRecursion = regexp.MustCompile(`(?i)recursion limit|GraphRecursionError`)
	reAbort     = regexp.MustCompile(`(?i)\babort|AbortError|CancelledError|cancelled|canceled`)
	// reInterrupt matches an interrupt() error: the JS/Python class names, and Python's
	// astream_events error text, which is str(GraphInterrupt) = "(Interrupt(value=…),)".
	reInterrupt = regexp.MustCompile(`GraphInterrupt|NodeInterrupt|__interrupt__|^\(Interrupt\(|Interrupt\(value=`)
)

// stepLimitAnswer is the answer LangGraph's prebuilt ReAct agent (createReactAgent /
// create_react_agent) gives instead of the model's tool calls when the recursion limit is about
// to be hit (its remaining_steps guard): the loop stopped at its bound without raising.
const stepLimitAnswer = "Sorry, need more steps to process this request."

// interrupted says whether r (a tool or node run) stopped at interrupt(): its error is a
// GraphInterrupt, which pauses the graph rather than failing the call.
func interrupted(r *run) bool { return r.hasErr && reInterrupt.MatchString(r.errText) }

func (b *builder) sessionOf(root *run) (string, bool) {
	var found string
	var visit func(r *run) bool
	visit = func(r *run) bool {
		for _, k := range []string{"thread_id", "session_id", "conversation_id"} {
			if v, ok := r.meta[k].(string); ok && v != "" {
				found = v
				return true
			}
		}
		for _, c := range r.children {
			if visit(c) {
				return true
			}
		}
		return false
	}
	if visit(root) {
		return found, false
	}
	id := root.traceID
	if id == "" {
		id = root.id
	}
	return "langchain:trace:" + id, true
}

func isLLM(r *run) bool  { return r.runType == "llm" || r.runType == "chat_model" }
func isTool(r *run) bool { return r.runType == "tool" }
func ended(r *run) bool  { return r.hasEnd || r.hasErr }

// step is one model call plus the tool calls that followed it.
type step struct {
	llm   *run
	tools []*run
	// byOrder lists tools placed by order because no tool_call_id matched.
	byOrder map[*run]bool
	nodes   map[*run]bool
}

// item is one event of a step, sorted by time (when the input has times) and record order.
type item struct {
	ts  time.Time
	ord int
	ev  model.Event
}

func (b *builder) emitRoots(roots []*run) {
	for _, root := range roots {
		b.emitRoot(root)
	}
}

func (b *builder) emitRoot(root *run) {
	sess, sessInferred := b.sessionOf(root)
	at := b.em.At(root.line)
	if b.st.StartSession(sess) {
		ev := model.Event{Type: model.SessionStart, SessionID: sess, TS: root.start, Source: model.SourceRuntime, Origin: at, Inferred: []string{"start"}}
		if sessInferred {
			ev.Inferred = append(ev.Inferred, "ids")
		}
		b.em.Emit(&ev)
	}
	emit := func(r *run, ev model.Event) {
		ev.SessionID = sess
		if ev.Origin == nil {
			ev.Origin = b.em.At(r.line)
		}
		b.em.Emit(&ev)
	}
	runID := b.st.Unique("run", root.id)
	rs := model.Event{Type: model.RunStart, RunID: runID, TS: root.start, Name: root.name, Attempt: 1, Source: model.SourceRuntime,
		Attrs: map[string]any{"run_type": root.runType}}
	if b.timeless {
		rs.Inferred = append(rs.Inferred, "ts")
		rs.Attrs["note"] = "streamEvents carry no timestamps: order kept, durations unknown"
	}
	if root.parentID != "" {
		rs.Inferred = append(rs.Inferred, "parent")
		rs.Attrs["dangling_parent"] = root.parentID
		rs.Attrs["note"] = "the parent run " + root.parentID + " is not in the log: this subtree is shown as its own run"
	}
	if prev := b.st.Value("waiting\x00" + sess); prev != "" {
		rs.Kind, rs.ParentRunID = "resume", prev
		rs.Inferred = append(rs.Inferred, "kind")
	}
	emit(root, rs)
	turnID := b.st.Unique("turn", runID+"/turn-1")
	emit(root, model.Event{Type: model.TurnStart, RunID: runID, TurnID: turnID, TS: root.start, Source: model.SourceRuntime, Inferred: []string{"turn"}})

	// Collect model and tool calls (not descending into them: runs inside a tool are a nested
	// agent, counted in attrs only).
	var calls []*run
	node := map[*run]*run{}
	nested := 0
	var visit func(r, top *run)
	visit = func(r, top *run) {
		for _, c := range r.children {
			t := top
			if t == nil {
				t = c
			}
			if isLLM(c) || isTool(c) {
				calls = append(calls, c)
				node[c] = t
				nested += countCalls(c)
				continue
			}
			visit(c, t)
		}
	}
	if isLLM(root) || isTool(root) {
		calls = append(calls, root)
		node[root] = root
	} else {
		visit(root, nil)
	}
	sort.SliceStable(calls, func(i, j int) bool {
		if !b.timeless {
			return before(calls[i], calls[j])
		}
		return calls[i].startOrder < calls[j].startOrder
	})

	var steps []*step
	var cur *step
	for _, c := range calls {
		if isLLM(c) {
			cur = &step{llm: c, byOrder: map[*run]bool{}, nodes: map[*run]bool{}}
			steps = append(steps, cur)
			continue
		}
		if cur == nil {
			cur = &step{byOrder: map[*run]bool{}, nodes: map[*run]bool{}}
			steps = append(steps, cur)
		}
		matched := false
		if cur.llm != nil {
			for _, id := range cur.llm.toolCalls {
				if id == c.toolCallID {
					matched = true
				}
			}
		}
		if !matched {
			cur.byOrder[c] = true
		}
		cur.tools = append(cur.tools, c)
	}
	// A node run (direct child of the root) bounds a step when all its calls are in that step.
	owner := map[*run]*step{}
	shared := map[*run]bool{}
	for _, s := range steps {
		for _, c := range append([]*run{s.llm}, s.tools...) {
			if c == nil {
				continue
			}
			n := node[c]
			if o, ok := owner[n]; ok && o != s {
				shared[n] = true
			}
			owner[n] = s
		}
	}
	for n, s := range owner {
		if !shared[n] && n != root {
			s.nodes[n] = true
		}
	}

	open := false
	for i, s := range steps {
		stepID := b.st.Unique("step", fmt.Sprintf("%s/step-%d", turnID, i+1))
		var members []*run
		if s.llm != nil {
			members = append(members, s.llm)
		}
		members = append(members, s.tools...)
		start, end := time.Time{}, time.Time{}
		allEnded := true
		first := members[0]
		graphSteps := map[string]bool{}
		var nodes []string
		span := func(r *run) {
			if !r.start.IsZero() && (start.IsZero() || r.start.Before(start)) {
				start = r.start
			}
			if !r.end.IsZero() && r.end.After(end) {
				end = r.end
			}
		}
		for _, m := range members {
			span(m)
			if !ended(m) {
				allEnded = false
			}
			if v, ok := m.meta["langgraph_step"]; ok {
				graphSteps[fmt.Sprint(v)] = true
			}
		}
		for n := range s.nodes {
			span(n)
			nodes = append(nodes, n.name)
		}
		sort.Strings(nodes)
		attrs := map[string]any{}
		if len(graphSteps) > 0 {
			var gs []string
			for k := range graphSteps {
				gs = append(gs, k)
			}
			sort.Strings(gs)
			attrs["langgraph_steps"] = gs
		}
		if len(nodes) > 0 {
			attrs["nodes"] = nodes
		}
		ss := model.Event{Type: model.StepStart, RunID: runID, TurnID: turnID, StepID: stepID, TS: start, Source: model.SourceRuntime, Inferred: []string{"step"}, Attrs: attrs}
		emit(first, ss)
		var items []item
		out := model.OutcomeOK
		var stepErr *model.ErrorInfo
		if c := s.llm; c != nil {
			callID := b.st.Unique("model", c.id)
			name := c.modelName
			if v, ok := c.meta["ls_model_name"].(string); ok && v != "" {
				name = v
			}
			if name == "" {
				name = c.name
			}
			items = append(items, item{c.start, c.startOrder, model.Event{Type: model.ModelStart, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, TS: c.start, Name: name, Source: model.SourceModel, Origin: b.em.At(c.line),
				Attrs: payloadAttrs(map[string]any{"run_name": c.name}, model.AttrInput, c.input)}})
			if ended(c) {
				ev := model.Event{Type: model.ModelEnd, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, TS: c.end, Name: name, Source: model.SourceModel, Outcome: model.OutcomeOK, Origin: b.em.At(c.line)}
				if c.usage != nil {
					ev.Usage = &model.Usage{InputTokens: c.usage.in, OutputTokens: c.usage.out, CachedTokens: c.usage.cached}
				}
				if len(c.toolCalls) > 0 {
					ev.Attrs = map[string]any{"tool_calls": c.toolCalls}
				}
				ev.Attrs = payloadAttrs(ev.Attrs, model.AttrOutput, c.output)
				if c.hasErr {
					ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: c.errText}
					out, stepErr = model.OutcomeError, ev.Error
				}
				items = append(items, item{c.end, c.endOrder, ev})
			}
		}
		for _, c := range s.tools {
			callID := c.toolCallID
			if callID == "" {
				callID = c.id
			}
			callID = b.st.Unique("tool", callID)
			ev := model.Event{Type: model.ToolStart, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, TS: c.start, Name: c.name, Source: model.SourceRuntime, Origin: b.em.At(c.line),
				Attrs: payloadAttrs(map[string]any{"run_id": c.id}, model.AttrArgs, c.input)}
			if s.byOrder[c] {
				ev.Inferred = []string{"parent"}
				ev.Attrs["note"] = "no tool_call_id of the step's model call matched: placed in the step by order"
			}
			items = append(items, item{c.start, c.startOrder, ev})
			if ended(c) {
				ee := model.Event{Type: model.ToolEnd, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, TS: c.end, Name: c.name, Source: model.SourceTool, Outcome: model.OutcomeOK, Origin: b.em.At(c.line)}
				if interrupted(c) {
					ee.Attrs = map[string]any{"interrupted": true, "note": "interrupt() paused the graph inside this call: not a failure; the call runs again when the thread is resumed"}
				} else if c.hasErr || c.toolStatusError {
					msg := c.errText
					if msg == "" {
						msg = "the tool returned an error ToolMessage (status error)"
					}
					ee.Outcome, ee.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: firstLineOf(msg)}
					if reAbort.MatchString(msg) {
						ee.Outcome, ee.Error.Kind = model.OutcomeCancelled, "cancelled"
						if out == model.OutcomeOK {
							out = model.OutcomeCancelled
						}
					}
				}
				ee.Attrs = payloadAttrs(ee.Attrs, model.AttrResult, c.output)
				items = append(items, item{c.end, c.endOrder, ee})
			}
		}
		sort.SliceStable(items, func(i, j int) bool {
			a, c := items[i], items[j]
			if !b.timeless && !a.ts.IsZero() && !c.ts.IsZero() && !a.ts.Equal(c.ts) {
				return a.ts.Before(c.ts)
			}
			return a.ord < c.ord
		})
		for _, it := range items {
			ev := it.ev
			ev.SessionID = sess
			b.em.Emit(&ev)
		}
		if !allEnded {
			open = true
			continue
		}
		emit(members[len(members)-1], model.Event{Type: model.StepEnd, RunID: runID, TurnID: turnID, StepID: stepID, TS: end, Source: model.SourceRuntime, Outcome: out, Error: stepErr})
	}

	// Run status from the root.
	status, stop, errInfo, cause := b.outcome(root, calls)
	var endInferred []string
	if root.endInferred {
		endInferred = []string{"end", "status", "stop_reason"}
	}
	switch {
	case status == model.StatusWaiting:
		ws := model.Event{Type: model.RunStatusChange, RunID: runID, TS: root.end, Status: model.StatusWaiting, WaitReason: model.WaitApproval,
			StopReason: model.StopAwaitingApproval, Source: model.SourceRuntime, Cause: cause, Inferred: []string{"status"}}
		if cause == "breakpoint" {
			ws.Attrs = map[string]any{"pending_tool_calls": pendingCalls(calls), "note": "the graph ended after a model call whose requested tools never ran (a static breakpoint such as interrupt_before=[\"tools\"])"}
		}
		emit(root, ws)
		if !open {
			emit(root, model.Event{Type: model.TurnEnd, RunID: runID, TurnID: turnID, TS: root.end, Outcome: model.OutcomeOK, StopReason: model.StopAwaitingApproval, Source: model.SourceRuntime, Inferred: []string{"turn"}})
		}
		b.st.SetValue("waiting\x00"+sess, runID)
		return
	case status == "":
		// never ended: reported open, not dropped
		return
	}
	b.st.SetValue("waiting\x00"+sess, "")
	if open {
		// the root ended while some call never did: the turn stays open with it
		emit(root, model.Event{Type: model.RunEnd, RunID: runID, TS: root.end, Status: status, StopReason: stop, Error: errInfo, Source: model.SourceRuntime, Cause: cause, Inferred: endInferred})
		return
	}
	tout := model.OutcomeOK
	switch status {
	case model.StatusFailed:
		tout = model.OutcomeError
	case model.StatusCancelled:
		tout = model.OutcomeCancelled
	}
	emit(root, model.Event{Type: model.TurnEnd, RunID: runID, TurnID: turnID, TS: root.end, Outcome: tout, StopReason: stop, Error: errInfo, Source: model.SourceRuntime, Inferred: []string{"turn"}})
	emit(root, model.Event{Type: model.RunEnd, RunID: runID, TS: root.end, Status: status, StopReason: stop, Error: errInfo, Source: model.SourceRuntime, Cause: cause, Inferred: endInferred})
}

func countCalls(r *run) int {
	n := 0
	for _, c := range r.children {
		if isLLM(c) || isTool(c) {
			n++
		}
		n += countCalls(c)
	}
	return n
}

// firstLineOf is the first line of an error text; Python tracers append the traceback right
// after repr(exception), without a newline, so the text stops before "Traceback (".
func firstLineOf(s string) string {
	if i := strings.Index(s, "\n"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "Traceback (most recent call last)"); i > 0 {
		s = s[:i]
	}
	return s
}

// pendingCalls lists the tool calls the last model call of calls requested that no later tool
// run answered: a static breakpoint (interrupt_before=["tools"]) stops the graph there.
func pendingCalls(calls []*run) []string {
	last := -1
	for i, c := range calls {
		if isLLM(c) {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	ran := map[string]bool{}
	for _, c := range calls[last+1:] {
		if isTool(c) {
			ran[c.toolCallID] = true
		}
	}
	if len(calls[last+1:]) > 0 && len(ran) == 0 {
		return nil
	}
	var out []string
	for _, id := range calls[last].toolCalls {
		if !ran[id] {
			out = append(out, id)
		}
	}
	return out
}

// outcome decides a root run's status and stop reason; "" means the run never ended.
func (b *builder) outcome(root *run, calls []*run) (model.RunStatus, model.StopReason, *model.ErrorInfo, string) {
	if root.interrupt || root.hasErr && reInterrupt.MatchString(root.errText) {
		return model.StatusWaiting, model.StopAwaitingApproval, nil, "interrupt"
	}
	failed := root.hasErr || root.status == "error"
	if !failed {
		if !root.hasEnd {
			return "", "", nil, ""
		}
		if root.stepLimit {
			return model.StatusFailed, model.StopMaxSteps, &model.ErrorInfo{Kind: "max_steps", Message: "the agent answered \"" + stepLimitAnswer + "\" (recursion limit reached)"}, ""
		}
		for _, c := range calls {
			if interrupted(c) {
				return model.StatusWaiting, model.StopAwaitingApproval, nil, "interrupt"
			}
		}
		if len(pendingCalls(calls)) > 0 {
			return model.StatusWaiting, model.StopAwaitingApproval, nil, "breakpoint"
		}
		return model.StatusCompleted, model.StopGoalReached, nil, ""
	}
	msg := root.errText
	if msg == "" {
		msg = "the run ended with status error"
	}
	e := &model.ErrorInfo{Kind: "error", Message: firstLineOf(msg)}
	switch {
	case reRecursion.MatchString(msg):
		e.Kind = "GraphRecursionError"
		return model.StatusFailed, model.StopMaxSteps, e, ""
	case reAbort.MatchString(msg):
		e.Kind = "cancelled"
		return model.StatusCancelled, model.StopCancelled, e, "cancel"
	}
	for _, c := range calls {
		if c.hasErr && strings.Contains(msg, firstLineOf(c.errText)) {
			if isLLM(c) {
				e.Kind = "model"
				return model.StatusFailed, model.StopModelError, e, ""
			}
			e.Kind = "tool"
			return model.StatusFailed, model.StopToolError, e, ""
		}
	}
	return model.StatusFailed, model.StopError, e, ""
}

// payloadAttrs adds the payload text under key to m (made when nil), unless text is empty.
func payloadAttrs(m map[string]any, key, text string) map[string]any {
	if text == "" {
		return m
	}
	if m == nil {
		m = map[string]any{}
	}
	m[key] = text
	return m
}
