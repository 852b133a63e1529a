package stats

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/stats"
	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
)

// hostile is a name that tries to break out of every context it is written in.
const hostile = "</script><img src=x onerror=alert(1)>\x1b]0;pwned\x07\x1b[2J<b>&amp;\"'"

func report(t *testing.T) *stats.Report {
	t.Helper()
	a := stats.New(stats.Options{})
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for i, st := range []model.RunStatus{model.StatusCompleted, model.StatusFailed, model.StatusFailed, model.StatusCancelled} {
		stop := map[model.RunStatus]model.StopReason{model.StatusCompleted: model.StopGoalReached, model.StatusFailed: model.StopMaxTurns, model.StatusCancelled: model.StopCancelled}[st]
		agent := "planner"
		if i == 1 {
			agent = hostile
		}
		r := &model.Run{ID: "run-" + string(rune('a'+i)), SessionID: "s", Agent: agent, Status: st, StopReason: stop}
		r.Start, r.End, r.Ended = t0, t0.Add(time.Duration(i+1)*time.Second), true
		c := &model.ToolCall{ID: "c", Name: hostile, Outcome: model.OutcomeError, Error: &model.ErrorInfo{Kind: hostile, Message: "x"}}
		m := &model.ModelCall{ID: "m", Name: "gpt", Usage: model.Usage{InputTokens: 10, CostUSD: 0.25 * float64(i)}}
		r.Turns = []*model.Turn{{ID: "t", Steps: []*model.Step{{ID: "st", ModelCalls: []*model.ModelCall{m}, ToolCalls: []*model.ToolCall{c}}}}}
		r.Usage = m.Usage
		a.Add(nil, r)
	}
	a.AddFindings([]model.Finding{{Code: "L5", Severity: model.SevError}})
	return a.Report()
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, report(t), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"4 runs", "runs by status", "failed                        2   50.0%", "max_turns                     2",
		"run-b run-c", "invariant findings by rule", "L5", "slowest runs", "4.000s       run-d cancelled/cancelled", "costliest runs", "$0.75"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("control characters from the log reached the output:\n%q", out)
	}
}

// TestHTMLInBrowser loads the page in headless Chromium: no script runs (a hostile name is
// text, not markup), the charts have one bar per status, stop reason and failing tool, and the
// tables list what the report holds.
func TestHTMLInBrowser(t *testing.T) {
	var buf bytes.Buffer
	if err := HTML(&buf, report(t), HTMLOptions{Title: "fleet <" + hostile}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<img src=x") || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Fatal("the page holds raw markup from the log or a network reference")
	}
	path := filepath.Join(t.TempDir(), "stats.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	browsertest.Require(t)
	b := browsertest.New(t, 1280, 900, 60*time.Second)
	if _, err := chromedp.Run(b.Ctx, chromedp.Navigate(browsertest.FileURL(path))); err != nil {
		t.Fatal(err)
	}
	eval := func(js string) any {
		v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[any](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	checks := []struct{ js, want string }{
		{`String(document.querySelectorAll('img').length)`, "0"},
		{`String(document.querySelectorAll('svg.bars').length >= 4)`, "true"},
		{`String(document.querySelectorAll('svg.bars')[0].querySelectorAll('rect').length)`, "3"},     // completed, failed, cancelled
		{`String(document.querySelectorAll('svg.bars')[0].querySelectorAll('rect.bad').length)`, "2"}, // failed, cancelled
		{`String(document.querySelectorAll('svg.qchart').length >= 3)`, "true"},                       // steps, turns, duration, …
		{`document.querySelector('#tools td').textContent`, hostile},
		{`document.querySelector('#bounds').textContent.includes('run-b')`, "true"},
		{`String(document.querySelectorAll('#slowest tr').length)`, "5"},
		{`document.querySelector('#summary').textContent.includes('4 runs')`, "true"},
		{`document.title.startsWith('fleet <</script><img src=x onerror=alert(1)>')`, "true"},
	}
	for _, c := range checks {
		got := eval(c.js)
		if s, ok := got.(string); !ok || s != c.want {
			if bv, ok := got.(bool); !ok || (bv && c.want != "true") || (!bv && c.want != "false") {
				t.Errorf("%s = %#v, want %q", c.js, got, c.want)
			}
		}
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	if d := b.Dialogs(); len(d) > 0 {
		t.Errorf("dialogs opened (a script ran): %v", d)
	}
	png, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err == nil {
		browsertest.WriteArtifact(t, "stats.png", png)
	}
}
