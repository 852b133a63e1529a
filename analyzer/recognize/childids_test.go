package recognize_test

import (
	"fmt"
	"testing"
)

// TestChildRunIDs: a supervisor that spawns sub-agents (testdata/shapes/spawner) mints each
// child's id and hands it the supervisor's run id as its parent — through a struct literal, a
// functional option, the context. Read from the code: the id sites are where the id is minted
// (a counter formatted in place, uuid.NewString(), uuid.New().String() in the constructor) and
// where the parent is assigned; a child made without the option does not get the option's
// parent.
func TestChildRunIDs(t *testing.T) {
	res := recognizeShapes(t)
	for name, want := range map[string][]string{
		"spawner.Supervisor.Delegate": {"minted 78", "minted 81", "parent 81"}, // RunID = fmt.Sprintf(…, runs.Add(1)); &Worker{ID: uuid.NewString(), ParentID: s.RunID}
		"spawner.Supervisor.Spawn":    {"parent 32", "minted 37"},              // WithParent's w.ParentID = id; NewWorker's ID: uuid.New().String()
		"spawner.Supervisor.SpawnCtx": {"minted 37", "parent 99"},              // context.WithValue(ctx, parentKey{}, s.RunID)
		"spawner.Worker.Work":         nil,
	} {
		t.Run(name, func(t *testing.T) {
			e := entry(res, name)
			if e == nil {
				t.Fatal("no entry")
			}
			var got []string
			for _, s := range e.IDs {
				got = append(got, fmt.Sprintf("%s %d", s.Kind, s.Pos.Line))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("ids %v, want %v (%+v)", got, want, e.IDs)
			}
		})
	}
}
