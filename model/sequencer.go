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
// through at once. Memory: one counter per session ever seen (a 16-byte map slot, by hash of the
// session id) and at most Window held events per session waiting for a missing seq.
type Sequencer struct {
	// Window is how many events are held waiting for a missing seq (default 4096).
	Window int
	// next is the next expected seq of each session, by hash of its id (a collision of two
	// session ids' 64-bit hashes is as likely as 2^-64 a pair).
	next map[uint64]int64
	// held are the sessions with events waiting for a missing seq.
	held map[uint64]*seqState
	// Gaps are notes about seq numbers that never arrived.
	Gaps []string
}

type seqState struct {
	session string
	pending evHeap
}

func sessionKey(id string) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return h
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
	if s.next == nil {
		s.next, s.held = map[uint64]int64{}, map[uint64]*seqState{}
	}
	k := sessionKey(ev.SessionID)
	next, ok := s.next[k]
	if !ok {
		next = 1 // a session's log starts at seq 1; a tail of a log waits at most Window events
	}
	st := s.held[k]
	switch {
	case ev.Seq == next && st == nil: // the common case: already in order
		s.next[k] = SatAdd(next, 1)
		apply(ev)
	case ev.Seq < next: // a late or duplicate event: it cannot be put back in order; apply it now
		s.next[k] = next
		apply(ev)
	default:
		if st == nil {
			st = &seqState{session: ev.SessionID}
			s.held[k] = st
		}
		held := *ev // the caller may reuse ev once Push returns
		heap.Push(&st.pending, &held)
		s.next[k] = next
		s.drain(k, st, false, apply)
	}
}

func (s *Sequencer) drain(k uint64, st *seqState, force bool, apply func(*Event)) {
	window := s.Window
	if window <= 0 {
		window = 4096
	}
	for st.pending.Len() > 0 {
		top := st.pending[0]
		next := s.next[k]
		switch {
		case top.Seq <= next:
			heap.Pop(&st.pending)
			if top.Seq == next {
				s.next[k] = SatAdd(next, 1)
			}
			apply(top)
		case force || st.pending.Len() > window:
			s.Gaps = append(s.Gaps, fmt.Sprintf("session %s: seq %d..%d never arrived", st.session, next, top.Seq-1))
			s.next[k] = top.Seq
		default:
			return
		}
	}
	delete(s.held, k) // release the buffer of a drained session
}

// Flush passes every held event to apply in order, skipping gaps that were never filled.
func (s *Sequencer) Flush(apply func(*Event)) {
	held := make([]*seqState, 0, len(s.held))
	for _, st := range s.held {
		held = append(held, st)
	}
	sort.Slice(held, func(i, j int) bool { return held[i].session < held[j].session })
	for _, st := range held {
		s.drain(sessionKey(st.session), st, true, apply)
	}
}
