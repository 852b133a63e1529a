package text

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestMapRenderTerms: a map's framework words are printed one line per profile, after the
// header; a map without terms prints no such line.
func TestMapRenderTerms(t *testing.T) {
	m := &model.Map{Packages: []string{"agents"}, Entries: []model.Entry{}, Terms: []model.Term{
		{Profile: "openai-agents", Text: "turn, max_turns = Step"},
		{Profile: "openai-agents", Text: "Runner.run = Run"},
		{Profile: "otel", Text: "span = Step"},
	}}
	var b bytes.Buffer
	if err := MapRender(&b, m); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"lifecycle map of agents",
		"framework words (openai-agents): turn, max_turns = Step; Runner.run = Run",
		"framework words (otel): span = Step",
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d: got\n%s\nwant %q", i+1, b.String(), w)
		}
	}
	b.Reset()
	m.Terms = nil
	if err := MapRender(&b, m); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "framework words") {
		t.Errorf("terms line without terms:\n%s", b.String())
	}
}
