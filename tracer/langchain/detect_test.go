package langchain_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/tracer"
)

// mine maps the files of the formats of tracer/langchain, tracer/pi, tracer/deepseek and
// tracer/smolagents to their format; every other file must not be detected as one of them.
func mine(path string) string {
	base := filepath.Base(path)
	switch {
	case strings.HasSuffix(base, ".expected.json"), strings.HasSuffix(base, ".inferable.json"):
		return ""
	case strings.Contains(path, "deepseek-harness") && strings.HasSuffix(base, ".session.jsonl"):
		return "deepseek-harness"
	case strings.HasSuffix(base, ".stream_events_v2.jsonl"):
		return "langchain-events"
	case strings.HasSuffix(base, ".run_tree.json"), strings.HasSuffix(base, ".langsmith_payloads.jsonl"):
		return "langsmith-runs"
	case strings.HasSuffix(base, ".langsmith_multipart"):
		return "langsmith-multipart"
	case strings.Contains(path, "/pi-") && strings.HasSuffix(base, ".events.jsonl"):
		return "pi-events"
	case strings.Contains(path, "/pi-coding-agent/") && strings.HasSuffix(base, ".session.jsonl"):
		return "pi-session"
	case strings.Contains(path, "samples-py/smolagents/") && (strings.HasSuffix(base, ".steps.json") || strings.HasSuffix(base, ".run_result.json") || strings.HasSuffix(base, ".callbacks.jsonl")):
		return "smolagents"
	}
	return ""
}

var myFormats = map[string]bool{"deepseek-harness": true, "langchain-events": true, "langsmith-runs": true, "langsmith-multipart": true, "pi-events": true, "pi-session": true, "smolagents": true}

// TestDetectAll runs format detection over every file of testdata/samples, testdata/traces and
// testdata/samples-py: each of our files is detected as its format, no other file as one of ours.
func TestDetectAll(t *testing.T) {
	n := 0
	for _, root := range []string{"../../testdata/samples", "../../testdata/traces", "../../testdata/samples-py"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			if len(b) > tracer.HeadSize {
				b = b[:tracer.HeadSize]
			}
			n++
			want := mine(path)
			f, derr := tracer.Detect(b)
			got := ""
			if derr == nil {
				got = f.Name
			}
			switch {
			case want != "" && got != want:
				t.Errorf("%s: detected %q, want %q", path, got, want)
			case want == "" && myFormats[got]:
				t.Errorf("%s: detected as %q, which it is not", path, got)
			}
			return nil
		})
	}
	if n < 40 {
		t.Errorf("only %d files walked", n)
	}
}
