package store

import (
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/canonical"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
)

// View is one projection of the journal: the lifecycle tree, the invariant findings and a row
// per run.
type View struct {
	Tree     *model.Tree
	Findings []model.Finding
	Runs     []RunRow
	// runOf maps every node id of the tree to its run's id, for placing findings.
	runOf map[string]string
	// Decode are the journal records that could not be read (file:line: why).
	Decode []string
}

// RunRow is the index's summary of one run.
type RunRow struct {
	RunID      string        `json:"run_id"`
	SessionID  string        `json:"session_id"`
	Agent      string        `json:"agent,omitempty"`
	Status     string        `json:"status"`
	StopReason string        `json:"stop_reason,omitempty"`
	Error      string        `json:"error,omitempty"`
	Turns      int           `json:"turns"`
	Steps      int           `json:"steps"`
	ToolCalls  int           `json:"tool_calls"`
	Tokens     int64         `json:"tokens"`
	CostUSD    float64       `json:"cost_usd"`
	Start      time.Time     `json:"start,omitzero"`
	Duration   time.Duration `json:"duration_ns"`
	Findings   int           `json:"findings"`
}

type journal struct {
	spans, events         string
	spansSize, eventsSize int64
}

// buildView reads the journal as far as it is committed, with the same readers as file input.
func buildView(j journal) (*View, error) {
	proj := model.NewProjector()
	check := model.NewChecker()
	sink := func(ev *model.Event) {
		check.Check(ev)
		proj.Apply(ev)
	}
	v := &View{}
	for _, part := range []struct {
		path   string
		size   int64
		format string
	}{{j.spans, j.spansSize, otlp.Name}, {j.events, j.eventsSize, canonical.Name}} {
		if part.size == 0 {
			continue
		}
		f, err := os.Open(part.path)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		rep, err := tracer.Read([]string{"-"}, tracer.Options{Format: part.format, Stdin: io.LimitReader(f, part.size)}, sink)
		f.Close()
		if rep != nil {
			for _, e := range rep.Errors {
				v.Decode = append(v.Decode, fmt.Sprintf("%s: %v", part.path, e))
			}
		}
		if err != nil && rep == nil {
			return nil, fmt.Errorf("store: reading %s: %w", part.path, err)
		}
	}
	v.Tree = proj.Tree()
	v.Findings = check.Finish()
	v.index()
	return v, nil
}

func (v *View) index() {
	v.runOf = map[string]string{}
	var run string
	v.Tree.Walk(func(node any, depth int) bool {
		switch n := node.(type) {
		case *model.Run:
			run = n.ID
			v.runOf[n.ID] = run
		case *model.Turn:
			v.runOf[n.ID] = run
		case *model.Step:
			v.runOf[n.ID] = run
		case *model.ModelCall:
			v.runOf[n.ID] = run
		case *model.ToolCall:
			v.runOf[n.ID] = run
		}
		return true
	})
	perRun := map[string]int{}
	for _, f := range v.Findings {
		if f.Severity == model.SevInfo {
			continue
		}
		if r := v.findingRun(f); r != "" {
			perRun[r]++
		}
	}
	for _, se := range v.Tree.Sessions {
		for _, r := range se.Runs {
			row := RunRow{RunID: r.ID, SessionID: se.ID, Agent: r.Agent, Status: string(r.Status), StopReason: string(r.StopReason),
				Turns: len(r.Turns), Tokens: r.Usage.Total(), CostUSD: r.Usage.CostUSD, Start: r.Start, Findings: perRun[r.ID]}
			if r.Error != nil {
				row.Error = r.Error.Message
				if row.Error == "" {
					row.Error = r.Error.Kind
				}
			}
			if d, ok := r.DurationOK(); ok && r.Ended {
				row.Duration = d
			}
			for _, t := range r.Turns {
				row.Steps += len(t.Steps)
				for _, st := range t.Steps {
					row.ToolCalls += len(st.ToolCalls)
				}
			}
			v.Runs = append(v.Runs, row)
		}
	}
}

// findingRun is the run a finding concerns: that of its most specific id the tree has.
func (v *View) findingRun(f model.Finding) string {
	for _, id := range f.IDs {
		if r, ok := v.runOf[id]; ok {
			return r
		}
	}
	return ""
}

// FindingsByCode counts the findings (info ones aside) by invariant.
func (v *View) FindingsByCode() map[string]int {
	out := map[string]int{}
	for _, f := range v.Findings {
		if f.Severity != model.SevInfo {
			out[f.Code]++
		}
	}
	return out
}

// RunTree returns the tree of one run: its session with that run and the runs it is the parent
// of (sub-agents, retries), and the findings that concern them; ok is false for an unknown run.
func (v *View) RunTree(id string) (*model.Tree, []model.Finding, bool) {
	for _, se := range v.Tree.Sessions {
		for _, r := range se.Runs {
			if r.ID != id {
				continue
			}
			keep := map[string]bool{id: true}
			for changed := true; changed; {
				changed = false
				for _, o := range se.Runs {
					if !keep[o.ID] && keep[o.ParentRunID] {
						keep[o.ID], changed = true, true
					}
				}
			}
			cp := *se
			cp.Runs = nil
			cp.Usage = model.Usage{}
			for _, o := range se.Runs {
				if keep[o.ID] {
					cp.Runs = append(cp.Runs, o)
					cp.Usage = cp.Usage.Add(o.Usage)
				}
			}
			var fs []model.Finding
			for _, f := range v.Findings {
				if keep[v.findingRun(f)] {
					fs = append(fs, f)
				}
			}
			return &model.Tree{Sessions: []*model.Session{&cp}, Timeless: v.Tree.Timeless}, fs, true
		}
	}
	return nil, nil, false
}

// SortRuns orders rows newest first (by start, then id).
func SortRuns(rows []RunRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		if !rows[i].Start.Equal(rows[j].Start) {
			return rows[i].Start.After(rows[j].Start)
		}
		return rows[i].RunID < rows[j].RunID
	})
}
