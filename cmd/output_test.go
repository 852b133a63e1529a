package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFileKeptOnFailure: a failed run leaves the -o file as it was, for every command
// with -o; a successful one replaces it and leaves nothing else beside it.
func TestOutputFileKeptOnFailure(t *testing.T) {
	const sample = "testdata/samples/openai-agents/01_two_turn_tools.jsonl"
	for _, tc := range []struct {
		name string
		args []string // -o FILE is appended
	}{
		{"timeline html, missing input", []string{"timeline", "--format", "html", "testdata/does-not-exist.jsonl"}},
		{"timeline json, unknown format", []string{"timeline", "--format", "json", "go.mod"}},
		{"timeline html, one input of two unreadable", []string{"timeline", "--format", "html", sample, "testdata/does-not-exist.jsonl"}},
		{"convert, missing input", []string{"convert", "--to", "canonical", "testdata/does-not-exist.jsonl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "good.out")
			if err := os.WriteFile(path, []byte("a good file"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errOut, code := lifeline(t, "", append(tc.args, "-o", path)...)
			got, _ := os.ReadFile(path)
			if code != 1 || string(got) != "a good file" {
				t.Fatalf("exit %d, file now %.80q\nstderr %s", code, got, errOut)
			}
			if !strings.Contains(errOut, "left unchanged") {
				t.Errorf("stderr does not say the file was left unchanged: %s", errOut)
			}
			assertDirHolds(t, dir, "good.out")
		})
	}
	for _, args := range [][]string{
		{"timeline", "--format", "html", sample},
		{"convert", "--to", "canonical", sample},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		os.WriteFile(path, []byte("old"), 0o644)
		_, errOut, code := lifeline(t, "", append(args, "-o", path)...)
		got, _ := os.ReadFile(path)
		if code != 0 || len(got) < 100 {
			t.Fatalf("%v: exit %d, %d bytes\n%s", args, code, len(got), errOut)
		}
		assertDirHolds(t, dir, "out")
	}
}

func assertDirHolds(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}
