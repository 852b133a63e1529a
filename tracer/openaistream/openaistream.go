// Package openaistream reads OpenAI Agents SDK (JS, @openai/agents) run streams: the events of
// `run(agent, input, { stream: true })` (RunRawModelStreamEvent `raw_model_stream_event`,
// RunItemStreamEvent `run_item_stream_event`, RunAgentUpdatedStreamEvent
// `agent_updated_stream_event`) written one per line with JSON.stringify, the run() calls of one
// conversation (a resume after an approval, a new prompt) appended to one file.
//
// Mapping (docs/formats.md): the stream has no ids of the run, no times and no end: a model call
// is response_started … response_done (our Step opens with it), a tool call is tool_called …
// tool_output by callId, a handoff is handoff_requested … handoff_occurred. A run ends when the
// model answers without tool calls; tool_approval_requested pauses it (waiting,
// awaiting_approval) and the outputs that follow are the resume: a new Turn of the same run. How
// a stream that stops elsewhere ended is inferred from where it stopped.
package openaistream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "openai-agents-stream"

// Description says which producer writes the format.
const Description = "OpenAI Agents SDK (JS) run stream events, run(…, {stream: true}) written as JSON lines"

// Expect says what a record of the format looks like, for errors about unreadable inputs.
const Expect = `OpenAI Agents run stream events, {"type":"raw_model_stream_event","data":{…}} or {"type":"run_item_stream_event","name":…,"item":{…}} per line`

// toolErrorPrefix starts the text the SDK's default tool error function returns to the model
// when a tool throws (JS and Python).
const toolErrorPrefix = "An error occurred while running the tool"

// rejectionMessage is what the SDK answers a rejected approval with (TOOL_APPROVAL_REJECTION_MESSAGE).
const rejectionMessage = "Tool execution was not approved."

var eventTypes = map[string]bool{"raw_model_stream_event": true, "raw_response_event": true, "run_item_stream_event": true, "agent_updated_stream_event": true}

// Detect scores how much head looks like an OpenAI Agents run stream: a first line that is an
// object with one of the three stream event types.
func Detect(head []byte) int {
	line := ingest.FirstLine(bytes.TrimPrefix(head, []byte("\ufeff")))
	var p struct {
		Type  string          `json:"type"`
		Data  json.RawMessage `json:"data"`
		Item  json.RawMessage `json:"item"`
		Agent json.RawMessage `json:"agent"`
		New   json.RawMessage `json:"new_agent"`
	}
	if json.Unmarshal(line, &p) != nil || !eventTypes[p.Type] {
		return 0
	}
	if p.Data != nil || p.Item != nil || p.Agent != nil || p.New != nil {
		return 95
	}
	return 60
}

// record is one stream event.
type record struct {
	Type  string     `json:"type"`
	Name  string     `json:"name"`
	Data  *rawEvent  `json:"data"`
	Item  *runItem   `json:"item"`
	Agent *agentJSON `json:"agent"`
	// NewAgent is the Python SDK's AgentUpdatedStreamEvent.new_agent.
	NewAgent *agentJSON `json:"new_agent"`
}

type agentJSON struct {
	Name string `json:"name"`
}

// rawEvent is the data of a raw_model_stream_event (the SDK's StreamEvent).
type rawEvent struct {
	Type     string    `json:"type"`
	Response *response `json:"response"`
}

type response struct {
	ID     string            `json:"id"`
	Model  string            `json:"model"`
	Usage  *usage            `json:"usage"`
	Output []json.RawMessage `json:"output"`
}

type usage struct {
	InputTokens   *int64 `json:"inputTokens"`
	OutputTokens  *int64 `json:"outputTokens"`
	InputTokens2  *int64 `json:"input_tokens"`
	OutputTokens2 *int64 `json:"output_tokens"`
	Details       []struct {
		CachedTokens *int64 `json:"cachedTokens"`
	} `json:"inputTokensDetails"`
	Details2 *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
}

// outputItem is the part of a response output item the lifecycle needs.
type outputItem struct {
	Type    string `json:"type"`
	CallID  string `json:"callId"`
	CallID2 string `json:"call_id"`
	Name    string `json:"name"`
}

// runItem is a RunItem's toJSON(): {type, rawItem, agent, output?, executionStatus?}.
type runItem struct {
	Type            string          `json:"type"`
	RawItem         *rawItem        `json:"rawItem"`
	RawItem2        *rawItem        `json:"raw_item"` // the Python SDK's dataclass field
	Agent           *agentJSON      `json:"agent"`
	Output          json.RawMessage `json:"output"`
	ExecutionStatus string          `json:"executionStatus"`
	ToolName        string          `json:"toolName"`
}

type rawItem struct {
	Type      string          `json:"type"`
	CallID    string          `json:"callId"`
	CallID2   string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
	Content   json.RawMessage `json:"content"`
}

// Decode reads an OpenAI Agents run stream and emits canonical events.
func Decode(r io.Reader, em *ingest.Emitter) error {
	b := &builder{em: em, st: em.Shared()}
	base := strings.TrimSuffix(filepath.Base(em.File), filepath.Ext(em.File))
	b.session = "openai-stream:" + base
	err := ingest.EachLine(r, em, Name, func(line []byte, n int) error {
		var rec record
		if err := json.Unmarshal(line, &rec); err != nil {
			return describe(err)
		}
		if !eventTypes[rec.Type] {
			return fmt.Errorf("event type %q: expected raw_model_stream_event, run_item_stream_event or agent_updated_stream_event", rec.Type)
		}
		if it := rec.Item; it != nil && it.RawItem == nil {
			it.RawItem = it.RawItem2
		}
		if raw := rec.itemRaw(); raw != nil && raw.CallID == "" {
			raw.CallID = raw.CallID2
		}
		b.line = n
		return b.apply(&rec)
	})
	if b.line > 0 {
		b.finish()
	}
	return err
}

func describe(err error) error {
	var te *json.UnmarshalTypeError
	if ok := asType(err, &te); ok {
		return fmt.Errorf("field %s is a JSON %s: expected a stream event {type, data|name+item|agent}", te.Field, te.Value)
	}
	return err
}

func asType(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}

func (rec *record) itemRaw() *rawItem {
	if rec.Item == nil {
		return nil
	}
	return rec.Item.RawItem
}

// call is one tool call of the current step.
type call struct {
	piID    string // the SDK's callId
	id      string // canonical call id
	name    string
	args    string
	line    int
	started bool
	ended   bool
	handoff bool
	// approval is set when tool_approval_requested asked for it: it runs (or is rejected) only
	// when the run is resumed; resolved once its output arrived.
	approval, resolved bool
}

type builder struct {
	em      *ingest.Emitter
	st      *ingest.Shared
	session string
	line    int
	started bool // session/start written

	run, turn, step, model string
	runN, turnN, stepN     int
	agent                  string
	calls                  []*call          // this step's calls, in request order
	byID                   map[string]*call // by the SDK's callId, this step
	final                  bool             // the step's model answered without tool calls
	waiting                bool             // the run is paused for approvals
	// py is set once a record shows the Python SDK's shape (raw_response_event, new_agent); its
	// stream has no approval event and marks each Runner.run_streamed call with an
	// agent_updated_stream_event.
	py bool
	// handedOff is set by a handoff output: the agent_updated_stream_event after it is the
	// agent change, not a new run_streamed call.
	handedOff  bool
	resumeStep bool // the current step is the tool-only step of a resume
}

func (b *builder) emit(ev model.Event) {
	ev.SessionID = b.session
	if ev.Origin == nil {
		ev.Origin = b.em.At(b.line)
	}
	b.em.Emit(&ev)
}

func (b *builder) ensureSession() {
	if b.started {
		return
	}
	b.started = true
	if b.st.StartSession(b.session) {
		b.emit(model.Event{Type: model.SessionStart, Source: model.SourceRuntime, Inferred: []string{"ids"},
			Attrs: map[string]any{"note": "OpenAI Agents run streams carry no ids: session id taken from the file name"}})
	}
}

func (b *builder) apply(rec *record) error {
	b.ensureSession()
	switch rec.Type {
	case "agent_updated_stream_event":
		if rec.Agent != nil {
			b.agent = rec.Agent.Name
		}
		if rec.NewAgent != nil {
			b.py = true
			b.agent = rec.NewAgent.Name
			if !b.handedOff {
				b.callBoundary()
			}
		}
		b.handedOff = false
	case "raw_response_event":
		b.py = true
		if rec.Data == nil {
			return fmt.Errorf("raw_response_event without data: expected {\"type\":\"raw_response_event\",\"data\":{\"type\":\"response.…\"}}")
		}
		switch rec.Data.Type {
		case "response.created":
			b.modelStart()
		case "response.completed", "response.incomplete", "response.failed":
			if rec.Data.Response == nil {
				return fmt.Errorf("%s without response: expected data.response {id, usage, output}", rec.Data.Type)
			}
			b.modelEnd(rec.Data.Response)
		}
	case "raw_model_stream_event":
		if rec.Data == nil {
			return fmt.Errorf("raw_model_stream_event without data: expected {\"type\":\"raw_model_stream_event\",\"data\":{\"type\":…}}")
		}
		switch rec.Data.Type {
		case "response_started":
			b.modelStart()
		case "response_done":
			if rec.Data.Response == nil {
				return fmt.Errorf("response_done without response: expected data.response {id, usage, output}")
			}
			b.modelEnd(rec.Data.Response)
		}
	case "run_item_stream_event":
		if rec.Item == nil {
			return fmt.Errorf("run_item_stream_event %q without item: expected {\"name\":…,\"item\":{\"type\":…,\"rawItem\":{…}}}", rec.Name)
		}
		if rec.Item.Agent != nil && rec.Item.Agent.Name != "" {
			b.agent = rec.Item.Agent.Name
		}
		raw := rec.Item.RawItem
		switch rec.Name {
		case "tool_called", "handoff_requested":
			if raw == nil {
				return fmt.Errorf("%s without item.rawItem: expected the function_call item", rec.Name)
			}
			b.toolCalled(raw, rec.Name == "handoff_requested")
		case "tool_approval_requested":
			if raw == nil {
				return fmt.Errorf("tool_approval_requested without item.rawItem: expected the function_call item")
			}
			b.approvalRequested(raw, rec.Item.ToolName)
		case "tool_output", "handoff_occurred", "handoff_occured": // the Python SDK spells it handoff_occured
			if raw == nil {
				return fmt.Errorf("%s without item.rawItem: expected the function_call_result item", rec.Name)
			}
			b.toolOutput(rec.Item, rec.Name != "tool_output")
			b.handedOff = rec.Name != "tool_output"
		case "message_output_created":
			if b.run != "" && raw != nil {
				b.emit(model.Event{Type: model.Message, RunID: b.run, StepID: b.step, Role: "assistant", Text: contentText(raw.Content), Source: model.SourceModel})
			}
		}
	}
	return nil
}

// startRun opens a run and its first turn.
func (b *builder) startRun() {
	b.runN = b.st.NextRun(b.session)
	b.run = b.st.Unique("run", fmt.Sprintf("%s/run-%d", b.session, b.runN))
	attrs := map[string]any{"note": "run streams carry no timestamps and no run ids: order kept, durations unknown"}
	if b.agent != "" {
		attrs["agent"] = b.agent
	}
	b.emit(model.Event{Type: model.RunStart, RunID: b.run, Attempt: 1, Name: b.agent, Source: model.SourceRuntime, Inferred: []string{"run", "ids", "ts"}, Attrs: attrs})
	b.turnN, b.stepN = 0, 0
	b.startTurn(nil)
}

func (b *builder) startTurn(attrs map[string]any) {
	b.turnN++
	b.turn = b.st.Unique("turn", fmt.Sprintf("%s/turn-%d", b.run, b.turnN))
	b.emit(model.Event{Type: model.TurnStart, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Inferred: []string{"turn"}, Attrs: attrs})
}

func (b *builder) startStep(attrs map[string]any) {
	b.stepN++
	b.step = b.st.Unique("step", fmt.Sprintf("%s/step-%d", b.turn, b.stepN))
	b.calls, b.byID, b.final = nil, map[string]*call{}, false
	b.emit(model.Event{Type: model.StepStart, RunID: b.run, TurnID: b.turn, StepID: b.step, Source: model.SourceRuntime, Inferred: []string{"step"}, Attrs: attrs})
}

func (b *builder) endStep(out model.Outcome, e *model.ErrorInfo) {
	if b.step == "" {
		return
	}
	if b.model != "" {
		b.cancelModel()
	}
	b.endCallsCancelled()
	b.emit(model.Event{Type: model.StepEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, Source: model.SourceRuntime, Outcome: out, Error: e})
	b.step, b.resumeStep = "", false
}

func (b *builder) endRun(st model.RunStatus, sr model.StopReason, e *model.ErrorInfo, inferred []string, note string) {
	out := model.OutcomeOK
	switch st {
	case model.StatusFailed:
		out = model.OutcomeError
	case model.StatusCancelled:
		out = model.OutcomeCancelled
	}
	if st == model.StatusCompleted {
		b.emit(model.Event{Type: model.TurnStopping, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Inferred: []string{"stopping"}})
	}
	b.emit(model.Event{Type: model.TurnEnd, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Outcome: out, StopReason: sr, Error: e, Inferred: []string{"turn"}})
	ev := model.Event{Type: model.RunEnd, RunID: b.run, Status: st, StopReason: sr, Error: e, Source: model.SourceRuntime, Inferred: append([]string{"end"}, inferred...)}
	if note != "" {
		ev.Attrs = map[string]any{"note": note}
	}
	b.emit(ev)
	b.run, b.turn, b.model, b.step = "", "", "", ""
	b.calls, b.byID, b.waiting = nil, map[string]*call{}, false
}

// modelStart opens a model call: in a new step of the current run, the first step of a new run
// (the previous one answered), or the step after a resume.
func (b *builder) modelStart() {
	if b.model != "" {
		b.em.Error(b.line, fmt.Errorf("%s: line %d: response_started while a model call is open (no response_done); it is ended cancelled", Name, b.line))
		b.cancelModel()
	}
	if b.run != "" && b.step != "" && b.awaiting() {
		b.pause() // a resume that answers no waiting call with an output (none in the SDK)
	}
	if b.waiting {
		b.resume()
	}
	if b.run != "" && b.step != "" {
		b.startRequested()
		final := b.final
		b.endCallsCancelled()
		b.endStep(model.OutcomeOK, nil)
		if final {
			b.endRun(model.StatusCompleted, model.StopGoalReached, nil, nil, "")
		}
	}
	if b.run == "" {
		b.startRun()
	}
	b.startStep(nil)
	b.model = b.st.Unique("model", b.step+"/model")
	attrs := map[string]any{}
	if b.agent != "" {
		attrs["agent"] = b.agent
	}
	b.emit(model.Event{Type: model.ModelStart, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: b.model, Source: model.SourceModel, Attrs: attrs})
}

func (b *builder) modelEnd(r *response) {
	if b.model == "" {
		b.em.Error(b.line, fmt.Errorf("%s: line %d: response_done without response_started; model call inferred", Name, b.line))
		b.modelStart()
	}
	var requested []string
	final := true
	for _, raw := range r.Output {
		var it outputItem
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		if it.Type == "function_call" {
			final = false
			if it.CallID == "" {
				it.CallID = it.CallID2
			}
			if it.CallID != "" {
				requested = append(requested, it.CallID)
			}
		}
	}
	attrs := map[string]any{}
	if r.ID != "" {
		attrs["response_id"] = r.ID
	}
	if len(requested) > 0 {
		attrs["tool_calls"] = requested
	}
	if len(r.Output) > 0 { // the response's output items (messages, function calls): the payload
		if out, err := json.Marshal(r.Output); err == nil {
			attrs[model.AttrOutput] = model.CutText(string(out), model.PayloadKeepMax)
		}
	}
	b.emit(model.Event{Type: model.ModelEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: b.model, Name: r.Model, Source: model.SourceModel,
		Outcome: model.OutcomeOK, Usage: r.Usage.canonical(), Attrs: attrs})
	b.model = ""
	b.final = final
}

func (u *usage) canonical() *model.Usage {
	if u == nil {
		return nil
	}
	pick := func(a, b *int64) int64 {
		if a != nil {
			return *a
		}
		if b != nil {
			return *b
		}
		return 0
	}
	out := &model.Usage{InputTokens: pick(u.InputTokens, u.InputTokens2), OutputTokens: pick(u.OutputTokens, u.OutputTokens2)}
	for _, d := range u.Details {
		if d.CachedTokens != nil {
			out.CachedTokens += *d.CachedTokens
		}
	}
	if u.Details2 != nil && u.Details2.CachedTokens != nil {
		out.CachedTokens += *u.Details2.CachedTokens
	}
	if out.InputTokens < 0 || out.OutputTokens < 0 || out.CachedTokens < 0 || out.CachedTokens > out.InputTokens {
		return nil
	}
	return out
}

// cancelModel ends the open model call cancelled (its stream stopped before response_done).
func (b *builder) cancelModel() {
	b.emit(model.Event{Type: model.ModelEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: b.model, Source: model.SourceModel,
		Outcome: model.OutcomeCancelled, Error: &model.ErrorInfo{Kind: "cancelled", Message: "the stream stopped before response_done"}, Inferred: []string{"end", "outcome"}})
	b.model = ""
}

func (b *builder) toolCalled(raw *rawItem, handoff bool) {
	if b.waiting {
		b.resume()
	}
	if b.step == "" {
		b.em.Error(b.line, fmt.Errorf("%s: line %d: a tool call outside a model step; step inferred", Name, b.line))
		if b.run == "" {
			b.startRun()
		}
		b.startStep(map[string]any{"note": "a tool call without a model call before it"})
	}
	if raw.CallID != "" && b.byID[raw.CallID] != nil {
		return // the same call again
	}
	c := &call{piID: raw.CallID, name: raw.Name, args: raw.Arguments, line: b.line, handoff: handoff}
	c.id = b.st.Unique("call", callIDOf(raw.CallID, b.step, len(b.calls)+1))
	b.calls = append(b.calls, c)
	if raw.CallID != "" {
		b.byID[raw.CallID] = c
	}
}

func callIDOf(sdk, step string, k int) string {
	if sdk != "" {
		return sdk
	}
	return fmt.Sprintf("%s/tool-%d", step, k)
}

func (b *builder) approvalRequested(raw *rawItem, toolName string) {
	c := b.byID[raw.CallID]
	if c == nil {
		b.toolCalled(raw, false)
		c = b.byID[raw.CallID]
		if c == nil {
			c = b.calls[len(b.calls)-1]
		}
	}
	if c.started || c.approval {
		return
	}
	c.approval = true
	if toolName == "" {
		toolName = c.name
	}
	attrs := map[string]any{}
	if c.args != "" {
		attrs["args"] = c.args
	}
	b.emit(model.Event{Type: model.ApprovalRequest, RunID: b.run, CallID: c.id, Name: toolName, Source: model.SourceRuntime, Attrs: attrs})
}

// startRequested starts the calls of the step that are not waiting for approval, in request
// order (the SDK runs them in parallel after the model's response).
func (b *builder) startRequested() {
	for _, c := range b.calls {
		if c.started || c.approval {
			continue
		}
		b.startCall(c)
	}
}

func (b *builder) startCall(c *call) {
	c.started = true
	attrs := map[string]any{}
	if c.args != "" {
		attrs["args"] = c.args
	}
	if c.handoff {
		attrs["handoff"] = true
	}
	if b.agent != "" {
		attrs["agent"] = b.agent
	}
	b.emit(model.Event{Type: model.ToolStart, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: c.id, Name: c.name, Source: model.SourceRuntime, Attrs: attrs})
}

// endCallsCancelled ends the started calls of the step that never got their output.
func (b *builder) endCallsCancelled() bool {
	found := false
	for _, c := range b.calls {
		if c.started && !c.ended {
			c.ended, found = true, true
			b.emit(model.Event{Type: model.ToolEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: c.id, Name: c.name, Source: model.SourceTool,
				Outcome: model.OutcomeCancelled, Error: &model.ErrorInfo{Kind: "cancelled", Message: "the stream stopped while the tool ran (the run was aborted)"},
				Inferred: []string{"end", "outcome"}})
		}
	}
	return found
}

func (b *builder) toolOutput(it *runItem, handoff bool) {
	raw := it.RawItem
	c := b.byID[raw.CallID]
	if b.run == "" {
		c = nil
	}
	if c != nil && c.approval && !c.resolved {
		// the output of a call that waited for approval: run() was called again with the
		// interrupted state (approved or rejected)
		if !b.waiting {
			b.pause()
		}
		if b.turn == "" {
			b.resume()
		}
		b.resolveAndRun(c, it)
		return
	}
	if c == nil || c.ended {
		b.em.Error(b.line, fmt.Errorf("%s: line %d: output for call %q, which no model call of the step requested; ignored", Name, b.line, raw.CallID))
		return
	}
	if !c.started {
		b.startRequested()
		if !c.started {
			b.startCall(c)
		}
	}
	b.endCall(c, it)
}

func (b *builder) endCall(c *call, it *runItem) {
	c.ended = true
	text := outputText(it)
	ev := model.Event{Type: model.ToolEnd, RunID: b.run, TurnID: b.turn, StepID: b.step, CallID: c.id, Name: c.name, Source: model.SourceTool,
		Outcome: model.OutcomeOK, Attrs: map[string]any{"result": clip(text)}}
	if strings.HasPrefix(text, toolErrorPrefix) {
		ev.Outcome = model.OutcomeError
		ev.Error = &model.ErrorInfo{Kind: "tool", Message: clip(text)}
		ev.Attrs["note"] = "the SDK's tool error text, returned to the model"
	}
	b.emit(ev)
}

// awaiting reports whether the current step has calls that wait for approval.
func (b *builder) awaiting() bool {
	for _, c := range b.calls {
		if c.approval && !c.resolved {
			return true
		}
	}
	return false
}

// resume opens the turn of a paused run that run() continues.
func (b *builder) resume() {
	b.waiting = false
	b.startTurn(map[string]any{"note": "run() called again with the interrupted RunState: the paused run goes on in a new turn"})
}

// resolveAndRun reads the output of a call that waited for approval: the approval's answer and,
// when approved, the call's execution (in a tool-only step of the resumed turn).
func (b *builder) resolveAndRun(c *call, it *runItem) {
	c.resolved = true
	text := outputText(it)
	rejected := it.ExecutionStatus != "executed" && text == rejectionMessage
	dec := model.DecisionApproved
	if rejected {
		dec = model.DecisionDenied
	}
	b.emit(model.Event{Type: model.ApprovalResolve, RunID: b.run, CallID: c.id, Name: c.name, Decision: dec, Source: model.SourceClient, Inferred: []string{"decision"}})
	if b.model == "" && !b.resumeStep {
		b.emit(model.Event{Type: model.RunStatusChange, RunID: b.run, Status: model.StatusRunning, Source: model.SourceRuntime, Cause: "approval/resolve"})
	}
	if rejected {
		c.ended = true
		b.emit(model.Event{Type: model.Message, RunID: b.run, Role: "tool", Text: text, Source: model.SourceRuntime,
			Attrs: map[string]any{"call_id": c.id, "note": "the approval was rejected: the SDK answers the call with its rejection message; the tool never ran"}})
		return
	}
	if b.step == "" {
		calls, byID := b.calls, b.byID
		b.startStep(map[string]any{"executes": []string{c.id}, "note": "the resumed run executes the approved call before calling the model"})
		b.calls, b.byID = calls, byID // the other calls that waited are answered in this step too
		b.resumeStep = true
	}
	b.startCall(c)
	b.endCall(c, it)
}

// pause ends the step of a run whose calls wait for approval: the run is waiting.
func (b *builder) pause() {
	b.startRequested()
	var first string
	for _, c := range b.calls {
		if c.approval && !c.resolved && first == "" {
			first = c.id
		}
	}
	b.endStep(model.OutcomeOK, nil)
	b.emit(model.Event{Type: model.RunStatusChange, RunID: b.run, CallID: first, Status: model.StatusWaiting, WaitReason: model.WaitApproval,
		StopReason: model.StopAwaitingApproval, Source: model.SourceRuntime, Cause: "approval/request"})
	b.emit(model.Event{Type: model.TurnEnd, RunID: b.run, TurnID: b.turn, Source: model.SourceRuntime, Outcome: model.OutcomeOK, StopReason: model.StopAwaitingApproval, Inferred: []string{"turn"}})
	b.waiting = true
	b.turn = ""
}

// askPython marks the calls of the step that never got an output as waiting for approval: the
// Python SDK streams no approval event, and a run_streamed call whose stream stops after a
// tool_called is interrupted for it (needs_approval).
func (b *builder) askPython() bool {
	found := false
	for _, c := range b.calls {
		if !c.started && !c.approval {
			c.approval, found = true, true
			b.emit(model.Event{Type: model.ApprovalRequest, RunID: b.run, CallID: c.id, Name: c.name, Source: model.SourceRuntime, Inferred: []string{"approval"},
				Attrs: map[string]any{"note": "the stream stopped after this tool_called with no output: the run was interrupted for its approval (the Python SDK streams no approval event)"}})
		}
	}
	return found
}

// callBoundary is a Python agent_updated_stream_event that is not a handoff: a new
// Runner.run_streamed call starts. The run before it ended where its stream stopped: a resume
// continues a paused run; otherwise the run ends as finish reads it.
func (b *builder) callBoundary() {
	if b.run == "" || b.waiting {
		return
	}
	if b.model == "" && b.step != "" && (b.awaiting() || b.askPython()) {
		b.pause()
		return
	}
	b.finish()
	b.run, b.turn, b.step, b.model = "", "", "", ""
	b.calls, b.byID = nil, map[string]*call{}
}

// finish ends what the stream left open, by where it stopped.
func (b *builder) finish() {
	if b.run == "" || b.waiting {
		return
	}
	if b.model != "" {
		b.cancelModel()
		b.endCallsCancelled()
		b.endStep(model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "the stream stopped while the model streamed"})
		b.endRun(model.StatusCancelled, model.StopCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "the stream stopped while the model streamed (an abort ends it quietly)"},
			[]string{"status", "stop_reason"}, "the stream ends inside a model call: read as aborted")
		return
	}
	if b.step == "" {
		return
	}
	if b.awaiting() || (b.py && b.askPython()) {
		b.pause()
		return
	}
	b.startRequested()
	if b.endCallsCancelled() {
		e := &model.ErrorInfo{Kind: "cancelled", Message: "the stream stopped while a tool ran (an abort ends it quietly)"}
		b.endStep(model.OutcomeCancelled, e)
		b.endRun(model.StatusCancelled, model.StopCancelled, e, []string{"status", "stop_reason"}, "the stream ends while a tool call has no output: read as aborted")
		return
	}
	if b.final {
		b.endStep(model.OutcomeOK, nil)
		b.endRun(model.StatusCompleted, model.StopGoalReached, nil, nil, "")
		return
	}
	b.endStep(model.OutcomeOK, nil)
	{
		b.endRun(model.StatusFailed, model.StopMaxTurns, &model.ErrorInfo{Kind: "MaxTurnsExceededError", Message: "the stream stopped after the tool outputs of the last step, before the next model call"},
			[]string{"status", "stop_reason"}, "the SDK stops there only at maxTurns (MaxTurnsExceededError is thrown, not streamed)")
	}
}

func outputText(it *runItem) string {
	var s string
	if json.Unmarshal(it.Output, &s) == nil {
		return s
	}
	if it.RawItem != nil {
		if t := contentText(it.RawItem.Output); t != "" {
			return t
		}
	}
	return string(it.Output)
}

// contentText is the text of an output or content value: a string, {type:"text",text}, or a
// list of such parts.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var one struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &one) == nil && one.Text != "" {
		return one.Text
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var out []string
		for _, p := range parts {
			if p.Text != "" {
				out = append(out, p.Text)
			}
		}
		return strings.Join(out, "")
	}
	return ""
}

// clip bounds a payload or an error text kept for the tree (model.PayloadKeepMax).
func clip(s string) string {
	return model.CutText(s, model.PayloadKeepMax)
}
