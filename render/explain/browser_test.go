package explain

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/model/explain"
	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
)

// pageFacts is what a rendered explain page shows, read in the browser.
type pageFacts struct {
	Title      string `json:"title"`
	Lang       string `json:"lang"`
	Rows       int    `json:"rows"`
	Figures    int    `json:"figures"`
	Trees      int    `json:"trees"`
	TreeRuns   int    `json:"treeRuns"`
	Scripts    int    `json:"scripts"`
	Images     int    `json:"images"`
	Links      int    `json:"links"`
	BadLinks   int    `json:"badLinks"`
	Overflow   bool   `json:"overflow"`
	FirstPara  string `json:"firstPara"`
	Definition int    `json:"definition"`
}

const factsJS = `JSON.stringify({
  title: document.querySelector('#title').textContent,
  lang: document.documentElement.lang,
  rows: document.querySelectorAll('#frameworks tr.fw').length,
  figures: document.querySelectorAll('figure.drawing').length,
  trees: document.querySelectorAll('pre.tree').length,
  treeRuns: [...document.querySelectorAll('pre.tree')].filter(p => p.textContent.includes('run run-1')).length,
  scripts: document.querySelectorAll('script').length,
  images: document.querySelectorAll('img').length,
  links: document.querySelectorAll('a.loc').length,
  badLinks: [...document.querySelectorAll('a.loc')].filter(a => !/^https:\/\/github\.com\/lifeline-dev\/lifeline\/blob\/main\/[^#]+#L[1-9][0-9]*$/.test(a.href)).length,
  overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
  firstPara: document.querySelector('#definition p').textContent,
  definition: document.querySelectorAll('#definition p, #definition li').length,
})`

// TestPagesInBrowser opens every topic's page, in both languages, in headless Chromium: the
// page shows its title, one figure with a tree per drawing, one row per framework, a link per
// cited location, runs no script and loads nothing, and its body does not overflow the window.
// The page made of untrusted text shows it as text.
func TestPagesInBrowser(t *testing.T) {
	b := browsertest.New(t, 1280, 900, 3*time.Minute)
	dir := t.TempDir()
	check := func(name string, d *explain.Doc) pageFacts {
		var buf bytes.Buffer
		if err := Render(&buf, d, Options{Format: "html"}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".html")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.FileURL(path)), chromedp.WaitReady("#frameworks")); err != nil {
			t.Fatalf("%s: loading: %v", name, err)
		}
		out, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](factsJS))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var f pageFacts
		if err := json.Unmarshal([]byte(out), &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	n := 0
	for key, d := range allDocs(t) {
		f := check(strings.ReplaceAll(key, "/", "."), d)
		cites := 0
		for _, row := range d.Frameworks {
			if row.NamesLoc != nil {
				cites++
			}
			cites += len(row.Rules) + len(row.Words) + len(row.Sites)
		}
		if f.Title != d.Title || f.Lang != d.Lang || f.Rows != len(d.Frameworks) || f.Figures != len(d.Drawings) ||
			f.Trees != len(d.Drawings) || f.TreeRuns != len(d.Drawings) || f.Links != cites || f.BadLinks > 0 ||
			f.Scripts > 0 || f.Images > 0 || f.Overflow || f.Definition < len(d.Definition) {
			t.Errorf("%s: the page shows %+v; the doc has %d drawings, %d frameworks, %d citations, %d paragraphs", key, f, len(d.Drawings), len(d.Frameworks), cites, len(d.Definition))
		}
		n++
	}
	evil := *allDocs(t)["turn/en"]
	const bad = `<img src=x onerror=alert(1)><script>alert(2)</script>`
	evil.Definition = append([]string{bad}, evil.Definition...)
	evil.Frameworks = append([]explain.FrameworkRow{{Framework: bad, Version: bad, Names: []string{bad}, NamesLoc: &explain.Location{File: bad, Line: 1}}}, evil.Frameworks...)
	f := check("evil", &evil)
	if f.Scripts > 0 || f.Images > 0 || f.FirstPara != bad {
		t.Errorf("untrusted text became markup: %+v", f)
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("browser errors: %v", errs)
	}
	if d := b.Dialogs(); len(d) > 0 {
		t.Errorf("dialogs opened: %v", d)
	}
	if n != len(explain.Names())*len(explain.Languages) {
		t.Fatalf("%d pages checked", n)
	}
}
