package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"slices"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/runindex"
	"github.com/lifeline-dev/lifeline/tracer/canonical"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
)

// RunRow, Query, StatusCount and Counters are the model-level values the store answers with
// (model/runindex).
type (
	RunRow      = runindex.Row
	Query       = runindex.Query
	StatusCount = runindex.StatusCount
	Counters    = runindex.Counters
)

// proj is the projection of the journal, kept up to date record by record.
//
// It reads the journal as `lifeline timeline DIR` would (tracer/otlp for spans.jsonl, the
// canonical reader for events.jsonl) but never from the start again: the OTLP reader is a
// Stream fed each new record, which emits a trace once its root span arrived and FlushLag more
// spans passed (as it does over a file); the traces it still holds are shown as the end of a
// file would show them by a provisional flush over copies (Stream.Provisional), redone at
// each pass and cheap because the held traces are few. Events are kept per session, a
// session's span events only while it is among those projected last (keep, evict): the others
// are emitted again from the journal (sealedAll) when needed. A pass re-projects
// (model.Projector, model.Checker) only the sessions that got events, or whose provisional
// events changed, and the run index is updated for those sessions only.
//
// A session is projected alone, in the order the file readers give its events: its span events,
// then its provisional ones, then its canonical ones. Per session this is the order a whole
// read of the journal gives, so a session projects as it would there; what a whole read sees
// across sessions (one run id reused in two sessions, a seq gap held across sessions) is not
// modelled.
type proj struct {
	spansEm    *ingest.Emitter
	stream     *otlp.Stream
	spansLine  int
	eventsEm   *ingest.Emitter
	dec        model.LineDecoder
	eventsLine int

	sessions map[string]*sess
	touched  map[string]bool // sessions whose events changed since the last pass
	provHad  map[string]bool // sessions the last provisional flush gave events
	provErrs []*ingest.DecodeError
	canon    bool // the sink is taking canonical events

	runSess map[string]string // run id → its session's id
	rows    map[string]RunRow // run id → its row
	runGen  map[string]uint64 // run id → the pass that last changed it
	codes   map[string]int    // findings (info aside) by invariant

	// where the spans' traces went, to re-place a late span (see replace): the sessions each
	// emitted trace gave events to, the traces each session got events from (in the order they
	// were emitted), the emission number of each trace; cur is the trace being emitted.
	traceSess  map[string][]string
	sessTraces map[string][]string
	flushAt    map[string]int
	nflush     int
	cur        string
	replayed   int // traces emitted again since the last pass
	// offs are the offsets in spans.jsonl of the records fed (by line - 1), spansOff the end of
	// the last: a late span's trace is read again from the journal (reread), not kept
	offs     []int64
	spansOff int64
	journal  string

	// pend are the span events emitted since the last settle, pendN their count by session.
	pend  []model.Event
	pendN map[string]int

	// keep bounds the sealed span events held in memory (see evict): kept is how many are,
	// recent the sessions holding them, in the order they were first projected holding them.
	keep   int
	kept   int
	recent []*sess

	// regenErr is the last failure to read a session's records again (sealedAll): the
	// journal is fsynced and only appended to, so it is a damaged or changed file
	regenErr error

	// work is what the last pass did: sessions re-projected, events applied to them, and the
	// provisional events of the held traces (Store.Work).
	work Work
}

// Work is what one projection pass did: the cost of a batch in units that do not depend on the
// machine (TestWorkFlat checks it does not grow with the store).
type Work struct {
	// Sessions re-projected and the Events they were re-projected from.
	Sessions, Events int
	// Provisional are the events of the traces still held, flushed again at the pass.
	Provisional int
	// Held are the spans of the traces still held (what the provisional flush copies).
	Held int
	// Replayed are the traces emitted again since the last pass, to re-place late spans.
	Replayed int
}

// sess is one session's events and projection.
type sess struct {
	id                  string
	sealed, prov, canon []model.Event
	nevents             int    // events at the last projection
	provSig             uint64 // digest of prov at the last projection

	// nsealed is how many span events the session has; when dropped is set, the sealed
	// events emitted before the drop are not in memory (sealed holds only those since) and
	// are emitted again from the journal when the session is projected or viewed (sealedAll).
	nsealed int
	dropped bool
	queued  bool // in proj.recent

	// projected tells a session projected at least once; what the projection gives that the
	// index and the totals need is kept (rows, codes), the tree and findings are projected
	// again when asked for (view): a pointer-heavy tree a session is the bulk of what a store
	// would keep of it, and is asked for only by a page showing the run.
	projected bool
	rows      []RunRow
	codes     map[string]int
}

// view projects a session's events as they are now (reading its dropped events again).
func (p *proj) view(s *sess) *view {
	sealed, _ := p.sealedAll(s)
	return s.view(sealed)
}

// view is what a session's events project to: its tree (this session alone), the findings
// and the run of each node.
type view struct {
	tree     *model.Tree
	findings []model.Finding
	runOf    map[string]string // node id → run id
}

// DefaultKeepEvents is how many sealed span events a store keeps in memory, those of the
// sessions projected last (Options.KeepEvents).
const DefaultKeepEvents = 1 << 14

// newProj returns an empty projection keeping up to keep sealed span events in memory (none
// when keep < 0, DefaultKeepEvents when 0).
func newProj(spansFile, eventsFile string, keep int) *proj {
	if keep == 0 {
		keep = DefaultKeepEvents
	}
	p := &proj{keep: max(keep, 0), sessions: map[string]*sess{}, touched: map[string]bool{}, provHad: map[string]bool{},
		runSess: map[string]string{}, rows: map[string]RunRow{}, runGen: map[string]uint64{}, codes: map[string]int{}}
	p.spansEm = ingest.NewEmitter(p.sink)
	p.spansEm.File = spansFile
	p.stream = otlp.NewStream(p.spansEm)
	p.traceSess, p.sessTraces, p.flushAt = map[string][]string{}, map[string][]string{}, map[string]int{}
	p.pendN = map[string]int{}
	p.journal = spansFile
	p.stream.Reread = p.reread
	p.stream.Flushing = func(id string) {
		p.cur = id
		p.nflush++
		p.flushAt[id] = p.nflush
	}
	p.eventsEm = ingest.NewEmitter(p.sink)
	p.eventsEm.File = eventsFile
	p.dec.KeepText = true
	return p
}

func (p *proj) sess(id string) *sess {
	s := p.sessions[id]
	if s == nil {
		s = &sess{id: id}
		p.sessions[id] = s
	}
	p.touched[id] = true
	return s
}

// sink keeps a copy of each event (the decoders reuse the Event; what it points to stays).
func (p *proj) sink(ev *model.Event) {
	s := p.sess(ev.SessionID)
	if p.canon {
		s.canon = append(s.canon, *ev)
		return
	}
	p.pend = append(p.pend, *ev)
	if p.cur != "" {
		p.note(p.cur, ev.SessionID)
	}
}

// note records that trace gave events to session.
func (p *proj) note(trace, session string) {
	ss := p.traceSess[trace]
	for _, x := range ss {
		if x == session {
			return
		}
	}
	p.traceSess[trace] = append(ss, session)
	p.sessTraces[session] = append(p.sessTraces[session], trace)
}

// spans reads the records of spans.jsonl lines (each ending in a newline).
func (p *proj) spans(data []byte) {
	eachLine(data, func(line []byte) { p.spansRecord(line) })
}

// spansRecord reads one record of spans.jsonl and returns its spans and whether it was read
// without a problem.
func (p *proj) spansRecord(line []byte) (int, bool) {
	p.canon = false
	p.spansLine++
	p.offs = append(p.offs, p.spansOff)
	p.spansOff += int64(len(line)) + 1
	n, clean := p.stream.Record(line, p.spansLine)
	p.cur = ""
	p.settle()
	if late := p.stream.Late(); len(late) > 0 {
		p.replace(late)
		p.settle()
	}
	return n, clean
}

// reread reads line of spans.jsonl again (on disk: a record is fed once fsynced).
func (p *proj) reread(line int) ([]byte, error) {
	if line < 1 || line > len(p.offs) {
		return nil, fmt.Errorf("%s:%d: no such record", p.journal, line)
	}
	end := p.spansOff
	if line < len(p.offs) {
		end = p.offs[line]
	}
	f, err := os.Open(p.journal)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, end-p.offs[line-1])
	if _, err := f.ReadAt(buf, p.offs[line-1]); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", p.journal, line, err)
	}
	if len(buf) == 0 || buf[len(buf)-1] != '\n' {
		return nil, fmt.Errorf("%s:%d: the record is not where it was read", p.journal, line)
	}
	return buf[:len(buf)-1], nil
}

// settle appends the span events emitted since the last settle to their sessions' sealed
// lists, growing each list once by what it gets (a session's events come in one burst, when
// its trace is emitted: appends one by one would leave up to half of each list unused).
func (p *proj) settle() {
	if len(p.pend) == 0 {
		return
	}
	for i := range p.pend {
		p.pendN[p.pend[i].SessionID]++
	}
	for id, n := range p.pendN {
		if s := p.sessions[id]; cap(s.sealed)-len(s.sealed) < n {
			s.sealed = slices.Grow(s.sealed, max(n, len(s.sealed)))
		}
	}
	for i := range p.pend {
		s := p.sessions[p.pend[i].SessionID]
		s.sealed = append(s.sealed, p.pend[i])
		s.nsealed++
	}
	p.kept += len(p.pend)
	clear(p.pend)
	p.pend = p.pend[:0]
	clear(p.pendN)
}

// connected returns the traces reachable from start through the sessions they share, and
// marks those sessions in sessions.
func (p *proj) connected(start []string, sessions map[string]bool) map[string]bool {
	traces := map[string]bool{}
	todo := append([]string(nil), start...)
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if traces[id] {
			continue
		}
		traces[id] = true
		for _, se := range p.traceSess[id] {
			if !sessions[se] {
				sessions[se] = true
				todo = append(todo, p.sessTraces[se]...)
			}
		}
	}
	return traces
}

// replace re-places the late spans of traces already emitted: the sessions those traces gave
// events to (and the sessions of every trace those sessions got events from) drop their span
// events, and their traces are emitted again, in the order they were first emitted, each with
// all its spans, as a read with a trace's spans together gives them. The cost is that of the
// sessions the late spans belong to.
func (p *proj) replace(late []string) {
	sessions := map[string]bool{}
	traces := p.connected(late, sessions)
	order := make([]string, 0, len(traces))
	for id := range traces {
		order = append(order, id)
		delete(p.traceSess, id)
	}
	slices.SortFunc(order, func(a, b string) int { return p.flushAt[a] - p.flushAt[b] })
	for se := range sessions {
		if s := p.sessions[se]; s != nil {
			p.kept -= len(s.sealed)
			s.sealed, s.nsealed, s.dropped = nil, 0, false
			p.touched[se] = true
		}
		delete(p.sessTraces, se)
	}
	em := ingest.NewEmitter(p.sink)
	em.File = p.spansEm.File
	at := p.flushAt
	p.flushAt = map[string]int{} // the replay renumbers them: keep the first numbers
	if err := p.stream.Replay(em, order, sessions); err != nil {
		p.spansEm.Error(p.spansLine, err)
	}
	p.cur = ""
	for _, id := range order {
		if n, ok := at[id]; ok {
			at[id] = n
		}
	}
	p.flushAt = at
	for _, id := range order {
		for _, se := range p.traceSess[id] {
			sessions[se] = true
		}
	}
	for se := range sessions {
		p.spansEm.SetSeq(se, em.Seq(se))
	}
	p.replayed += len(order)
}

// events reads lines of events.jsonl.
func (p *proj) events(data []byte) {
	p.canon = true
	eachLine(data, func(line []byte) {
		p.eventsLine++
		canonical.DecodeLine(&p.dec, line, p.eventsLine, p.eventsEm)
	})
	p.canon = false
}

func eachLine(data []byte, fn func([]byte)) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			fn(data)
			return
		}
		fn(data[:i])
		data = data[i+1:]
	}
}

// pass flushes the held traces provisionally and re-projects the sessions that changed; it
// returns those sessions (in no order) and the runs that changed, stamped with gen.
func (p *proj) pass(gen uint64) (changed []*sess, runsChanged int) {
	for id := range p.provHad {
		if s := p.sessions[id]; s != nil {
			s.prov = nil
			p.touched[id] = true
		}
	}
	had := map[string]bool{}
	fork := p.spansEm.Fork(func(ev *model.Event) {
		s := p.sess(ev.SessionID)
		s.prov = append(s.prov, *ev)
		had[ev.SessionID] = true
	})
	p.stream.Provisional(fork)
	p.provHad = had
	p.work = Work{Held: p.stream.Held(), Replayed: p.replayed}
	p.replayed = 0
	p.provErrs, _ = fork.Errors()
	// a session given the same provisional events again, and nothing else, is as it was
	type change struct {
		s   *sess
		n   int
		sig uint64
	}
	var todo []change
	for id := range p.touched {
		s := p.sessions[id]
		c := change{s: s, n: s.nsealed + len(s.prov) + len(s.canon), sig: digest(s.prov)}
		if s.projected && c.n == s.nevents && c.sig == s.provSig {
			continue
		}
		todo = append(todo, c)
	}
	clear(p.touched)
	// first take out what the touched sessions held (a run may move from one to another: a
	// provisional trace that a later span places in an earlier trace's session), then add
	prev := map[string]RunRow{}
	for _, c := range todo {
		s := c.s
		for _, r := range s.rows {
			if p.runSess[r.RunID] == s.id {
				prev[r.RunID] = r
				delete(p.rows, r.RunID)
				delete(p.runSess, r.RunID)
			}
		}
		for k, c := range s.codes {
			if p.codes[k] -= c; p.codes[k] <= 0 {
				delete(p.codes, k)
			}
		}
	}
	for _, c := range todo {
		s, n := c.s, c.n
		p.project(s)
		s.nevents, s.provSig = n, c.sig
		p.work.Sessions++
		p.work.Events += n
		p.work.Provisional += len(s.prov)
		for _, r := range s.rows {
			p.rows[r.RunID] = r
			p.runSess[r.RunID] = s.id
			p.runGen[r.RunID] = gen // its session's events changed
			runsChanged++
		}
		for k, c := range s.codes {
			p.codes[k] += c
		}
		changed = append(changed, s)
	}
	for id := range prev {
		if _, still := p.rows[id]; !still {
			delete(p.runGen, id)
			runsChanged++
		}
	}
	p.evict()
	return changed, runsChanged
}

// evict drops the sealed events of the sessions projected longest ago while more than keep
// are held: what a session's projection gives the index and the totals is kept (rows, codes),
// and its events come back from the journal (sealedAll) when it is projected again or a page
// shows one of its runs. So the memory the events take is bounded, not that of every span
// ever received.
func (p *proj) evict() {
	for p.kept > p.keep && len(p.recent) > 0 {
		s := p.recent[0]
		p.recent[0] = nil
		p.recent = p.recent[1:]
		s.queued = false
		if !s.dropped {
			p.kept -= len(s.sealed)
			s.sealed, s.dropped = nil, true
		}
	}
	if len(p.recent) == 0 {
		p.recent = nil // let the backing array go
	}
}

// project rebuilds a session's rows and findings by invariant from its events, after bringing
// back its sealed events if they were dropped, and queues it for evict.
func (p *proj) project(s *sess) {
	if s.dropped {
		// what was emitted since the drop is in the journal too: read it all again
		p.kept -= len(s.sealed)
		var err error
		if s.sealed, err = p.sealedAll(s); err != nil {
			p.regenErr = err
		}
		s.nsealed, s.dropped = len(s.sealed), false
		p.kept += len(s.sealed)
	}
	s.project(s.sealed)
	if len(s.sealed) > 0 && !s.queued {
		s.queued = true
		p.recent = append(p.recent, s)
	}
}

// sealedAll are a session's sealed events: those held, or, when they were dropped, those its
// traces emit read again from the journal (with the traces of every session they gave events
// to, in the order they were emitted: as replace emits them). It changes nothing (a page may
// call it while others do). An error is a journal record that could not be read again: the
// events are those of the records that could.
func (p *proj) sealedAll(s *sess) ([]model.Event, error) {
	if !s.dropped {
		return s.sealed, nil
	}
	sessions := map[string]bool{s.id: true}
	traces := p.connected(p.sessTraces[s.id], sessions)
	order := make([]string, 0, len(traces))
	for id := range traces {
		order = append(order, id)
	}
	slices.SortFunc(order, func(a, b string) int { return p.flushAt[a] - p.flushAt[b] })
	out := make([]model.Event, 0, s.nsealed)
	em := ingest.NewEmitter(func(ev *model.Event) {
		if ev.SessionID == s.id {
			out = append(out, *ev)
		}
	})
	em.File = p.spansEm.File
	err := p.stream.Events(em, order)
	return out, err
}

// digest sums up events (provisional ones, few), to tell whether a held trace changed.
func digest(evs []model.Event) uint64 {
	if len(evs) == 0 {
		return 0
	}
	h := fnv.New64a()
	for i := range evs {
		b, _ := json.Marshal(&evs[i])
		h.Write(b)
	}
	return h.Sum64()
}

// project rebuilds the session's rows and findings by invariant from its events (sealed, its
// sealed span events, and its provisional and canonical ones).
func (s *sess) project(sealed []model.Event) {
	v := s.view(sealed)
	s.rows, s.codes = v.rows()
	s.projected = true
}

// view projects the session's events (model.Projector, model.Checker): sealed (its sealed
// span events, see proj.sealedAll), then its provisional and canonical ones.
func (s *sess) view(sealed []model.Event) *view {
	pr := model.NewProjector()
	ck := model.NewChecker()
	var a, b model.Event // each reader may change its event (neither keeps it)
	for _, list := range [][]model.Event{sealed, s.prov, s.canon} {
		for i := range list {
			a, b = list[i], list[i]
			ck.Check(&a)
			pr.Apply(&b)
		}
	}
	return newView(pr.Tree(), ck.Finish())
}

// newView indexes a tree and its findings: the run of each node.
func newView(tree *model.Tree, findings []model.Finding) *view {
	v := &view{tree: tree, findings: findings, runOf: map[string]string{}}
	for _, se := range tree.Sessions {
		for _, r := range se.Runs {
			v.runOf[r.ID] = r.ID
			for _, t := range r.Turns {
				v.runOf[t.ID] = r.ID
				for _, st := range t.Steps {
					v.runOf[st.ID] = r.ID
					for _, m := range st.ModelCalls {
						v.runOf[m.ID] = r.ID
					}
					for _, c := range st.ToolCalls {
						v.runOf[c.ID] = r.ID
					}
				}
			}
		}
	}
	return v
}

// rows are the runs' rows, and codes the findings (info aside) by invariant.
func (v *view) rows() (rows []RunRow, codes map[string]int) {
	perRun := map[string]int{}
	codes = map[string]int{}
	for _, f := range v.findings {
		if f.Severity == model.SevInfo {
			continue
		}
		codes[f.Code]++
		if r := v.findingRun(f); r != "" {
			perRun[r]++
		}
	}
	for _, se := range v.tree.Sessions {
		for _, r := range se.Runs {
			rows = append(rows, rowOf(se, r, perRun[r.ID]))
		}
	}
	return rows, codes
}

func rowOf(se *model.Session, r *model.Run, findings int) RunRow {
	row := RunRow{RunID: r.ID, SessionID: se.ID, Agent: r.Agent, Status: string(r.Status), StopReason: string(r.StopReason),
		Turns: len(r.Turns), Tokens: r.Usage.Total(), CostUSD: r.Usage.CostUSD, Start: r.Start, Findings: findings}
	if r.Error != nil {
		row.Error = r.Error.Message
		if row.Error == "" {
			row.Error = r.Error.Kind
		}
	}
	if d, ok := r.DurationOK(); ok && r.Ended {
		row.Duration = d
	}
	for _, t := range r.Turns {
		row.Steps += len(t.Steps)
		for _, st := range t.Steps {
			row.ToolCalls += len(st.ToolCalls)
		}
	}
	return row
}

// findingRun is the run a finding concerns: that of its most specific id the session has.
func (v *view) findingRun(f model.Finding) string {
	for _, id := range f.IDs {
		if r, ok := v.runOf[id]; ok {
			return r
		}
	}
	return ""
}

// runTree is the tree of run id of v: its session with that run and the runs it is the parent
// of (sub-agents, retries), and the findings that concern them.
func (v *view) runTree(id string) (*model.Tree, []model.Finding, bool) {
	for _, se := range v.tree.Sessions {
		for _, r := range se.Runs {
			if r.ID != id {
				continue
			}
			keep := map[string]bool{id: true}
			for changed := true; changed; {
				changed = false
				for _, o := range se.Runs {
					if !keep[o.ID] && keep[o.ParentRunID] {
						keep[o.ID], changed = true, true
					}
				}
			}
			cp := *se
			cp.Runs = nil
			cp.Usage = model.Usage{}
			for _, o := range se.Runs {
				if keep[o.ID] {
					cp.Runs = append(cp.Runs, o)
					cp.Usage = cp.Usage.Add(o.Usage)
				}
			}
			var fs []model.Finding
			for _, f := range v.findings {
				if keep[v.findingRun(f)] {
					fs = append(fs, f)
				}
			}
			return &model.Tree{Sessions: []*model.Session{&cp}, Timeless: v.tree.Timeless}, fs, true
		}
	}
	return nil, nil, false
}

// decodeErrors are the journal records that could not be read, file:line: why.
func (p *proj) decodeErrors() []string {
	var out []string
	for _, em := range []*ingest.Emitter{p.spansEm, p.eventsEm} {
		errs, _ := em.Errors()
		for _, e := range errs {
			out = append(out, e.Error())
		}
	}
	for _, e := range p.provErrs {
		out = append(out, e.Error())
	}
	if p.regenErr != nil {
		out = append(out, p.regenErr.Error())
	}
	return out
}
