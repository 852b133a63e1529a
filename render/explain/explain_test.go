package explain

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model/explain"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var (
	docsOnce sync.Once
	docs     map[string]*explain.Doc // topic/lang → doc
	docsErr  error
)

// allDocs builds every topic in every language with the built-in profiles, once.
func allDocs(t *testing.T) map[string]*explain.Doc {
	t.Helper()
	docsOnce.Do(func() {
		fws, err := roles.Frameworks()
		if err != nil {
			docsErr = err
			return
		}
		ref, err := lifemap.ReferenceMap()
		if err != nil {
			docsErr = err
			return
		}
		fws = explain.WithMap(fws, roles.Lifeline.Name, ref)
		for _, in := range explain.Installed("") { // as lifeline explain without --framework-root
			fws = explain.WithMapFrom(fws, in.Name, nil, explain.MapSource{State: explain.MapNotRequested})
		}
		docs = map[string]*explain.Doc{}
		for _, topic := range explain.Names() {
			for _, lang := range explain.Languages {
				d, err := explain.Build(context.Background(), topic, lang, fws)
				if err != nil {
					docsErr = err
					return
				}
				docs[topic+"/"+lang] = d
			}
		}
	})
	if docsErr != nil {
		t.Fatal(docsErr)
	}
	return docs
}

// TestEveryTopicEveryFormat renders every topic in both languages in every format: each output
// has the title, every drawing and every framework of the doc, in the format's own syntax.
func TestEveryTopicEveryFormat(t *testing.T) {
	for key, d := range allDocs(t) {
		for _, format := range Formats {
			t.Run(key+"/"+format, func(t *testing.T) {
				var b bytes.Buffer
				if err := Render(&b, d, Options{Format: format, Width: 100}); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				switch format {
				case "json":
					var got struct {
						Topic, Lang string
						Drawings    []struct {
							Scenario string
							Tree     struct {
								Summary struct{ Runs int }
							}
						}
						Frameworks []struct{ Framework string }
					}
					if err := json.Unmarshal(b.Bytes(), &got); err != nil {
						t.Fatal(err)
					}
					if got.Topic != d.Topic || got.Lang != d.Lang || len(got.Drawings) != len(d.Drawings) || len(got.Frameworks) != len(d.Frameworks) {
						t.Fatalf("JSON: %+v", got)
					}
					for _, dr := range got.Drawings {
						if dr.Tree.Summary.Runs == 0 {
							t.Errorf("JSON drawing %s has no tree", dr.Scenario)
						}
					}
					return
				case "markdown":
					if !strings.HasPrefix(out, "# "+d.Title+"\n") || strings.Count(out, "\n| ") != len(d.Frameworks)+1 {
						t.Errorf("Markdown: no title or not one table row per framework:\n%s", out)
					}
				case "html":
					if !strings.HasPrefix(out, "<!doctype html>") || strings.Count(out, `<tr class="fw`) != len(d.Frameworks) || strings.Count(out, `<figure class="drawing"`) != len(d.Drawings) {
						t.Errorf("HTML: not a page with one row per framework and one figure per drawing")
					}
				case "text":
					for _, line := range strings.Split(out, "\n") {
						if w := runeWidth(line); w > 100 {
							t.Errorf("text line of %d columns: %q", w, line)
						}
					}
				}
				if !strings.Contains(out, d.Title) {
					t.Errorf("%s output lacks the title %q", format, d.Title)
				}
				for _, dr := range d.Drawings {
					if !strings.Contains(out, dr.Scenario) || !strings.Contains(out, "run-1") {
						t.Errorf("%s output lacks the drawing of %s", format, dr.Scenario)
					}
				}
				for _, row := range d.Frameworks {
					if !strings.Contains(out, row.Framework) {
						t.Errorf("%s output lacks framework %s", format, row.Framework)
					}
				}
				if d.Lang == "zh" && format != "json" && !strings.Contains(out, label("zh", "definition")) {
					t.Errorf("Chinese %s output lacks its Chinese headings", format)
				}
			})
		}
	}
}

func TestList(t *testing.T) {
	for _, lang := range explain.Languages {
		list, err := explain.List(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range Formats {
			var b bytes.Buffer
			if err := RenderList(&b, lang, list, Options{Format: format}); err != nil {
				t.Fatal(err)
			}
			for _, s := range list {
				if !strings.Contains(b.String(), s.Topic) {
					t.Errorf("%s %s list lacks %s", lang, format, s.Topic)
				}
			}
		}
	}
	if err := RenderList(&bytes.Buffer{}, "en", nil, Options{Format: "xml"}); err == nil {
		t.Error("format xml: no error")
	}
}

// TestGolden compares whole outputs of a few topics with their golden files.
func TestGolden(t *testing.T) {
	for _, g := range []struct{ topic, lang, format, file string }{
		{"turn", "en", "text", "turn.en.txt"},
		{"cancellation", "zh", "text", "cancellation.zh.txt"},
		{"stop-reasons", "en", "markdown", "stop-reasons.en.md"},
		{"approval", "zh", "markdown", "approval.zh.md"},
	} {
		d := allDocs(t)[g.topic+"/"+g.lang]
		var b bytes.Buffer
		if err := Render(&b, d, Options{Format: g.format, Width: 100}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", g.file)
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if !bytes.Equal(want, b.Bytes()) {
			t.Errorf("%s differs (go test -update rewrites it):\n%s", path, b.String())
		}
	}
}

// TestUntrustedTextEscaped: text from profiles and traces (a --profile file, a framework's
// names, a scenario's agent) cannot inject markup into the HTML page or the Markdown.
func TestUntrustedTextEscaped(t *testing.T) {
	d := *allDocs(t)["run/en"]
	const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>`
	d.Title = evil
	d.Definition = append([]string{"`" + evil + "` and " + evil}, d.Definition...)
	d.Frameworks = append([]explain.FrameworkRow{{Framework: evil, Version: evil, Profile: evil, Names: []string{evil},
		NamesLoc: &explain.Location{File: evil, Line: 1},
		Rules:    []explain.Rule{{Role: evil, Object: evil, Note: evil, Value: evil, Loc: explain.Location{File: `x"><script>`, Line: 2}}},
		Words:    []explain.Word{{Layer: evil, Words: []string{evil}, Note: evil}}}}, d.Frameworks...)
	dr := d.Drawings[0]
	dr.Caption, dr.Description = evil, evil
	dr.Facts = append(dr.Facts, explain.Fact{Kind: evil, Subject: evil, Items: []string{evil}})
	d.Drawings = []explain.Drawing{dr}
	for _, format := range []string{"html", "markdown"} {
		var b bytes.Buffer
		if err := Render(&b, &d, Options{Format: format}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, bad := range []string{"<script", "<img"} {
			if strings.Contains(outsideCode(format, out), bad) {
				t.Errorf("%s: %q reaches the output unescaped", format, bad)
			}
		}
	}
}

// outsideCode is the part of out a browser or a Markdown viewer would read as markup: all of
// it for HTML, the text outside code spans and fences for Markdown.
func outsideCode(format, out string) string {
	if format == "html" {
		return out
	}
	return stripCode(out)
}

func stripCode(md string) string {
	var b strings.Builder
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		parts := strings.Split(line, "`")
		for i := 0; i < len(parts); i += 2 {
			b.WriteString(parts[i])
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"one two three four", 9, "one two\n  three\n  four"},
		{"一二三四五六", 6, "一二三\n  四五\n  六"},
		{"一二（L11）。三", 8, "一二\n  （L11）。\n  三"},
		{"Turn 不能结束", 8, "Turn 不\n  能结束"},
		{"averyveryverylongword x", 5, "averyveryverylongword\n  x"},
	} {
		if got := wrap(tc.in, tc.width, "  "); got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

// TestInstalledMapSites: a framework row whose sites come from an installed tree says where, and
// its locations are the files there, never links into this repository.
func TestInstalledMapSites(t *testing.T) {
	root := filepath.Join(t.TempDir(), "node_modules", "@acme")
	d := *allDocs(t)["turn/en"]
	d.Frameworks = []explain.FrameworkRow{{
		Framework: "acme", Version: "acme 1.0",
		Sites:     []explain.Site{{Kind: "loop", What: "for in loop.run", Source: "while (true) {", Loc: explain.Location{File: "dist/loop.js", Line: 7, Root: root}}},
		MoreSites: 3,
		Map:       explain.MapSource{State: explain.MapInstalled, Root: root, Version: "@acme/core@1.0.0"},
	}}
	for _, format := range []string{"text", "markdown", "html"} {
		var b bytes.Buffer
		if err := Render(&b, &d, Options{Format: format, Width: 200}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{"@acme/core@1.0.0", "dist/loop.js:7", "3 more map sites"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q", format, want)
			}
		}
		if strings.Contains(out, "blob/main/dist/loop.js") || strings.Contains(out, "(dist/loop.js#L7)") {
			t.Errorf("%s: an installed file is linked as a file of this repository", format)
		}
		if format == "html" && !strings.Contains(out, "file://"+filepath.ToSlash(filepath.Join(root, "dist/loop.js"))) {
			t.Errorf("html: no file link to the installed file")
		}
	}
}
