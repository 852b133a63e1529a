package mapdiff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/mapdiff"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func p(f string, l int) model.Position { return model.Position{File: f, Line: l} }

// sample is a diff with one change of each effect, and names that try to break out of a
// Markdown table (a pipe, a backtick, an HTML tag).
func sample() *mapdiff.Diff {
	loop := func(bound *model.Bound, cancel bool) model.Loop {
		return model.Loop{Pos: p("agent/run.go", 20), Kind: model.LoopFor, Func: "agent.Executor.Run", Bound: bound,
			ChecksCancel: cancel, CancelPos: p("agent/run.go", 21),
			ModelCalls: []model.CallSite{{Pos: p("agent/run.go", 22), Callee: "llm.Model.Generate"}}}
	}
	base := &model.Map{Entries: []model.Entry{{Func: "agent.Executor.Run", Pos: p("agent/run.go", 10),
		Loops: []model.Loop{loop(&model.Bound{Expr: "e.MaxSteps", Default: "10", Pos: p("agent/run.go", 20)}, true)},
		Exits: []model.Exit{{Pos: p("agent/run.go", 30), Outcome: "failed", Detail: "return \"\", ErrMaxSteps"}}}}}
	head := &model.Map{Entries: []model.Entry{{Func: "agent.Executor.Run", Pos: p("agent/run.go", 12),
		Loops: []model.Loop{loop(&model.Bound{Expr: "e.MaxSteps", Default: "10", Pos: p("agent/run.go", 22)}, false)},
		Exits: []model.Exit{
			{Pos: p("agent/run.go", 32), Outcome: "failed", Detail: "return \"\", ErrMaxSteps"},
			{Pos: p("agent/x|y.go", 3), Outcome: "failed", StopReason: model.StopGuardrail, Detail: "return `</td><script>alert(1)</script>` | *x*"},
		},
		IDs: []model.IDSite{{Pos: p("agent/run.go", 40), Kind: model.IDParent, What: "ParentRunID"}}}}}
	d := mapdiff.Compare(base, head)
	d.Base, d.Head = "v1.0.0", "working tree"
	return &d
}

// none is a diff of two maps with the same three entries.
var none = mapdiff.Diff{Base: "HEAD~1", Head: "HEAD", BaseEntries: 3, HeadEntries: 3}

func TestGolden(t *testing.T) {
	for _, f := range []struct {
		name   string
		render func(*bytes.Buffer, *mapdiff.Diff) error
	}{
		{"sample.txt", func(b *bytes.Buffer, d *mapdiff.Diff) error { return Text(b, d) }},
		{"sample.json", func(b *bytes.Buffer, d *mapdiff.Diff) error { return JSON(b, d) }},
		{"sample.md", func(b *bytes.Buffer, d *mapdiff.Diff) error { return Markdown(b, d) }},
		{"none.txt", func(b *bytes.Buffer, _ *mapdiff.Diff) error { return Text(b, &none) }},
		{"none.md", func(b *bytes.Buffer, _ *mapdiff.Diff) error { return Markdown(b, &none) }},
		{"empty.txt", func(b *bytes.Buffer, _ *mapdiff.Diff) error {
			return Text(b, &mapdiff.Diff{Base: "HEAD~1", Head: "HEAD"})
		}},
		{"empty.md", func(b *bytes.Buffer, _ *mapdiff.Diff) error {
			return Markdown(b, &mapdiff.Diff{Base: "HEAD~1", Head: "HEAD"})
		}},
	} {
		t.Run(f.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.render(&b, sample()); err != nil {
				t.Fatal(err)
			}
			rendertest.Golden(t, f.name, b.Bytes())
		})
	}
}

// TestMarkdownEscapes: text from the code cannot open a tag, a code span or a new table cell.
func TestMarkdownEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, sample()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "</td>", "`<", "x|y"} {
		if strings.Contains(out, bad) {
			t.Errorf("markdown contains %q unescaped:\n%s", bad, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| change") {
			continue
		}
		// Unescaped pipes are the cell separators: 4 on every row of the 3-column tables.
		n := 0
		for i := range len(line) {
			if line[i] == '|' && (i == 0 || line[i-1] != '\\') {
				n++
			}
		}
		if n != 4 {
			t.Errorf("row has %d cell separators, want 4: %s", n, line)
		}
	}
	if !strings.Contains(out, "⚠️ Weakens") {
		t.Errorf("no weakening section:\n%s", out)
	}
}

// TestJSONRoundTrip: the JSON is the Diff, field for field.
func TestJSONRoundTrip(t *testing.T) {
	var b bytes.Buffer
	d := sample()
	if err := JSON(&b, d); err != nil {
		t.Fatal(err)
	}
	var back mapdiff.Diff
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Changes) != len(d.Changes) || !back.Weakened || back.Changes[0].OldPos != d.Changes[0].OldPos {
		t.Errorf("round trip: %+v", back)
	}
}
