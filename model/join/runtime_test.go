package join_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
	"github.com/lifeline-dev/lifeline/model/runtime"
)

var runtimeMap = sync.OnceValues(func() (*model.Map, error) {
	m, _, err := lifemap.MapArgs([]string{"./model/runtime"}, lifemap.Options{Dir: "../.."})
	return m, err
})

// recorded is what the reference runtime wrote about one run: the code site (attrs["code.site"])
// of its final status write, of the turn/end that recorded a bound's stop reason, and of the
// run/queued that carried its parent link.
type recorded struct {
	status, bound, parent string
	pauses                []string // run/status waiting the run resumed from
}

func recordedSites(evs []model.Event) map[string]*recorded {
	out := map[string]*recorded{}
	get := func(id string) *recorded {
		if out[id] == nil {
			out[id] = &recorded{}
		}
		return out[id]
	}
	for _, ev := range evs {
		site, _ := ev.Attrs["code.site"].(string)
		switch ev.Type {
		case model.RunEnd:
			get(ev.RunID).status = site
		case model.RunStatusChange:
			if ev.Status == model.StatusWaiting {
				r := get(ev.RunID)
				r.pauses = append(r.pauses, site)
			}
		case model.TurnEnd:
			if ev.StopReason == model.StopMaxSteps || ev.StopReason == model.StopMaxTurns {
				get(ev.RunID).bound = site
			}
		case model.RunQueued:
			if ev.ParentRunID != "" {
				get(ev.RunID).parent = site
			}
		}
	}
	return out
}

// TestRuntimeScenarios is the exact test of the join: on every demo scenario of the reference
// runtime, the join of the scenario's log with the map of ./model/runtime finds, for every run,
// the code site the runtime recorded for its final status, for the bound it hit and for its
// parent link — and matches nothing else (no other exit fits as well, no finding).
func TestRuntimeScenarios(t *testing.T) {
	m, err := runtimeMap()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range runtime.ScenarioNames() {
		t.Run(name, func(t *testing.T) {
			res, err := runtime.RunScenario(context.Background(), name, runtime.ScenarioOptions{Path: t.TempDir() + "/log.jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			want := recordedSites(res.Events)
			j := join.Join(res.Tree, m, join.Options{})
			if len(j.Findings) != 0 {
				t.Errorf("findings on a clean scenario: %v", j.Findings)
			}
			if len(j.Runs) != len(want) && len(want) > 0 {
				t.Errorf("%d runs joined, %d recorded", len(j.Runs), len(want))
			}
			for _, r := range j.Runs {
				w := want[r.RunID]
				if w == nil {
					t.Errorf("run %s: nothing recorded", r.RunID)
					continue
				}
				if w.status == "" && len(w.pauses) > 0 { // the run ends waiting
					w.status, w.pauses = w.pauses[len(w.pauses)-1], w.pauses[:len(w.pauses)-1]
				}
				var pauses []string
				for _, p := range r.Pauses {
					pauses = append(pauses, p.Pos.String())
					if len(p.Others) > 0 {
						t.Errorf("run %s: pause exit %s is ambiguous: also %v", r.RunID, p.Pos, p.Others)
					}
				}
				if strings.Join(pauses, " ") != strings.Join(w.pauses, " ") {
					t.Errorf("run %s: pause exits %v, recorded %v", r.RunID, pauses, w.pauses)
				}
				if r.Exit == nil {
					t.Errorf("run %s (%s %s): no exit found; recorded %s", r.RunID, r.Status, r.StopReason, w.status)
				} else {
					if got := r.Exit.Pos.String(); got != w.status {
						t.Errorf("run %s (%s %s): exit %s (%s), recorded %s", r.RunID, r.Status, r.StopReason, got, r.Exit.Reason, w.status)
					}
					if len(r.Exit.Others) > 0 {
						t.Errorf("run %s: the exit is ambiguous: also %v", r.RunID, r.Exit.Others)
					}
				}
				switch {
				case w.bound != "" && (r.Bound == nil || !r.Bound.Hit):
					t.Errorf("run %s stopped at its bound (recorded %s), the join found no bound hit: %+v", r.RunID, w.bound, r.Bound)
				case w.bound != "":
					if r.Bound.OnBound.String() != w.bound {
						t.Errorf("run %s: on-bound site %s, recorded %s", r.RunID, r.Bound.OnBound, w.bound)
					}
					// max-steps runs with Limits{MaxSteps: 3} (scenarios.go), below the default 25
					// (agent.go: Limits.withDefaults).
					if r.Bound.Agrees != "below" || r.Bound.Steps != 3 || r.Bound.Default != "25" {
						t.Errorf("run %s: bound agreement %s with %d steps, default %s; the scenario stops at its own limit 3, below the default 25", r.RunID, r.Bound.Agrees, r.Bound.Steps, r.Bound.Default)
					}
				case r.Bound != nil && r.Bound.Hit:
					t.Errorf("run %s: a bound hit was found, none recorded: %+v", r.RunID, r.Bound)
				}
				switch {
				case w.parent != "" && r.Parent == nil:
					t.Errorf("run %s has a parent link (recorded %s), the join found none", r.RunID, w.parent)
				case w.parent != "":
					found := false
					for _, s := range r.Parent.Sites {
						found = found || s.Pos.String() == w.parent
					}
					if !found {
						t.Errorf("run %s: parent sites %+v lack the recorded %s", r.RunID, r.Parent.Sites, w.parent)
					}
				case r.Parent != nil:
					t.Errorf("run %s: a parent link was found, none recorded", r.RunID)
				}
			}
		})
	}
}
