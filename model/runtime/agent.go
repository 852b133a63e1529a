package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/lifeline-dev/lifeline/model"
)

// Message is one entry of the context given to a model. The context is never stored: it is
// rebuilt before each model call from the durable events of the run (the user input, the
// model's earlier decisions, tool results, approval decisions and consumed steer/follow-up input).
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string `json:"role"`
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls an assistant message requested.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// CallID is the tool call a "tool" message answers; IsError marks a failed call.
	CallID  string `json:"call_id,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}

// Request is what a model is asked to decide on.
type Request struct {
	RunID  string
	StepID string
	// Attempt is the 1-based attempt of this model call within its step. A call a process
	// stop interrupted is re-issued with the same attempt (a crash is not a failed attempt).
	Attempt  int
	Messages []Message
	// Tools are the names of the tools the agent offers.
	Tools []string
}

// ToolCall is one tool call a model decided to make.
type ToolCall struct {
	// ID is assigned by the runtime when the decision is recorded (the tool call's call_id).
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
	// IdempotencyKey identifies the call's side effect; the runtime uses the call id when empty.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// Approval is set by the runtime when the call needs an approval before it runs.
	Approval bool `json:"approval,omitempty"`
}

// Decision is a model's answer: final text and/or tool calls, with the resources it used. A
// decision without tool calls is final: the turn may reach its stop boundary.
type Decision struct {
	Text      string      `json:"text,omitempty"`
	ToolCalls []ToolCall  `json:"tool_calls,omitempty"`
	Usage     model.Usage `json:"-"`
}

// Model is a language-model provider. Decide must honour ctx (cancellation and deadline); any
// error is a provider error, retried inside the step unless it is Permanent.
type Model interface {
	Name() string
	Decide(ctx context.Context, req Request) (Decision, error)
}

// Call is what a tool is run with.
type Call struct {
	ID             string
	Name           string
	Args           map[string]any
	IdempotencyKey string
	RunID          string
	SessionID      string

	rt *Runtime
}

// Tool is an executable tool. Run returns the result text or an error: a plain error is
// returned to the model as the tool result, an error wrapped by Fatal ends the turn and fails
// the run with stop reason tool_error. Run must honour ctx.
type Tool interface {
	Name() string
	// SideEffect reports whether the tool changes the outside world: such a call is never
	// re-executed blindly after a crash.
	SideEffect() bool
	Run(ctx context.Context, call Call) (string, error)
}

// Prober is implemented by side-effecting tools that can tell whether a call's effect already
// happened ("was this done?"), by its idempotency key. It is asked after a crash left the call
// without a recorded result.
type Prober interface {
	Probe(ctx context.Context, call Call) (result string, done bool, err error)
}

// ApprovalRequirer is implemented by tools whose calls (some or all) need a human approval
// before they run: the run goes waiting until the approval is resolved.
type ApprovalRequirer interface {
	RequiresApproval(call ToolCall) bool
}

type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

// Fatal marks a tool error as unrecoverable: it ends the turn and the run (tool_error).
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err}
}

// IsFatal reports whether err was marked by Fatal.
func IsFatal(err error) bool {
	var fe *fatalError
	return errors.As(err, &fe)
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks a model error as not worth retrying: the step fails with model_error at once.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

// IsPermanent reports whether err was marked by Permanent.
func IsPermanent(err error) bool {
	var pe *permanentError
	return errors.As(err, &pe)
}

// SuccessCheck decides whether a run whose turn stopped naturally reached its goal. A non-nil
// error fails the run (stop reason error) instead of completing it.
type SuccessCheck func(ctx context.Context, res Result) error

// StoppingHook is called at a turn's stop boundary (after turn/stopping). The texts it returns
// are re-inserted as steer input and the turn continues with another step.
type StoppingHook func(ctx context.Context, runID, turnID string) ([]string, error)

// Limits bound a run. Zero values mean the defaults noted.
type Limits struct {
	// MaxSteps bounds the steps of a run, across its turns (default 25).
	MaxSteps int
	// MaxTurns bounds the turns of a run (default 10).
	MaxTurns int
	// Timeout bounds the run's time from its first run/start, on the runtime's Clock (default
	// none).
	Timeout time.Duration
	// TokenBudget bounds the run's input+output tokens (default none).
	TokenBudget int64
	// ModelAttempts is how many model calls a step may make before it fails (default 3).
	ModelAttempts int
	// ModelCallTimeout bounds one model call (default none); a timed-out call is retried.
	ModelCallTimeout time.Duration
	// RetryBackoff is the pause before a model call is retried (default 1ms).
	RetryBackoff time.Duration
	// CancelGrace is how long a cancelled tool may take to return before it is abandoned
	// (default 200ms). An abandoned side-effecting call ends with outcome unknown.
	CancelGrace time.Duration
	// ProbeTimeout bounds one idempotency probe after a crash (default 5s); a probe that
	// times out leaves the call's outcome unknown.
	ProbeTimeout time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxSteps <= 0 {
		l.MaxSteps = 25
	}
	if l.MaxTurns <= 0 {
		l.MaxTurns = 10
	}
	if l.ModelAttempts <= 0 {
		l.ModelAttempts = 3
	}
	if l.RetryBackoff <= 0 {
		l.RetryBackoff = time.Millisecond
	}
	if l.CancelGrace <= 0 {
		l.CancelGrace = 200 * time.Millisecond
	}
	if l.ProbeTimeout <= 0 {
		l.ProbeTimeout = 5 * time.Second
	}
	return l
}

// Agent is an agent configuration: its name and version (recorded on run/start), model, tools,
// bounds, success check and turn-stopping hook.
type Agent struct {
	Name    string
	Version string
	Model   Model
	Tools   []Tool
	Limits  Limits
	// Success is the pluggable success check (nil: a natural stop is success).
	Success SuccessCheck
	// OnStopping is the turn-stopping hook (nil: none).
	OnStopping StoppingHook
}

func (a *Agent) tool(name string) Tool {
	for _, t := range a.Tools {
		if t.Name() == name {
			return t
		}
	}
	return nil
}

func (a *Agent) toolNames() []string {
	out := make([]string, len(a.Tools))
	for i, t := range a.Tools {
		out[i] = t.Name()
	}
	return out
}

// IDGen mints a new id for an object of the given kind ("session", "run", "turn", "step",
// "model", "tool", "conn", "input").
type IDGen func(kind string) string

// UUIDs is the default id generator (random UUIDs).
func UUIDs(string) string { return uuid.NewString() }

// SeqIDs returns a deterministic generator of readable ids ("run-1", "turn-2", ...), one
// counter per kind. Share it across the runtimes opened on one log; the runtime also skips any id
// the log already holds.
func SeqIDs() IDGen {
	var mu sync.Mutex
	n := map[string]int{}
	return func(kind string) string {
		mu.Lock()
		defer mu.Unlock()
		n[kind]++
		return fmt.Sprintf("%s-%d", kind, n[kind])
	}
}

// Script is one scripted model call: its delay (on the runtime's clock), then its error or
// decision. Hook, when set,
// runs as the call starts (with the call's context), so that a test can steer, cancel or crash
// at an exact point.
type Script struct {
	Delay    time.Duration
	Err      error
	Decision Decision
	Hook     func(ctx context.Context, req Request)
}

// ScriptedModel answers model calls from a script, one entry per call in order. Calls past the
// end of the script fail permanently.
type ScriptedModel struct {
	ModelName string
	Script    []Script
	n         atomic.Int64
}

// NewScriptedModel returns a scripted model.
func NewScriptedModel(name string, script ...Script) *ScriptedModel {
	return &ScriptedModel{ModelName: name, Script: script}
}

// Name returns the model name.
func (m *ScriptedModel) Name() string { return m.ModelName }

// Calls returns how many calls the model received.
func (m *ScriptedModel) Calls() int { return int(m.n.Load()) }

// Decide plays the next script entry, honouring ctx during the delay.
func (m *ScriptedModel) Decide(ctx context.Context, req Request) (Decision, error) {
	i := int(m.n.Add(1)) - 1
	if i >= len(m.Script) {
		return Decision{}, Permanent(fmt.Errorf("scripted model %s: no script entry for call %d", m.ModelName, i+1))
	}
	s := m.Script[i]
	if s.Hook != nil {
		s.Hook(ctx, req)
	}
	if err := Sleep(ctx, s.Delay); err != nil {
		return Decision{}, err
	}
	if s.Err != nil {
		return Decision{}, s.Err
	}
	return s.Decision, nil
}

// ModelFunc adapts a function to the Model interface.
type ModelFunc struct {
	ModelName string
	Fn        func(ctx context.Context, req Request) (Decision, error)
}

// Name returns the model name.
func (m ModelFunc) Name() string { return m.ModelName }

// Decide calls Fn.
func (m ModelFunc) Decide(ctx context.Context, req Request) (Decision, error) { return m.Fn(ctx, req) }

// FuncTool is a Tool built from functions.
type FuncTool struct {
	ToolName string
	// Effect marks a side-effecting tool.
	Effect bool
	// NeedsApproval makes every call of the tool wait for an approval.
	NeedsApproval bool
	Fn            func(ctx context.Context, call Call) (string, error)
	// ProbeFn, when set, answers "was this done?" by idempotency key.
	ProbeFn func(ctx context.Context, call Call) (string, bool, error)
}

// Name returns the tool name.
func (t *FuncTool) Name() string { return t.ToolName }

// SideEffect reports whether the tool changes the outside world.
func (t *FuncTool) SideEffect() bool { return t.Effect }

// Run calls Fn.
func (t *FuncTool) Run(ctx context.Context, call Call) (string, error) { return t.Fn(ctx, call) }

// RequiresApproval reports NeedsApproval.
func (t *FuncTool) RequiresApproval(ToolCall) bool { return t.NeedsApproval }

// Probe calls ProbeFn; without one it reports an error (the outcome stays unknown).
func (t *FuncTool) Probe(ctx context.Context, call Call) (string, bool, error) {
	if t.ProbeFn == nil {
		return "", false, fmt.Errorf("tool %s offers no probe", t.ToolName)
	}
	return t.ProbeFn(ctx, call)
}

// Ledger is an idempotent external effect store for tests and demos: it records each
// idempotency key once and answers probes. It is what a real side-effecting tool's backend
// (a mail server, a payment API) does with idempotency keys.
type Ledger struct {
	mu   sync.Mutex
	done map[string]string
	runs map[string]int
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{done: map[string]string{}, runs: map[string]int{}} }

// Do applies the effect for key (counting every application) and returns its result.
func (l *Ledger) Do(key, result string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runs[key]++
	l.done[key] = result
	return result
}

// Done reports whether key's effect happened, with its result.
func (l *Ledger) Done(key string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.done[key]
	return r, ok
}

// Applied returns how many times key's effect was applied (more than 1 is a repeated effect).
func (l *Ledger) Applied(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.runs[key]
}

// MaxApplied returns the largest number of applications of any key.
func (l *Ledger) MaxApplied() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	best, n := "", 0
	for k, v := range l.runs {
		if v > n || v == n && k < best {
			best, n = k, v
		}
	}
	return best, n
}
