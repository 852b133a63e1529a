// Package openai reads the trace export of the OpenAI Agents SDK (Python and JS): Trace and Span
// objects as their toJSON/export methods write them, one per line (as a TracingProcessor writes
// them), in {"data":[…]} batches (as the backend exporter posts them to /v1/traces/ingest), or as
// one JSON array or pretty-printed document.
//
// Mapping (see docs/formats.md): a trace (one Runner.run, the "task" span) is a Run; the SDK's
// "turn" span is our Step; a Turn is inferred (one per run); generation/response spans are model
// calls; function and handoff spans are tool calls, matched to the call ids the model requested
// by name in order, else by position; an agent span nested in a function span (agent as tool) is
// a sub-agent run; the trace's group_id is the Session.
package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// Name is the format's name for --input-format.
const Name = "openai-agents"

// reNotApproved matches the error of the function span the JS SDK writes for a rejected approval.
var reNotApproved = regexp.MustCompile(`(?i)\bnot approved\b|manually rejected`)

// Description says which producer writes the format.
const Description = "OpenAI Agents SDK trace export (Trace/Span JSON, one per line or {\"data\":[…]} batches; Python and JS)"

// Detect scores how much head looks like an OpenAI Agents trace export: the first record (or the
// first element of its data array) is an object with "object":"trace" or "trace.span", or ids
// with the trace_/span_ prefixes.
func Detect(head []byte) int {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return 0
	}
	if i := bytes.IndexByte(t, '\n'); i > 0 && json.Valid(bytes.TrimSpace(t[:i])) {
		t = t[:i]
	}
	score := 0
	if bytes.Contains(t, []byte(`"object":"trace"`)) || bytes.Contains(t, []byte(`"object":"trace.span"`)) ||
		bytes.Contains(t, []byte(`"object": "trace"`)) || bytes.Contains(t, []byte(`"object": "trace.span"`)) {
		score = 95
	} else if bytes.Contains(t, []byte(`"span_data"`)) && bytes.Contains(t, []byte(`"trace_id"`)) {
		score = 80
	}
	if bytes.Contains(t, []byte(`"resourceSpans"`)) {
		return 0
	}
	return score
}

// Decode reads an OpenAI Agents trace export and emits canonical events.
func Decode(r io.Reader, em *ingest.Emitter) error {
	b := spantree.NewBuilder(Name, em)
	err := spantree.Records(r, em, Name, func(rec spantree.Record) {
		d := decoder{b: b, em: em}
		d.record(rec)
		b.FlushReady()
	})
	b.Flush()
	return err
}

type decoder struct {
	b  *spantree.Builder
	em *ingest.Emitter
}

func (d *decoder) record(rec spantree.Record) {
	if !utf8.Valid(rec.Data) {
		d.em.Errorf(rec.Line, "openai: invalid UTF-8 in record: expected UTF-8 JSON; record skipped")
		return
	}
	if rec.Lines == nil && !json.Valid(rec.Data) {
		spantree.BadRecord(d.em, Name, rec, fmt.Errorf("invalid JSON"))
		return
	}
	lineAt := func(off int64) int {
		if rec.Lines == nil {
			return rec.Line
		}
		data := rec.Data
		o := int(off)
		for o < len(data) && (data[o] == ' ' || data[o] == '\n' || data[o] == '\r' || data[o] == '\t' || data[o] == ',') {
			o++
		}
		return rec.Lines.At(o)
	}
	switch rec.Data[0] {
	case '[':
		d.list(rec.Data, 0, lineAt)
	case '{':
		var probe struct {
			Data   json.RawMessage `json:"data"`
			Object string          `json:"object"`
		}
		if err := json.Unmarshal(rec.Data, &probe); err == nil && probe.Object == "" && len(probe.Data) > 0 && probe.Data[0] == '[' {
			off := bytes.Index(rec.Data, probe.Data)
			d.list(probe.Data, off, lineAt)
			return
		}
		d.item(rec.Data, rec.Line)
	default:
		d.em.Errorf(rec.Line, "openai: record is not an object: expected a trace or span object or a {\"data\":[…]} batch")
	}
}

// list reads an array of trace/span objects; base is the array's offset in the record.
func (d *decoder) list(data []byte, base int, lineAt func(int64) int) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		d.em.Errorf(lineAt(int64(base)), "openai: malformed batch: %v", err)
		return
	}
	for dec.More() {
		off := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			d.em.Errorf(lineAt(int64(base)+off), "openai: malformed batch item: %v", err)
			return
		}
		d.item(raw, lineAt(int64(base)+off))
	}
}

// wire is a Trace or Span object as the SDKs export it. Fields are raw so that a wrong type in
// one field is reported without losing the rest.
type wire struct {
	Object       string          `json:"object"`
	ID           json.RawMessage `json:"id"`
	TraceID      json.RawMessage `json:"trace_id"`
	ParentID     json.RawMessage `json:"parent_id"`
	StartedAt    json.RawMessage `json:"started_at"`
	EndedAt      json.RawMessage `json:"ended_at"`
	SpanData     json.RawMessage `json:"span_data"`
	Error        json.RawMessage `json:"error"`
	WorkflowName json.RawMessage `json:"workflow_name"`
	GroupID      json.RawMessage `json:"group_id"`
}

type spanData struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Data      json.RawMessage `json:"data"`
	Output    json.RawMessage `json:"output"`
	Input     json.RawMessage `json:"input"`
	Model     json.RawMessage `json:"model"`
	Usage     json.RawMessage `json:"usage"`
	FromAgent string          `json:"from_agent"`
	ToAgent   string          `json:"to_agent"`
	Triggered bool            `json:"triggered"`
	Response  string          `json:"response_id"`
	MCPData   json.RawMessage `json:"mcp_data"`
}

type fieldErrs []string

func (f *fieldErrs) str(name string, raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		*f = append(*f, fmt.Sprintf("field %q is %s: expected a string", name, jsonKind(raw)))
		return ""
	}
	return s
}

func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "missing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func (d *decoder) item(data []byte, line int) {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		d.em.Errorf(line, "openai: malformed record (%v): expected a trace or span object", err)
		return
	}
	var errs fieldErrs
	defer func() {
		if len(errs) > 0 {
			d.em.Errorf(line, "openai: %s", strings.Join(errs, "; "))
		}
	}()
	switch w.Object {
	case "trace":
		id := errs.str("id", w.ID)
		if id == "" {
			errs = append(errs, "trace object without id: expected \"trace_<32 hex>\"")
			return
		}
		d.b.SetTraceInfo(id, errs.str("group_id", w.GroupID), errs.str("workflow_name", w.WorkflowName), line)
		return
	case "trace.span", "":
	default:
		errs = append(errs, fmt.Sprintf("unknown object %q: expected \"trace\" or \"trace.span\"", w.Object))
		return
	}
	sp := &spantree.Span{Line: line}
	sp.ID = errs.str("id", w.ID)
	sp.TraceID = errs.str("trace_id", w.TraceID)
	sp.Parent = errs.str("parent_id", w.ParentID)
	if sp.ID == "" {
		errs = append(errs, "span without id: expected \"span_<24 hex>\"; span skipped")
		return
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *spantreeTime
	}{{"started_at", w.StartedAt, (*spantreeTime)(&sp.Start)}, {"ended_at", w.EndedAt, (*spantreeTime)(&sp.End)}} {
		if err := f.dst.parse(f.raw); err != nil {
			errs = append(errs, fmt.Sprintf("field %q: %v", f.name, err))
		}
	}
	sp.Ended = !sp.End.IsZero()
	var sd spanData
	if len(w.SpanData) == 0 || string(w.SpanData) == "null" {
		errs = append(errs, "span without span_data: kept with no lifecycle meaning")
	} else if err := json.Unmarshal(w.SpanData, &sd); err != nil {
		errs = append(errs, fmt.Sprintf("span_data is malformed (%v): kept with no lifecycle meaning", err))
		sd = spanData{}
	}
	sp.Name = sd.Type
	if sd.Name != "" {
		sp.Name = sd.Name
	}
	sp.Err = errorOf(w.Error, &errs)
	d.classify(sp, &sd, &errs)
	if sp.Err != nil {
		sp.Cancelled = spantree.IsCancel(sp.Err)
	}
	d.b.Add(sp)
}

// errorOf reads the SDK's {message, data} error object.
func errorOf(raw json.RawMessage, errs *fieldErrs) *model.ErrorInfo {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var e struct {
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return &model.ErrorInfo{Message: s}
		}
		*errs = append(*errs, fmt.Sprintf("field \"error\" is %s: expected {message, data}", jsonKind(raw)))
		return &model.ErrorInfo{Message: "malformed error"}
	}
	info := &model.ErrorInfo{Message: e.Message}
	if detail, ok := e.Data["error"].(string); ok && detail != "" {
		if k, _, ok := strings.Cut(detail, ":"); ok && !strings.Contains(k, " ") && k != "" {
			info.Kind = k
		}
		if detail != e.Message {
			info.Message = e.Message + ": " + detail
		}
	}
	if info.Message == "" {
		info.Message = "error"
	}
	return info
}

func (d *decoder) classify(sp *spantree.Span, sd *spanData, errs *fieldErrs) {
	switch sd.Type {
	case "custom":
		var data struct {
			SDKType string `json:"sdk_span_type"`
			Name    string `json:"name"`
			Agent   string `json:"agent_name"`
			Turn    int    `json:"turn"`
		}
		_ = json.Unmarshal(sd.Data, &data)
		kind := data.SDKType
		if kind == "" {
			kind = sd.Name
		}
		switch kind {
		case "task":
			sp.Layer = spantree.Run
		case "turn":
			sp.Layer = spantree.Step
			if data.Agent != "" {
				sp.Agent = data.Agent
			}
			sp.Seq = data.Turn
		}
	case "agent":
		sp.Layer, sp.Agent = spantree.Agent, sd.Name
	case "generation", "response", "transcription", "speech":
		sp.Layer = spantree.Model
		var m string
		if json.Unmarshal(sd.Model, &m) == nil {
			sp.Model = m
		}
		if sp.Model == "" {
			sp.Model = sd.Type
		}
		sp.Usage = usage(sd.Usage)
		sp.Requests = requests(sd.Output)
		if sd.Response != "" {
			sp.Attrs = map[string]any{"response_id": sd.Response}
		}
		// a generation span's input messages and output (recorded unless the SDK's
		// trace_include_sensitive_data is off)
		for k, raw := range map[string]json.RawMessage{model.AttrInput: sd.Input, model.AttrOutput: sd.Output} {
			if s := rawText(raw); s != "" {
				if sp.Attrs == nil {
					sp.Attrs = map[string]any{}
				}
				sp.Attrs[k] = clip(s)
			}
		}
		if sp.Err != nil && sp.Err.Kind == "" {
			sp.Err.Kind = "model"
		}
	case "function":
		sp.Layer, sp.Tool = spantree.Tool, sd.Name
		sp.Attrs = map[string]any{}
		if s := rawText(sd.Input); s != "" {
			sp.Attrs["args"] = clip(s)
		}
		if s := rawText(sd.Output); s != "" {
			sp.Attrs["result"] = clip(s)
		} else if sp.Err == nil {
			// Python SDK: a needs_approval call that interrupted the run, or a call cancelled
			// under its run, ends with output null and no error (see spantree.Span.NoResult)
			sp.NoResult = true
		}
		if sp.Err != nil && sp.Err.Kind == "" {
			sp.Err.Kind = "tool"
		}
		if sp.Err != nil && reNotApproved.MatchString(sp.Err.Message) {
			// the JS SDK answers a rejected needsApproval call with a function span that ends
			// with "Tool execution was not approved." (data.error: "… was manually rejected by
			// user."): the tool never ran
			sp.Rejected = true
		}
	case "handoff":
		sp.Layer, sp.Tool = spantree.Tool, "handoff"
		sp.Attrs = map[string]any{"from_agent": sd.FromAgent, "to_agent": sd.ToAgent}
	case "guardrail":
		if sd.Triggered {
			sp.Stop = model.StopGuardrail
		}
	case "":
		if sp.Name == "" {
			*errs = append(*errs, "span_data without type")
		}
	}
}

// clip bounds a payload kept for the tree (model.PayloadKeepMax).
func clip(s string) string { return model.CutText(s, model.PayloadKeepMax) }

func rawText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func usage(raw json.RawMessage) *model.Usage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var u struct {
		In      int64 `json:"input_tokens"`
		Out     int64 `json:"output_tokens"`
		Prompt  int64 `json:"prompt_tokens"`
		Compl   int64 `json:"completion_tokens"`
		Details struct {
			Cached int64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return nil
	}
	if u.In == 0 {
		u.In = u.Prompt
	}
	if u.Out == 0 {
		u.Out = u.Compl
	}
	return &model.Usage{InputTokens: u.In, OutputTokens: u.Out, CachedTokens: u.Details.Cached}
}

// requests lists the function calls in a generation's output: Responses-style items
// ({type:"function_call", callId|call_id, name}) or chat-completions messages (tool_calls).
func requests(raw json.RawMessage) []spantree.Request {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var items []struct {
		Type      string `json:"type"`
		CallID    string `json:"callId"`
		CallID2   string `json:"call_id"`
		Name      string `json:"name"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []spantree.Request
	for _, it := range items {
		switch {
		case it.Type == "function_call" || it.Type == "hosted_tool_call" || it.Type == "computer_call":
			id := it.CallID
			if id == "" {
				id = it.CallID2
			}
			out = append(out, spantree.Request{ID: id, Name: it.Name})
		case len(it.ToolCalls) > 0:
			for _, c := range it.ToolCalls {
				out = append(out, spantree.Request{ID: c.ID, Name: c.Function.Name})
			}
		}
	}
	return out
}
