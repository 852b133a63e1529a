package explain

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/runtime"
)

var update = flag.Bool("update", false, "rewrite testdata/drawings.golden")

// TestTexts: every topic has a text in every language, a title, a definition and one caption
// per drawing; the Chinese texts are Chinese and keep the model's terms: every `identifier` of
// the English text is in the Chinese one too.
func TestTexts(t *testing.T) {
	code := regexp.MustCompile("`[^`]+`")
	for _, tp := range topics {
		var en []string
		for _, lang := range Languages {
			tx, err := text(tp.Name, lang)
			if err != nil {
				t.Fatal(err)
			}
			if tx.title == "" || len(tx.paras) < 2 || len(tx.captions) != len(tp.Drawings) {
				t.Errorf("%s/%s: title %q, %d paragraphs, %d captions for %d drawings", tp.Name, lang, tx.title, len(tx.paras), len(tx.captions), len(tp.Drawings))
			}
			all := tx.title + strings.Join(tx.paras, "") + strings.Join(tx.captions, "")
			han := 0
			for _, r := range all {
				if unicode.Is(unicode.Han, r) {
					han++
				}
			}
			if (lang == "zh") != (han > len([]rune(all))/5) {
				t.Errorf("%s/%s: %d of %d characters are Chinese", tp.Name, lang, han, len([]rune(all)))
			}
			ids := code.FindAllString(all, -1)
			if lang == "en" {
				en = ids
				continue
			}
			for _, id := range en {
				if !slices.Contains(ids, id) {
					t.Errorf("%s/%s: the English text's %s is not in it", tp.Name, lang, id)
				}
			}
		}
	}
	files, _ := texts.ReadDir("texts/en")
	if len(files) != len(topics) {
		t.Errorf("texts/en has %d files for %d topics", len(files), len(topics))
	}
}

func TestLookup(t *testing.T) {
	seen := map[string]string{}
	for _, tp := range topics {
		for _, n := range append([]string{tp.Name}, tp.Aliases...) {
			if other, dup := seen[strings.ReplaceAll(n, "_", "-")]; dup {
				t.Errorf("%q names both %s and %s", n, other, tp.Name)
			}
			seen[strings.ReplaceAll(n, "_", "-")] = tp.Name
		}
	}
	for in, want := range map[string]string{"turn": "turn", "Steer": "steer-follow-up", "stop_reason": "stop-reasons", "awaiting_approval": "approval", "cancel": "cancellation", "resume": "crash-resume"} {
		if tp, ok := Lookup(in); !ok || tp.Name != want {
			t.Errorf("Lookup(%q) = %s, %v; want %s", in, tp.Name, ok, want)
		}
	}
	if _, ok := Lookup("nothing"); ok {
		t.Error("Lookup(nothing) found a topic")
	}
	if _, err := Build(context.Background(), "nothing", "en", nil); err == nil || !strings.Contains(err.Error(), "session, run, turn") {
		t.Errorf("Build(nothing): %v", err)
	}
	if _, err := Build(context.Background(), "turn", "fr", nil); err == nil {
		t.Error("Build in French: no error")
	}
}

func TestLangFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "en"},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, "zh"},
		{map[string]string{"LANG": "zh_TW.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, "zh"},
		{map[string]string{"LC_MESSAGES": "zh_CN"}, "zh"},
		{map[string]string{"LANG": "C.UTF-8"}, "en"},
	} {
		if got := LangFromEnv(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.env, got, tc.want)
		}
	}
}

// TestTable: the vocabulary table names a concept for every topic, and only frameworks it
// lists.
func TestTable(t *testing.T) {
	tb, err := loadTable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range topics {
		c, ok := tb.Concepts[tp.Concept]
		if !ok {
			t.Errorf("topic %s: no concept %q in %s", tp.Name, tp.Concept, TableFile)
			continue
		}
		for name := range c.Names {
			if !slices.Contains(tb.Frameworks, name) {
				t.Errorf("concept %s names framework %s, which the table does not list", tp.Concept, name)
			}
		}
	}
	if len(tb.Concepts) != len(topics) {
		t.Errorf("%d concepts for %d topics", len(tb.Concepts), len(topics))
	}
}

// TestDrawings runs every topic's scenarios on the reference runtime: the whole tree has the
// shape the runtime's scenario expects, and the piece shown (the cut tree and the facts) is
// the golden one, so a change of a scenario shows up here.
func TestDrawings(t *testing.T) {
	var b strings.Builder
	for _, tp := range topics {
		for _, spec := range tp.Drawings {
			d, err := Draw(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := runtime.Lookup(spec.Scenario)
			if diff := sc.Expect.Diff(d.Shape); diff != "" {
				t.Errorf("%s: scenario %s: %s", tp.Name, spec.Scenario, diff)
			}
			fmt.Fprintf(&b, "%s %s (cut at %s)\n", tp.Name, spec.Scenario, spec.Depth)
			d.Tree.Walk(func(n any, depth int) bool {
				fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth+1), node(n))
				return true
			})
			for _, f := range d.Facts {
				fmt.Fprintf(&b, "  %s %s\n", f.Kind, f)
			}
		}
	}
	const golden = "testdata/drawings.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != b.String() {
		t.Errorf("drawings differ from %s (go test -update rewrites it):\n%s", golden, b.String())
	}
}

// node describes a tree node without its times: layer, id, name, status and stop reason.
func node(n any) string {
	switch x := n.(type) {
	case *model.Session:
		return "session " + x.ID
	case *model.Run:
		s := fmt.Sprintf("run %s %s %s", x.ID, x.Status, x.StopReason)
		if x.ParentRunID != "" {
			s += fmt.Sprintf(" parent %s attempt %d", x.ParentRunID, x.Attempt)
		}
		for _, w := range x.Waits {
			s += fmt.Sprintf(" wait(%s %s)", w.Reason, w.Decision)
		}
		return s
	case *model.Turn:
		return fmt.Sprintf("turn %s %s %s", x.ID, x.Outcome, x.StopReason)
	case *model.Step:
		return fmt.Sprintf("step %s %s", x.ID, x.Outcome)
	case *model.ModelCall:
		return fmt.Sprintf("model %s %s", x.ID, x.Outcome)
	case *model.ToolCall:
		return fmt.Sprintf("tool %s %s %s", x.ID, x.Name, x.Outcome)
	}
	return fmt.Sprintf("%T", n)
}

// TestSections: every topic's source is a section of docs/model.md (GitHub's heading anchors).
func TestSections(t *testing.T) {
	data, err := os.ReadFile("../../docs/model.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	drop := regexp.MustCompile(`[^a-z0-9 -]`)
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			anchors[strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-")] = true
		}
	}
	for _, tp := range topics {
		if !anchors[tp.Section] {
			t.Errorf("topic %s: docs/model.md has no section #%s (%v)", tp.Name, tp.Section, anchors)
		}
	}
}
