package model

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
	"unicode/utf8"
)

// SchemaVersion is the version of the canonical event schema written in every event's "v".
const SchemaVersion = 1

// EventType names what an event records. The vocabulary is fixed by docs/model.md.
type EventType string

// The canonical event types.
const (
	SessionStart    EventType = "session/start"
	SessionEnd      EventType = "session/end"
	ConnectionOpen  EventType = "connection/open"
	ConnectionClose EventType = "connection/close"
	RunQueued       EventType = "run/queued"
	RunStart        EventType = "run/start"
	RunStatusChange EventType = "run/status"
	RunResumed      EventType = "run/resumed"
	RunEnd          EventType = "run/end"
	TurnStart       EventType = "turn/start"
	TurnStopping    EventType = "turn/stopping"
	TurnEnd         EventType = "turn/end"
	StepStart       EventType = "step/start"
	StepEnd         EventType = "step/end"
	ModelStart      EventType = "model/start"
	ModelEnd        EventType = "model/end"
	ToolStart       EventType = "tool/start"
	ToolEnd         EventType = "tool/end"
	Message         EventType = "message"
	InputSteer      EventType = "input/steer"
	InputFollowUp   EventType = "input/follow_up"
	ApprovalRequest EventType = "approval/request"
	ApprovalResolve EventType = "approval/resolve"
	Snapshot        EventType = "snapshot"
)

// EventTypes lists the whole vocabulary in the order of docs/model.md.
var EventTypes = []EventType{SessionStart, SessionEnd, ConnectionOpen, ConnectionClose, RunQueued,
	RunStart, RunStatusChange, RunResumed, RunEnd, TurnStart, TurnStopping, TurnEnd, StepStart,
	StepEnd, ModelStart, ModelEnd, ToolStart, ToolEnd, Message, InputSteer, InputFollowUp,
	ApprovalRequest, ApprovalResolve, Snapshot}

var eventTypeSet = func() map[EventType]bool {
	m := make(map[EventType]bool, len(EventTypes))
	for _, t := range EventTypes {
		m[t] = true
	}
	return m
}()

// Valid reports whether t belongs to the vocabulary.
func (t EventType) Valid() bool { return eventTypeSet[t] }

// Source says who wrote an event.
type Source string

// Event sources.
const (
	SourceRuntime Source = "runtime"
	SourceModel   Source = "model"
	SourceTool    Source = "tool"
	SourceClient  Source = "client"
)

// Outcome is how a step, model call, tool call or turn ended.
type Outcome string

// Outcomes.
const (
	OutcomeOK        Outcome = "ok"
	OutcomeError     Outcome = "error"
	OutcomeCancelled Outcome = "cancelled"
	// OutcomeUnknown marks a side-effecting call whose result was never recorded (a crash) and
	// whose effect could not be confirmed by an idempotency probe.
	OutcomeUnknown Outcome = "unknown"
)

// Decision is the answer to an approval request.
type Decision string

// Approval decisions.
const (
	DecisionApproved Decision = "approved"
	DecisionDenied   Decision = "denied"
)

// Usage is the resource use of a model call (and, rolled up, of a step, turn, run or session).
type Usage struct {
	InputTokens  int64   `json:"input_tokens,omitempty"`
	OutputTokens int64   `json:"output_tokens,omitempty"`
	CachedTokens int64   `json:"cached_tokens,omitempty"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
}

// Add returns u+o. Token counts saturate at the int64 limits instead of wrapping around, and a
// cost sum that is not finite is clamped to ±math.MaxFloat64 (a NaN to 0), so a roll-up is
// always a number every output can write; Saturated tells whether a limit was reached.
func (u Usage) Add(o Usage) Usage {
	return Usage{InputTokens: SatAdd(u.InputTokens, o.InputTokens), OutputTokens: SatAdd(u.OutputTokens, o.OutputTokens),
		CachedTokens: SatAdd(u.CachedTokens, o.CachedTokens), CostUSD: FiniteCost(u.CostUSD + o.CostUSD)}
}

// Total is input plus output tokens (saturating, see SatAdd).
func (u Usage) Total() int64 { return SatAdd(u.InputTokens, u.OutputTokens) }

// Saturated reports whether a count or the cost is at the limit where Add clamps it: the true
// sum may be larger, so an output should show it as a bound ("≥") rather than an exact value.
func (u Usage) Saturated() bool {
	for _, n := range []int64{u.InputTokens, u.OutputTokens, u.CachedTokens} {
		if n == math.MaxInt64 || n == math.MinInt64 {
			return true
		}
	}
	return math.Abs(u.CostUSD) == math.MaxFloat64
}

// SatAdd returns a+b, or math.MaxInt64 (math.MinInt64) when the sum would overflow (underflow).
func SatAdd(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// FiniteCost returns f clamped to the finite range: ±Inf becomes ±math.MaxFloat64 and NaN 0, so
// the value is valid JSON.
func FiniteCost(f float64) float64 {
	switch {
	case math.IsNaN(f):
		return 0
	case math.IsInf(f, 1):
		return math.MaxFloat64
	case math.IsInf(f, -1):
		return -math.MaxFloat64
	}
	return f
}

// IsZero reports whether u records nothing.
func (u Usage) IsZero() bool { return u == Usage{} }

// ErrorInfo describes a failure.
type ErrorInfo struct {
	// Kind is a stable category: "tool", "model", "provider", "timeout", "cancelled",
	// "guardrail", "budget", "crash", or a framework's own error type name.
	Kind string `json:"kind,omitempty"`
	// Message is the human-readable error text (untrusted).
	Message string `json:"message"`
	// Retryable says whether the producer considered the error transient.
	Retryable bool `json:"retryable,omitempty"`
}

func (e *ErrorInfo) String() string {
	if e == nil {
		return ""
	}
	if e.Kind == "" {
		return e.Message
	}
	return e.Kind + ": " + e.Message
}

// Origin points at the source record an event was made from (for events converted from a
// foreign format) or the line of the canonical log it was read from.
type Origin struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

func (o *Origin) String() string {
	if o == nil {
		return ""
	}
	if o.Line == 0 {
		return o.File
	}
	return fmt.Sprintf("%s:%d", o.File, o.Line)
}

// Event is one canonical lifecycle event: one JSON object per line of the event log.
// See docs/events.md for the schema of every field.
type Event struct {
	V    int       `json:"v"`
	Seq  int64     `json:"seq"`
	TS   time.Time `json:"ts,omitzero"`
	Type EventType `json:"type"`

	SessionID    string `json:"session_id,omitempty"`
	RunID        string `json:"run_id,omitempty"`
	ParentRunID  string `json:"parent_run_id,omitempty"`
	Attempt      int    `json:"attempt,omitempty"`
	TurnID       string `json:"turn_id,omitempty"`
	StepID       string `json:"step_id,omitempty"`
	CallID       string `json:"call_id,omitempty"`
	ConnectionID string `json:"connection_id,omitempty"`
	InputID      string `json:"input_id,omitempty"`

	Status     RunStatus  `json:"status,omitempty"`
	WaitReason WaitReason `json:"wait_reason,omitempty"`
	StopReason StopReason `json:"stop_reason,omitempty"`
	Outcome    Outcome    `json:"outcome,omitempty"`
	Error      *ErrorInfo `json:"error,omitempty"`
	Source     Source     `json:"source,omitempty"`

	// Name is the agent name (run events), model name (model events) or tool name (tool events).
	Name string `json:"name,omitempty"`
	// AgentVersion is the agent configuration (version or hash) a run used (run/start).
	AgentVersion string `json:"agent_version,omitempty"`
	// Kind qualifies a run: "retry", "resume", "handoff" or "subagent" (run/queued, run/start).
	Kind string `json:"kind,omitempty"`
	// Role and Text carry a message (message, input/*): role is user, assistant, system or tool.
	Role string `json:"role,omitempty"`
	Text string `json:"text,omitempty"`
	// Usage is the resource use of a model call (model/end).
	Usage *Usage `json:"usage,omitempty"`
	// SideEffect and IdempotencyKey describe a tool call (tool/start).
	SideEffect     bool   `json:"side_effect,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// Decision answers an approval (approval/resolve).
	Decision Decision `json:"decision,omitempty"`
	// Consumes lists input ids (steers at step/start, follow-ups at turn/start) taken in.
	Consumes []string `json:"consumes,omitempty"`
	// Cause names the event type that caused a status change (run/status, run/end), e.g.
	// "approval/resolve", "timeout", "connection/close" (the last is an L12 violation).
	Cause string `json:"cause,omitempty"`
	// Inferred lists what a tracer reconstructed rather than read: layers ("run", "turn",
	// "step"), fields ("ts", "end", "parent") or facts ("status", "stop_reason").
	Inferred []string `json:"inferred,omitempty"`
	// Origin is the foreign record this event was made from.
	Origin *Origin `json:"origin,omitempty"`
	// Attrs holds free attributes (tool arguments, results, model parameters, ...). A text value
	// is a string or, read from a canonical log, a JSONText (see AttrString).
	Attrs map[string]any `json:"attrs,omitempty"`
}

// Where returns the event's location for messages: its origin, else "seq N".
func (e *Event) Where() string {
	if e.Origin != nil && (e.Origin.File != "" || e.Origin.Line != 0) {
		return e.Origin.String()
	}
	return fmt.Sprintf("seq %d", e.Seq)
}

// FieldError reports a missing or malformed field of an event.
type FieldError struct {
	Field string
	Want  string
}

func (e *FieldError) Error() string { return fmt.Sprintf("field %q: %s", e.Field, e.Want) }

// required lists, per event type, the id fields an event must carry to be placed in the tree.
var required = map[EventType][]string{
	SessionStart: {"session_id"}, SessionEnd: {"session_id"},
	ConnectionOpen: {"session_id", "connection_id"}, ConnectionClose: {"session_id", "connection_id"},
	RunQueued: {"session_id", "run_id"}, RunStart: {"session_id", "run_id"},
	RunStatusChange: {"session_id", "run_id", "status"}, RunResumed: {"session_id", "run_id"},
	RunEnd:    {"session_id", "run_id", "status"},
	TurnStart: {"session_id", "run_id", "turn_id"}, TurnStopping: {"session_id", "run_id", "turn_id"},
	TurnEnd:   {"session_id", "run_id", "turn_id"},
	StepStart: {"session_id", "run_id", "turn_id", "step_id"}, StepEnd: {"session_id", "run_id", "turn_id", "step_id"},
	ModelStart: {"session_id", "run_id", "turn_id", "step_id", "call_id"},
	ModelEnd:   {"session_id", "run_id", "turn_id", "step_id", "call_id"},
	ToolStart:  {"session_id", "run_id", "turn_id", "step_id", "call_id"},
	ToolEnd:    {"session_id", "run_id", "turn_id", "step_id", "call_id"},
	Message:    {"session_id"}, InputSteer: {"session_id", "run_id", "input_id"},
	InputFollowUp: {"session_id", "run_id", "input_id"}, ApprovalRequest: {"session_id", "run_id", "call_id"},
	ApprovalResolve: {"session_id", "run_id", "call_id", "decision"}, Snapshot: {"session_id"},
}

func (e *Event) field(name string) string {
	switch name {
	case "session_id":
		return e.SessionID
	case "run_id":
		return e.RunID
	case "turn_id":
		return e.TurnID
	case "step_id":
		return e.StepID
	case "call_id":
		return e.CallID
	case "connection_id":
		return e.ConnectionID
	case "input_id":
		return e.InputID
	case "status":
		return string(e.Status)
	case "decision":
		return string(e.Decision)
	}
	return ""
}

// Validate checks that an event is well formed: a known type, the schema version, the ids its
// type needs, values from the vocabulary and valid UTF-8 text. It does not check the event
// against others (that is the Checker's job).
func (e *Event) Validate() error {
	if err := e.validate(); err != nil {
		return err
	}
	for _, s := range []string{e.SessionID, e.RunID, e.ParentRunID, e.TurnID, e.StepID, e.CallID, e.ConnectionID, e.InputID, e.Name, e.Text, e.Role} {
		if !utf8.ValidString(s) {
			return &FieldError{"text", "valid UTF-8"}
		}
	}
	if e.Error != nil && !utf8.ValidString(e.Error.Message) {
		return &FieldError{"error.message", "valid UTF-8"}
	}
	return nil
}

// validate is Validate without the UTF-8 checks (DecodeLine checked the whole line).
func (e *Event) validate() error {
	if e.V != SchemaVersion {
		return &FieldError{"v", fmt.Sprintf("schema version %d (got %d)", SchemaVersion, e.V)}
	}
	if !e.Type.Valid() {
		return &FieldError{"type", fmt.Sprintf("one of the canonical event types (got %q)", e.Type)}
	}
	if e.Seq < 0 {
		return &FieldError{"seq", "a non-negative integer"}
	}
	for _, f := range required[e.Type] {
		if e.field(f) == "" {
			return &FieldError{f, fmt.Sprintf("required on %s", e.Type)}
		}
	}
	if e.Status != "" && !e.Status.Valid() {
		return &FieldError{"status", fmt.Sprintf("one of queued, running, waiting, completed, failed, cancelled (got %q)", e.Status)}
	}
	if e.StopReason != "" && !e.StopReason.Valid() {
		return &FieldError{"stop_reason", fmt.Sprintf("a canonical stop reason or other:<word> (got %q)", e.StopReason)}
	}
	if e.WaitReason != "" && !e.WaitReason.Valid() {
		return &FieldError{"wait_reason", fmt.Sprintf("one of approval, user_input, callback, paused (got %q)", e.WaitReason)}
	}
	switch e.Outcome {
	case "", OutcomeOK, OutcomeError, OutcomeCancelled, OutcomeUnknown:
	default:
		return &FieldError{"outcome", fmt.Sprintf("one of ok, error, cancelled, unknown (got %q)", e.Outcome)}
	}
	switch e.Decision {
	case "", DecisionApproved, DecisionDenied:
	default:
		return &FieldError{"decision", fmt.Sprintf("approved or denied (got %q)", e.Decision)}
	}
	switch e.Source {
	case "", SourceRuntime, SourceModel, SourceTool, SourceClient:
	default:
		return &FieldError{"source", fmt.Sprintf("one of runtime, model, tool, client (got %q)", e.Source)}
	}
	if e.Attempt < 0 {
		return &FieldError{"attempt", "a positive integer (1-based)"}
	}
	return nil
}

// MarshalLine encodes e as one line of the canonical log (no trailing newline).
func (e *Event) MarshalLine() ([]byte, error) {
	if e.V == 0 {
		e.V = SchemaVersion
	}
	return json.Marshal(e)
}
