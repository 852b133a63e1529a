// Package store is the durable side of `lifeline serve`: an append-only journal under one data
// directory, written and fsynced before a batch is acknowledged, and a run index in an embedded
// SQLite database (modernc.org/sqlite, pure Go) that is a projection of the journal and is
// rebuilt from it whenever it is missing or behind.
//
// The journal is two JSON Lines files that lifeline's file readers take as they are:
//
//   - spans.jsonl: one OTLP ExportTraceServiceRequest per accepted OTLP batch, in OTLP JSON
//     (the shape the Collector's file exporter writes; ids in base64 as protojson writes them,
//     which the OTLP reader accepts), so `lifeline timeline DIR` reads it;
//   - events.jsonl: lifeline's canonical event log, the lines of each accepted canonical batch.
//
// Spans are journaled as received rather than converted at once because an OTLP trace becomes
// lifecycle events only when its spans are together (a run's root span usually arrives last);
// the conversion is tracer/otlp's, fed each record once as the journal grows (see proj), so a
// trace split over many batches projects as the same spans read from one file, and the work a
// batch costs does not grow with the journal. Opening the store reads the journal once.
//
// Writes go through one goroutine that takes every batch queued meanwhile, appends them and
// fsyncs once (group commit); the queue is bounded and Append fails fast with ErrBusy when it is
// full, which the receiver turns into 429 with Retry-After. A line cut short by a crash is
// never acknowledged (its fsync did not return) and is truncated when the store is opened.
//
// The projection runs in a goroutine of its own, off the acknowledgement path: it reads the
// records acknowledged back from the journal a chunk at a time, and while batches keep coming
// it works only part of the time (yield), so the index may lag the journal under load.
package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/model"
)

// File names inside the data directory.
const (
	SpansFile  = "spans.jsonl"
	EventsFile = "events.jsonl"
	IndexFile  = "index.sqlite"
)

// Errors Append returns.
var (
	// ErrBusy means the write queue is full: retry later.
	ErrBusy = errors.New("store: write queue full")
	// ErrClosed means the store is shutting down.
	ErrClosed = errors.New("store: closed")
)

// Options tune a Store.
type Options struct {
	// Clock gives the time for the ingest lag; time.Now when nil.
	Clock func() time.Time
	// Queue is how many batches may wait for the disk; 64 when 0.
	Queue int
	// KeepEvents is how many sealed span events stay in memory, those of the sessions
	// projected last (DefaultKeepEvents when 0, none when negative); the others are read again
	// from the journal when their session changes or a page shows one of its runs.
	KeepEvents int

	hold func() (chan int, chan struct{}) // tests: pause the writer
}

// Store is an open data directory.
type Store struct {
	dir    string
	clock  func() time.Time
	spans  *os.File
	events *os.File
	idx    *index

	queue   chan *pending
	closing chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
	dirty   chan struct{}

	inflight atomic.Int64 // batches queued or being written (Append calls the writer has not answered)
	appends  atomic.Int64 // batches ever queued (yield: whether batches are still coming)
	received atomic.Int64 // spans acknowledged since the store was opened, plus those replayed
	rejected atomic.Int64 // spans rejected by the receiver (counted through CountRejected)
	evCount  atomic.Int64

	mu        sync.Mutex
	behind    time.Time // when the oldest acknowledged batch not yet projected was acknowledged
	ackGen    uint64
	subs      map[chan uint64]struct{}
	projected uint64
	// spansSize and eventsSize are the journal lengths written and fsynced. What the
	// projection has not taken yet it reads from the files (project), so a projection behind
	// the writer holds no copy of the backlog.
	spansSize, eventsSize int64
	// spansDone and eventsDone are the journal lengths the projection has taken (the
	// projector's alone).
	spansDone, eventsDone int64

	// vmu guards the projection's results (p is used by the projector goroutine alone, and
	// by Open before it starts).
	vmu sync.RWMutex
	p   *proj

	// held, when set (by the tests), is signalled with each group the writer took and the
	// writer then waits for release before writing it.
	held    chan int
	release chan struct{}
}

// Batch is one accepted request, ready to journal.
type Batch struct {
	// Spans is an OTLP batch (nil for a canonical one).
	Spans *collpb.ExportTraceServiceRequest
	// SpansJSON, set instead of Spans, is an OTLP batch already written as its journal line
	// (TranscodeJSON's Line), of NSpans spans.
	SpansJSON []byte
	NSpans    int
	// Events are canonical event lines, each one JSON object without its newline.
	Events [][]byte
}

type pending struct {
	spansLine []byte
	nspans    int
	events    []byte
	nevents   int
	done      chan error
}

// Open opens (creating it if needed) the data directory dir: it truncates a torn last journal
// line, reads the journal once (counting what it holds and projecting it), and writes the
// projection's rows as the whole index.
func Open(dir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: creating %s: %w", dir, err)
	}
	s := &Store{dir: dir, clock: opts.Clock, closing: make(chan struct{}), dirty: make(chan struct{}, 1), subs: map[chan uint64]struct{}{}}
	if s.clock == nil {
		s.clock = time.Now
	}
	q := opts.Queue
	if q <= 0 {
		q = 64
	}
	s.queue = make(chan *pending, q)
	var err error
	var n int64
	spansPath, eventsPath := filepath.Join(dir, SpansFile), filepath.Join(dir, EventsFile)
	s.p = newProj(spansPath, eventsPath, opts.KeepEvents)
	// one pass over each journal file: count its records and feed them to the projection
	if s.spans, n, s.spansSize, err = openJournal(spansPath, func(line []byte) (int, error) {
		n, clean := s.p.spansRecord(line)
		if s.p.kept > 2*s.p.keep {
			s.p.pass(0) // projects what the records gave and drops the oldest events
		}
		if clean {
			return n, nil
		}
		return countSpans(line) // a record the reader had a problem with: count it exactly
	}); err != nil {
		return nil, err
	}
	s.received.Store(n)
	if s.events, n, s.eventsSize, err = openJournal(eventsPath, func(line []byte) (int, error) {
		s.p.events(line)
		return 1, nil
	}); err != nil {
		s.spans.Close()
		return nil, err
	}
	s.evCount.Store(n)
	if s.idx, err = openIndex(filepath.Join(dir, IndexFile)); err != nil {
		s.spans.Close()
		s.events.Close()
		return nil, err
	}
	s.p.pass(0)
	s.spansDone, s.eventsDone = s.spansSize, s.eventsSize
	if err := s.idx.replace(s.allRows(), s.spansSize+s.eventsSize); err != nil {
		s.closeFiles()
		return nil, err
	}
	if opts.hold != nil {
		s.held, s.release = opts.hold()
	}
	s.wg.Add(2)
	go s.writer()
	go s.projector()
	return s, nil
}

// openJournal opens a journal for appending, truncating a torn last line (one without its
// newline: its write was never acknowledged), and counts its records with count.
func openJournal(path string, count func(line []byte) (int, error)) (f *os.File, records, size int64, err error) {
	f, records, err = openJournal1(path, count)
	if err == nil {
		size, err = f.Seek(0, io.SeekCurrent)
	}
	return f, records, size, err
}

func openJournal1(path string, count func(line []byte) (int, error)) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, fmt.Errorf("store: %w", err)
	}
	good, err := lastNewline(f)
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("store: reading %s: %w", path, err)
	}
	if fi, err := f.Stat(); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("store: %w", err)
	} else if good < fi.Size() {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, 0, fmt.Errorf("store: truncating the torn last line of %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, 0, fmt.Errorf("store: %s: %w", path, err)
		}
	}
	// the records a line at a time (the journal is not read into memory whole)
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, good), 1<<20)
	var n int64
	var long []byte // a line longer than the reader's buffer
	for line := 1; ; {
		part, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, part...)
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return nil, 0, fmt.Errorf("store: reading %s: %w", path, err)
		}
		rec := part
		if long != nil {
			rec = append(long, part...)
		}
		c, err := count(rec[:len(rec)-1])
		long = nil
		if err != nil {
			f.Close()
			return nil, 0, fmt.Errorf("store: %s:%d: %w", path, line, err)
		}
		n += int64(c)
		line++
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("store: %s: %w", path, err)
	}
	return f, n, nil
}

// lastNewline is the length of f up to its last newline (0 when it has none): what is after
// it is a line cut short, never acknowledged. It reads f backwards from its end.
func lastNewline(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 64<<10)
	for end := fi.Size(); end > 0; {
		start := max(0, end-int64(len(buf)))
		b := buf[:end-start]
		if _, err := f.ReadAt(b, start); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

func countSpans(line []byte) (int, error) {
	var req collpb.ExportTraceServiceRequest
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(line, &req); err != nil {
		return 0, fmt.Errorf("not an OTLP ExportTraceServiceRequest: %w", err)
	}
	return SpanCount(&req), nil
}

// SpanCount counts the spans of a request.
func SpanCount(req *collpb.ExportTraceServiceRequest) int {
	n := 0
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			n += len(ss.GetSpans())
		}
	}
	return n
}

// Append journals b and returns once it is on disk (fsynced). It returns ErrBusy at once when
// the queue is full and ErrClosed when the store is closing.
func (s *Store) Append(ctx context.Context, b Batch) error {
	p := &pending{done: make(chan error, 1)}
	if len(b.SpansJSON) > 0 && string(b.SpansJSON) != "{}" {
		p.spansLine = append(b.SpansJSON, '\n')
		p.nspans = b.NSpans
	} else if b.Spans != nil && len(b.Spans.GetResourceSpans()) > 0 {
		// the JSON line is about twice the protobuf (base64 ids, field names): sized once
		line, err := AppendJSON(make([]byte, 0, 2*proto.Size(b.Spans)+1024), b.Spans)
		if err != nil {
			return fmt.Errorf("store: encoding the batch: %w", err)
		}
		p.spansLine = append(line, '\n')
		p.nspans = SpanCount(b.Spans)
	}
	for _, ev := range b.Events {
		p.events = append(p.events, ev...)
		p.events = append(p.events, '\n')
	}
	p.nevents = len(b.Events)
	if p.spansLine == nil && p.events == nil {
		return nil
	}
	select {
	case <-s.closing:
		return ErrClosed
	default:
	}
	s.inflight.Add(1)
	s.appends.Add(1)
	select {
	case s.queue <- p:
	default:
		s.inflight.Add(-1)
		return ErrBusy
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		// the write goes on; the client will retry and may duplicate, never lose
		return ctx.Err()
	}
}

// writer appends queued batches, several at a time, and fsyncs once for all of them.
func (s *Store) writer() {
	defer s.wg.Done()
	for {
		var first *pending
		select {
		case first = <-s.queue:
		case <-s.closing:
			s.drain()
			return
		}
		group := []*pending{first}
	more:
		for len(group) < 256 {
			select {
			case p := <-s.queue:
				group = append(group, p)
			default:
				break more
			}
		}
		if s.held != nil {
			select {
			case s.held <- len(group):
			case <-s.closing:
			}
			<-s.release
		}
		s.commit(group)
	}
}

func (s *Store) drain() {
	for {
		select {
		case p := <-s.queue:
			s.commit([]*pending{p})
		default:
			return
		}
	}
}

func (s *Store) commit(group []*pending) {
	var nspans, nevents, spLen, evLen int
	for _, p := range group {
		spLen += len(p.spansLine)
		evLen += len(p.events)
		nspans += p.nspans
		nevents += p.nevents
	}
	// one buffer of the right size each (a group of one is its own line): under load the
	// concatenation was a third of the writer's time, regrowing; the projection takes them
	// as they are
	sp, ev := group[0].spansLine, group[0].events
	if len(group) > 1 {
		sp, ev = make([]byte, 0, spLen), make([]byte, 0, evLen)
		for _, p := range group {
			sp = append(sp, p.spansLine...)
			ev = append(ev, p.events...)
		}
	}
	err := appendSync(s.spans, sp)
	if err == nil {
		err = appendSync(s.events, ev)
	}
	if err == nil {
		s.mu.Lock()
		s.spansSize += int64(len(sp))
		s.eventsSize += int64(len(ev))
		s.mu.Unlock()
		s.received.Add(int64(nspans))
		s.evCount.Add(int64(nevents))
		s.mu.Lock()
		if s.behind.IsZero() {
			s.behind = s.clock()
		}
		s.ackGen++
		s.mu.Unlock()
		select {
		case s.dirty <- struct{}{}:
		default:
		}
	}
	for _, p := range group {
		p.done <- err
	}
	s.inflight.Add(-int64(len(group)))
}

func appendSync(f *os.File, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("store: appending to %s: %w", f.Name(), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("store: fsync %s: %w", f.Name(), err)
	}
	return nil
}

// projector projects the batches acknowledged, a chunk at a time; those that arrive while it
// works are taken by the next chunks. While batches are being written it works only part of
// the time (yield).
func (s *Store) projector() {
	defer s.wg.Done()
	var worked time.Duration
	seen := s.appends.Load()
	for {
		select {
		case <-s.closing:
			return
		case <-s.dirty:
		}
		if !s.yield(worked, seen) {
			return // closing: the next open projects the rest
		}
		start := time.Now()
		seen = s.appends.Load()
		more, _ := s.project() // an index error leaves the index behind; the next batch tries again
		worked = time.Since(start)
		if more {
			select {
			case s.dirty <- struct{}{}:
			default:
			}
		}
	}
}

// busyShare is the share of its time the projector works while batches are being written:
// after a chunk it waits (busyShare-1) times as long as the chunk took, so that taking
// batches to disk and acknowledging them — what a client waits for — keeps the CPU it needs,
// and the projection (the index, the UI; the journal is the truth) catches up at full speed
// once they stop. The wait ends early when none is in flight.
const busyShare = 4

// yieldFor is how long the projector waits after a chunk that took worked: busy tells
// whether batches are being written.
func yieldFor(worked time.Duration, busy bool) time.Duration {
	if !busy {
		return 0
	}
	return worked * (busyShare - 1)
}

// chunk is how much of the journal one projection pass reads at most (a record larger than
// that is read whole): a projection far behind the writer goes through its backlog in passes
// of about this size, each updating the index and dropping the oldest sealed events, so what
// it holds does not grow with the backlog.
const chunk = 4 << 20

// project feeds the next chunk of the journal records acknowledged and not projected yet to
// the projection, read back from the files, updates the index rows of the sessions that
// changed and tells the subscribers; more tells that acknowledged records remain.
func (s *Store) project() (more bool, err error) {
	s.mu.Lock()
	gen := s.ackGen
	spEnd, evEnd := s.spansSize, s.eventsSize
	s.mu.Unlock()
	sp, err := readChunk(s.spans, s.spansDone, spEnd)
	if err != nil {
		return false, err // the next batch tries again
	}
	ev, err := readChunk(s.events, s.eventsDone, evEnd)
	if err != nil {
		return false, err
	}
	s.vmu.Lock()
	s.p.spans(sp)
	s.p.events(ev)
	s.spansDone += int64(len(sp))
	s.eventsDone += int64(len(ev))
	changed, _ := s.p.pass(gen)
	var ids []string
	var rows []RunRow
	for _, se := range changed {
		ids = append(ids, se.id)
		rows = append(rows, se.rows...)
	}
	s.vmu.Unlock()
	err = s.idx.update(ids, rows, s.spansDone+s.eventsDone)
	done := s.spansDone >= spEnd && s.eventsDone >= evEnd
	s.mu.Lock()
	if done {
		s.projected = gen
		s.behind = time.Time{}
		if s.ackGen != gen {
			s.behind = s.clock()
		}
	}
	s.mu.Unlock()
	s.notify(gen)
	return !done, err
}

// yield waits as yieldFor says after a chunk that took worked, while batches are coming: one
// was queued since the appends count was seen (when the chunk started), and one is in flight
// or was queued within the last quiet; it returns false when the store is closing.
func (s *Store) yield(worked time.Duration, seen int64) bool {
	d := yieldFor(worked, s.appends.Load() != seen || s.inflight.Load() > 0)
	if d <= 0 {
		return true
	}
	const (
		step  = 5 * time.Millisecond   // how often it looks whether batches are still coming
		quiet = 100 * time.Millisecond // no batch for that long: they stopped
	)
	t := time.NewTicker(min(step, d))
	defer t.Stop()
	last, seen := time.Now(), s.appends.Load()
	for end := last.Add(d); time.Now().Before(end); {
		select {
		case <-s.closing:
			return false
		case <-t.C:
		}
		if n := s.appends.Load(); n != seen || s.inflight.Load() > 0 {
			last, seen = time.Now(), n
		} else if time.Since(last) > quiet {
			return true
		}
	}
	return true
}

// notify tells the subscribers the projection changed.
func (s *Store) notify(gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		select {
		case ch <- gen:
		default:
		}
	}
}

// readChunk reads whole lines of f from off, up to end and about chunk bytes.
func readChunk(f *os.File, off, end int64) ([]byte, error) {
	if off >= end {
		return nil, nil
	}
	buf := make([]byte, min(end-off, chunk))
	for {
		if _, err := f.ReadAt(buf, off); err != nil {
			return nil, fmt.Errorf("store: reading %s back: %w", f.Name(), err)
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return buf[:i+1], nil
		}
		if int64(len(buf)) == end-off {
			return nil, fmt.Errorf("store: %s: the journal does not end its records where it was written", f.Name())
		}
		buf = make([]byte, min(end-off, 4*int64(len(buf)))) // one record longer than a chunk
	}
}

// allRows are the rows of every run (for the whole index at open).
func (s *Store) allRows() []RunRow {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	rows := make([]RunRow, 0, len(s.p.rows))
	for _, r := range s.p.rows {
		rows = append(rows, r)
	}
	SortRuns(rows)
	return rows
}

// Run returns the row of run id as the projection has it now (the index may be a pass behind),
// and the pass that last changed it (compare with an earlier answer to see whether the run
// changed).
func (s *Store) Run(id string) (row RunRow, gen uint64, ok bool) {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	row, ok = s.p.rows[id]
	return row, s.p.runGen[id], ok
}

// RunTree returns the tree of one run: its session with that run and the runs it is the parent
// of (sub-agents, retries), and the findings that concern them; ok is false for an unknown run.
// The tree must not be changed.
func (s *Store) RunTree(id string) (*model.Tree, []model.Finding, bool) {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	se := s.p.sessions[s.p.runSess[id]]
	if se == nil || !se.projected {
		return nil, nil, false
	}
	return s.p.view(se).runTree(id)
}

// Work is what the last projection pass did (its cost in machine-independent units).
func (s *Store) Work() Work {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	return s.p.work
}

// RunCount is how many runs the projection holds.
func (s *Store) RunCount() int {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	return len(s.p.rows)
}

// FindingsByCode counts the findings (info ones aside) by invariant.
func (s *Store) FindingsByCode() map[string]int {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	out := make(map[string]int, len(s.p.codes))
	for k, v := range s.p.codes {
		out[k] = v
	}
	return out
}

// DecodeErrors are the journal records that could not be read (file:line: why).
func (s *Store) DecodeErrors() []string {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	return s.p.decodeErrors()
}

// Subscribe returns a channel that receives the pass number each time the projection changes,
// and a function that ends the subscription. Slow readers miss intermediate changes, never the
// last. Run tells which runs a pass changed.
func (s *Store) Subscribe() (<-chan uint64, func()) {
	ch := make(chan uint64, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}
}

// SortRuns orders rows newest first (by start, then id).
func SortRuns(rows []RunRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		if !rows[i].Start.Equal(rows[j].Start) {
			return rows[i].Start.After(rows[j].Start)
		}
		return rows[i].RunID < rows[j].RunID
	})
}

// Runs queries the index.
func (s *Store) Runs(q Query) ([]RunRow, error) { return s.idx.runs(q) }

// CountRuns counts the indexed runs by status and stop reason.
func (s *Store) CountRuns() ([]StatusCount, error) { return s.idx.countByStatus() }

// CountRejected records n spans the receiver rejected (for the metrics).
func (s *Store) CountRejected(n int) { s.rejected.Add(int64(n)) }

// Counters returns the running totals.
func (s *Store) Counters() Counters {
	c := Counters{Spans: s.received.Load(), Events: s.evCount.Load(), Rejected: s.rejected.Load(), Runs: s.RunCount()}
	s.mu.Lock()
	if !s.behind.IsZero() {
		c.Lag = s.clock().Sub(s.behind)
	}
	s.mu.Unlock()
	return c
}

// Dir is the data directory.
func (s *Store) Dir() string { return s.dir }

// Close stops accepting batches, writes those queued, and closes the journal and the index.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.closing) })
	s.wg.Wait()
	return s.closeFiles()
}

func (s *Store) closeFiles() error {
	return errors.Join(s.spans.Close(), s.events.Close(), s.idx.close())
}

// Wait blocks until the projection includes every batch acknowledged before the call, or ctx ends.
// Tests and graceful shutdown use it.
func (s *Store) Wait(ctx context.Context) error {
	ch, stop := s.Subscribe()
	defer stop()
	s.mu.Lock()
	want := s.ackGen
	s.mu.Unlock()
	for {
		s.mu.Lock()
		done := s.projected >= want
		s.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Journal returns the journal files of the data directory dir that hold records, spans.jsonl
// then events.jsonl, for reading the store as logs (lifeline stats --data DIR); it is an error
// when dir has neither.
func Journal(dir string) ([]string, error) {
	var out []string
	for _, name := range []string{SpansFile, EventsFile} {
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p)
		if err == nil && fi.Size() > 0 {
			out = append(out, p)
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	if len(out) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("store: --data %s: %w", dir, err)
		}
		return nil, fmt.Errorf("store: %s holds no journal: expected %s or %s, as lifeline serve --data %s writes them", dir, SpansFile, EventsFile, dir)
	}
	return out, nil
}
