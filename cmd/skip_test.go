package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkipLines checks what the log commands say on stderr about the files they do not read:
// one line for a directory's non-log files (the README example on testdata/traces/otel-more,
// whose scripts, notes and expected.json files are not logs), each named with --verbose; a
// file named on the command line that is not a log keeps its own line and exit status 1; a
// log with a malformed line is still reported at file:line.
func TestSkipLines(t *testing.T) {
	const dir = "testdata/traces/otel-more"
	bad := t.TempDir()
	clean, err := os.ReadFile("../testdata/invariants/clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(clean), "\n")
	damaged := strings.Join(lines[:3], "") + `{"v":1,"seq":` + "\n" + strings.Join(lines[3:], "")
	os.WriteFile(filepath.Join(bad, "a.jsonl"), []byte(damaged), 0o644)
	os.WriteFile(filepath.Join(bad, "n1.txt"), []byte("notes\n"), 0o644)
	os.WriteFile(filepath.Join(bad, "n2.txt"), []byte("more notes\n"), 0o644)

	tests := []struct {
		name string
		args []string
		code int
		// skipLines is how many stderr lines start "lifeline: skipped "; -1 for more than one.
		skipLines int
		want      []string // on stderr
	}{
		{"stats DIR", []string{"stats", dir}, 0, 1,
			[]string{"lifeline: skipped ", " files under " + dir + " that are not logs of a known format (", "; --verbose lists them"}},
		{"timeline DIR", []string{"timeline", dir}, 0, 1, []string{" files under " + dir + " that are not logs of a known format ("}},
		{"check DIR", []string{"check", "--status", "completed", dir}, -2, 1, []string{" files under " + dir + " that are not logs of a known format ("}},
		{"stats --verbose DIR", []string{"stats", "--verbose", dir}, 0, -1,
			[]string{"lifeline: skipped " + dir + "/README.md: not a log of a known format\n", "lifeline: skipped " + dir + "/gen.mjs: not a log of a known format\n"}},
		{"a file named that is not a log", []string{"stats", dir + "/README.md"}, 1, 0,
			[]string{"lifeline: " + dir + "/README.md: unknown format"}},
		{"a malformed log in a directory", []string{"timeline", bad}, 0, 1,
			[]string{"skipped 2 files under " + bad + " that are not logs of a known format (n1.txt, n2.txt)", filepath.Join(bad, "a.jsonl") + ":4: malformed JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := lifeline(t, "", tt.args...)
			if tt.code >= 0 && code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, errOut)
			}
			n := strings.Count(errOut, "lifeline: skipped ")
			if tt.skipLines >= 0 && n != tt.skipLines || tt.skipLines < 0 && n < 2 {
				t.Errorf("%d lines say skipped, want %d:\n%s", n, tt.skipLines, errOut)
			}
			for _, want := range tt.want {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr does not say %q:\n%s", want, errOut)
				}
			}
		})
	}
}
