package text

import (
	"bytes"
	"io"
	"regexp"
	"slices"
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

// sessionRows splits a rendering into its sessions (each starts with the column header row) and
// returns, for each, its header and node rows split into the left part (tree prefix and label,
// trailing blanks included) and the right columns (the last rw cells). Continuation lines
// (usage, errors, findings) are left out.
func sessionRows(t *testing.T, out string, rw int) [][][2]string {
	t.Helper()
	var sessions [][][2]string
	cont := regexp.MustCompile(`^[│ ]*[∑!⚑] `)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, colHead) {
			sessions = append(sessions, nil)
		}
		if len(sessions) == 0 || line == "" || cont.MatchString(line) {
			continue
		}
		r := []rune(line)
		if len(r) < rw {
			t.Fatalf("row shorter than its right columns: %q", line)
		}
		i := len(sessions) - 1
		sessions[i] = append(sessions[i], [2]string{string(r[:len(r)-rw]), string(r[len(r)-rw:])})
	}
	return sessions
}

// TestWidthUsed: a wide terminal shows ids whole and the right columns follow the longest label
// of each session (2 blank cells after it), not the terminal's edge; at 100 columns ids are
// shortened only as much as the row needs, a label that fits is not cut, and status, stop
// reason and the inferred marker are never cut mid-word.
func TestWidthUsed(t *testing.T) {
	var sc, other rendertest.Scenario
	for _, s := range rendertest.All(t) {
		switch s.Name {
		case "sample-openai-agents":
			sc = s
		case "demo-happy":
			other = s
		}
	}
	render := func(w int) string {
		var buf bytes.Buffer
		if err := Render(&buf, sc.Tree, Options{Width: w, Findings: sc.Findings}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	const rw = rightW - 1 // the columns' cells; row() puts one more blank before them
	// Two sessions of different label widths: each is aligned to its own longest label, under
	// a column header of its own.
	two := &model.Tree{Sessions: append(slices.Clone(sc.Tree.Sessions), other.Tree.Sessions...)}
	var buf bytes.Buffer
	if err := Render(&buf, two, Options{Width: 200}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		out      string
		sessions int
	}{"one session": {render(200), 1}, "two sessions": {buf.String(), 2}} {
		sessions := sessionRows(t, c.out, rw)
		if len(sessions) != c.sessions {
			t.Fatalf("%s: %d column header rows, want %d:\n%s", name, len(sessions), c.sessions, c.out)
		}
		var starts []int
		for _, rows := range sessions {
			longest, start := 0, -1
			for _, r := range rows {
				lab := strings.TrimRight(r[0], " ")
				longest = max(longest, view.Width(lab))
				if start >= 0 && view.Width(r[0]) != start {
					t.Errorf("%s: right columns not aligned (at %d, not %d): %q", name, view.Width(r[0]), start, r[0]+r[1])
				}
				start = view.Width(r[0])
				if strings.Contains(lab, "…") {
					t.Errorf("%s: width 200: label cut: %q", name, lab)
				}
			}
			if gap := start - longest; gap != 2 {
				t.Errorf("%s: width 200: %d blank cells between the longest label and the start column, want 2:\n%s", name, gap, c.out)
			}
			starts = append(starts, start)
		}
		if c.sessions == 2 && starts[0] == starts[1] {
			t.Errorf("%s: both sessions' columns at %d: not aligned to each session's labels:\n%s", name, starts[0], c.out)
		}
	}
	// At 100 columns a label that fits in what the columns leave is whole.
	full, at100 := sessionRows(t, render(1000), rw), sessionRows(t, render(100), rw)
	if len(full) != 1 || len(at100) != 1 || len(full[0]) != len(at100[0]) {
		t.Fatalf("width 100 and 1000 differ in rows: %d and %d sessions", len(at100), len(full))
	}
	room := 100 - rightW - 1
	fits := 0
	for i, r := range full[0] {
		lab := strings.TrimRight(r[0], " ")
		if view.Width(lab) > room {
			continue
		}
		fits++
		if got := strings.TrimRight(at100[0][i][0], " "); got != lab {
			t.Errorf("width 100: label %q fits in %d cells but is %q", lab, room, got)
		}
	}
	if fits < 3 {
		t.Errorf("width 100: only %d labels fit, the check tests nothing", fits)
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
