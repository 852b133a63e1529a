// Package tracertest holds the test helpers the tracer decoders share: running a decoder over
// bytes, the <name>.expected.json ground truth and the checks of the tree projected from the
// events, the walk over the scenarios of testdata/traces, malformed-input tables and fuzzing.
package tracertest

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	// Want is the content of <Scenario>.expected.json, or, where the view's file cannot record
	// what the generator observed, what <Scenario>.inferable.json says it shows.
	Want Expected
	// Inferable is why the view's file lacks the observed truth (its entry in
	// <Scenario>.inferable.json), empty when Want is the observed truth.
	Inferable string
}

// Inferable is one entry of a <scenario>.inferable.json file: what one view of the scenario can
// show when its file lacks part of what the generator observed (a framework that writes nothing
// when a run is cancelled), and why. The file maps a view's suffix (".callbacks.jsonl") to it.
type Inferable struct {
	Expected
	Why string `json:"why"`
}

// viewWant returns the expectation of the view at path: its entry in base.inferable.json when
// there is one (with the reason, which must be given), else want.
func viewWant(t *testing.T, base, path string, want Expected) (Expected, string) {
	t.Helper()
	b, err := os.ReadFile(base + ".inferable.json")
	if os.IsNotExist(err) {
		return want, ""
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]Inferable
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s.inferable.json: %v", base, err)
	}
	e, ok := m[strings.TrimPrefix(path, base)]
	if !ok {
		return want, ""
	}
	if e.Why == "" {
		t.Fatalf("%s.inferable.json: %s: no \"why\"", base, strings.TrimPrefix(path, base))
	}
	return e.Expected, e.Why
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
			if strings.HasSuffix(view, ".expected.json") || strings.HasSuffix(view, ".inferable.json") {
				continue
			}
			t.Run(filepath.Base(view), func(t *testing.T) {
				b, err := os.ReadFile(view)
				if err != nil {
					t.Fatal(err)
				}
				w, why := viewWant(t, base, view, want)
				f(t, View{Scenario: filepath.Base(base), Path: view, Data: b, Want: w, Inferable: why})
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

// FuzzSeeds adds the files matching glob, but for the *.expected.json ones, as seeds of f, made
// small so that the fuzzer spends its time mutating rather than parsing: every JSON string
// longer than 40 bytes is cut to its first 40 (the structure and the keys stay as the producer
// wrote them), then whole lines are kept up to limit bytes (at least the first line).
func FuzzSeeds(f *testing.F, glob string, limit int) {
	files, _ := filepath.Glob(glob)
	for _, p := range files {
		if strings.HasSuffix(p, ".expected.json") {
			continue
		}
		b, _ := os.ReadFile(p)
		f.Add(SmallSeed(b, limit))
	}
}

// SmallSeed is b with every JSON string literal longer than 40 bytes cut to 40, then cut after
// the last whole line within limit bytes (the first line is always kept).
func SmallSeed(b []byte, limit int) []byte {
	const maxStr = 40
	var out []byte
	for i := 0; i < len(b); {
		if b[i] != '"' {
			out = append(out, b[i])
			i++
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(b) {
			out = append(out, b[i:]...)
			break
		}
		lit := b[i : j+1]
		var s string
		if len(lit) > maxStr+2 && json.Unmarshal(lit, &s) == nil {
			r := []rune(s)
			if len(r) > maxStr {
				r = r[:maxStr]
			}
			if short, err := json.Marshal(string(r)); err == nil {
				lit = short
			}
		}
		out = append(out, lit...)
		i = j + 1
	}
	if len(out) > limit {
		cut := bytes.LastIndexByte(out[:limit], '\n')
		if first := bytes.IndexByte(out, '\n'); cut < first {
			cut = first
		}
		if cut > 0 {
			out = out[:cut+1]
		}
	}
	return out
}

// Canonical reports whether ev passes the canonical schema the way `convert` then `check` see
// it: ev must validate, MarshalLine must write it and model.DecodeLine (the canonical decoder's
// per-line parse and validation) must read the line back to an event of the same type and ids.
func Canonical(ev *model.Event) error {
	if err := ev.Validate(); err != nil {
		return fmt.Errorf("invalid event: %w", err)
	}
	c := *ev
	line, err := c.MarshalLine()
	if err != nil {
		return fmt.Errorf("cannot be written as a canonical line: %w", err)
	}
	back, err := model.DecodeLine(line)
	if err != nil {
		return fmt.Errorf("written as %.200s, which the canonical decoder rejects: %w", line, err)
	}
	if back.Type != ev.Type || back.SessionID != ev.SessionID || back.RunID != ev.RunID || back.TurnID != ev.TurnID ||
		back.StepID != ev.StepID || back.CallID != ev.CallID || back.InputID != ev.InputID || back.ConnectionID != ev.ConnectionID {
		return fmt.Errorf("written as %.200s, read back with other ids", line)
	}
	return nil
}

// FuzzDecode decodes b, read as the file name, and checks what the decoder emitted with
// FuzzEvents. dec may return an error (an input it cannot read at all); the events emitted
// before it are still checked. It returns the decode errors reported.
func FuzzDecode(t testing.TB, dec DecodeFunc, name string, b []byte) []*ingest.DecodeError {
	t.Helper()
	var evs []model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
	em.File = name
	_ = dec(bytes.NewReader(b), em)
	FuzzEvents(t, evs)
	errs, _ := em.Errors()
	return errs
}

// FuzzEvents fails the test on an event that does not pass the canonical schema (Canonical:
// what convert writes, check must read), then runs the projection and the invariant checks over
// the events (which must not panic).
func FuzzEvents(t testing.TB, evs []model.Event) {
	t.Helper()
	for i := range evs {
		if err := Canonical(&evs[i]); err != nil {
			t.Fatalf("%s: event %d (%s): %v", evs[i].Where(), i, evs[i].Type, err)
		}
	}
	model.Project(evs)
	model.CheckEvents(evs)
}

// EachViewWith is EachView for folders that keep other files beside the views (observations,
// serialized state): only the files <scenario><suffix> for the given suffixes are views. It
// returns the number of views run.
func EachViewWith(t *testing.T, glob string, suffixes []string, f func(t *testing.T, v View)) int {
	t.Helper()
	exps, _ := filepath.Glob(glob)
	n := 0
	for _, exp := range exps {
		base := strings.TrimSuffix(exp, ".expected.json")
		want := LoadExpected(t, exp)
		for _, suf := range suffixes {
			view := base + suf
			b, err := os.ReadFile(view)
			if os.IsNotExist(err) {
				continue
			}
			n++
			t.Run(filepath.Base(view), func(t *testing.T) {
				if err != nil {
					t.Fatal(err)
				}
				w, why := viewWant(t, base, view, want)
				f(t, View{Scenario: filepath.Base(base), Path: view, Data: b, Want: w, Inferable: why})
			})
		}
	}
	return n
}
