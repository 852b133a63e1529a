package model

import (
	"fmt"
	"sort"
	"time"
)

// Severity grades a finding.
type Severity string

// Severities. Info findings (open nodes of a live run) do not make a log unclean.
const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevInfo    Severity = "info"
)

// Finding is one invariant violation (or, with SevInfo, an observation such as an open node).
type Finding struct {
	// Code is the invariant: "L1" … "L13".
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// IDs are the ids involved, the most specific first.
	IDs []string `json:"ids"`
	// Seq is the seq of the event where the violation shows; Origin its source record.
	Seq     int64   `json:"seq"`
	Origin  *Origin `json:"origin,omitempty"`
	Message string  `json:"message"`
}

func (f Finding) String() string {
	where := fmt.Sprintf("seq %d", f.Seq)
	if f.Origin != nil {
		where = f.Origin.String()
	}
	return fmt.Sprintf("%s: %s %s: %s", where, f.Code, f.Severity, f.Message)
}

// InvariantTitles gives each invariant's one-line statement (docs/model.md).
var InvariantTitles = map[string]string{
	"L1":  "every id an event refers to was opened before; ids are unique",
	"L2":  "a child's interval lies inside its parent's",
	"L3":  "every start has exactly one end, unless the run is still live",
	"L4":  "status transitions are legal",
	"L5":  "a run is completed only with goal_reached, its last step succeeded and no tool call unresolved",
	"L6":  "every terminal status has a consistent stop reason",
	"L7":  "a stop reason is never replaced by one of lower priority",
	"L8":  "run status is written by the runtime",
	"L9":  "a retry, resumed-as-new or sub-agent run has parent_run_id",
	"L10": "steps of one turn do not overlap",
	"L11": "a turn ends only when no tool call is pending and no steer input is unconsumed",
	"L12": "no run status change is caused by a connection closing",
	"L13": "after a resume, no side-effecting tool call with the same idempotency key runs twice",
	"C1":  "clocks are plausible: every timestamp lies in 1970–2199 and no node ends before it starts",
}

// Plausible clocks (finding C1): a timestamp outside [ClockMin, ClockMax) is a broken clock or a
// unit mistake. Within these bounds every interval and offset of a log fits in a time.Duration.
var (
	ClockMin = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	ClockMax = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// Checker checks invariants L1–L13 and C1 over an event stream, incrementally. Feed events with
// Check (any order; they are re-sequenced per session) and call Finish at the end of the input.
//
// Memory: the state of the open nodes (live sessions, runs, turns and steps, calls not ended,
// open connections), plus, for every id ever seen (session, run, turn, step, call, connection,
// input), one 8-byte slot of a hash table (11–21 bytes an id with its free space) and, per
// session, one seq counter (see Sequencer). An ended node keeps nothing else: not its strings,
// times or children. Runs that name a parent not started yet are remembered until it starts
// (parent cycles are found with a union-find over those runs alone).
type Checker struct {
	// Skew is the clock-skew tolerance for L2, L10 and C1.
	Skew time.Duration

	seq      Sequencer
	findings []Finding
	ids      idTable // every id ever opened, by hash of kind+id, with its state (see idOpen…)
	runs     map[string]*ckRun
	turns    map[string]*ckTurn
	steps    map[string]*ckStep
	calls    map[string]*ckCall
	sessions map[string]*ckNode
	conns    map[string]*ckNode
	parents  parentLinks
	// clocks counts, per session with a timestamp out of range, the events that had one; the
	// first made a C1 finding (by index), whose message Finish completes.
	clocks map[string]*clockNote
}

type clockNote struct {
	finding int
	n       int
}

// States of an id in Checker.ids. A run's state also holds its status (idStatus).
const (
	idOpen  uint8 = 0
	idEnded uint8 = 1
)

var statusCode = map[RunStatus]uint8{StatusQueued: 1, StatusRunning: 2, StatusWaiting: 3, StatusCompleted: 4, StatusFailed: 5, StatusCancelled: 6}

func idStatus(st uint8) RunStatus {
	code := st >> 1
	for s, c := range statusCode {
		if c == code {
			return s
		}
	}
	return ""
}

type ckNode struct {
	id     string
	start  time.Time
	end    time.Time
	ended  bool
	seq    int64
	origin *Origin
}

// before orders nodes by the seq that opened them, then by id (findings come out the same on
// every pass, whatever the order of a map).
func (n *ckNode) before(o *ckNode) bool {
	if n.seq != o.seq {
		return n.seq < o.seq
	}
	return n.id < o.id
}

type ckRun struct {
	ckNode
	status     RunStatus
	stop       StopReason
	kind       string
	attempt    int
	parent     string
	turns      map[string]*ckTurn
	lastStep   *ckStep
	resumedSeq int64
	keys       map[string]int64 // idempotency key → seq of its side-effecting tool/start
	steers     map[string]int64 // unconsumed steer input ids → seq
	followUps  map[string]bool
	approvals  map[string]bool // call ids awaiting or granted approval
	// orphanReported is set once L9 was reported for the run.
	orphanReported bool
}

type ckTurn struct {
	ckNode
	run      *ckRun
	steps    map[string]*ckStep
	openStep *ckStep
	lastEnd  time.Time
	lastStep string
}

type ckStep struct {
	ckNode
	turn    *ckTurn
	outcome Outcome
	calls   map[string]*ckCall
	failed  bool
}

type ckCall struct {
	ckNode
	step *ckStep
	tool bool
}

// kind names the call's kind as its id is kept in Checker.ids.
func (c *ckCall) kind() string {
	if c.tool {
		return "tool call"
	}
	return "model call"
}

// NewChecker returns a checker with a 5 ms clock-skew tolerance.
func NewChecker() *Checker {
	return &Checker{Skew: 5 * time.Millisecond, runs: map[string]*ckRun{},
		turns: map[string]*ckTurn{}, steps: map[string]*ckStep{}, calls: map[string]*ckCall{},
		sessions: map[string]*ckNode{}, conns: map[string]*ckNode{}}
}

// CheckEvents checks a complete event list and returns its findings.
func CheckEvents(events []Event) []Finding {
	c := NewChecker()
	for i := range events {
		c.Check(&events[i])
	}
	return c.Finish()
}

// Check feeds one event.
func (c *Checker) Check(ev *Event) {
	c.seq.Push(ev, c.check)
}

// Findings returns the findings so far (without the end-of-input ones of Finish).
func (c *Checker) Findings() []Finding { return c.findings }

// Finish flushes held events, reports nodes left open and returns all findings, ordered by seq.
func (c *Checker) Finish() []Finding {
	c.seq.Flush(c.check)
	ids := make([]string, 0, len(c.runs))
	for id := range c.runs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		r := c.runs[id]
		if r.ended {
			continue
		}
		c.add("L3", SevInfo, r.seq, r.origin, []string{r.id}, "run %s is still live (status %s): it and its open children are reported open", r.id, orNone(r.status))
	}
	for _, ref := range c.parents.missing() {
		c.add("L1", SevWarning, ref.seq, ref.origin, []string{ref.child, ref.parent}, "run %s names parent run %s, which is not in this log", ref.child, ref.parent)
	}
	for _, n := range c.clocks {
		if n.n > 1 {
			c.findings[n.finding].Message += fmt.Sprintf(" (%d events of this session have such a timestamp)", n.n)
		}
	}
	sort.SliceStable(c.findings, func(i, j int) bool { return c.findings[i].Seq < c.findings[j].Seq })
	return c.findings
}

func orNone(s RunStatus) string {
	if s == "" {
		return "none"
	}
	return string(s)
}

func (c *Checker) add(code string, sev Severity, seq int64, origin *Origin, ids []string, format string, args ...any) {
	c.findings = append(c.findings, Finding{Code: code, Severity: sev, IDs: ids, Seq: seq, Origin: origin, Message: fmt.Sprintf(format, args...)})
}

func (c *Checker) addEv(code string, ev *Event, ids []string, format string, args ...any) {
	c.add(code, SevError, ev.Seq, ev.Origin, ids, format, args...)
}

// fresh records an id as opened and reports whether it was never opened before.
func (c *Checker) fresh(kind, id string) bool {
	k := idKey(kind, id)
	if c.ids.has(k) {
		return false
	}
	c.ids.set(k, idOpen)
	return true
}

// ended reports whether the node kind/id was opened and has ended (and was so forgotten).
func (c *Checker) ended(kind, id string) bool {
	st, ok := c.ids.get(idKey(kind, id))
	return ok && st&idEnded != 0
}

// forget marks kind/id ended: the checker keeps nothing else of it.
func (c *Checker) forget(kind, id string, st uint8) {
	c.ids.set(idKey(kind, id), st|idEnded)
}

// clock checks that ev's timestamp is plausible (C1), once per session.
func (c *Checker) clock(ev *Event) {
	if ev.TS.IsZero() || !ev.TS.Before(ClockMin) && ev.TS.Before(ClockMax) {
		return
	}
	if n := c.clocks[ev.SessionID]; n != nil {
		n.n++
		return
	}
	if c.clocks == nil {
		c.clocks = map[string]*clockNote{}
	}
	c.clocks[ev.SessionID] = &clockNote{finding: len(c.findings), n: 1}
	c.addEv("C1", ev, []string{ev.SessionID}, "%s has timestamp %s, outside %d–%d: a broken clock or a wrong unit", ev.Type, ev.TS.Format(time.RFC3339Nano), ClockMin.Year(), ClockMax.Year()-1)
}

// order checks that a node does not end before it started (C1), beyond the skew tolerance.
func (c *Checker) order(ev *Event, what string, n *ckNode) {
	if ev.TS.IsZero() || n.start.IsZero() || !ev.TS.Before(n.start.Add(-c.Skew)) {
		return
	}
	c.addEv("C1", ev, []string{n.id}, "%s %s ends at %s, before it started (%s)", what, n.id, ev.TS.Format(time.RFC3339Nano), n.start.Format(time.RFC3339Nano))
}

func (c *Checker) inside(code string, ev *Event, child string, parent *ckNode, what string) {
	if ev.TS.IsZero() || parent == nil || parent.start.IsZero() {
		return
	}
	if ev.TS.Before(parent.start.Add(-c.Skew)) {
		c.addEv(code, ev, []string{child, parent.id}, "%s %s starts at %s, before its parent %s starts (%s)", what, child, ev.TS.Format(time.RFC3339Nano), parent.id, parent.start.Format(time.RFC3339Nano))
	}
	if parent.ended && !parent.end.IsZero() && ev.TS.After(parent.end.Add(c.Skew)) {
		c.addEv(code, ev, []string{child, parent.id}, "%s %s at %s lies after its parent %s ended (%s)", what, child, ev.TS.Format(time.RFC3339Nano), parent.id, parent.end.Format(time.RFC3339Nano))
	}
}

func (c *Checker) runOf(ev *Event) *ckRun {
	r := c.runs[ev.RunID]
	if r == nil {
		if st, ok := c.ids.get(idKey("run", ev.RunID)); ok && st&idEnded != 0 { // an ended run, compacted
			r = &ckRun{ckNode: ckNode{id: ev.RunID, ended: true}, status: idStatus(st)}
			c.runs[ev.RunID] = r
			return r
		}
		c.addEv("L1", ev, []string{ev.RunID}, "%s refers to run %s, which was never started", ev.Type, ev.RunID)
		r = c.newRun(ev)
	}
	return r
}

func (c *Checker) newRun(ev *Event) *ckRun {
	r := &ckRun{ckNode: ckNode{id: ev.RunID, start: ev.TS, seq: ev.Seq, origin: ev.Origin}}
	c.runs[ev.RunID] = r
	c.fresh("run", ev.RunID)
	c.parents.appeared(idKey("run", ev.RunID))
	return r
}

// alloc makes the run's maps on first use; an ended run holds none (bounded memory on long logs).
func (r *ckRun) alloc() {
	if r.turns == nil {
		r.turns, r.keys, r.steers = map[string]*ckTurn{}, map[string]int64{}, map[string]int64{}
		r.followUps, r.approvals = map[string]bool{}, map[string]bool{}
	}
}

// release drops what only a live run needs.
func (r *ckRun) release() {
	r.turns, r.keys, r.steers, r.followUps, r.approvals, r.lastStep = nil, nil, nil, nil, nil, nil
}

func (c *Checker) turnOf(ev *Event) *ckTurn {
	t := c.turns[ev.TurnID]
	if t == nil {
		c.addEv("L1", ev, []string{ev.TurnID, ev.RunID}, "%s refers to turn %s, which was never started (or already ended)", ev.Type, ev.TurnID)
		r := c.runOf(ev)
		t = &ckTurn{ckNode: ckNode{id: ev.TurnID, start: ev.TS, seq: ev.Seq}, run: r, steps: map[string]*ckStep{}}
		c.turns[ev.TurnID] = t
		r.alloc()
		r.turns[t.id] = t
	}
	if t.run.id != ev.RunID {
		c.addEv("L1", ev, []string{ev.TurnID, ev.RunID, t.run.id}, "%s places turn %s in run %s, but it belongs to run %s", ev.Type, ev.TurnID, ev.RunID, t.run.id)
	}
	return t
}

func (c *Checker) stepOf(ev *Event) *ckStep {
	s := c.steps[ev.StepID]
	if s == nil {
		if r := c.runs[ev.RunID]; r != nil && r.lastStep != nil && r.lastStep.id == ev.StepID {
			return r.lastStep // the run's last ended step: kept for L5
		}
		if c.ended("step", ev.StepID) { // an ended step, forgotten: a stand-in that says so
			return &ckStep{ckNode: ckNode{id: ev.StepID, ended: true}, turn: c.turnOf(ev), calls: map[string]*ckCall{}}
		}
		c.addEv("L1", ev, []string{ev.StepID, ev.TurnID}, "%s refers to step %s, which was never started (or already ended)", ev.Type, ev.StepID)
		t := c.turnOf(ev)
		s = &ckStep{ckNode: ckNode{id: ev.StepID, start: ev.TS, seq: ev.Seq}, turn: t, calls: map[string]*ckCall{}}
		c.steps[ev.StepID] = s
		t.steps[s.id] = s
	}
	if s.turn.id != ev.TurnID {
		c.addEv("L1", ev, []string{ev.StepID, ev.TurnID, s.turn.id}, "%s places step %s in turn %s, but it belongs to turn %s", ev.Type, ev.StepID, ev.TurnID, s.turn.id)
	}
	return s
}

// runStatus applies a status write (run/queued, run/start, run/status, run/end) and checks L4–L8, L12.
func (c *Checker) runStatus(r *ckRun, ev *Event, to RunStatus) {
	if ev.Source != "" && ev.Source != SourceRuntime {
		c.addEv("L8", ev, []string{r.id}, "run %s status %s written by %s; only the runtime writes run status", r.id, to, ev.Source)
	}
	if ev.Cause == string(ConnectionClose) {
		c.addEv("L12", ev, []string{r.id}, "run %s moved to %s because a connection closed; closing a connection must never change a run", r.id, to)
	}
	repeat := r.status == to && (!to.Terminal() || ev.Type == RunEnd) // run/end may restate the terminal status run/status set
	illegal := !repeat && !CanTransition(r.status, to)
	if illegal {
		c.addEv("L4", ev, []string{r.id}, "%s", (&TransitionError{RunID: r.id, From: r.status, To: to}).Error())
	}
	if ev.StopReason != "" {
		if _, err := Resolve(r.id, r.stop, ev.StopReason); err != nil {
			c.addEv("L7", ev, []string{r.id}, "%s", err.Error())
		} else {
			r.stop = ev.StopReason
		}
	}
	if !illegal { // an illegal write is reported once and not applied, so it does not cascade
		r.status = to
	}
	if !to.Terminal() {
		return
	}
	stop := r.stop
	if ev.StopReason != "" {
		stop = ev.StopReason
	}
	switch {
	case stop == "":
		c.addEv("L6", ev, []string{r.id}, "run %s ended %s without a stop reason", r.id, to)
	case to == StatusCompleted && stop != StopGoalReached:
		c.addEv("L5", ev, []string{r.id}, "run %s completed with stop reason %s; completed requires goal_reached", r.id, stop)
	case !stop.ConsistentWith(to):
		c.addEv("L6", ev, []string{r.id}, "run %s ended %s with stop reason %s, which does not fit that status", r.id, to, stop)
	}
	if to == StatusCompleted {
		if ls := r.lastStep; ls != nil {
			if ls.outcome != OutcomeOK && ls.outcome != "" || ls.failed {
				c.addEv("L5", ev, []string{r.id, ls.id}, "run %s completed but its last step %s did not succeed (outcome %s)", r.id, ls.id, orOutcome(ls.outcome, ls.failed))
			}
			for _, call := range sortedCalls(ls.calls) {
				if call.tool && !call.ended {
					c.addEv("L5", ev, []string{r.id, call.id}, "run %s completed while tool call %s of its last step is unresolved", r.id, call.id)
				}
			}
		}
	}
}

func orOutcome(o Outcome, failed bool) string {
	if o == "" && failed {
		return "error"
	}
	if o == "" {
		return "none"
	}
	return string(o)
}

func sortedCalls(m map[string]*ckCall) []*ckCall {
	out := make([]*ckCall, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].before(&out[j].ckNode) })
	return out
}

func (c *Checker) check(ev *Event) {
	c.clock(ev)
	switch ev.Type {
	case SessionStart:
		if !c.fresh("session", ev.SessionID) {
			c.addEv("L1", ev, []string{ev.SessionID}, "session %s started twice (ids are unique)", ev.SessionID)
		}
		c.sessions[ev.SessionID] = &ckNode{id: ev.SessionID, start: ev.TS, seq: ev.Seq, origin: ev.Origin}
		return
	case SessionEnd:
		s := c.sessions[ev.SessionID]
		switch {
		case s == nil && c.ended("session", ev.SessionID), s != nil && s.ended:
			c.addEv("L3", ev, []string{ev.SessionID}, "session %s ended twice", ev.SessionID)
		case s == nil:
			c.addEv("L1", ev, []string{ev.SessionID}, "session/end of session %s, which was never started", ev.SessionID)
		default:
			c.order(ev, "session", s)
			// An ended session keeps nothing but its id (and its seq counter in the Sequencer).
			delete(c.sessions, ev.SessionID)
			c.forget("session", ev.SessionID, 0)
		}
		return
	}
	if c.sessions[ev.SessionID] == nil && ev.SessionID != "" {
		if c.ended("session", ev.SessionID) {
			// An event after its session ended (the session was forgotten): reported once, and
			// a stand-in for the session takes the later events.
			c.addEv("L2", ev, []string{ev.SessionID}, "%s comes after its session %s ended", ev.Type, ev.SessionID)
			c.sessions[ev.SessionID] = &ckNode{id: ev.SessionID, ended: true}
		} else {
			c.addEv("L1", ev, []string{ev.SessionID}, "%s refers to session %s, which was never started", ev.Type, ev.SessionID)
			c.sessions[ev.SessionID] = &ckNode{id: ev.SessionID, start: ev.TS, seq: ev.Seq}
			c.fresh("session", ev.SessionID)
		}
	}
	switch ev.Type {
	case ConnectionOpen:
		if !c.fresh("connection", ev.ConnectionID) {
			c.addEv("L1", ev, []string{ev.ConnectionID}, "connection %s opened twice (ids are unique; a reattach is a new connection)", ev.ConnectionID)
		}
		c.conns[ev.ConnectionID] = &ckNode{id: ev.ConnectionID, start: ev.TS, seq: ev.Seq}
	case ConnectionClose:
		n := c.conns[ev.ConnectionID]
		switch {
		case n == nil && c.ended("connection", ev.ConnectionID):
			c.addEv("L3", ev, []string{ev.ConnectionID}, "connection %s closed twice", ev.ConnectionID)
		case n == nil:
			c.addEv("L1", ev, []string{ev.ConnectionID}, "connection %s closed but never opened", ev.ConnectionID)
		default:
			delete(c.conns, ev.ConnectionID)
			c.forget("connection", ev.ConnectionID, 0)
		}
	case RunQueued, RunStart:
		r := c.runs[ev.RunID]
		switch {
		case r == nil:
			if !c.fresh("run", ev.RunID) {
				c.addEv("L1", ev, []string{ev.RunID}, "run id %s reused (ids are unique)", ev.RunID)
			}
			r = c.newRun(ev)
		case ev.Type == RunQueued || r.status != StatusQueued:
			c.addEv("L1", ev, []string{ev.RunID}, "run %s %s again (ids are unique; a retry is a new run)", ev.RunID, ev.Type)
		}
		if ev.Type == RunStart {
			r.start, r.seq, r.origin = ev.TS, ev.Seq, ev.Origin
		}
		if ev.Kind != "" {
			r.kind = ev.Kind
		}
		if ev.Attempt != 0 {
			r.attempt = ev.Attempt
		}
		if ev.ParentRunID != "" && c.mayNameParent(r.id) {
			c.nameParent(r, ev) // a run names its parent once, when it is queued or started
			r.parent = ev.ParentRunID
		}
		if ev.Type == RunStart && r.parent == "" {
			c.parents.settled(idKey("run", r.id))
		}
		c.inside("L2", ev, r.id, c.sessions[ev.SessionID], "run")
		if (r.attempt > 1 || r.kind == "retry" || r.kind == "resume" || r.kind == "subagent" || r.kind == "handoff") && r.parent == "" && !r.orphanReported {
			r.orphanReported = true
			what := "a sub-agent or hand-off"
			switch {
			case r.attempt > 1:
				what = fmt.Sprintf("attempt %d", r.attempt)
			case r.kind == "retry" || r.kind == "resume":
				what = "a " + r.kind
			}
			c.addEv("L9", ev, []string{r.id}, "run %s is %s but has no parent_run_id; it would be mistaken for an unrelated execution", r.id, what)
		}
		to := StatusQueued
		if ev.Type == RunStart {
			to = StatusRunning
		}
		if ev.Type == RunStart && r.status == StatusRunning {
			return
		}
		c.runStatus(r, ev, to)
	case RunStatusChange:
		r := c.runOf(ev)
		c.runStatus(r, ev, ev.Status)
	case RunResumed:
		r := c.runOf(ev)
		if r.status.Terminal() {
			c.addEv("L4", ev, []string{r.id}, "run %s resumed after reaching terminal status %s (a retry is a new run)", r.id, r.status)
		}
		if ev.Source != "" && ev.Source != SourceRuntime {
			c.addEv("L8", ev, []string{r.id}, "run/resumed of run %s written by %s; only the runtime writes run status", r.id, ev.Source)
		}
		r.resumedSeq = ev.Seq
	case RunEnd:
		r := c.runOf(ev)
		if r.ended {
			c.addEv("L3", ev, []string{r.id}, "run %s ended twice", r.id)
			return
		}
		if !ev.Status.Terminal() {
			c.addEv("L4", ev, []string{r.id}, "run/end of run %s with non-terminal status %s", r.id, ev.Status)
		}
		c.runStatus(r, ev, ev.Status)
		c.order(ev, "run", &r.ckNode)
		r.ended, r.end = true, ev.TS
		c.parents.settled(idKey("run", r.id))
		for _, t := range sortedTurns(r.turns) {
			c.addEv("L3", ev, []string{t.id, r.id}, "run %s ended while turn %s is still open", r.id, t.id)
			c.dropTurn(t)
		}
		c.inside("L2", ev, r.id, c.sessions[ev.SessionID], "end of run")
		r.release()
		if r.status.Terminal() {
			// An ended run keeps nothing but its id and final status, in one slot of c.ids.
			delete(c.runs, r.id)
			c.forget("run", r.id, statusCode[r.status]<<1)
		}
	case TurnStart:
		r := c.runOf(ev)
		if !c.fresh("turn", ev.TurnID) {
			c.addEv("L1", ev, []string{ev.TurnID}, "turn id %s reused (ids are unique)", ev.TurnID)
		}
		if r.status.Terminal() || r.ended {
			c.addEv("L4", ev, []string{ev.TurnID, r.id}, "turn %s started in run %s after it reached terminal status %s", ev.TurnID, r.id, r.status)
		}
		c.inside("L2", ev, ev.TurnID, &r.ckNode, "turn")
		t := &ckTurn{ckNode: ckNode{id: ev.TurnID, start: ev.TS, seq: ev.Seq, origin: ev.Origin}, run: r, steps: map[string]*ckStep{}}
		c.turns[t.id] = t
		r.alloc()
		r.turns[t.id] = t
		for _, id := range ev.Consumes {
			delete(r.followUps, id)
			delete(r.steers, id)
		}
	case TurnStopping:
		c.turnOf(ev)
	case TurnEnd:
		t := c.turnOf(ev)
		r := t.run
		if t.openStep != nil {
			c.addEv("L3", ev, []string{t.openStep.id, t.id}, "turn %s ended while step %s is still open", t.id, t.openStep.id)
		}
		for _, s := range sortedSteps(t.steps) {
			for _, call := range sortedCalls(s.calls) {
				if call.tool && !call.ended {
					c.addEv("L11", ev, []string{t.id, call.id}, "turn %s ended while tool call %s is pending", t.id, call.id)
				}
			}
		}
		for _, id := range sortedKeys(r.steers) {
			if r.steers[id] > t.seq && ev.StopReason != StopCancelled && ev.Outcome != OutcomeCancelled && ev.Outcome != OutcomeError {
				c.addEv("L11", ev, []string{t.id, id}, "turn %s ended with steer input %s unconsumed; a steer enters the next step of the current turn", t.id, id)
			}
		}
		if !ev.TS.IsZero() && !t.lastEnd.IsZero() && ev.TS.Before(t.lastEnd.Add(-c.Skew)) {
			c.addEv("L2", ev, []string{t.id}, "turn %s ends before its last step ended", t.id)
		}
		c.inside("L2", ev, t.id, &r.ckNode, "end of turn")
		c.order(ev, "turn", &t.ckNode)
		c.dropTurn(t)
	case StepStart:
		t := c.turnOf(ev)
		if !c.fresh("step", ev.StepID) {
			c.addEv("L1", ev, []string{ev.StepID}, "step id %s reused (ids are unique)", ev.StepID)
		}
		if t.openStep != nil {
			c.addEv("L10", ev, []string{ev.StepID, t.openStep.id, t.id}, "step %s starts while step %s of the same turn %s is still open; steps of one turn do not overlap", ev.StepID, t.openStep.id, t.id)
		} else if !ev.TS.IsZero() && !t.lastEnd.IsZero() && ev.TS.Before(t.lastEnd.Add(-c.Skew)) {
			c.addEv("L10", ev, []string{ev.StepID, t.lastStep, t.id}, "step %s starts before step %s of the same turn ended", ev.StepID, t.lastStep)
		}
		c.inside("L2", ev, ev.StepID, &t.ckNode, "step")
		s := &ckStep{ckNode: ckNode{id: ev.StepID, start: ev.TS, seq: ev.Seq, origin: ev.Origin}, turn: t, calls: map[string]*ckCall{}}
		c.steps[s.id] = s
		t.steps[s.id] = s
		t.openStep = s
		for _, id := range ev.Consumes {
			delete(t.run.steers, id)
		}
	case StepEnd:
		s := c.stepOf(ev)
		t := s.turn
		if s.ended {
			c.addEv("L3", ev, []string{s.id}, "step %s ended twice", s.id)
			return
		}
		for _, call := range sortedCalls(s.calls) {
			if !call.ended {
				c.addEv("L3", ev, []string{call.id, s.id}, "step %s ended while call %s is still open", s.id, call.id)
				call.ended = true
			}
		}
		s.ended, s.end, s.outcome = true, ev.TS, ev.Outcome
		if ev.Error != nil && ev.Outcome == "" {
			s.failed = true
		}
		c.inside("L2", ev, s.id, &t.ckNode, "end of step")
		c.order(ev, "step", &s.ckNode)
		if t.openStep == s {
			t.openStep = nil
		}
		if !ev.TS.IsZero() {
			t.lastEnd = ev.TS
		}
		t.lastStep = s.id
		// An ended step is forgotten (its id stays in c.ids); only the run's last one is kept,
		// for L5, without its ended calls.
		for id, call := range s.calls { // all ended now (an open one was reported above)
			if c.calls[id] == call {
				delete(c.calls, id)
			}
			c.forget(call.kind(), id, 0)
		}
		s.calls = nil
		if c.steps[s.id] == s {
			delete(c.steps, s.id)
		}
		delete(t.steps, s.id)
		c.forget("step", s.id, 0)
		t.run.lastStep = s
	case ModelStart, ToolStart:
		s := c.stepOf(ev)
		kind := "model call"
		if ev.Type == ToolStart {
			kind = "tool call"
		}
		if !c.fresh(kind, ev.CallID) {
			c.addEv("L1", ev, []string{ev.CallID}, "%s id %s reused (ids are unique)", kind, ev.CallID)
		}
		if s.ended {
			c.addEv("L2", ev, []string{ev.CallID, s.id}, "%s %s starts after its step %s ended", kind, ev.CallID, s.id)
		}
		c.inside("L2", ev, ev.CallID, &s.ckNode, kind)
		call := &ckCall{ckNode: ckNode{id: ev.CallID, start: ev.TS, seq: ev.Seq, origin: ev.Origin}, step: s, tool: ev.Type == ToolStart}
		c.calls[ev.CallID] = call
		if s.calls == nil { // a call of an ended step (reported above)
			s.calls = map[string]*ckCall{}
		}
		s.calls[call.id] = call
		if ev.Type == ToolStart && ev.SideEffect && ev.IdempotencyKey != "" {
			r := s.turn.run
			if first, ok := r.keys[ev.IdempotencyKey]; ok && r.resumedSeq > first {
				c.addEv("L13", ev, []string{ev.CallID, r.id}, "side-effecting tool call %s re-runs idempotency key %q after the run resumed (first run at seq %d)", ev.CallID, ev.IdempotencyKey, first)
			}
			r.alloc()
			r.keys[ev.IdempotencyKey] = ev.Seq
		}
	case ModelEnd, ToolEnd:
		kind := "model call"
		if ev.Type == ToolEnd {
			kind = "tool call"
		}
		call := c.calls[ev.CallID]
		if call == nil {
			if c.ended("model call", ev.CallID) || c.ended("tool call", ev.CallID) {
				c.addEv("L3", ev, []string{ev.CallID}, "call %s ended twice", ev.CallID)
				return
			}
			c.addEv("L1", ev, []string{ev.CallID}, "%s for call %s, which was never started", ev.Type, ev.CallID)
			return
		}
		call.ended, call.end = true, ev.TS
		c.inside("L2", ev, call.id, &call.step.ckNode, "end of call")
		c.order(ev, kind, &call.ckNode)
		// An ended call is forgotten: only its id stays, in c.ids.
		delete(c.calls, ev.CallID)
		if call.step.calls[call.id] == call {
			delete(call.step.calls, call.id)
		}
		c.forget(call.kind(), call.id, 0)
	case InputSteer, InputFollowUp:
		r := c.runOf(ev)
		if !c.fresh("input", ev.InputID) {
			c.addEv("L1", ev, []string{ev.InputID}, "input id %s reused (ids are unique)", ev.InputID)
		}
		if ev.Type == InputSteer {
			r.alloc()
			r.steers[ev.InputID] = ev.Seq
		} else {
			r.alloc()
			r.followUps[ev.InputID] = true
		}
	case ApprovalRequest:
		r := c.runOf(ev)
		r.alloc()
		r.approvals[ev.CallID] = true
	case ApprovalResolve:
		r := c.runOf(ev)
		if !r.approvals[ev.CallID] {
			c.addEv("L1", ev, []string{ev.CallID, r.id}, "approval/resolve for call %s, which was never requested", ev.CallID)
		}
	}
}

func (c *Checker) dropTurn(t *ckTurn) {
	for _, s := range t.steps {
		for id := range s.calls {
			delete(c.calls, id)
		}
		delete(c.steps, s.id)
	}
	delete(c.turns, t.id)
	delete(t.run.turns, t.id)
	if ls := t.run.lastStep; ls != nil {
		ls.calls = openCalls(ls.calls)
	}
	t.steps = nil
}

func openCalls(m map[string]*ckCall) map[string]*ckCall {
	out := map[string]*ckCall{}
	for k, v := range m {
		if !v.ended {
			out[k] = v
		}
	}
	return out
}

func sortedTurns(m map[string]*ckTurn) []*ckTurn {
	out := make([]*ckTurn, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].before(&out[j].ckNode) })
	return out
}

func sortedSteps(m map[string]*ckStep) []*ckStep {
	out := make([]*ckStep, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].before(&out[j].ckNode) })
	return out
}

func sortedKeys(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
