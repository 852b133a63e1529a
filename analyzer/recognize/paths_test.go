package recognize_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"golang.org/x/tools/go/packages"
)

// recognizePaths runs the recognizer on testdata/paths: the shapes whose verdict depends on
// the paths through the code (cancellation on every iteration, recursions through tools).
func recognizePaths(t *testing.T) *recognize.Result {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: "testdata/paths"}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return recognize.Recognize(prog, recognize.Options{})
}

// TestCancelPaths: cancellation counts only when every iteration's path passes a check (the
// check dominates every back edge of the loop, or every recursive call of a recursion); a
// check in a branch, after a continue, while waiting for user input, in a helper that checks
// on some paths only does not.
func TestCancelPaths(t *testing.T) {
	res := recognizePaths(t)
	for name, want := range map[string]bool{
		"cancelpaths.Agent.Branch":     false,
		"cancelpaths.Agent.Helper":     true,
		"cancelpaths.Agent.HelperSome": false,
		"cancelpaths.Agent.Skip":       false,
		"cancelpaths.Agent.Input":      false,
		"cancelpaths.Agent.Bottom":     true,
		"cancelpaths.Agent.RecBefore":  true,
	} {
		t.Run(name, func(t *testing.T) {
			e := entry(res, name)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			if got := e.Loops[0].ChecksCancel; got != want {
				t.Errorf("checks cancel %v (at line %d), want %v", got, e.Loops[0].CancelPos.Line, want)
			}
		})
	}
}

// TestChildRuns: a recursion only through the dispatched tools (each tool a child run) is not
// a turn recursion; the turn loop is the for loop that decides.
func TestChildRuns(t *testing.T) {
	res := recognizePaths(t)
	var loops []string
	for _, l := range res.Loops {
		if strings.HasPrefix(l.Map.Func, "subrun.") {
			loops = append(loops, fmt.Sprintf("%s %s:%d", l.Map.Kind, l.Map.Func, l.Map.Pos.Line))
		}
	}
	if want := []string{"for subrun.Runner.resume:41"}; !slices.Equal(loops, want) {
		t.Errorf("turn loops %v, want %v", loops, want)
	}
}
