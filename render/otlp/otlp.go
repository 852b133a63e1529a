// Package otlp renders a lifecycle tree as OTLP JSON — {"resourceSpans":[...]}, the proto3 JSON
// mapping of opentelemetry.proto.trace.v1.TracesData that the Collector's file exporter writes
// and otel-tui (--from-json-file), Jaeger and any OTel Collector read: lowerCamelCase keys, trace
// and span ids as lower-case hex, 64-bit integers and times as decimal strings, enums as
// integers.
//
// One trace per session (trace id = hash of the session id); one span per session, run, turn,
// step, model call and tool call (span id = hash of layer and canonical id), nested as in the
// tree. A sub-agent or hand-off run that starts inside its parent run hangs under the parent's
// innermost span at that moment; other child runs (retries, resumes) hang under the session,
// and every child run links to its parent run's span. Spans carry the GenAI semantic-convention
// attributes (gen_ai.operation.name invoke_agent / chat / execute_tool, gen_ai.agent.name,
// gen_ai.conversation.id, gen_ai.request.model, gen_ai.usage.input_tokens/output_tokens on model
// calls only so that backends summing spans do not double count, gen_ai.tool.name,
// gen_ai.tool.call.id, error.type with status code 2) and lifeline's canonical facts as
// lifeline.* attributes (lifeline.layer, lifeline.session_id, lifeline.run_id, lifeline.turn_id,
// lifeline.step_id, lifeline.call_id, lifeline.status, lifeline.stop_reason,
// lifeline.parent_run_id, lifeline.attempt, lifeline.ended, ...). Status changes, waits and
// approvals, inputs, messages, connections, snapshots and resumes become span events named
// after the canonical event type, carrying the event as JSON in lifeline.event, so that
// lifeline's own OTLP ingester (tracer/otlp) rebuilds the same tree.
//
// The data model is go.opentelemetry.io/proto/otlp (the official types); the encoder is
// hand-written because protojson writes ids as base64 and enums as names, which OTLP JSON
// forbids.
package otlp

import (
	"bufio"
	"crypto/sha256"
	stdjson "encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/jsonw"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options control the OTLP rendering.
type Options struct {
	// ServiceName is the resource's service.name; empty means "lifeline".
	ServiceName string
	// Findings are invariant findings, added as lifeline.finding events on the spans they concern.
	Findings []model.Finding
	// Lines writes one TracesData per session, one per line (the Collector file exporter's JSON
	// Lines layout), instead of one document.
	Lines bool
}

// ScopeName is the instrumentation scope of every span lifeline writes.
const ScopeName = "github.com/lifeline-dev/lifeline"

// TraceID is the deterministic trace id of a session.
func TraceID(sessionID string) []byte {
	h := sha256.Sum256([]byte("lifeline/trace\x00" + sessionID))
	return nonZero(h[:16])
}

// SpanID is the deterministic span id of a node: layer ("session", "run", "turn", "step",
// "model", "tool") and canonical id, within its session (and run, for calls, whose ids a model
// may reuse across runs).
func SpanID(sessionID, layer, scope, id string) []byte {
	h := sha256.Sum256([]byte("lifeline/span\x00" + sessionID + "\x00" + layer + "\x00" + scope + "\x00" + id))
	return nonZero(h[:8])
}

func nonZero(b []byte) []byte {
	for _, c := range b {
		if c != 0 {
			return b
		}
	}
	b[len(b)-1] = 1
	return b
}

// Build converts a tree into OTLP TracesData: one ResourceSpans per session.
func Build(t *model.Tree, opts Options) *tracepb.TracesData {
	if t == nil {
		t = &model.Tree{}
	}
	b := &builder{v: view.Flatten(t, opts.Findings), opts: opts}
	return b.build()
}

// Render writes the OTLP JSON of t to w.
func Render(w io.Writer, t *model.Tree, opts Options) error {
	td := Build(t, opts)
	bw := bufio.NewWriterSize(w, 64<<10)
	e := &encoder{w: bw}
	if opts.Lines {
		for _, rs := range td.ResourceSpans {
			e.tracesData([]*tracepb.ResourceSpans{rs})
			e.raw("\n")
		}
	} else {
		e.tracesData(td.ResourceSpans)
		e.raw("\n")
	}
	e.flush()
	if e.err == nil {
		e.err = bw.Flush()
	}
	if e.err != nil {
		return fmt.Errorf("render otlp: %w", e.err)
	}
	return nil
}

type builder struct {
	v      *view.View
	opts   Options
	spans  []*tracepb.Span // by node index
	end    uint64          // trace end, ns
	inTree map[*model.Run]int
}

// ns is t in Unix nanoseconds (0 when unknown). OTLP's fixed64 cannot hold a time before 1970 and
// the readers that parse it as a signed int64 (Go's time.Unix(0, n) among them) none after
// 2262-04-11, so a time outside that range (an absurd clock) is clamped to it; clamped says so.
func ns(t time.Time) uint64 {
	n, _ := nsClamped(t)
	return n
}

var maxNS = time.Unix(0, math.MaxInt64)

func nsClamped(t time.Time) (n uint64, clamped bool) {
	switch {
	case t.IsZero():
		return 0, false
	case t.Unix() < 0 || t.Equal(time.Unix(0, 0)):
		return 1, true // 0 means "unset" in OTLP
	case t.After(maxNS):
		return math.MaxInt64, true
	}
	return uint64(t.UnixNano()), false
}

// cost is a cost attribute under the rule of every JSON output (jsonw.Finite): an overflowed
// sum is the largest finite double, NaN is left out.
func (a *attrs) cost(k string, v float64) {
	if f, ok := jsonw.Finite(v); ok && f != 0 {
		*a = append(*a, flt(k, f))
	}
}

func str(k, v string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

func num(k string, v int64) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v}}}
}

func flt(k string, v float64) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: v}}}
}

func boolean(k string, v bool) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: v}}}
}

func strList(k string, v []string) *commonpb.KeyValue {
	vals := make([]*commonpb.AnyValue, len(v))
	for i, s := range v {
		vals[i] = &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}
	}
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: vals}}}}
}

type attrs []*commonpb.KeyValue

func (a *attrs) s(k, v string) {
	if v != "" {
		*a = append(*a, str(k, v))
	}
}

func (a *attrs) i(k string, v int64) {
	if v != 0 {
		*a = append(*a, num(k, v))
	}
}

func (b *builder) build() *tracepb.TracesData {
	v := b.v
	b.spans = make([]*tracepb.Span, len(v.Nodes))
	b.end = ns(v.End)
	service := b.opts.ServiceName
	if service == "" {
		service = "lifeline"
	}
	td := &tracepb.TracesData{}
	var cur *tracepb.ScopeSpans
	var session *model.Session
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.Kind == view.KindSession {
			session = n.Obj.(*model.Session)
			res := attrs{str("service.name", service), str("lifeline.session_id", session.ID)}
			if v.Tree.Timeless {
				res = append(res, boolean("lifeline.timeless", true))
			}
			cur = &tracepb.ScopeSpans{Scope: &commonpb.InstrumentationScope{Name: ScopeName}}
			td.ResourceSpans = append(td.ResourceSpans, &tracepb.ResourceSpans{
				Resource:   &resourcepb.Resource{Attributes: res},
				ScopeSpans: []*tracepb.ScopeSpans{cur},
			})
		}
		if n.Kind == view.KindWait {
			continue // waits are replayed from the run's events
		}
		sp := b.span(i, session)
		b.spans[i] = sp
		cur.Spans = append(cur.Spans, sp)
	}
	return td
}

// scopeOf is the id scope of a node's span id: calls are scoped by their run.
func scopeOf(n *view.Node) string {
	if n.Kind == view.KindModel || n.Kind == view.KindTool {
		return n.Run.ID
	}
	return ""
}

func (b *builder) span(i int, se *model.Session) *tracepb.Span {
	v := b.v
	n := &v.Nodes[i]
	trace := TraceID(se.ID)
	sp := &tracepb.Span{TraceId: trace, SpanId: SpanID(se.ID, n.Kind.String(), scopeOf(n), n.ID),
		Kind: tracepb.Span_SPAN_KIND_INTERNAL}
	sp.StartTimeUnixNano = ns(n.Span.Start)
	if n.Span.Ended {
		sp.EndTimeUnixNano = max(ns(n.Span.End), sp.StartTimeUnixNano)
	} else if !n.Span.Start.IsZero() {
		sp.EndTimeUnixNano = max(ns(v.EndOf(n)), sp.StartTimeUnixNano) // open: drawn to the trace end; lifeline.ended says so
	}
	if n.Parent >= 0 {
		p := n.Parent
		if n.Kind == view.KindRun && v.Nodes[p].Kind == view.KindRun {
			p = b.childRunParent(i, p)
			sp.Links = append(sp.Links, &tracepb.Span_Link{TraceId: trace, SpanId: b.spans[n.Parent].SpanId,
				Attributes: attrs{str("lifeline.link", "parent_run"), str("lifeline.kind", n.Run.Kind)}})
		}
		sp.ParentSpanId = b.spans[p].SpanId
	}
	a := attrs{str("lifeline.layer", n.Kind.String()), str("lifeline.session_id", se.ID)}
	a = append(a, boolean("lifeline.ended", n.Span.Ended))
	if _, c1 := nsClamped(n.Span.Start); c1 || n.Span.Ended && clamped(n.Span.End) || !n.Span.Ended && clamped(v.EndOf(n)) {
		a = append(a, boolean("lifeline.time_clamped", true)) // an absurd clock: see ns
	}
	if n.Run != nil {
		a.s("lifeline.run_id", n.Run.ID)
	}
	var events []*tracepb.Span_Event
	switch n.Kind {
	case view.KindSession:
		sp.Name = "session " + se.ID
		a.s("gen_ai.conversation.id", se.ID)
		events = b.sessionEvents(se)
	case view.KindRun:
		r := n.Run
		sp.Name = "invoke_agent"
		if r.Agent != "" {
			sp.Name += " " + r.Agent
		}
		a = append(a, str("gen_ai.operation.name", "invoke_agent"))
		a.s("gen_ai.agent.name", r.Agent)
		a.s("gen_ai.agent.version", r.AgentVersion)
		a.s("gen_ai.conversation.id", se.ID)
		a.s("lifeline.name", r.Agent)
		a.s("lifeline.agent_version", r.AgentVersion)
		a.s("lifeline.parent_run_id", r.ParentRunID)
		a.i("lifeline.attempt", int64(r.Attempt))
		a.s("lifeline.kind", r.Kind)
		a.s("lifeline.status", string(r.Status))
		a.s("lifeline.wait_reason", string(r.WaitReason))
		a.s("lifeline.stop_reason", string(r.StopReason))
		if !r.Queued.IsZero() {
			a.s("lifeline.queued", r.Queued.Format(time.RFC3339Nano))
		}
		if n := len(r.History); n > 0 && r.Ended {
			a.s("lifeline.cause", r.History[n-1].Cause) // of the run/end
		}
		events = b.runEvents(r)
	case view.KindTurn:
		tu := n.Obj.(*model.Turn)
		sp.Name = "turn " + tu.ID
		a.s("gen_ai.conversation.id", se.ID)
		a.s("lifeline.turn_id", tu.ID)
		a.s("lifeline.outcome", string(tu.Outcome))
		a.s("lifeline.stop_reason", string(tu.StopReason))
		if tu.Stopping {
			events = append(events, event(model.TurnStopping, tu.End, &model.Event{Type: model.TurnStopping, SessionID: se.ID, RunID: tu.RunID, TurnID: tu.ID}))
		}
	case view.KindStep:
		st := n.Obj.(*model.Step)
		sp.Name = fmt.Sprintf("step %d", st.Index)
		a.s("lifeline.turn_id", st.TurnID)
		a.s("lifeline.step_id", st.ID)
		a.i("lifeline.step_index", int64(st.Index))
		a.s("lifeline.outcome", string(st.Outcome))
	case view.KindModel:
		m := n.Obj.(*model.ModelCall)
		sp.Kind = tracepb.Span_SPAN_KIND_CLIENT
		sp.Name = "chat"
		if m.Name != "" {
			sp.Name += " " + m.Name
		}
		a = append(a, str("gen_ai.operation.name", "chat"))
		a.s("gen_ai.request.model", m.Name)
		a.s("gen_ai.conversation.id", se.ID)
		a.s("lifeline.step_id", m.StepID)
		a.s("lifeline.call_id", m.ID)
		a.s("lifeline.name", m.Name)
		a.s("lifeline.outcome", string(m.Outcome))
		if !m.Usage.IsZero() {
			a = append(a, num("gen_ai.usage.input_tokens", m.Usage.InputTokens), num("gen_ai.usage.output_tokens", m.Usage.OutputTokens))
			a.i("gen_ai.usage.cache_read.input_tokens", m.Usage.CachedTokens)
			a.i("lifeline.usage.cached_tokens", m.Usage.CachedTokens)
			a.cost("lifeline.usage.cost_usd", m.Usage.CostUSD)
		}
		b.attrsJSON(&a, m.Attrs)
		payloads(&a, m.Attrs, model.AttrInput, "gen_ai.input.messages", model.AttrOutput, "gen_ai.output.messages")
	case view.KindTool:
		c := n.Obj.(*model.ToolCall)
		sp.Name = "execute_tool"
		if c.Name != "" {
			sp.Name += " " + c.Name
		}
		a = append(a, str("gen_ai.operation.name", "execute_tool"))
		a.s("gen_ai.tool.name", c.Name)
		a.s("gen_ai.tool.call.id", c.ID)
		a.s("gen_ai.conversation.id", se.ID)
		a.s("lifeline.step_id", c.StepID)
		a.s("lifeline.call_id", c.ID)
		a.s("lifeline.name", c.Name)
		a.s("lifeline.outcome", string(c.Outcome))
		if c.SideEffect {
			a = append(a, boolean("lifeline.side_effect", true))
		}
		a.s("lifeline.idempotency_key", c.IdempotencyKey)
		b.attrsJSON(&a, c.Attrs)
		payloads(&a, c.Attrs, model.AttrArgs, "gen_ai.tool.call.arguments", model.AttrResult, "gen_ai.tool.call.result")
	}
	if n.Kind == view.KindTurn || n.Kind == view.KindStep || n.Kind == view.KindModel || n.Kind == view.KindTool {
		if p := b.stepOrTurn(n); p != "" {
			a.s("lifeline.turn_id", p)
		}
	}
	if n.Kind != view.KindModel && !n.Usage.IsZero() {
		// Roll-ups under lifeline.* only: gen_ai.usage.* stays on model calls (no double counting).
		a = append(a, num("lifeline.rollup.input_tokens", n.Usage.InputTokens), num("lifeline.rollup.output_tokens", n.Usage.OutputTokens))
		a.cost("lifeline.rollup.cost_usd", n.Usage.CostUSD)
	}
	if len(n.Span.Inferred) > 0 {
		a = append(a, strList("lifeline.inferred", n.Span.Inferred))
	}
	if e := n.Err; e != nil {
		sp.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: e.Message}
		a.s("error.type", e.Kind)
		a.s("lifeline.error.kind", e.Kind)
		a = append(a, str("lifeline.error.message", e.Message))
		if e.Retryable {
			a = append(a, boolean("lifeline.error.retryable", true))
		}
	}
	for _, f := range n.Findings {
		events = append(events, &tracepb.Span_Event{Name: "lifeline.finding", TimeUnixNano: sp.StartTimeUnixNano,
			Attributes: attrs{str("lifeline.finding.code", f.Code), str("lifeline.finding.severity", string(f.Severity)), str("lifeline.finding.message", f.Message)}})
	}
	sp.Attributes = dedupe(a)
	sp.Events = events
	return sp
}

// dedupe drops repeated keys (the first wins).
func dedupe(a attrs) attrs {
	seen := make(map[string]bool, len(a))
	out := a[:0]
	for _, kv := range a {
		if !seen[kv.Key] {
			seen[kv.Key] = true
			out = append(out, kv)
		}
	}
	return out
}

func (b *builder) stepOrTurn(n *view.Node) string {
	switch n.Kind {
	case view.KindStep:
		return n.Obj.(*model.Step).TurnID
	case view.KindModel, view.KindTool:
		if n.Parent >= 0 {
			return b.stepOrTurn(&b.v.Nodes[n.Parent])
		}
	case view.KindTurn:
		return n.ID
	}
	return ""
}

// payloads writes the payloads of a call (pairs of lifeline attribute and GenAI attribute
// names) under the GenAI semantic-convention names too, for the viewers that show them. The
// gen_ai.*.messages attributes hold a JSON array of messages: a payload that is not one (an
// OpenInference input.value, a completion text) stays in lifeline.attrs only.
func payloads(a *attrs, m map[string]any, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		v, ok := m[pairs[i]]
		if !ok || v == nil {
			continue
		}
		s, ok := model.AttrString(v)
		if !ok {
			b, err := stdjson.Marshal(v)
			if err != nil {
				continue
			}
			s = string(b)
		}
		if strings.HasSuffix(pairs[i+1], ".messages") && !isJSONArray(s) {
			continue
		}
		a.s(pairs[i+1], s)
	}
}

func (b *builder) attrsJSON(a *attrs, m map[string]any) {
	if len(m) == 0 {
		return
	}
	if data, err := stdjson.Marshal(m); err == nil {
		*a = append(*a, str("lifeline.attrs", string(data)))
	}
}

// isJSONArray reports whether s is a whole JSON array.
func isJSONArray(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "[") && stdjson.Valid([]byte(t))
}

// childRunParent picks the span a child run hangs under: the parent run's innermost span
// containing the child's start when the child starts inside the parent run, else the session.
func (b *builder) childRunParent(child, parent int) int {
	v := b.v
	cs := v.Nodes[child].Span.Start
	pn := &v.Nodes[parent]
	inside := func(n *view.Node) bool {
		return !cs.IsZero() && !n.Span.Start.IsZero() && !cs.Before(n.Span.Start) && cs.Before(v.EndOf(n))
	}
	if !inside(pn) {
		p := parent
		for p >= 0 && v.Nodes[p].Kind != view.KindSession {
			p = v.Nodes[p].Parent
		}
		return p
	}
	best := parent
	for j := parent + 1; j < child; j++ {
		n := &v.Nodes[j]
		if n.Run == pn.Run && n.Kind != view.KindWait && n.Depth > v.Nodes[best].Depth && inside(n) && b.spans[j] != nil {
			best = j
		}
	}
	return best
}

func event(typ model.EventType, ts time.Time, e *model.Event) *tracepb.Span_Event {
	e.Seq = 0
	e.V = model.SchemaVersion
	e.TS = ts
	data, _ := stdjson.Marshal(e)
	return &tracepb.Span_Event{Name: string(typ), TimeUnixNano: ns(ts), Attributes: attrs{str("lifeline.event", string(data))}}
}

// waitAt returns the latest wait opened at or before seq.
func waitAt(waits []*model.Wait, seq int64) *model.Wait {
	var best *model.Wait
	for _, w := range waits {
		if w.Seq <= seq && (best == nil || w.Seq > best.Seq) {
			best = w
		}
	}
	return best
}

// runEvents replays what a run span cannot say by itself: its status changes between start and
// end, waits and approvals, inputs and resumes.
func (b *builder) runEvents(r *model.Run) []*tracepb.Span_Event {
	type ev struct {
		seq int64
		ts  time.Time
		e   *tracepb.Span_Event
	}
	var evs []ev
	fromStatus := map[*model.Wait]bool{}
	for i, h := range r.History {
		if i == 0 && (h.Status == model.StatusRunning || h.Status == model.StatusQueued) {
			continue // run/start (or run/queued)
		}
		if i == 1 && r.History[0].Status == model.StatusQueued && h.Status == model.StatusRunning {
			continue // run/start after run/queued
		}
		if i == len(r.History)-1 && r.Ended && h.Status.Terminal() {
			continue // run/end
		}
		e := &model.Event{Type: model.RunStatusChange, SessionID: r.SessionID, RunID: r.ID, Status: h.Status, WaitReason: h.WaitReason,
			StopReason: h.StopReason, Source: h.Source, Cause: h.Cause}
		if w := waitAt(r.Waits, h.Seq); w != nil && h.Status == model.StatusWaiting && h.Seq != 0 {
			e.CallID = w.CallID // the wait this status opened, or the one its approval/request opened
			fromStatus[w] = w.Seq == h.Seq
			if fromStatus[w] {
				e.Inferred = w.Inferred
			}
		}
		evs = append(evs, ev{h.Seq, h.TS, event(model.RunStatusChange, h.TS, e)})
	}
	for _, w := range r.Waits {
		if !fromStatus[w] {
			e := &model.Event{Type: model.ApprovalRequest, SessionID: r.SessionID, RunID: r.ID, CallID: w.CallID}
			evs = append(evs, ev{w.Seq, w.Start, event(model.ApprovalRequest, w.Start, e)})
		}
		if w.Decision != "" {
			ts, seq := w.End, w.EndSeq
			if !w.Ended {
				ts, seq = w.Start, w.Seq
			}
			e := &model.Event{Type: model.ApprovalResolve, SessionID: r.SessionID, RunID: r.ID, CallID: w.CallID, Decision: w.Decision, Source: model.SourceClient}
			evs = append(evs, ev{seq, ts, event(model.ApprovalResolve, ts, e)})
		}
	}
	for _, in := range r.Inputs {
		e := &model.Event{Type: in.Kind, SessionID: r.SessionID, RunID: r.ID, InputID: in.ID, Text: in.Text, Source: model.SourceClient}
		evs = append(evs, ev{in.Seq, in.TS, event(in.Kind, in.TS, e)})
	}
	for _, ts := range r.Resumes {
		e := &model.Event{Type: model.RunResumed, SessionID: r.SessionID, RunID: r.ID}
		evs = append(evs, ev{0, ts, event(model.RunResumed, ts, e)})
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if !evs[i].ts.Equal(evs[j].ts) && !evs[i].ts.IsZero() && !evs[j].ts.IsZero() {
			return evs[i].ts.Before(evs[j].ts)
		}
		return evs[i].seq != 0 && evs[j].seq != 0 && evs[i].seq < evs[j].seq
	})
	out := make([]*tracepb.Span_Event, len(evs))
	for i := range evs {
		out[i] = evs[i].e
	}
	return out
}

// sessionEvents replays a session's messages, connections and snapshots.
func (b *builder) sessionEvents(se *model.Session) []*tracepb.Span_Event {
	var out []*tracepb.Span_Event
	for _, c := range se.Connections {
		out = append(out, event(model.ConnectionOpen, c.Start, &model.Event{Type: model.ConnectionOpen, SessionID: se.ID, RunID: c.RunID, ConnectionID: c.ID, Source: model.SourceClient}))
		if c.Ended {
			out = append(out, event(model.ConnectionClose, c.End, &model.Event{Type: model.ConnectionClose, SessionID: se.ID, RunID: c.RunID, ConnectionID: c.ID, Source: model.SourceClient}))
		}
	}
	for _, m := range se.Messages {
		out = append(out, event(model.Message, m.TS, &model.Event{Type: model.Message, SessionID: se.ID, RunID: m.RunID, StepID: m.StepID, Role: m.Role, Text: m.Text}))
	}
	for k := 0; k < se.Snapshots; k++ {
		out = append(out, event(model.Snapshot, time.Time{}, &model.Event{Type: model.Snapshot, SessionID: se.ID}))
	}
	return out
}

func clamped(t time.Time) bool { _, c := nsClamped(t); return c }
