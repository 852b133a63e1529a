package html

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

// shownTree lists the tree rows a person sees (display not none), top to bottom, as node indices.
const shownTree = `(function(){return Array.from(document.querySelectorAll('#tree .row')).filter(function(r){
	return getComputedStyle(r).display !== 'none' && r.getBoundingClientRect().height > 0;
}).map(function(r){return [r.getBoundingClientRect().top, +r.getAttribute('data-i')];})
.sort(function(a,b){return a[0]-b[0];}).map(function(x){return x[1];});})()`

// same is true when the tree shows exactly the rows the chart drew, in the same order, and the
// chart drew as many rows as the counter says are shown (or as many as fit).
const same = `(function(){var t=` + shownTree + `, c=window.lifeline.drawn(), n=+document.getElementById('rowcount').getAttribute('data-rows');
	return JSON.stringify(t)===JSON.stringify(c) && (c.length===n || (c.length<n && c.length>=Math.floor(document.getElementById('bars').clientHeight/24)));})()`

// TestBrowserTreeMatchesChart: after every interaction (collapse, expand, search, clearing the
// search, a status filter, clearing it, scrolling) the tree shows the same rows as the
// waterfall and the counter, on demo traces and on a 100k-span trace. Recycled rows that are
// hidden must not stay on screen (.row{display:flex} once beat the hidden attribute: after a
// search the tree showed its old rows and the new ones).
func TestBrowserTreeMatchesChart(t *testing.T) {
	pages := map[string]*model.Tree{}
	for _, sc := range rendertest.All(t) {
		if sc.Name == "demo-subagent" || sc.Name == "demo-happy" || sc.Name == "sample-pi-coding-agent" {
			pages[sc.Name] = sc.Tree
		}
	}
	pages["big-100k"] = model.Project(bigEvents(100_000))
	b := browsertest.New(t, 1400, 800, 5*time.Minute)
	for _, name := range []string{"demo-happy", "demo-subagent", "sample-pi-coding-agent", "big-100k"} {
		tr := pages[name]
		if tr == nil {
			t.Fatalf("no scenario %s", name)
		}
		url, _ := writePage(t, name, tr, nil)
		open(t, b, url)
		check := func(step string) {
			t.Helper()
			if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](same, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Errorf("%s, after %s: the tree shows %v, the chart drew %v, the counter says %s",
					name, step, eval[[]int](t, b, shownTree), eval[[]int](t, b, `window.lifeline.drawn()`),
					eval[string](t, b, `document.getElementById('rowcount').textContent`))
			}
		}
		// act runs js and waits for the counter to change.
		act := func(step, js string) {
			t.Helper()
			before := eval[string](t, b, `document.getElementById('rowcount').textContent`)
			if err := chromedp.Do(b.Ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			waitFor(t, b, fmt.Sprintf(`document.getElementById('rowcount').textContent !== %q`, before))
			check(step)
		}
		check("load")
		act("collapse", `document.getElementById('collapse').click()`)
		act("expand", `document.getElementById('expand').click()`)
		term := eval[string](t, b, `(function(){var D=JSON.parse(document.getElementById('lifeline-data').textContent);
			for (var i=0;i<D.k.length;i++) if (D.k[i]===6 && D.n[i]) return D.str[D.n[i]]; return 'turn';})()`)
		act("search "+term, fmt.Sprintf(`(function(){var s=document.getElementById('search'); s.value=%q; s.dispatchEvent(new Event('input'));})()`, term))
		act("clearing the search", `(function(){var s=document.getElementById('search'); s.value=''; s.dispatchEvent(new Event('input'));})()`)
		act("status filter ok", `(function(){var st=document.getElementById('status'); st.value='ok'; st.dispatchEvent(new Event('change'));})()`)
		act("clearing the status filter", `(function(){var st=document.getElementById('status'); st.value=''; st.dispatchEvent(new Event('change'));})()`)
		if name == "big-100k" {
			if err := chromedp.Do(b.Ctx, chromedp.Evaluate[chromedp.Void](`(function(){var s=document.getElementById('scroller'); s.scrollTop=1000000; s.dispatchEvent(new Event('scroll'));})()`)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, b, `window.lifeline.drawn()[0] > 1000`)
			check("scrolling")
			act("collapse after scrolling", `document.getElementById('collapse').click()`)
			act("search after scrolling", fmt.Sprintf(`(function(){var s=document.getElementById('search'); s.value=%q; s.dispatchEvent(new Event('input'));})()`, term))
		}
		noErrors(t, b)
	}
}
