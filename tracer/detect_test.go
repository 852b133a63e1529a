package tracer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

// readBytes runs Read over b given as the file name (through Options.Stdin) and returns the
// summary of the tree, the decode errors and Read's error.
func readBytes(t *testing.T, name string, b []byte, format string) (model.Summary, []string, error) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var evs []model.Event
	rep, err := Read([]string{path}, Options{Format: format}, func(ev *model.Event) { evs = append(evs, *ev) })
	var errs []string
	for _, e := range rep.Errors {
		errs = append(errs, e.Error())
	}
	return model.Project(evs).Summarize(), errs, err
}

// isLog reports whether a file of testdata/samples is a log, not a generator's package.json or
// the ground truth beside the logs (expected.json, inferable.json, or observed.jsonl: what a
// generator saw of a framework that writes no log of its own).
func isLog(f string) bool {
	base := filepath.Base(f)
	return !strings.HasSuffix(base, ".expected.json") && !strings.HasSuffix(base, ".observed.jsonl") && !strings.HasSuffix(base, ".inferable.json") && !strings.HasSuffix(base, ".run_state.json") && base != "package.json" && base != "package-lock.json"
}

// samples are real logs of every format, with the summary each gives.
func samples(t *testing.T) map[string]model.Summary {
	t.Helper()
	files, _ := filepath.Glob("../testdata/samples/*/*.json*")
	files = append(files, "../testdata/invariants/clean.jsonl")
	out := map[string]model.Summary{}
	for _, f := range files {
		if !isLog(f) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, errs, err := readBytes(t, filepath.Base(f), b, "")
		if err != nil || len(errs) > 0 || s.Runs == 0 {
			t.Fatalf("%s: %v %v %+v", f, err, errs, s)
		}
		out[f] = s
	}
	if len(out) < 10 {
		t.Fatalf("only %d samples", len(out))
	}
	return out
}

// TestBOM: a file that starts with a UTF-8 byte order mark reads as without it, in every format
// (issue 9 item 10: "unknown format").
func TestBOM(t *testing.T) {
	for f, want := range samples(t) {
		b, _ := os.ReadFile(f)
		got, errs, err := readBytes(t, filepath.Base(f), append([]byte("\xef\xbb\xbf"), b...), "")
		if err != nil || len(errs) > 0 || got != want {
			t.Errorf("%s with a BOM: %v %v\n%+v, want %+v", f, err, errs, got, want)
		}
	}
}

// TestLongFirstLine: a first record longer than HeadSize (a big attribute) is still detected,
// in every format whose first line is one record (issue 9 item 10: "unknown format").
func TestLongFirstLine(t *testing.T) {
	n := 0
	for f, want := range samples(t) {
		b, _ := os.ReadFile(f)
		first, rest, _ := bytes.Cut(b, []byte("\n"))
		first = bytes.TrimSpace(first)
		if len(first) < 2 || first[0] != '{' || first[len(first)-1] != '}' || !json.Valid(first) {
			continue // a pretty-printed document
		}
		pad := `,"zz_padding":"` + strings.Repeat("x", 2*HeadSize) + `"}`
		long := append(append(append([]byte{}, first[:len(first)-1]...), pad...), '\n')
		got, errs, err := readBytes(t, filepath.Base(f), append(long, rest...), "")
		if err != nil || len(errs) > 0 || got != want {
			t.Errorf("%s with a first line of %d bytes: %v %v\n%+v, want %+v", f, len(long), err, errs, got, want)
		}
		n++
	}
	if n < 8 {
		t.Errorf("only %d samples with a one-record first line", n)
	}
}

// TestOneDocumentOver64MiB: an OTLP/HTTP body written on one line and larger than the line
// limit (a 65 MiB tool result in one attribute) is read whole (issue 9 item 10: it was skipped
// as a line too long).
func TestOneDocumentOver64MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 65 MiB file")
	}
	f := "../testdata/samples/otel/openai-agents_01_two_turn_tools.otlp.json"
	want := samples(t)[f]
	b, _ := os.ReadFile(f)
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	span := doc["resourceSpans"].([]any)[0].(map[string]any)["scopeSpans"].([]any)[0].(map[string]any)["spans"].([]any)[0].(map[string]any)
	span["attributes"] = append(span["attributes"].([]any), map[string]any{"key": "tool.result", "value": map[string]any{"stringValue": strings.Repeat("x", 65<<20)}})
	big, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	got, errs, err := readBytes(t, "big.otlp.json", big, "")
	if err != nil || len(errs) > 0 || got != want {
		t.Errorf("%d-byte document: %v %v\n%+v, want %+v", len(big), err, errs, got, want)
	}
}

// TestNoRecord: an input of which no record decodes is an error naming the file and what the
// format expects, whether the format was detected or forced (issue 9 item 12: "ok: 0 events").
func TestNoRecord(t *testing.T) {
	tests := []struct {
		name, format, in string
		want             []string
	}{
		{"other.json", "otlp", `{"foo":1}` + "\n", []string{"other.json: no otlp record: expected", `{"resourceSpans":`}},
		{"other.json", "pi-events", `{"foo":1}` + "\n", []string{"other.json: no readable pi-events record (1 bad", `{"type":"agent_start"}`}},
		{"other.json", "langsmith-runs", `[]` + "\n", []string{"other.json: no langsmith-runs record", `"run_type"`}},
		{"spans.json", "", `{"resourceSpans":[]}` + "\n", []string{"spans.json: no otlp record"}},
		{"x.jsonl", "canonical", "not json\n", []string{"x.jsonl: no readable canonical record", `"type":"session/start"`}},
	}
	for _, tt := range tests {
		t.Run(tt.format+"/"+tt.in, func(t *testing.T) {
			_, _, err := readBytes(t, tt.name, []byte(tt.in), tt.format)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// every format says what it expects
	for _, f := range Formats {
		if f.Expect == "" {
			t.Errorf("%s: no Expect", f.Name)
		}
	}
}

// FuzzDetect runs detection and the detected decoder over any input, as `timeline` does: no
// panic, and every event passes the canonical schema.
func FuzzDetect(f *testing.F) {
	for _, g := range []string{"../testdata/samples/*/*.json*", "../testdata/invariants/clean.jsonl"} {
		tracertest.FuzzSeeds(f, g, 1500)
	}
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"agent_start\"}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Detect(b)
		for _, fm := range Formats {
			fm.Detect(b)
		}
		var evs []model.Event
		_, _ = Read([]string{"-"}, Options{Stdin: bytes.NewReader(b)}, func(ev *model.Event) { evs = append(evs, *ev) })
		tracertest.FuzzEvents(t, evs)
	})
}
