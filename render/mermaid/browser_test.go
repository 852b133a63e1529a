package mermaid

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

// mermaidJS is the real Mermaid library installed by testdata/node/install.sh.
const mermaidJS = "testdata/node/node_modules/mermaid/dist/mermaid.min.js"

// requireMermaid returns the library's path, skipping the test when it is not installed (or
// failing it when LIFELINE_REQUIRE_BROWSER=1).
func requireMermaid(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(mermaidJS)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		msg := fmt.Sprintf("the npm package mermaid is not installed (%v): run bash render/mermaid/testdata/node/install.sh", err)
		if os.Getenv(browsertest.RequireEnv) == "1" {
			t.Fatalf("%s; %s=1 makes this a failure", msg, browsertest.RequireEnv)
		}
		t.Skip(msg)
	}
	return abs
}

// result is what the page reports for one diagram.
type result struct {
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Type     string `json:"type"`
	Tasks    int    `json:"tasks"`
	Messages int    `json:"messages"`
	Scripts  int    `json:"scripts"`
	SVGBytes int    `json:"svg"`
}

// TestRealMermaid parses and renders every diagram of every scenario (Gantt, sequence, bare and
// split) with the real Mermaid library in headless Chromium.
func TestRealMermaid(t *testing.T) {
	lib := requireMermaid(t)
	browsertest.Require(t)
	type input struct {
		name  string
		text  string
		tasks int // gantt task lines, -1 when not counted
		msgs  int // sequence messages (arrows), -1 when not counted
	}
	var inputs []input
	addMD := func(name string, md string) {
		for i, d := range diagrams(md) {
			inputs = append(inputs, input{fmt.Sprintf("%s#%d", name, i+1), d, countTasks(d), countMessages(d)})
		}
	}
	scs := append(rendertest.All(t), rendertest.Scenario{Name: "big", Tree: rendertest.Big(1200)})
	for _, sc := range scs {
		for _, o := range []Options{{}, {Sequence: true}} {
			o.Findings = sc.Findings
			var buf bytes.Buffer
			if err := Render(&buf, sc.Tree, o); err != nil {
				t.Fatal(err)
			}
			addMD(fmt.Sprintf("%s/seq=%v", sc.Name, o.Sequence), buf.String())
			o.Bare = true
			buf.Reset()
			if err := Render(&buf, sc.Tree, o); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{fmt.Sprintf("%s/seq=%v/bare", sc.Name, o.Sequence), buf.String(), countTasks(buf.String()), countMessages(buf.String())})
		}
	}

	dir := t.TempDir()
	page := filepath.Join(dir, "index.html")
	html := `<!doctype html><meta charset="utf-8"><body><div id="out"></div>
<script src="` + browsertest.FileURL(lib) + `"></script>
<script>
mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
window.check = async function (texts) {
  const res = [];
  for (let i = 0; i < texts.length; i++) {
    const r = {ok: false};
    try {
      const p = await mermaid.parse(texts[i]);
      r.type = p.diagramType;
      const {svg} = await mermaid.render("d" + i, texts[i]);
      const box = document.createElement("div");
      box.innerHTML = svg;
      r.tasks = box.querySelectorAll("rect.task").length;
      r.messages = box.querySelectorAll(".messageText").length;
      r.scripts = box.querySelectorAll("script").length;
      r.svg = svg.length;
      r.ok = true;
    } catch (e) {
      r.error = String(e && e.message || e);
    }
    res.push(r);
  }
  return JSON.stringify(res);
};
</script>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t, 1200, 800, 3*time.Minute)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.FileURL(page)), chromedp.WaitReady("#out")); err != nil {
		t.Fatalf("loading the test page: %v", err)
	}
	texts := make([]string, len(inputs))
	for i, in := range inputs {
		texts[i] = in.text
	}
	arg, _ := json.Marshal(texts)
	out, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string]("window.check("+string(arg)+")", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running Mermaid: %v", err)
	}
	var res []result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		in := inputs[i]
		switch {
		case !r.OK:
			t.Errorf("%s: Mermaid rejects the diagram: %s\n%.3000s", in.name, r.Error, in.text)
		case r.Scripts > 0:
			t.Errorf("%s: the SVG contains %d script elements", in.name, r.Scripts)
		case r.Type == "gantt" && r.Tasks != in.tasks:
			t.Errorf("%s: %d tasks drawn, want %d", in.name, r.Tasks, in.tasks)
		case r.Type == "sequence" && r.Messages != in.msgs:
			t.Errorf("%s: %d messages drawn, want %d", in.name, r.Messages, in.msgs)
		case r.Type != "gantt" && r.Type != "sequence":
			t.Errorf("%s: diagram type %q", in.name, r.Type)
		}
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	if d := b.Dialogs(); len(d) > 0 {
		t.Errorf("a diagram opened dialogs (injection): %v", d)
	}
	t.Logf("%d diagrams parsed and rendered by Mermaid", len(res))
}

func countTasks(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n") {
		if strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "    section ") && strings.Contains(l, " :") {
			n++
		}
	}
	return n
}

func countMessages(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "Note ") || !strings.Contains(l, ": ") {
			continue
		}
		if strings.Contains(l, "->>") || strings.Contains(l, "--x") || strings.Contains(l, "-->>") {
			n++
		}
	}
	return n
}
