package html

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
)

// hookCanvas records what the page draws from now on: the texts per canvas (the axis: of its last frame) and the right edge of
// the bars (rectangles lower than a row) on the waterfall canvas.
const hookCanvas = `(function(){
	window.__texts = {bars: [], axis: [], overview: []}; window.__barRight = 0;
	var P = CanvasRenderingContext2D.prototype, ft = P.fillText, fr = P.fillRect, cr = P.clearRect;
	P.clearRect = function(){ if (this.canvas.id === 'axis') window.__texts.axis = []; return cr.apply(this, arguments); }; // keep one frame of axis labels
	P.fillText = function(s, x, y){ var id = this.canvas.id; if (window.__texts[id]) window.__texts[id].push(String(s)); return ft.apply(this, arguments); };
	P.fillRect = function(x, y, w, h){ if (this.canvas.id === 'bars' && h < 20 && w > 0) window.__barRight = Math.max(window.__barRight, x + w); return fr.apply(this, arguments); };
})()`

// TestBrowserPolish checks what a new user tripped over: chips that clip the run status, an
// "inferred" chip on almost every row, a stray ■ in bar labels, zoomed axis labels that repeat,
// "1 rows", bars that run into the right edge, and errors counted once per root cause.
func TestBrowserPolish(t *testing.T) {
	b := browsertest.New(t, 1400, 800, 3*time.Minute)
	for _, name := range []string{"sample-pi-coding-agent", "errors", "demo-subagent", "hostile"} {
		sc := scenarioNamed(t, name)
		url, _ := writePage(t, name, sc.Tree, sc.Findings)
		open(t, b, url)
		if err := chromedp.Do(b.Ctx, chromedp.Evaluate[chromedp.Void](hookCanvas)); err != nil {
			t.Fatal(err)
		}
		do := func(js string) {
			t.Helper()
			if err := chromedp.Do(b.Ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
				t.Fatal(err)
			}
		}
		do(`window.dispatchEvent(new Event('resize'))`)
		waitFor(t, b, `window.__texts.axis.length > 0`)

		// The status chip is whole and the label gives way before it.
		clipped := eval[[]string](t, b, `Array.from(document.querySelectorAll('#tree .row:not([hidden])')).filter(function(r){
			var c = r.querySelector('.chip.ok, .chip.bad, .chip.cancel, .chip.live'); if (!c) return false;
			var cb = c.getBoundingClientRect(), tb = r.querySelector('.tok').getBoundingClientRect(), lb = r.querySelector('.label').getBoundingClientRect();
			return c.scrollWidth > c.clientWidth + 1 || cb.right > tb.left + 1 || lb.right > cb.left + 1 || cb.right > r.getBoundingClientRect().right;
		}).map(function(r){ return r.textContent; })`)
		for _, r := range clipped {
			t.Errorf("%s: status chip clipped or overlapped in row %q", name, r)
		}
		if n := eval[int](t, b, `Array.from(document.querySelectorAll('#tree .chip')).filter(function(c){return c.textContent === 'inferred';}).length`); n != 0 {
			t.Errorf("%s: %d 'inferred' chips; inferred rows get a quiet style", name, n)
		}
		inf := eval[int](t, b, `(function(){var D=JSON.parse(document.getElementById('lifeline-data').textContent), n=0; for (var i=0;i<D.f.length;i++) if ((D.f[i]&2) && !(D.f[i]&16)) n++; return n;})()`)
		if shown := eval[int](t, b, `document.querySelectorAll('#tree .row:not([hidden]) .label.inf').length`); inf > 0 && shown == 0 {
			t.Errorf("%s: %d inferred rows but none styled as inferred", name, inf)
		}
		// Bars keep a margin on the right; no stray ■ in their labels.
		right := eval[float64](t, b, `window.__barRight`)
		bw := eval[float64](t, b, `document.getElementById('bars').clientWidth`)
		if right > bw-12 {
			t.Errorf("%s: bars reach x=%.0f of a %.0f px canvas: no right margin", name, right, bw)
		}
		if texts := eval[[]string](t, b, `window.__texts.bars`); strings.Contains(strings.Join(texts, "\n"), "■") {
			t.Errorf("%s: a bar label carries ■: %q", name, texts)
		}
		// Zoomed in, axis labels never repeat.
		for z := 0; z < 14; z++ {
			do(`document.getElementById('zoom-in').click()`)
			time.Sleep(30 * time.Millisecond)
			do(`window.__texts.axis = []; window.dispatchEvent(new Event('resize'))`)
			waitFor(t, b, `window.__texts.axis.length > 0`)
			labels := eval[[]string](t, b, `window.__texts.axis`)
			seen := map[string]bool{}
			for _, l := range labels {
				if seen[l] {
					t.Errorf("%s: zoom %d: axis label %q repeats in %q (window %v)", name, z+1, l, labels, eval[[]float64](t, b, `window.lifeline.view()`))
					break
				}
				seen[l] = true
			}
		}
		// One row is "1 row".
		do(`document.querySelector('#tree .row[data-i="0"] .tw').click()`) // collapse the session
		waitFor(t, b, `document.getElementById('rowcount').getAttribute('data-rows') === '1'`)
		if txt := eval[string](t, b, `document.getElementById('rowcount').textContent`); !strings.Contains(txt, "1 row shown") {
			t.Errorf("%s: one row is counted as %q", name, txt)
		}
		// Errors: one per root cause, in the summary and on the error button.
		failed := eval[int](t, b, `JSON.parse(document.getElementById('lifeline-data').textContent).sum.failed`)
		if failed > 0 {
			want := fmt.Sprintf("%d error", failed)
			if got := eval[string](t, b, `document.getElementById('next-err').textContent`); !strings.HasPrefix(got, want) {
				t.Errorf("%s: error button %q, want %q", name, got, want)
			}
			if got := eval[string](t, b, `document.getElementById('summary').textContent`); !strings.Contains(got, want) {
				t.Errorf("%s: summary %q lacks %q", name, got, want)
			}
		}
		if name == "sample-pi-coding-agent" || name == "demo-subagent" {
			screenshot(t, b, "html-polish-"+name+".png")
		}
		noErrors(t, b)
	}
}
