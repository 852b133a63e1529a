// Package tracertest holds the test helpers the tracer decoders share: running a decoder over
// bytes, the <name>.expected.json ground truth and the checks of the tree projected from the
// events, the walk over the scenarios of testdata/traces, malformed-input tables and fuzzing.
package tracertest

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// DecodeFunc is the signature of a tracer decoder.
type DecodeFunc func(io.Reader, *ingest.Emitter) error

// Decode runs dec over b, read as the file name, and returns the events emitted and the decode
// errors reported; an error returned by dec fails the test.
func Decode(t testing.TB, dec DecodeFunc, name string, b []byte) ([]model.Event, []*ingest.DecodeError) {
	t.Helper()
	var evs []model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
	em.File = name
	if err := dec(bytes.NewReader(b), em); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	errs, _ := em.Errors()
	return evs, errs
}

// Format is a decoder with the detector that scores a file's head for it.
type Format struct {
	Detect func(head []byte) int
	Decode DecodeFunc
}

// Pick chooses between two formats of one package the way tracer.Detect would: on the first
// 64 KiB of b, first if it scores above zero and at least as high as second, else second if it
// scores above zero. If neither does, the test fails with "not detected as a <what> format".
func Pick(t testing.TB, b []byte, what string, first, second Format) DecodeFunc {
	t.Helper()
	head := b
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	x, y := first.Detect(head), second.Detect(head)
	switch {
	case x > 0 && x >= y:
		return first.Decode
	case y > 0:
		return second.Decode
	}
	t.Fatalf("not detected as a %s format", what)
	return nil
}

// DecodeClean is Decode that reports each decode error as a test error.
func DecodeClean(t testing.TB, dec DecodeFunc, name string, b []byte) []model.Event {
	t.Helper()
	evs, errs := Decode(t, dec, name, b)
	for _, e := range errs {
		t.Errorf("decode error: %v", e)
	}
	return evs
}

// Run is the expected status and stop reason of one run.
type Run struct {
	Status     model.RunStatus  `json:"status"`
	StopReason model.StopReason `json:"stop_reason"`
}

// Completed is n runs that completed with the goal reached.
func Completed(n int) []Run {
	var out []Run
	for range n {
		out = append(out, Run{Status: model.StatusCompleted, StopReason: model.StopGoalReached})
	}
	return out
}

// Expected is the ground truth of a trace, as in <name>.expected.json: the summary of its tree
// and, in order, the status and stop reason of every run.
type Expected struct {
	model.Summary
	RunsDetail []Run `json:"runs_detail"`
}

// LoadExpected reads an <name>.expected.json file; a file that cannot be read or parsed fails
// the test.
func LoadExpected(t testing.TB, path string) Expected {
	t.Helper()
	var want Expected
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return want
}

// NoErrorFindings reports every error finding of model.CheckEvents over evs as a test error.
func NoErrorFindings(t testing.TB, evs []model.Event) {
	t.Helper()
	for _, f := range model.CheckEvents(evs) {
		if f.Severity == model.SevError {
			t.Errorf("finding: %s", f)
		}
	}
}

// AssertClean reports every invalid event of evs, with where it was read, and every error
// finding of model.CheckEvents over a copy of evs as test errors.
func AssertClean(t testing.TB, evs []model.Event) {
	t.Helper()
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			t.Errorf("%s: invalid event %s: %v", e.Where(), e.Type, err)
		}
	}
	NoErrorFindings(t, append([]model.Event(nil), evs...))
}

// AssertSummary checks that tree has the summary and the run statuses and stop reasons of want;
// a different number of runs fails the test.
func AssertSummary(t testing.TB, tree *model.Tree, want Expected) {
	t.Helper()
	if got := tree.Summarize(); got != want.Summary {
		t.Errorf("summary = %+v, want %+v", got, want.Summary)
	}
	var got []Run
	for _, s := range tree.Sessions {
		for _, r := range s.Runs {
			got = append(got, Run{r.Status, r.StopReason})
		}
	}
	if len(got) != len(want.RunsDetail) {
		t.Fatalf("runs = %v, want %v", got, want.RunsDetail)
	}
	for i := range got {
		if got[i] != want.RunsDetail[i] {
			t.Errorf("run %d = %v, want %v", i, got[i], want.RunsDetail[i])
		}
	}
}

// AssertTree checks that evs have no error finding and are all valid, then projects them and
// checks the tree against want (AssertSummary). It returns the tree.
func AssertTree(t testing.TB, evs []model.Event, want Expected) *model.Tree {
	t.Helper()
	return assertTree(t, evs, want, true)
}

// AssertProjection is AssertTree without the validation of every event.
func AssertProjection(t testing.TB, evs []model.Event, want Expected) *model.Tree {
	t.Helper()
	return assertTree(t, evs, want, false)
}

func assertTree(t testing.TB, evs []model.Event, want Expected, validate bool) *model.Tree {
	t.Helper()
	NoErrorFindings(t, evs)
	if validate {
		for i := range evs {
			if err := evs[i].Validate(); err != nil {
				t.Errorf("invalid event %d: %v", i, err)
			}
		}
	}
	tree := model.Project(evs)
	AssertSummary(t, tree, want)
	return tree
}

// View is one file of a scenario of testdata/traces with the ground truth of the scenario.
type View struct {
	// Scenario is the name the files of the scenario share, e.g. "04_recursion_limit".
	Scenario string
	// Path is the file; Data its content.
	Path string
	Data []byte
	// Want is the content of <Scenario>.expected.json.
	Want Expected
}

// EachView runs f in a subtest named after the file for every view of every scenario whose
// <scenario>.expected.json matches glob: the files <scenario>.*<suffix> beside it other than
// the expected file. It returns the number of expected files found.
func EachView(t *testing.T, glob, suffix string, f func(t *testing.T, v View)) int {
	t.Helper()
	exps, _ := filepath.Glob(glob)
	for _, exp := range exps {
		base := strings.TrimSuffix(exp, ".expected.json")
		want := LoadExpected(t, exp)
		views, _ := filepath.Glob(base + ".*" + suffix)
		for _, view := range views {
			if strings.HasSuffix(view, ".expected.json") {
				continue
			}
			t.Run(filepath.Base(view), func(t *testing.T) {
				b, err := os.ReadFile(view)
				if err != nil {
					t.Fatal(err)
				}
				f(t, View{Scenario: filepath.Base(base), Path: view, Data: b, Want: want})
			})
		}
	}
	return len(exps)
}

// BadCase is one malformed record: Bad is put on the second line of an input and the first
// decode error must mention Want.
type BadCase struct {
	Name, Bad, Want string
}

// AssertMalformed runs a subtest for every case: input(c.Bad) is decoded as bad.jsonl, its first
// decode error must be at bad.jsonl:2 and mention c.Want, and rest must accept the summary of
// the tree of the events still decoded (the error "rest not read" otherwise).
func AssertMalformed(t *testing.T, dec DecodeFunc, cases []BadCase, input func(bad string) string, rest func(model.Summary) bool) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			evs, errs := Decode(t, dec, "bad.jsonl", []byte(input(tt.Bad)))
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), "bad.jsonl:2") || !strings.Contains(errs[0].Error(), tt.Want) {
				t.Fatalf("errors = %v, want bad.jsonl:2 … %s", errs, tt.Want)
			}
			if s := model.Project(evs).Summarize(); !rest(s) {
				t.Errorf("rest not read: %+v", s)
			}
		})
	}
}

// AssertTorn decodes in, read as torn.jsonl, and requires exactly one decode error, about a
// truncated line.
func AssertTorn(t testing.TB, dec DecodeFunc, in []byte) {
	t.Helper()
	_, errs := Decode(t, dec, "torn.jsonl", in)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "truncated") {
		t.Errorf("errors = %v, want one truncated-line error", errs)
	}
}

// FuzzSeeds adds the files matching glob, but for the *.expected.json ones, as seeds of f, each
// cut to its first limit bytes.
func FuzzSeeds(f *testing.F, glob string, limit int) {
	files, _ := filepath.Glob(glob)
	for _, p := range files {
		if strings.HasSuffix(p, ".expected.json") {
			continue
		}
		b, _ := os.ReadFile(p)
		if len(b) > limit {
			b = b[:limit]
		}
		f.Add(b)
	}
}

// FuzzDecode decodes b, read as the file name, fails the test on an invalid event, and runs the
// projection and the invariant checks over the events (which must not panic).
func FuzzDecode(t testing.TB, dec DecodeFunc, name string, b []byte) {
	t.Helper()
	evs, _ := Decode(t, dec, name, b)
	for i := range evs {
		if err := evs[i].Validate(); err != nil {
			t.Fatalf("invalid event: %v", err)
		}
	}
	model.Project(evs)
	model.CheckEvents(evs)
}
