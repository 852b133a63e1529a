package runtime

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// cleanFindings returns the findings of severity error or warning.
func cleanFindings(events []model.Event) []model.Finding {
	var out []model.Finding
	for _, f := range model.CheckEvents(events) {
		if f.Severity == model.SevError || f.Severity == model.SevWarning {
			out = append(out, f)
		}
	}
	return out
}

func TestScenarios(t *testing.T) {
	for _, sc := range Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "session.jsonl")
			res, err := RunScenario(context.Background(), sc.Name, ScenarioOptions{Path: path,
				Clock: NewVirtualClock(time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC))})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range cleanFindings(res.Events) {
				t.Errorf("finding: %s", f)
			}
			if diff := sc.Expect.Diff(ShapeOf(res.Tree)); diff != "" {
				t.Errorf("shape: %s", diff)
			}
			if len(res.Tree.Notes) > 0 {
				t.Errorf("projection notes: %v", res.Tree.Notes)
			}
			// Replay: the log read back again rebuilds the same tree.
			again, rec, err := ReadLog(path)
			if err != nil {
				t.Fatal(err)
			}
			if rec.TornBytes != 0 {
				t.Errorf("clean log reported torn: %v", rec)
			}
			assertSameTree(t, project(again), res.Tree)
			if t.Failed() {
				for _, ev := range res.Events {
					b, _ := ev.MarshalLine()
					t.Logf("%s", b)
				}
			}
		})
	}
}

// project projects copies of events: model.Project writes end attrs into the maps of the start
// events it is given (reported to the lead), which must not alter the events under test.
func project(evs []model.Event) *model.Tree { return model.Project(cloneEvents(evs)) }

func assertSameTree(t *testing.T, got, want *model.Tree) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Errorf("replayed tree differs:\n got %s\nwant %s", a, b)
		} else {
			t.Errorf("replayed tree differs (deep) though JSON is equal")
		}
	}
}
