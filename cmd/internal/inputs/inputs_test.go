package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	canon, err := os.ReadFile("../../../testdata/invariants/clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.jsonl", string(canon))
	write("a.jsonl", string(canon))
	write("notes.txt", "just some notes\n")
	write("empty.jsonl", "")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)

	files, skipped, err := Expand([]string{"x.jsonl", dir, "-"}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"x.jsonl", filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), "-"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", files, want)
	}
	var got []string
	for _, s := range skipped {
		got = append(got, filepath.Base(s.Path)+": "+s.Reason)
	}
	wantSkipped := "empty.jsonl: empty|notes.txt: not a log of a known format|sub: a directory (directories are not read recursively)"
	if strings.Join(got, "|") != wantSkipped {
		t.Errorf("skipped %q\nwant    %q", strings.Join(got, "|"), wantSkipped)
	}

	// A forced format takes every non-empty file.
	files, _, err = Expand([]string{dir}, "canonical")
	if err != nil || len(files) != 3 {
		t.Errorf("forced: %v %v", files, err)
	}

	// A directory without logs is an error naming it.
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "README"), []byte("hello\n"), 0o644)
	if _, _, err := Expand([]string{empty}, ""); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("no logs: err %v", err)
	}
}
