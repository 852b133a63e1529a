package model

import (
	"math"
	"time"
)

// Span is the interval shared by every node of the lifecycle tree.
type Span struct {
	Start time.Time `json:"start,omitzero"`
	End   time.Time `json:"end,omitzero"`
	// Ended is false while the node is open (its end was never recorded).
	Ended bool `json:"ended"`
	// Seq is the seq of the event that opened the node; EndSeq of the one that ended it.
	Seq    int64 `json:"seq,omitempty"`
	EndSeq int64 `json:"end_seq,omitempty"`
	// Origin is the source record that opened the node.
	Origin *Origin `json:"origin,omitempty"`
	// Inferred lists what was reconstructed rather than recorded (see Event.Inferred).
	Inferred []string `json:"inferred,omitempty"`
}

// Duration is End-Start, or 0 when either is unknown. A difference beyond what a
// time.Duration holds (about 292 years) is saturated: use DurationOK to know.
func (s *Span) Duration() time.Duration {
	d, _ := s.DurationOK()
	return d
}

// DurationOK is Duration, with ok false when the true End-Start does not fit in a
// time.Duration and the value returned is only the saturated bound (see Elapsed). An output
// should then show the interval as out of range rather than print that bound.
func (s *Span) DurationOK() (d time.Duration, ok bool) {
	if s.Start.IsZero() || s.End.IsZero() {
		return 0, true
	}
	return Elapsed(s.Start, s.End)
}

// Elapsed returns end-start and true, or, when the difference does not fit in a time.Duration
// (more than about 292 years either way), math.MaxInt64 or math.MinInt64 nanoseconds and
// false. Use it for every offset and interval computed from a log's timestamps: time.Sub
// saturates silently, and arithmetic on the saturated value overflows.
func Elapsed(start, end time.Time) (time.Duration, bool) {
	d := end.Sub(start)
	if (d == math.MaxInt64 || d == math.MinInt64) && !start.Add(d).Equal(end) {
		return d, false
	}
	return d, true
}

func (s *Span) open(ev *Event) {
	s.Start, s.Seq, s.Origin = ev.TS, ev.Seq, ev.Origin
	s.infer(ev.Inferred)
}

func (s *Span) close(ev *Event) {
	s.End, s.EndSeq, s.Ended = ev.TS, ev.Seq, true
	s.infer(ev.Inferred)
}

func (s *Span) infer(what []string) {
	for _, w := range what {
		dup := false
		for _, have := range s.Inferred {
			if have == w {
				dup = true
				break
			}
		}
		if !dup {
			s.Inferred = append(s.Inferred, w)
		}
	}
}

// Tree is the projection of an event stream: sessions with their runs, turns, steps and calls.
type Tree struct {
	Sessions []*Session `json:"sessions"`
	// Timeless is true when no event carried a timestamp: order is kept, durations are unknown.
	Timeless bool `json:"timeless,omitempty"`
	// Notes say what the projection had to repair (placeholders for orphans, seq gaps, ...).
	Notes []string `json:"notes,omitempty"`
	// cut, set on a tree a depth cut left without some nodes, counts what its runs had.
	cut *Summary
}

// Session is a durable conversation.
type Session struct {
	ID string `json:"id"`
	Span
	Runs        []*Run        `json:"runs"`
	Connections []*Connection `json:"connections,omitempty"`
	Messages    []*MessageRec `json:"messages,omitempty"`
	Snapshots   int           `json:"snapshots,omitempty"`
	// Usage is the sum of the session's runs, each counted once.
	Usage Usage `json:"usage,omitzero"`
	// order is the place of the session among those a Projector made (the log's order).
	order int
}

// StatusChange is one entry of a run's status history.
type StatusChange struct {
	Status     RunStatus  `json:"status"`
	WaitReason WaitReason `json:"wait_reason,omitempty"`
	StopReason StopReason `json:"stop_reason,omitempty"`
	TS         time.Time  `json:"ts,omitzero"`
	Seq        int64      `json:"seq,omitempty"`
	Source     Source     `json:"source,omitempty"`
	Cause      string     `json:"cause,omitempty"`
}

// Run is one managed execution with a final status.
type Run struct {
	ID           string `json:"id"`
	SessionID    string `json:"session_id"`
	ParentRunID  string `json:"parent_run_id,omitempty"`
	Attempt      int    `json:"attempt,omitempty"`
	Kind         string `json:"kind,omitempty"`
	Agent        string `json:"agent,omitempty"`
	AgentVersion string `json:"agent_version,omitempty"`
	Span
	Queued     time.Time      `json:"queued,omitzero"`
	Status     RunStatus      `json:"status"`
	WaitReason WaitReason     `json:"wait_reason,omitempty"`
	StopReason StopReason     `json:"stop_reason,omitempty"`
	Error      *ErrorInfo     `json:"error,omitempty"`
	History    []StatusChange `json:"history,omitempty"`
	Resumes    []time.Time    `json:"resumes,omitempty"`
	Turns      []*Turn        `json:"turns"`
	Waits      []*Wait        `json:"waits,omitempty"`
	Inputs     []*Input       `json:"inputs,omitempty"`
	// Usage is the sum of the run's own turns (child runs are counted at their own run).
	Usage Usage `json:"usage,omitzero"`
	// cut, set on a run a depth cut left without some nodes, counts what it had (see Counts).
	cut *Summary
}

// Turn is continuous agent work until a stop boundary.
type Turn struct {
	ID    string `json:"id"`
	RunID string `json:"run_id"`
	Span
	Outcome    Outcome    `json:"outcome,omitempty"`
	StopReason StopReason `json:"stop_reason,omitempty"`
	Error      *ErrorInfo `json:"error,omitempty"`
	// Stopping is set when the turn reached turn/stopping (hooks may re-insert work).
	Stopping bool     `json:"stopping,omitempty"`
	Consumes []string `json:"consumes,omitempty"`
	Steps    []*Step  `json:"steps"`
	Usage    Usage    `json:"usage,omitzero"`
}

// Step is one model decision plus its direct tool effects.
type Step struct {
	ID     string `json:"id"`
	TurnID string `json:"turn_id"`
	// Index is the step's 1-based position in its turn.
	Index int `json:"index"`
	Span
	Outcome    Outcome      `json:"outcome,omitempty"`
	Error      *ErrorInfo   `json:"error,omitempty"`
	Consumes   []string     `json:"consumes,omitempty"`
	ModelCalls []*ModelCall `json:"model_calls"`
	ToolCalls  []*ToolCall  `json:"tool_calls"`
	Usage      Usage        `json:"usage,omitzero"`
}

// ToolCallRef names a tool call that a model call asked for. The OTLP tracer lists them in a
// model call's "tool_calls" attribute, written {"id":…,"name":…}.
type ToolCallRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ModelCall is one provider request.
type ModelCall struct {
	ID     string `json:"id"`
	StepID string `json:"step_id"`
	Name   string `json:"name,omitempty"`
	Span
	Outcome Outcome        `json:"outcome,omitempty"`
	Error   *ErrorInfo     `json:"error,omitempty"`
	Usage   Usage          `json:"usage,omitzero"`
	Attrs   map[string]any `json:"attrs,omitempty"`
}

// ToolCall is one tool execution.
type ToolCall struct {
	ID     string `json:"id"`
	StepID string `json:"step_id"`
	Name   string `json:"name,omitempty"`
	Span
	Outcome        Outcome        `json:"outcome,omitempty"`
	Error          *ErrorInfo     `json:"error,omitempty"`
	SideEffect     bool           `json:"side_effect,omitempty"`
	IdempotencyKey string         `json:"idempotency_key,omitempty"`
	Attrs          map[string]any `json:"attrs,omitempty"`
}

// Connection is a client's live transport; it never owns a run.
type Connection struct {
	ID    string `json:"id"`
	RunID string `json:"run_id,omitempty"`
	Span
}

// Wait is a period a run spent waiting (for an approval, user input, a callback, a pause).
type Wait struct {
	Reason   WaitReason `json:"reason"`
	CallID   string     `json:"call_id,omitempty"`
	Decision Decision   `json:"decision,omitempty"`
	Span
}

// Input is a steering or follow-up message given to a run.
type Input struct {
	ID   string    `json:"id"`
	Kind EventType `json:"kind"`
	Text string    `json:"text,omitempty"`
	TS   time.Time `json:"ts,omitzero"`
	Seq  int64     `json:"seq,omitempty"`
	// ConsumedBy is the step (steer) or turn (follow-up) that took the input in.
	ConsumedBy string `json:"consumed_by,omitempty"`
}

// MessageRec is a conversation message recorded in the session.
type MessageRec struct {
	Role   string    `json:"role,omitempty"`
	Text   string    `json:"text,omitempty"`
	RunID  string    `json:"run_id,omitempty"`
	StepID string    `json:"step_id,omitempty"`
	TS     time.Time `json:"ts,omitzero"`
	Seq    int64     `json:"seq,omitempty"`
}

// Failed reports whether a tool call ended in error (including an outcome left unknown).
func (c *ToolCall) Failed() bool {
	return c.Outcome == OutcomeError || c.Outcome == OutcomeUnknown || (c.Outcome == "" && c.Error != nil)
}

// Summary counts the nodes of a tree.
type Summary struct {
	Sessions        int `json:"sessions"`
	Runs            int `json:"runs"`
	Turns           int `json:"turns"`
	Steps           int `json:"steps"`
	ModelCalls      int `json:"model_calls"`
	ToolCalls       int `json:"tool_calls"`
	FailedToolCalls int `json:"failed_tool_calls"`
}

// Summarize counts sessions, runs, turns, steps, model and tool calls and failed tool calls. A
// tree a depth cut (timeline --depth, see Selection) left without some nodes counts those its
// runs had.
func (t *Tree) Summarize() Summary {
	if t.cut != nil {
		s := *t.cut
		s.Sessions = len(t.Sessions)
		return s
	}
	var s Summary
	for _, se := range t.Sessions {
		s.Sessions++
		for _, r := range se.Runs {
			s = s.add(r.Counts())
		}
	}
	return s
}

// add sums two summaries.
func (s Summary) add(o Summary) Summary {
	return Summary{Sessions: s.Sessions + o.Sessions, Runs: s.Runs + o.Runs, Turns: s.Turns + o.Turns,
		Steps: s.Steps + o.Steps, ModelCalls: s.ModelCalls + o.ModelCalls, ToolCalls: s.ToolCalls + o.ToolCalls,
		FailedToolCalls: s.FailedToolCalls + o.FailedToolCalls}
}

// Counts counts the run (Runs 1) and its turns, steps, model and tool calls and failed tool
// calls; for a run a depth cut left without some of its nodes, those it had.
func (r *Run) Counts() Summary {
	if r.cut != nil {
		return *r.cut
	}
	s := Summary{Runs: 1}
	for _, tu := range r.Turns {
		s.Turns++
		for _, st := range tu.Steps {
			s.Steps++
			s.ModelCalls += len(st.ModelCalls)
			s.ToolCalls += len(st.ToolCalls)
			for _, c := range st.ToolCalls {
				if c.Failed() {
					s.FailedToolCalls++
				}
			}
		}
	}
	return s
}

// Walk calls fn for every node in depth-first order: *Session, *Run, *Turn, *Step, *ModelCall,
// *ToolCall. It stops descending into a node when fn returns false.
func (t *Tree) Walk(fn func(node any, depth int) bool) {
	for _, se := range t.Sessions {
		if !fn(se, 0) {
			continue
		}
		for _, r := range se.Runs {
			if !fn(r, 1) {
				continue
			}
			for _, tu := range r.Turns {
				if !fn(tu, 2) {
					continue
				}
				for _, st := range tu.Steps {
					if !fn(st, 3) {
						continue
					}
					for _, m := range st.ModelCalls {
						fn(m, 4)
					}
					for _, c := range st.ToolCalls {
						fn(c, 4)
					}
				}
			}
		}
	}
}

// Run returns the run with the given id, or nil.
func (t *Tree) Run(id string) *Run {
	for _, se := range t.Sessions {
		for _, r := range se.Runs {
			if r.ID == id {
				return r
			}
		}
	}
	return nil
}
