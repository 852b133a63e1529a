// Package view flattens a lifecycle tree (model.Tree) into the row list the timeline renderers
// draw: one Node per session, run, wait, turn, step, model call and tool call, in display order,
// with depth, parent index, trace-relative timing and the invariant findings that concern each
// node. It also holds the small text helpers every renderer shares (cleaning untrusted text,
// shortening ids, formatting durations and tokens). It is internal to render/.
package view

import (
	"sort"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// Kind is the lifecycle layer of a node.
type Kind uint8

// Node kinds, outermost first.
const (
	KindSession Kind = iota
	KindRun
	KindWait
	KindTurn
	KindStep
	KindModel
	KindTool
)

var kindNames = [...]string{"session", "run", "wait", "turn", "step", "model", "tool"}

// String returns the layer name shown to people: session, run, wait, turn, step, model, tool.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "node"
}

// Node is one row of a flattened tree.
type Node struct {
	Kind Kind
	// ID is the node's canonical id (a wait has its call id or "").
	ID string
	// Name is the agent, model or tool name (raw, untrusted).
	Name string
	// Depth is the display depth (a sub-agent run nests under its parent run).
	Depth int
	// Parent is the index of the parent node in View.Nodes, -1 for a session.
	Parent int
	// Span is the node's interval (for a wait, its own span).
	Span *model.Span
	// Status is a run's status, or the outcome of a turn, step or call ("" if not recorded).
	Status string
	// Stop is the stop reason of a run or turn.
	Stop model.StopReason
	// Err is the recorded failure, if any.
	Err *model.ErrorInfo
	// Usage is the node's usage (already rolled up by the model for steps, turns, runs, sessions).
	Usage model.Usage
	// Run is the run a node belongs to (nil for a session).
	Run *model.Run
	// Obj is the model object (*model.Session, *model.Run, *model.Wait, *model.Turn, *model.Step,
	// *model.ModelCall or *model.ToolCall).
	Obj any
	// Findings are the invariant findings whose most specific known id is this node's.
	Findings []*model.Finding
	// Extent is the last time recorded in the node's subtree (sessions only).
	Extent time.Time
}

// Open reports whether the node was never ended. A session is never reported open: it is
// durable and normally outlives the trace.
func (n *Node) Open() bool { return !n.Span.Ended && n.Kind != KindSession }

// Failed reports whether the node ended in error (or, for a run, failed).
func (n *Node) Failed() bool {
	switch n.Status {
	case "error", "failed", "unknown":
		return true
	}
	return n.Err != nil && n.Status != "cancelled"
}

// View is a flattened tree.
type View struct {
	Tree  *model.Tree
	Nodes []Node
	// Start and End bound every recorded time in the tree (zero when the tree is timeless).
	Start, End time.Time
	// Unplaced are findings that concern no node of the tree.
	Unplaced []*model.Finding
}

// Flatten builds the row list of t. Children of a run (its turns, waits and sub-agent runs
// whose parent_run_id names it) are ordered by start time, then seq; everything else keeps the
// tree's order. A run whose parent is not in the tree stays under its session.
func Flatten(t *model.Tree, findings []model.Finding) *View {
	v := &View{Tree: t}
	n := 0
	t.Walk(func(any, int) bool { n++; return true })
	v.Nodes = make([]Node, 0, n+8)
	for _, se := range t.Sessions {
		v.session(se)
	}
	v.place(findings)
	return v
}

// session appends the rows of se to v.Nodes, the session's own first; Parent indices are
// indices of v.Nodes.
func (v *View) session(se *model.Session) {
	v.bound(&se.Span)
	si := len(v.Nodes)
	v.Nodes = append(v.Nodes, Node{Kind: KindSession, ID: se.ID, Parent: -1, Span: &se.Span, Usage: se.Usage, Obj: se})
	var children map[string][]*model.Run
	var top []*model.Run
	if hasParents(se.Runs) {
		children = map[string][]*model.Run{}
		inSession := make(map[string]bool, len(se.Runs))
		for _, r := range se.Runs {
			inSession[r.ID] = true
		}
		loops := cyclic(se.Runs)
		for _, r := range se.Runs {
			if r.ParentRunID != "" && r.ParentRunID != r.ID && inSession[r.ParentRunID] && !loops[r] {
				children[r.ParentRunID] = append(children[r.ParentRunID], r)
			} else {
				top = append(top, r)
			}
		}
	} else {
		top = se.Runs
	}
	for _, r := range top {
		v.run(r, si, 1, children)
	}
	ext := se.End
	for j := si + 1; j < len(v.Nodes); j++ {
		for _, ts := range [2]time.Time{v.Nodes[j].Span.Start, v.Nodes[j].Span.End} {
			if ts.After(ext) {
				ext = ts
			}
		}
	}
	v.Nodes[si].Extent = ext
}

// hasParents reports whether a run names a parent run (only then may runs nest).
func hasParents(runs []*model.Run) bool {
	for _, r := range runs {
		if r.ParentRunID != "" {
			return true
		}
	}
	return false
}

// Rows is a flattened tree read one session at a time, for a renderer that writes each row as
// it goes: at most one session's rows are held at once, where a View holds every row of the
// tree. The embedded View has the trace bounds and the unplaced findings of the whole tree
// from the start; during Each, its Nodes are the rows of the current session only (Parent
// indices are indices of that slice).
type Rows struct {
	View
	// Count is the number of rows of the whole tree; Inferred of those with something
	// inferred, Open of those never ended (see Node.Open).
	Count, Inferred, Open int
	// found holds the findings placed on a row, by the row's index in the whole tree.
	found map[int][]*model.Finding
}

// Stream prepares the rows of t for Each. It flattens every session once to find the trace
// bounds, the counts and where each finding goes (the same rows and placement as Flatten) but
// keeps no row.
func Stream(t *model.Tree, findings []model.Finding) *Rows {
	rs := &Rows{View: View{Tree: t}}
	// want maps every id a finding names to the index of the first row with that id (-1: none yet).
	var want map[string]int
	if len(findings) > 0 {
		want = map[string]int{}
		for i := range findings {
			for _, id := range findings[i].IDs {
				want[id] = -1
			}
		}
	}
	if want == nil { // nothing to place: the bounds and counts need no display order
		rs.count(t)
		return rs
	}
	base := 0
	for _, se := range t.Sessions {
		rs.Nodes = rs.Nodes[:0]
		rs.session(se)
		for i := range rs.Nodes {
			n := &rs.Nodes[i]
			if len(n.Span.Inferred) > 0 {
				rs.Inferred++
			}
			if n.Open() {
				rs.Open++
			}
			if want != nil && n.ID != "" && n.Kind != KindWait {
				if j, ok := want[n.ID]; ok && j < 0 {
					want[n.ID] = base + i
				}
			}
		}
		base += len(rs.Nodes)
	}
	rs.Count = base
	for i := range findings {
		f := &findings[i]
		placed := false
		for _, id := range f.IDs {
			if j := want[id]; j >= 0 {
				if rs.found == nil {
					rs.found = map[int][]*model.Finding{}
				}
				rs.found[j] = append(rs.found[j], f)
				placed = true
				break
			}
		}
		if !placed {
			rs.Unplaced = append(rs.Unplaced, f)
		}
	}
	rs.Nodes = nil
	return rs
}

// count sets the bounds and counts of Stream by walking t (the rows Flatten would make: every
// session, run, wait, turn, step and call once).
func (rs *Rows) count(t *model.Tree) {
	add := func(s *model.Span, session bool) {
		rs.bound(s)
		rs.Count++
		if len(s.Inferred) > 0 {
			rs.Inferred++
		}
		if !s.Ended && !session {
			rs.Open++
		}
	}
	for _, se := range t.Sessions {
		add(&se.Span, true)
		for _, r := range se.Runs {
			add(&r.Span, false)
			for _, w := range r.Waits {
				add(&w.Span, false)
			}
			for _, tu := range r.Turns {
				add(&tu.Span, false)
				for _, st := range tu.Steps {
					add(&st.Span, false)
					for _, m := range st.ModelCalls {
						add(&m.Span, false)
					}
					for _, c := range st.ToolCalls {
						add(&c.Span, false)
					}
				}
			}
		}
	}
}

// Each sets Nodes to the rows of each session in turn, in display order, and calls fn with
// the index in the whole tree of the session's first row. The slice is reused: fn must not
// keep it.
func (rs *Rows) Each(fn func(base int)) {
	base := 0
	for _, se := range rs.Tree.Sessions {
		clear(rs.Nodes)
		rs.Nodes = rs.Nodes[:0]
		rs.session(se)
		if rs.found != nil {
			for i := range rs.Nodes {
				rs.Nodes[i].Findings = rs.found[base+i]
			}
		}
		fn(base)
		base += len(rs.Nodes)
	}
	clear(rs.Nodes)
	rs.Nodes = nil
}

// cyclic returns the runs whose parent_run_id chain comes back to a run already on it (the runs
// of a parent cycle and those that lead into one). It visits every run once: O(len(runs)).
func cyclic(runs []*model.Run) map[*model.Run]bool {
	byID := make(map[string]*model.Run, len(runs))
	for _, x := range runs {
		byID[x.ID] = x
	}
	const (
		onPath = iota + 1
		clean
		loops
	)
	state := make(map[*model.Run]int, len(runs))
	out := map[*model.Run]bool{}
	var path []*model.Run
	for _, r := range runs {
		path = path[:0]
		end := clean
		for p := r; p != nil; p = byID[p.ParentRunID] {
			if s := state[p]; s != 0 {
				end = s
				if s == onPath {
					end = loops
				}
				break
			}
			state[p] = onPath
			path = append(path, p)
		}
		for _, p := range path {
			state[p] = end
			if end == loops {
				out[p] = true
			}
		}
	}
	return out
}

func (v *View) bound(s *model.Span) {
	for _, ts := range [2]time.Time{s.Start, s.End} {
		if ts.IsZero() {
			continue
		}
		if v.Start.IsZero() || ts.Before(v.Start) {
			v.Start = ts
		}
		if ts.After(v.End) {
			v.End = ts
		}
	}
}

type child struct {
	span *model.Span
	add  func()
}

func (v *View) run(r *model.Run, parent, depth int, children map[string][]*model.Run) {
	v.bound(&r.Span)
	ri := len(v.Nodes)
	v.Nodes = append(v.Nodes, Node{Kind: KindRun, ID: r.ID, Name: r.Agent, Depth: depth, Parent: parent, Span: &r.Span,
		Status: string(r.Status), Stop: r.StopReason, Err: r.Error, Usage: r.Usage, Run: r, Obj: r})
	kids := make([]child, 0, len(r.Turns)+len(r.Waits)+len(children[r.ID]))
	for _, tu := range r.Turns {
		kids = append(kids, child{&tu.Span, func() { v.turn(r, tu, ri, depth+1) }})
	}
	for _, w := range r.Waits {
		kids = append(kids, child{&w.Span, func() {
			v.bound(&w.Span)
			st := string(w.Decision)
			v.Nodes = append(v.Nodes, Node{Kind: KindWait, ID: w.CallID, Name: string(w.Reason), Depth: depth + 1, Parent: ri,
				Span: &w.Span, Status: st, Run: r, Obj: w})
		}})
	}
	for _, c := range children[r.ID] {
		kids = append(kids, child{&c.Span, func() { v.run(c, ri, depth+1, children) }})
	}
	if len(kids) > len(r.Turns) {
		sort.SliceStable(kids, func(i, j int) bool { return before(kids[i].span, kids[j].span) })
	}
	for _, k := range kids {
		k.add()
	}
}

// before orders spans by start time, then by seq; unknown times and seqs keep their order.
func before(a, b *model.Span) bool {
	if !a.Start.IsZero() && !b.Start.IsZero() && !a.Start.Equal(b.Start) {
		return a.Start.Before(b.Start)
	}
	if a.Seq != 0 && b.Seq != 0 {
		return a.Seq < b.Seq
	}
	return false
}

func (v *View) turn(r *model.Run, tu *model.Turn, parent, depth int) {
	v.bound(&tu.Span)
	ti := len(v.Nodes)
	v.Nodes = append(v.Nodes, Node{Kind: KindTurn, ID: tu.ID, Depth: depth, Parent: parent, Span: &tu.Span,
		Status: string(tu.Outcome), Stop: tu.StopReason, Err: tu.Error, Usage: tu.Usage, Run: r, Obj: tu})
	for _, st := range tu.Steps {
		v.bound(&st.Span)
		sti := len(v.Nodes)
		v.Nodes = append(v.Nodes, Node{Kind: KindStep, ID: st.ID, Depth: depth + 1, Parent: ti, Span: &st.Span,
			Status: string(st.Outcome), Err: st.Error, Usage: st.Usage, Run: r, Obj: st})
		calls := len(v.Nodes)
		for _, m := range st.ModelCalls {
			v.bound(&m.Span)
			v.Nodes = append(v.Nodes, Node{Kind: KindModel, ID: m.ID, Name: m.Name, Depth: depth + 2, Parent: sti, Span: &m.Span,
				Status: string(m.Outcome), Err: m.Error, Usage: m.Usage, Run: r, Obj: m})
		}
		for _, c := range st.ToolCalls {
			v.bound(&c.Span)
			status := string(c.Outcome)
			if status == "" && c.Error != nil {
				status = "error"
			}
			v.Nodes = append(v.Nodes, Node{Kind: KindTool, ID: c.ID, Name: c.Name, Depth: depth + 2, Parent: sti, Span: &c.Span,
				Status: status, Err: c.Error, Run: r, Obj: c})
		}
		if len(st.ModelCalls) > 0 && len(st.ToolCalls) > 0 {
			sort.SliceStable(v.Nodes[calls:], func(i, j int) bool {
				return before(v.Nodes[calls+i].Span, v.Nodes[calls+j].Span)
			})
		}
	}
}

// place attaches each finding to the node named by its most specific id that the tree has.
func (v *View) place(findings []model.Finding) {
	if len(findings) == 0 {
		return
	}
	idx := make(map[string]int, len(v.Nodes))
	for i := len(v.Nodes) - 1; i >= 0; i-- { // first occurrence wins
		if v.Nodes[i].ID != "" && v.Nodes[i].Kind != KindWait {
			idx[v.Nodes[i].ID] = i
		}
	}
	for i := range findings {
		f := &findings[i]
		placed := false
		for _, id := range f.IDs {
			if j, ok := idx[id]; ok {
				v.Nodes[j].Findings = append(v.Nodes[j].Findings, f)
				placed = true
				break
			}
		}
		if !placed {
			v.Unplaced = append(v.Unplaced, f)
		}
	}
}

// Offset returns the time from the trace start to ts (0 when either is unknown).
func (v *View) Offset(ts time.Time) time.Duration {
	if ts.IsZero() || v.Start.IsZero() {
		return 0
	}
	return ts.Sub(v.Start)
}

// Total is the time the trace covers.
func (v *View) Total() time.Duration {
	if v.Start.IsZero() {
		return 0
	}
	return v.End.Sub(v.Start)
}

// EndOf returns the node's end for drawing: its recorded end, or the trace end when it is open
// (or its end is unknown).
func (v *View) EndOf(n *Node) time.Time {
	if n.Span.Ended && !n.Span.End.IsZero() {
		return n.Span.End
	}
	if n.Kind == KindSession && !n.Extent.IsZero() {
		return n.Extent
	}
	return v.End
}
