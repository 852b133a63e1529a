// Package deepseek reads DeepSeek Harness session logs (session.jsonl: a header with version 0,
// then turn/*, step/*, assistant/chunk, packed chunk rows, tool/call, tool/result, approvals and
// plugin events), including the normalised test snapshots that have no seq and no time.
//
// Mapping (docs/formats.md): turn/* and step/* are our Turn and Step one to one; a run is not
// durable in the harness, so each turn gets its own Run (inferred); a model call is the chunks
// and assistant/message of a step (or a finish chunk with an error); a tool call is tool/call +
// tool/result by callId; approval/asked … approval/decided is a wait for approval.
package deepseek

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "deepseek-harness"

// Description says which producer writes the format.
const Description = "DeepSeek Harness session log (session.jsonl, header version 0; also templated test snapshots)"

// Detect scores how much head looks like a DeepSeek Harness session log: a header
// {"type":"session", "createdAt": <number>, "delegationDepth": …}, or (without header) events
// whose type contains "/" with a "data" object and a numeric "time"/"seq" but no canonical "v".
func Detect(head []byte) int {
	line := ingest.FirstLine(head)
	var p struct {
		Type            string          `json:"type"`
		CreatedAt       json.RawMessage `json:"createdAt"`
		DelegationDepth json.RawMessage `json:"delegationDepth"`
		Version         json.RawMessage `json:"version"`
		Data            json.RawMessage `json:"data"`
		Time            json.RawMessage `json:"time"`
		Seq             json.RawMessage `json:"seq"`
		V               json.RawMessage `json:"v"`
		TS              json.RawMessage `json:"ts"`
	}
	if json.Unmarshal(line, &p) != nil {
		return 0
	}
	if p.Type == "session" && isNumber(p.CreatedAt) && p.DelegationDepth != nil {
		return 100
	}
	if p.Type == "session" && isNumber(p.CreatedAt) && string(p.Version) == "0" {
		return 90
	}
	if strings.Contains(p.Type, "/") && len(p.Data) > 0 && p.Data[0] == '{' && p.V == nil && p.TS == nil {
		if isNumber(p.Time) && isNumber(p.Seq) {
			return 80
		}
		return 40 // a templated snapshot without its header
	}
	return 0
}

func isNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// record is one line: the header or a session event (or a packed chunk row).
type record struct {
	Type string   `json:"type"`
	Seq  *int64   `json:"seq"`
	Time *float64 `json:"time"`
	// packed chunk rows
	Seq0  *int64   `json:"seq0"`
	Time0 *float64 `json:"time0"`
	Data  *data    `json:"data"`
	// header
	Version         *int     `json:"version"`
	ID              string   `json:"id"`
	CreatedAt       *float64 `json:"createdAt"`
	Cwd             string   `json:"cwd"`
	ParentSession   string   `json:"parentSession"`
	Origin          string   `json:"origin"`
	DelegationDepth *int     `json:"delegationDepth"`
	AgentPreset     any      `json:"agentPreset"`
}

type failure struct {
	Message string `json:"message"`
	Code    string `json:"code"`
	Status  any    `json:"status"`
}

type reason struct {
	Kind    string   `json:"kind"`
	Reason  *reason  `json:"reason"`
	Error   *failure `json:"error"`
	Failure *failure `json:"failure"`
}

// reasonKind is the kind of a turn/end reason (an object with "kind", or a bare string).
func reasonKind(raw json.RawMessage) string {
	var k struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(raw, &k) == nil {
		return k.Kind
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

type usage struct {
	InputTokens      int64 `json:"inputTokens"`
	OutputTokens     int64 `json:"outputTokens"`
	CacheReadTokens  int64 `json:"cacheReadTokens"`
	CacheWriteTokens int64 `json:"cacheWriteTokens"`
	ReasoningTokens  int64 `json:"reasoningTokens"`
}

type block struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	ToolCallID string          `json:"toolCallId"`
	Content    json.RawMessage `json:"content"`
	IsError    *bool           `json:"isError"`
}

type source struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	CallID   string `json:"callId"`
}

type message struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Source  *source         `json:"source"`
}

type chunk struct {
	Type   string  `json:"type"`
	Reason *reason `json:"reason"`
	Usage  *usage  `json:"usage"`
}

// data is the union of the data objects of the event types read.
type data struct {
	Turn        *int            `json:"turn"`
	Step        *int            `json:"step"`
	Reason      json.RawMessage `json:"reason"`
	Chunk       *chunk          `json:"chunk"`
	Message     *message        `json:"message"`
	Usage       *usage          `json:"usage"`
	Interrupted bool            `json:"interrupted"`
	CallID      string          `json:"callId"`
	Name        string          `json:"name"`
	Arguments   json.RawMessage `json:"arguments"`
	Error       *failure        `json:"error"`
	// legacy snapshot shapes: content/isError directly under data
	Content json.RawMessage `json:"content"`
	IsError *bool           `json:"isError"`
	Role    string          `json:"role"`
	ID      string          `json:"id"`
	Source  *source         `json:"source"`
	// approvals
	ToolName string `json:"toolName"`
	Outcome  string `json:"outcome"`
	// inbox
	Target   string    `json:"target"`
	Inserted []message `json:"inserted"`
	// request header/context
	Header *struct {
		Config *struct {
			Provider string `json:"provider"`
			Model    string `json:"model"`
		} `json:"config"`
	} `json:"header"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// Decode reads one DeepSeek Harness session log and emits canonical events in order. Records that
// cannot be read are reported with file:line and skipped.
func Decode(r io.Reader, em *ingest.Emitter) error {
	d := &decoder{em: em, st: em.Shared(), file: em.File}
	err := ingest.EachLine(r, em, Name, d.read)
	d.release(false)
	d.flushStarts()
	return err
}

type decoder struct {
	em   *ingest.Emitter
	st   *ingest.Shared
	file string

	session   string
	sessAttrs map[string]any
	sessTS    time.Time
	lastTS    time.Time
	ln        int

	run     string
	turn    string
	turnN   int
	step    string
	stepN   int
	modelN  int
	model   string // open model call
	modelTS time.Time
	mStats  *modelStats
	stepOut model.Outcome
	stepErr *model.ErrorInfo
	tools   map[string]string // harness callId → canonical call id (open)
	toolIDs map[string]string // harness callId → canonical call id (this turn)
	steers  []string
	waits   map[string]string // approval id → call id
	// pend holds the tool/call starts not yet emitted: a call whose approval is rejected never
	// runs (the registry answers it with its denial), which only its tool/result tells.
	pend   []model.Event
	denied map[string]bool // canonical call id → its approval was rejected or cancelled
	// held are the events from an error tool/result to the next line that is neither a
	// tool/result nor a step/end: a turn/end aborted right after makes those errors cancellations.
	holding bool
	held    []model.Event
	// provider/model from request headers
	provider, modelName string
	runTurns            int
}

type modelStats struct {
	chunks int
}

func (d *decoder) at(n int) *model.Origin { return d.em.At(n) }

func (d *decoder) emit(ev model.Event) {
	ev.SessionID = d.session
	if ev.Origin == nil {
		ev.Origin = d.at(d.ln)
	}
	if d.holding {
		d.held = append(d.held, ev)
		return
	}
	d.em.Emit(&ev)
}

// flushStarts emits the pending tool starts.
func (d *decoder) flushStarts() {
	pend := d.pend
	d.pend = nil
	for _, ev := range pend {
		d.emit(ev)
	}
}

// release emits the held events; aborted: the turn ended aborted right after them, so their
// failed tool calls were cut off by the cancel (the harness keeps the body's own error text).
func (d *decoder) release(aborted bool) {
	if !d.holding {
		return
	}
	d.holding = false
	held := d.held
	d.held = nil
	for _, ev := range held {
		if aborted && ev.Type == model.ToolEnd && ev.Outcome == model.OutcomeError && ev.Error != nil && ev.Error.Kind == "tool" {
			ev.Outcome = model.OutcomeCancelled
			ev.Error = &model.ErrorInfo{Kind: "cancelled", Message: ev.Error.Message}
			ev.Inferred = append(ev.Inferred, "outcome")
			ev.Attrs["note"] = "the turn was aborted right after this failed result: the cancel cut the tool off"
		}
		d.emit(ev)
	}
}

func msTime(v *float64) time.Time {
	if v == nil || *v <= 0 {
		return time.Time{}
	}
	return sane(time.UnixMilli(int64(*v)).UTC())
}

// sane drops times that cannot be real or written as RFC 3339 (before 1971 or after 9999).
func sane(t time.Time) time.Time {
	if t.Year() < 1971 || t.Year() > 9999 {
		return time.Time{}
	}
	return t
}

func (d *decoder) ensureSession() {
	if d.session != "" {
		return
	}
	d.session = "deepseek:" + strings.TrimSuffix(filepath.Base(d.file), filepath.Ext(d.file))
	if d.st.StartSession(d.session) {
		d.emit(model.Event{Type: model.SessionStart, Source: model.SourceRuntime, Inferred: []string{"ids"},
			Attrs: map[string]any{"note": "no session header: session id taken from the file name"}})
	}
}

func (d *decoder) read(b []byte, n int) error {
	d.ln = n
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return describe(err)
	}
	if rec.Type == "" {
		return fmt.Errorf("record without \"type\": expected a session header or a session event")
	}
	ts := msTime(rec.Time)
	if rec.Time0 != nil {
		ts = msTime(rec.Time0)
	}
	if !ts.IsZero() {
		d.lastTS = ts
	}
	if rec.Type == "session" {
		return d.header(&rec)
	}
	d.ensureSession()
	dd := rec.Data
	if dd == nil {
		dd = &data{}
	}
	if d.holding && rec.Type != "tool/result" && rec.Type != "step/end" {
		d.release(rec.Type == "turn/end" && reasonKind(dd.Reason) == "aborted")
	}
	switch rec.Type {
	case "tool/call", "tool/result", "approval/asked", "approval/decided":
	default:
		d.flushStarts()
	}
	switch rec.Type {
	case "turn/start":
		d.turnStart(dd, ts)
	case "turn/end":
		d.turnEnd(dd, ts)
	case "agent/turn-stopping":
		if d.turn != "" {
			d.emit(model.Event{Type: model.TurnStopping, TS: ts, RunID: d.run, TurnID: d.turn, Source: model.SourceRuntime})
		}
	case "step/start":
		d.stepStart(dd, ts)
	case "step/end":
		d.stepEnd(dd, ts)
	case "user/message":
		d.userMessage(dd, ts)
	case "request/header":
		if dd.Header != nil && dd.Header.Config != nil {
			d.provider, d.modelName = dd.Header.Config.Provider, dd.Header.Config.Model
		}
	case "request/context":
		if dd.Model != "" {
			d.provider, d.modelName = dd.Provider, dd.Model
		}
	case "assistant/chunk":
		d.openModel(dd, ts)
		if d.mStats != nil {
			d.mStats.chunks++
		}
		if dd.Chunk != nil && dd.Chunk.Type == "finish" && dd.Chunk.Reason != nil {
			switch dd.Chunk.Reason.Kind {
			case "error", "aborted":
				d.closeModel(ts, dd.Chunk.Reason, nil, false)
			}
		}
	case "text-chunks", "reasoning-chunks", "tool-call-chunks":
		d.openModel(dd, ts)
		if d.mStats != nil {
			d.mStats.chunks++
		}
	case "assistant/message":
		d.openModel(dd, ts)
		d.closeModel(ts, nil, dd, dd.Interrupted)
	case "tool/call":
		d.toolCall(dd, ts)
	case "tool/result":
		d.toolResult(dd, ts)
	case "approval/asked":
		d.approvalAsked(dd, ts)
	case "approval/decided":
		d.approvalDecided(dd, ts)
	case "agent/inbox/spliced", "agent/inbox/inserted":
		d.inbox(dd, ts)
	}
	return nil
}

// describe turns a JSON error into what was expected.
func describe(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %q: expected %s, got JSON %s: %w", te.Field, te.Type, te.Value, err)
	}
	return fmt.Errorf("not a JSON event object: %w", err)
}

func (d *decoder) header(rec *record) error {
	if rec.Version != nil && *rec.Version != 0 {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: session format version %d (only 0 is known); read anyway", Name, d.ln, *rec.Version))
	}
	id := rec.ID
	attrs := map[string]any{}
	var inferred []string
	if id == "" || strings.Contains(id, "{{") {
		base := strings.TrimSuffix(filepath.Base(d.file), ".jsonl")
		if id != "" {
			attrs["templated_id"] = id
		}
		id = "deepseek:" + base
		inferred = append(inferred, "ids")
	}
	if rec.Cwd != "" {
		attrs["cwd"] = rec.Cwd
	}
	if rec.ParentSession != "" {
		attrs["parent_session"] = rec.ParentSession
	}
	if rec.Origin != "" {
		attrs["origin"] = rec.Origin
	}
	if rec.DelegationDepth != nil {
		attrs["delegation_depth"] = *rec.DelegationDepth
	}
	if d.session != "" && d.session != id {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: second session header (%s) in a file of session %s; ignored", Name, d.ln, id, d.session))
		return nil
	}
	d.session = id
	if d.st.StartSession(id) {
		d.emit(model.Event{Type: model.SessionStart, TS: msTime(rec.CreatedAt), Source: model.SourceRuntime, Inferred: inferred, Attrs: attrs})
	}
	return nil
}

func (d *decoder) turnStart(dd *data, ts time.Time) {
	if d.turn != "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: turn/start while turn %d is still open (crash without repair?); the open turn is reported open", Name, d.ln, d.turnN))
		d.reset()
	}
	n := d.turnN + 1
	if dd.Turn != nil {
		n = *dd.Turn
	}
	d.openTurn(n, ts, false)
}

func (d *decoder) reset() {
	d.run, d.turn, d.step, d.model = "", "", "", ""
	d.tools, d.steers, d.waits = nil, nil, nil
}

// openTurn opens a run and its turn. placeholder is set when the log starts inside a turn.
func (d *decoder) openTurn(n int, ts time.Time, placeholder bool) {
	k := d.st.NextRun(d.session)
	d.run = d.st.Unique("run", fmt.Sprintf("%s/run-%d", d.session, k))
	d.turnN = n
	d.turn = d.st.Unique("turn", fmt.Sprintf("%s/turn-%d", d.run, n))
	d.stepN = 0
	d.tools, d.toolIDs, d.waits = map[string]string{}, map[string]string{}, map[string]string{}
	inf := []string{"run"}
	if placeholder {
		inf = append(inf, "turn", "start")
	}
	d.emit(model.Event{Type: model.RunStart, TS: ts, RunID: d.run, Attempt: 1, Source: model.SourceRuntime, Inferred: inf,
		Attrs: map[string]any{"note": "the harness has no durable run: one run per turn"}})
	var tinf []string
	if placeholder {
		tinf = []string{"turn", "start"}
	}
	d.emit(model.Event{Type: model.TurnStart, TS: ts, RunID: d.run, TurnID: d.turn, Source: model.SourceRuntime, Inferred: tinf, Attrs: map[string]any{"turn": n}})
}

func (d *decoder) needTurn(dd *data, ts time.Time) {
	if d.turn != "" {
		return
	}
	n := 1
	if dd.Turn != nil {
		n = *dd.Turn
	}
	d.em.Error(d.ln, fmt.Errorf("%s: line %d: event outside a turn (log starts mid-turn?); turn %d inferred", Name, d.ln, n))
	d.openTurn(n, ts, true)
}

func (d *decoder) stepStart(dd *data, ts time.Time) {
	d.needTurn(dd, ts)
	if d.step != "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: step/start while step %d is still open", Name, d.ln, d.stepN))
	}
	n := d.stepN + 1
	if dd.Step != nil {
		n = *dd.Step
	}
	d.stepN = n
	d.step = d.st.Unique("step", fmt.Sprintf("%s/step-%d", d.turn, n))
	d.modelN = 0
	d.model = ""
	d.stepOut, d.stepErr = model.OutcomeOK, nil
	d.emit(model.Event{Type: model.StepStart, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, Source: model.SourceRuntime, Consumes: d.steers})
	d.steers = nil
}

func (d *decoder) needStep(dd *data, ts time.Time) {
	if d.step != "" {
		return
	}
	d.needTurn(dd, ts)
	n := d.stepN + 1
	if dd.Step != nil {
		n = *dd.Step
	}
	d.stepN = n
	d.step = d.st.Unique("step", fmt.Sprintf("%s/step-%d", d.turn, n))
	d.modelN = 0
	d.stepOut, d.stepErr = model.OutcomeOK, nil
	d.emit(model.Event{Type: model.StepStart, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, Source: model.SourceRuntime, Inferred: []string{"step", "start"}})
}

func (d *decoder) stepEnd(dd *data, ts time.Time) {
	if d.step == "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: step/end without an open step; ignored", Name, d.ln))
		return
	}
	if d.model != "" {
		d.emit(model.Event{Type: model.ModelEnd, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, CallID: d.model, Name: d.modelName,
			Source: model.SourceModel, Outcome: model.OutcomeError, Inferred: []string{"end"},
			Error: &model.ErrorInfo{Kind: "model", Message: "the step ended before the model call recorded an assistant/message or finish"}})
		d.stepOut = model.OutcomeError
		d.model = ""
	}
	d.emit(model.Event{Type: model.StepEnd, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, Source: model.SourceRuntime, Outcome: d.stepOut, Error: d.stepErr})
	d.step = ""
}

func (d *decoder) userMessage(dd *data, ts time.Time) {
	text := blocksText(dd.Content)
	role := dd.Role
	if dd.Message != nil {
		text = blocksText(dd.Message.Content)
		role = dd.Message.Role
	}
	if role == "" {
		role = "user"
	}
	d.emit(model.Event{Type: model.Message, TS: ts, RunID: d.run, StepID: d.step, Role: role, Text: text, Source: model.SourceClient})
}

func blocksText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var parts []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool-result":
			parts = append(parts, blocksText(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}

func (d *decoder) openModel(dd *data, ts time.Time) {
	d.needStep(dd, ts)
	if d.model != "" {
		return
	}
	d.modelN++
	d.model = d.st.Unique("model", fmt.Sprintf("%s/model-%d", d.step, d.modelN))
	d.mStats = &modelStats{}
	attrs := map[string]any{}
	if d.provider != "" {
		attrs["provider"] = d.provider
	}
	d.emit(model.Event{Type: model.ModelStart, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, CallID: d.model, Name: d.modelName, Source: model.SourceModel, Attrs: attrs})
}

// closeModel ends the open model call: at a finish chunk with an error or abort (fin), or at
// assistant/message (msg; interrupted when the delivered prefix of a cancelled stream was kept).
func (d *decoder) closeModel(ts time.Time, fin *reason, msg *data, interrupted bool) {
	if d.model == "" {
		return
	}
	ev := model.Event{Type: model.ModelEnd, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, CallID: d.model, Name: d.modelName, Source: model.SourceModel, Outcome: model.OutcomeOK}
	attrs := map[string]any{}
	if d.mStats != nil && d.mStats.chunks > 0 {
		attrs["chunks"] = d.mStats.chunks
	}
	if fin != nil {
		f := fin.Failure
		if f == nil {
			f = fin.Error
		}
		msgText := fin.Kind
		kind := "model"
		if f != nil {
			msgText = f.Message
			if f.Code != "" {
				kind = "provider"
				attrs["code"] = f.Code
			}
		}
		if fin.Kind == "aborted" {
			ev.Outcome = model.OutcomeCancelled
			ev.Error = &model.ErrorInfo{Kind: "cancelled", Message: msgText}
			d.stepOut = model.OutcomeCancelled
		} else {
			ev.Outcome = model.OutcomeError
			ev.Error = &model.ErrorInfo{Kind: kind, Message: msgText}
			d.stepOut, d.stepErr = model.OutcomeError, ev.Error
		}
	}
	if msg != nil {
		if msg.Usage != nil {
			ev.Usage = &model.Usage{InputTokens: msg.Usage.InputTokens + msg.Usage.CacheReadTokens + msg.Usage.CacheWriteTokens,
				OutputTokens: msg.Usage.OutputTokens, CachedTokens: msg.Usage.CacheReadTokens}
			if msg.Usage.ReasoningTokens > 0 {
				attrs["reasoning_tokens"] = msg.Usage.ReasoningTokens
			}
		}
		if msg.Message != nil {
			if msg.Message.Source != nil && msg.Message.Source.Model != "" {
				ev.Name = msg.Message.Source.Model
			}
			var bs []block
			_ = json.Unmarshal(msg.Message.Content, &bs)
			var calls []string
			for _, b := range bs {
				if b.Type == "tool-call" {
					calls = append(calls, b.ID)
				}
			}
			if len(calls) > 0 {
				attrs["tool_calls"] = calls
			}
			if t := blocksText(msg.Message.Content); t != "" {
				attrs["text"] = t
			}
		}
		if interrupted {
			ev.Outcome = model.OutcomeCancelled
			ev.Error = &model.ErrorInfo{Kind: "cancelled", Message: "stream interrupted; the delivered prefix was kept"}
			d.stepOut = model.OutcomeCancelled
		}
	}
	if len(attrs) > 0 {
		ev.Attrs = attrs
	}
	d.emit(ev)
	d.model = ""
}

func (d *decoder) toolCall(dd *data, ts time.Time) {
	d.needStep(dd, ts)
	if dd.CallID == "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: tool/call without callId; skipped", Name, d.ln))
		return
	}
	id := d.st.Unique("tool", dd.CallID)
	d.tools[dd.CallID] = id
	d.toolIDs[dd.CallID] = id
	attrs := map[string]any{}
	if len(dd.Arguments) > 0 {
		var s string
		if json.Unmarshal(dd.Arguments, &s) == nil {
			attrs["args"] = s
		} else {
			attrs["args"] = string(dd.Arguments)
		}
	}
	d.pend = append(d.pend, model.Event{Type: model.ToolStart, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, CallID: id, Name: dd.Name, Source: model.SourceRuntime, Attrs: attrs,
		SessionID: d.session, Origin: d.at(d.ln)})
}

// deniedText reports whether a tool result is the registry's answer to a call whose approval
// was rejected or cancelled (dsh-tools resolveAsk: the body is never invoked).
func deniedText(text, name string) bool {
	q := strconv.Quote(name)
	return text == "Error: the user rejected tool "+q || text == "Error: approval for tool "+q+" was cancelled"
}

func (d *decoder) toolResult(dd *data, ts time.Time) {
	callID := dd.CallID
	content := dd.Content
	isErr := dd.IsError != nil && *dd.IsError
	if dd.Message != nil {
		var bs []block
		_ = json.Unmarshal(dd.Message.Content, &bs)
		for _, b := range bs {
			if b.Type == "tool-result" {
				if callID == "" {
					callID = b.ToolCallID
				}
				content = b.Content
				isErr = isErr || b.IsError != nil && *b.IsError
			}
		}
		if callID == "" && dd.Message.Source != nil {
			callID = dd.Message.Source.CallID
		}
	}
	if callID == "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: tool/result without a call id; skipped", Name, d.ln))
		return
	}
	id, open := d.tools[callID]
	if !open {
		if _, done := d.toolIDs[callID]; done {
			d.em.Error(d.ln, fmt.Errorf("%s: line %d: second tool/result for call %s; ignored", Name, d.ln, callID))
			return
		}
		// a result without its tool/call (e.g. a synthetic result of crash repair)
		d.needStep(dd, ts)
		id = d.st.Unique("tool", callID)
		d.toolIDs[callID] = id
		d.emit(model.Event{Type: model.ToolStart, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, CallID: id, Source: model.SourceRuntime, Inferred: []string{"start"}})
	}
	delete(d.tools, callID)
	if d.denied[id] && isErr {
		start, rest := -1, d.pend[:0:0]
		for i, p := range d.pend {
			if p.CallID == id {
				start = i
			} else {
				rest = append(rest, p)
			}
		}
		if start >= 0 && deniedText(blocksText(content), d.pend[start].Name) {
			// never ran: no tool call, the model is answered with the denial
			d.pend = rest
			d.flushStarts()
			d.emit(model.Event{Type: model.Message, TS: ts, RunID: d.run, StepID: d.step, Role: "tool", Text: blocksText(content), Source: model.SourceRuntime,
				Attrs: map[string]any{"call_id": id, "note": "the approval was rejected: the tool registry answers the call with its denial; the tool never ran"}})
			return
		}
	}
	d.flushStarts()
	ev := model.Event{Type: model.ToolEnd, TS: ts, RunID: d.run, TurnID: d.turn, StepID: d.step, CallID: id, Source: model.SourceTool, Outcome: model.OutcomeOK,
		Attrs: map[string]any{"result": blocksText(content)}}
	if isErr || dd.Error != nil {
		ev.Outcome = model.OutcomeError
		ev.Error = &model.ErrorInfo{Kind: "tool", Message: blocksText(content)}
		d.holding = true
		if dd.Error != nil {
			if dd.Error.Code != "" {
				ev.Attrs["code"] = dd.Error.Code
			}
			if dd.Error.Code == "TOOL_OUTCOME_UNKNOWN" {
				ev.Outcome = model.OutcomeUnknown
				ev.Error.Kind = "crash"
			}
			if dd.Error.Code == "TOOL_NOT_STARTED" {
				ev.Error.Kind = "crash"
			}
		}
	}
	d.emit(ev)
}

func (d *decoder) approvalAsked(dd *data, ts time.Time) {
	if d.run == "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: approval/asked outside a turn; ignored", Name, d.ln))
		return
	}
	call := dd.CallID
	if c, ok := d.toolIDs[call]; ok {
		call = c
	}
	if call == "" {
		call = "approval:" + dd.ID
	}
	d.waits[dd.ID] = call
	attrs := map[string]any{"approval_id": dd.ID}
	// run/status first: the projector then attaches the approval to the same wait.
	d.emit(model.Event{Type: model.RunStatusChange, TS: ts, RunID: d.run, CallID: call, Status: model.StatusWaiting, WaitReason: model.WaitApproval,
		StopReason: model.StopAwaitingApproval, Source: model.SourceRuntime, Cause: string(model.ApprovalRequest), Inferred: []string{"status"}})
	d.emit(model.Event{Type: model.ApprovalRequest, TS: ts, RunID: d.run, CallID: call, Name: dd.ToolName, Source: model.SourceRuntime, Attrs: attrs})
}

func (d *decoder) approvalDecided(dd *data, ts time.Time) {
	call, ok := d.waits[dd.ID]
	if !ok || d.run == "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: approval/decided for %q, which was never asked in this turn; ignored", Name, d.ln, dd.ID))
		return
	}
	delete(d.waits, dd.ID)
	dec := model.DecisionDenied
	if strings.HasPrefix(dd.Outcome, "allowed") || dd.Outcome == "approved" {
		dec = model.DecisionApproved
	} else {
		if d.denied == nil {
			d.denied = map[string]bool{}
		}
		d.denied[call] = true
	}
	d.emit(model.Event{Type: model.ApprovalResolve, TS: ts, RunID: d.run, CallID: call, Decision: dec, Source: model.SourceClient, Attrs: map[string]any{"outcome": dd.Outcome}})
	d.emit(model.Event{Type: model.RunStatusChange, TS: ts, RunID: d.run, Status: model.StatusRunning, Source: model.SourceRuntime, Cause: string(model.ApprovalResolve), Inferred: []string{"status"}})
}

// inbox turns messages spliced into the next-step inbox of a running turn into steers.
func (d *decoder) inbox(dd *data, ts time.Time) {
	if d.run == "" || dd.Target != "next-step" {
		return
	}
	for _, m := range dd.Inserted {
		id := m.ID
		if id == "" {
			id = fmt.Sprintf("%s/steer-%d", d.run, len(d.steers)+1)
		}
		id = d.st.Unique("input", id)
		d.steers = append(d.steers, id)
		d.emit(model.Event{Type: model.InputSteer, TS: ts, RunID: d.run, InputID: id, Text: blocksText(m.Content), Source: model.SourceClient})
	}
}

func (d *decoder) turnEnd(dd *data, ts time.Time) {
	if d.turn == "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: turn/end without an open turn; ignored", Name, d.ln))
		return
	}
	if d.step != "" {
		d.em.Error(d.ln, fmt.Errorf("%s: line %d: turn/end while step %d is open; the step is reported open", Name, d.ln, d.stepN))
	}
	var rs reason
	if len(dd.Reason) > 0 {
		if err := json.Unmarshal(dd.Reason, &rs); err != nil {
			var s string
			if json.Unmarshal(dd.Reason, &s) == nil {
				rs.Kind = s
			}
		}
	}
	te := model.Event{Type: model.TurnEnd, TS: ts, RunID: d.run, TurnID: d.turn, Source: model.SourceRuntime, Attrs: map[string]any{"reason": rs.Kind}}
	re := model.Event{Type: model.RunEnd, TS: ts, RunID: d.run, Source: model.SourceRuntime, Inferred: []string{"run"}}
	switch rs.Kind {
	case "completed", "":
		te.Outcome, te.StopReason = model.OutcomeOK, model.StopGoalReached
		re.Status, re.StopReason = model.StatusCompleted, model.StopGoalReached
		if rs.Kind == "" {
			te.Inferred = []string{"stop_reason"}
		}
	case "aborted":
		why := "user"
		if rs.Reason != nil && rs.Reason.Kind != "" {
			why = rs.Reason.Kind
		}
		te.Outcome, te.StopReason = model.OutcomeCancelled, model.StopCancelled
		te.Error = &model.ErrorInfo{Kind: "cancelled", Message: "aborted by " + why}
		re.Status, re.StopReason, re.Error, re.Cause = model.StatusCancelled, model.StopCancelled, te.Error, "cancel"
	case "error":
		f := rs.Error
		if f == nil {
			f = rs.Failure
		}
		msg := "model error"
		if f != nil {
			msg = f.Message
			if f.Code != "" {
				te.Attrs["code"] = f.Code
			}
		}
		te.Outcome, te.StopReason = model.OutcomeError, model.StopModelError
		te.Error = &model.ErrorInfo{Kind: "model", Message: msg}
		re.Status, re.StopReason, re.Error = model.StatusFailed, model.StopModelError, te.Error
	case "blocked":
		te.Outcome, te.StopReason = model.OutcomeError, "other:blocked"
		te.Error = &model.ErrorInfo{Kind: "guardrail", Message: "the pre-step hook rejected the step"}
		re.Status, re.StopReason, re.Error = model.StatusFailed, "other:blocked", te.Error
	case "max-tokens":
		te.Outcome, te.StopReason = model.OutcomeError, "other:max_tokens"
		te.Error = &model.ErrorInfo{Kind: "model", Message: "a step hit the output token limit"}
		re.Status, re.StopReason, re.Error = model.StatusFailed, "other:max_tokens", te.Error
	case "interrupted":
		// Written only by crash recovery: the run is left for reconciliation (reported open).
		te.Outcome, te.StopReason = model.OutcomeError, "other:interrupted"
		te.Error = &model.ErrorInfo{Kind: "crash", Message: "turn closed by crash recovery"}
		d.emit(te)
		d.reset()
		return
	default:
		te.Outcome, te.StopReason = model.OutcomeError, model.StopReason("other:"+sanitize(rs.Kind))
		re.Status, re.StopReason = model.StatusFailed, te.StopReason
	}
	d.emit(te)
	d.emit(re)
	d.reset()
}

func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return '_'
		}
		return r
	}, s)
	if s == "" {
		return "unknown"
	}
	return s
}
