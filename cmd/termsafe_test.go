package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileNamesEscaped: a file name with terminal escape sequences reaches the terminal
// escaped, in error messages, decode errors and findings alike, on stderr and in check's text.
func TestHostileNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	const evil = "evil\x1b]0;pwned\x07\x1b[2J\u202e"
	const shown = `evil\x1b]0;pwned\x07\x1b[2J\u202e`
	garbage := filepath.Join(dir, evil+".jsonl")
	if err := os.WriteFile(garbage, []byte("{\"type\":\"run/start\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	violating := filepath.Join(dir, evil+"-L7.jsonl")
	data, err := os.ReadFile("../testdata/invariants/L7_stop_reason_downgrade.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(violating, data, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, evil+"-missing.jsonl")
	for _, args := range [][]string{
		{"check", garbage},
		{"check", missing},
		{"check", violating},
		{"timeline", garbage},
		{"timeline", missing},
		{"convert", "--to", "canonical", missing},
		{"check", "--input-format", "otlp", garbage},
		{"demo", "happy", "--log", filepath.Join(dir, evil, "x.jsonl")},
	} {
		out, errOut, code := lifeline(t, "", args...)
		if code == 0 {
			t.Errorf("%q: exit 0", args)
		}
		for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
			if strings.ContainsAny(s, "\x1b\x07\u202e") {
				t.Errorf("%q: %s holds raw escapes: %q", args, name, s)
			}
		}
		if !strings.Contains(out+errOut, shown) {
			t.Errorf("%q: the escaped name is not shown\nstdout %q\nstderr %q", args, out, errOut)
		}
	}
}

// TestHostileGoFileNamesEscaped: a Go file name with escape sequences reaches the terminal
// escaped in map's and vet's text.
func TestHostileGoFileNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "agent.go"} {
		data, err := os.ReadFile(filepath.Join("..", agentDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "agent.go" {
			name = "agent\x1b]0;pwned\x07.go"
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{"map", "vet"} {
		out, errOut, code := lifeline(t, "", cmd, "-C", dir, "./...")
		if code == 1 || strings.ContainsAny(out+errOut, "\x1b\x07") || !strings.Contains(out, `agent\x1b]0;pwned\x07.go:`) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q", cmd, code, out, errOut)
		}
	}
}
