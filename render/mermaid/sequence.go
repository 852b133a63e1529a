package mermaid

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// pos is where a message goes: its time (nanoseconds from the trace start, as a float so that an
// absurd clock cannot overflow it; the seq in a timeless tree), then the seq of the event it
// draws, so that messages whose times tie keep the order of the log.
type pos struct {
	t float64
	q int64
}

func (a pos) before(b pos) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.q < b.q
}

// event is a unit of the sequence diagram placed at a point in time (or in seq order).
type event struct {
	key pos
	ord int
	u   unit
}

// sequence draws runs, the model and the tools as participants and the lifecycle as messages
// between them, in time order (seq order for a timeless tree).
func sequence(v *view.View, title string) diagram {
	d := diagram{notes: summaryNote(v), header: []string{"sequenceDiagram", "    title " + title}}
	part := map[*model.Run]string{}
	hasModel, hasTools := false, false
	for i := range v.Nodes {
		n := &v.Nodes[i]
		switch n.Kind {
		case view.KindRun:
			id := "r" + strconv.Itoa(len(part))
			part[n.Run] = id
			d.header = append(d.header, "    participant "+id+" as "+Label("run "+view.ShortID(n.ID, 20)+" "+n.Name))
		case view.KindModel:
			hasModel = true
		case view.KindTool:
			hasTools = true
		}
	}
	if hasModel {
		d.header = append(d.header, "    participant model as model")
	}
	if hasTools {
		d.header = append(d.header, "    participant tools as tools")
	}
	timeless := v.Tree.Timeless || v.Start.IsZero()
	key := func(ts time.Time, seq int64) pos {
		if timeless {
			return pos{float64(seq), seq}
		}
		if ts.IsZero() {
			return pos{0, seq}
		}
		return pos{v.OffsetNS(ts), seq}
	}
	var evs []event
	add := func(k pos, lvl int, lines ...string) {
		u := unit{lines: lines, size: sizeOf(lines), level: lvl}
		evs = append(evs, event{key: k, ord: len(evs), u: u})
	}
	endKey := func(n *view.Node) pos {
		if !n.Span.Ended || n.Span.EndSeq <= 0 {
			// open or end seq unknown: at its drawn end, after every recorded event of that time
			if timeless {
				return pos{1 << 62, 1 << 62}
			}
			return pos{v.OffsetNS(v.EndOf(n)), 1 << 62}
		}
		return key(v.EndOf(n), n.Span.EndSeq)
	}
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.Kind == view.KindSession {
			continue
		}
		me := part[n.Run]
		start := key(n.Span.Start, n.Span.Seq)
		switch n.Kind {
		case view.KindRun:
			r := n.Run
			if p := v.Tree.Run(r.ParentRunID); p != nil && part[p] != "" && r.ParentRunID != r.ID {
				kind := r.Kind
				if kind == "" {
					kind = "child run"
				}
				txt := kind + " " + view.ShortID(r.ID, 20)
				if r.Attempt > 1 {
					txt += " attempt " + strconv.Itoa(r.Attempt)
				}
				add(start, 0, "    "+part[p]+"->>"+me+": "+Label(txt))
			} else {
				add(start, 0, "    Note over "+me+": "+Label("run start"+flags(n)))
			}
			end := "run " + orDash(n.Status)
			if n.Stop != "" {
				end += " " + string(n.Stop)
			}
			if n.Err != nil {
				end += " (" + n.Err.String() + ")"
			}
			add(endKey(n), 0, "    Note over "+me+": "+Label(end+flags(n)))
		case view.KindWait:
			txt := "wait " + n.Name
			if n.Status != "" {
				txt += " · " + n.Status
			}
			add(start, 1, "    Note over "+me+": "+Label(txt+flags(n)))
		case view.KindTurn:
			add(start, 3, "    Note over "+me+": "+Label("turn "+view.ShortID(n.ID, 20)+flags(n)))
			if n.Stop != "" || n.Failed() {
				add(endKey(n), 3, "    Note over "+me+": "+Label("turn end "+orDash(n.Status)+" "+string(n.Stop)))
			}
		case view.KindStep:
			idx := ""
			if st, ok := n.Obj.(*model.Step); ok {
				idx = strconv.Itoa(st.Index)
			}
			add(start, 2, "    Note right of "+me+": "+Label("step "+idx+" "+view.ShortID(n.ID, 16)+flags(n)))
			evs = append(evs, toolEvents(v, i, me, start, key, endKey, len(evs))...)
		case view.KindModel:
			add(start, 1, "    "+me+"->>model: "+Label(orDash(n.Name)))
			add(endKey(n), 1, reply("model", me, n))
		}
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].key != evs[j].key {
			return evs[i].key.before(evs[j].key)
		}
		return evs[i].ord < evs[j].ord
	})
	for _, e := range evs {
		d.units = append(d.units, e.u)
	}
	return d
}

// toolEvents makes the messages of a step's tool calls: overlapping calls go into one par block.
// Calls overlap when one starts before the other ends, by time and, when times tie, by seq.
func toolEvents(v *view.View, step int, me string, _ pos, key func(time.Time, int64) pos, endKey func(*view.Node) pos, ord int) []event {
	var calls []*view.Node
	for j := step + 1; j < len(v.Nodes) && v.Nodes[j].Parent == step; j++ {
		if v.Nodes[j].Kind == view.KindTool {
			calls = append(calls, &v.Nodes[j])
		}
	}
	var out []event
	for i := 0; i < len(calls); {
		// A cluster: calls that start before the latest end so far.
		j := i + 1
		end := endKey(calls[i])
		for j < len(calls) && key(calls[j].Span.Start, calls[j].Span.Seq).before(end) {
			if e := endKey(calls[j]); end.before(e) {
				end = e
			}
			j++
		}
		first := key(calls[i].Span.Start, calls[i].Span.Seq)
		if j-i == 1 {
			n := calls[i]
			out = append(out, event{key: first, ord: ord + len(out), u: mk(1, "    "+me+"->>tools: "+Label(orDash(n.Name)))})
			out = append(out, event{key: endKey(n), ord: ord + len(out), u: mk(1, reply("tools", me, n))})
		} else {
			var lines []string
			for k := i; k < j; k++ {
				n := calls[k]
				if k == i {
					lines = append(lines, "    par "+Label(orDash(n.Name)))
				} else {
					lines = append(lines, "    and "+Label(orDash(n.Name)))
				}
				lines = append(lines, "        "+me+"->>tools: "+Label(orDash(n.Name)), "    "+reply("tools", me, n))
			}
			lines = append(lines, "    end")
			out = append(out, event{key: first, ord: ord + len(out), u: mk(1, lines...)})
		}
		i = j
	}
	return out
}

func mk(level int, lines ...string) unit {
	return unit{lines: lines, size: sizeOf(lines), level: level}
}

// reply is the answer of the model or a tool: a dashed arrow, crossed when it failed; an open
// call gets a note instead.
func reply(from, to string, n *view.Node) string {
	if n.Open() {
		return "    Note over " + from + ": " + Label(orDash(n.Name)+" ▸open, no reply recorded")
	}
	txt := orDash(n.Status)
	if !n.Usage.IsZero() {
		txt += fmt.Sprintf(" · %s in / %s out", view.Count(n.Usage.InputTokens), view.Count(n.Usage.OutputTokens))
	}
	if n.Err != nil {
		txt += " · " + n.Err.String()
	}
	txt += flags(n)
	if !n.Span.Start.IsZero() {
		txt += " · " + spanDur(n)
	}
	arrow := "-->>"
	if n.Failed() {
		arrow = "--x"
	}
	return "    " + from + arrow + to + ": " + Label(txt)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func flags(n *view.Node) string {
	var b strings.Builder
	if n.Open() {
		b.WriteString(" ▸open")
	}
	for _, f := range n.Findings {
		b.WriteString(" ⚑" + f.Code)
	}
	if len(n.Span.Inferred) > 0 {
		b.WriteString(" ~inferred " + strings.Join(n.Span.Inferred, ","))
	}
	return b.String()
}

// spanDur is a node's recorded duration (0s when its start or end time is unknown), without
// overflow however far apart its clock puts the two.
func spanDur(n *view.Node) string {
	if n.Span.Start.IsZero() || n.Span.End.IsZero() {
		return view.Dur(0)
	}
	return view.DurBetween(n.Span.Start, n.Span.End)
}
