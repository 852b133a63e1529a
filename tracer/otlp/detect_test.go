package otlp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/openai"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// TestDetect runs detection on every sample and fixture: OTLP files and OpenAI Agents exports
// are detected as such, and no other file is taken for one of them.
func TestDetect(t *testing.T) {
	files := append(spantree.Fixtures("../../testdata/samples", ".json", ".jsonl"), spantree.Fixtures("../../testdata/traces", ".json", ".jsonl")...)
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasSuffix(base, ".expected.json") || strings.HasSuffix(base, ".inferable.json") || strings.HasSuffix(base, ".run_state.json") || strings.HasPrefix(base, "package") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > tracer.HeadSize {
			b = b[:tracer.HeadSize]
		}
		want := ""
		switch {
		case strings.Contains(base, ".otlp."):
			want = otlp.Name
		case strings.Contains(f, "/openai-agents/"):
			want = openai.Name
		}
		got := ""
		if fm, err := tracer.Detect(b); err == nil {
			got = fm.Name
		}
		mine := got == otlp.Name || got == openai.Name
		if want != "" && got != want || want == "" && mine {
			t.Errorf("%s detected as %q, want %q", f, got, want)
		}
		if want == "" && (otlp.Detect(b) > 0 || openai.Detect(b) > 0) {
			t.Errorf("%s: otlp scores %d, openai %d; want 0 for a file of another format", f, otlp.Detect(b), openai.Detect(b))
		}
	}
}
