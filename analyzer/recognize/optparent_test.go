package recognize_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestOptionClosureParent checks a parent run id given in an option closure handed to a
// constructor that many callers hand closures to (shape optparent, github.com/hupe1980/golc@v0.0.113
// golc.go:36-38: callback.NewManager(…, func(mo *callback.ManagerOptions) { mo.ParentRunID =
// opts.ParentRunID }), applied by newManager's for _, fn := range optFns { fn(&opts) },
// callback/manager.go:40-43). The call fn(&opts) has more implementations than the ids walk
// followed (every caller's closure), so the entry's own closure was never reached: no parent
// id. Of those closures, the ones made by code the entry ran are its.
func TestOptionClosureParent(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "optparent.Executor.Run")
	if e == nil {
		t.Fatalf("want the run entry optparent.Executor.Run, got none")
	}
	var parents []string
	for _, id := range e.IDs {
		if id.Kind == model.IDParent {
			parents = append(parents, filepath.Base(id.Pos.File)+":"+strconv.Itoa(id.Pos.Line))
		}
	}
	found := false
	for _, p := range parents {
		if p == "executor.go:32" {
			found = true
		}
		if p == "callback.go:65" {
			t.Errorf("parent id %s: another caller's closure (ForTool), not this entry's", p)
		}
	}
	if !found {
		t.Errorf("parent ids %v, want executor.go:32 (mo.ParentRunID = opts.ParentRunID)", parents)
	}
}
