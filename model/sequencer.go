package model

import (
	"container/heap"
	"fmt"
	"sort"
)

// Sequencer puts events back into per-session seq order. Events may arrive out of order (a
// collector that batches, files merged in any order); Push returns the events that are now in
// order. Seq numbering of a session starts at 1: if a seq never arrives within Window events,
// the gap is skipped and noted. Events with seq 0 carry no order and pass
// through at once. Memory is bounded by Window events per session.
type Sequencer struct {
	// Window is how many events are held waiting for a missing seq (default 4096).
	Window   int
	sessions map[string]*seqState
	// Gaps are notes about seq numbers that never arrived.
	Gaps []string
}

type seqState struct {
	next    int64 // next expected seq, 0 before the first event
	pending evHeap
}

type evHeap []*Event

func (h evHeap) Len() int           { return len(h) }
func (h evHeap) Less(i, j int) bool { return h[i].Seq < h[j].Seq }
func (h evHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *evHeap) Push(x any)        { *h = append(*h, x.(*Event)) }
func (h *evHeap) Pop() any {
	old := *h
	ev := old[len(old)-1]
	*h = old[:len(old)-1]
	return ev
}

// Push adds an event and passes every event that is now in order to apply. It keeps no pointer
// to ev (an event held back is copied), so the caller may reuse it afterwards.
func (s *Sequencer) Push(ev *Event, apply func(*Event)) {
	if ev.Seq == 0 {
		apply(ev)
		return
	}
	if s.sessions == nil {
		s.sessions = map[string]*seqState{}
	}
	st := s.sessions[ev.SessionID]
	if st == nil {
		st = &seqState{next: 1} // a session's log starts at seq 1; a tail of a log waits at most Window events
		s.sessions[ev.SessionID] = st
	}
	switch {
	case ev.Seq == st.next && len(st.pending) == 0: // the common case: already in order
		st.next++
		apply(ev)
	case ev.Seq < st.next: // a late or duplicate event: it cannot be put back in order; apply it now
		apply(ev)
	default:
		held := *ev // the caller may reuse ev once Push returns
		heap.Push(&st.pending, &held)
		s.drain(ev.SessionID, st, false, apply)
	}
}

func (s *Sequencer) drain(session string, st *seqState, force bool, apply func(*Event)) {
	window := s.Window
	if window <= 0 {
		window = 4096
	}
	for st.pending.Len() > 0 {
		top := st.pending[0]
		switch {
		case top.Seq <= st.next:
			heap.Pop(&st.pending)
			apply(top)
			if top.Seq == st.next {
				st.next++
			}
		case force || st.pending.Len() > window:
			s.Gaps = append(s.Gaps, fmt.Sprintf("session %s: seq %d..%d never arrived", session, st.next, top.Seq-1))
			st.next = top.Seq
		default:
			return
		}
	}
	st.pending = nil // release the buffer of a drained session
}

// Flush passes every held event to apply in order, skipping gaps that were never filled.
func (s *Sequencer) Flush(apply func(*Event)) {
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s.drain(id, s.sessions[id], true, apply)
	}
}
