// Package waterfall renders a lifecycle tree as a terminal Gantt chart: one row per session,
// run, wait, turn, step, model call and tool call, each with a bar placed on a time axis scaled
// to the line width. Parallel tool calls show as overlapping bars (and are marked "∥"), failed
// nodes use a distinct fill and "✗", nodes that never ended are drawn to the end of the trace
// with a light fill and "▸open", and nodes with invariant findings carry "⚑". A timeless tree
// (no event had a time) is laid out by event order instead, and the chart says so.
//
// All trace text is cleaned of control characters and escape sequences; colour is used only
// when Options.Color says so.
package waterfall

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options control the waterfall rendering.
type Options struct {
	// Width is the line width in columns; 0 means 100. Widths below 50 are treated as 50.
	Width int
	// Color emits ANSI colours (the caller decides: a TTY and no NO_COLOR).
	Color bool
	// FullIDs labels rows with whole ids instead of shortened ones.
	FullIDs bool
	// Findings are invariant findings; rows they concern are marked.
	Findings []model.Finding
}

// Bar fills.
const (
	fillOK     = '█'
	fillFailed = '▓'
	fillOpen   = '░'
	fillWait   = '┄'
	fillCancel = '╳'
	instant    = '│'
)

const (
	reset  = "\x1b[0m"
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	blue   = "\x1b[34m"
	purple = "\x1b[35m"
	cyan   = "\x1b[36m"
	grey   = "\x1b[90m"
)

var kindColor = map[view.Kind]string{view.KindSession: grey, view.KindRun: blue, view.KindWait: yellow,
	view.KindTurn: cyan, view.KindStep: green, view.KindModel: purple, view.KindTool: ""}

type chart struct {
	w            *bufio.Writer
	opt          Options
	v            *view.View
	labelW, barW int
	pos          func(n *view.Node) (float64, float64) // start and end, 0..1
	timeless     bool
	ordinal      map[int64]int
	parallel     []bool
	width        int
}

// Render writes the waterfall chart of t to w.
func Render(w io.Writer, t *model.Tree, opts Options) error {
	if t == nil {
		t = &model.Tree{}
	}
	width := opts.Width
	if width == 0 {
		width = 100
	}
	if width < 50 {
		width = 50
	}
	c := &chart{w: bufio.NewWriterSize(w, 64<<10), opt: opts, v: view.Flatten(t, opts.Findings), width: width}
	c.labelW = min(max(width*2/5, 24), 80) // wide terminals give labels (whole ids) the room
	c.barW = width - c.labelW - 3          // " │" before the bars, "│" after
	c.timeless = t.Timeless || c.v.TotalNS() <= 0
	if c.timeless {
		c.layoutOrdinal()
	} else {
		c.layoutTime()
	}
	c.markParallel()
	c.header()
	for i := range c.v.Nodes {
		c.row(i)
	}
	c.legend()
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("render waterfall: %w", err)
	}
	return nil
}

func (c *chart) layoutTime() {
	total := c.v.TotalNS() // float nanoseconds: no overflow however far apart the clock puts events
	c.pos = func(n *view.Node) (float64, float64) {
		if n.Span.Start.IsZero() {
			return -1, -1
		}
		s := c.v.OffsetNS(n.Span.Start) / total
		e := c.v.OffsetNS(c.v.EndOf(n)) / total
		return s, math.Max(s, e)
	}
}

// layoutOrdinal places nodes by the rank of their start and end seq among all seqs.
func (c *chart) layoutOrdinal() {
	var seqs []int64
	for i := range c.v.Nodes {
		s := c.v.Nodes[i].Span
		if s.Seq > 0 {
			seqs = append(seqs, s.Seq)
		}
		if s.EndSeq > 0 {
			seqs = append(seqs, s.EndSeq)
		}
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	c.ordinal = map[int64]int{}
	for _, s := range seqs {
		if _, ok := c.ordinal[s]; !ok {
			c.ordinal[s] = len(c.ordinal)
		}
	}
	last := float64(max(len(c.ordinal), 1))
	c.pos = func(n *view.Node) (float64, float64) {
		si, ok := c.ordinal[n.Span.Seq]
		if !ok {
			return -1, -1
		}
		e := last
		if ei, ok := c.ordinal[n.Span.EndSeq]; ok && n.Span.Ended {
			e = float64(ei) + 1
		} else if n.Kind == view.KindSession {
			e = last
		}
		return float64(si) / last, e / last
	}
}

// markParallel flags tool calls whose interval overlaps another tool call of the same step.
func (c *chart) markParallel() {
	c.parallel = make([]bool, len(c.v.Nodes))
	for i := 0; i < len(c.v.Nodes); {
		n := &c.v.Nodes[i]
		if n.Kind != view.KindStep {
			i++
			continue
		}
		j := i + 1
		for j < len(c.v.Nodes) && c.v.Nodes[j].Parent == i {
			j++
		}
		for a := i + 1; a < j; a++ {
			for b := a + 1; b < j; b++ {
				na, nb := &c.v.Nodes[a], &c.v.Nodes[b]
				if na.Kind != view.KindTool || nb.Kind != view.KindTool {
					continue
				}
				as, ae := c.pos(na)
				bs, be := c.pos(nb)
				if as >= 0 && bs >= 0 && as < be && bs < ae {
					c.parallel[a], c.parallel[b] = true, true
				}
			}
		}
		i = j
	}
}

func (c *chart) color(code, s string) string {
	if !c.opt.Color || code == "" {
		return s
	}
	return code + s + reset
}

func (c *chart) header() {
	v := c.v
	s := v.Tree.Summarize()
	head := fmt.Sprintf(" — %s, %s, %s, %s, %s", plural(s.Runs, "run"), plural(s.Turns, "turn"), plural(s.Steps, "step"),
		plural(s.ModelCalls, "model call"), plural(s.ToolCalls, "tool call"))
	if s.FailedToolCalls > 0 {
		head += fmt.Sprintf(" (%d failed)", s.FailedToolCalls)
	}
	c.w.WriteString(c.color("\x1b[1m", "lifeline waterfall") + view.Truncate(head, c.width-len("lifeline waterfall")) + "\n")
	if len(v.Nodes) == 0 {
		c.w.WriteString("(no sessions)\n")
		return
	}
	pad := strings.Repeat(" ", c.labelW+2)
	if c.timeless {
		c.w.WriteString(view.Truncate("timeless: no event carried a time — bars show the order of events (ordinal layout), not durations", c.labelW+c.barW+3) + "\n")
		c.w.WriteString(pad + axisRule(c.barW, nil) + "\n")
		return
	}
	total := v.TotalNS()
	head = fmt.Sprintf("trace %s from %s · 1 column ≈ %s", view.DurNS(total), v.Start.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		view.DurNS(total/float64(c.barW)))
	if v.Overflow() {
		head += " · absurd clock: longer than 292 years"
	}
	c.w.WriteString(view.Truncate(head, c.width) + "\n")
	// Ticks at a round interval, about every 12 columns (float nanoseconds: no overflow).
	step := niceStep(total, max(c.barW/12, 2))
	var ticks []int
	labels := []byte(strings.Repeat(" ", c.barW+1))
	for k := 0; ; k++ {
		t := float64(k) * step
		if t > total || k > c.barW {
			break
		}
		col := min(int(t/total*float64(c.barW)), c.barW-1)
		ticks = append(ticks, col)
		lab := view.DurNS(t)
		if col+len(lab) <= len(labels) && (col == 0 || labels[col-1] == ' ') {
			copy(labels[col:], lab)
		}
	}
	c.w.WriteString(pad + strings.TrimRight(string(labels), " ") + "\n")
	c.w.WriteString(pad + axisRule(c.barW, ticks) + "\n")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return view.Count(int64(n)) + " " + what + "s"
}

func axisRule(n int, ticks []int) string {
	r := []rune(strings.Repeat("─", n))
	for _, t := range ticks {
		if t >= 0 && t < n {
			r[t] = '┬'
		}
	}
	return string(r)
}

// niceStep is the smallest 1, 2 or 5 × 10^k nanoseconds at least total/parts.
func niceStep(total float64, parts int) float64 {
	if parts < 1 {
		parts = 1
	}
	raw := total / float64(parts)
	if raw < 1 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// label is the row's label in at most budget cells: ids are whole when they fit, else shortened
// around "…" to what is left (at least 12 cells), then the label is cut.
func (c *chart) label(n *view.Node, budget int) string {
	whole := c.labelWith(n, func(id string) string { return view.Clean(id) })
	if c.opt.FullIDs || view.Width(whole) <= budget {
		return view.Truncate(whole, budget)
	}
	rest := view.Width(c.labelWith(n, func(string) string { return "" }))
	return view.Truncate(c.labelWith(n, func(id string) string { return view.ShortID(id, max(12, budget-rest)) }), budget)
}

func (c *chart) labelWith(n *view.Node, id func(string) string) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", n.Depth))
	b.WriteString(n.Kind.String())
	b.WriteByte(' ')
	switch n.Kind {
	case view.KindStep:
		if st, ok := n.Obj.(*model.Step); ok && st.Index > 0 {
			fmt.Fprintf(&b, "%d ", st.Index)
		}
		b.WriteString(id(n.ID))
	case view.KindWait:
		b.WriteString(view.Clean(n.Name))
	case view.KindModel, view.KindTool:
		if n.Name != "" {
			b.WriteString(view.Clean(n.Name))
		} else {
			b.WriteString(id(n.ID))
		}
	case view.KindRun:
		b.WriteString(id(n.ID))
		if n.Name != "" {
			b.WriteString(" " + view.Clean(n.Name))
		}
	default:
		b.WriteString(id(n.ID))
	}
	return b.String()
}

// marks are the short status markers after a row's label.
func (c *chart) marks(i int, n *view.Node) (string, string) {
	var m []string
	code := ""
	if n.Failed() {
		m = append(m, "✗")
		code = red
	}
	if n.Open() {
		m = append(m, "▸open")
		if code == "" {
			code = yellow
		}
	}
	if c.parallel[i] {
		m = append(m, "∥")
	}
	if len(n.Findings) > 0 {
		m = append(m, "⚑"+n.Findings[0].Code)
	}
	if len(n.Span.Inferred) > 0 {
		m = append(m, "~")
	}
	return strings.Join(m, " "), code
}

func (c *chart) row(i int) {
	n := &c.v.Nodes[i]
	marks, markCode := c.marks(i, n)
	dur := ""
	if !c.timeless && !n.Span.Start.IsZero() {
		dur = view.DurBetween(n.Span.Start, c.v.EndOf(n))
		if n.Open() {
			dur = ">" + dur
		}
	}
	right := dur
	if marks != "" && dur != "" {
		right = marks + " " + dur
	} else if marks != "" {
		right = marks
	}
	rw := view.Width(right)
	label := c.label(n, c.labelW-rw-1)
	gap := c.labelW - view.Width(label) - rw
	c.w.WriteString(c.color(kindColor[n.Kind], label))
	c.w.WriteString(strings.Repeat(" ", max(gap, 1)))
	if marks != "" {
		c.w.WriteString(c.color(markCode, marks))
		if dur != "" {
			c.w.WriteByte(' ')
		}
	}
	c.w.WriteString(dur)
	c.w.WriteString(" │")
	c.w.WriteString(c.bar(n))
	c.w.WriteString("│\n")
}

func (c *chart) bar(n *view.Node) string {
	s, e := c.pos(n)
	if s < 0 {
		return strings.Repeat(" ", c.barW)
	}
	w := float64(c.barW)
	from := int(math.Floor(s * w))
	to := int(math.Ceil(e * w))
	from = min(max(from, 0), c.barW-1)
	to = min(max(to, from+1), c.barW)
	fill := fillOK
	code := kindColor[n.Kind]
	switch {
	case n.Kind == view.KindWait:
		fill = fillWait
	case n.Failed():
		fill, code = fillFailed, red
	case n.Open():
		fill, code = fillOpen, yellow
	case n.Status == "cancelled":
		fill, code = fillCancel, grey
	}
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", from))
	if e == s && !n.Open() {
		b.WriteString(c.color(code, string(instant)))
	} else {
		b.WriteString(c.color(code, strings.Repeat(string(fill), to-from)))
	}
	b.WriteString(strings.Repeat(" ", c.barW-to))
	return b.String()
}

func (c *chart) legend() {
	if len(c.v.Nodes) == 0 {
		return
	}
	c.w.WriteByte('\n')
	c.wrapItems([]string{string(fillOK) + " recorded", string(fillFailed) + " failed ✗", string(fillCancel) + " cancelled",
		string(fillOpen) + " open ▸ (never ended: drawn to the trace end)", string(fillWait) + " wait", "∥ parallel", "⚑ finding", "~ inferred"})
	for i := range c.v.Nodes {
		n := &c.v.Nodes[i]
		for _, f := range n.Findings {
			c.w.WriteString(view.Truncate("⚑ "+f.Code+" "+string(f.Severity)+" on "+n.Kind.String()+" "+c.id(n.ID, 24)+": "+view.Clean(f.Message), c.width) + "\n")
		}
	}
	for _, f := range c.v.Unplaced {
		c.w.WriteString(view.Truncate("⚑ "+f.Code+" "+string(f.Severity)+": "+view.Clean(f.Message), c.width) + "\n")
	}
	for _, note := range c.v.Tree.Notes {
		c.w.WriteString(view.Truncate("note: "+view.Clean(note), c.width) + "\n")
	}
}

// id is an id for the findings list: whole when FullIDs, else shortened to max cells.
func (c *chart) id(id string, max int) string {
	if c.opt.FullIDs {
		return view.Clean(id)
	}
	return view.ShortID(id, max)
}

// wrapItems writes legend items two spaces apart, wrapped at the width.
func (c *chart) wrapItems(items []string) {
	line := ""
	for _, it := range items {
		it = view.Truncate(it, c.width)
		switch {
		case line == "":
			line = it
		case view.Width(line)+2+view.Width(it) <= c.width:
			line += "  " + it
		default:
			c.w.WriteString(line + "\n")
			line = it
		}
	}
	if line != "" {
		c.w.WriteString(line + "\n")
	}
}
