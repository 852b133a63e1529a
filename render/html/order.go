package html

import (
	"sort"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// nestChildRuns moves each child run (a sub-agent or hand-off run nested under its parent run)
// under the tool call of the parent run that was running when the child started, so that the
// page shows "tool transfer_to_coder → run coder" instead of a run hanging after the parent's
// last step. A child run that no tool call of its parent spans (a retry, which starts after its
// parent ended) stays under the parent run. It returns, per new row, the tool call row a run
// was moved under (-1 for the others). Time is linear in the rows plus n log n per parent run
// for sorting its tool calls.
func nestChildRuns(v *view.View) []int {
	n := len(v.Nodes)
	startedBy := make([]int, n)
	for i := range startedBy {
		startedBy[i] = -1
	}
	kids := make([][]int32, n)
	var roots []int32
	for i := range v.Nodes {
		if p := v.Nodes[i].Parent; p < 0 {
			roots = append(roots, int32(i))
		} else {
			kids[p] = append(kids[p], int32(i))
		}
	}
	moved := make([]bool, n)
	toolsOf := map[int][]int{}
	any := false
	for i := range v.Nodes {
		nd := &v.Nodes[i]
		pr := nd.Parent
		if nd.Kind != view.KindRun || pr < 0 || v.Nodes[pr].Kind != view.KindRun || nd.Span.Start.IsZero() {
			continue
		}
		tools, ok := toolsOf[pr]
		if !ok {
			tools = ownTools(v, pr)
			toolsOf[pr] = tools
		}
		tc := containing(v, tools, nd.Span.Start)
		if tc < 0 {
			continue
		}
		moved[i] = true
		kids[tc] = append(kids[tc], int32(i))
		startedBy[i] = tc
		any = true
	}
	if !any {
		return startedBy
	}
	// New pre-order: moved runs leave their old parent and follow the tool call's own children.
	nodes := make([]view.Node, 0, n)
	newIdx := make([]int, n)
	by := make([]int, 0, n)
	stack := make([]int32, 0, 64)
	for r := len(roots) - 1; r >= 0; r-- {
		stack = append(stack, roots[r])
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := v.Nodes[i]
		newIdx[i] = len(nodes)
		if nd.Parent >= 0 {
			if moved[i] {
				nd.Parent = startedBy[i]
			}
			nd.Parent = newIdx[nd.Parent]
			nd.Depth = nodes[nd.Parent].Depth + 1
		}
		sb := -1
		if startedBy[i] >= 0 {
			sb = newIdx[startedBy[i]]
		}
		nodes = append(nodes, nd)
		by = append(by, sb)
		ks := kids[i]
		for k := len(ks) - 1; k >= 0; k-- {
			c := ks[k]
			if moved[c] && v.Nodes[c].Parent == int(i) {
				continue // it now lives under its tool call
			}
			stack = append(stack, c)
		}
	}
	v.Nodes = nodes
	return by
}

// ownTools returns the tool call rows of the run at row r (not of runs nested in it), by start.
func ownTools(v *view.View, r int) []int {
	run := v.Nodes[r].Run
	var out []int
	for j := r + 1; j < len(v.Nodes) && v.Nodes[j].Depth > v.Nodes[r].Depth; j++ {
		if nd := &v.Nodes[j]; nd.Kind == view.KindTool && nd.Run == run && !nd.Span.Start.IsZero() {
			out = append(out, j)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return v.Nodes[out[a]].Span.Start.Before(v.Nodes[out[b]].Span.Start) })
	return out
}

// containing returns the tool call row, of tools sorted by start, that started last at or
// before ts and had not ended at ts (-1 if none). It looks back over at most 64 calls.
func containing(v *view.View, tools []int, ts time.Time) int {
	k := sort.Search(len(tools), func(a int) bool { return v.Nodes[tools[a]].Span.Start.After(ts) })
	for j := k - 1; j >= 0 && j >= k-64; j-- {
		nd := &v.Nodes[tools[j]]
		if !v.EndOf(nd).Before(ts) {
			return tools[j]
		}
	}
	return -1
}

// propagated reports, per row, whether the row's failure came from a failed descendant rather
// than from the row itself: the step, turn and run that fail because one tool call failed carry
// that tool call's error, name it, say they failed because of a tool or model (error kind tool,
// model or provider), or have no error of their own. A row that failed for a reason of its own
// (a timeout, a budget, a guardrail) while something inside it had failed still counts. The page counts and navigates only the failures
// that originated where they are shown, so one root cause is one error.
func propagated(v *view.View) []bool {
	n := len(v.Nodes)
	below := make([][]string, n) // messages of failures below a row (a few are enough)
	failBelow := make([]bool, n)
	prop := make([]bool, n)
	for i := n - 1; i >= 0; i-- { // pre-order: every descendant comes after its ancestor
		nd := &v.Nodes[i]
		own := ""
		if nd.Err != nil {
			own = nd.Err.Message
		}
		if nd.Failed() && failBelow[i] && (own == "" || related(own, below[i]) || carried(nd.Err.Kind)) {
			prop[i] = true
		}
		p := nd.Parent
		if p < 0 {
			continue
		}
		if failBelow[i] || nd.Failed() {
			failBelow[p] = true
		}
		for _, m := range below[i] {
			below[p] = addMsg(below[p], m)
		}
		if nd.Failed() && own != "" {
			below[p] = addMsg(below[p], own)
		}
		if nd.Failed() && (nd.Kind == view.KindTool || nd.Kind == view.KindModel) && nd.Name != "" {
			below[p] = addMsg(below[p], nd.Name)
		}
		below[i] = nil
	}
	return prop
}

func addMsg(list []string, m string) []string {
	for _, x := range list {
		if x == m {
			return list
		}
	}
	if len(list) >= 8 {
		return list
	}
	return append(list, m)
}

// related reports whether an error message repeats (or is contained in) one of the messages.
func related(own string, msgs []string) bool {
	for _, m := range msgs {
		if strings.Contains(own, m) || strings.Contains(m, own) {
			return true
		}
	}
	return false
}

// carried reports whether an error kind says the failure came from a call below.
func carried(kind string) bool {
	switch kind {
	case "tool", "tool_error", "model", "model_error", "provider":
		return true
	}
	return false
}
