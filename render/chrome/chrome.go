// Package chrome renders a lifecycle tree as Chrome Trace Event JSON, the format that
// ui.perfetto.dev and chrome://tracing open offline:
//
//   - every node is a complete ("X") event with ts and dur in microseconds from the start of the
//     trace, and args carrying its ids, parent ids, status, stop reason, error, usage, what was
//     inferred and the invariant findings that concern it;
//   - one process (pid) per run, named with process_name metadata ("run <id> <agent> · status");
//   - named tracks (tid + thread_name metadata) per layer: run, waits, turns, steps, model calls,
//     tools; nodes of one layer that overlap in time (parallel tool calls) get extra lanes
//     ("tools #2"), so slices on one track never partially overlap;
//   - flow events ("s"/"f", bound to the enclosing slices) link a parent run to its sub-agent,
//     hand-off, retry or resumed child run (parent_run_id), from the parent's innermost slice at
//     the moment the child starts; with Options.AllFlows every parent→child link across tracks
//     gets a flow too;
//   - open (never-ended) nodes run to the end of the trace, with "▸open" in the name and
//     args.open = true; a timeless tree is laid out one millisecond per event in seq order and
//     says so in otherData.
package chrome

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/jsonw"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options control the Chrome trace rendering.
type Options struct {
	// Findings are invariant findings, put in the args of the nodes they concern.
	Findings []model.Finding
	// AllFlows adds a flow arrow for every parent→child link (run→turn, turn→step, step→call),
	// not only the links between runs.
	AllFlows bool
}

// Track bases: tid = base + lane.
const (
	tidRun   = 1
	tidWait  = 100
	tidTurn  = 200
	tidStep  = 300
	tidModel = 400
	tidTool  = 500
)

var trackName = map[view.Kind]string{view.KindRun: "run", view.KindWait: "waits", view.KindTurn: "turns",
	view.KindStep: "steps", view.KindModel: "model calls", view.KindTool: "tools"}

var trackBase = map[view.Kind]int{view.KindRun: tidRun, view.KindWait: tidWait, view.KindTurn: tidTurn,
	view.KindStep: tidStep, view.KindModel: tidModel, view.KindTool: tidTool}

type slice struct {
	node     int
	pid, tid int
	ts, dur  int64 // nanoseconds from the trace start
}

type renderer struct {
	v        *view.View
	opt      Options
	w        *bufio.Writer
	buf      []byte
	slices   []slice // by node index; pid 0 = none
	ordinal  map[int64]int64
	timeless bool
	end      int64
	first    bool
	flowID   int
}

// Render writes the Chrome trace JSON of t to w.
func Render(w io.Writer, t *model.Tree, opts Options) error {
	if t == nil {
		t = &model.Tree{}
	}
	r := &renderer{v: view.Flatten(t, opts.Findings), opt: opts, w: bufio.NewWriterSize(w, 64<<10), first: true}
	r.timeless = t.Timeless || r.v.Start.IsZero()
	r.layout()
	r.buf = append(r.buf, `{"displayTimeUnit":"ms","otherData":{"generator":"lifeline"`...)
	if r.timeless {
		r.buf = append(r.buf, `,"timeless":"no event carried a time: one millisecond per event, in seq order"`...)
	} else {
		r.buf = append(r.buf, `,"trace_start":`...)
		r.buf = appendString(r.buf, r.v.Start.UTC().Format(time.RFC3339Nano))
		if r.v.Overflow() {
			r.buf = append(r.buf, `,"time_clamped":`...)
			r.buf = appendString(r.buf, "absurd clock: the trace spans "+view.DurNS(r.v.TotalNS())+
				", more than the 292 years a trace timestamp holds; later times are clamped to +292y")
		}
	}
	if len(t.Notes) > 0 {
		r.buf = append(r.buf, `,"notes":`...)
		r.buf = appendString(r.buf, joinNotes(t.Notes))
	}
	r.buf = append(r.buf, "},\n\"traceEvents\":["...)
	r.metadata()
	for i := range r.v.Nodes {
		if r.slices[i].pid != 0 {
			r.complete(i)
		}
	}
	r.flows()
	r.buf = append(r.buf, "\n]}\n"...)
	r.flush(true)
	if _, err := r.w.Write(r.buf); err != nil {
		return fmt.Errorf("render chrome trace: %w", err)
	}
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("render chrome trace: %w", err)
	}
	return nil
}

func joinNotes(n []string) string {
	s := ""
	for i, x := range n {
		if i > 0 {
			s += "\n"
		}
		s += x
	}
	return s
}

func (r *renderer) flush(force bool) {
	if len(r.buf) > 32<<10 || force && len(r.buf) > 0 {
		r.w.Write(r.buf) // the error is sticky in bufio and reported at the end
		r.buf = r.buf[:0]
	}
}

// times returns a node's start and end in nanoseconds from the trace start.
func (r *renderer) times(n *view.Node) (int64, int64, bool) {
	if r.timeless {
		s, ok := r.ordinal[n.Span.Seq]
		if !ok {
			return 0, 0, false
		}
		e := r.end
		if q, ok := r.ordinal[n.Span.EndSeq]; ok && n.Span.Ended {
			e = q + int64(time.Millisecond)
		}
		return s, max(e, s), true
	}
	if n.Span.Start.IsZero() {
		return 0, 0, false
	}
	s := clampNS(r.v.OffsetNS(n.Span.Start))
	e := clampNS(r.v.OffsetNS(r.v.EndOf(n)))
	return s, max(e, s), true
}

// maxNS is the latest offset a Chrome trace can place: Perfetto and chrome://tracing keep
// timestamps as signed 64-bit nanoseconds, about 292 years.
const maxNS = math.MaxInt64

// clampNS turns a float offset in nanoseconds into the trace's int64 nanoseconds, clamped to
// [0, maxNS] (a trace whose clock spans more, an absurd clock, has its late times clamped and
// says so in otherData and in the args of the slices concerned).
func clampNS(f float64) int64 {
	switch {
	case f <= 0 || f != f:
		return 0
	case f >= maxNS:
		return maxNS
	}
	return int64(f)
}

// layout assigns every node below a session a pid (its run) and a track lane.
func (r *renderer) layout() {
	v := r.v
	r.slices = make([]slice, len(v.Nodes))
	if r.timeless {
		var seqs []int64
		seen := map[int64]bool{}
		for i := range v.Nodes {
			for _, q := range [2]int64{v.Nodes[i].Span.Seq, v.Nodes[i].Span.EndSeq} {
				if q > 0 && !seen[q] {
					seen[q] = true
					seqs = append(seqs, q)
				}
			}
		}
		sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
		r.ordinal = make(map[int64]int64, len(seqs))
		for i, q := range seqs {
			r.ordinal[q] = int64(i) * int64(time.Millisecond)
		}
		r.end = int64(len(seqs)) * int64(time.Millisecond)
	}
	pids := map[*model.Run]int{}
	type key struct {
		pid  int
		kind view.Kind
	}
	groups := map[key][]int{}
	var order []key
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.Kind == view.KindSession {
			continue
		}
		pid, ok := pids[n.Run]
		if !ok {
			pid = len(pids) + 1
			pids[n.Run] = pid
		}
		s, e, ok := r.times(n)
		if !ok {
			continue
		}
		r.slices[i] = slice{node: i, pid: pid, ts: s, dur: e - s}
		k := key{pid, n.Kind}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	// Lanes: the first lane free at a slice's start.
	for _, k := range order {
		idx := groups[k]
		sort.SliceStable(idx, func(a, b int) bool { return r.slices[idx[a]].ts < r.slices[idx[b]].ts })
		var lanes []int64 // end of the last slice per lane
		for _, i := range idx {
			s := &r.slices[i]
			lane := -1
			for l, end := range lanes {
				if end <= s.ts {
					lane = l
					break
				}
			}
			if lane < 0 {
				lane = len(lanes)
				lanes = append(lanes, 0)
			}
			lanes[lane] = s.ts + s.dur
			if s.dur == 0 {
				lanes[lane] = s.ts + 1 // an instant still occupies its lane at that moment
			}
			s.tid = trackBase[k.kind] + lane
		}
	}
}

func (r *renderer) sep() {
	if !r.first {
		r.buf = append(r.buf, ',')
	}
	r.first = false
	r.buf = append(r.buf, '\n')
}

// metadata names every process and track.
func (r *renderer) metadata() {
	type track struct{ pid, tid int }
	seen := map[track]bool{}
	named := map[int]bool{}
	var tracks []track
	for i := range r.v.Nodes {
		s := r.slices[i]
		if s.pid == 0 {
			continue
		}
		if !named[s.pid] {
			named[s.pid] = true
			n := &r.v.Nodes[i]
			for n.Kind != view.KindRun && n.Parent >= 0 {
				n = &r.v.Nodes[n.Parent]
			}
			r.sep()
			r.buf = append(r.buf, `{"ph":"M","name":"process_name","pid":`...)
			r.buf = strconv.AppendInt(r.buf, int64(s.pid), 10)
			r.buf = append(r.buf, `,"tid":0,"args":{"name":`...)
			r.buf = appendString(r.buf, processName(n))
			r.buf = append(r.buf, "}}"...)
			r.sep()
			r.buf = append(r.buf, `{"ph":"M","name":"process_sort_index","pid":`...)
			r.buf = strconv.AppendInt(r.buf, int64(s.pid), 10)
			r.buf = append(r.buf, `,"tid":0,"args":{"sort_index":`...)
			r.buf = strconv.AppendInt(r.buf, int64(s.pid), 10)
			r.buf = append(r.buf, "}}"...)
			if n.Run != nil {
				r.sep()
				r.buf = append(r.buf, `{"ph":"M","name":"process_labels","pid":`...)
				r.buf = strconv.AppendInt(r.buf, int64(s.pid), 10)
				r.buf = append(r.buf, `,"tid":0,"args":{"labels":`...)
				r.buf = appendString(r.buf, "session "+n.Run.SessionID)
				r.buf = append(r.buf, "}}"...)
			}
		}
		tk := track{s.pid, s.tid}
		if !seen[tk] {
			seen[tk] = true
			tracks = append(tracks, tk)
		}
	}
	sort.Slice(tracks, func(i, j int) bool {
		if tracks[i].pid != tracks[j].pid {
			return tracks[i].pid < tracks[j].pid
		}
		return tracks[i].tid < tracks[j].tid
	})
	for _, tk := range tracks {
		base, name := 0, ""
		for k, b := range trackBase {
			if tk.tid >= b && b >= base {
				base, name = b, trackName[k]
			}
		}
		if lane := tk.tid - base; lane > 0 {
			name += " #" + strconv.Itoa(lane+1)
		}
		r.sep()
		r.buf = append(r.buf, `{"ph":"M","name":"thread_name","pid":`...)
		r.buf = strconv.AppendInt(r.buf, int64(tk.pid), 10)
		r.buf = append(r.buf, `,"tid":`...)
		r.buf = strconv.AppendInt(r.buf, int64(tk.tid), 10)
		r.buf = append(r.buf, `,"args":{"name":`...)
		r.buf = appendString(r.buf, name)
		r.buf = append(r.buf, "}}"...)
		r.sep()
		r.buf = append(r.buf, `{"ph":"M","name":"thread_sort_index","pid":`...)
		r.buf = strconv.AppendInt(r.buf, int64(tk.pid), 10)
		r.buf = append(r.buf, `,"tid":`...)
		r.buf = strconv.AppendInt(r.buf, int64(tk.tid), 10)
		r.buf = append(r.buf, `,"args":{"sort_index":`...)
		r.buf = strconv.AppendInt(r.buf, int64(tk.tid), 10)
		r.buf = append(r.buf, "}}"...)
	}
}

func processName(n *view.Node) string {
	s := "run " + view.Clean(n.ID)
	if n.Name != "" {
		s += " " + view.Clean(n.Name)
	}
	if n.Status != "" {
		s += " · " + n.Status
	}
	if n.Stop != "" {
		s += " " + string(n.Stop)
	}
	if r := n.Run; r != nil && r.ParentRunID != "" {
		k := r.Kind
		if k == "" {
			k = "child"
		}
		s += " (" + view.Clean(k) + " of " + view.Clean(r.ParentRunID) + ")"
	}
	return s
}

// appendMicros writes nanoseconds as microseconds with up to three decimals.
func appendMicros(b []byte, ns int64) []byte {
	b = strconv.AppendInt(b, ns/1000, 10)
	if frac := ns % 1000; frac != 0 {
		b = append(b, '.')
		b = append(b, byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
	}
	return b
}

func sliceName(n *view.Node) string {
	s := n.Kind.String() + " "
	switch n.Kind {
	case view.KindModel, view.KindTool, view.KindWait:
		if n.Name != "" {
			s += view.Clean(n.Name)
		} else {
			s += view.Clean(n.ID)
		}
	case view.KindStep:
		if st, ok := n.Obj.(*model.Step); ok {
			s += strconv.Itoa(st.Index) + " "
		}
		s += view.ShortID(n.ID, 24)
	case view.KindRun:
		s += view.ShortID(n.ID, 24)
		if n.Name != "" {
			s += " " + view.Clean(n.Name)
		}
	default:
		s += view.ShortID(n.ID, 24)
	}
	if n.Failed() {
		s += " ✗"
	}
	if n.Open() {
		s += " ▸open"
	}
	return s
}

func (r *renderer) complete(i int) {
	n := &r.v.Nodes[i]
	s := r.slices[i]
	r.sep()
	r.buf = append(r.buf, `{"ph":"X","name":`...)
	r.buf = appendString(r.buf, sliceName(n))
	r.buf = append(r.buf, `,"cat":"`...)
	r.buf = append(r.buf, n.Kind.String()...)
	r.buf = append(r.buf, `","pid":`...)
	r.buf = strconv.AppendInt(r.buf, int64(s.pid), 10)
	r.buf = append(r.buf, `,"tid":`...)
	r.buf = strconv.AppendInt(r.buf, int64(s.tid), 10)
	r.buf = append(r.buf, `,"ts":`...)
	r.buf = appendMicros(r.buf, s.ts)
	r.buf = append(r.buf, `,"dur":`...)
	r.buf = appendMicros(r.buf, s.dur)
	r.buf = append(r.buf, `,"args":{"layer":"`...)
	r.buf = append(r.buf, n.Kind.String()...)
	r.buf = append(r.buf, '"')
	r.arg("id", n.ID)
	r.arg("name", n.Name)
	if run := n.Run; run != nil {
		r.arg("session_id", run.SessionID)
		if n.Kind != view.KindRun {
			r.arg("run_id", run.ID)
		} else {
			r.arg("parent_run_id", run.ParentRunID)
			if run.Attempt > 0 {
				r.buf = append(r.buf, `,"attempt":`...)
				r.buf = strconv.AppendInt(r.buf, int64(run.Attempt), 10)
			}
			r.arg("kind", run.Kind)
			r.arg("agent_version", run.AgentVersion)
			r.arg("wait_reason", string(run.WaitReason))
		}
	}
	if n.Parent >= 0 && n.Kind != view.KindRun {
		if p := &r.v.Nodes[n.Parent]; p.Kind != view.KindRun { // run_id is written above: no key twice
			r.arg(p.Kind.String()+"_id", p.ID)
		}
	}
	r.arg("status", n.Status)
	r.arg("stop_reason", string(n.Stop))
	if n.Err != nil {
		r.arg("error", n.Err.String())
	}
	if !n.Usage.IsZero() {
		u := n.Usage
		r.buf = append(r.buf, `,"input_tokens":`...)
		r.buf = strconv.AppendInt(r.buf, u.InputTokens, 10)
		r.buf = append(r.buf, `,"output_tokens":`...)
		r.buf = strconv.AppendInt(r.buf, u.OutputTokens, 10)
		if u.CachedTokens != 0 {
			r.buf = append(r.buf, `,"cached_tokens":`...)
			r.buf = strconv.AppendInt(r.buf, u.CachedTokens, 10)
		}
		if c, ok := jsonw.Finite(u.CostUSD); ok && c != 0 {
			r.buf = append(r.buf, `,"cost_usd":`...)
			r.buf = strconv.AppendFloat(r.buf, c, 'g', -1, 64)
		}
	}
	if n.Open() {
		r.buf = append(r.buf, `,"open":true`...)
	}
	if !r.timeless && (r.v.OffsetNS(r.v.EndOf(n)) > maxNS || r.v.OffsetNS(n.Span.Start) > maxNS) {
		r.buf = append(r.buf, `,"time_clamped":true`...)
	}
	if len(n.Span.Inferred) > 0 {
		r.arg("inferred", joinComma(n.Span.Inferred))
	}
	for k, f := range n.Findings {
		r.arg("finding_"+strconv.Itoa(k+1), f.Code+" "+string(f.Severity)+": "+f.Message)
	}
	r.buf = append(r.buf, "}}"...)
	r.flush(false)
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

func (r *renderer) arg(key, val string) {
	if val == "" {
		return
	}
	r.buf = append(r.buf, ',', '"')
	r.buf = append(r.buf, key...)
	r.buf = append(r.buf, '"', ':')
	r.buf = appendString(r.buf, val)
}

// flows links child runs to their parent runs (and, with AllFlows, every node to its parent).
func (r *renderer) flows() {
	v := r.v
	byRun := map[string]int{}
	for i := range v.Nodes {
		if v.Nodes[i].Kind == view.KindRun {
			if _, dup := byRun[v.Nodes[i].ID]; !dup {
				byRun[v.Nodes[i].ID] = i
			}
		}
	}
	for i := range v.Nodes {
		n := &v.Nodes[i]
		dst := r.slices[i]
		if dst.pid == 0 {
			continue
		}
		if n.Kind == view.KindRun && n.Run.ParentRunID != "" {
			p, ok := byRun[n.Run.ParentRunID]
			if !ok || p == i || r.slices[p].pid == 0 {
				continue
			}
			name := n.Run.Kind
			if name == "" {
				name = "child run"
			}
			r.flow(r.innermost(p, dst.ts), i, name)
		} else if r.opt.AllFlows && n.Kind != view.KindRun && n.Parent >= 0 && r.slices[n.Parent].pid != 0 {
			r.flow(n.Parent, i, "child")
		}
	}
}

// innermost returns the deepest node of the subtree of run node p whose slice contains ts
// (p itself when none does).
func (r *renderer) innermost(p int, ts int64) int {
	best := p
	depth := r.v.Nodes[p].Depth
	for j := p + 1; j < len(r.v.Nodes) && r.v.Nodes[j].Depth > depth; j++ {
		n := &r.v.Nodes[j]
		if n.Run != r.v.Nodes[p].Run {
			continue // a nested child run is not part of the parent's own slices
		}
		s := r.slices[j]
		if s.pid != 0 && s.ts <= ts && ts < s.ts+s.dur && n.Depth > r.v.Nodes[best].Depth {
			best = j
		}
	}
	return best
}

// flow writes a flow from the slice of node src to the slice of node dst; each end is bound
// to the slice that encloses it on its track.
func (r *renderer) flow(src, dst int, name string) {
	s, d := r.slices[src], r.slices[dst]
	r.flowID++
	// The start point lies inside the source slice, as close to the child's start as possible.
	sts := min(max(d.ts, s.ts), s.ts+max(s.dur-1, 0))
	for _, e := range []struct {
		ph       string
		pid, tid int
		ts       int64
	}{{"s", s.pid, s.tid, sts}, {"f", d.pid, d.tid, d.ts}} {
		r.sep()
		r.buf = append(r.buf, `{"ph":"`...)
		r.buf = append(r.buf, e.ph...)
		r.buf = append(r.buf, `","name":`...)
		r.buf = appendString(r.buf, name)
		r.buf = append(r.buf, `,"cat":"lifeline.link","id":`...)
		r.buf = strconv.AppendInt(r.buf, int64(r.flowID), 10)
		r.buf = append(r.buf, `,"pid":`...)
		r.buf = strconv.AppendInt(r.buf, int64(e.pid), 10)
		r.buf = append(r.buf, `,"tid":`...)
		r.buf = strconv.AppendInt(r.buf, int64(e.tid), 10)
		r.buf = append(r.buf, `,"ts":`...)
		r.buf = appendMicros(r.buf, e.ts)
		if e.ph == "f" {
			r.buf = append(r.buf, `,"bp":"e"`...)
		}
		r.buf = append(r.buf, '}')
	}
	r.flush(false)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string (control characters escaped, invalid UTF-8 replaced).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', byte(c))
		case c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c == '<' || c == '>' || c == '&':
			b = append(b, '\\', 'u', hexDigits[c>>12&0xf], hexDigits[c>>8&0xf], hexDigits[c>>4&0xf], hexDigits[c&0xf])
		case c == 0xfffd:
			b = append(b, "\ufffd"...)
		default:
			b = utf8.AppendRune(b, c)
		}
	}
	return append(b, '"')
}
