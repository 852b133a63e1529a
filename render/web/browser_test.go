package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/model/runindex"
	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
)

// TestBrowserLive opens a run's page in headless Chromium against a live server, then sends
// the run's last tool span: the framed timeline (render/html's page) reloads by itself and
// shows it, with no console error; the list page shows the run.
func TestBrowserLive(t *testing.T) {
	browsertest.Require(t)
	srv, st := newServer(t, "", nil)
	all, late := heldToolSpan(t)
	postProto(t, srv.URL, all)
	wait(t, st)
	rows, _ := st.Runs(runindex.Query{})
	run := rows[0].RunID

	b := browsertest.New(t, 1200, 800, 90*time.Second)
	poll := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			t.Fatalf("waiting for %s: %v (errors: %v)", js, err, b.Errors())
		}
	}
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	poll(`document.querySelectorAll('#runs tr[data-run]').length === 1 && document.getElementById('live').textContent.includes('live')`)

	if err := chromedp.Do(b.Ctx, chromedp.Navigate(srv.URL+RunPage+"?id="+run)); err != nil {
		t.Fatal(err)
	}
	frame := `document.getElementById('timeline').contentDocument`
	ready := frame + `.body && ` + frame + `.body.getAttribute('data-ready') === '1'`
	summary := frame + `.getElementById('summary').textContent`
	poll(ready + ` && ` + summary + `.includes('2 tool calls')`)
	poll(`document.getElementById('live').textContent === 'live'`)

	postProto(t, srv.URL, late)
	poll(`document.getElementById('live').textContent.includes('updated')`)
	poll(ready + ` && ` + summary + `.includes('3 tool calls')`)
	if errs := b.Errors(); len(errs) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
