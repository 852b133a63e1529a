package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeExamples runs every `go run . …` command of the README with the built binary, as a
// new user would, and expects exit 0 (or the exit code its comment names). Output files go to
// a temporary directory.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	outputs := regexp.MustCompile(`\b(trace\.html|trace\.json|crash\.jsonl|run\.jsonl|lifecycle\.mmd|lifeline\.sarif)\b`)
	wantExit := regexp.MustCompile(`#.*\bexit (\d)`)
	n := 0
	for _, line := range strings.Split(string(readme), "\n") {
		if !strings.HasPrefix(line, "go run . ") {
			continue
		}
		code := "0"
		if m := wantExit.FindStringSubmatch(line); m != nil {
			code = m[1]
		}
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = outputs.ReplaceAllStringFunc(line, func(f string) string { return filepath.Join(tmp, f) })
		for _, part := range strings.Split(line, "&&") {
			part = strings.TrimSpace(part)
			if i := strings.Index(part, ">"); i >= 0 {
				part = strings.TrimSpace(part[:i]) // stdout is captured anyway
			}
			args, ok := strings.CutPrefix(part, "go run . ")
			if !ok {
				continue // e.g. go build
			}
			n++
			t.Run(args, func(t *testing.T) {
				out, errOut, got := lifeline(t, "", strings.Fields(args)...)
				if want := code; strings.HasPrefix(args, "check") && strings.Contains(args, "L7") && want == "0" {
					t.Fatalf("README check of a violating log must say its exit code")
				}
				if itoa(got) != code {
					t.Fatalf("exit %d, want %s\nstdout: %.600s\nstderr: %.600s", got, code, out, errOut)
				}
			})
		}
	}
	if n < 20 {
		t.Fatalf("found only %d README examples", n)
	}
}

func itoa(i int) string { return string(rune('0' + i)) }
