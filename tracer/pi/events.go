package pi

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// EventsName is the --input-format name of pi-agent-core event streams.
const EventsName = "pi-events"

// EventsDescription says which producer writes pi-agent-core event streams.
const EventsDescription = "Pi agent events (pi-agent-core agent.subscribe(), pi --mode json)"

// DetectEvents scores how much head looks like a pi-agent-core event stream: the first line is an
// agent event (agent_start, turn_start, message_start, …), or a pi session header followed by
// one.
func DetectEvents(head []byte) int {
	lines := firstLines(head, 2)
	if len(lines) == 0 {
		return 0
	}
	if eventTypes[lineType(lines[0])] {
		return 95
	}
	if _, ok := isHeader(lines[0]); ok && len(lines) > 1 && eventTypes[lineType(lines[1])] {
		return 95
	}
	return 0
}

// evRec is what is kept of one event line.
type evRec struct {
	line       int
	typ        string
	msg        *piMessage
	toolCallID string
	toolName   string
	args       json.RawMessage
	result     json.RawMessage
	isError    bool
	toolResult []piMessage
	attempt    int
	// filled before building
	ts       time.Time
	tsOwn    bool
	hdr      *header
	retryMsg string
	// cancelled marks a tool_execution_end of a tool cancelled by an abort (abortedTool)
	cancelled bool
}

type rawEvent struct {
	Type        string          `json:"type"`
	Message     *piMessage      `json:"message"`
	ToolCallID  string          `json:"toolCallId"`
	ToolName    string          `json:"toolName"`
	Args        json.RawMessage `json:"args"`
	Result      json.RawMessage `json:"result"`
	IsError     *bool           `json:"isError"`
	ToolResults []piMessage     `json:"toolResults"`
	Attempt     int             `json:"attempt"`
	Error       string          `json:"errorMessage"`
}

// DecodeEvents reads a pi-agent-core event stream. Events carry no ids or times: ids are minted
// (Inferred "ids"), times come from the embedded messages and are carried forward to the events
// around them (Inferred "ts").
func DecodeEvents(r io.Reader, em *ingest.Emitter) error {
	var recs []*evRec
	err := ingest.EachLine(r, em, EventsName, func(line []byte, n int) error {
		if h, ok := isHeader(line); ok {
			recs = append(recs, &evRec{line: n, typ: "session", hdr: h})
			return nil
		}
		// message_update / tool_execution_update are streaming partials: only the type is needed.
		switch lineType(line) {
		case "message_update", "tool_execution_update":
			if json.Valid(line) {
				return nil
			}
		}
		var raw rawEvent
		if err := json.Unmarshal(line, &raw); err != nil {
			return describe(err)
		}
		if raw.Type == "" {
			return fmt.Errorf("record without \"type\": expected a pi agent event")
		}
		rec := &evRec{line: n, typ: raw.Type, msg: raw.Message, toolCallID: raw.ToolCallID, toolName: raw.ToolName,
			args: raw.Args, result: raw.Result, isError: raw.IsError != nil && *raw.IsError, toolResult: raw.ToolResults, attempt: raw.Attempt, retryMsg: raw.Error}
		if raw.Type == "message_start" && raw.Message != nil {
			rec.ts = msTime(raw.Message.Timestamp)
			rec.tsOwn = !rec.ts.IsZero()
		}
		recs = append(recs, rec)
		return nil
	})
	fillTimes(recs)
	markAborted(recs)
	b := &evBuilder{em: em, st: em.Shared()}
	for _, rec := range recs {
		b.apply(rec)
	}
	b.finish()
	return err
}

// markAborted marks the tool_execution_end records of tools cancelled by an abort: the next
// assistant message_end of the same run (before agent_end) decides, with abortedTool.
func markAborted(recs []*evRec) {
	next := ""
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		switch r.typ {
		case "agent_end", "agent_start":
			next = ""
		case "message_end":
			if r.msg != nil && r.msg.Role == "assistant" {
				next = r.msg.StopReason
			}
		case "tool_execution_end":
			r.cancelled = abortedTool(r.isError, resultText(r.result), next)
		}
	}
}

// fillTimes gives every record a time: its own (message_start), else the last one before it, else
// the first one after it; times never go backwards (a later message stamped earlier is clamped).
func fillTimes(recs []*evRec) {
	var first time.Time
	for _, r := range recs {
		if r.tsOwn {
			first = r.ts
			break
		}
	}
	last := first
	for _, r := range recs {
		if r.tsOwn && !r.ts.Before(last) {
			last = r.ts
			continue
		}
		r.ts, r.tsOwn = last, false
	}
}

type evBuilder struct {
	em      *ingest.Emitter
	st      *ingest.Shared
	session string

	run, turn, step, model string
	runN, turnN, stepN     int
	stepPending            *evRec
	stepFirst              bool // no step yet in this run
	users                  []*evRec
	stopBoundary           bool
	lastAssistant          *piMessage
	stepMsg                *piMessage
	tools                  map[string]string // pi toolCallId → canonical id, this step
	toolsOpen              openCalls         // started in this step, not yet ended
	toolsN                 int               // tool calls started in this step
	toolsAnon              int               // of which without a pi id
	lastTS                 time.Time
	prevRun                string
	retry                  int // attempt announced by auto_retry_start
}

func (b *evBuilder) emit(rec *evRec, ev model.Event) {
	ev.SessionID = b.session
	ev.Origin = b.em.At(rec.line)
	if ev.TS.IsZero() {
		ev.TS = rec.ts
	}
	if !rec.tsOwn && !ev.TS.IsZero() {
		ev.Inferred = append(ev.Inferred, "ts")
	}
	b.em.Emit(&ev)
}

func (b *evBuilder) ensureSession(rec *evRec) {
	if b.session != "" {
		return
	}
	base := strings.TrimSuffix(filepath.Base(b.em.File), filepath.Ext(b.em.File))
	b.session = "pi:" + base
	if b.st.StartSession(b.session) {
		b.emit(rec, model.Event{Type: model.SessionStart, Source: model.SourceRuntime, Inferred: []string{"ids"},
			Attrs: map[string]any{"note": "pi agent events carry no ids: session id taken from the file name"}})
	}
}

func (b *evBuilder) apply(rec *evRec) {
	if rec.typ == "session" {
		h := rec.hdr
		if b.session == "" && h.ID != "" {
			b.session = h.ID
			if b.st.StartSession(h.ID) {
				var ts string
				_ = json.Unmarshal(h.Timestamp, &ts)
				attrs := map[string]any{"cwd": h.Cwd}
				if h.ParentSession != "" {
					attrs["parent_session"] = h.ParentSession
				}
				b.emit(&evRec{line: rec.line, ts: isoTime(ts), tsOwn: true}, model.Event{Type: model.SessionStart, Source: model.SourceRuntime, Attrs: attrs})
			}
		}
		return
	}
	b.ensureSession(rec)
	switch rec.typ {
	case "agent_start":
		b.agentStart(rec, false)
	case "auto_retry_start":
		if rec.attempt > 0 {
			b.retry = rec.attempt
		}
	case "turn_start":
		b.needRun(rec)
		b.stepPending = rec
		b.users = nil
	case "message_start":
		b.messageStart(rec)
	case "message_end":
		b.messageEnd(rec)
	case "tool_execution_start":
		b.needStep(rec)
		b.toolStart(rec, false)
	case "tool_execution_end":
		b.toolEnd(rec)
	case "turn_end":
		b.turnEnd(rec)
	case "agent_end":
		b.agentEnd(rec)
	}
}

func (b *evBuilder) agentStart(rec *evRec, inferred bool) {
	if b.run != "" {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: agent_start while run %s is still open; it is reported open", EventsName, rec.line, b.run))
		b.closeState()
	}
	b.runN = b.st.NextRun(b.session)
	b.run = b.st.Unique("run", fmt.Sprintf("%s/run-%d", b.session, b.runN))
	ev := model.Event{Type: model.RunStart, RunID: b.run, Attempt: 1, Source: model.SourceRuntime, Inferred: []string{"ids"}}
	if inferred {
		ev.Inferred = append(ev.Inferred, "run", "start")
	}
	if b.retry > 0 && b.prevRun != "" {
		ev.Kind, ev.ParentRunID, ev.Attempt = "retry", b.prevRun, b.retry+1
	}
	b.retry = 0
	b.emit(rec, ev)
	b.turnN = 0
	b.stepFirst = true
	b.openTurn(rec, nil)
}

func (b *evBuilder) openTurn(rec *evRec, consumes []string) {
	b.turnN++
	b.turn = b.st.Unique("turn", fmt.Sprintf("%s/turn-%d", b.run, b.turnN))
	b.stepN = 0
	b.stopBoundary = false
	b.emit(rec, model.Event{Type: model.TurnStart, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Consumes: consumes,
		Inferred: []string{"turn"}})
}

func (b *evBuilder) needRun(rec *evRec) {
	if b.run == "" {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: %s before agent_start (stream starts mid-run?); run inferred", EventsName, rec.line, rec.typ))
		b.agentStart(rec, true)
	}
}

func (b *evBuilder) messageStart(rec *evRec) {
	m := rec.msg
	if m == nil {
		return
	}
	switch m.Role {
	case "assistant":
		b.needStep(rec)
		if b.model != "" {
			return
		}
		b.model = b.st.Unique("model", b.step+"/model")
		attrs := map[string]any{}
		if m.Provider != "" {
			attrs["provider"] = m.Provider
		}
		b.emit(rec, model.Event{Type: model.ModelStart, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: b.model, Name: m.Model, Source: model.SourceModel, Attrs: attrs})
	case "toolResult":
		// recorded through tool_execution_end; a result without execution events is handled at turn_end
	default: // user, custom, bashExecution, …
		if b.run != "" && b.stepPending != nil {
			b.users = append(b.users, rec)
		}
		b.emit(rec, model.Event{Type: model.Message, RunID: b.run, Role: roleOf(m.Role), Text: messageText(m), Source: model.SourceClient})
	}
}

func roleOf(r string) string {
	switch r {
	case "user", "assistant", "system":
		return r
	case "toolResult":
		return "tool"
	}
	return "user"
}

func messageText(m *piMessage) string {
	if m.Role == "bashExecution" {
		return "!" + m.Command
	}
	return m.text()
}

// needStep opens the pending Pi turn as our Step, first closing the Turn at a stop boundary when
// user messages arrived after it (follow-ups) or turning them into steers otherwise.
func (b *evBuilder) needStep(rec *evRec) {
	b.needRun(rec)
	if b.step != "" {
		return
	}
	pend := b.stepPending
	inferred := pend == nil
	if pend == nil {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: %s outside turn_start…turn_end; step inferred", EventsName, rec.line, rec.typ))
		pend = rec
	}
	var consumes []string
	if len(b.users) > 0 && !b.stepFirst {
		kind := model.InputSteer
		if b.stopBoundary {
			kind = model.InputFollowUp
		}
		var ids []string
		for i, u := range b.users {
			id := b.st.Unique("input", fmt.Sprintf("%s/input-%d-%d", b.run, b.turnN, b.stepN*10+i+1))
			ids = append(ids, id)
			b.emit(u, model.Event{Type: kind, RunID: b.run, InputID: id, Text: messageText(u.msg), Source: model.SourceClient, Inferred: []string{"kind"}})
		}
		if b.stopBoundary {
			b.endTurn(pend, model.OutcomeOK, model.StopGoalReached, nil)
			b.openTurn(pend, ids)
		} else {
			consumes = ids
		}
	}
	b.users = nil
	b.stopBoundary = false
	b.stepFirst = false
	b.stepN++
	b.step = b.st.Unique("step", fmt.Sprintf("%s/step-%d", b.turn, b.stepN))
	b.tools, b.toolsOpen, b.toolsN, b.toolsAnon = map[string]string{}, openCalls{}, 0, 0
	b.stepMsg = nil
	ev := model.Event{Type: model.StepStart, RunID: b.run, TurnID: b.turn, StepID: b.step, Source: model.SourceRuntime, Consumes: consumes, Attrs: map[string]any{"pi_turn": true}}
	if inferred {
		ev.Inferred = []string{"step", "start"}
	}
	b.emit(pend, ev)
	b.stepPending = nil
}

func (b *evBuilder) messageEnd(rec *evRec) {
	m := rec.msg
	if m == nil || m.Role != "assistant" || b.model == "" {
		return
	}
	out, e := stopOf(m)
	attrs := map[string]any{"stop_reason": m.StopReason}
	var calls []string
	for _, c := range m.toolCalls() {
		calls = append(calls, c.ID)
	}
	if len(calls) > 0 {
		attrs["tool_calls"] = calls
	}
	if t := m.text(); t != "" {
		attrs["text"] = t
	}
	b.emit(rec, model.Event{Type: model.ModelEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: b.model, Name: m.Model,
		Source: model.SourceModel, Outcome: out, Error: e, Usage: m.usage(), Attrs: attrs})
	b.model = ""
	b.stepMsg = m
	b.lastAssistant = m
}

// toolStart opens a tool call of the current step and returns its canonical id ("" when it was
// not opened). A call without a Pi id gets one made from the step (Inferred "ids").
func (b *evBuilder) toolStart(rec *evRec, inferred bool) string {
	if _, dup := b.tools[rec.toolCallID]; dup && rec.toolCallID != "" {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: second tool_execution_start for %s; ignored", EventsName, rec.line, rec.toolCallID))
		return ""
	}
	b.toolsN++
	id, made := callID(b.st, b.step, rec.toolCallID, b.toolsN)
	if made {
		b.toolsAnon++
	} else {
		b.tools[rec.toolCallID] = id
	}
	b.toolsOpen.add(rec.toolCallID, id)
	attrs := map[string]any{}
	if len(rec.args) > 0 {
		attrs["args"] = json.RawMessage(rec.args)
	}
	ev := model.Event{Type: model.ToolStart, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: id, Name: rec.toolName, Source: model.SourceRuntime, Attrs: attrs}
	if inferred {
		ev.Inferred = []string{"start"}
	}
	if made {
		ev.Inferred = append(ev.Inferred, "ids")
		attrs["note"] = "the tool call has no toolCallId: call id made from the step"
	}
	b.emit(rec, ev)
	return id
}

func (b *evBuilder) toolEnd(rec *evRec) {
	id, ok := "", false
	if b.step != "" {
		id, ok = b.toolsOpen.take(rec.toolCallID)
	}
	if !ok {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: tool_execution_end for %q, which was not started in this step; ignored", EventsName, rec.line, rec.toolCallID))
		return
	}
	if rec.cancelled {
		text := resultText(rec.result)
		b.emit(rec, model.Event{Type: model.ToolEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: id, Source: model.SourceTool,
			Outcome: model.OutcomeCancelled, Error: &model.ErrorInfo{Kind: "cancelled", Message: text}, Inferred: []string{"outcome"},
			Attrs: map[string]any{"result": text, "note": "the tool was aborted: its error result says so and the run's next model call ended aborted"}})
		return
	}
	b.endTool(rec, id, rec.isError, resultText(rec.result), nil)
}

func resultText(raw json.RawMessage) string {
	var r struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &r) == nil && r.Content != nil {
		return contentText(r.Content)
	}
	return contentText(raw)
}

func (b *evBuilder) endTool(rec *evRec, id string, isErr bool, text string, inferred []string) {
	ev := model.Event{Type: model.ToolEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: id, Source: model.SourceTool,
		Outcome: model.OutcomeOK, Attrs: map[string]any{"result": text}, Inferred: inferred}
	if isErr {
		ev.Outcome = model.OutcomeError
		ev.Error = &model.ErrorInfo{Kind: "tool", Message: text}
	}
	b.emit(rec, ev)
}

func (b *evBuilder) turnEnd(rec *evRec) {
	if b.step == "" {
		if b.stepPending == nil {
			b.em.Error(rec.line, fmt.Errorf("%s: line %d: turn_end without turn_start; ignored", EventsName, rec.line))
			return
		}
		b.needStep(rec)
	}
	if b.model != "" && rec.msg != nil { // message_end missing: take the message from turn_end
		b.messageEnd(&evRec{line: rec.line, typ: "message_end", msg: rec.msg, ts: rec.ts, tsOwn: rec.tsOwn})
	}
	m := b.stepMsg
	if m == nil {
		m = rec.msg
	}
	// tool calls the message requested but that have no execution events: take their results from
	// turn_end.toolResults (Inferred), else leave them unresolved.
	if m != nil && m.StopReason != "error" && m.StopReason != "aborted" {
		results := map[string]*piMessage{}
		var anon []*piMessage // results without toolCallId, for the calls without id, in order
		for i := range rec.toolResult {
			if id := rec.toolResult[i].ToolCallID; id != "" {
				results[id] = &rec.toolResult[i]
			} else {
				anon = append(anon, &rec.toolResult[i])
			}
		}
		started := b.toolsAnon // calls without id that had execution events: the first ones
		for _, c := range m.toolCalls() {
			var res *piMessage
			switch {
			case c.ID != "":
				if _, seen := b.tools[c.ID]; seen {
					continue
				}
				res = results[c.ID]
			case started > 0:
				started--
				if len(anon) > 0 {
					anon = anon[1:]
				}
				continue
			case len(anon) > 0:
				res, anon = anon[0], anon[1:]
			}
			if res == nil {
				continue
			}
			id := b.toolStart(&evRec{line: rec.line, toolCallID: c.ID, toolName: c.Name, args: c.Arguments, ts: rec.ts}, true)
			if id == "" {
				continue
			}
			b.toolsOpen.dropLast(c.ID) // ended right here
			b.endTool(rec, id, res.IsError != nil && *res.IsError, res.text(), []string{"start", "end"})
		}
	}
	out, e := model.OutcomeOK, (*model.ErrorInfo)(nil)
	if m != nil {
		out, e = stopOf(m)
	}
	b.emit(rec, model.Event{Type: model.StepEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, Source: model.SourceRuntime, Outcome: out, Error: e})
	b.step = ""
	if m != nil && (m.StopReason == "stop" || m.StopReason == "length") {
		b.stopBoundary = true
		b.emit(rec, model.Event{Type: model.TurnStopping, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Inferred: []string{"stopping"}})
	}
}

func (b *evBuilder) endTurn(rec *evRec, out model.Outcome, sr model.StopReason, e *model.ErrorInfo) {
	b.emit(rec, model.Event{Type: model.TurnEnd, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Outcome: out, StopReason: sr, Error: e, Inferred: []string{"turn"}})
	b.turn = ""
}

func (b *evBuilder) agentEnd(rec *evRec) {
	if b.run == "" {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: agent_end without agent_start; ignored", EventsName, rec.line))
		return
	}
	if b.step != "" {
		b.em.Error(rec.line, fmt.Errorf("%s: line %d: agent_end while a Pi turn is open (no turn_end); the step is reported open", EventsName, rec.line))
		b.closeState()
		return
	}
	st, sr, e, inferred := runEndOf(b.lastAssistant)
	out := model.OutcomeOK
	switch st {
	case model.StatusFailed:
		out = model.OutcomeError
	case model.StatusCancelled:
		out = model.OutcomeCancelled
	}
	b.endTurn(rec, out, sr, e)
	ev := model.Event{Type: model.RunEnd, RunID: b.run, Status: st, StopReason: sr, Error: e, Source: model.SourceRuntime}
	if inferred {
		ev.Inferred = []string{"status", "stop_reason"}
	}
	b.emit(rec, ev)
	b.prevRun = b.run
	b.closeState()
}

func (b *evBuilder) closeState() {
	b.run, b.turn, b.step, b.model = "", "", "", ""
	b.stepPending, b.users, b.lastAssistant, b.stepMsg = nil, nil, nil, nil
	b.stopBoundary = false
}

// finish leaves an unfinished run open: it is reported, not ended.
func (b *evBuilder) finish() {}
