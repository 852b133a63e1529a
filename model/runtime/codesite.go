package runtime

import (
	"path"
	"runtime"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// attrCodeSite is the attribute in which the runtime records the code site of a lifecycle write:
// "model/runtime/loop.go:358", the module-relative file and line of the statement that wrote the
// event (the call of write or append). It is the ground truth the trace-to-code join
// (model/join) is tested against: for the runtime's own log, the exit, bound and call sites the
// join finds from the map must be these.
const attrCodeSite = "code.site"

// pkgDir is this package's directory relative to the module root, the form of positions in a
// lifecycle map (model.Position).
const pkgDir = "model/runtime"

// codeSiteTypes are the events that write a run's status, stop reason or a turn's or step's end:
// the lifecycle writes whose code site is recorded.
var codeSiteTypes = map[model.EventType]bool{
	model.RunQueued: true, model.RunStart: true, model.RunStatusChange: true, model.RunEnd: true,
	model.TurnEnd: true, model.StepEnd: true,
}

// recordCodeSite sets attrs["code.site"] of ev to the first caller outside the write helpers
// (runExec.write, Runtime.append).
func recordCodeSite(ev *model.Event) {
	var pcs [8]uintptr
	n := runtime.Callers(3, pcs[:]) // skip Callers, recordCodeSite, append
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.HasSuffix(f.Function, ".(*runExec).write") && !strings.HasSuffix(f.Function, ".(*Runtime).append") {
			if f.File != "" {
				if ev.Attrs == nil {
					ev.Attrs = map[string]any{}
				}
				ev.Attrs[attrCodeSite] = pkgDir + "/" + path.Base(f.File) + ":" + strconv.Itoa(f.Line)
			}
			return
		}
		if !more {
			return
		}
	}
}
