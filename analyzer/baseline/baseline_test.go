package baseline

import (
	"archive/tar"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// repo makes a git repository with two commits of pkg/agent.py, v1 then v2, plus a
// working-tree edit (v3) that the revision must not see.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "pkg", "agent.py"), "v1\n")
	write(t, filepath.Join(dir, "pkg", "sub", "tool.py"), "tool\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-qm", "one")
	write(t, filepath.Join(dir, "pkg", "agent.py"), "v2\n")
	run(t, dir, "commit", "-qam", "two")
	write(t, filepath.Join(dir, "pkg", "agent.py"), "v3\n")
	return dir
}

func TestRevision(t *testing.T) {
	dir := repo(t)
	for _, tt := range []struct {
		rev, dir string
		args     []string
		want     string // pkg/agent.py in the base tree
	}{
		{"HEAD~1", dir, []string{"pkg"}, "v1\n"},
		{"HEAD", dir, []string{"pkg"}, "v2\n"},
		{"HEAD~1", filepath.Join(dir, "pkg"), []string{"agent.py"}, "v1\n"},
	} {
		tr, err := Open(tt.rev, tt.dir, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tr.Label, tt.rev+" (commit ") {
			t.Errorf("label %q", tr.Label)
		}
		file := filepath.Join(tr.Dir, tt.args[0])
		if tt.args[0] == "pkg" {
			file = filepath.Join(file, "agent.py")
		}
		got := read(t, file)
		if got != tt.want {
			t.Errorf("%s in %s: %q, want %q", tt.rev, tt.dir, got, tt.want)
		}
		if read(t, filepath.Join(dir, "pkg", "agent.py")) != "v3\n" {
			t.Error("the working tree changed")
		}
		tmp := tr.tmp
		if err := tr.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			t.Errorf("%s left behind", tmp)
		}
	}
	// An absolute argument inside the repository moves to the base tree.
	tr, err := Open("HEAD~1", dir, []string{filepath.Join(dir, "pkg", "agent.py")})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if got := read(t, tr.Args[0]); got != "v1\n" {
		t.Errorf("absolute arg: %q", got)
	}
	// No worktree was registered, nothing was stashed.
	out, _ := exec.Command("git", "-C", dir, "worktree", "list").Output()
	if n := strings.Count(string(out), "\n"); n != 1 {
		t.Errorf("worktrees:\n%s", out)
	}
}

func TestErrors(t *testing.T) {
	dir := repo(t)
	for _, tt := range []struct {
		base, dir, want string
	}{
		{"no-such-rev", dir, "neither a directory nor a revision"},
		{"", dir, "empty BASE"},
		{"HEAD", t.TempDir(), "not in a git checkout"},
	} {
		_, err := Open(tt.base, tt.dir, []string{"pkg"})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q, %q) = %v, want %q", tt.base, tt.dir, err, tt.want)
		}
	}
	// A directory that did not exist at the revision.
	write(t, filepath.Join(dir, "newdir", "x.py"), "x\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-qm", "three")
	if _, err := Open("HEAD~2", filepath.Join(dir, "newdir"), []string{"x.py"}); err == nil || !strings.Contains(err.Error(), "does not exist at that revision") {
		t.Errorf("missing dir: %v", err)
	}
}

func TestDirectory(t *testing.T) {
	old, cur := t.TempDir(), t.TempDir()
	write(t, filepath.Join(old, "smolagents", "agents.py"), "old\n")
	write(t, filepath.Join(cur, "smolagents", "agents.py"), "new\n")
	// The args resolve in the base directory, like -C.
	tr, err := Open(old, cur, []string{"smolagents"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Dir != old || tr.Args[0] != "smolagents" || tr.Label != old {
		t.Errorf("tree %+v", tr)
	}
	// One path the base does not contain: the base is its older version.
	tr, err = Open(filepath.Join(old, "smolagents"), cur, []string{"smolagents"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Dir != "" || tr.Args[0] != filepath.Join(old, "smolagents") {
		t.Errorf("tree %+v", tr)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestExtractRejects: entries that leave the tree are an error; links out of it are skipped.
func TestExtractRejects(t *testing.T) {
	mk := func(hs ...*tar.Header) *bytes.Buffer {
		var b bytes.Buffer
		w := tar.NewWriter(&b)
		for _, h := range hs {
			if err := w.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		return &b
	}
	root := t.TempDir()
	if err := extract(mk(&tar.Header{Name: "../evil", Typeflag: tar.TypeReg, Mode: 0o644}), root); err == nil {
		t.Error("../evil extracted")
	}
	if err := extract(mk(&tar.Header{Name: "a/../../evil", Typeflag: tar.TypeReg}), root); err == nil {
		t.Error("a/../../evil extracted")
	}
	if err := extract(mk(&tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		&tar.Header{Name: "up", Typeflag: tar.TypeSymlink, Linkname: "../../x"},
		&tar.Header{Name: "ok", Typeflag: tar.TypeSymlink, Linkname: "sub"}), root); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"link", "up"} {
		if _, err := os.Lstat(filepath.Join(root, n)); err == nil {
			t.Errorf("symlink %s out of the tree created", n)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "ok")); err != nil {
		t.Errorf("in-tree symlink skipped: %v", err)
	}
}
