package html

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

type testCase struct {
	name     string
	tree     *model.Tree
	findings []model.Finding
}

func cases() []testCase {
	project := func(evs []model.Event) (*model.Tree, []model.Finding) {
		return model.Project(evs), model.CheckEvents(evs)
	}
	var out []testCase
	for _, c := range []struct {
		name string
		evs  []model.Event
	}{
		{"basic", basicEvents(false)},
		{"complex", complexEvents()},
		{"timeless", basicEvents(true)},
		{"hostile", hostileEvents()},
	} {
		t, f := project(c.evs)
		out = append(out, testCase{c.name, t, f})
	}
	out = append(out, testCase{"empty", &model.Tree{}, nil})
	return out
}

// TestGolden compares the embedded data of each page (indented) and the hash of the static
// template with testdata/NAME.golden.json. Run with -update to regenerate.
// goldenCases adds the renderers' shared scenarios (among them demo scenarios of the reference
// runtime and real framework samples) to the package's own trees.
func goldenCases(t *testing.T) []testCase {
	out := cases()
	for _, sc := range rendertest.All(t) {
		out = append(out, testCase{"scenario-" + sc.Name, sc.Tree, sc.Findings})
	}
	return out
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			data, err := Data(c.tree, c.findings, Options{Title: "golden " + c.name})
			if err != nil {
				t.Fatal(err)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, data, "", "  "); err != nil {
				t.Fatalf("data is not JSON: %v", err)
			}
			got := []byte("{\n  \"template_sha256\": \"" + TemplateHash() + "\",\n  \"data\": " +
				strings.ReplaceAll(pretty.String(), "\n", "\n  ") + "\n}\n")
			path := filepath.Join("testdata", c.name+".golden.json")
			if rendertest.Update() {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./render/html -run TestGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendered data; if the change is intended, run go test ./render/html -run TestGolden -update\n%s", path, firstDiff(want, got))
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n  golden: " + x + "\n  now:    " + y
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestPageIsSelfContained checks the static promises of the page: one file, no network.
func TestPageIsSelfContained(t *testing.T) {
	var buf bytes.Buffer
	c := cases()[1]
	if err := Render(&buf, c.tree, c.findings, Options{Title: "self-contained"}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http://", "https://", "//cdn", "@import", "url(", "src=\"", "<link", "fetch(", "XMLHttpRequest", "WebSocket", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("page has %d <script> elements, want 2 (data and app)", n)
	}
	if !strings.Contains(page, `<script type="application/json" id="lifeline-data">{`) {
		t.Error("data element missing")
	}
}

// TestHostileDataStaysInert checks the escaping of the embedded data without a browser.
func TestHostileDataStaysInert(t *testing.T) {
	tr, f := model.Project(hostileEvents()), model.CheckEvents(hostileEvents())
	var buf bytes.Buffer
	if err := Render(&buf, tr, f, Options{Title: `</title><script>alert("title")</script>`}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	start := strings.Index(page, `id="lifeline-data">`) + len(`id="lifeline-data">`)
	end := strings.Index(page[start:], "</script>")
	data := page[start : start+end]
	if strings.ContainsAny(data, "<>&") || strings.Contains(data, "\u2028") || strings.Contains(data, "\u2029") {
		t.Errorf("data element contains raw <, >, & or a line separator")
	}
	var back map[string]any
	if err := json.Unmarshal([]byte(data), &back); err != nil {
		t.Fatalf("the data element does not end where the data ends: %v", err)
	}
	if strings.Count(page, "<script") != 2 {
		t.Errorf("hostile trace added script elements: %d", strings.Count(page, "<script"))
	}
	if !strings.Contains(page, "<title>&lt;/title&gt;&lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;</title>") {
		t.Errorf("title not escaped: %s", page[strings.Index(page, "<title>"):strings.Index(page, "</title>")+8])
	}
	// The hostile strings survive the round trip intact (they are shown literally).
	strs := back["str"].([]any)
	joined := ""
	for _, s := range strs {
		joined += s.(string) + "\n"
	}
	for _, h := range hostile[:5] {
		if !strings.Contains(joined, h) {
			t.Errorf("string table lost %q", h)
		}
	}
}

// TestDataShape checks the decoded columns against the tree.
func TestDataShape(t *testing.T) {
	c := cases()[1]
	data, err := Data(c.tree, c.findings, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		K   []int                             `json:"k"`
		P   []int                             `json:"p"`
		ID  []string                          `json:"id"`
		F   []int                             `json:"f"`
		FI  [][]any                           `json:"fi"`
		Sum struct{ Open, Failed, Nodes int } `json:"sum"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	nodes := countRows(c.tree)
	if len(p.K) != nodes || p.Sum.Nodes != nodes {
		t.Errorf("rows %d (sum %d), want %d nodes", len(p.K), p.Sum.Nodes, nodes)
	}
	row := map[string]int{}
	for i, id := range p.ID {
		row[id] = i
	}
	// run-b is a handoff of run-a: it is nested under it.
	if b, a := row["run-b"], row["run-a"]; b-p.P[b] != a {
		t.Errorf("run-b's parent row is %d, want run-a's %d", b-p.P[b], a)
	}
	if b2, b := row["run-b2"], row["run-b"]; b2-p.P[b2] != b {
		t.Errorf("run-b2's parent row is %d, want run-b's %d", b2-p.P[b2], b)
	}
	if f := p.F[row["run-b"]]; f&flagChildRun == 0 || f&flagFailed == 0 {
		t.Errorf("run-b flags %b: want child run and failed", f)
	}
	if f := p.F[row["step-c1-t1"]]; f&flagOpen == 0 {
		t.Errorf("open tool call not flagged open: %b", f)
	}
	placed := false
	for _, fd := range p.FI {
		if fd[1] == "L5" && int(fd[0].(float64)) == row["run-d"] {
			placed = true
		}
	}
	if !placed {
		t.Errorf("L5 finding not placed on run-d: %v", p.FI)
	}
}

// TestSize100k renders the generated 100k-span tree and checks the file stays under 15 MB.
func TestSize100k(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	evs := bigEvents(100_000)
	tr := model.Project(evs)
	var buf bytes.Buffer
	if err := Render(&buf, tr, nil, Options{Title: "100k"}); err != nil {
		t.Fatal(err)
	}
	s := tr.Summarize()
	spans := s.Sessions + s.Runs + s.Turns + s.Steps + s.ModelCalls + s.ToolCalls
	t.Logf("100k: %d spans, %d events, html %.2f MB", spans, len(evs), float64(buf.Len())/1e6)
	if spans < 100_000 {
		t.Errorf("generated %d spans, want ≥ 100000", spans)
	}
	if buf.Len() > 15_000_000 {
		t.Errorf("html is %d bytes, over the 15 MB budget", buf.Len())
	}
}

// BenchmarkRender100k measures generating the page for a 100k-span tree.
func BenchmarkRender100k(b *testing.B) {
	tr := model.Project(bigEvents(100_000))
	var size int
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Render(&buf, tr, nil, Options{Title: "100k"}); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}

// countRows is the number of rows the page shows for t: every node of Walk plus the runs' waits.
func countRows(t *model.Tree) int {
	n := 0
	t.Walk(func(x any, _ int) bool {
		n++
		if r, ok := x.(*model.Run); ok {
			n += len(r.Waits)
		}
		return true
	})
	return n
}
