package model

import "fmt"

// Projector builds the lifecycle tree from events, incrementally: call Apply for each event as
// it arrives (in any order; events are put back into per-session seq order) and Tree whenever the
// current tree is wanted. Replaying the same events always yields the same tree.
//
// The projection is tolerant: an event that refers to a node never opened creates a placeholder
// node (marked Inferred "placeholder") so that partial logs still produce a tree; the Checker is
// what reports such problems.
type Projector struct {
	seq      Sequencer
	tree     Tree
	sessions map[string]*Session
	runs     map[string]*Run
	live     nodeIndex // the turns, steps and calls of the runs not ended
	conns    map[string]*Connection
	waits    map[string]*Wait // by run id + call id
	inputs   map[string]*Input
	// own holds the index of each ended run (whose turns, steps and calls were taken out of
	// live, see retire) that an event after its end needed; an ended run is one with Ended set.
	own     map[*Run]*nodeIndex
	lastRun *Run // the run of the previous event and where its nodes are (a cache for index)
	lastIdx *nodeIndex
	stamped bool
	events  int
	// noteAt indexes tracer notes by text; noteCount counts their repeats by index.
	noteAt    map[string]int
	noteCount map[int]int
	noteFirst map[int]string
	// rel is set by Release: ended runs are handed over and forgotten.
	rel *releaser
	// made counts the sessions made (Session.order).
	made int
}

// NewProjector returns an empty projector.
func NewProjector() *Projector {
	return &Projector{
		sessions: map[string]*Session{}, runs: map[string]*Run{}, live: newNodeIndex(),
		conns: map[string]*Connection{}, waits: map[string]*Wait{}, inputs: map[string]*Input{},
		own: map[*Run]*nodeIndex{},
	}
}

// Project builds the tree of a complete event list.
func Project(events []Event) *Tree {
	p := NewProjector()
	for i := range events {
		p.Apply(&events[i])
	}
	return p.Tree()
}

// Apply adds one event. The projector keeps no pointer to ev itself, so a decoder may reuse the
// Event value; it does keep what ev points to (attrs, consumes, inferred, origin, error, usage),
// which must not be changed afterwards.
func (p *Projector) Apply(ev *Event) {
	p.seq.Push(ev, p.apply)
	if p.rel != nil {
		p.releaseDue()
	}
}

// Tree returns the tree of every event applied so far, with usage rolled up. Events still held
// waiting for a missing seq are applied first (the gap is noted).
func (p *Projector) Tree() *Tree {
	p.seq.Flush(p.apply)
	p.tree.Notes = append(p.tree.Notes, p.seq.Gaps...)
	p.seq.Gaps = nil
	p.tree.Timeless = p.events > 0 && !p.stamped
	for _, i := range p.noteAt {
		if n := p.noteCount[i]; n > 1 {
			p.tree.Notes[i] = fmt.Sprintf("%s (%d times)", p.noteFirst[i], n)
		}
	}
	rollUp(&p.tree)
	return &p.tree
}

// tracerNote records a tracer's note (Event.Attrs["note"]) once per distinct text, with the
// place it was first made and how often it recurred.
func (p *Projector) tracerNote(ev *Event, note string) {
	if i, seen := p.noteAt[note]; seen {
		p.noteCount[i]++
		return
	}
	if p.noteAt == nil {
		p.noteAt, p.noteCount, p.noteFirst = map[string]int{}, map[int]int{}, map[int]string{}
	}
	i := len(p.tree.Notes)
	p.noteAt[note], p.noteCount[i] = i, 1
	p.noteFirst[i] = ev.Where() + ": " + note
	p.tree.Notes = append(p.tree.Notes, p.noteFirst[i])
}

func (p *Projector) note(format string, args ...any) {
	p.tree.Notes = append(p.tree.Notes, fmt.Sprintf(format, args...))
}

func (p *Projector) session(ev *Event) *Session {
	s := p.sessions[ev.SessionID]
	if s == nil {
		s = &Session{ID: ev.SessionID, Runs: []*Run{}, order: p.made}
		p.made++
		s.open(ev)
		if ev.Type != SessionStart {
			s.infer([]string{"placeholder"})
		}
		p.sessions[ev.SessionID] = s
		p.tree.Sessions = append(p.tree.Sessions, s)
	}
	return s
}

func (p *Projector) run(ev *Event) *Run {
	r := p.runs[ev.RunID]
	if r == nil {
		s := p.session(ev)
		r = &Run{ID: ev.RunID, SessionID: s.ID, Turns: []*Turn{}}
		r.open(ev)
		switch ev.Type {
		case RunQueued, RunStart:
		default:
			r.infer([]string{"placeholder"})
			p.note("%s: run %s was never started; placeholder added", ev.Where(), ev.RunID)
		}
		p.runs[ev.RunID] = r
		s.Runs = append(s.Runs, r)
	}
	return r
}

// nodeIndex finds turns, steps and calls by id.
type nodeIndex struct {
	turns  map[string]*Turn
	steps  map[string]*Step
	models map[string]*ModelCall
	tools  map[string]*ToolCall
}

func newNodeIndex() nodeIndex {
	return nodeIndex{turns: map[string]*Turn{}, steps: map[string]*Step{},
		models: map[string]*ModelCall{}, tools: map[string]*ToolCall{}}
}

// retire takes the turns, steps and calls of an ended run out of the live index, which so
// stays as small as the runs in progress. Every turn, step and call event names its run: one
// that comes after its run ended looks its ids up in that run alone (index).
func (p *Projector) retire(r *Run) {
	p.lastRun = nil
	p.live.run(r, false)
}

// run adds the turns, steps and calls of r to x, or removes those x holds (add false).
func (x *nodeIndex) run(r *Run, add bool) {
	for _, t := range r.Turns {
		indexNode(x.turns, t.ID, t, add)
		for _, st := range t.Steps {
			indexNode(x.steps, st.ID, st, add)
			for _, m := range st.ModelCalls {
				indexNode(x.models, m.ID, m, add)
			}
			for _, c := range st.ToolCalls {
				indexNode(x.tools, c.ID, c, add)
			}
		}
	}
}

// indexNode maps id to n, or removes id when it maps to n (add false).
func indexNode[N comparable](m map[string]N, id string, n N, add bool) {
	if add {
		m[id] = n
	} else if m[id] == n {
		delete(m, id)
	}
}

// index returns where the turns, steps and calls of ev's run are found: the live index, or the
// run's own when it has ended (built the first time it is needed).
func (p *Projector) index(ev *Event) *nodeIndex {
	if r := p.lastRun; r != nil && r.ID == ev.RunID {
		return p.lastIdx
	}
	r := p.runs[ev.RunID]
	if r == nil {
		return &p.live
	}
	p.lastRun, p.lastIdx = r, &p.live
	if !r.Ended {
		return &p.live
	}
	x := p.own[r]
	if x == nil {
		idx := newNodeIndex()
		x = &idx
		x.run(r, true)
		p.own[r] = x
	}
	p.lastIdx = x
	return x
}

func (p *Projector) turn(ev *Event) *Turn {
	idx := p.index(ev)
	t := idx.turns[ev.TurnID]
	if t == nil {
		r := p.run(ev)
		t = &Turn{ID: ev.TurnID, RunID: r.ID, Steps: []*Step{}}
		t.open(ev)
		if ev.Type != TurnStart {
			t.infer([]string{"placeholder"})
			p.note("%s: turn %s was never started; placeholder added", ev.Where(), ev.TurnID)
		}
		idx.turns[ev.TurnID] = t
		r.Turns = append(r.Turns, t)
	}
	return t
}

func (p *Projector) step(ev *Event) *Step {
	idx := p.index(ev)
	st := idx.steps[ev.StepID]
	if st == nil {
		t := p.turn(ev)
		st = &Step{ID: ev.StepID, TurnID: t.ID, Index: len(t.Steps) + 1, ModelCalls: []*ModelCall{}, ToolCalls: []*ToolCall{}}
		st.open(ev)
		if ev.Type != StepStart {
			st.infer([]string{"placeholder"})
			p.note("%s: step %s was never started; placeholder added", ev.Where(), ev.StepID)
		}
		idx.steps[ev.StepID] = st
		t.Steps = append(t.Steps, st)
	}
	return st
}

func (p *Projector) setStatus(r *Run, ev *Event) {
	r.Status = ev.Status
	r.WaitReason = ev.WaitReason
	if ev.StopReason != "" {
		if sr, err := Resolve(r.ID, r.StopReason, ev.StopReason); err == nil {
			r.StopReason = sr
		}
	}
	if ev.Error != nil {
		r.Error = ev.Error
	}
	r.History = append(r.History, StatusChange{Status: ev.Status, WaitReason: ev.WaitReason,
		StopReason: ev.StopReason, TS: ev.TS, Seq: ev.Seq, Source: ev.Source, Cause: ev.Cause})
}

func (p *Projector) apply(ev *Event) {
	if p.releasedRun(ev) {
		return
	}
	p.events++
	if note, ok := AttrString(ev.Attrs["note"]); ok && note != "" {
		p.tracerNote(ev, note)
	}
	if !ev.TS.IsZero() {
		p.stamped = true
	}
	if ev.SessionID == "" {
		p.note("%s: %s event without session_id ignored", ev.Where(), ev.Type)
		return
	}
	switch ev.Type {
	case SessionStart:
		p.session(ev)
	case SessionEnd:
		p.session(ev).close(ev)
	case ConnectionOpen:
		s := p.session(ev)
		c := &Connection{ID: ev.ConnectionID, RunID: ev.RunID}
		c.open(ev)
		p.conns[ev.ConnectionID] = c
		s.Connections = append(s.Connections, c)
	case ConnectionClose:
		if c := p.conns[ev.ConnectionID]; c != nil {
			c.close(ev)
		}
	case RunQueued:
		r := p.run(ev)
		p.runFields(r, ev)
		r.Queued = ev.TS
		p.setStatus(r, &Event{Status: StatusQueued, TS: ev.TS, Seq: ev.Seq, Source: ev.Source})
	case RunStart:
		r := p.run(ev)
		p.runFields(r, ev)
		if r.Seq != ev.Seq { // opened by run/queued: the run's interval starts when it runs
			r.Start, r.Seq, r.Origin = ev.TS, ev.Seq, ev.Origin
		}
		st := *ev
		st.Status = StatusRunning
		p.setStatus(r, &st)
	case RunStatusChange:
		r := p.run(ev)
		p.setStatus(r, ev)
		if ev.Status == StatusWaiting {
			key := r.ID + "\x00" + ev.CallID
			if w := p.waits[key]; ev.CallID != "" && w != nil && !w.Ended {
				w.Reason = ev.WaitReason // the wait its approval/request opened
				break
			}
			w := &Wait{Reason: ev.WaitReason, CallID: ev.CallID}
			w.open(ev)
			r.Waits = append(r.Waits, w)
			if ev.CallID != "" {
				p.waits[key] = w
			}
		} else {
			for _, w := range r.Waits {
				if !w.Ended {
					w.close(ev)
				}
			}
		}
	case RunResumed:
		r := p.run(ev)
		r.Resumes = append(r.Resumes, ev.TS)
	case RunEnd:
		r := p.run(ev)
		p.setStatus(r, ev)
		for _, w := range r.Waits {
			if !w.Ended {
				w.close(ev)
			}
		}
		first := !r.Ended
		r.close(ev)
		if first { // retired once, at its first run/end
			p.retire(r)
			if p.rel != nil {
				p.ended(r)
			}
		}
	case TurnStart:
		t := p.turn(ev)
		t.Consumes = append(t.Consumes, ev.Consumes...)
		p.consume(ev.Consumes, t.ID)
	case TurnStopping:
		p.turn(ev).Stopping = true
	case TurnEnd:
		t := p.turn(ev)
		t.Outcome, t.StopReason = ev.Outcome, ev.StopReason
		if ev.Error != nil {
			t.Error = ev.Error
		}
		t.close(ev)
	case StepStart:
		st := p.step(ev)
		st.Consumes = append(st.Consumes, ev.Consumes...)
		p.consume(ev.Consumes, st.ID)
	case StepEnd:
		st := p.step(ev)
		st.Outcome = ev.Outcome
		if ev.Error != nil {
			st.Error = ev.Error
		}
		st.close(ev)
	case ModelStart:
		st := p.step(ev)
		m := &ModelCall{ID: ev.CallID, StepID: st.ID, Name: ev.Name, Attrs: ev.Attrs}
		m.open(ev)
		p.index(ev).models[ev.CallID] = m
		st.ModelCalls = append(st.ModelCalls, m)
	case ModelEnd:
		idx := p.index(ev)
		m := idx.models[ev.CallID]
		if m == nil {
			st := p.step(ev)
			m = &ModelCall{ID: ev.CallID, StepID: st.ID, Name: ev.Name}
			m.open(ev)
			m.infer([]string{"placeholder"})
			idx.models[ev.CallID] = m
			st.ModelCalls = append(st.ModelCalls, m)
		}
		m.Outcome, m.Error = ev.Outcome, ev.Error
		if ev.Usage != nil {
			m.Usage = *ev.Usage
		}
		m.Attrs = mergeAttrs(m.Attrs, ev.Attrs)
		m.close(ev)
	case ToolStart:
		st := p.step(ev)
		c := &ToolCall{ID: ev.CallID, StepID: st.ID, Name: ev.Name, SideEffect: ev.SideEffect,
			IdempotencyKey: ev.IdempotencyKey, Attrs: ev.Attrs}
		c.open(ev)
		p.index(ev).tools[ev.CallID] = c
		st.ToolCalls = append(st.ToolCalls, c)
	case ToolEnd:
		idx := p.index(ev)
		c := idx.tools[ev.CallID]
		if c == nil {
			st := p.step(ev)
			c = &ToolCall{ID: ev.CallID, StepID: st.ID, Name: ev.Name}
			c.open(ev)
			c.infer([]string{"placeholder"})
			idx.tools[ev.CallID] = c
			st.ToolCalls = append(st.ToolCalls, c)
		}
		c.Outcome, c.Error = ev.Outcome, ev.Error
		c.Attrs = mergeAttrs(c.Attrs, ev.Attrs)
		c.close(ev)
	case Message:
		s := p.session(ev)
		s.Messages = append(s.Messages, &MessageRec{Role: ev.Role, Text: ev.Text, RunID: ev.RunID, StepID: ev.StepID, TS: ev.TS, Seq: ev.Seq})
	case InputSteer, InputFollowUp:
		r := p.run(ev)
		in := &Input{ID: ev.InputID, Kind: ev.Type, Text: ev.Text, TS: ev.TS, Seq: ev.Seq}
		p.inputs[ev.InputID] = in
		r.Inputs = append(r.Inputs, in)
	case ApprovalRequest:
		r := p.run(ev)
		key := r.ID + "\x00" + ev.CallID
		if p.waits[key] == nil {
			w := &Wait{Reason: WaitApproval, CallID: ev.CallID}
			w.open(ev)
			r.Waits = append(r.Waits, w)
			p.waits[key] = w
		}
	case ApprovalResolve:
		r := p.run(ev)
		if w := p.waits[r.ID+"\x00"+ev.CallID]; w != nil {
			w.Decision = ev.Decision
		}
	case Snapshot:
		p.session(ev).Snapshots++
	}
}

func (p *Projector) runFields(r *Run, ev *Event) {
	if ev.ParentRunID != "" {
		r.ParentRunID = ev.ParentRunID
	}
	if ev.Attempt != 0 {
		r.Attempt = ev.Attempt
	}
	if ev.Kind != "" {
		r.Kind = ev.Kind
	}
	if ev.Name != "" {
		r.Agent = ev.Name
	}
	if ev.AgentVersion != "" {
		r.AgentVersion = ev.AgentVersion
	}
}

func (p *Projector) consume(ids []string, by string) {
	for _, id := range ids {
		if in := p.inputs[id]; in != nil {
			in.ConsumedBy = by
		}
	}
}

// mergeAttrs returns the attributes of a and b (b wins) in a new map when both have some: the
// events' own maps are never written to.
func mergeAttrs(a, b map[string]any) map[string]any {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	m := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

// rollUp recomputes usage sums: step = its model calls, turn = its steps, run = its turns,
// session = its runs. Every model call is counted exactly once, at the step that made it.
func rollUp(t *Tree) {
	for _, se := range t.Sessions {
		se.Usage = Usage{}
		for _, r := range se.Runs {
			r.Usage = Usage{}
			for _, tu := range r.Turns {
				tu.Usage = Usage{}
				for _, st := range tu.Steps {
					st.Usage = Usage{}
					for _, m := range st.ModelCalls {
						st.Usage = st.Usage.Add(m.Usage)
					}
					tu.Usage = tu.Usage.Add(st.Usage)
				}
				r.Usage = r.Usage.Add(tu.Usage)
			}
			se.Usage = se.Usage.Add(r.Usage)
		}
	}
}
