package rendertest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/chrome"
	"github.com/lifeline-dev/lifeline/render/html"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
	"github.com/lifeline-dev/lifeline/render/internal/view"
	rjson "github.com/lifeline-dev/lifeline/render/json"
	"github.com/lifeline-dev/lifeline/render/mermaid"
	"github.com/lifeline-dev/lifeline/render/otlp"
	"github.com/lifeline-dev/lifeline/render/text"
	"github.com/lifeline-dev/lifeline/render/waterfall"
)

// format is one output of `timeline --format`, with whether it is JSON.
type format struct {
	name   string
	json   bool
	render func(w io.Writer, t *model.Tree, f []model.Finding) error
}

func formats() []format {
	var fs []format
	for _, w := range []int{50, 100, 200} {
		fs = append(fs,
			format{fmt.Sprintf("text/%d", w), false, func(o io.Writer, t *model.Tree, f []model.Finding) error {
				return text.Render(o, t, text.Options{Width: w, Findings: f})
			}},
			format{fmt.Sprintf("waterfall/%d", w), false, func(o io.Writer, t *model.Tree, f []model.Finding) error {
				return waterfall.Render(o, t, waterfall.Options{Width: w, Findings: f})
			}})
	}
	return append(fs,
		format{"mermaid/gantt", false, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return mermaid.Render(o, t, mermaid.Options{Findings: f})
		}},
		format{"mermaid/sequence", false, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return mermaid.Render(o, t, mermaid.Options{Sequence: true, Findings: f})
		}},
		format{"chrome", true, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return chrome.Render(o, t, chrome.Options{Findings: f, AllFlows: true})
		}},
		format{"json", true, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return rjson.Render(o, t, rjson.Options{Findings: f})
		}},
		format{"otlp", true, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return otlp.Render(o, t, otlp.Options{Findings: f})
		}},
		format{"otlp/lines", false, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return otlp.Render(o, t, otlp.Options{Findings: f, Lines: true})
		}},
		format{"html/data", true, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			b, err := html.Data(t, f, html.Options{})
			o.Write(b)
			return err
		}},
		format{"html", false, func(o io.Writer, t *model.Tree, f []model.Finding) error {
			return html.Render(o, t, f, html.Options{})
		}},
	)
}

// safely renders and turns a panic into a test failure.
func safely(t *testing.T, f format, tr *model.Tree, fi []model.Finding) (out []byte) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panics: %v", f.name, p)
		}
	}()
	var buf bytes.Buffer
	if err := f.render(&buf, tr, fi); err != nil {
		t.Fatalf("%s: %v", f.name, err)
	}
	return buf.Bytes()
}

func absurd(t *testing.T) rendertest.Scenario {
	for _, sc := range rendertest.All(t) {
		if sc.Name == "absurd-clock" {
			return sc
		}
	}
	t.Fatal("no absurd-clock scenario in testdata/scenarios")
	return rendertest.Scenario{}
}

// negDur matches a negative or saturated duration as the text outputs print them.
var negDur = regexp.MustCompile(`(^|[ (+>·])-[0-9]|2562047h47m`)

// TestAbsurdClockEveryFormat renders a trace whose clock spans year 1 to year 9999 (more than
// the 292 years a time.Duration holds) in every format: no panic, no hang, no saturated or
// negative duration, the real span (9998 years) where durations are printed, valid JSON where
// the format is JSON, and OTLP/Chrome times inside what their timestamps hold.
func TestAbsurdClockEveryFormat(t *testing.T) {
	sc := absurd(t)
	for _, f := range formats() {
		t.Run(f.name, func(t *testing.T) {
			out := safely(t, f, sc.Tree, sc.Findings)
			s := string(out)
			if f.json {
				var v any
				if err := json.Unmarshal(out, &v); err != nil {
					t.Fatalf("invalid JSON: %v", err)
				}
			}
			switch {
			case strings.HasPrefix(f.name, "text"), strings.HasPrefix(f.name, "waterfall"), f.name == "mermaid/sequence":
				if negDur.MatchString(s) {
					t.Errorf("negative or saturated duration %q in\n%s", negDur.FindString(s), s)
				}
				if !strings.Contains(s, "9998y") {
					t.Errorf("the 9998-year span is not shown:\n%s", s)
				}
				if strings.Contains(f.name, "/") && !strings.HasPrefix(f.name, "mermaid") {
					var w int
					fmt.Sscanf(f.name[strings.Index(f.name, "/")+1:], "%d", &w)
					for _, l := range strings.Split(s, "\n") {
						if view.Width(l) > max(w, 60) {
							t.Errorf("line wider than %d: %q", w, l)
						}
					}
				}
			case f.name == "chrome":
				var tr struct {
					TraceEvents []struct {
						Ph      string
						Ts, Dur float64
						Args    map[string]any
					}
				}
				json.Unmarshal(out, &tr)
				for _, e := range tr.TraceEvents {
					if e.Ph == "X" && (e.Ts < 0 || e.Dur < 0 || e.Ts+e.Dur > math.MaxInt64/1e3+1) {
						t.Errorf("slice at %v for %v outside the int64-nanosecond range", e.Ts, e.Dur)
					}
				}
				if !strings.Contains(s, `"time_clamped"`) {
					t.Errorf("clamped times are not marked")
				}
			case f.name == "otlp":
				if !strings.Contains(s, `"lifeline.time_clamped"`) {
					t.Errorf("clamped times are not marked")
				}
			case f.name == "json":
				if !strings.Contains(s, `"end":"9999-12-31T23:59:59.8Z"`) || !strings.Contains(s, `"duration_ms":315537897597800`) {
					t.Errorf("run end or duration wrong:\n%.600s", s)
				}
			case f.name == "html/data":
				var d struct {
					Total int64 `json:"total"`
					D     []int64
				}
				json.Unmarshal(out, &d)
				if d.Total != 315537897598800000 {
					t.Errorf("html total %d µs, want 315537897598800000", d.Total)
				}
			}
		})
	}
}

// overflowTree has a run of two model calls of MaxInt64 input, output and cached tokens whose
// costs (1e308 each) sum past the largest float64, and a run whose one call's cost is NaN.
func overflowTree() *model.Tree {
	ts := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	var evs []model.Event
	add := func(ev model.Event) {
		ev.V, ev.Seq, ev.SessionID, ev.Source = model.SchemaVersion, int64(len(evs)+1), "s", model.SourceRuntime
		ev.TS = ts.Add(time.Duration(len(evs)) * time.Millisecond)
		evs = append(evs, ev)
	}
	add(model.Event{Type: model.SessionStart})
	// run r: two calls whose costs sum past the largest float64; run n: one call whose cost is NaN
	for _, run := range []struct {
		id    string
		costs []float64
	}{{"r", []float64{1e308, 1e308}}, {"n", []float64{math.NaN()}}} {
		r := run.id
		add(model.Event{Type: model.RunStart, RunID: r, Attempt: 1})
		add(model.Event{Type: model.TurnStart, RunID: r, TurnID: "t"})
		add(model.Event{Type: model.StepStart, RunID: r, TurnID: "t", StepID: "st"})
		for i, c := range run.costs {
			id := fmt.Sprintf("m%d", i)
			add(model.Event{Type: model.ModelStart, RunID: r, TurnID: "t", StepID: "st", CallID: id, Name: "llm"})
			add(model.Event{Type: model.ModelEnd, RunID: r, TurnID: "t", StepID: "st", CallID: id, Name: "llm", Outcome: model.OutcomeOK,
				Usage: &model.Usage{InputTokens: math.MaxInt64, OutputTokens: math.MaxInt64, CachedTokens: math.MaxInt64, CostUSD: c},
				Attrs: map[string]any{"cost_of_attr": math.Inf(1), "temperature": math.NaN(), "nested": []any{math.Inf(-1)}}})
		}
		add(model.Event{Type: model.StepEnd, RunID: r, TurnID: "t", StepID: "st", Outcome: model.OutcomeOK})
		add(model.Event{Type: model.TurnEnd, RunID: r, TurnID: "t", Outcome: model.OutcomeOK, StopReason: model.StopGoalReached})
		add(model.Event{Type: model.RunEnd, RunID: r, Status: model.StatusCompleted, StopReason: model.StopGoalReached})
	}
	return model.Project(evs)
}

// TestOverflowEveryJSONFormat renders MaxInt64 token counts, costs that overflow float64 and
// attributes of ±Inf and NaN in every JSON output: each must parse with encoding/json, and every
// format applies the same rule (jsonw.Finite): an overflowed number is the largest finite
// float64, a NaN is left out (null in free attributes). OTLP attributes keep proto3 JSON's own
// "Infinity"/"NaN" strings, which its readers decode; its cost attributes follow the rule.
func TestOverflowEveryJSONFormat(t *testing.T) {
	tr := overflowTree()
	for _, f := range formats() {
		t.Run(f.name, func(t *testing.T) {
			out := safely(t, f, tr, nil)
			docs := [][]byte{out}
			if f.name == "otlp/lines" {
				docs = bytes.Split(bytes.TrimSpace(out), []byte("\n"))
			}
			if f.name == "html" {
				i := bytes.Index(out, []byte(`id="lifeline-data">`))
				j := bytes.LastIndex(out, []byte("</script>\n<script>"))
				docs = [][]byte{out[i+len(`id="lifeline-data">`) : j]}
			}
			if !f.json && f.name != "otlp/lines" && f.name != "html" {
				if bytes.Contains(out, []byte("Inf")) || bytes.Contains(out, []byte("NaN")) {
					t.Errorf("non-finite number printed:\n%s", out)
				}
				return
			}
			for _, d := range docs {
				var v any
				if err := json.Unmarshal(d, &v); err != nil {
					t.Fatalf("invalid JSON: %v\n%.2000s", err, d)
				}
				costs := map[float64]int{}
				walk(v, "", costs)
				for c := range costs {
					if c != 1e308 && c != math.MaxFloat64 && !(f.name == "otlp" || f.name == "otlp/lines") {
						t.Errorf("cost %v: want 1e308 (one call) or the largest float64 (a sum that overflowed)", c)
					}
				}
				if costs[math.MaxFloat64] == 0 {
					t.Errorf("the overflowed cost sum is not written as the largest float64 (costs %v)", costs)
				}
			}
		})
	}
}

// walk collects the numbers under keys (or OTLP attribute keys) that name a cost.
func walk(v any, key string, costs map[float64]int) {
	switch x := v.(type) {
	case map[string]any:
		if k, ok := x["key"].(string); ok && strings.Contains(k, "cost") {
			if val, ok := x["value"].(map[string]any); ok {
				if f, ok := val["doubleValue"].(float64); ok {
					costs[f]++
				} else {
					costs[math.Inf(1)]++ // a string such as "Infinity" or "NaN"
				}
			}
		}
		for k, c := range x {
			if strings.Contains(k, "cost") {
				if f, ok := c.(float64); ok {
					costs[f]++
				} else if c != nil {
					costs[math.Inf(-1)]++
				}
			}
			walk(c, k, costs)
		}
	case []any:
		if key == "u" { // html usage rows: [row, in, out, cached, cost]
			for _, r := range x {
				if r, ok := r.([]any); ok && len(r) == 5 {
					if f, ok := r[4].(float64); ok && f != 0 {
						costs[f]++
					}
				}
			}
		}
		for _, c := range x {
			walk(c, key, costs)
		}
	}
}
