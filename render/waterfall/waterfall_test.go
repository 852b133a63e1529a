package waterfall

import (
	"io"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

func TestGolden(t *testing.T) {
	rendertest.GoldenVariants(t, []rendertest.Variant[Options]{
		{Suffix: ".txt", Opts: Options{Width: 120}},
		{Suffix: ".narrow.txt", Opts: Options{Width: 50}},
		{Suffix: ".color.txt", Opts: Options{Width: 100, Color: true}},
	}, func(w io.Writer, sc rendertest.Scenario, o Options) error {
		o.Findings = sc.Findings
		return Render(w, sc.Tree, o)
	})
}

func render(t *testing.T, tr *model.Tree, o Options) []string {
	t.Helper()
	return strings.Split(string(rendertest.Output(t, func(w io.Writer) error { return Render(w, tr, o) })), "\n")
}

func rowOf(t *testing.T, lines []string, prefix string) (label, bar string) {
	t.Helper()
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), prefix) {
			i := strings.Index(l, "│")
			return l[:i], strings.TrimSuffix(l[i+len("│"):], "│")
		}
	}
	t.Fatalf("no row %q in\n%s", prefix, strings.Join(lines, "\n"))
	return "", ""
}

func span(bar string) (int, int) {
	r := []rune(bar)
	from, to := -1, -1
	for i, c := range r {
		if c != ' ' {
			if from < 0 {
				from = i
			}
			to = i + 1
		}
	}
	return from, to
}

func TestBars(t *testing.T) {
	lines := render(t, rendertest.Basic().Tree, Options{Width: 120})
	_, weather := rowOf(t, lines, "tool get_weather")
	_, news := rowOf(t, lines, "tool get_news")
	ws, we := span(weather)
	ns, ne := span(news)
	if !(ws < ne && ns < we) {
		t.Errorf("parallel tool calls do not overlap: %d-%d and %d-%d", ws, we, ns, ne)
	}
	lab, _ := rowOf(t, lines, "tool get_news")
	if !strings.Contains(lab, "∥") {
		t.Errorf("parallel tool call not marked: %q", lab)
	}
	_, sess := rowOf(t, lines, "session")
	if s, e := span(sess); s != 0 || e != view.Width(sess) {
		t.Errorf("session bar %d-%d does not span the chart (%d)", s, e, view.Width(sess))
	}

	lines = render(t, rendertest.Open().Tree, Options{Width: 120})
	lab, bar := rowOf(t, lines, "tool long_poll")
	if !strings.Contains(lab, "▸open") || !strings.HasSuffix(strings.TrimRight(bar, " "), string(fillOpen)) {
		t.Errorf("open tool call not marked/drawn to the end: %q %q", lab, bar)
	}
	if _, e := span(bar); e != view.Width(bar) {
		t.Errorf("open bar ends at %d, want the trace end %d", e, view.Width(bar))
	}

	lines = render(t, rendertest.Timeless().Tree, Options{Width: 100})
	if !strings.Contains(strings.Join(lines, "\n"), "timeless") {
		t.Errorf("timeless tree not announced")
	}
	_, m := rowOf(t, lines, "model qwen")
	_, c := rowOf(t, lines, "tool final_answer")
	if ms, _ := span(m); ms < 0 {
		t.Errorf("no ordinal bar for the model call")
	} else if cs, _ := span(c); cs <= ms {
		t.Errorf("ordinal layout: tool (%d) should come after model (%d)", cs, ms)
	}
}

func TestWidthAndSafety(t *testing.T) {
	for _, width := range []int{50, 80, 120, 200} {
		for _, sc := range rendertest.All(t) {
			for n, l := range render(t, sc.Tree, Options{Width: width, Findings: sc.Findings}) {
				if w := view.Width(l); w > width {
					t.Errorf("%s width %d: line %d is %d cells: %q", sc.Name, width, n+1, w, l)
				}
				if strings.ContainsAny(l, "\x1b\x07\r\u202e") {
					t.Errorf("%s: control characters in %q", sc.Name, l)
				}
			}
		}
	}
}

func BenchmarkRender100k(b *testing.B) {
	tr := rendertest.Big(100_000)
	rendertest.Bench(b, func(w io.Writer) error { return Render(w, tr, Options{Width: 120}) })
}

// TestWidthUsedAndCancelled: a wide terminal shows ids whole, the legend wraps instead of being
// cut at any width, and a cancelled call is drawn unlike a completed one.
func TestWidthUsedAndCancelled(t *testing.T) {
	byName := map[string]rendertest.Scenario{}
	for _, s := range rendertest.All(t) {
		byName[s.Name] = s
	}
	wide := strings.Join(render(t, byName["sample-openai-agents"].Tree, Options{Width: 200}), "\n")
	for _, id := range []string{"trace_dcbde66869f14928907e5a279ec9a8a9", "span_093f14db823c423f9a0cc86f"} {
		if !strings.Contains(wide, id) {
			t.Errorf("width 200: id %s is not whole:\n%s", id, wide)
		}
	}
	for _, w := range []int{50, 80, 100, 200} {
		out := strings.Join(render(t, byName["basic"].Tree, Options{Width: w}), "\n")
		for _, item := range []string{"recorded", "failed ✗", "cancelled", "(never ended: drawn to the trace end)", "wait", "∥ parallel", "⚑ finding", "~ inferred"} {
			if !strings.Contains(out, item) {
				t.Errorf("width %d: legend lacks %q:\n%s", w, item, out)
			}
		}
	}
	lines := render(t, byName["demo-cancel-run"].Tree, Options{Width: 100})
	_, crawl := rowOf(t, lines, "tool crawl")
	_, model := rowOf(t, lines, "model scripted-llm")
	if !strings.ContainsRune(crawl, fillCancel) || strings.ContainsRune(crawl, fillOK) {
		t.Errorf("cancelled tool call drawn %q, want %c", crawl, fillCancel)
	}
	if !strings.ContainsRune(model, fillOK) {
		t.Errorf("completed model call drawn %q, want %c", model, fillOK)
	}
}
