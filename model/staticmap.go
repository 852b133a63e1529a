package model

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds the static view of the lifecycle: what lifeline's analyzer reconstructs from an
// agent framework's source code (docs/model.md, "Reading a framework's source"). A Map lists the
// run entry points of some packages; each Entry carries the turn loops it reaches, the exits it
// can take and where run ids are minted. The analyzer builds maps, the renderers draw them.

// Confidence says how a role or a map element was established.
type Confidence string

// Confidence levels, strongest first.
const (
	// ConfidenceDeclared: the source says so with a //lifeline: directive.
	ConfidenceDeclared Confidence = "declared"
	// ConfidenceProfile: a mapping profile (built in or from a file) binds the object.
	ConfidenceProfile Confidence = "profile"
	// ConfidenceInferred: structural inference on types (no profile, no directive).
	ConfidenceInferred Confidence = "inferred"
)

// Rank orders confidences: declared 3, profile 2, inferred 1, anything else 0.
func (c Confidence) Rank() int {
	switch c {
	case ConfidenceDeclared:
		return 3
	case ConfidenceProfile:
		return 2
	case ConfidenceInferred:
		return 1
	}
	return 0
}

// Position is a source position as a module-relative slash path and a 1-based line. It
// marshals as "path/file.go:line".
type Position struct {
	File string
	Line int
}

// String returns "file:line", or "-" for the zero Position.
func (p Position) String() string {
	if p.File == "" {
		return "-"
	}
	return p.File + ":" + strconv.Itoa(p.Line)
}

// IsValid reports whether p names a file.
func (p Position) IsValid() bool { return p.File != "" }

// MarshalText implements encoding.TextMarshaler.
func (p Position) MarshalText() ([]byte, error) {
	if p.File == "" {
		return []byte{}, nil
	}
	return []byte(p.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Position) UnmarshalText(b []byte) error {
	parsed, err := ParsePosition(string(b))
	if err != nil {
		return err
	}
	*p = parsed
	return nil
}

// ParsePosition parses "path/file.go:line"; the empty string is the zero Position.
func ParsePosition(s string) (Position, error) {
	if s == "" || s == "-" {
		return Position{}, nil
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return Position{}, fmt.Errorf("position %q: want file:line", s)
	}
	line, err := strconv.Atoi(s[i+1:])
	if err != nil || line < 0 {
		return Position{}, fmt.Errorf("position %q: bad line number", s)
	}
	return Position{File: s[:i], Line: line}, nil
}

// Less orders positions by file, then line.
func (p Position) Less(q Position) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	return p.Line < q.Line
}

// Provenance says why the analyzer believes a map element: how sure it is and which rule
// (profile entry, directive, inference rule) produced it.
type Provenance struct {
	Confidence Confidence `json:"confidence"`
	// Rule names the rule, e.g. "profile langchaingo: agents.Executor.Call" or
	// "inferred: interface method returns tool calls".
	Rule string `json:"rule,omitempty"`
	// Evidence lists the observations an inference rests on, each with its position
	// ("result's collection tested for emptiness, leaves with a final answer: agent.go:51").
	Evidence []string `json:"evidence,omitempty"`
	// Score ranks an inference among its candidates (higher is surer); 0 when not scored.
	Score float64 `json:"score,omitempty"`
}

// LoopKind says what drives a turn loop.
type LoopKind string

// Loop kinds.
const (
	// LoopFor is a Go for/range statement around model calls.
	LoopFor LoopKind = "for"
	// LoopRecursion is a function that reaches a model call and calls itself again (directly,
	// through a closure variable or through a callback it passes on).
	LoopRecursion LoopKind = "recursion"
	// LoopEngine is a framework's execution engine (e.g. a graph super-step loop) named by a
	// profile: model and tool calls are dispatched by it rather than written in its body.
	LoopEngine LoopKind = "engine"
)

// Map is the static lifecycle map of a set of packages.
type Map struct {
	// Module is the path of the main module the positions are relative to, if any.
	Module string `json:"module,omitempty"`
	// Packages are the import paths that were mapped.
	Packages []string `json:"packages"`
	// Profiles names the mapping profiles that bound at least one role.
	Profiles []string `json:"profiles,omitempty"`
	// Entries are the run entry points, ordered by position.
	Entries []Entry `json:"entries"`
	// Terms are the mapped framework's own words for lifeline's layers, from the profiles of
	// the frameworks found in the mapped code ("turn, max_turns = Step") and inferred from the
	// structure the recognizer found (Source "inferred"): the map teaches the mapping.
	Terms []Term `json:"terms,omitempty"`
}

// Term is one framework word (or a few synonyms) for one lifeline layer.
type Term struct {
	// Profile is the profile that names the word; empty for an inferred word.
	Profile string `json:"profile,omitempty"`
	// Text is "words = Layer", with a note after a dash when there is one
	// ("turn, max_turns = Step — one model call and its tool calls").
	Text string `json:"text"`
	// Source is "inferred" for words read off the mapped code's own structure (the name of
	// the function one loop iteration calls, the bound's name, the entry's name); empty for
	// a profile's words.
	Source string `json:"source,omitempty"`
	// Pos is where an inferred word was read.
	Pos Position `json:"pos,omitzero"`
}

// Origin names where the words come from: the profile, or "inferred".
func (t Term) Origin() string {
	if t.Profile != "" {
		return t.Profile
	}
	return t.Source
}

// Entry is one run entry point: a function that starts (or drives) a Run.
type Entry struct {
	// Func is the qualified function name, e.g. "(*agents.Executor).Call".
	Func string `json:"func"`
	// Pos is the function's declaration.
	Pos Position `json:"pos"`
	// Source is the declaration's first source line, for readers.
	Source string `json:"source,omitempty"`
	// Provenance says why this is an entry.
	Provenance Provenance `json:"provenance"`
	// Loops are the turn loops this entry runs, in the order they are reached.
	Loops []Loop `json:"loops"`
	// Exits are the ways out of the entry with the outcome each one stands for.
	Exits []Exit `json:"exits"`
	// IDs are the places where run (and parent run) ids are minted or passed on.
	IDs []IDSite `json:"ids,omitempty"`
}

// Loop is a turn loop: the loop around model calls.
type Loop struct {
	// Pos is the for statement, the recursive function or the engine loop.
	Pos    Position `json:"pos"`
	Source string   `json:"source,omitempty"`
	Kind   LoopKind `json:"kind"`
	// Func is the function that holds the loop.
	Func string `json:"func"`
	// Bound is the loop's limit; nil when the loop has none.
	Bound *Bound `json:"bound"`
	// OnBound is what happens when the bound is hit; nil when there is no bound.
	OnBound *OnBound `json:"on_bound"`
	// ModelCalls and ToolCalls are the call sites the loop reaches.
	ModelCalls []CallSite `json:"model_calls"`
	ToolCalls  []CallSite `json:"tool_calls"`
	// ParallelTools is true when tool calls of one step may run concurrently.
	ParallelTools bool `json:"parallel_tools"`
	// ChecksCancel is true when the loop checks cancellation between iterations.
	ChecksCancel bool `json:"checks_cancel"`
	// CancelPos is where the cancellation check is, if any.
	CancelPos  Position   `json:"cancel_pos,omitzero"`
	Provenance Provenance `json:"provenance"`
	// Taken is how many runs of the joined traces ran this loop; nil when no traces were joined.
	Taken *Coverage `json:"taken,omitempty"`
}

// Bound is a turn loop's limit.
type Bound struct {
	// Expr is the bound as written, e.g. "e.MaxIterations".
	Expr string `json:"expr"`
	// Default is the value used when the caller sets none, as written (e.g. "5"); "none"
	// (DefaultNone) for a stop-condition list nothing fills; empty if unknown.
	Default string `json:"default,omitempty"`
	// DefaultPos is where the default is defined (a constant's declaration, a constructor's or
	// functional option's assignment), if known.
	DefaultPos Position `json:"default_pos,omitzero"`
	// DefaultEnv is the environment variable that replaces the default when it is set
	// (int(getenv("LANGGRAPH_DEFAULT_RECURSION_LIMIT", "10000"))), if the default is read so.
	DefaultEnv string `json:"default_env,omitempty"`
	// Passed is what the run entry's own call hands the loop's function for the bound, as
	// written, and PassedPos where (generateText({ stopWhen: options?.stopWhen ??
	// stepCountIs(maxSteps) })): it replaces the callee's own default, and Default is what it
	// amounts to when the entry's caller sets nothing.
	Passed    string   `json:"passed,omitempty"`
	PassedPos Position `json:"passed_pos,omitzero"`
	// Optional is true when the bound applies only when set (0 means unlimited).
	Optional bool `json:"optional,omitempty"`
	// Pos is the comparison that enforces the bound.
	Pos    Position `json:"pos"`
	Source string   `json:"source,omitempty"`
	// Taken is how many runs of the joined traces hit this bound; nil when no traces were joined.
	Taken *Coverage `json:"taken,omitempty"`
}

// DefaultNone is the default of a stop-condition list nothing fills: the loop then has no
// limit of its own.
const DefaultNone = "none"

// OnBound kinds.
const (
	OnBoundError      = "error"       // a (sentinel) error is returned
	OnBoundStopReason = "stop_reason" // a stop reason is recorded
	OnBoundSilent     = "silent"      // the loop just ends
)

// OnBound is what happens when a turn loop's bound is hit.
type OnBound struct {
	// Kind is one of "error", "stop_reason", "silent".
	Kind string `json:"kind"`
	// Value is the sentinel, constructor or stop reason as written.
	Value string `json:"value,omitempty"`
	// StopReason is the canonical stop reason this amounts to, if known.
	StopReason StopReason `json:"stop_reason,omitempty"`
	Pos        Position   `json:"pos"`
	Source     string     `json:"source,omitempty"`
	// Taken is how many runs of the joined traces ended here; nil when no traces were joined.
	Taken *Coverage `json:"taken,omitempty"`
}

// CallSite is a model or tool call reached from a loop.
type CallSite struct {
	Pos    Position `json:"pos"`
	Source string   `json:"source,omitempty"`
	// Callee is the role-bound function or method, e.g. "llms.Model.GenerateContent".
	Callee string `json:"callee"`
	// Via is the chain of helpers between the loop and the role, outermost first.
	Via        []string   `json:"via,omitempty"`
	Parallel   bool       `json:"parallel,omitempty"`
	Provenance Provenance `json:"provenance"`
	// Taken is how many runs of the joined traces made a call through this site; nil when no
	// traces were joined.
	Taken *Coverage `json:"taken,omitempty"`
}

// Exit is one way out of a run entry.
type Exit struct {
	Pos    Position `json:"pos"`
	Source string   `json:"source,omitempty"`
	// Outcome is the run status the exit stands for (completed, failed, cancelled, waiting),
	// or OutcomePropagated when the exit hands back what a callee (an engine, an iterator the
	// caller drains) decides.
	Outcome string `json:"outcome"`
	// StopReason is the stop reason the exit stands for, if known.
	StopReason StopReason `json:"stop_reason,omitempty"`
	// Detail is what the exit returns or writes, as written.
	Detail string `json:"detail,omitempty"`
	// Outcomes, when set, are every outcome the exit stands for, Outcomes[0] being Outcome and
	// StopReason: an exit taken under a guard that tests a status or stop-reason value against
	// literals (if (message.stopReason === "error" || message.stopReason === "aborted")
	// return) ends the run as each literal says. Nil for an exit with one outcome, as before.
	Outcomes []ExitOutcome `json:"outcomes,omitempty"`
	// Guard is the condition the exit is taken under, as written, when it decides Outcomes.
	Guard string `json:"guard,omitempty"`
	// Taken is how many runs of the joined traces left through this exit; nil when no traces
	// were joined.
	Taken *Coverage `json:"taken,omitempty"`
}

// ExitOutcome is one of the outcomes an exit stands for.
type ExitOutcome struct {
	// Outcome is a run status or one of the Outcome* constants.
	Outcome string `json:"outcome"`
	// StopReason is the stop reason, if known.
	StopReason StopReason `json:"stop_reason,omitempty"`
	// When is the value of the guard's test that gives this outcome, as written ("aborted").
	When string `json:"when,omitempty"`
}

// String returns "outcome (stop reason)", or the outcome alone without a stop reason.
func (o ExitOutcome) String() string {
	if o.StopReason == "" {
		return o.Outcome
	}
	return o.Outcome + " (" + string(o.StopReason) + ")"
}

// Alternatives returns every outcome x stands for: its Outcomes, or its one Outcome and
// StopReason.
func (x Exit) Alternatives() []ExitOutcome {
	if len(x.Outcomes) > 0 {
		return x.Outcomes
	}
	return []ExitOutcome{{Outcome: x.Outcome, StopReason: x.StopReason}}
}

// Produces reports whether x can end a run with the outcome (a run status or an Outcome*
// constant).
func (x Exit) Produces(outcome string) bool {
	for _, o := range x.Alternatives() {
		if o.Outcome == outcome {
			return true
		}
	}
	return false
}

// OutcomeString returns the outcomes x stands for, "failed (error)" or, for several,
// "failed (error) | cancelled (cancelled)".
func (x Exit) OutcomeString() string {
	alts := x.Alternatives()
	parts := make([]string, len(alts))
	for i, o := range alts {
		parts[i] = o.String()
	}
	return strings.Join(parts, " | ")
}

// CoverageRunIDs is how many run ids a Coverage keeps (the first ones, in the order joined).
const CoverageRunIDs = 20

// Coverage says how many runs of the joined traces took a map element.
type Coverage struct {
	Runs   int      `json:"runs"`              // runs that took it
	RunIDs []string `json:"run_ids,omitempty"` // their ids (first N, N = 20)
}

// Add counts one more run that took the element, keeping its id among the first
// CoverageRunIDs.
func (c *Coverage) Add(runID string) {
	c.Runs++
	if len(c.RunIDs) < CoverageRunIDs {
		c.RunIDs = append(c.RunIDs, runID)
	}
}

// Exit outcomes besides the run statuses.
const (
	// OutcomePropagated is the outcome of a return that passes a callee's outcome through.
	OutcomePropagated = "propagated"
	// OutcomeStarted is the outcome of a successful return from an entry that starts the run
	// asynchronously: the run's outcome is one of the entry's status writes.
	OutcomeStarted = "started"
	// OutcomeNotStarted is the outcome of a return that no path from the run's launch reaches:
	// the call ends before the run exists (argument checks, setup failures).
	OutcomeNotStarted = "not_started"
)

// ID site kinds.
const (
	IDMinted = "minted" // a new id is created
	IDParent = "parent" // a parent run id is passed to a child
)

// IDSite is where an id is minted or passed on.
type IDSite struct {
	Pos    Position `json:"pos"`
	Source string   `json:"source,omitempty"`
	// Kind is "minted" or "parent".
	Kind string `json:"kind"`
	// What is the expression or field, e.g. "uuid.NewString()" or "ParentRunID".
	What string `json:"what"`
}
