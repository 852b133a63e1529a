// Package text renders a lifecycle tree as an indented, width-aware text tree for terminals and
// logs: one row per session, run, wait, turn, step, model call and tool call with its layer
// name, shortened id, name, status and stop reason, start offset from the beginning of the
// trace, duration, and token/cost roll-ups (taken from the model's per-layer sums, each model
// call counted once). Errors and invariant findings follow the row they concern; what was
// inferred rather than recorded is marked with "~", open nodes with "[open]", and the tree's
// notes close the output.
//
// All trace text is untrusted: control characters and ANSI escape sequences are removed before
// anything is written. Colour is used only when Options.Color says so; the package does no
// terminal detection of its own.
package text

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options control the text rendering.
type Options struct {
	// Width is the line width in columns; 0 means 100. Widths below 60 are treated as 60.
	Width int
	// Color emits ANSI colours (the caller decides: a TTY and no NO_COLOR).
	Color bool
	// FullIDs prints ids whole instead of shortened.
	FullIDs bool
	// Findings are invariant findings shown under the nodes they concern.
	Findings []model.Finding
}

// DefaultWidth is the width used when Options.Width is 0.
const DefaultWidth = 100

// Column widths of the right-hand side.
const (
	colStart  = 9
	colDur    = 9
	colTokens = 15
	colCost   = 8
	rightW    = colStart + colDur + colTokens + colCost + 4
)

type style uint8

const (
	plain style = iota
	bold
	dim
	red
	green
	yellow
	cyan
	magenta
	// name is plain text that is cut first when a row is too long.
	name
)

var sgr = [...]string{"", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m", "\x1b[35m", ""}

// How a segment gives way when a row is too long: names are cut first, then ids are shortened
// around "…", then the list of inferred facts becomes a bare "~"; the rest is never cut unless
// nothing else is left.
type give uint8

const (
	keep give = iota
	giveID
	giveInferred
)

type seg struct {
	s  string
	st style
	// id is the whole id of a giveID segment, written as " "+id; pre and post go around it
	// (" (subagent of " … ")").
	g         give
	id        string
	pre, post string
}

// idSeg is a segment holding an id that is shortened only when the row needs the room.
func (p *printer) idSeg(pre, id, post string, st style) seg {
	if !p.opt.FullIDs {
		id = view.Clean(id)
		return seg{s: pre + id + post, st: st, g: giveID, id: id, pre: pre, post: post}
	}
	return seg{s: pre + view.Clean(id) + post, st: st}
}

type printer struct {
	// narrow drops the token and cost columns: usage goes on a line of its own.
	narrow bool
	// lw is the cells the left part of a row may take in the current session: its longest
	// label plus a cell (the right columns follow after a 2-cell gap), at most what the width
	// leaves (0 before the first session: the whole room).
	lw    int
	w     *bufio.Writer
	opt   Options
	width int
	// rs streams the rows one session at a time; v is its view (the current session's rows).
	rs *view.Rows
	v  *view.View
	// all, lab and col are the segment buffers of row, label and columns, reused from row to
	// row so that a row allocates no segment list of its own.
	all, lab, col []seg
	tmp           []byte
	// glyphs holds the tree prefixes made so far ("│  ├─ "), made once each (the short ones).
	glyphs map[string]string
	last   []bool
	prev   []int
	cont   []string
}

// Render writes the text tree of t to w.
func Render(w io.Writer, t *model.Tree, opts Options) error {
	if t == nil {
		t = &model.Tree{}
	}
	p := &printer{w: bufio.NewWriterSize(w, 64<<10), opt: opts, width: opts.Width}
	if p.width == 0 {
		p.width = DefaultWidth
	}
	if p.width < 60 {
		p.width = 60
	}
	p.narrow = p.width < 90
	p.rs = view.Stream(t, opts.Findings)
	p.v = &p.rs.View
	p.header()
	p.rs.Each(p.rows)
	p.footer()
	if err := p.w.Flush(); err != nil {
		return fmt.Errorf("render text: %w", err)
	}
	return nil
}

func (p *printer) id(id string) string {
	if p.opt.FullIDs {
		return view.Clean(id)
	}
	return view.ShortID(id, 14)
}

// minID is the fewest cells an id is shortened to.
const minID = 12

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return view.Count(int64(n)) + " " + many
}

func (p *printer) header() {
	t := p.v.Tree
	s := t.Summarize()
	failed := ""
	if s.FailedToolCalls > 0 {
		failed = fmt.Sprintf(" (%d failed)", s.FailedToolCalls)
	}
	p.wrap("lifeline timeline — "+strings.Join([]string{plural(s.Sessions, "session", "sessions"),
		plural(s.Runs, "run", "runs"), plural(s.Turns, "turn", "turns"), plural(s.Steps, "step", "steps"),
		plural(s.ModelCalls, "model call", "model calls"), plural(s.ToolCalls, "tool call", "tool calls")}, ", ")+failed, plain)
	var total model.Usage
	for _, se := range t.Sessions {
		total = total.Add(se.Usage)
	}
	var info []string
	switch {
	case t.Timeless:
		info = append(info, "timeless: no event carried a time; rows keep the recorded order, the start column shows seq")
	case !p.v.Start.IsZero():
		tr := "trace " + view.DurBetween(p.v.Start, p.v.End) + " from " + p.v.Start.UTC().Format("2006-01-02T15:04:05.000Z07:00")
		if p.v.Overflow() {
			tr += " (absurd clock: longer than 292 years)"
		}
		info = append(info, tr)
	}
	if !total.IsZero() {
		u := "tokens " + view.Count(total.InputTokens) + " in / " + view.Count(total.OutputTokens) + " out"
		if total.CachedTokens > 0 {
			u += " (" + view.Count(total.CachedTokens) + " cached)"
		}
		if total.CostUSD > 0 {
			u += " · " + view.Cost(total.CostUSD)
		}
		info = append(info, u)
	}
	inferred, open := p.rs.Inferred, p.rs.Open
	if inferred > 0 {
		info = append(info, plural(inferred, "node", "nodes")+" partly inferred (~), the rest recorded")
	} else if p.rs.Count > 0 {
		info = append(info, "everything recorded, nothing inferred")
	}
	if open > 0 {
		info = append(info, plural(open, "node", "nodes")+" never ended [open]")
	}
	for _, s := range info {
		p.wrap(s, dim)
	}
	if p.rs.Count == 0 {
		p.line([]seg{{s: "(no sessions)", st: dim}})
	}
}

// colHead is the left part of the column header row.
const colHead = "layer id name · status stop reason"

// columnHeader writes the column header row, aligned to the current session's rows.
func (p *printer) columnHeader() {
	t := p.v.Tree
	start := "start"
	if t.Timeless {
		start = "seq"
	}
	right := pad(start, colStart) + " " + pad("duration", colDur)
	if !p.narrow {
		right += " " + pad("tokens in/out", colTokens) + " " + pad("cost", colCost)
	}
	p.row(nil, []seg{{s: colHead, st: dim}}, []seg{{s: right, st: dim}})
}

// wrap writes s in lines of at most the width, breaking at spaces.
func (p *printer) wrap(s string, st style) {
	indent := 0 // continuation lines start with two spaces; a cut must come after them
	for view.Width(s) > p.width {
		cut := strings.LastIndexByte(s[:min(len(s), p.width)], ' ')
		if cut <= indent {
			break
		}
		indent = 2
		p.line([]seg{{s: s[:cut], st: st}})
		s = "  " + s[cut+1:]
	}
	p.line([]seg{{s: s, st: st}})
}

// padTo appends s to b right-aligned in n cells, as pad returns it.
func padTo(b []byte, s string, n int) []byte {
	for w := view.Width(s); w < n; w++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

func pad(s string, n int) string {
	if w := view.Width(s); w < n {
		return strings.Repeat(" ", n-w) + s
	}
	return s
}

// line writes segments truncated to the width.
func (p *printer) line(segs []seg) {
	p.emit(fit(segs, p.width))
	p.w.WriteByte('\n')
}

// rightWidth is the cells the right columns take.
func (p *printer) rightWidth() int {
	if p.narrow {
		return colStart + colDur + 2
	}
	return rightW
}

// row writes a left part (truncated to p.lw, or to what the right columns leave) and the right
// columns.
func (p *printer) row(prefix []seg, left []seg, right []seg) {
	lw := p.width - p.rightWidth() - 1
	if p.lw > 0 && p.lw < lw {
		lw = p.lw
	}
	buf := append(append(p.all[:0], prefix...), left...)
	p.all = buf
	all := fit(shrink(buf, lw), lw)
	used := 0
	for _, s := range all {
		used += view.Width(s.s)
	}
	p.emit(all)
	if len(right) > 0 {
		for range lw - used + 1 {
			p.w.WriteByte(' ')
		}
		p.emit(right)
	}
	p.w.WriteByte('\n')
}

// shrink makes segs fit in n cells if it can, in this order: ids are shortened around "…" to
// 20 cells (a UUID to its first 8 digits), names are cut to 8 cells, ids to minID cells, and
// the list of inferred facts becomes a bare "~". Ids stay whole when the row has the room.
func shrink(segs []seg, n int) []seg {
	total := 0
	for _, s := range segs {
		total += view.Width(s.s)
	}
	ids := func(floor int) {
		for i := range segs {
			if total <= n {
				return
			}
			sg := &segs[i]
			if sg.g != giveID {
				continue
			}
			w := view.Width(sg.s)
			cur := w - view.Width(sg.pre) - view.Width(sg.post) // the id as shortened so far
			if want := max(floor, cur-(total-n)); want < cur {
				sg.s = sg.pre + view.ShortID(sg.id, want) + sg.post
				total -= w - view.Width(sg.s)
			}
		}
	}
	ids(20)
	for i := range segs {
		if total <= n {
			break
		}
		if segs[i].st != name {
			continue
		}
		w := view.Width(segs[i].s)
		keep := max(8, w-(total-n))
		if keep < w {
			segs[i].s = view.Truncate(segs[i].s, keep)
			total -= w - view.Width(segs[i].s)
		}
	}
	ids(minID)
	for i := range segs {
		if total <= n {
			break
		}
		if segs[i].g == giveInferred {
			w := view.Width(segs[i].s)
			segs[i].s = " ~"
			total -= w - 2
		}
	}
	return segs
}

// fit truncates a segment list to n cells.
func fit(segs []seg, n int) []seg {
	total := 0
	for _, s := range segs {
		total += view.Width(s.s)
	}
	if total <= n {
		return segs
	}
	out := make([]seg, 0, len(segs))
	left := n
	for _, s := range segs {
		w := view.Width(s.s)
		if w < left {
			out = append(out, s)
			left -= w
			continue
		}
		cut := view.Truncate(s.s, left)
		if strings.HasSuffix(cut, "……") {
			cut = strings.TrimSuffix(cut, "…")
		}
		out = append(out, seg{s: cut, st: s.st})
		break
	}
	return out
}

func (p *printer) emit(segs []seg) {
	for _, s := range segs {
		if s.s == "" {
			continue
		}
		if p.opt.Color && sgr[s.st] != "" {
			p.w.WriteString(sgr[s.st])
			p.w.WriteString(s.s)
			p.w.WriteString("\x1b[0m")
		} else {
			p.w.WriteString(s.s)
		}
	}
}

func statusStyle(status string) style {
	switch status {
	case "completed", "ok", "approved":
		return green
	case "failed", "error", "unknown", "denied":
		return red
	case "cancelled", "waiting", "queued", "running", "open":
		return yellow
	}
	return plain
}

// glyph returns a+b, the same string each time for a short one.
func (p *printer) glyph(a, b string) string {
	if len(a)+len(b) > 64 { // a deep tree has as many prefixes as depths: not kept
		return a + b
	}
	p.tmp = append(append(p.tmp[:0], a...), b...)
	if g, ok := p.glyphs[string(p.tmp)]; ok {
		return g
	}
	if p.glyphs == nil {
		p.glyphs = map[string]string{}
	}
	g := string(p.tmp)
	p.glyphs[g] = g
	return g
}

// rows writes the rows of one session (p.v.Nodes), whose first row is row base of the tree.
func (p *printer) rows(base int) {
	nodes := p.v.Nodes
	// last[i]: row i is the last child of its parent. prev[j+1] is the last row seen so far
	// whose parent is row j (a session's parent is -1), -1 for none.
	last := slices.Grow(p.last[:0], len(nodes))[:len(nodes)]
	prev := slices.Grow(p.prev[:0], len(nodes)+1)[:len(nodes)+1]
	p.last, p.prev = last, prev
	for i := range prev {
		prev[i] = -1
	}
	for i := range nodes {
		last[i] = true
		if j := prev[nodes[i].Parent+1]; j >= 0 {
			last[j] = false
		}
		prev[nodes[i].Parent+1] = i
	}
	// The left part of this session's rows is as wide as its longest label (a tree prefix is 3
	// cells a level), so that the right columns follow it rather than the terminal's edge.
	longest := view.Width(colHead)
	for i := range nodes {
		w := 3 * nodes[i].Depth
		p.lab = p.label(p.lab[:0], &nodes[i])
		for _, s := range p.lab {
			w += view.Width(s.s)
		}
		longest = max(longest, w)
	}
	p.lw = longest + 1
	if len(nodes) > 0 {
		p.w.WriteByte('\n')
		p.columnHeader()
	}
	// cont[d] is the prefix that continues the vertical lines of the ancestors at depth d.
	cont := p.cont[:0]
	defer func() { p.cont = cont }()
	for i := range nodes {
		n := &nodes[i]
		d := n.Depth
		for len(cont) < d+2 {
			cont = append(cont, "")
		}
		var glyph, childCont string
		if d > 0 {
			if last[i] {
				glyph, childCont = p.glyph(cont[d], "└─ "), p.glyph(cont[d], "   ")
			} else {
				glyph, childCont = p.glyph(cont[d], "├─ "), p.glyph(cont[d], "│  ")
			}
		}
		cont[d+1] = childCont
		p.lab = p.label(p.lab[:0], n)
		p.col = p.columns(p.col[:0], n)
		p.row([]seg{{s: glyph, st: dim}}, p.lab, p.col)
		// Continuation lines: errors and findings.
		if !(p.narrow && !n.Usage.IsZero() && n.Kind != view.KindModel) && n.Err == nil && len(n.Findings) == 0 {
			continue // no continuation line
		}
		sub := childCont + "  "
		if i+1 < len(nodes) && nodes[i+1].Parent == i {
			sub = childCont + "│ "
		}
		if p.narrow && !n.Usage.IsZero() && n.Kind != view.KindModel {
			u := "∑ " + view.Count(n.Usage.InputTokens) + " in / " + view.Count(n.Usage.OutputTokens) + " out"
			if n.Usage.CostUSD > 0 {
				u += " · " + view.Cost(n.Usage.CostUSD)
			}
			p.line([]seg{{s: sub, st: dim}, {s: u, st: dim}})
		}
		if n.Err != nil {
			p.line([]seg{{s: sub, st: dim}, {s: "! ", st: red}, {s: view.Clean(n.Err.String()), st: red}})
		}
		for _, f := range n.Findings {
			st := yellow
			if f.Severity == model.SevError {
				st = red
			}
			p.line([]seg{{s: sub, st: dim}, {s: "⚑ " + f.Code + " " + string(f.Severity) + ": ", st: st}, {s: view.Clean(f.Message), st: plain}})
		}
	}
}

// label appends the left-hand segments of n's row to segs.
func (p *printer) label(segs []seg, n *view.Node) []seg {
	segs = append(segs, seg{s: n.Kind.String(), st: bold})
	switch n.Kind {
	case view.KindStep:
		if st, ok := n.Obj.(*model.Step); ok && st.Index > 0 {
			segs = append(segs, seg{s: fmt.Sprintf(" %d", st.Index), st: bold})
		}
		segs = append(segs, p.idSeg(" ", n.ID, "", cyan))
	case view.KindWait:
		segs = append(segs, seg{s: " " + view.Clean(n.Name), st: plain})
		if n.ID != "" {
			segs = append(segs, p.idSeg(" for ", n.ID, "", cyan))
		}
	default:
		segs = append(segs, p.idSeg(" ", n.ID, "", cyan))
		if n.Name != "" {
			segs = append(segs, seg{s: " " + view.Clean(n.Name), st: name})
		}
	}
	if r, ok := n.Obj.(*model.Run); ok {
		if r.AgentVersion != "" {
			segs = append(segs, seg{s: "@" + view.Clean(r.AgentVersion), st: dim})
		}
		if r.Attempt > 1 {
			segs = append(segs, seg{s: fmt.Sprintf(" attempt %d", r.Attempt), st: magenta})
		}
		if r.ParentRunID != "" {
			kind := r.Kind
			if kind == "" {
				kind = "child"
			}
			segs = append(segs, p.idSeg(" ("+view.Clean(kind)+" of ", r.ParentRunID, ")", magenta))
		}
	}
	status := n.Status
	if n.Open() && status == "" {
		status = "open"
	}
	if status != "" || n.Stop != "" {
		segs = append(segs, seg{s: " ·", st: dim})
	}
	if status != "" {
		segs = append(segs, seg{s: " " + view.Clean(status), st: statusStyle(status)})
	}
	if n.Kind == view.KindRun && n.Run.WaitReason != "" && n.Run.Status == model.StatusWaiting {
		segs = append(segs, seg{s: " (" + view.Clean(string(n.Run.WaitReason)) + ")", st: yellow})
	}
	if n.Stop != "" {
		segs = append(segs, seg{s: " " + view.Clean(string(n.Stop)), st: stopStyle(n.Stop)})
	}
	if n.Open() && status != "open" {
		segs = append(segs, seg{s: " [open]", st: yellow})
	}
	if len(n.Span.Inferred) > 0 {
		segs = append(segs, seg{s: " ~" + view.Clean(strings.Join(n.Span.Inferred, ",")), st: dim, g: giveInferred})
	}
	return segs
}

func stopStyle(r model.StopReason) style {
	switch r {
	case model.StopGoalReached:
		return green
	case model.StopAwaitingApproval, model.StopMaxSteps, model.StopMaxTurns, model.StopCancelled:
		return yellow
	}
	if strings.HasPrefix(string(r), "other:") {
		return plain
	}
	return red
}

// columns appends the right-hand columns of n's row to segs.
func (p *printer) columns(segs []seg, n *view.Node) []seg {
	var start, dur string
	switch {
	case p.v.Tree.Timeless:
		if n.Span.Seq > 0 {
			start = fmt.Sprintf("#%d", n.Span.Seq)
		}
		dur = "—"
	case n.Span.Start.IsZero():
		start, dur = "?", "?"
	default:
		start = "+" + view.DurBetween(p.v.Start, n.Span.Start)
		if n.Kind == view.KindSession && !n.Span.Ended {
			dur = view.DurBetween(n.Span.Start, p.v.EndOf(n)) // a session normally outlives its trace
		} else if n.Open() || n.Span.End.IsZero() {
			dur = ">" + view.DurBetween(n.Span.Start, p.v.EndOf(n))
		} else {
			dur = view.DurBetween(n.Span.Start, n.Span.End)
		}
	}
	var tok, cost string
	if !n.Usage.IsZero() {
		tok = compact(n.Usage.InputTokens) + "/" + compact(n.Usage.OutputTokens)
		if n.Usage.CostUSD > 0 {
			cost = view.Cost(n.Usage.CostUSD)
		}
	}
	durStyle := plain
	if n.Open() {
		durStyle = yellow
	}
	// Each column is built in p.tmp and made a string once (pad and + would allocate each part).
	p.tmp = append(padTo(p.tmp[:0], start, colStart), ' ')
	segs = append(segs, seg{s: string(p.tmp), st: dim})
	p.tmp = padTo(p.tmp[:0], dur, colDur)
	segs = append(segs, seg{s: string(p.tmp), st: durStyle})
	if p.narrow {
		return segs
	}
	p.tmp = padTo(append(padTo(append(p.tmp[:0], ' '), tok, colTokens), ' '), cost, colCost)
	return append(segs, seg{s: string(p.tmp), st: plain})
}

// compact prints counts below 100,000 in full and larger ones as 123k / 1.2M / 9.2E.
func compact(n int64) string {
	switch {
	case n < 100_000:
		return view.Count(n)
	case n < 10_000_000:
		return fmt.Sprintf("%dk", n/1000)
	}
	f, unit := float64(n)/1e6, 0
	for f >= 1000 && unit < 4 {
		f, unit = f/1000, unit+1
	}
	return fmt.Sprintf("%.1f%c", f, "MGTPE"[unit])
}

func (p *printer) footer() {
	t := p.v.Tree
	if len(p.v.Unplaced) > 0 {
		p.w.WriteByte('\n')
		p.line([]seg{{s: "findings not tied to a node:", st: bold}})
		for _, f := range p.v.Unplaced {
			st := yellow
			if f.Severity == model.SevError {
				st = red
			}
			p.line([]seg{{s: "  ⚑ " + f.Code + " " + string(f.Severity) + ": ", st: st}, {s: view.Clean(f.Message), st: plain}})
		}
	}
	if len(t.Notes) > 0 {
		p.w.WriteByte('\n')
		p.line([]seg{{s: "notes (what the projection had to repair or infer):", st: bold}})
		for _, n := range t.Notes {
			p.line([]seg{{s: "  - " + view.Clean(n), st: plain}})
		}
	}
}
