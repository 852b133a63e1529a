//go:build cgo

package recognize_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestHeldEntries checks the unexported loop holders that are run entries of their own: the
// private method an exported factory starts in the background (it returns the runner while
// the run goes on, so the launched method's returns say how the run ends), and the
// implementations of a template hook (Agent.run → self._run) when several agent kinds each
// implement it with a turn loop.
func TestHeldEntries(t *testing.T) {
	res := recognizeSrc(t, "heldentry")
	get := func(name string) *model.Entry {
		for i := range res.Entries {
			if strings.HasSuffix(res.Entries[i].Func, name) {
				return &res.Entries[i]
			}
		}
		var names []string
		for _, e := range res.Entries {
			names = append(names, e.Func)
		}
		t.Errorf("no entry %s (entries %v)", name, names)
		return nil
	}
	if e := get("ChatRunner.runTools"); e != nil {
		wantAt(t, e, map[string]string{"runner.ts:11": "started"})
	}
	if e := get("AbstractRunner._runTools"); e != nil {
		if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 24 {
			t.Errorf("_runTools: loops %v, want the for at abstract.ts:24", e.Loops)
		}
		wantAt(t, e, map[string]string{"abstract.ts:28": "failed", "abstract.ts:32": "completed", "abstract.ts:40": "cancelled"})
	}
	get("Agent.run")
	for _, name := range []string{"FnCallAgent._run", "ReActChat._run"} {
		if e := get(name); e != nil && len(e.Loops) != 1 {
			t.Errorf("%s: loops %v, want its own", name, e.Loops)
		}
	}
	for _, e := range res.Entries {
		if strings.HasSuffix(e.Func, "Echo._run") || strings.HasSuffix(e.Func, "_createChatCompletion") {
			t.Errorf("%s is no entry", e.Func)
		}
	}
}

func wantAt(t *testing.T, e *model.Entry, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, x := range e.Exits {
		got[filepath.Base(x.Pos.File)+":"+strconv.Itoa(x.Pos.Line)] = x.Outcome
	}
	for at, w := range want {
		if got[at] != w {
			t.Errorf("%s: exit at %s %q, want %q (exits %v)", e.Func, at, got[at], w, got)
		}
	}
}
