package mermaid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// gantt lays the tree out as Gantt tasks: one section per run (sessions with no runs get one of
// their own), times as Unix milliseconds (dateFormat x) so that sub-second spans keep their
// length; a timeless tree uses one millisecond per event in seq order.
func gantt(v *view.View, title string) diagram {
	d := diagram{notes: summaryNote(v)}
	axis := "%M:%S.%L"
	if v.Total().Hours() >= 1 {
		axis = "%H:%M:%S"
	}
	ordinal := map[int64]int64{}
	if v.Tree.Timeless || v.Start.IsZero() || partlyTimeless(v) {
		axis = "%L"
		var seqs []int64
		for i := range v.Nodes {
			s := v.Nodes[i].Span
			for _, q := range [2]int64{s.Seq, s.EndSeq} {
				if q > 0 {
					if _, ok := ordinal[q]; !ok {
						ordinal[q] = 0
						seqs = append(seqs, q)
					}
				}
			}
		}
		sortInt64(seqs)
		for i, q := range seqs {
			ordinal[q] = int64(i)
		}
	}
	d.header = []string{"gantt", "    title " + title, "    dateFormat x", "    axisFormat " + axis}
	last := int64(len(ordinal))
	times := func(n *view.Node) (int64, int64, bool) {
		if len(ordinal) > 0 || v.Tree.Timeless {
			s, ok := ordinal[n.Span.Seq]
			if !ok {
				return 0, 0, false
			}
			e := last
			if q, ok := ordinal[n.Span.EndSeq]; ok && n.Span.Ended {
				e = q + 1
			}
			return s, max(e, s+1), true
		}
		if n.Span.Start.IsZero() {
			return 0, 0, false
		}
		s := n.Span.Start.UnixMilli()
		e := v.EndOf(n).UnixMilli()
		return s, max(e, s+1), true
	}
	section := ""
	for i := range v.Nodes {
		n := &v.Nodes[i]
		switch n.Kind {
		case view.KindSession:
			section = "session " + Label(view.ShortID(n.ID, 24))
			if i+1 < len(v.Nodes) && v.Nodes[i+1].Parent == i {
				continue // its runs make the sections
			}
		case view.KindRun:
			section = runLabel(n)
		}
		s, e, ok := times(n)
		if !ok {
			continue
		}
		var tags []string
		switch {
		case n.Failed():
			tags = append(tags, "crit")
		case n.Open():
			tags = append(tags, "active")
		}
		tags = append(tags, "n"+strconv.Itoa(i))
		name := taskName(n, v)
		line := fmt.Sprintf("    %s :%s, %d, %d", name, strings.Join(tags, ", "), s, e)
		d.units = append(d.units, unit{section: section, lines: []string{line}, size: len(line) + 1, level: level(n.Kind)})
	}
	return d
}

func sortInt64(s []int64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// level is the aggregation level at which a node's task is left out.
func level(k view.Kind) int {
	switch k {
	case view.KindModel, view.KindTool, view.KindWait:
		return 1
	case view.KindStep:
		return 2
	case view.KindTurn:
		return 3
	}
	return 0
}

func runLabel(n *view.Node) string {
	s := "run " + view.ShortID(n.ID, 24)
	if n.Name != "" {
		s += " " + n.Name
	}
	if r := n.Run; r != nil && r.ParentRunID != "" {
		k := r.Kind
		if k == "" {
			k = "child"
		}
		s += " (" + k + " of " + view.ShortID(r.ParentRunID, 24) + ")"
	}
	if n.Status != "" {
		s += " · " + n.Status
	}
	if n.Stop != "" {
		s += " " + string(n.Stop)
	}
	return Label(s)
}

// taskName is a task's label: indent dots for depth, layer, name, status marks and duration.
func taskName(n *view.Node, v *view.View) string {
	var b strings.Builder
	switch n.Kind {
	case view.KindStep:
		b.WriteString("· ")
	case view.KindModel, view.KindTool:
		b.WriteString("·· ")
	}
	b.WriteString(n.Kind.String())
	b.WriteByte(' ')
	switch n.Kind {
	case view.KindModel, view.KindTool:
		if n.Name != "" {
			b.WriteString(n.Name)
		} else {
			b.WriteString(view.ShortID(n.ID, 16))
		}
	case view.KindWait:
		b.WriteString(n.Name)
		if n.Status != "" {
			b.WriteString(" " + n.Status)
		}
	case view.KindRun:
		b.WriteString(view.ShortID(n.ID, 16))
		if n.Name != "" {
			b.WriteString(" " + n.Name)
		}
	case view.KindStep:
		if st := n.Obj; st != nil {
			b.WriteString(view.ShortID(n.ID, 16))
		}
	default:
		b.WriteString(view.ShortID(n.ID, 16))
	}
	if n.Stop != "" && n.Kind == view.KindTurn {
		b.WriteString(" " + string(n.Stop))
	}
	if n.Failed() {
		b.WriteString(" ✗")
	}
	if n.Open() {
		b.WriteString(" ▸open")
	}
	if len(n.Findings) > 0 {
		b.WriteString(" ⚑" + n.Findings[0].Code)
	}
	if !v.Tree.Timeless && !n.Span.Start.IsZero() && !n.Open() {
		b.WriteString(" " + spanDur(n))
	}
	return Label(b.String())
}

// partlyTimeless reports whether some node below the session has no start time (a log whose
// header alone is stamped): such a tree is laid out by event order too.
func partlyTimeless(v *view.View) bool {
	for i := range v.Nodes {
		if n := &v.Nodes[i]; n.Kind != view.KindSession && n.Span.Start.IsZero() && n.Span.Seq > 0 {
			return true
		}
	}
	return false
}
