package mermaid

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func TestGolden(t *testing.T) {
	rendertest.GoldenVariants(t, []rendertest.Variant[Options]{
		{Suffix: ".gantt.md", Opts: Options{}},
		{Suffix: ".sequence.md", Opts: Options{Sequence: true}},
		{Suffix: ".gantt.mmd", Opts: Options{Bare: true}},
	}, func(w io.Writer, sc rendertest.Scenario, o Options) error {
		o.Findings = sc.Findings
		return Render(w, sc.Tree, o)
	})
}

func TestLabel(t *testing.T) {
	for _, in := range []string{rendertest.HostileName, "a:b", "x;y", "#35;", "%%{init: {}}%%", "<br/>", "line\nbreak", "", "  "} {
		got := Label(in)
		if strings.ContainsAny(got, ":;#\"'`<>&{}[]|%\\\n\r\x1b") {
			t.Errorf("Label(%q) = %q keeps a syntax character", in, got)
		}
		if got == "" {
			t.Errorf("Label(%q) is empty", in)
		}
	}
}

// diagrams extracts the fenced Mermaid diagrams of a Markdown output.
func diagrams(md string) []string {
	var out []string
	for _, part := range strings.Split(md, "```mermaid\n")[1:] {
		out = append(out, strings.SplitN(part, "```", 2)[0])
	}
	return out
}

func TestSplitAndAggregate(t *testing.T) {
	tr := rendertest.Big(4000)
	for _, seq := range []bool{false, true} {
		var buf bytes.Buffer
		if err := Render(&buf, tr, Options{Sequence: seq}); err != nil {
			t.Fatal(err)
		}
		ds := diagrams(buf.String())
		if len(ds) < 2 {
			t.Fatalf("sequence=%v: %d diagrams, want a split", seq, len(ds))
		}
		if !strings.Contains(buf.String(), "split into") || !strings.Contains(ds[0], "%% lifeline: diagram 1 of") {
			t.Errorf("sequence=%v: the split is not announced", seq)
		}
		for i, d := range ds {
			if len(d) > MaxTextSize {
				t.Errorf("sequence=%v: diagram %d has %d characters", seq, i, len(d))
			}
			if !strings.HasPrefix(strings.SplitN(d, "\n", 3)[1], "gantt") && !strings.Contains(d, "sequenceDiagram") {
				t.Errorf("diagram %d lacks its header", i)
			}
			if strings.Count(d, "    par ") != strings.Count(d, "    end") {
				t.Errorf("diagram %d splits a par block", i)
			}
		}
		buf.Reset()
		if err := Render(&buf, tr, Options{Sequence: seq, Bare: true}); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > MaxTextSize {
			t.Errorf("bare sequence=%v: %d characters", seq, buf.Len())
		}
		if !strings.Contains(buf.String(), "aggregated") {
			t.Errorf("bare sequence=%v: aggregation not announced", seq)
		}
	}
}

func BenchmarkRender100k(b *testing.B) {
	tr := rendertest.Big(100_000)
	for _, seq := range []bool{false, true} {
		name := "gantt"
		if seq {
			name = "sequence"
		}
		b.Run(name, func(b *testing.B) {
			rendertest.Bench(b, func(w io.Writer) error { return Render(w, tr, Options{Sequence: seq}) })
		})
	}
}
