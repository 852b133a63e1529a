// Package spantree turns the spans of span-based trace formats (OTLP, the OpenAI Agents SDK
// export) into canonical lifecycle events. A format decoder classifies each span into a lifecycle
// layer (run, agent activation, step, model call, tool call, or nothing) and hands it to a
// Builder; the Builder groups spans by trace, rebuilds the span tree (children usually arrive
// before their parents), infers the layers the format never records — a Turn per run, Steps from
// model calls and the tool calls they requested, run status and stop reason from errors — marks
// every inferred fact in Event.Inferred and emits the events in the order docs/events.md gives.
package spantree

import (
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// Layer is the lifecycle layer a span was classified into.
type Layer uint8

// Layers, from the span-format point of view.
const (
	// Other spans carry no lifecycle meaning of their own (chains, prompts, guardrails...); their
	// children are still placed by their own layers.
	Other Layer = iota
	// Session is an explicit session span (lifeline's own OTLP output).
	Session
	// Run is one managed execution (OpenAI task span, lifeline run span, a trace root).
	Run
	// Agent is one agent activation inside a run (OpenAI agent span, GenAI invoke_agent,
	// OpenInference AGENT); nested under a tool call it starts a sub-agent run.
	Agent
	// Turn is an explicit turn span (lifeline's own OTLP output only).
	Turn
	// Step is an explicit step span (OpenAI "turn" custom span, lifeline step span).
	Step
	// Model is one provider request.
	Model
	// Tool is one tool execution (including a handoff transfer).
	Tool
)

var layerNames = [...]string{"other", "session", "run", "agent", "turn", "step", "model", "tool"}

// String returns the layer's name.
func (l Layer) String() string {
	if int(l) < len(layerNames) {
		return layerNames[l]
	}
	return "?"
}

// ParseLayer maps a lifeline.layer attribute value to a Layer.
func ParseLayer(s string) (Layer, bool) {
	for i, n := range layerNames {
		if n == s && i != int(Other) && i != int(Agent) {
			return Layer(i), true
		}
	}
	return Other, false
}

// Explicit holds lifeline's own lifecycle attributes (lifeline.*), set on spans written by
// lifeline's OTLP renderer. When a trace carries them its tree is rebuilt from them exactly,
// without inference.
type Explicit struct {
	SessionID, RunID, TurnID, StepID, CallID string
	ParentRunID                              string
	Attempt                                  int
	Kind                                     string
	Status                                   model.RunStatus
	WaitReason                               model.WaitReason
	StopReason                               model.StopReason
	Outcome                                  model.Outcome
	AgentVersion                             string
	// Open is true when lifeline.ended is false: the node was never ended.
	Open bool
	// Inferred is what the original tracer had inferred (lifeline.inferred).
	Inferred []string
	// Attrs is the node's free attributes (lifeline.attrs, a JSON object).
	Attrs map[string]any
	// SideEffect and IdempotencyKey describe a tool call.
	SideEffect     bool
	IdempotencyKey string
	// Queued is when the run was queued (lifeline.queued); Cause what ended it (lifeline.cause).
	Queued time.Time
	Cause  string
}

// SpanEvent is an event recorded inside a span. Events named after a canonical event type
// (run/status, message, approval/request, ...) are replayed as that event.
type SpanEvent struct {
	Name  string
	TS    time.Time
	Attrs map[string]any
}

// Span is one compact span record: only what the lifecycle needs, so that millions of spans fit
// in memory while their trace is incomplete.
type Span struct {
	TraceID, ID, Parent string
	// Line is the source line the span was read from (File is set by the Builder).
	Line  int
	File  string
	Name  string
	Layer Layer
	// Start and End are the span's times; zero when the format had none. Ended is false for a
	// span that never ended.
	Start, End time.Time
	Ended      bool
	// Err is the span's failure (status ERROR, an error object, an exception event).
	Err *model.ErrorInfo
	// Cancelled marks a failure that is a cancellation (abort) rather than an error.
	Cancelled bool
	// Session is a session id hint (conversation id, group id, session.id).
	Session string
	// Agent is the agent name (agent/run spans).
	Agent string
	// Model is the model name (model spans).
	Model string
	// Tool is the tool name (tool spans).
	Tool string
	// CallID is the tool call id the model gave (tool spans), if recorded.
	CallID string
	// Requests are the tool calls a model call's output asked for (model spans).
	Requests []Request
	// Answers are the approval answers the span's input carries (the Vercel AI SDK's
	// tool-approval-response parts in the prompt of the call that continues an approval): they
	// resume the run that waited for those calls.
	Answers []Answer
	// Usage is a model call's resource use.
	Usage *model.Usage
	// Attrs are free attributes kept for the tree (small: tool args/results, finish reasons).
	Attrs map[string]any
	// Stop is a stop reason the format states or implies directly (e.g. a triggered guardrail).
	Stop model.StopReason
	// EndStop is the stop reason an agent span that ended without an error implies by its own end
	// state (the Vercel AI SDK's last finish reason "tool-calls": the loop hit its step bound). It
	// decides the run's outcome only when no span of the run failed and no requested tool call is
	// pending; the latest-ending agent span of a run counts.
	EndStop model.StopReason
	// Seq is the producer's own number of an explicit step span (the OpenAI Agents SDK's turn
	// number, which a run resumed from its RunState continues), 0 when not recorded.
	Seq int
	// CodeAction marks a model call whose output is a smolagents CodeAgent code action: its
	// execution (python_interpreter, recorded by no span of its own) is the step's one tool
	// call, and the tool spans of the step ran inside that code.
	CodeAction bool
	// NoResult marks a tool span that ended with no output and no error (OpenAI Agents Python: the
	// function span of a needs_approval call that interrupted the run, or of a call whose run
	// was cancelled while it ran). If it ended after the span enclosing it, the run was
	// cancelled under it (a cancelled call); else, as the last thing its run did, it is an
	// approval request, not an executed call.
	NoResult bool
	// History digests a model call's input messages (element i: the first i+1 messages), nil
	// when not recorded: a trace with no session id whose first model input strictly extends a
	// model input of an earlier trace (at least two messages of it) continues that trace's
	// conversation and joins its session.
	History []uint64
	// Rejected marks a tool span that records a call the user rejected at an approval, not an
	// execution (the OpenAI Agents JS SDK ends it with the error "Tool execution was not
	// approved."): it answers the approval request (denied) and is no tool call.
	Rejected bool
	// Events are the span's events that replay as canonical events (lifeline output).
	Events []SpanEvent
	// Explicit holds lifeline.* attributes; nil when the span has none.
	Explicit *Explicit
	// Order is the arrival order (set by the Builder).
	Order int
}

// Answer is the answer to an approval request: the call it approves or denies.
type Answer struct {
	CallID   string
	Approved bool
}

// Request is one tool call requested by a model call.
type Request struct {
	ID, Name string
}
