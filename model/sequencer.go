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

// Push adds an event and returns the events that can now be applied, in order.
func (s *Sequencer) Push(ev *Event) []*Event {
	if ev.Seq == 0 {
		return []*Event{ev}
	}
	if s.sessions == nil {
		s.sessions = map[string]*seqState{}
	}
	st := s.sessions[ev.SessionID]
	if st == nil {
		st = &seqState{}
		s.sessions[ev.SessionID] = st
	}
	if st.next == 0 {
		st.next = 1 // a session's log starts at seq 1; a tail of a log waits at most Window events
	}
	if ev.Seq < st.next {
		// A late or duplicate event: it cannot be put back in order; apply it now.
		return []*Event{ev}
	}
	heap.Push(&st.pending, ev)
	return s.drain(ev.SessionID, st, false)
}

func (s *Sequencer) drain(session string, st *seqState, force bool) []*Event {
	window := s.Window
	if window <= 0 {
		window = 4096
	}
	var out []*Event
	for st.pending.Len() > 0 {
		top := st.pending[0]
		switch {
		case top.Seq <= st.next:
			heap.Pop(&st.pending)
			out = append(out, top)
			if top.Seq == st.next {
				st.next++
			}
		case force || st.pending.Len() > window:
			s.Gaps = append(s.Gaps, fmt.Sprintf("session %s: seq %d..%d never arrived", session, st.next, top.Seq-1))
			st.next = top.Seq
		default:
			return out
		}
	}
	st.pending = nil // release the buffer of a drained session
	return out
}

// Flush returns every held event in order, skipping gaps that were never filled.
func (s *Sequencer) Flush() []*Event {
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []*Event
	for _, id := range ids {
		out = append(out, s.drain(id, s.sessions[id], true)...)
	}
	return out
}
