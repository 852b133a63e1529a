package recognize_test

import (
	"strings"
	"testing"
)

// TestWorklistNoTurnLoop checks a dependency loader's worklist (testdata/goshapes/worklist,
// modelled on lifeline's own analyzer/srcir/deps.go BuildWithDeps :55-97 and askName
// :449-504): each round parses the pending files, adds each (its module built), answers the
// names asked of it, and an answer may ask another file, which becomes pending. add's result
// is tested, a collection of it iterated, and two parts of its module compared (sy := m.syms[name];
// if sy.from == m.name); before, that comparison was a dispatch by name whose "tools" were the
// module's own text method, and the loop a turn loop with no bound (lifeline vet flagged
// deps.go:64 as unboundedloop). The record a name is read from is no callable that name
// selects: no dispatch, no loop, no entry.
func TestWorklistNoTurnLoop(t *testing.T) {
	res := recognizeGoShapes(t)
	if e := entry(res, "worklist.Load"); e != nil {
		t.Errorf("worklist.Load: want no run entry, got loops %+v", e.Loops)
	}
	for _, l := range res.Loops {
		if l.Map.Pos.File != "" && strings.Contains(l.Map.Pos.File, "worklist/") {
			t.Errorf("want no turn loop in worklist, got one at %s:%d", l.Map.Pos.File, l.Map.Pos.Line)
		}
	}
}
