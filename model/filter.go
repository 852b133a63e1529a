package model

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// RunFilter selects runs: by id, by session, by final status and stop reason, and by the time
// they ran. The zero value selects every run. Several statuses (stop reasons) select the runs
// of any of them.
type RunFilter struct {
	RunID       string
	SessionID   string
	Statuses    []RunStatus
	StopReasons []StopReason
	// Since and Until keep the runs whose interval meets [Since, Until): started before Until
	// and, once ended, not ended before Since. A run without timestamps is left out by either.
	Since, Until time.Time
}

// IsZero reports whether f selects every run.
func (f *RunFilter) IsZero() bool {
	return f.RunID == "" && f.SessionID == "" && len(f.Statuses) == 0 && len(f.StopReasons) == 0 && f.Since.IsZero() && f.Until.IsZero()
}

// Validate checks the statuses and stop reasons against the vocabulary and the time bounds.
func (f *RunFilter) Validate() error {
	for _, s := range f.Statuses {
		if !s.Valid() {
			return fmt.Errorf("unknown status %q (one of queued, running, waiting, completed, failed, cancelled)", s)
		}
	}
	for _, r := range f.StopReasons {
		if !r.Valid() {
			names := make([]string, len(AllStopReasons))
			for i, s := range AllStopReasons {
				names[i] = string(s)
			}
			return fmt.Errorf("unknown stop reason %q (one of %s, or other:<word>)", r, strings.Join(names, ", "))
		}
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		return fmt.Errorf("since %s is not before until %s", f.Since.Format(time.RFC3339), f.Until.Format(time.RFC3339))
	}
	return nil
}

// Admit reports whether an event may concern a selected run: events of another session (with
// SessionID set) or of another run (with RunID set) are not needed to project the selected runs,
// and are dropped before they cost anything.
func (f *RunFilter) Admit(ev *Event) bool {
	if f.SessionID != "" && ev.SessionID != f.SessionID {
		return false
	}
	if f.RunID != "" && ev.RunID != "" && ev.RunID != f.RunID {
		return false
	}
	return true
}

// Match reports whether f selects r (its final state).
func (f *RunFilter) Match(r *Run) bool {
	if f.RunID != "" && r.ID != f.RunID {
		return false
	}
	if f.SessionID != "" && r.SessionID != f.SessionID {
		return false
	}
	if len(f.Statuses) > 0 && !slices.Contains(f.Statuses, r.Status) {
		return false
	}
	if len(f.StopReasons) > 0 && !slices.Contains(f.StopReasons, r.StopReason) {
		return false
	}
	if !f.Since.IsZero() || !f.Until.IsZero() {
		if r.Start.IsZero() {
			return false
		}
		if !f.Until.IsZero() && !r.Start.Before(f.Until) {
			return false
		}
		if !f.Since.IsZero() && r.Ended && !r.End.IsZero() && r.End.Before(f.Since) {
			return false
		}
	}
	return true
}

// ParseTimeBound reads a --since/--until value: an RFC 3339 time (2026-11-02T10:00:00Z), a date
// (2026-11-02, midnight UTC), or a duration before now (90m, 2h, 36h).
func ParseTimeBound(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("%q: a duration before now is positive", s)
		}
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time (2026-11-02T10:00:00Z), a date (2026-11-02) nor a duration before now (2h)", s)
}

// Depths of the tree, as Tree.Walk numbers them: a Selection with a depth keeps the nodes down
// to it.
const (
	DepthSessions = 0
	DepthRuns     = 1
	DepthTurns    = 2
	DepthSteps    = 3
	DepthCalls    = 4
)

// Selection projects an event stream keeping only the runs a RunFilter selects, as they end:
// it runs a Projector that releases each ended run (see Projector.Release), drops the runs the
// filter does not select and keeps the others, cut to Depth. Its memory is what the selected
// runs take, plus what Release keeps per run (8 bytes).
type Selection struct {
	Filter RunFilter
	// Depth keeps nodes down to this depth (DepthRuns … DepthCalls); below 0 means all.
	Depth int
	// KeepIDs makes the selection remember only the ids of every selected run's nodes and
	// session (for Concerns: check's findings), not the runs themselves.
	KeepIDs bool

	proj     *Projector
	sessions map[string]*selSession
	order    []*selSession
	ids      map[string]bool
	runs     int
	events   int
	// cut counts the selected runs' nodes before the depth cut dropped some.
	cut Summary
}

type selSession struct {
	srcs []*Session
	runs []*Run
	kept map[string]bool
}

// NewSelection returns a selection of the runs f selects, cut to depth (below 0: all).
func NewSelection(f RunFilter, depth int) *Selection {
	s := &Selection{Filter: f, Depth: depth, proj: NewProjector(), sessions: map[string]*selSession{}, ids: map[string]bool{}}
	s.proj.Release(0, s.take)
	return s
}

// Apply takes one event.
func (s *Selection) Apply(ev *Event) {
	if !s.Filter.Admit(ev) {
		return
	}
	s.events++
	s.proj.Apply(ev)
}

// Events counts the events admitted (those the filter could not rule out by their ids).
func (s *Selection) Events() int { return s.events }

func (s *Selection) take(se *Session, r *Run) {
	if !s.Filter.Match(r) {
		return
	}
	s.runs++
	{
		s.ids[r.ID] = true
		s.ids[r.SessionID] = true
		for _, tu := range r.Turns {
			s.ids[tu.ID] = true
			for _, st := range tu.Steps {
				s.ids[st.ID] = true
				for _, m := range st.ModelCalls {
					s.ids[m.ID] = true
				}
				for _, c := range st.ToolCalls {
					s.ids[c.ID] = true
				}
			}
		}
	}
	if s.KeepIDs {
		return
	}
	if s.Depth >= 0 && s.Depth < DepthCalls {
		c := r.Counts()
		s.cut = s.cut.add(c)
		r.cut = &c
	}
	cut(r, s.Depth)
	out := s.sessions[r.SessionID]
	if out == nil {
		out = &selSession{kept: map[string]bool{}}
		s.sessions[r.SessionID] = out
		s.order = append(s.order, out)
	}
	if se == nil { // not expected: Release hands every run with its session
		se = &Session{ID: r.SessionID, Runs: []*Run{}, order: int(^uint(0) >> 1)}
	}
	if !slices.Contains(out.srcs, se) {
		out.srcs = append(out.srcs, se)
	}
	out.runs = append(out.runs, r)
	out.kept[r.ID] = true
}

// cut drops the nodes of r below depth.
func cut(r *Run, depth int) {
	if depth < 0 || depth >= DepthCalls {
		return
	}
	if depth < DepthTurns {
		r.Turns = []*Turn{}
		return
	}
	for _, tu := range r.Turns {
		if depth < DepthSteps {
			tu.Steps = []*Step{}
			continue
		}
		for _, st := range tu.Steps {
			st.ModelCalls, st.ToolCalls = []*ModelCall{}, []*ToolCall{}
		}
	}
}

// Runs counts the runs selected so far.
func (s *Selection) Runs() int { return s.runs }

// Tree ends the stream and returns the tree of the selected runs: their sessions (with the
// messages and connections of no other run) and their runs, in the order of the log. With Depth
// DepthSessions the sessions have no runs.
func (s *Selection) Tree() *Tree {
	notes := s.proj.Drain()
	t := &Tree{Sessions: []*Session{}, Notes: notes, Timeless: s.proj.events > 0 && !s.proj.stamped}
	if s.Depth >= 0 && s.Depth < DepthCalls {
		c := s.cut
		t.cut = &c
	}
	// sessions in the order the log opened them, as an unfiltered tree has them
	slices.SortStableFunc(s.order, func(a, b *selSession) int { return a.srcs[0].order - b.srcs[0].order })
	for _, out := range s.order {
		src := out.srcs[0]
		se := &Session{ID: src.ID, Span: src.Span, Snapshots: src.Snapshots, Runs: out.runs}
		for _, x := range out.srcs {
			for _, m := range x.Messages {
				if m.RunID == "" || out.kept[m.RunID] {
					se.Messages = append(se.Messages, m)
				}
			}
			for _, c := range x.Connections {
				if c.RunID == "" || out.kept[c.RunID] {
					se.Connections = append(se.Connections, c)
				}
			}
		}
		slices.SortStableFunc(se.Runs, func(a, b *Run) int { return cmpInt64(a.Seq, b.Seq) })
		if s.Depth == DepthSessions {
			se.Runs = []*Run{}
		}
		for _, r := range out.runs {
			se.Usage = se.Usage.Add(r.Usage)
		}
		t.Sessions = append(t.Sessions, se)
	}
	return t
}

// Finish ends the stream (for KeepIDs).
func (s *Selection) Finish() { s.proj.Drain() }

// Concerns reports whether a finding names a node of a selected run or its session (after Tree
// or Finish).
func (s *Selection) Concerns(f Finding) bool {
	for _, id := range f.IDs {
		if s.ids[id] {
			return true
		}
	}
	return false
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
