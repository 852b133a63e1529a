package chrome

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

type event struct {
	Ph   string         `json:"ph"`
	Name *string        `json:"name"`
	Cat  string         `json:"cat"`
	Pid  *int           `json:"pid"`
	Tid  *int           `json:"tid"`
	TS   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	ID   *int           `json:"id"`
	BP   string         `json:"bp"`
	Args map[string]any `json:"args"`
}

type doc struct {
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	OtherData       map[string]any `json:"otherData"`
	TraceEvents     []event        `json:"traceEvents"`
}

func render(t testing.TB, tr *model.Tree, o Options) []byte {
	t.Helper()
	return rendertest.Output(t, func(w io.Writer) error { return Render(w, tr, o) })
}

func TestGolden(t *testing.T) {
	for _, sc := range rendertest.All(t) {
		t.Run(sc.Name, func(t *testing.T) {
			rendertest.Golden(t, sc.Name+".json", render(t, sc.Tree, Options{Findings: sc.Findings}))
		})
	}
}

// validate checks a Chrome trace structurally: required fields per phase, non-negative µs
// times, named processes and tracks, slices on one track nesting (never partially
// overlapping), and every flow start matched by a finish, each inside a slice of its track.
func validate(t *testing.T, name string, data []byte) doc {
	t.Helper()
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: invalid JSON: %v", name, err)
	}
	type track struct{ pid, tid int }
	type iv struct{ s, e float64 }
	slices := map[track][]iv{}
	procNames, threadNames := map[int]bool{}, map[track]bool{}
	flows := map[int][]event{}
	for i, e := range d.TraceEvents {
		if e.Pid == nil || e.Tid == nil || e.Name == nil {
			t.Errorf("%s: event %d lacks pid, tid or name: %+v", name, i, e)
			continue
		}
		tk := track{*e.Pid, *e.Tid}
		switch e.Ph {
		case "M":
			if n, _ := e.Args["name"].(string); *e.Name == "process_name" && n != "" {
				procNames[*e.Pid] = true
			} else if *e.Name == "thread_name" && n != "" {
				threadNames[tk] = true
			} else if *e.Name != "process_sort_index" && *e.Name != "thread_sort_index" && *e.Name != "process_labels" {
				t.Errorf("%s: bad metadata event %+v", name, e)
			}
		case "X":
			if e.TS == nil || e.Dur == nil || *e.TS < 0 || *e.Dur < 0 || e.Cat == "" {
				t.Errorf("%s: bad complete event %+v", name, e)
				continue
			}
			slices[tk] = append(slices[tk], iv{*e.TS, *e.TS + *e.Dur})
		case "s", "f":
			if e.ID == nil || e.TS == nil || e.Cat == "" {
				t.Errorf("%s: bad flow event %+v", name, e)
				continue
			}
			flows[*e.ID] = append(flows[*e.ID], e)
		default:
			t.Errorf("%s: unexpected phase %q", name, e.Ph)
		}
	}
	for tk, ivs := range slices {
		if !procNames[tk.pid] {
			t.Errorf("%s: pid %d has no process_name", name, tk.pid)
		}
		if !threadNames[tk] {
			t.Errorf("%s: track %v has no thread_name", name, tk)
		}
		// Balanced nesting: sorted by start (longer first), each slice lies inside or after
		// every slice still open on the stack.
		sort.Slice(ivs, func(i, j int) bool {
			if ivs[i].s != ivs[j].s {
				return ivs[i].s < ivs[j].s
			}
			return ivs[i].e > ivs[j].e
		})
		var stack []iv
		for _, x := range ivs {
			for len(stack) > 0 && stack[len(stack)-1].e <= x.s {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && x.e > stack[len(stack)-1].e {
				t.Errorf("%s: track %v: slice %v partially overlaps %v", name, tk, x, stack[len(stack)-1])
			}
			stack = append(stack, x)
		}
	}
	inside := func(e event) bool {
		for _, x := range slices[track{*e.Pid, *e.Tid}] {
			if x.s <= *e.TS && *e.TS <= x.e {
				return true
			}
		}
		return false
	}
	for id, evs := range flows {
		if len(evs) != 2 || evs[0].Ph != "s" || evs[1].Ph != "f" || evs[0].Cat != evs[1].Cat {
			t.Errorf("%s: flow %d is not one s and one f: %+v", name, id, evs)
			continue
		}
		for _, e := range evs {
			if !inside(e) {
				t.Errorf("%s: flow %d %s point at %v on %d/%d is inside no slice", name, id, e.Ph, *e.TS, *e.Pid, *e.Tid)
			}
		}
		if evs[1].BP != "e" {
			t.Errorf("%s: flow %d finish not bound to the enclosing slice", name, id)
		}
	}
	return d
}

func TestStructure(t *testing.T) {
	scs := append(rendertest.All(t), rendertest.Scenario{Name: "big", Tree: rendertest.Big(3000)})
	for _, sc := range scs {
		for _, all := range []bool{false, true} {
			validate(t, fmt.Sprintf("%s/allflows=%v", sc.Name, all), render(t, sc.Tree, Options{Findings: sc.Findings, AllFlows: all}))
		}
	}
}

func find(d doc, name string) *event {
	for i := range d.TraceEvents {
		if e := &d.TraceEvents[i]; e.Ph == "X" && *e.Name == name {
			return e
		}
	}
	return nil
}

func TestContent(t *testing.T) {
	d := validate(t, "basic", render(t, rendertest.Basic().Tree, Options{}))
	w, n := find(d, "tool get_weather"), find(d, "tool get_news")
	if w == nil || n == nil {
		t.Fatal("tool slices missing")
	}
	// µs: get_weather ran 740 ms from +910 ms.
	if *w.TS != 910_000 || *w.Dur != 740_000 {
		t.Errorf("get_weather ts=%v dur=%v, want 910000 and 740000 µs", *w.TS, *w.Dur)
	}
	if *w.Tid == *n.Tid || *w.Pid != *n.Pid {
		t.Errorf("parallel tool calls share track %d/%d", *w.Pid, *w.Tid)
	}
	if w.Args["id"] != "call_weather" || w.Args["step_id"] != "step-1" || w.Args["status"] != "ok" {
		t.Errorf("args = %v", w.Args)
	}
	m := find(d, "model gpt-4.1")
	if m.Args["input_tokens"] != float64(1200) {
		t.Errorf("model args = %v", m.Args)
	}

	d = validate(t, "subagent", render(t, rendertest.Subagent().Tree, Options{}))
	pids := map[int]bool{}
	nflows := 0
	for _, e := range d.TraceEvents {
		if e.Ph == "X" {
			pids[*e.Pid] = true
		}
		if e.Ph == "s" {
			nflows++
		}
	}
	if len(pids) != 4 {
		t.Errorf("%d processes, want one per run (4)", len(pids))
	}
	if nflows != 2 {
		t.Errorf("%d flows, want 2 (sub-agent and retry)", nflows)
	}
	for _, e := range d.TraceEvents {
		if e.Ph == "s" && *e.Name == "subagent" {
			delegate := find(d, "tool transfer_to_coder")
			if *e.Pid != *delegate.Pid || *e.Tid != *delegate.Tid {
				t.Errorf("sub-agent flow starts on %d/%d, want the delegating tool call's track %d/%d", *e.Pid, *e.Tid, *delegate.Pid, *delegate.Tid)
			}
		}
	}

	d = validate(t, "open", render(t, rendertest.Open().Tree, Options{}))
	o := find(d, "tool long_poll ▸open")
	if o == nil || o.Args["open"] != true || *o.TS+*o.Dur != 600_000 {
		t.Errorf("open tool call not drawn to the trace end: %+v", o)
	}
	d = validate(t, "timeless", render(t, rendertest.Timeless().Tree, Options{}))
	if d.OtherData["timeless"] == nil {
		t.Errorf("timeless tree not announced: %v", d.OtherData)
	}
}

func BenchmarkRender100k(b *testing.B) {
	tr := rendertest.Big(100_000)
	rendertest.Bench(b, func(w io.Writer) error { return Render(w, tr, Options{}) })
}
