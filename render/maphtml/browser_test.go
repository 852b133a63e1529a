package maphtml

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/model"
	renderhtml "github.com/lifeline-dev/lifeline/render/html"
	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func writeMap(t *testing.T, dir string, m *model.Map, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, m, opts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "map.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return browsertest.FileURL(path)
}

func open(t *testing.T, b *browsertest.Browser, url string) {
	t.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate: %v", err)
	}
	if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`document.body.getAttribute('data-ready') === '1'`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("page never became ready: %v (errors: %v)", err, b.Errors())
	}
}

func eval[T any](t *testing.T, b *browsertest.Browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func noErrors(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("console errors or exceptions:\n%s", strings.Join(errs, "\n"))
	}
	if d := b.Dialogs(); len(d) > 0 {
		t.Errorf("dialogs opened: %v", d)
	}
}

// TestBrowserFlows: the page draws each entry as a flow of its loop into its exits, the shared
// loop once (the second entry refers to it), source lines highlighted, confidence shown, exits
// coloured by coverage; clicking an exit lists the runs that took it, each linked to the
// timeline, and following a link opens the timeline filtered to that run.
func TestBrowserFlows(t *testing.T) {
	b := browsertest.New(t, 1400, 900, 2*time.Minute)
	dir := t.TempDir()
	// The timeline of the joined traces, beside the map.
	var tl bytes.Buffer
	sc := rendertest.Subagent()
	if err := renderhtml.Render(&tl, sc.Tree, sc.Findings, renderhtml.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "timeline.html"), tl.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	open(t, b, writeMap(t, dir, sample(true), Options{Timeline: "timeline.html"}))
	noErrors(t, b)
	checks := []struct{ js, what string }{
		{`document.querySelectorAll('.entry').length === 2`, "two entry cards"},
		{`document.querySelectorAll('.loopbox').length === 2 && document.querySelectorAll('.loopbox .ref').length === 1`, "the shared loop drawn once, referred to once"},
		{`document.querySelector('#loop-0 .chip.ok').textContent === 'bound e.MaxSteps = 10'`, "bound chip with its default"},
		{`[...document.querySelectorAll('#loop-0 .chip')].some(c => c.textContent === 'checks cancellation')`, "cancellation chip"},
		{`document.querySelectorAll('#loop-0 .row.model').length === 1 && document.querySelectorAll('#loop-0 .row.tool').length === 1`, "model and tool rows"},
		{`document.querySelector('#loop-0 > .src .kw').textContent === 'for' && document.querySelector('#loop-0 .row.model .src .fn').textContent === 'Generate' && document.querySelector('#loop-0 .row.model .src .com').textContent === '// "step"'`, "source highlighted"},
		{`document.querySelector('.e-head .conf').textContent === 'profile' && document.querySelector('#loop-0 .conf').textContent === 'inferred'`, "confidence shown"},
		{`document.querySelectorAll('.exitrow.untaken').length === 2`, "the cancelled and the propagated exit marked untaken"},
		{`document.querySelector('[data-exit="0:0"]').getAttribute('data-runs') === '2' && document.querySelector('[data-exit="0:0"] .taken').textContent === '2 runs'`, "exit coverage"},
		{`getComputedStyle(document.querySelector('[data-exit="0:0"]')).borderLeftColor !== getComputedStyle(document.querySelector('[data-exit="0:2"]')).borderLeftColor`, "exits coloured by how often they were taken"},
		{`document.querySelector('#summary').textContent.includes('2 / 4')`, "exits-taken summary"},
	}
	for _, c := range checks {
		if !eval[bool](t, b, c.js) {
			t.Errorf("%s: %s is false", c.what, c.js)
		}
	}
	// Click the completed exit: its runs, linked to their timeline.
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(`[data-exit="0:0"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	links := eval[[]string](t, b, `[...document.querySelectorAll('#d-body ul.runs a')].map(a => a.getAttribute('href'))`)
	if strings.Join(links, " ") != "timeline.html#search=run-parent timeline.html#search=run-child" {
		t.Errorf("run links %v", links)
	}
	if eval[bool](t, b, `document.getElementById('details').hidden`) {
		t.Error("details pane not open")
	}
	// The filter: only exits no run took.
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(`#untaken`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, b, `[...document.querySelectorAll('.exitrow')].filter(e => e.offsetParent !== null).length`); n != 2 {
		t.Errorf("%d exits shown with the untaken filter, want 2: %s", n, eval[string](t, b, `[...document.querySelectorAll('.exitrow')].map(e => e.className + '/' + (e.offsetParent !== null)).join(' ') + ' checked=' + document.getElementById('untaken').checked`))
	}
	// Follow the run-child link: the timeline opens filtered to that run.
	href := filepath.Join(dir, "timeline.html")
	open(t, b, browsertest.FileURL(href)+"#search=run-child")
	if q := eval[string](t, b, `document.getElementById('search').value`); q != "run-child" {
		t.Errorf("timeline search = %q", q)
	}
	if !eval[bool](t, b, `window.lifeline.matches() > 0 && window.lifeline.matches() < window.lifeline.nodes`) {
		t.Errorf("timeline not filtered to the run: %d of %d", eval[int](t, b, `window.lifeline.matches()`), eval[int](t, b, `window.lifeline.nodes`))
	}
	noErrors(t, b)
}

// TestBrowserHostile: a map whose file, function and source texts are HTML and script: the page
// shows them as text, runs none of it, opens no dialog and keeps its own two scripts.
func TestBrowserHostile(t *testing.T) {
	b := browsertest.New(t, 1200, 800, 2*time.Minute)
	open(t, b, writeMap(t, t.TempDir(), hostile(), Options{Timeline: "javascript:alert(3)"}))
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(`.exitrow`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ js, what string }{
		{`document.querySelectorAll('script').length === 2`, "no script element added"},
		{`document.querySelectorAll('img').length === 0`, "no img element added"},
		{`document.querySelector('.e-head .name').textContent.startsWith('</script><script>alert(1)')`, "the name shown as text"},
		{`document.querySelector('.exitrow .pos').title.includes('<img src=x') && document.querySelector('.exitrow .pos').textContent.includes('<img src=x')`, "the file name shown as text"},
		{`document.querySelectorAll('#d-body a').length === 0`, "a javascript: timeline is not linked"},
		{`document.title.includes('</script>')`, "the title as text"},
	} {
		if !eval[bool](t, b, c.js) {
			t.Errorf("%s: %s is false", c.what, c.js)
		}
	}
	noErrors(t, b)
}
