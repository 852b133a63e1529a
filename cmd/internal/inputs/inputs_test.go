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

// TestExpandRecordsDir checks each skipped entry carries the directory argument it was found
// in, which Report counts by.
func TestExpandRecordsDir(t *testing.T) {
	dir := t.TempDir()
	canon, err := os.ReadFile("../../../testdata/invariants/clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.jsonl"), canon, 0o644)
	os.WriteFile(filepath.Join(dir, "gen.py"), []byte("print('hi')\n"), 0o644)
	_, skipped, err := Expand([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Dir != dir || skipped[0].Reason != ReasonUnknown || skipped[0].Problem {
		t.Errorf("skipped %+v, want gen.py under %s, not a known format", skipped, dir)
	}
}

func TestReport(t *testing.T) {
	unknown := func(dir string, names ...string) []Skipped {
		var s []Skipped
		for _, n := range names {
			s = append(s, Skipped{Dir: dir, Path: filepath.Join(dir, n), Reason: ReasonUnknown})
		}
		return s
	}
	cat := func(lists ...[]Skipped) []Skipped {
		var s []Skipped
		for _, l := range lists {
			s = append(s, l...)
		}
		return s
	}
	readErr := Skipped{Dir: "d", Path: filepath.Join("d", "locked.jsonl"), Reason: "open d/locked.jsonl: permission denied", Problem: true}
	tests := []struct {
		name    string
		skipped []Skipped
		verbose bool
		want    []string
	}{
		{"nothing skipped", nil, false, nil},
		{"one file keeps its own line", unknown("d", "notes.txt"), false,
			[]string{"skipped " + filepath.Join("d", "notes.txt") + ": not a log of a known format"}},
		{"several unknown files, one line", unknown("d", "README.md", "gen.mjs"), false,
			[]string{"skipped 2 files under d that are not logs of a known format (README.md, gen.mjs); --verbose lists them"}},
		{"many unknown files name the first three", unknown("d", "README.md", "a.expected.json", "gen.mjs", "package.json", "z.mjs"), false,
			[]string{"skipped 5 files under d that are not logs of a known format (README.md, a.expected.json, gen.mjs, …); --verbose lists them"}},
		{"one line a directory argument", cat(unknown("d", "a", "b"), unknown("e", "c", "d")), false,
			[]string{
				"skipped 2 files under d that are not logs of a known format (a, b); --verbose lists them",
				"skipped 2 files under e that are not logs of a known format (c, d); --verbose lists them",
			}},
		{"mixed reasons counted by reason", cat(unknown("d", "notes.txt", "gen.py"),
			[]Skipped{{Dir: "d", Path: filepath.Join("d", "empty.jsonl"), Reason: ReasonEmpty}, {Dir: "d", Path: filepath.Join("d", "old"), Reason: ReasonDir}}), false,
			[]string{"skipped 4 entries under d: 2 not logs of a known format (notes.txt, gen.py), 1 empty (empty.jsonl), 1 subdirectory not read recursively (old); --verbose lists them"}},
		{"empty files only", []Skipped{{Dir: "d", Path: filepath.Join("d", "a"), Reason: ReasonEmpty}, {Dir: "d", Path: filepath.Join("d", "b"), Reason: ReasonEmpty}}, false,
			[]string{"skipped 2 files under d: 2 empty (a, b); --verbose lists them"}},
		{"an entry that could not be read keeps its own line", cat(unknown("d", "a", "b"), []Skipped{readErr}), false,
			[]string{
				"skipped " + filepath.Join("d", "locked.jsonl") + ": open d/locked.jsonl: permission denied",
				"skipped 2 files under d that are not logs of a known format (a, b); --verbose lists them",
			}},
		{"verbose names each", cat(unknown("d", "a", "b"), []Skipped{readErr}), true,
			[]string{
				"skipped " + filepath.Join("d", "a") + ": not a log of a known format",
				"skipped " + filepath.Join("d", "b") + ": not a log of a known format",
				"skipped " + filepath.Join("d", "locked.jsonl") + ": open d/locked.jsonl: permission denied",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Report(tt.skipped, tt.verbose)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Report:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
