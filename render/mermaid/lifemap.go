package mermaid

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// MapFlowchart writes a lifecycle map as a Mermaid flowchart: each run entry flows into its turn
// loops; a loop points at its model and tool calls, loops back on itself, and leads to its
// bound exit and to the entry's exits, grouped by outcome.
func MapFlowchart(w io.Writer, m *model.Map) error {
	bw := bufio.NewWriter(w)
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	loopIDs := map[model.Position]string{}
	n := 0
	id := func(prefix string) string { n++; return fmt.Sprintf("%s%d", prefix, n) }
	for _, e := range m.Entries {
		eid := id("E")
		fmt.Fprintf(&b, "  %s[\"run entry: %s<br/>%s\"]\n", eid, mapLabel(e.Func), mapLabel(e.Pos.String()))
		for _, l := range e.Loops {
			lid, ok := loopIDs[l.Pos]
			if !ok {
				lid = id("L")
				loopIDs[l.Pos] = lid
				bound := "no bound"
				if l.Bound != nil {
					bound = "bound: " + l.Bound.Expr
					if l.Bound.Default != "" {
						bound += " = " + l.Bound.Default
					}
				}
				cancel := "no cancel check"
				if l.ChecksCancel {
					cancel = "checks cancel"
				}
				fmt.Fprintf(&b, "  %s{{\"turn loop (%s)<br/>%s<br/>%s<br/>%s\"}}\n", lid, l.Kind, mapLabel(l.Pos.String()), mapLabel(bound), cancel)
				fmt.Fprintf(&b, "  %s -->|next step| %s\n", lid, lid)
				for _, c := range l.ModelCalls {
					cid := id("M")
					fmt.Fprintf(&b, "  %s([\"model: %s<br/>%s\"])\n  %s --> %s\n", cid, mapLabel(c.Callee), mapLabel(c.Pos.String()), lid, cid)
				}
				for _, c := range l.ToolCalls {
					cid := id("T")
					kind := "tool"
					if c.Parallel {
						kind = "tool (parallel)"
					}
					fmt.Fprintf(&b, "  %s[/\"%s: %s<br/>%s\"/]\n  %s --> %s\n", cid, kind, mapLabel(c.Callee), mapLabel(c.Pos.String()), lid, cid)
				}
				if ob := l.OnBound; ob != nil {
					bid := id("B")
					what := ob.Kind
					if ob.StopReason != "" {
						what += " " + string(ob.StopReason)
					}
					fmt.Fprintf(&b, "  %s[\"at bound: %s<br/>%s\"]\n  %s -->|bound hit| %s\n", bid, mapLabel(what), mapLabel(ob.Pos.String()), lid, bid)
				}
			}
			fmt.Fprintf(&b, "  %s --> %s\n", eid, lid)
		}
		outcomes := map[string][]string{}
		var order []string
		for _, x := range e.Exits {
			key := x.OutcomeString()
			if _, ok := outcomes[key]; !ok {
				order = append(order, key)
			}
			outcomes[key] = append(outcomes[key], x.Pos.String())
		}
		for _, key := range order {
			xid := id("X")
			at := outcomes[key]
			more := ""
			if len(at) > 3 {
				more = fmt.Sprintf(" +%d more", len(at)-3)
				at = at[:3]
			}
			fmt.Fprintf(&b, "  %s([\"%s<br/>%s%s\"])\n  %s -.->|exit| %s\n", xid, mapLabel(key), mapLabel(strings.Join(at, ", ")), more, eid, xid)
		}
	}
	if _, err := bw.WriteString(b.String()); err != nil {
		return fmt.Errorf("writing flowchart: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing flowchart: %w", err)
	}
	return nil
}

// mapLabel escapes text for a quoted Mermaid flowchart label.
func mapLabel(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ")
	return r.Replace(s)
}
