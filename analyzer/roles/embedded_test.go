package roles

import (
	"strings"
	"testing"
)

// TestEmbeddedProfiles: every built-in Python/TS profile parses, names its version, has a scope
// and a vocabulary, and no two built-in profiles share a name.
func TestEmbeddedProfiles(t *testing.T) {
	ps, err := parseEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"deepseek-harness", "langgraph", "langgraph-js", "openai-agents", "openai-agents-js", "pi", "smolagents"}
	got := map[string]*Profile{}
	for _, p := range ps {
		got[p.Name] = p
	}
	for _, n := range want {
		p := got[n]
		if p == nil {
			t.Errorf("no built-in profile %s", n)
			continue
		}
		if !strings.ContainsAny(p.Description, "0123456789") {
			t.Errorf("%s: description names no version: %q", n, p.Description)
		}
		if len(p.Scope) == 0 || len(p.Vocabulary) == 0 {
			t.Errorf("%s: scope %v, %d vocabulary words", n, p.Scope, len(p.Vocabulary))
		}
	}
	seen := map[string]bool{}
	for _, p := range Builtin() {
		if seen[p.Name] {
			t.Errorf("two built-in profiles named %s", p.Name)
		}
		seen[p.Name] = true
	}
}

// TestTerms: a profile's vocabulary reaches a map only when the mapped code has a function in
// its scope; without a scope, the packages of its rules' objects are the scope.
func TestTerms(t *testing.T) {
	scoped := &Profile{Name: "a", Scope: []string{"pkga."}, Vocabulary: []Word{{Layer: "Step", Words: []string{"turn", "max_turns"}, Note: "one model call"}}}
	byRule := &Profile{Name: "b", Vocabulary: []Word{{Layer: "Run", Words: []string{"job"}}},
		Rules: []Rule{{Role: RunEntry, Object: "example.com/b.Runner.Run"}}}
	silent := &Profile{Name: "c", Scope: []string{"pkga."}}
	tab := NewTable(scoped, byRule, silent)
	tests := []struct {
		keys []string
		want []string
	}{
		{nil, nil},
		{[]string{"other.f"}, nil},
		{[]string{"pkga.mod.f"}, []string{"a: turn, max_turns = Step — one model call"}},
		{[]string{"example.com/b.Runner.Stop", "pkga.g"}, []string{"a: turn, max_turns = Step — one model call", "b: job = Run"}},
	}
	for _, tt := range tests {
		var got []string
		for _, term := range tab.Terms(tt.keys) {
			got = append(got, term.Profile+": "+term.Text)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Terms(%v) = %q, want %q", tt.keys, got, tt.want)
		}
	}
}

// TestVocabularyValidate: a vocabulary word needs a layer and words.
func TestVocabularyValidate(t *testing.T) {
	for _, src := range []string{
		`{"name":"x","vocabulary":[{"layer":"Step","words":[]}],"rules":[]}`,
		`{"name":"x","vocabulary":[{"words":["turn"]}],"rules":[]}`,
		`{"name":"x","vocabulary":[{"layer":"Step","words":["turn"],"extra":1}],"rules":[]}`,
	} {
		if _, err := ParseProfiles([]byte(src)); err == nil {
			t.Errorf("ParseProfiles(%s): no error", src)
		}
	}
	if _, err := ParseProfiles([]byte(`{"name":"x","scope":["x."],"vocabulary":[{"layer":"Step","words":["turn"]}],"rules":[]}`)); err != nil {
		t.Error(err)
	}
}
