package mermaid

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func TestGolden(t *testing.T) {
	for _, sc := range rendertest.All(t) {
		for _, tc := range []struct {
			suffix string
			opts   Options
		}{
			{".gantt.md", Options{}},
			{".sequence.md", Options{Sequence: true}},
			{".gantt.mmd", Options{Bare: true}},
		} {
			t.Run(sc.Name+tc.suffix, func(t *testing.T) {
				tc.opts.Findings = sc.Findings
				var buf bytes.Buffer
				if err := Render(&buf, sc.Tree, tc.opts); err != nil {
					t.Fatal(err)
				}
				rendertest.Golden(t, sc.Name+tc.suffix, buf.Bytes())
			})
		}
	}
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
			var n int64
			b.ReportAllocs()
			for b.Loop() {
				var c countWriter
				if err := Render(&c, tr, Options{Sequence: seq}); err != nil {
					b.Fatal(err)
				}
				n = int64(c)
			}
			b.ReportMetric(float64(n), "bytes/op")
			b.SetBytes(n)
		})
	}
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
