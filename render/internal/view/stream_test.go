package view_test

import (
	"reflect"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// TestStreamSameRows: Stream and Each give the rows of Flatten, one session at a time (Parent
// indices relative to the session's first row), with the same findings on the same rows, the
// same unplaced findings, bounds and counts. The scenarios include a finding whose id two
// sessions share (the first row with it wins) and two sessions in one tree.
func TestStreamSameRows(t *testing.T) {
	scs := rendertest.All(t)
	// Every scenario's sessions in one tree, with every finding: ids shared across sessions.
	var all model.Tree
	var allFindings []model.Finding
	for _, sc := range scs {
		all.Sessions = append(all.Sessions, sc.Tree.Sessions...)
		allFindings = append(allFindings, sc.Findings...)
	}
	scs = append(scs, rendertest.Scenario{Name: "all", Tree: &all, Findings: allFindings})
	for _, sc := range scs {
		v := view.Flatten(sc.Tree, sc.Findings)
		rs := view.Stream(sc.Tree, sc.Findings)
		if !rs.Start.Equal(v.Start) || !rs.End.Equal(v.End) || !reflect.DeepEqual(rs.Unplaced, v.Unplaced) {
			t.Errorf("%s: bounds %v–%v, unplaced %d; Flatten: %v–%v, %d", sc.Name, rs.Start, rs.End, len(rs.Unplaced), v.Start, v.End, len(v.Unplaced))
		}
		inferred, open := 0, 0
		for i := range v.Nodes {
			if len(v.Nodes[i].Span.Inferred) > 0 {
				inferred++
			}
			if v.Nodes[i].Open() {
				open++
			}
		}
		if rs.Count != len(v.Nodes) || rs.Inferred != inferred || rs.Open != open {
			t.Errorf("%s: counts %d/%d/%d, want %d/%d/%d", sc.Name, rs.Count, rs.Inferred, rs.Open, len(v.Nodes), inferred, open)
		}
		sessions, placed := 0, 0
		rs.Each(func(base int) {
			sessions++
			for i := range rs.Nodes {
				placed += len(rs.Nodes[i].Findings)
				got, want := rs.Nodes[i], v.Nodes[base+i]
				if want.Parent >= 0 {
					want.Parent -= base
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: row %d: %+v, want %+v", sc.Name, base+i, got, want)
				}
			}
		})
		if sc.Name == "all" && placed == 0 {
			t.Errorf("all: no finding placed on a row (the test would not see a misplaced one)")
		}
		if sessions != len(sc.Tree.Sessions) {
			t.Errorf("%s: %d sessions streamed, want %d", sc.Name, sessions, len(sc.Tree.Sessions))
		}
	}
}
