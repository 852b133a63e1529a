package spantree

import "hash/maphash"

// Holds names the traces whose spans come far apart in an input (a child span written after
// its parent in a later export batch, a tool span after the run's end): for each, the last
// line where one of its spans is, so that a Builder holds the trace back until the input has
// reached that line instead of emitting it FlushLag spans after its root span. It is made by a
// read of the input ahead of the decoding one (see otlp.Decode); trace ids are kept as 64-bit
// hashes: two ids with one hash only make a trace wait longer.
type Holds struct {
	last map[uint64]int
}

var holdSeed = maphash.MakeSeed()

func holdKey(traceID string) uint64 { return maphash.String(holdSeed, traceID) }

// Len is how many traces are held back.
func (h *Holds) Len() int {
	if h == nil {
		return 0
	}
	return len(h.last)
}

// Until returns the line a trace is held back to, 0 if it is not held.
func (h *Holds) Until(traceID string) int {
	if h == nil {
		return 0
	}
	return h.last[holdKey(traceID)]
}

// HoldScan finds the traces of an input to hold back from their ids in input order, with
// memory bounded by the traces seen in the last few hundred spans (plus those held back) rather
// than by the input: Seen is called with each span's trace id (an id may also be given for a
// span link: it only makes its trace wait longer), Holds returns the result.
type HoldScan struct {
	pos    int
	recent map[uint64]int // trace → position of its first id, for those seen in the window
	fifo   []recentID
	head   int
	old    bloom
	holds  Holds
}

type recentID struct {
	key uint64
	pos int
}

// holdWindow is how far apart, in span ids, two spans of one trace may be without the trace
// being held back: half of FlushLag, since a trace is emitted FlushLag spans after its root
// span and its root span comes after its first span.
const holdWindow = FlushLag / 2

// NewHoldScan returns an empty HoldScan.
func NewHoldScan() *HoldScan {
	return &HoldScan{recent: map[uint64]int{}, holds: Holds{last: map[uint64]int{}}}
}

// Seen records a span of trace traceID at line.
func (s *HoldScan) Seen(traceID string, line int) {
	s.pos++
	for s.head < len(s.fifo) && s.pos-s.fifo[s.head].pos >= holdWindow {
		r := s.fifo[s.head]
		s.head++
		delete(s.recent, r.key)
		if s.old == nil {
			s.old = newBloom(1 << 23) // 1 MB, made only for an input longer than the window
		}
		s.old.add(r.key)
	}
	if s.head > 1024 && s.head*2 > len(s.fifo) {
		s.fifo = append(s.fifo[:0], s.fifo[s.head:]...)
		s.head = 0
	}
	k := holdKey(traceID)
	if _, ok := s.holds.last[k]; ok {
		s.holds.last[k] = line
		return
	}
	if _, ok := s.recent[k]; ok {
		return // within the window of its first span
	}
	if s.old != nil && s.old.has(k) { // seen before the window (or a hash that looks so): hold it back
		s.holds.last[k] = line
		return
	}
	s.recent[k] = s.pos
	s.fifo = append(s.fifo, recentID{k, s.pos})
}

// Holds returns the traces to hold back.
func (s *HoldScan) Holds() *Holds { return &s.holds }

// bloom is a fixed-size Bloom filter of 64-bit keys (three probes from the key's halves).
type bloom []uint64

func newBloom(bits int) bloom { return make(bloom, bits/64) }

func (b bloom) probes(k uint64) [3]uint64 {
	n := uint64(len(b) * 64)
	h1, h2 := k, k>>32|k<<32
	return [3]uint64{h1 % n, (h1 + h2) % n, (h1 + 2*h2) % n}
}

func (b bloom) add(k uint64) {
	for _, p := range b.probes(k) {
		b[p/64] |= 1 << (p % 64)
	}
}

func (b bloom) has(k uint64) bool {
	for _, p := range b.probes(k) {
		if b[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}
