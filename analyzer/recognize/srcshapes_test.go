//go:build cgo

package recognize_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/srcir"
	"github.com/lifeline-dev/lifeline/model"
)

// recognizeSrc builds the IR of a Python/TypeScript/JavaScript shape directory under
// testdata/shapes with the source front-end and recognizes it.
func recognizeSrc(t *testing.T, dir string) *recognize.Result {
	t.Helper()
	root := filepath.Join("testdata", "shapes", dir)
	files, err := srcir.Collect([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	prog, diags, err := srcir.BuildFiles(files, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	return recognize.Recognize(prog, recognize.Options{})
}

// srcEntry returns the entry whose function name ends with name.
func srcEntry(res *recognize.Result, name string) *model.Entry {
	for i := range res.Entries {
		if strings.HasSuffix(res.Entries[i].Func, name) {
			return &res.Entries[i]
		}
	}
	return nil
}

func lines(sites []model.CallSite) []int {
	var out []int
	for _, s := range sites {
		out = append(out, s.Pos.Line)
	}
	return out
}

// TestSourceShapes checks the facts of the Python/TypeScript/JavaScript shapes: each names a
// class of agent code the source front-end and the shared recognizer must read.
func TestSourceShapes(t *testing.T) {
	type want struct {
		dir, entry          string
		kind                model.LoopKind
		loopLine, modelLine int
		toolLine            int // one of the tool sites
		parallel, cancel    bool
		cancelLine          int
	}
	for _, w := range []want{
		// pygencycle: async generators; the next cycle is a recursion through a helper
		// generator (cycle -> run_tools -> recurse -> cycle); the model's reply is the stop
		// event of a stream kept in a variable and drained (events = call_model(...); async
		// for event in events), its stop reason compared with "tool_use"; the tools run in an
		// executor class, a task per tool use through two wrappers down to the lookup by
		// name; the tool results go back into the agent's messages through its add_messages
		// method; a cancel flag is checked in the helper before it recurses.
		{dir: "pygencycle", entry: "cycle.cycle", kind: model.LoopRecursion, loopLine: 64, modelLine: 65, toolLine: 35,
			parallel: true, cancel: true, cancelLine: 87},
		// jsretrywrap: the model call is made in the attempt a retry helper repeats, through a
		// telemetry wrapper's execute option, the result spread into literals on its way back:
		// it is the model call (not the helper), scored with the flow of what the helper
		// returns and fed by the tool results appended to what it receives.
		{dir: "jsretrywrap", entry: "agent.run", kind: model.LoopFor, loopLine: 10, modelLine: 15, toolLine: 24,
			parallel: true},
	} {
		t.Run(w.dir, func(t *testing.T) {
			res := recognizeSrc(t, w.dir)
			e := srcEntry(res, w.entry)
			if e == nil || len(e.Loops) != 1 {
				var got []string
				for _, x := range res.Entries {
					got = append(got, x.Func)
				}
				t.Fatalf("want entry %s with one loop, got entries %v (%+v)", w.entry, got, e)
			}
			l := e.Loops[0]
			if l.Kind != w.kind || l.Pos.Line != w.loopLine {
				t.Errorf("loop %s at line %d, want %s at %d", l.Kind, l.Pos.Line, w.kind, w.loopLine)
			}
			if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != w.modelLine {
				t.Errorf("model calls at %v, want %d", ls, w.modelLine)
			}
			found := false
			for _, ln := range lines(l.ToolCalls) {
				found = found || ln == w.toolLine
			}
			if !found {
				t.Errorf("tool calls at %v, want one at %d", lines(l.ToolCalls), w.toolLine)
			}
			if l.ParallelTools != w.parallel {
				t.Errorf("parallel tools %v, want %v", l.ParallelTools, w.parallel)
			}
			if l.ChecksCancel != w.cancel || w.cancel && l.CancelPos.Line != w.cancelLine {
				t.Errorf("checks cancel %v at line %d, want %v at %d", l.ChecksCancel, l.CancelPos.Line, w.cancel, w.cancelLine)
			}
		})
	}
}
