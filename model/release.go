package model

// Releasing runs: a Projector that streams.
//
// A Projector normally keeps every node until Tree is called. A consumer that only needs one
// run at a time (lifeline stats, the filters of timeline and check) calls Release instead: the
// projector then hands over each run once it has ended and Grace more events have been applied
// (late events of the run within that window still reach it), and forgets it. What stays per
// released run is one 8-byte slot of a hash table (its id, so that a late event after the window
// is counted in Late instead of opening a placeholder run), and per session the Sequencer's seq
// counter; sessions are forgotten with their last run.

// DefaultGrace is how many events a released run waits after its run/end by default.
const DefaultGrace = 4096

// Release makes p hand each run to fn, once ended and grace events later (DefaultGrace when
// grace ≤ 0), with its usage rolled up and its session (the same *Session for every run of
// it, its Runs list holding the runs not yet handed over), then forget it. Call Drain at the
// end of the input to hand over the rest. Release must be called before the first Apply.
func (p *Projector) Release(grace int, fn func(*Session, *Run)) {
	if grace <= 0 {
		grace = DefaultGrace
	}
	p.rel = &releaser{grace: grace, fn: fn}
}

// Late is how many events arrived for a run already handed over by Release (they are dropped).
func (p *Projector) Late() int {
	if p.rel == nil {
		return 0
	}
	return p.rel.late
}

// Drain applies the events still held back for a missing seq and hands every run left, ended
// or not, to the Release function, in the order of the sessions and of their runs. It returns
// the notes the projection made (Tree's Notes).
func (p *Projector) Drain() []string {
	p.seq.Flush(p.apply)
	p.tree.Notes = append(p.tree.Notes, p.seq.Gaps...)
	p.seq.Gaps = nil
	if p.rel != nil {
		for _, s := range append([]*Session(nil), p.tree.Sessions...) {
			for _, r := range append([]*Run(nil), s.Runs...) {
				p.releaseRun(r)
			}
		}
		p.rel.queue = nil
	}
	return p.tree.Notes
}

// releaser is the state of Release.
type releaser struct {
	grace int
	fn    func(*Session, *Run)
	queue []endedRun // runs ended, oldest first
	head  int
	gone  idTable // ids of the runs handed over
	late  int
	// dropped counts sessions taken out of p.tree.Sessions since it was last compacted.
	dropped int
}

type endedRun struct {
	run *Run
	at  int // p.events when the run ended
}

// releasedRun reports whether ev belongs to a run already handed over (and counts it).
func (p *Projector) releasedRun(ev *Event) bool {
	if p.rel == nil || ev.RunID == "" || p.rel.gone.len() == 0 {
		return false
	}
	if _, live := p.runs[ev.RunID]; live {
		return false
	}
	if p.rel.gone.has(idKey("run", ev.RunID)) {
		p.rel.late++
		return true
	}
	return false
}

// ended queues r, which has just ended, and hands over the runs whose grace has passed.
func (p *Projector) ended(r *Run) {
	p.rel.queue = append(p.rel.queue, endedRun{run: r, at: p.events})
}

// releaseDue hands over the queued runs whose grace has passed.
func (p *Projector) releaseDue() {
	rel := p.rel
	for rel.head < len(rel.queue) && p.events-rel.queue[rel.head].at > rel.grace {
		r := rel.queue[rel.head].run
		rel.queue[rel.head] = endedRun{}
		rel.head++
		if p.runs[r.ID] == r {
			p.releaseRun(r)
		}
	}
	if rel.head > 1024 && rel.head*2 > len(rel.queue) {
		rel.queue = append(rel.queue[:0], rel.queue[rel.head:]...)
		rel.head = 0
	}
}

// releaseRun hands r over and forgets it (and its session when it was the last run).
func (p *Projector) releaseRun(r *Run) {
	if p.runs[r.ID] != r {
		return
	}
	rollUpRun(r)
	s := p.sessions[r.SessionID]
	p.rel.fn(s, r)
	delete(p.runs, r.ID)
	delete(p.own, r)
	p.live.run(r, false)
	if p.lastRun == r {
		p.lastRun, p.lastIdx = nil, nil
	}
	for _, w := range r.Waits {
		if w.CallID != "" && p.waits[r.ID+"\x00"+w.CallID] == w {
			delete(p.waits, r.ID+"\x00"+w.CallID)
		}
	}
	for _, in := range r.Inputs {
		if p.inputs[in.ID] == in {
			delete(p.inputs, in.ID)
		}
	}
	p.rel.gone.set(idKey("run", r.ID), 1)
	if s == nil {
		return
	}
	for i, x := range s.Runs {
		if x == r {
			s.Runs = append(s.Runs[:i:i], s.Runs[i+1:]...)
			break
		}
	}
	if len(s.Runs) > 0 {
		return
	}
	delete(p.sessions, s.ID)
	for _, c := range s.Connections {
		if p.conns[c.ID] == c {
			delete(p.conns, c.ID)
		}
	}
	p.rel.dropped++
	if p.rel.dropped > 64 && p.rel.dropped*2 > len(p.tree.Sessions) {
		kept := p.tree.Sessions[:0]
		for _, x := range p.tree.Sessions {
			if p.sessions[x.ID] == x {
				kept = append(kept, x)
			}
		}
		clear(p.tree.Sessions[len(kept):])
		p.tree.Sessions = kept
		p.rel.dropped = 0
	}
}

// rollUpRun recomputes the usage sums of one run (see rollUp).
func rollUpRun(r *Run) {
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
}
