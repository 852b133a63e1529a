package explain

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/runtime"
)

// Kinds of fact a drawing reads from its scenario besides the tree.
const (
	// FactHistory: each run's status history, in order, with wait and stop reasons.
	FactHistory = "status_history"
	// FactInputs: each steering or follow-up input and the step or turn that consumed it.
	FactInputs = "inputs"
	// FactConnections: each connection's interval and the run it watched.
	FactConnections = "connections"
	// FactLineage: each run's parent run and attempt.
	FactLineage = "lineage"
	// FactRecovery: what each reopening of the log after a crash read back, and the resumes.
	FactRecovery = "recovery"
	// FactSideEffects: the side-effecting tool calls with their idempotency keys.
	FactSideEffects = "side_effects"
)

// Epoch is the logical time the drawings' scenarios start at, so that a drawing is the same on
// every run (the runtime's clock is virtual: durations come from the scenario's script).
var Epoch = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// Drawing is one scenario of the reference runtime, run live, cut to the piece that shows a
// topic.
type Drawing struct {
	// Scenario and Description name the scenario (model/runtime).
	Scenario    string `json:"scenario"`
	Description string `json:"description"`
	// Caption says, in the doc's language, what to look at.
	Caption string `json:"caption,omitempty"`
	// Depth is the deepest layer kept in Tree.
	Depth string `json:"depth"`
	// Tree is the projection of the scenario's log, cut below Depth.
	Tree *model.Tree `json:"-"`
	// Shape is the whole scenario's shape (before the cut), as the runtime's tests check it.
	Shape runtime.Shape `json:"shape"`
	// Facts are the facts of the scenario that the tree does not show.
	Facts []Fact `json:"facts,omitempty"`
	// Command reproduces the drawing in full.
	Command string `json:"command"`
}

// Fact is one fact read from a scenario: Kind (a Fact* constant) says what it is, Subject the
// node it is about, Items the values, identifiers and symbols only (no prose to translate).
type Fact struct {
	Kind    string   `json:"kind"`
	Subject string   `json:"subject"`
	Items   []string `json:"items"`
}

var depths = map[string]int{"run": 1, "turn": 2, "step": 3, "call": 4}

// Draw runs spec's scenario on the reference runtime (a temporary log, logical time from
// Epoch, sequential ids) and cuts its tree to spec.Depth.
func Draw(ctx context.Context, spec DrawingSpec) (*Drawing, error) {
	depth, ok := depths[spec.Depth]
	if !ok {
		return nil, fmt.Errorf("drawing %s: unknown depth %q", spec.Scenario, spec.Depth)
	}
	res, err := runtime.RunScenario(ctx, spec.Scenario, runtime.ScenarioOptions{Clock: runtime.NewVirtualClock(Epoch)})
	if err != nil {
		return nil, fmt.Errorf("drawing: %w", err)
	}
	d := &Drawing{Scenario: spec.Scenario, Description: res.Scenario.Description, Depth: spec.Depth,
		Shape: runtime.ShapeOf(res.Tree), Command: "lifeline demo " + spec.Scenario}
	for _, kind := range spec.Facts {
		fs, err := facts(kind, res)
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", spec.Scenario, err)
		}
		d.Facts = append(d.Facts, fs...)
	}
	d.Tree = cut(res.Tree, depth)
	return d, nil
}

// cut returns a copy of t without the nodes below depth (1 run … 4 calls). Runs keep their
// waits and inputs; the roll-ups stay those of the whole tree.
func cut(t *model.Tree, depth int) *model.Tree {
	out := &model.Tree{Timeless: t.Timeless, Notes: t.Notes}
	for _, se := range t.Sessions {
		s := *se
		s.Runs = nil
		for _, r := range se.Runs {
			rc := *r
			rc.Turns = nil
			if depth >= 2 {
				for _, tu := range r.Turns {
					tc := *tu
					tc.Steps = nil
					if depth >= 3 {
						for _, st := range tu.Steps {
							sc := *st
							if depth < 4 {
								sc.ModelCalls, sc.ToolCalls = nil, nil
							}
							tc.Steps = append(tc.Steps, &sc)
						}
					}
					rc.Turns = append(rc.Turns, &tc)
				}
			}
			s.Runs = append(s.Runs, &rc)
		}
		out.Sessions = append(out.Sessions, &s)
	}
	return out
}

func facts(kind string, res *runtime.ScenarioResult) ([]Fact, error) {
	var out []Fact
	var start time.Time
	if len(res.Tree.Sessions) > 0 {
		start = res.Tree.Sessions[0].Start
	}
	at := func(ts time.Time) string {
		d, _ := model.Elapsed(start, ts)
		return "+" + d.String()
	}
	for _, se := range res.Tree.Sessions {
		switch kind {
		case FactHistory:
			for _, r := range se.Runs {
				var items []string
				for _, h := range r.History {
					s := string(h.Status)
					if h.WaitReason != "" {
						s += "(" + string(h.WaitReason) + ")"
					}
					if h.StopReason != "" {
						s += " " + string(h.StopReason)
					}
					items = append(items, s)
				}
				out = append(out, Fact{Kind: kind, Subject: r.ID, Items: items})
			}
		case FactInputs:
			for _, r := range se.Runs {
				for _, in := range r.Inputs {
					out = append(out, Fact{Kind: kind, Subject: in.ID, Items: []string{string(in.Kind), at(in.TS), "→ " + in.ConsumedBy}})
				}
			}
		case FactConnections:
			for _, c := range se.Connections {
				end := "open"
				if c.Ended {
					end = at(c.End)
				}
				out = append(out, Fact{Kind: kind, Subject: c.ID, Items: []string{at(c.Start) + " … " + end, "run " + c.RunID}})
			}
		case FactLineage:
			for _, r := range se.Runs {
				items := []string{"attempt " + strconv.Itoa(max(r.Attempt, 1))}
				if r.ParentRunID != "" {
					items = append(items, "parent_run_id "+r.ParentRunID)
				}
				items = append(items, string(r.Status)+" "+string(r.StopReason))
				out = append(out, Fact{Kind: kind, Subject: r.ID, Items: items})
			}
		case FactRecovery:
			for i, rec := range res.Recoveries {
				if i == 0 && rec.Events == 0 {
					continue // the first open of a new log
				}
				items := []string{"events " + strconv.Itoa(rec.Events)}
				if rec.TornBytes > 0 {
					items = append(items, "torn_bytes "+strconv.Itoa(rec.TornBytes))
				}
				out = append(out, Fact{Kind: kind, Subject: "Open #" + strconv.Itoa(i+1), Items: items})
			}
			for _, r := range se.Runs {
				for _, ts := range r.Resumes {
					out = append(out, Fact{Kind: kind, Subject: r.ID, Items: []string{string(model.RunResumed), at(ts)}})
				}
			}
		case FactSideEffects:
			res.Tree.Walk(func(n any, _ int) bool {
				if c, ok := n.(*model.ToolCall); ok && c.SideEffect {
					items := []string{c.Name, string(c.Outcome)}
					if c.IdempotencyKey != "" {
						items = append(items, "idempotency_key "+c.IdempotencyKey)
					}
					out = append(out, Fact{Kind: kind, Subject: c.ID, Items: items})
				}
				return true
			})
		default:
			return nil, fmt.Errorf("unknown fact kind %q", kind)
		}
	}
	return out, nil
}

// String renders a fact on one line: "subject: item · item".
func (f Fact) String() string { return f.Subject + ": " + strings.Join(f.Items, " · ") }
