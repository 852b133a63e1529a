package text

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/view"

	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func TestGolden(t *testing.T) {
	rendertest.GoldenVariants(t, []rendertest.Variant[Options]{
		{Suffix: ".txt", Opts: Options{Width: 110}},
		{Suffix: ".narrow.txt", Opts: Options{Width: 60}},
		{Suffix: ".color.txt", Opts: Options{Width: 110, Color: true}},
	}, func(w io.Writer, sc rendertest.Scenario, o Options) error {
		o.Findings = sc.Findings
		return Render(w, sc.Tree, o)
	})
}

func TestNoEscapesWithoutColor(t *testing.T) {
	for _, sc := range rendertest.All(t) {
		var buf bytes.Buffer
		if err := Render(&buf, sc.Tree, Options{Findings: sc.Findings}); err != nil {
			t.Fatal(err)
		}
		for i, r := range buf.String() {
			if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e {
				t.Errorf("%s: control character %U at byte %d", sc.Name, r, i)
			}
		}
	}
}

func TestWidth(t *testing.T) {
	for _, width := range []int{60, 80, 100, 140} {
		for _, sc := range rendertest.All(t) {
			var buf bytes.Buffer
			if err := Render(&buf, sc.Tree, Options{Width: width, Findings: sc.Findings}); err != nil {
				t.Fatal(err)
			}
			for n, line := range strings.Split(buf.String(), "\n") {
				if w := view.Width(line); w > width {
					t.Errorf("%s width %d: line %d is %d cells: %q", sc.Name, width, n+1, w, line)
				}
			}
		}
	}
}

// TestUsageRollUp checks that every layer shows the sum of its own model calls, each counted once.
func TestUsageRollUp(t *testing.T) {
	sc := rendertest.Subagent()
	var total model.Usage
	sc.Tree.Walk(func(n any, _ int) bool {
		if m, ok := n.(*model.ModelCall); ok {
			total = total.Add(m.Usage)
		}
		return true
	})
	var buf bytes.Buffer
	if err := Render(&buf, sc.Tree, Options{Width: 120}); err != nil {
		t.Fatal(err)
	}
	want := "tokens " + view.Count(total.InputTokens) + " in / " + view.Count(total.OutputTokens) + " out"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("header lacks %q:\n%s", want, buf.String())
	}
	for _, tc := range []struct{ row, tokens string }{
		{"run run-parent", "500/60"}, // the sub-agent's 800/300 is counted at its own run only
		{"run run-child", "800/300"},
		{"session sess-sub", "1,810/430"},
	} {
		found := false
		for _, line := range strings.Split(buf.String(), "\n") {
			if strings.Contains(line, tc.row) {
				found = true
				if !strings.Contains(line, tc.tokens) {
					t.Errorf("row %q: want tokens %s: %q", tc.row, tc.tokens, line)
				}
			}
		}
		if !found {
			t.Errorf("no row %q", tc.row)
		}
	}
}

func TestEmptyTree(t *testing.T) {
	for _, tr := range []*model.Tree{nil, {}} {
		var buf bytes.Buffer
		if err := Render(&buf, tr, Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "no sessions") {
			t.Errorf("empty tree: %q", buf.String())
		}
	}
}

func BenchmarkRender100k(b *testing.B) {
	tr := rendertest.Big(100_000)
	rendertest.Bench(b, func(w io.Writer) error { return Render(w, tr, Options{Width: 120}) })
}

// TestWidthUsed: a wide terminal shows ids whole; at 100 columns ids are shortened only as much
// as the row needs, and status, stop reason and the inferred marker are never cut mid-word.
func TestWidthUsed(t *testing.T) {
	var sc rendertest.Scenario
	for _, s := range rendertest.All(t) {
		if s.Name == "sample-openai-agents" {
			sc = s
		}
	}
	render := func(w int) string {
		var buf bytes.Buffer
		if err := Render(&buf, sc.Tree, Options{Width: w, Findings: sc.Findings}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	wide := render(200)
	for _, id := range []string{"trace_dcbde66869f14928907e5a279ec9a8a9", "trace_dcbde66869f14928907e5a279ec9a8a9/turn-1", "span_01593aa37a714129acd7f4f7"} {
		if !strings.Contains(wide, " "+id+" ") {
			t.Errorf("width 200: id %s is not whole:\n%s", id, wide)
		}
	}
	cutMarker := regexp.MustCompile(`~[a-z_,]*…|goal…|complet…`)
	for _, w := range []int{100, 120} {
		out := render(w)
		if m := cutMarker.FindString(out); m != "" {
			t.Errorf("width %d: marker or status cut (%q):\n%s", w, m, out)
		}
		if !strings.Contains(out, "· completed goal_reached") {
			t.Errorf("width %d: the run's status and stop reason are not whole:\n%s", w, out)
		}
	}
}
