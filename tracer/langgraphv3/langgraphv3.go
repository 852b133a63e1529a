// Package langgraphv3 reads LangGraph JS `streamEvents(input, { version: "v3" })` output (the
// protocol stream of @langchain/langgraph 1.7+): one protocol event per line,
// {"type":"event","seq":…,"method":…,"params":{"namespace":[…],"timestamp":…,"data":…}}, the
// invocations of one thread appended to one file.
//
// Mapping (docs/formats.md): a root `lifecycle` event (`running`) starts a Run, the root's
// `completed`/`failed` ends it; a model call is a `messages` message-start … message-finish, a
// tool call a `tools` tool-started … tool-finished/tool-error; `__interrupt__` updates make the
// run wait; an invocation whose first checkpoint is the last checkpoint of a waiting run resumes
// it (a new run, kind resume).
package langgraphv3

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "langgraph-v3"

// Description says which producer writes the format.
const Description = "LangGraph JS streamEvents v3 protocol events ({\"method\":…,\"params\":…} per line)"

// Expect says what a record of the format looks like.
const Expect = `LangGraph streamEvents v3 protocol events, {"type":"event","seq":…,"method":"lifecycle","params":{"namespace":[],"data":{…}}} per line`

var methods = map[string]bool{"lifecycle": true, "checkpoints": true, "values": true, "updates": true, "tasks": true, "messages": true, "tools": true, "custom": true, "input": true, "debug": true}

// Detect scores how much head looks like a v3 protocol stream: a first line with "method" one of
// the protocol's and "params" holding a "namespace" array.
func Detect(head []byte) int {
	line := ingest.FirstLine(bytes.TrimPrefix(head, []byte("\ufeff")))
	var p struct {
		Type   string `json:"type"`
		Method string `json:"method"`
		Params *struct {
			Namespace []json.RawMessage `json:"namespace"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &p) != nil || !methods[p.Method] || p.Params == nil || p.Params.Namespace == nil {
		return 0
	}
	if p.Type == "event" {
		return 95
	}
	return 70
}

type record struct {
	Type   string  `json:"type"`
	Seq    *int64  `json:"seq"`
	Method string  `json:"method"`
	Params *params `json:"params"`
}

type params struct {
	Namespace []string        `json:"namespace"`
	Timestamp *float64        `json:"timestamp"`
	Node      string          `json:"node"`
	Data      json.RawMessage `json:"data"`
}

// data is the union of the fields of the data objects the lifecycle needs.
type data struct {
	Event      string          `json:"event"`
	GraphName  string          `json:"graph_name"`
	Error      json.RawMessage `json:"error"`
	ID         string          `json:"id"`
	RunID      string          `json:"run_id"`
	Reason     string          `json:"reason"`
	Usage      *usage          `json:"usage"`
	Content    *block          `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolName   string          `json:"tool_name"`
	Input      json.RawMessage `json:"input"`
	Output     json.RawMessage `json:"output"`
	Message    string          `json:"message"`
	Node       string          `json:"node"`
	Values     json.RawMessage `json:"values"`
	Interrupts json.RawMessage `json:"interrupts"`
	Interrupt  json.RawMessage `json:"__interrupt__"`
	Name       string          `json:"name"`
}

type usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	Details      *struct {
		CacheRead int64 `json:"cache_read"`
	} `json:"input_token_details"`
}

type block struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
	Text string `json:"text"`
}

var (
	reAbort     = regexp.MustCompile(`(?i)abort`)
	reRecursion = regexp.MustCompile(`(?i)recursion limit|GraphRecursionError`)
)

// Decode reads a LangGraph v3 protocol stream and emits canonical events.
func Decode(r io.Reader, em *ingest.Emitter) error {
	b := &builder{em: em, st: em.Shared()}
	base := strings.TrimSuffix(filepath.Base(em.File), filepath.Ext(em.File))
	b.fileSession = "langgraph:" + base
	err := ingest.EachLine(r, em, Name, func(line []byte, n int) error {
		var rec record
		if err := json.Unmarshal(line, &rec); err != nil {
			return describe(err)
		}
		if rec.Method == "" || rec.Params == nil {
			return fmt.Errorf("expected a protocol event {\"type\":\"event\",\"method\":…,\"params\":{\"namespace\":[…],\"data\":…}}")
		}
		var d data
		if len(rec.Params.Data) > 0 && rec.Params.Data[0] == '{' {
			if err := json.Unmarshal(rec.Params.Data, &d); err != nil {
				return fmt.Errorf("params.data: %w", describe(err))
			}
		}
		b.line = n
		b.apply(&rec, &d)
		return nil
	})
	if b.pending != nil {
		b.startRun("")
	}
	// a run whose root lifecycle never ended stays open (a live or torn stream)
	return err
}

func describe(err error) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Errorf("field %s is a JSON %s: expected a protocol event {type, seq, method, params: {namespace, timestamp, data}}", te.Field, te.Value)
	}
	return err
}

type call struct {
	id, name string
	step     string
	ended    bool
}

type builder struct {
	em          *ingest.Emitter
	st          *ingest.Shared
	fileSession string
	session     string
	line        int
	ts          time.Time

	pending     *pendingRun // a root lifecycle start not emitted yet (waiting for the first checkpoint)
	run, turn   string
	step        string
	stepN       int
	models      map[string]string // messages run_id → model call id (open)
	modelStep   map[string]string
	modelN      int
	tools       map[string]*call // tool_call_id → call (this run)
	toolOrder   []*call
	interrupted bool
	breakpoint  bool
	checkpoints []string
	graph       string
}

type pendingRun struct {
	line int
	ts   time.Time
	name string
}

func (b *builder) emit(ev model.Event) {
	ev.SessionID = b.session
	if ev.Origin == nil {
		ev.Origin = b.em.At(b.line)
	}
	if ev.TS.IsZero() {
		ev.TS = b.ts
	}
	b.em.Emit(&ev)
}

func (b *builder) apply(rec *record, d *data) {
	p := rec.Params
	if p.Timestamp != nil && *p.Timestamp > 0 && *p.Timestamp < 1e14 {
		b.ts = time.UnixMilli(int64(*p.Timestamp)).UTC()
	}
	root := len(p.Namespace) == 0
	if rec.Method == "lifecycle" && root && (d.Event == "running" || d.Event == "started") {
		if b.pending != nil || b.run != "" {
			b.em.Error(b.line, fmt.Errorf("%s: line %d: a root graph starts while the previous invocation never ended; that run is reported open", Name, b.line))
			if b.pending != nil {
				b.startRun("")
			}
			b.reset()
		}
		b.pending = &pendingRun{line: b.line, ts: b.ts, name: d.GraphName}
		return
	}
	if b.pending != nil {
		first := ""
		if rec.Method == "checkpoints" && root {
			first = d.ID
		}
		b.startRun(first)
	}
	if b.run == "" {
		return // nothing of an invocation outside its lifecycle
	}
	switch rec.Method {
	case "checkpoints":
		if root && d.ID != "" {
			b.checkpoints = append(b.checkpoints, d.ID)
		}
	case "messages":
		b.message(d)
	case "tools":
		b.tool(d)
	case "updates":
		if root && (d.Node == "__interrupt__" || p.Node == "__interrupt__") {
			b.interrupted = true
			if string(bytes.TrimSpace(d.Values)) == "[]" {
				b.breakpoint = true
			}
		}
	case "values":
		if root && len(d.Interrupt) > 0 && string(d.Interrupt) != "[]" {
			b.interrupted = true
		}
	case "tasks":
		if t := bytes.TrimSpace(d.Interrupts); len(t) > 2 && t[0] == '[' {
			b.interrupted = true
		}
	case "input":
		if d.Event == "requested" {
			b.interrupted = true
		}
	case "lifecycle":
		if root {
			switch d.Event {
			case "completed", "interrupted":
				b.endRun(d.Event == "interrupted", "")
			case "failed":
				msg := errText(d.Error)
				if msg == "" {
					msg = "the graph failed"
				}
				b.endRun(false, msg)
			}
		}
	}
}

func errText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Message != "" {
		return o.Message
	}
	return string(raw)
}

func (b *builder) reset() {
	b.run, b.turn, b.step, b.stepN = "", "", "", 0
	b.models, b.modelStep, b.tools, b.toolOrder = nil, nil, nil, nil
	b.interrupted, b.breakpoint, b.checkpoints = false, false, nil
}

func ckptKey(id string) string { return Name + ":checkpoint\x00" + id }

// startRun emits the run the pending root lifecycle event opened; first is the invocation's
// first checkpoint id, which joins a resume to the waiting run whose last checkpoint it is.
func (b *builder) startRun(first string) {
	pr := b.pending
	b.pending = nil
	var parent string
	b.session = b.fileSession
	if first != "" {
		if v := b.st.Value(ckptKey(first)); v != "" {
			if i := strings.IndexByte(v, 0); i > 0 {
				b.session, parent = v[:i], v[i+1:]
			}
		}
	}
	if b.st.StartSession(b.session) {
		b.em.Emit(&model.Event{Type: model.SessionStart, SessionID: b.session, TS: pr.ts, Source: model.SourceRuntime, Origin: b.em.At(pr.line), Inferred: []string{"ids"},
			Attrs: map[string]any{"note": "v3 protocol events carry no thread id: one session per file (a resume found by its checkpoint joins its run's session)"}})
	}
	k := b.st.NextRun(b.session)
	b.run = b.st.Unique("run", fmt.Sprintf("%s/run-%d", b.session, k))
	b.graph = pr.name
	b.models, b.modelStep, b.tools = map[string]string{}, map[string]string{}, map[string]*call{}
	ev := model.Event{Type: model.RunStart, RunID: b.run, TS: pr.ts, Attempt: 1, Name: pr.name, Source: model.SourceRuntime, Origin: b.em.At(pr.line), Inferred: []string{"ids"}}
	if parent != "" {
		ev.Kind, ev.ParentRunID = "resume", parent
		ev.Inferred = append(ev.Inferred, "kind")
		ev.Attrs = map[string]any{"resumed_checkpoint": first, "note": "the invocation starts from the last checkpoint of a waiting run of the thread: Command({resume}) or null input"}
	}
	b.emit(ev)
	b.turn = b.st.Unique("turn", b.run+"/turn-1")
	b.emit(model.Event{Type: model.TurnStart, RunID: b.run, TurnID: b.turn, TS: pr.ts, Source: model.SourceRuntime, Origin: b.em.At(pr.line), Inferred: []string{"turn"}})
}

func (b *builder) newStep(attrs map[string]any) {
	b.endStep(model.OutcomeOK, nil)
	b.stepN++
	b.step = b.st.Unique("step", fmt.Sprintf("%s/step-%d", b.turn, b.stepN))
	b.emit(model.Event{Type: model.StepStart, RunID: b.run, TurnID: b.turn, StepID: b.step, Source: model.SourceRuntime, Inferred: []string{"step"}, Attrs: attrs})
}

func (b *builder) endStep(out model.Outcome, e *model.ErrorInfo) {
	if b.step == "" {
		return
	}
	b.emit(model.Event{Type: model.StepEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, Source: model.SourceRuntime, Outcome: out, Error: e})
	b.step = ""
}

func (b *builder) message(d *data) {
	switch d.Event {
	case "message-start":
		if _, open := b.models[d.RunID]; open {
			return
		}
		b.newStep(nil)
		b.modelN++
		id := b.st.Unique("model", b.step+"/model")
		b.models[d.RunID] = id
		b.modelStep[d.RunID] = b.step
		attrs := map[string]any{}
		if d.ID != "" {
			attrs["message_id"] = d.ID
		}
		b.emit(model.Event{Type: model.ModelStart, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: id, Source: model.SourceModel, Attrs: attrs})
	case "message-finish", "error":
		id, ok := b.models[d.RunID]
		if !ok {
			return
		}
		delete(b.models, d.RunID)
		ev := model.Event{Type: model.ModelEnd, RunID: b.run, TurnID: b.turn, StepID: b.modelStep[d.RunID], CallID: id, Source: model.SourceModel, Outcome: model.OutcomeOK}
		if d.Reason != "" {
			ev.Attrs = map[string]any{"finish_reason": d.Reason}
		}
		if u := d.Usage; u != nil && u.InputTokens >= 0 && u.OutputTokens >= 0 {
			ev.Usage = &model.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
			if u.Details != nil && u.Details.CacheRead >= 0 && u.Details.CacheRead <= u.InputTokens {
				ev.Usage.CachedTokens = u.Details.CacheRead
			}
		}
		if d.Event == "error" {
			msg := d.Message
			if msg == "" {
				msg = errText(d.Error)
			}
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: msg}
			if reAbort.MatchString(msg) {
				ev.Outcome, ev.Error.Kind = model.OutcomeCancelled, "cancelled"
			}
		}
		b.emit(ev)
	}
}

func (b *builder) tool(d *data) {
	switch d.Event {
	case "tool-started":
		if c := b.tools[d.ToolCallID]; c != nil && !c.ended {
			return
		}
		if b.step == "" {
			b.newStep(map[string]any{"note": "a tool run with no model call before it in this invocation (a resume runs the pending tool first)"})
		}
		id := d.ToolCallID
		if id == "" {
			id = fmt.Sprintf("%s/tool-%d", b.step, len(b.toolOrder)+1)
		}
		c := &call{id: b.st.Unique("tool", id), name: d.ToolName, step: b.step}
		if d.ToolCallID != "" {
			b.tools[d.ToolCallID] = c
		}
		b.toolOrder = append(b.toolOrder, c)
		attrs := map[string]any{}
		if s := inputText(d.Input); s != "" {
			attrs[model.AttrArgs] = model.CutText(s, model.PayloadKeepMax)
		}
		b.emit(model.Event{Type: model.ToolStart, RunID: b.run, TurnID: b.turn, StepID: c.step, CallID: c.id, Name: c.name, Source: model.SourceRuntime, Attrs: attrs})
	case "tool-finished", "tool-error":
		c := b.tools[d.ToolCallID]
		if c == nil || c.ended {
			b.em.Error(b.line, fmt.Errorf("%s: line %d: %s for tool call %q, which did not start; ignored", Name, b.line, d.Event, d.ToolCallID))
			return
		}
		c.ended = true
		ev := model.Event{Type: model.ToolEnd, RunID: b.run, TurnID: b.turn, StepID: c.step, CallID: c.id, Name: c.name, Source: model.SourceTool, Outcome: model.OutcomeOK}
		if d.Event == "tool-error" {
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: clip(d.Message)}
			if reAbort.MatchString(d.Message) {
				ev.Outcome, ev.Error.Kind = model.OutcomeCancelled, "cancelled"
			}
		} else if st, text := toolMessage(d.Output); st == "error" {
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: clip(text)}
		} else if text != "" {
			ev.Attrs = map[string]any{model.AttrResult: model.CutText(text, model.PayloadKeepMax)}
		}
		b.emit(ev)
	}
}

// toolMessage reads the status and content of a serialized ToolMessage
// ({"lc":1,"type":"constructor","kwargs":{status, content}}) or a plain value.
func toolMessage(raw json.RawMessage) (status, text string) {
	var m struct {
		Kwargs *struct {
			Status  string          `json:"status"`
			Content json.RawMessage `json:"content"`
		} `json:"kwargs"`
	}
	if json.Unmarshal(raw, &m) == nil && m.Kwargs != nil {
		var s string
		if json.Unmarshal(m.Kwargs.Content, &s) != nil {
			s = string(m.Kwargs.Content)
		}
		return m.Kwargs.Status, s
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return "", s
	}
	return "", string(raw)
}

func inputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func clip(s string) string {
	const max = 2048
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "…"
}

// endRun ends the invocation: waiting when it was interrupted, else by its error (msg).
func (b *builder) endRun(interrupted bool, msg string) {
	interrupted = interrupted || b.interrupted
	cancelled := msg != "" && reAbort.MatchString(msg)
	// open model calls and tool calls
	for rid, id := range b.models {
		out, e := model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: msg}
		if cancelled || msg == "" {
			out, e = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "the graph ended while the model call streamed"}
		}
		b.emit(model.Event{Type: model.ModelEnd, RunID: b.run, TurnID: b.turn, StepID: b.modelStep[rid], CallID: id, Source: model.SourceModel, Outcome: out, Error: e, Inferred: []string{"end"}})
		delete(b.models, rid)
	}
	stepOut, stepErr := model.OutcomeOK, (*model.ErrorInfo)(nil)
	for _, c := range b.toolOrder {
		if c.ended {
			continue
		}
		c.ended = true
		ev := model.Event{Type: model.ToolEnd, RunID: b.run, TurnID: b.turn, StepID: c.step, CallID: c.id, Name: c.name, Source: model.SourceTool, Inferred: []string{"end"}}
		switch {
		case interrupted && msg == "":
			ev.Outcome = model.OutcomeOK
			ev.Attrs = map[string]any{"interrupted": true, "note": "interrupt() paused the graph inside this call: not a failure; the call runs again when the thread is resumed"}
		case cancelled:
			ev.Outcome, ev.Error = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: msg}
			stepOut, stepErr = model.OutcomeCancelled, ev.Error
		default:
			ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: "the graph failed while the tool ran: " + firstLine(msg)}
			stepOut, stepErr = model.OutcomeError, ev.Error
		}
		b.emit(ev)
	}
	switch {
	case msg == "" && interrupted:
		b.endStep(model.OutcomeOK, nil)
		ws := model.Event{Type: model.RunStatusChange, RunID: b.run, Status: model.StatusWaiting, WaitReason: model.WaitApproval, StopReason: model.StopAwaitingApproval,
			Source: model.SourceRuntime, Cause: "interrupt", Inferred: []string{"status"}}
		if b.breakpoint {
			ws.Cause = "breakpoint"
			ws.Attrs = map[string]any{"note": "the graph stopped at a static breakpoint (interruptBefore/interruptAfter): __interrupt__ with no value"}
		}
		b.emit(ws)
		b.emit(model.Event{Type: model.TurnEnd, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Outcome: model.OutcomeOK, StopReason: model.StopAwaitingApproval, Inferred: []string{"turn"}})
		if n := len(b.checkpoints); n > 0 {
			b.st.SetValue(ckptKey(b.checkpoints[n-1]), b.session+"\x00"+b.run)
		}
	case msg == "":
		b.endStep(model.OutcomeOK, nil)
		b.emit(model.Event{Type: model.TurnStopping, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Inferred: []string{"stopping"}})
		b.emit(model.Event{Type: model.TurnEnd, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Outcome: model.OutcomeOK, StopReason: model.StopGoalReached, Inferred: []string{"turn"}})
		b.emit(model.Event{Type: model.RunEnd, RunID: b.run, Status: model.StatusCompleted, StopReason: model.StopGoalReached, Source: model.SourceRuntime})
	default:
		st, sr, kind := model.StatusFailed, model.StopError, "error"
		switch {
		case cancelled:
			st, sr, kind = model.StatusCancelled, model.StopCancelled, "cancelled"
		case reRecursion.MatchString(msg):
			sr, kind = model.StopMaxSteps, "GraphRecursionError"
		}
		e := &model.ErrorInfo{Kind: kind, Message: firstLine(msg)}
		out := model.OutcomeError
		if cancelled {
			out = model.OutcomeCancelled
		}
		if stepErr == nil && cancelled {
			stepOut, stepErr = out, e
		}
		b.endStep(stepOut, stepErr)
		b.emit(model.Event{Type: model.TurnEnd, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Outcome: out, StopReason: sr, Error: e, Inferred: []string{"turn"}})
		b.emit(model.Event{Type: model.RunEnd, RunID: b.run, Status: st, StopReason: sr, Error: e, Source: model.SourceRuntime, Inferred: []string{"stop_reason"}})
	}
	b.reset()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
