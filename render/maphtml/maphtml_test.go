package maphtml

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func p(f string, l int) model.Position { return model.Position{File: f, Line: l} }

func runs(ids ...string) *model.Coverage {
	c := &model.Coverage{}
	for _, id := range ids {
		c.Add(id)
	}
	return c
}

// sample is a map of two entries that share one turn loop, with coverage from a trace join:
// the completed exit taken by run-parent and run-child, the max_steps exit by run-child, the
// cancelled exit by none.
func sample(coverage bool) *model.Map {
	cov := func(c *model.Coverage) *model.Coverage {
		if coverage {
			return c
		}
		return nil
	}
	loop := model.Loop{Pos: p("agent/run.go", 20), Source: "for i := 0; i < e.MaxSteps; i++ {", Kind: model.LoopFor, Func: "agent.Executor.Run",
		Bound:        &model.Bound{Expr: "e.MaxSteps", Default: "10", DefaultPos: p("agent/options.go", 5), Pos: p("agent/run.go", 20), Taken: cov(runs("run-child"))},
		OnBound:      &model.OnBound{Kind: model.OnBoundError, Value: "ErrMaxSteps", StopReason: model.StopMaxSteps, Pos: p("agent/run.go", 40)},
		ModelCalls:   []model.CallSite{{Pos: p("agent/run.go", 22), Source: `resp, err := e.Model.Generate(ctx, msgs) // "step"`, Callee: "llm.Model.Generate", Provenance: model.Provenance{Confidence: model.ConfidenceProfile}, Taken: cov(runs("run-parent", "run-child"))}},
		ToolCalls:    []model.CallSite{{Pos: p("agent/run.go", 30), Source: "go func() { out <- tool.Call(ctx, in) }()", Callee: "tools.Tool.Call", Parallel: true, Provenance: model.Provenance{Confidence: model.ConfidenceInferred}}},
		ChecksCancel: true, CancelPos: p("agent/run.go", 21), ParallelTools: true,
		Provenance: model.Provenance{Confidence: model.ConfidenceInferred, Evidence: []string{"iteration calls llm.Model.Generate: agent/run.go:22"}}}
	return &model.Map{
		Packages: []string{"example.com/agent"},
		Profiles: []string{"test"},
		Entries: []model.Entry{
			{Func: "agent.Executor.Run", Pos: p("agent/run.go", 10), Source: "func (e *Executor) Run(ctx context.Context) (string, error) {",
				Provenance: model.Provenance{Confidence: model.ConfidenceProfile, Rule: "profile test: agent.Executor.Run"},
				Loops:      []model.Loop{loop},
				Exits: []model.Exit{
					{Pos: p("agent/run.go", 25), Source: "return resp.Text, nil", Outcome: "completed", StopReason: model.StopGoalReached, Detail: "return resp.Text, nil", Taken: cov(runs("run-parent", "run-child"))},
					{Pos: p("agent/run.go", 21), Source: "return \"\", ctx.Err()", Outcome: "cancelled", StopReason: model.StopCancelled, Detail: "return \"\", ctx.Err()", Taken: cov(&model.Coverage{})},
					{Pos: p("agent/run.go", 40), Source: "return \"\", ErrMaxSteps", Outcome: "failed", StopReason: model.StopMaxSteps, Detail: "return \"\", ErrMaxSteps", Taken: cov(runs("run-child"))},
				},
				IDs: []model.IDSite{{Pos: p("agent/run.go", 12), Source: "id := uuid.NewString()", Kind: model.IDMinted, What: "uuid.NewString()"}}},
			{Func: "agent.Executor.Stream", Pos: p("agent/stream.go", 3), Provenance: model.Provenance{Confidence: model.ConfidenceInferred},
				Loops: []model.Loop{loop},
				Exits: []model.Exit{{Pos: p("agent/stream.go", 9), Source: "return nil", Outcome: "propagated"}}},
		},
	}
}

// hostile is a map whose every text tries to end the data element or open a tag.
func hostile() *model.Map {
	bad := `</script><script>alert(1)</script><img src=x onerror=alert(2)>` + "\u2028&amp;"
	return &model.Map{
		Packages: []string{bad},
		Entries: []model.Entry{{Func: bad, Pos: p(bad+".py", 1), Source: bad,
			Loops: []model.Loop{{Pos: p(bad+".py", 2), Source: bad, Kind: model.LoopFor, Func: bad,
				Bound:      &model.Bound{Expr: bad, Default: bad, Pos: p(bad+".py", 2)},
				ModelCalls: []model.CallSite{{Pos: p(bad+".py", 3), Source: bad, Callee: bad, Via: []string{bad}}}}},
			Exits: []model.Exit{{Pos: p(bad+".py", 4), Source: bad, Outcome: "completed", Detail: bad, Taken: runs(bad)}},
		}},
	}
}

func TestDataGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *model.Map
	}{{"sample", sample(true)}, {"nocoverage", sample(false)}, {"empty", &model.Map{}}} {
		t.Run(c.name, func(t *testing.T) {
			data, err := Data(c.m, Options{Timeline: "timeline.html"})
			if err != nil {
				t.Fatal(err)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, data, "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			rendertest.Golden(t, c.name+".json", pretty.Bytes())
		})
	}
}

// TestDataShared: a loop reached from two entries is stored once; coverage totals count exits
// some run took.
func TestDataShared(t *testing.T) {
	data, err := Data(sample(true), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got payload
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Loops) != 1 || got.Entries[0].Loops[0] != 0 || got.Entries[1].Loops[0] != 0 {
		t.Errorf("loops %+v, entries' loops %v %v", got.Loops, got.Entries[0].Loops, got.Entries[1].Loops)
	}
	if !got.Coverage || got.MaxRuns != 2 || got.Totals.Exits != 4 || got.Totals.ExitsTaken != 2 {
		t.Errorf("coverage %v max %d totals %+v", got.Coverage, got.MaxRuns, got.Totals)
	}
}

// TestHostileStatic: nothing from the map can close the data element or add markup: the page
// has exactly its own two script elements and one img-free body.
func TestHostileStatic(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, hostile(), Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d <script tags, want 2", n)
	}
	if strings.Contains(page, "<img") || strings.Contains(page, "\u2028") {
		t.Error("markup or U+2028 from the map reached the page")
	}
	data, _ := Data(hostile(), Options{})
	if bytes.ContainsAny(data, "<>&") {
		t.Errorf("data holds <, > or &: %.200s", data)
	}
}

// TestLongLines: a minified bundle's line is clipped.
func TestLongLines(t *testing.T) {
	m := sample(false)
	m.Entries[0].Source = strings.Repeat("x", 100000)
	data, err := Data(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 20000 {
		t.Errorf("data is %d bytes", len(data))
	}
}
