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
