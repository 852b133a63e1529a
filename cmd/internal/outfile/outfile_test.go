package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCommitReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.html")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("before Commit the file is %q, want it untouched", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: nothing
	got, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(got) != "new" || st.Mode().Perm() != 0o600 {
		t.Fatalf("after Commit: %q mode %v, want \"new\" 0600", got, st.Mode().Perm())
	}
	assertOnlyFile(t, dir, "out.html")
}

func TestAbortLeavesFile(t *testing.T) {
	for _, exists := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.json")
		if exists {
			if err := os.WriteFile(path, []byte("good"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		f, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("half"))
		f.Abort()
		got, err := os.ReadFile(path)
		if exists && string(got) != "good" || !exists && !os.IsNotExist(err) {
			t.Fatalf("exists=%v: after Abort the file is %q (%v)", exists, got, err)
		}
		if exists {
			assertOnlyFile(t, dir, "out.json")
		} else {
			assertOnlyFile(t, dir, "")
		}
	}
}

func TestSymlinkTargetReplaced(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	f, err := Create(link)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(real); string(got) != "new" {
		t.Fatalf("target %q", got)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
}

func TestNotRegular(t *testing.T) {
	if _, err := Create(t.TempDir()); err == nil {
		t.Fatal("a directory as output: no error")
	}
	f, err := Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s replaced: %v %v", os.DevNull, st, err)
	}
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if name == "" && len(names) != 0 || name != "" && (len(names) != 1 || names[0] != name) {
		t.Fatalf("directory holds %v, want only %q", names, name)
	}
}
