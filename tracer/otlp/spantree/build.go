package spantree

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"
	"weak"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// FlushLag is how many spans after a trace's root span arrived the Builder waits for late
// children before it emits the trace (exporters send a span when it ends, so children come
// first; a batch exporter may still deliver a few late ones).
const FlushLag = 256

// shared is what the Builders of one Emitter (one `lifeline` invocation over several files) share:
// the sessions already started and the tool call ids already used, so that one session spread
// over several files is started once and ids stay unique.
type shared struct {
	mu       sync.Mutex
	sessions map[string]bool
	calls    map[string]map[string]struct{} // by session: the tool call ids used in it
	runs     map[string]bool
	// waiting maps the id of a tool call a run waits to have approved to that run: a later trace
	// that runs the call or answers its approval continues it (AI SDK tool approvals, where
	// the continuation is a new generateText call, so a new trace).
	waiting map[string]waitingRun
	// conv maps the history digest of a model call's whole input to its session (see
	// Span.History).
	conv map[uint64]string
	// base, when set, is read through for what this state lacks, and never written: the state
	// of a provisional Builder (see Provisional). gone are the waiting entries taken out here.
	base *shared
	gone map[string]bool
}

func newShared() *shared {
	return &shared{sessions: map[string]bool{}, calls: map[string]map[string]struct{}{}, runs: map[string]bool{}, waiting: map[string]waitingRun{}, conv: map[uint64]string{}}
}

// The accessors below are called with mu held; base is not locked (it must not change while an
// overlay over it is in use).

func (s *shared) session(id string) bool {
	return s.sessions[id] || (s.base != nil && s.base.session(id))
}

func (s *shared) run(key string) bool { return s.runs[key] || (s.base != nil && s.base.run(key)) }

func (s *shared) callUsed(session, id string) bool {
	if _, ok := s.calls[session][id]; ok {
		return true
	}
	return s.base != nil && s.base.callUsed(session, id)
}

func (s *shared) convOf(h uint64) (string, bool) {
	if v, ok := s.conv[h]; ok {
		return v, true
	}
	if s.base != nil {
		return s.base.convOf(h)
	}
	return "", false
}

func (s *shared) waitingFor(id string) (waitingRun, bool) {
	if w, ok := s.waiting[id]; ok {
		return w, true
	}
	if s.base != nil && !s.gone[id] {
		return s.base.waitingFor(id)
	}
	return waitingRun{}, false
}

func (s *shared) anyWaiting() bool {
	if len(s.waiting) > 0 {
		return true
	}
	return s.base != nil && s.base.anyWaiting() // may be all gone: a hint, not an answer
}

func (s *shared) setWaiting(id string, w waitingRun) {
	s.waiting[id] = w
	delete(s.gone, id)
}

func (s *shared) unwait(id string) {
	delete(s.waiting, id)
	if s.base != nil {
		if s.gone == nil {
			s.gone = map[string]bool{}
		}
		s.gone[id] = true
	}
}

// waitingRun is a run left waiting for the approval of a tool call.
type waitingRun struct {
	session, run string
}

// emitters maps a weak pointer to an Emitter to its shared state; the entry goes away with the
// Emitter.
var emitters sync.Map // weak.Pointer[ingest.Emitter] → *shared

func sharedOf(em *ingest.Emitter) *shared {
	key := weak.Make(em)
	if v, ok := emitters.Load(key); ok {
		return v.(*shared)
	}
	v, loaded := emitters.LoadOrStore(key, newShared())
	if !loaded {
		runtime.AddCleanup(em, func(k weak.Pointer[ingest.Emitter]) { emitters.Delete(k) }, key)
	}
	return v.(*shared)
}

// Builder collects the spans of one input and emits canonical events trace by trace.
type Builder struct {
	// Format names the format in error messages ("otlp", "openai").
	Format string
	em     *ingest.Emitter
	sh     *shared
	traces map[string]*trace
	done   map[string]bool
	order  int
	// ready lists traces whose root arrived, with the record count at that time.
	ready []readyTrace
	// scratch is the event being built (see ev); origin is the last span's Origin.
	scratch  model.Event
	originOf *Span
	origin   *model.Origin

	// Late, when set, takes the spans of traces already emitted instead of their being reported
	// as not placed (lifeline serve re-places them: see otlp.Stream).
	Late func(sp *Span)
	// Flushing, when set, is called with a trace's id as the Builder starts emitting it.
	Flushing func(traceID string)
	// LateHint, when set, ends the report of a late span not placed (how it would be).
	LateHint string
	// Holds, when set, names traces to hold back until a span of a line at or after the one
	// given has been added (their spans come far apart in the input), whatever FlushLag says.
	Holds *Holds
	// line is the last line a span was added from; held are the traces whose root came more
	// than FlushLag spans ago, held back by Holds.
	line int
	held []readyTrace
}

type readyTrace struct {
	id string
	at int
}

type trace struct {
	id       string
	spans    []*Span
	session  string
	name     string
	infoLine int
	first    int
}

// NewBuilder returns a Builder emitting to em.
func NewBuilder(format string, em *ingest.Emitter) *Builder {
	return &Builder{Format: format, em: em, sh: sharedOf(em), traces: map[string]*trace{}, done: map[string]bool{}}
}

func (b *Builder) trace(id string) *trace {
	t := b.traces[id]
	if t == nil {
		t = &trace{id: id, first: b.order}
		b.traces[id] = t
	}
	return t
}

// SetTraceInfo records what a trace-level record says (OpenAI trace objects): the session
// (group id) and the workflow name.
func (b *Builder) SetTraceInfo(traceID, session, name string, line int) {
	if b.done[traceID] {
		return
	}
	t := b.trace(traceID)
	if session != "" {
		t.session = session
	}
	if name != "" {
		t.name = name
	}
	t.infoLine = line
}

// Add takes one span. Spans of a trace already emitted are reported and dropped.
func (b *Builder) Add(sp *Span) {
	b.order++
	sp.Order = b.order
	b.line = max(b.line, sp.Line)
	if sp.File == "" {
		sp.File = b.em.File
	}
	if b.done[sp.TraceID] {
		if b.Late != nil {
			b.Late(sp)
			return
		}
		b.em.Errorf(sp.Line, "%s: span %s of trace %s arrived more than %d spans after the trace's root span and was not placed (expected a trace's spans close together%s)", b.Format, sp.ID, sp.TraceID, FlushLag, b.LateHint)
		return
	}
	t := b.trace(sp.TraceID)
	t.spans = append(t.spans, sp)
	if sp.Parent == "" && (sp.Layer == Run || sp.Layer == Session || sp.Explicit == nil) {
		b.ready = append(b.ready, readyTrace{sp.TraceID, b.order})
	}
}

// Provisional returns a Builder holding copies of the traces b holds and reading b's shared
// state (sessions started, call and run ids used, runs waiting, conversations) through an
// overlay, emitting to em: its Flush emits what b.Flush would now, and leaves b as it was, so
// that a growing input can be shown as if it ended here and then read on. em is usually a Fork
// of b's Emitter. b must not be used while the provisional Builder is.
func (b *Builder) Provisional(em *ingest.Emitter) *Builder {
	sh := newShared()
	sh.base = b.sh
	p := &Builder{Format: b.Format, em: em, sh: sh, traces: make(map[string]*trace, len(b.traces)), done: map[string]bool{}, order: b.order}
	for id, t := range b.traces {
		cp := *t
		cp.spans = make([]*Span, len(t.spans))
		for i, sp := range t.spans {
			c := *sp // flushing changes a span's own fields, never what they point to
			cp.spans[i] = &c
		}
		p.traces[id] = &cp
	}
	return p
}

// Absorb takes into b's shared state what o's Builder recorded (the sessions it started, the
// call and run ids it used, the conversations it saw, the runs it left waiting) for the
// sessions given, replacing what b held about those sessions: o re-emitted their traces
// (otlp.Stream re-placing a late span), and the traces b emits later read o's account of them.
func (b *Builder) Absorb(o *Builder, sessions map[string]bool) {
	if b.sh == o.sh {
		return
	}
	b.sh.mu.Lock()
	defer b.sh.mu.Unlock()
	o.sh.mu.Lock()
	defer o.sh.mu.Unlock()
	for id := range o.sh.sessions {
		b.sh.sessions[id] = true
	}
	for sess, ids := range o.sh.calls {
		m := b.sh.calls[sess]
		if m == nil {
			m = map[string]struct{}{}
			b.sh.calls[sess] = m
		}
		for id := range ids {
			m[id] = struct{}{}
		}
	}
	for k := range o.sh.runs {
		b.sh.runs[k] = true
	}
	for h, sess := range o.sh.conv {
		b.sh.conv[h] = sess
	}
	for id, w := range b.sh.waiting {
		if sessions[w.session] {
			delete(b.sh.waiting, id)
		}
	}
	for id, w := range o.sh.waiting {
		b.sh.waiting[id] = w
	}
}

// Held is how many spans the Builder holds, of traces not emitted yet.
func (b *Builder) Held() int {
	n := 0
	for _, t := range b.traces {
		n += len(t.spans)
	}
	return n
}

// FlushReady emits the traces whose root span arrived at least FlushLag spans ago.
func (b *Builder) FlushReady() {
	if len(b.held) > 0 {
		kept := b.held[:0]
		for _, r := range b.held {
			if t := b.traces[r.id]; t != nil {
				if b.Holds.Until(r.id) > b.line {
					kept = append(kept, r)
					continue
				}
				b.flush(t)
			}
		}
		clear(b.held[len(kept):])
		b.held = kept
	}
	i := 0
	for ; i < len(b.ready) && b.order-b.ready[i].at >= FlushLag; i++ {
		if t := b.traces[b.ready[i].id]; t != nil {
			if b.Holds.Until(t.id) > b.line {
				b.held = append(b.held, b.ready[i])
				continue
			}
			b.flush(t)
		}
	}
	b.ready = b.ready[i:]
}

// Flush emits every trace still held (at the end of the input), in order of first appearance.
func (b *Builder) Flush() {
	ts := make([]*trace, 0, len(b.traces))
	for _, t := range b.traces {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].first < ts[j].first })
	for _, t := range ts {
		b.flush(t)
	}
	b.ready, b.held = nil, nil
}

func (b *Builder) flush(t *trace) {
	delete(b.traces, t.id)
	b.done[t.id] = true
	if b.Flushing != nil {
		b.Flushing(t.id)
	}
	if len(t.spans) == 0 {
		return
	}
	spans := b.dedupe(t)
	explicit := false
	for _, sp := range spans {
		if sp.Explicit != nil {
			explicit = true
			break
		}
	}
	if explicit {
		b.emitExplicit(t, spans)
		return
	}
	b.emitInferred(t, spans)
}

// dedupe drops repeated span ids (exporter retries), keeping the one that ended, else the last.
func (b *Builder) dedupe(t *trace) []*Span {
	byID := make(map[string]*Span, len(t.spans))
	out := t.spans[:0]
	for _, sp := range t.spans {
		old := byID[sp.ID]
		if old == nil {
			byID[sp.ID] = sp
			out = append(out, sp)
			continue
		}
		keep := sp
		if old.Ended && !sp.Ended {
			keep = old
		}
		b.em.Errorf(sp.Line, "%s: duplicate span id %s in trace %s (first at line %d): kept the one that %s", b.Format, sp.ID, t.id, old.Line, map[bool]string{true: "ended", false: "came last"}[keep.Ended])
		if keep != old {
			*old = *keep
		}
	}
	return out
}

// tree links spans to their children, breaking parent-id cycles (reported) and returning the
// top spans: roots and spans whose parent is not in the input (dangling).
func (b *Builder) tree(t *trace, spans []*Span) (tops []*Span, kids map[*Span][]*Span) {
	byID := make(map[string]*Span, len(spans))
	for _, sp := range spans {
		byID[sp.ID] = sp
	}
	kids = map[*Span][]*Span{}
	isTop := func(sp *Span) bool { return sp.Parent == "" || byID[sp.Parent] == nil || sp.Parent == sp.ID }
	for _, sp := range spans {
		if isTop(sp) {
			tops = append(tops, sp)
		} else {
			p := byID[sp.Parent]
			kids[p] = append(kids[p], sp)
		}
	}
	for _, sp := range spans {
		if sp.Parent == sp.ID {
			b.em.Errorf(sp.Line, "%s: span %s names itself as its parent: kept as a top span", b.Format, sp.ID)
		}
	}
	seen := map[*Span]bool{}
	var mark func(*Span)
	mark = func(sp *Span) {
		if seen[sp] {
			return
		}
		seen[sp] = true
		for _, k := range kids[sp] {
			mark(k)
		}
	}
	for _, sp := range tops {
		mark(sp)
	}
	if len(seen) < len(spans) { // the rest hang in parent-id cycles
		for _, sp := range spans {
			if seen[sp] {
				continue
			}
			b.em.Errorf(sp.Line, "%s: parent ids of trace %s form a cycle through span %s (parent %s): the cycle is cut there", b.Format, t.id, sp.ID, sp.Parent)
			p := byID[sp.Parent]
			ks := kids[p]
			for i, k := range ks {
				if k == sp {
					kids[p] = append(ks[:i:i], ks[i+1:]...)
					break
				}
			}
			sp.Parent = ""
			tops = append(tops, sp)
			mark(sp)
		}
	}
	for _, ks := range kids {
		sortSpans(ks)
	}
	sortSpans(tops)
	return tops, kids
}

func sortSpans(s []*Span) {
	sort.SliceStable(s, func(i, j int) bool { return before(s[i], s[j]) })
}

func before(a, b *Span) bool {
	if !a.Start.IsZero() && !b.Start.IsZero() && !a.Start.Equal(b.Start) {
		return a.Start.Before(b.Start)
	}
	return a.Order < b.Order
}

// --- inferred mode -------------------------------------------------------------------------

type runB struct {
	id, session, agent, parent, kind string
	// resumes are the approval answers a resume run gives to its parent's requests.
	resumes    []Answer
	tops       []*Span
	inferred   []string
	start, end time.Time
	ended      bool
	fatal      []*Span // spans whose error ends the run
	hints      []model.StopReason
	endAgent   *Span // the latest-ending agent span (its EndStop counts)
	steps      []*stepB
	loose      []*callB // calls outside any explicit step
	subs       map[*Span][]*runB
	line       int
	file       string
	// next are the later turns of the run: the further Run-layer top spans of one trace (an
	// OpenAI Agents run resumed from its RunState keeps its trace id and opens a new task span).
	next []*runB
	// asks are the approval requests the run stopped at (NoResult tool spans, see settle).
	asks []*callB
	// unexported: a top of the run hangs from a span that was never exported (see emitInferred)
	unexported bool
}

type stepB struct {
	span     *Span // nil when inferred
	model    *callB
	models   []*callB
	tools    []*callB
	start    time.Time
	order    int
	inferred bool
}

type callB struct {
	sp    *Span
	agent string
	id    string
	infer []string
	// attempt is the 1-based attempt number of a retried model call (0 = not a retry).
	attempt int
}

func (b *Builder) emitInferred(t *trace, spans []*Span) {
	tops, kids := b.tree(t, spans)
	session := t.session
	if session == "" {
		for _, sp := range spans {
			if sp.Session != "" {
				session = sp.Session
				break
			}
		}
	}
	link, answers := b.resumes(spans)
	if link != nil && (session == "" || session == link.session) {
		session = link.session
	} else {
		link = nil
	}
	convInferred := false
	if session == "" {
		if s := b.continues(spans); s != "" {
			session, convInferred = s, true
		}
	}
	if session == "" {
		session = t.id
	}
	if session == "" {
		session = tops[0].ID
	}
	b.remember(spans, session)
	r := &runB{id: t.id, session: session, tops: tops, subs: map[*Span][]*runB{}}
	if convInferred {
		r.inferred = append(r.inferred, "session")
	}
	if link != nil {
		r.parent, r.kind, r.resumes = link.run, "resume", answers
		r.inferred = append(r.inferred, "kind")
	}
	if r.id == "" {
		r.id = tops[0].ID
	}
	r.line, r.file = tops[0].Line, tops[0].File
	if len(tops) > 1 || tops[0].Layer != Run {
		r.inferred = append(r.inferred, "run")
	}
	for _, sp := range tops {
		if sp.Parent != "" {
			r.inferred = appendOnce(r.inferred, "parent")
		}
	}
	if segs := runTops(tops, kids); len(segs) > 1 {
		b.emitResumed(t, r, segs, kids)
		return
	}
	r.ended = true
	for _, sp := range tops {
		b.walk(r, sp, kids, nil, nil, "")
		if sp.Err != nil {
			r.fatal = append(r.fatal, sp)
		}
		if !sp.Start.IsZero() && (r.start.IsZero() || sp.Start.Before(r.start)) {
			r.start = sp.Start
		}
		if sp.End.After(r.end) {
			r.end = sp.End
		}
		if !sp.Ended {
			r.ended = false
		}
		if sp.Parent != "" && sp.Err == nil && sp.Layer != Run && sp.Layer != Agent {
			// a step or call whose parent span is not in the input hangs from a span that was
			// never exported: spans are exported when they end, so the run enclosing it has not
			// ended (or its end was lost). Unless an error left the top (the run failed there) or
			// the run stopped at an approval, the run is open, whatever its children say (see
			// emitTurn). A run or agent span whose parent is elsewhere (a caller's span in another
			// service) ended with its own end.
			r.unexported = true
		}
	}
	if r.agent == "" {
		r.agent = t.name
	}
	if r.agent == "" {
		r.agent = tops[0].Name
	}
	b.emitRun(r)
}

// firstModel is the earliest model span of spans that records its input history.
func firstModel(spans []*Span) *Span {
	var first *Span
	for _, sp := range spans {
		if sp.Layer == Model && len(sp.History) > 0 && (first == nil || before(sp, first)) {
			first = sp
		}
	}
	return first
}

// continues returns the session of an earlier trace whose conversation this trace's first model
// input strictly extends (by two messages or more of that trace's model input), "" if none.
func (b *Builder) continues(spans []*Span) string {
	m := firstModel(spans)
	if m == nil {
		return ""
	}
	b.sh.mu.Lock()
	defer b.sh.mu.Unlock()
	for k := len(m.History) - 1; k >= 2; k-- {
		if s, ok := b.sh.convOf(m.History[k-1]); ok {
			return s
		}
	}
	return ""
}

// remember records the whole input of each model call of a trace as part of session's
// conversation.
func (b *Builder) remember(spans []*Span, session string) {
	b.sh.mu.Lock()
	defer b.sh.mu.Unlock()
	for _, sp := range spans {
		if sp.Layer == Model && len(sp.History) >= 2 {
			b.sh.conv[sp.History[len(sp.History)-1]] = session
		}
	}
}

// resumes finds the waiting run a trace continues: one whose approval-pending call the trace's
// tool spans run (approved) or its spans' approval answers name. It returns that run and the
// answers, by call id; the entries are taken out of the waiting set.
func (b *Builder) resumes(spans []*Span) (*waitingRun, []Answer) {
	b.sh.mu.Lock()
	defer b.sh.mu.Unlock()
	if !b.sh.anyWaiting() {
		return nil, nil
	}
	var link *waitingRun
	var answers []Answer
	seen := map[string]bool{}
	add := func(id string, approved bool) {
		w, ok := b.sh.waitingFor(id)
		if !ok || seen[id] || (link != nil && (w.run != link.run || w.session != link.session)) {
			return
		}
		if link == nil {
			link = &w
		}
		seen[id] = true
		answers = append(answers, Answer{CallID: id, Approved: approved})
	}
	for _, sp := range spans {
		for _, a := range sp.Answers {
			add(a.CallID, a.Approved)
		}
	}
	for _, sp := range spans {
		if sp.Layer == Tool && sp.CallID != "" {
			add(sp.CallID, true)
		}
	}
	for _, a := range answers {
		b.sh.unwait(a.CallID)
	}
	return link, answers
}

// runTops returns the tops when every top of a trace is a Run-layer span, there are several, and
// each later one continues the step numbering of the one before (its first explicit step span
// has Seq > 1: the OpenAI Agents SDK resuming a RunState under the same trace id goes on from
// the interrupted turn's number, a fresh Runner.run in the same trace starts at 1): one run,
// resumed, each top a turn of it.
func runTops(tops []*Span, kids map[*Span][]*Span) []*Span {
	if len(tops) < 2 {
		return nil
	}
	for i, sp := range tops {
		if sp.Layer != Run || sp.Parent != "" {
			return nil
		}
		if i > 0 && firstSeq(sp, kids) <= 1 && !(pendingAtEnd(tops[i-1], kids) && firstCallIsTool(sp, kids)) {
			return nil
		}
	}
	return tops
}

// calls lists the model and tool spans under sp, depth first in record order.
func calls(sp *Span, kids map[*Span][]*Span, out []*Span) []*Span {
	for _, k := range kids[sp] {
		if k.Layer == Model || k.Layer == Tool {
			out = append(out, k)
		}
		out = calls(k, kids, out)
	}
	return out
}

// pendingAtEnd says whether the last model call under top requested tool calls and no tool span
// that ran (one with a result) started after it: the run stopped with the calls unanswered (an
// approval pause).
func pendingAtEnd(top *Span, kids map[*Span][]*Span) bool {
	cs := calls(top, kids, nil)
	sortSpans(cs)
	last := -1
	for i, c := range cs {
		if c.Layer == Model {
			last = i
		}
	}
	if last < 0 || len(cs[last].Requests) == 0 || top.Err != nil {
		return false
	}
	for _, c := range cs[last+1:] {
		if c.Layer == Tool && !c.NoResult {
			return false
		}
	}
	return true
}

// firstCallIsTool says whether the first call under top is a tool span: the run runs (or
// answers) the calls pending when it paused before it calls the model (the OpenAI Agents JS SDK
// resumed from its RunState under the same trace id, numbering its turns from 1 again).
func firstCallIsTool(top *Span, kids map[*Span][]*Span) bool {
	cs := calls(top, kids, nil)
	sortSpans(cs)
	return len(cs) > 0 && cs[0].Layer == Tool
}

// firstSeq is the Seq of the first explicit step span under sp (depth first, in order), 0 if none.
func firstSeq(sp *Span, kids map[*Span][]*Span) int {
	for _, k := range kids[sp] {
		if k.Layer == Step {
			return k.Seq
		}
		if n := firstSeq(k, kids); n != 0 {
			return n
		}
	}
	return 0
}

// emitResumed emits a trace whose Run-layer tops are the turns of one run (a run paused for
// approval and resumed later under the same trace id): each top is walked into its own segment.
func (b *Builder) emitResumed(t *trace, r *runB, segs []*Span, kids map[*Span][]*Span) {
	r.inferred = nil
	for i, sp := range segs {
		seg := r
		if i > 0 {
			seg = &runB{id: r.id, session: r.session, tops: []*Span{sp}, subs: map[*Span][]*runB{}, line: sp.Line, file: sp.File}
			r.next = append(r.next, seg)
		}
		seg.tops, seg.ended = []*Span{sp}, sp.Ended
		seg.start, seg.end = sp.Start, sp.End
		b.walk(seg, sp, kids, nil, nil, "")
		if sp.Err != nil {
			seg.fatal = append(seg.fatal, sp)
		}
		if seg.agent == "" {
			seg.agent = t.name
		}
	}
	r.tops = segs
	b.emitRun(r)
}

// settle reads the NoResult tool spans of a run segment: one that ended after the span
// enclosing it was cut off by a cancellation (a cancelled call that ends the run cancelled);
// one in the last step of a segment that ended without error is an approval request: taken out
// of the step's calls into r.asks.
func (r *runB) settle() {
	for _, st := range r.steps {
		st.codeAction()
	}
	for _, st := range r.steps {
		for _, c := range st.tools {
			if !c.sp.NoResult || c.sp.Err != nil {
				continue
			}
			encl := r.tops[0]
			if st.span != nil {
				encl = st.span
			}
			if c.sp.Ended && encl.Ended && c.sp.End.After(encl.End) {
				c.sp.Err = &model.ErrorInfo{Kind: "cancelled", Message: "the call was still running when its run ended: cancelled (it recorded no output and no error)"}
				c.sp.Cancelled = true
				r.fatal = append(r.fatal, c.sp)
			}
		}
	}
	if len(r.fatal) > 0 || len(r.steps) == 0 || !r.ended {
		return
	}
	last := r.steps[len(r.steps)-1]
	if last.model == nil {
		return
	}
	var kept []*callB
	for _, c := range last.tools {
		if c.sp.NoResult && c.sp.Err == nil && c.sp.Start.After(last.lastModel().sp.Start) {
			r.asks = append(r.asks, c)
			continue
		}
		kept = append(kept, c)
	}
	last.tools = kept
}

// codeAction makes the execution of a code action (CodeAction model call) the step's tool call:
// python_interpreter, from the model call's end to the end of the last tool span of the step,
// with those tool spans (tools the code called, e.g. final_answer) folded into it.
func (st *stepB) codeAction() {
	m := st.lastModel()
	if m == nil || !m.sp.CodeAction || !m.sp.Ended {
		return
	}
	sp := &Span{TraceID: m.sp.TraceID, ID: m.sp.ID + "/code", Parent: m.sp.Parent, Line: m.sp.Line, File: m.sp.File,
		Name: "python_interpreter", Layer: Tool, Tool: "python_interpreter", Start: m.sp.End, End: m.sp.End, Ended: true, Order: m.sp.Order}
	var inner []any
	for _, c := range st.tools {
		inner = append(inner, c.sp.Tool)
		if c.sp.End.After(sp.End) {
			sp.End = c.sp.End
		}
		if !c.sp.Ended {
			sp.Ended = false
		}
		if c.sp.Err != nil && sp.Err == nil {
			sp.Err, sp.Cancelled = c.sp.Err, c.sp.Cancelled
		}
	}
	sp.Attrs = map[string]any{"note": "a CodeAgent code action: its execution has no span of its own; the tool spans of the step ran inside it"}
	if len(inner) > 0 {
		sp.Attrs["inner_tools"] = inner
	}
	st.tools = []*callB{{sp: sp, agent: m.agent, infer: []string{"start", "end", "ids"}}}
}

// walk places sp (and its subtree) in run r. call is the enclosing model/tool call, step the
// enclosing explicit step.
func (b *Builder) walk(r *runB, sp *Span, kids map[*Span][]*Span, call *callB, step *stepB, agent string) {
	switch sp.Layer {
	case Run, Agent:
		if call != nil && call.sp.Layer == Tool && sp.Parent != "" {
			sub := &runB{id: sp.ID, session: r.session, parent: r.id, kind: "subagent", tops: []*Span{sp},
				subs: map[*Span][]*runB{}, agent: sp.Agent, start: sp.Start, end: sp.End, ended: sp.Ended, line: sp.Line, file: sp.File}
			if sub.agent == "" {
				sub.agent = sp.Name
			}
			if sp.Err != nil {
				sub.fatal = append(sub.fatal, sp)
			}
			sub.noteAgent(sp)
			for _, k := range kids[sp] {
				b.walk(sub, k, kids, nil, nil, sub.agent)
			}
			r.subs[call.sp] = append(r.subs[call.sp], sub)
			return
		}
		if call != nil {
			break
		}
		r.noteAgent(sp)
		name := sp.Agent
		if name == "" && sp.Layer == Agent {
			name = sp.Name
		}
		if name != "" {
			agent = name
			if r.agent == "" {
				r.agent = name
			}
		}
		if sp.Layer == Agent && sp.Err != nil && sp.Parent != "" {
			r.fatal = append(r.fatal, sp)
		}
	case Step:
		if call != nil || step != nil {
			break
		}
		st := &stepB{span: sp, start: sp.Start, order: sp.Order}
		r.steps = append(r.steps, st)
		step = st
	case Model, Tool:
		// A tool span inside a model span is a tool call that model call requested, run while its
		// output streamed (Vercel AI SDK streamText); any other call inside a call is part of it.
		if call != nil && !(sp.Layer == Tool && call.sp.Layer == Model) {
			break
		}
		c := &callB{sp: sp, agent: agent}
		if step != nil {
			if sp.Layer == Model {
				step.models = append(step.models, c)
			} else {
				step.tools = append(step.tools, c)
			}
		} else {
			r.loose = append(r.loose, c)
		}
		call = c
	}
	if sp.Stop != "" {
		r.hints = append(r.hints, sp.Stop)
	}
	for _, k := range kids[sp] {
		b.walk(r, k, kids, call, step, agent)
	}
}

// noteAgent remembers the latest-ending agent span of the run.
func (r *runB) noteAgent(sp *Span) {
	if sp.Layer != Agent {
		return
	}
	if r.endAgent == nil || sp.End.After(r.endAgent.End) || sp.End.Equal(r.endAgent.End) && sp.Order > r.endAgent.Order {
		r.endAgent = sp
	}
}

// group builds inferred steps from the calls outside explicit steps: each model call opens a
// step; a tool call joins the step whose model call requested its call id, else the current
// step (by order), else a step of its own. A model call right after a failed model call of the
// current step, with no tool call between, is a retry of the same provider request (the Vercel
// AI SDK's maxRetries, one span per attempt): it joins that step, marked with its attempt
// number (inferred).
func (r *runB) group() {
	sort.SliceStable(r.loose, func(i, j int) bool { return before(r.loose[i].sp, r.loose[j].sp) })
	byReq := map[string]*stepB{}
	var cur *stepB
	for _, c := range r.loose {
		if c.sp.Layer == Model && cur != nil && cur.model != nil && len(cur.tools) == 0 && cur.models[len(cur.models)-1].sp.Err != nil &&
			!cur.models[len(cur.models)-1].sp.Cancelled && c.agent == cur.model.agent {
			c.attempt = len(cur.models) + 1
			c.infer = append(c.infer, "attempt")
			cur.models = append(cur.models, c)
			for _, q := range c.sp.Requests {
				if q.ID != "" {
					byReq[q.ID] = cur
				}
			}
			continue
		}
		if c.sp.Layer == Model {
			cur = &stepB{model: c, models: []*callB{c}, start: c.sp.Start, order: c.sp.Order, inferred: true}
			r.steps = append(r.steps, cur)
			for _, q := range c.sp.Requests {
				if q.ID != "" {
					byReq[q.ID] = cur
				}
			}
			continue
		}
		if st := byReq[c.sp.CallID]; c.sp.CallID != "" && st != nil {
			st.tools = append(st.tools, c)
			continue
		}
		if cur == nil {
			cur = &stepB{start: c.sp.Start, order: c.sp.Order, inferred: true}
			r.steps = append(r.steps, cur)
		}
		cur.tools = append(cur.tools, c)
	}
	for _, st := range r.steps {
		if st.span != nil {
			sort.SliceStable(st.models, func(i, j int) bool { return before(st.models[i].sp, st.models[j].sp) })
			if len(st.models) > 0 {
				st.model = st.models[0]
			}
		}
		sort.SliceStable(st.tools, func(i, j int) bool { return before(st.tools[i].sp, st.tools[j].sp) })
	}
	sort.SliceStable(r.steps, func(i, j int) bool {
		a, b := r.steps[i], r.steps[j]
		if !a.start.IsZero() && !b.start.IsZero() && !a.start.Equal(b.start) {
			return a.start.Before(b.start)
		}
		return a.order < b.order
	})
}

// match gives each tool call of a step the call id its model call requested: by recorded call
// id, else by tool name in order, else by position.
func (b *Builder) match(st *stepB, session string) {
	var reqs []Request
	for _, m := range st.models {
		reqs = append(reqs, m.sp.Requests...)
	}
	used := make([]bool, len(reqs))
	var unmatched []*callB
	for _, c := range st.tools {
		c.id = ""
		if c.sp.CallID != "" {
			c.id = c.sp.CallID
			for i, q := range reqs {
				if !used[i] && q.ID == c.sp.CallID {
					used[i] = true
				}
			}
			continue
		}
		unmatched = append(unmatched, c)
	}
	var rest []*callB
	for _, c := range unmatched {
		found := false
		for i, q := range reqs {
			if !used[i] && q.ID != "" && q.Name != "" && q.Name == c.sp.Tool {
				used[i], c.id, found = true, q.ID, true
				c.infer = append(c.infer, "ids")
				break
			}
		}
		if !found {
			rest = append(rest, c)
		}
	}
	for _, c := range rest {
		for i, q := range reqs {
			if !used[i] && q.ID != "" {
				used[i], c.id = true, q.ID
				c.infer = append(c.infer, "ids")
				break
			}
		}
	}
	for _, c := range st.tools {
		if c.id == "" || !b.freshCall(session, c.id) {
			c.id = c.sp.ID
			b.freshCall(session, c.id)
		}
	}
	for _, m := range st.models {
		m.id = m.sp.ID
	}
}

func (b *Builder) freshCall(session, id string) bool {
	b.sh.mu.Lock()
	defer b.sh.mu.Unlock()
	if b.sh.callUsed(session, id) {
		return false
	}
	used := b.sh.calls[session] // one small set per session: what one trace looks up stays in cache
	if used == nil {
		used = map[string]struct{}{}
		b.sh.calls[session] = used
	}
	used[id] = struct{}{}
	return true
}

// lastModel returns the step's last model call (by start), or nil.
func (st *stepB) lastModel() *callB {
	if len(st.models) == 0 {
		return nil
	}
	return st.models[len(st.models)-1]
}

// pending returns the tool calls the last step's model asked for that never ran.
func (st *stepB) pending() []Request {
	var out []Request
	ran := map[string]bool{}
	for _, c := range st.tools {
		ran[c.id] = true
	}
	for _, m := range st.models {
		for _, q := range m.sp.Requests {
			if q.ID != "" && !ran[q.ID] {
				out = append(out, q)
			}
		}
	}
	return out
}

// ev returns a new event in the Builder's scratch Event: it must be emitted before the next call
// (a Sink keeps no *Event, only what it points to). evHeld allocates one that may wait.
func (b *Builder) ev(typ model.EventType, r *runB, sp *Span, ts time.Time) *model.Event {
	e := &b.scratch
	b.fill(e, typ, r, sp, ts)
	return e
}

func (b *Builder) evHeld(typ model.EventType, r *runB, sp *Span, ts time.Time) *model.Event {
	e := &model.Event{}
	b.fill(e, typ, r, sp, ts)
	return e
}

func (b *Builder) fill(e *model.Event, typ model.EventType, r *runB, sp *Span, ts time.Time) {
	*e = model.Event{Type: typ, SessionID: r.session, RunID: r.id, TS: ts.UTC(), Source: model.SourceRuntime}
	if ts.IsZero() {
		e.TS = time.Time{}
	}
	if sp != nil {
		// one Origin per span, shared by its start and end events (never changed once set)
		if b.originOf != sp || b.origin.File != sp.File || b.origin.Line != sp.Line {
			b.originOf, b.origin = sp, &model.Origin{File: sp.File, Line: sp.Line}
		}
		e.Origin = b.origin
	} else if r.line > 0 {
		e.Origin = &model.Origin{File: r.file, Line: r.line}
	}
}

func (b *Builder) startSession(id string, ts time.Time, origin *model.Origin, inferred []string) {
	b.sh.mu.Lock()
	started := b.sh.session(id)
	b.sh.sessions[id] = true
	b.sh.mu.Unlock()
	if started {
		return
	}
	e := &model.Event{Type: model.SessionStart, SessionID: id, TS: ts.UTC(), Source: model.SourceRuntime, Origin: origin, Inferred: inferred}
	if ts.IsZero() {
		e.TS = time.Time{}
	}
	b.em.Emit(e)
}

func (b *Builder) emitRun(r *runB) {
	segs := append([]*runB{r}, r.next...)
	for _, sg := range segs {
		sg.group()
		sg.settle()
	}
	b.sh.mu.Lock()
	if b.sh.run(r.session + "\x00" + r.id) {
		r.id = r.id + "/" + r.tops[0].ID
	}
	b.sh.runs[r.session+"\x00"+r.id] = true
	b.sh.mu.Unlock()
	for _, sg := range r.next {
		sg.id = r.id
	}
	top := r.tops[0]
	if r.parent == "" || r.kind == "resume" {
		b.startSession(r.session, r.start, &model.Origin{File: top.File, Line: top.Line}, []string{"session"})
	}
	e := b.ev(model.RunStart, r, top, r.start)
	e.Name, e.ParentRunID, e.Kind = r.agent, r.parent, r.kind
	if r.kind != "" {
		e.Attempt = 1
	}
	e.Inferred = append(e.Inferred, r.inferred...)
	if top.Parent != "" && r.parent == "" {
		e.Attrs = map[string]any{"dangling_parent": top.Parent}
	}
	if r.kind == "resume" {
		e.Attrs = map[string]any{"note": "continues the approval requests of run " + r.parent + " (the tool call ids it waited for): a new call of the loop, so a new run"}
	}
	b.em.Emit(e)
	for _, a := range r.resumes { // the answers to the waiting run's approval requests
		w := b.ev(model.ApprovalResolve, &runB{id: r.parent, session: r.session, line: r.line, file: r.file}, top, r.start)
		w.CallID, w.Decision, w.Source, w.Inferred = a.CallID, model.DecisionDenied, model.SourceClient, []string{"decision"}
		if a.Approved {
			w.Decision = model.DecisionApproved
		}
		b.em.Emit(w)
	}

	var asked []Request // approval requests of the previous turn, resolved by this one
	for i, sg := range segs {
		turnID := r.id + "/turn-1"
		if i > 0 {
			turnID = fmt.Sprintf("%s/turn-%d", r.id, i+1)
		}
		stop, more := b.emitTurn(r, sg, turnID, asked, i == len(segs)-1)
		if !more {
			return
		}
		asked = stop
	}
}

// emitTurn emits one turn of run r from segment sg (r itself for a run of one turn): its steps,
// the approvals it asked for, and — when last — the run's end. asked are the approval requests
// of the previous turn: resolved here (approved when this turn runs a call of that tool before
// its first model call). It returns this turn's approval requests and whether a later turn may
// follow.
func (b *Builder) emitTurn(r, sg *runB, turnID string, asked []Request, last bool) ([]Request, bool) {
	top := sg.tops[0]
	if len(asked) > 0 {
		ran := map[string]*callB{}
		rejected := map[string]*callB{}
		for _, st := range sg.steps {
			if st.model != nil {
				break
			}
			for _, c := range st.tools {
				switch {
				case c.sp.Rejected && rejected[c.sp.Tool] == nil:
					rejected[c.sp.Tool] = c
				case !c.sp.Rejected && ran[c.sp.Tool] == nil:
					ran[c.sp.Tool] = c
				}
			}
		}
		for _, q := range asked {
			a := b.ev(model.ApprovalResolve, r, top, sg.start)
			a.CallID, a.Name, a.Decision, a.Source = q.ID, q.Name, model.DecisionDenied, model.SourceClient
			a.Inferred = []string{"decision"}
			if c := ran[q.Name]; c != nil {
				a.Decision = model.DecisionApproved
				c.sp.CallID = q.ID
				delete(ran, q.Name)
			} else if rejected[q.Name] != nil {
				a.Inferred = nil // the SDK recorded the rejection
				delete(rejected, q.Name)
			}
			b.em.Emit(a)
		}
		w := b.ev(model.RunStatusChange, r, top, sg.start)
		w.Status, w.Cause, w.Inferred = model.StatusRunning, string(model.ApprovalResolve), []string{"status"}
		b.em.Emit(w)
	}
	te := b.ev(model.TurnStart, r, top, sg.start)
	te.TurnID, te.Inferred = turnID, []string{"turn"}
	b.em.Emit(te)

	// A rejected call's span answers the approval; it is no tool call (and a step left with no
	// call and no model call is no step).
	var steps []*stepB
	for _, st := range sg.steps {
		kept, dropped := st.tools[:0], false
		for _, c := range st.tools {
			if c.sp.Rejected {
				dropped = true
				continue
			}
			kept = append(kept, c)
		}
		st.tools = kept
		if !dropped || st.model != nil || len(st.tools) > 0 || len(st.models) > 0 {
			steps = append(steps, st)
		}
	}
	sg.steps = steps
	// Run outcome (after matching, which pending requests depend on).
	for _, st := range sg.steps {
		b.match(st, r.session)
	}
	status, stop, runErr := b.outcome(sg)
	for i, st := range sg.steps {
		b.emitStep(r, turnID, st, i+1)
	}
	var waiting []Request
	if status == model.StatusCompleted && len(sg.steps) > 0 {
		waiting = sg.steps[len(sg.steps)-1].pending()
	}
	// an approval request's function span is the same call as a pending request of that tool
	// (when the model call recorded its output): one approval per call
	byName := map[string]int{}
	for _, q := range waiting {
		byName[q.Name]++
	}
	for _, c := range sg.asks {
		if byName[c.sp.Tool] > 0 {
			byName[c.sp.Tool]--
			continue
		}
		waiting = append(waiting, Request{ID: c.sp.ID, Name: c.sp.Tool})
	}
	if !sg.ended || r.unexported && status == model.StatusCompleted && len(waiting) == 0 {
		return nil, false // live: run and turn are reported open
	}
	end := sg.end
	tEnd := b.evHeld(model.TurnEnd, r, top, end) // approval requests may come first
	tEnd.TurnID, tEnd.Inferred = turnID, []string{"turn", "stop_reason"}
	if len(waiting) > 0 {
		for _, q := range waiting {
			a := b.ev(model.ApprovalRequest, r, top, end)
			a.CallID, a.Name, a.Inferred = q.ID, q.Name, []string{"approval"}
			b.em.Emit(a)
			if last && q.ID != "" {
				b.sh.mu.Lock()
				b.sh.setWaiting(q.ID, waitingRun{session: r.session, run: r.id})
				b.sh.mu.Unlock()
			}
		}
		w := b.ev(model.RunStatusChange, r, top, end)
		w.Status, w.WaitReason, w.StopReason = model.StatusWaiting, model.WaitApproval, model.StopAwaitingApproval
		w.Inferred = []string{"status", "stop_reason"}
		b.em.Emit(w)
		tEnd.Outcome, tEnd.StopReason = model.OutcomeOK, model.StopAwaitingApproval
		b.em.Emit(tEnd)
		return waiting, true
	}
	tEnd.StopReason = stop
	switch status {
	case model.StatusCompleted:
		tEnd.Outcome = model.OutcomeOK
	case model.StatusCancelled:
		tEnd.Outcome = model.OutcomeCancelled
	default:
		tEnd.Outcome = model.OutcomeError
		tEnd.Error = runErr
	}
	if !last && status == model.StatusCompleted {
		b.em.Emit(tEnd) // the run went on in a later turn
		return nil, true
	}
	b.em.Emit(tEnd)
	re := b.ev(model.RunEnd, r, top, end)
	re.Status, re.StopReason, re.Error = status, stop, runErr
	re.Inferred = []string{"status", "stop_reason"}
	if a := sg.endAgent; runErr == nil && status == model.StatusFailed && a != nil && a.EndStop == stop {
		re.Attrs = map[string]any{"note": "the agent span ended without an error, but its end state implies this stop reason", "agent_span": a.ID}
		if fr, ok := a.Attrs["finish_reason"]; ok {
			re.Attrs["finish_reason"] = fr
		}
	}
	b.em.Emit(re)
	return nil, false
}

// forcedFinal says whether the run ended the way smolagents ends a run that hit max_steps (as
// OpenInference records it): the agent span carries max_steps, and the last model call is its
// direct child with no tool call, after the "Step N" chains — provide_final_answer, called
// outside any step once the step budget is spent (a planning call, also a direct child, always
// precedes a step).
func (r *runB) forcedFinal() bool {
	a := r.endAgent
	if a == nil || a.Attrs["max_steps"] == nil || len(r.steps) < 2 {
		return false
	}
	last := r.steps[len(r.steps)-1]
	lm := last.lastModel()
	return lm != nil && len(last.tools) == 0 && lm.sp.Parent == a.ID && len(lm.sp.Requests) == 0
}

// outcome infers a finished run's status and stop reason from the errors of its spans.
func (b *Builder) outcome(r *runB) (model.RunStatus, model.StopReason, *model.ErrorInfo) {
	if len(r.fatal) == 0 {
		if r.forcedFinal() {
			return model.StatusFailed, model.StopMaxSteps, &model.ErrorInfo{Kind: "AgentMaxStepsError", Message: "the run's last model call is the forced final answer after max_steps (a model call directly under the agent span, after its steps)"}
		}
		// An agent span that ended normally may still say the loop stopped short of an answer
		// (its step bound), unless the last step's requested calls are pending (approval).
		if a := r.endAgent; a != nil && a.EndStop != "" && a.EndStop.ConsistentWith(model.StatusFailed) &&
			(len(r.steps) == 0 || len(r.steps[len(r.steps)-1].pending()) == 0) {
			return model.StatusFailed, a.EndStop, nil
		}
		return model.StatusCompleted, model.StopGoalReached, nil
	}
	var stop model.StopReason
	var err *model.ErrorInfo
	for _, sp := range r.fatal {
		s := Classify(sp.Err)
		if sp.Cancelled {
			s = model.StopCancelled
		}
		if stop == "" || s.Priority() > stop.Priority() {
			stop, err = s, sp.Err
		}
	}
	for _, h := range r.hints {
		if h.Priority() > stop.Priority() {
			stop = h
		}
	}
	if stop == model.StopError && len(r.steps) > 0 {
		last := r.steps[len(r.steps)-1]
		switch lm := last.lastModel(); {
		case lm != nil && lm.sp.Err != nil:
			stop = model.StopModelError
			if lm.sp.Cancelled {
				stop = model.StopCancelled
			}
		default:
			for _, c := range last.tools {
				if c.sp.Err != nil {
					stop = model.StopToolError
				}
			}
		}
	}
	if stop == model.StopCancelled {
		return model.StatusCancelled, stop, err
	}
	return model.StatusFailed, stop, err
}

func (b *Builder) emitStep(r *runB, turnID string, st *stepB, index int) time.Time {
	stepID := ""
	var origin *Span
	if st.span != nil {
		stepID, origin = st.span.ID, st.span
	} else {
		switch {
		case st.model != nil:
			stepID, origin = st.model.sp.ID+"/step", st.model.sp
		case len(st.tools) > 0:
			stepID, origin = st.tools[0].sp.ID+"/step", st.tools[0].sp
		default:
			stepID = fmt.Sprintf("%s/step-%d", r.id, index)
		}
	}
	calls := append(append([]*callB{}, st.models...), st.tools...)
	start, end, ended := st.start, time.Time{}, true
	for _, c := range calls {
		if !c.sp.Start.IsZero() && (start.IsZero() || c.sp.Start.Before(start)) {
			start = c.sp.Start
		}
		if c.sp.End.After(end) {
			end = c.sp.End
		}
		if !c.sp.Ended {
			ended = false
		}
	}
	if st.span != nil {
		start, end, ended = st.span.Start, st.span.End, st.span.Ended
	}
	s := b.ev(model.StepStart, r, origin, start)
	s.TurnID, s.StepID = turnID, stepID
	if st.inferred {
		s.Inferred = []string{"step"}
	}
	b.em.Emit(s)
	outcome, serr := model.OutcomeOK, (*model.ErrorInfo)(nil)
	if st.span != nil && st.span.Err != nil {
		outcome, serr = model.OutcomeError, st.span.Err
		if st.span.Cancelled {
			outcome = model.OutcomeCancelled
		}
	}
	// the step's decision is its last model call (earlier ones are failed attempts it retried)
	if m := st.lastModel(); m != nil && m.sp.Err != nil && outcome == model.OutcomeOK {
		outcome, serr = model.OutcomeError, m.sp.Err
		if m.sp.Cancelled {
			outcome = model.OutcomeCancelled
		}
	}
	for _, c := range st.models {
		b.emitCall(r, turnID, stepID, c)
	}
	for _, c := range st.tools {
		b.emitCall(r, turnID, stepID, c)
	}
	if !ended {
		return end
	}
	e := b.ev(model.StepEnd, r, origin, end)
	e.TurnID, e.StepID, e.Outcome, e.Error = turnID, stepID, outcome, serr
	if st.inferred {
		e.Inferred = []string{"step"}
	}
	b.em.Emit(e)
	return end
}

func (b *Builder) emitCall(r *runB, turnID, stepID string, c *callB) {
	sp := c.sp
	st, en := model.ModelStart, model.ModelEnd
	src := model.SourceModel
	name := sp.Model
	if sp.Layer == Tool {
		st, en, src, name = model.ToolStart, model.ToolEnd, model.SourceTool, sp.Tool
	}
	if name == "" {
		name = sp.Name
	}
	e := b.ev(st, r, sp, sp.Start)
	e.TurnID, e.StepID, e.CallID, e.Name, e.Source = turnID, stepID, c.id, name, src
	e.Inferred = c.infer
	if c.agent != "" && c.agent != r.agent {
		e.Attrs = map[string]any{"agent": c.agent}
	}
	if c.attempt > 1 {
		if e.Attrs == nil {
			e.Attrs = map[string]any{}
		}
		e.Attrs["attempt"] = c.attempt
	}
	if sp.Layer == Tool && sp.ID != c.id {
		if e.Attrs == nil {
			e.Attrs = make(map[string]any, 2)
		}
		e.Attrs["span_id"] = sp.ID
	}
	startKey := model.AttrInput // what the call was given goes on its start event
	if sp.Layer == Tool {
		startKey = model.AttrArgs
	}
	if a, ok := sp.Attrs[startKey]; ok {
		if e.Attrs == nil {
			e.Attrs = map[string]any{}
		}
		e.Attrs[startKey] = a
	}
	if sp.Start.IsZero() {
		e.Inferred = appendOnce(e.Inferred, "ts")
	}
	b.em.Emit(e)
	for _, sub := range r.subs[sp] {
		b.emitRun(sub)
	}
	if !sp.Ended {
		return
	}
	x := b.ev(en, r, sp, sp.End)
	x.TurnID, x.StepID, x.CallID, x.Name, x.Source = turnID, stepID, c.id, name, src
	x.Outcome, x.Error, x.Usage = model.OutcomeOK, sp.Err, sp.Usage
	if sp.Err != nil {
		x.Outcome = model.OutcomeError
		if sp.Cancelled {
			x.Outcome = model.OutcomeCancelled
		}
	}
	for k, v := range sp.Attrs {
		if k == startKey {
			continue
		}
		if x.Attrs == nil {
			x.Attrs = make(map[string]any, len(sp.Attrs)+1)
		}
		x.Attrs[k] = v
	}
	if sp.Layer == Model && len(sp.Requests) > 0 {
		ids := make([]model.ToolCallRef, 0, len(sp.Requests))
		for _, q := range sp.Requests {
			ids = append(ids, model.ToolCallRef{ID: q.ID, Name: q.Name})
		}
		if x.Attrs == nil {
			x.Attrs = map[string]any{}
		}
		x.Attrs["tool_calls"] = ids
	}
	b.em.Emit(x)
}

func appendOnce(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}
