// Package mermaid renders a lifecycle tree as Mermaid diagrams that GitHub, the Mermaid live
// editor and mermaid-cli display: a Gantt chart (one section per run; turns, steps, model and
// tool calls as tasks, failed ones marked crit, open ones active and drawn to the end of the
// trace) or, with Options.Sequence, a sequence diagram (runs, the model and the tools as
// participants; parallel tool calls in par blocks; sub-agent, hand-off and retry runs as
// messages from their parent run).
//
// Output is Markdown: each diagram in a ```mermaid fence. Mermaid refuses diagrams longer than
// 50,000 characters (GitHub does not raise the limit), so a larger chart is split into several
// diagrams, continuing the same sections; with Options.Bare a single bare diagram is written
// instead and large trees are aggregated (calls, then steps, then turns are left out) until it
// fits. Either way a %% comment and a note say what was done. Labels are sanitised for Mermaid's
// syntax: characters that end a label or start markup (: ; # " < > & ` and the like, newlines,
// control characters) are replaced with look-alikes or spaces.
package mermaid

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// MaxTextSize is Mermaid's default (and GitHub's) limit on the length of one diagram's text.
const MaxTextSize = 50_000

// budget is the size each diagram is kept under (leaving room for fences and comments).
const budget = MaxTextSize - 2_000

// Options control the Mermaid rendering.
type Options struct {
	// Sequence draws a sequence diagram instead of a Gantt chart.
	Sequence bool
	// Bare writes one diagram without Markdown fences (for .mmd files); large trees are
	// aggregated instead of split.
	Bare bool
	// Title is the diagram title; empty means "lifeline timeline".
	Title string
	// Findings are invariant findings; tasks they concern are marked ⚑ and listed in a note.
	Findings []model.Finding
	// MaxSize overrides the per-diagram size budget (for tests); 0 means just under 50,000.
	MaxSize int
}

// unit is a group of lines that must stay in one diagram (a task, a par block).
type unit struct {
	section string
	lines   []string
	size    int
	// level is the aggregation level at which the unit is dropped (1 calls, 2 steps, 3 turns).
	level int
}

type diagram struct {
	header []string
	units  []unit
	notes  []string
}

// Render writes the Mermaid diagram(s) of t to w.
func Render(w io.Writer, t *model.Tree, opts Options) error {
	if t == nil {
		t = &model.Tree{}
	}
	v := view.Flatten(t, opts.Findings)
	title := opts.Title
	if title == "" {
		title = "lifeline timeline"
	}
	var d diagram
	if opts.Sequence {
		d = sequence(v, Label(title))
	} else {
		d = gantt(v, Label(title))
	}
	max := opts.MaxSize
	if max <= 0 {
		max = budget
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if opts.Bare {
		writeBare(bw, d, max)
	} else {
		writeFenced(bw, d, max)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("render mermaid: %w", err)
	}
	return nil
}

func sizeOf(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}

// pack splits units into diagrams of at most max bytes each (header and section lines
// included); a unit larger than max on its own gets a diagram of its own.
func pack(d diagram, max int) [][]string {
	head := sizeOf(d.header)
	var out [][]string
	var cur []string
	size := 0
	section := ""
	start := func() {
		cur = append([]string(nil), d.header...)
		size = head
		section = ""
	}
	start()
	for _, u := range d.units {
		extra := u.size
		if u.section != section {
			extra += len("    section ") + len(u.section) + 1
		}
		if size+extra > max && len(cur) > len(d.header) {
			out = append(out, cur)
			start()
			extra = u.size + len("    section ") + len(u.section) + 1
		}
		if u.section != section && u.section != "" {
			cur = append(cur, "    section "+u.section)
			section = u.section
		}
		cur = append(cur, u.lines...)
		size += extra
	}
	return append(out, cur)
}

func writeFenced(w *bufio.Writer, d diagram, max int) {
	parts := pack(d, max)
	for _, n := range d.notes {
		w.WriteString("> " + n + "\n\n")
	}
	if len(parts) > 1 {
		fmt.Fprintf(w, "> The timeline exceeds Mermaid's %d-character limit per diagram, so it is split into %d diagrams, in time order; sections continue across them.\n\n", MaxTextSize, len(parts))
	}
	for i, p := range parts {
		if i > 0 {
			w.WriteByte('\n')
		}
		w.WriteString("```mermaid\n")
		if len(parts) > 1 {
			fmt.Fprintf(w, "%%%% lifeline: diagram %d of %d: the timeline was split to stay under Mermaid's %d-character limit\n", i+1, len(parts), MaxTextSize)
		}
		for _, l := range p {
			w.WriteString(l)
			w.WriteByte('\n')
		}
		w.WriteString("```\n")
	}
}

var levelNames = [...]string{"", "model and tool calls", "model and tool calls and steps", "model and tool calls, steps and turns"}

func writeBare(w *bufio.Writer, d diagram, max int) {
	level := 0
	units := d.units
	for ; level < 4; level++ {
		var kept []unit
		size := sizeOf(d.header)
		section := ""
		for _, u := range d.units {
			if u.level != 0 && u.level <= level {
				continue
			}
			kept = append(kept, u)
			size += u.size
			if u.section != section {
				size += len(u.section) + 13
				section = u.section
			}
		}
		units = kept
		if size <= max {
			break
		}
	}
	var comments []string
	if level > 0 {
		lv := min(level, 3)
		comments = append(comments, fmt.Sprintf("%%%% lifeline: the timeline exceeds Mermaid's %d-character limit: aggregated, %s left out", MaxTextSize, levelNames[lv]))
	}
	parts := pack(diagram{header: d.header, units: units}, max)
	if len(parts) > 1 {
		comments = append(comments, fmt.Sprintf("%%%% lifeline: even aggregated the timeline is too long: only the first part is shown (%d of %d parts dropped)", len(parts)-1, len(parts)))
	}
	for _, n := range d.notes {
		comments = append(comments, "%% "+n)
	}
	lines := parts[0]
	// Comments go after the diagram type line.
	w.WriteString(lines[0] + "\n")
	for _, c := range comments {
		w.WriteString(c + "\n")
	}
	for _, l := range lines[1:] {
		w.WriteString(l + "\n")
	}
}

// look-alikes for characters that Mermaid treats as syntax or markup.
var replacer = strings.NewReplacer(
	":", "∶", ";", "⁏", "#", "♯", "\"", "ʺ", "'", "ʹ", "`", "ˋ", "<", "‹", ">", "›", "&", "＆",
	"{", "⦃", "}", "⦄", "[", "⟦", "]", "⟧", "|", "¦", "%", "％", "\\", "⧵")

// Label makes untrusted text safe as a Mermaid label: one line, no control characters or
// escape sequences, syntax characters replaced by look-alikes, at most 80 characters.
func Label(s string) string {
	s = strings.TrimSpace(view.Clean(s))
	s = replacer.Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "∅"
	}
	return view.Truncate(s, 80)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func summaryNote(v *view.View) []string {
	s := v.Tree.Summarize()
	notes := []string{fmt.Sprintf("lifeline timeline: %s, %s, %s, %s, %s, %s (%d failed).", plural(s.Sessions, "session"), plural(s.Runs, "run"),
		plural(s.Turns, "turn"), plural(s.Steps, "step"), plural(s.ModelCalls, "model call"), plural(s.ToolCalls, "tool call"), s.FailedToolCalls)}
	if v.Tree.Timeless {
		notes = append(notes, "Timeless trace: no event carried a time, so the chart shows the order of events (one unit per event), not durations.")
	} else if partlyTimeless(v) {
		notes = append(notes, "Some events carry no time, so the chart shows the order of events (one unit per event), not durations.")
	}
	open := 0
	for i := range v.Nodes {
		if v.Nodes[i].Open() {
			open++
		}
	}
	if open > 0 {
		notes = append(notes, fmt.Sprintf("%s never ended: drawn to the end of the trace and marked ▸open.", plural(open, "node")))
	}
	nf := 0
	for i := range v.Nodes {
		nf += len(v.Nodes[i].Findings)
	}
	if nf+len(v.Unplaced) > 0 {
		notes = append(notes, fmt.Sprintf("%s from the invariant checks (⚑ on the tasks they concern).", plural(nf+len(v.Unplaced), "finding")))
	}
	return notes
}
