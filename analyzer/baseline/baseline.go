// Package baseline materialises the base version of `lifeline map --diff BASE PATHS`: the tree
// whose map the current one is compared with. BASE is either a directory (a second checkout or
// install of the same code) or a git revision of the checkout the PATHS are in, which is
// exported with `git archive` into a temporary directory (the repository, its index and its
// worktrees are left alone).
package baseline

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Tree is the base version to map: the PATHS resolve in Dir as they resolve in the current
// directory (or -C) for the head.
type Tree struct {
	// Label names the base in reports: the directory, or "REV (commit abc1234)"; HeadLabel
	// names the head: the -C directory, the head path, or "working tree".
	Label, HeadLabel string
	// Dir is the directory to resolve Args in (lifemap.Options.Dir).
	Dir string
	// Args are the PATHS as they name things in the base tree.
	Args []string
	// Root and HeadRoot are the directories source positions are made relative to in the base
	// and the head ("" = the current directory; lifemap.Options.SourceRoot), so that the two
	// versions name the same file alike.
	Root, HeadRoot string
	tmp            string
}

// Close removes the temporary tree of a git revision; it does nothing for a directory.
func (t *Tree) Close() error {
	if t == nil || t.tmp == "" {
		return nil
	}
	err := os.RemoveAll(t.tmp)
	t.tmp = ""
	if err != nil {
		return fmt.Errorf("removing the base tree: %w", err)
	}
	return nil
}

// Open returns the base tree for base, where dir ("" = the current directory) is where the
// head's args resolve.
//
// A base that is a directory is a second tree of the same code: the args resolve in it as they
// do in dir (like -C). When there is one arg, a path the base directory does not contain, the
// base directory is that path's older version itself (`--diff old/smolagents new/smolagents`).
//
// Any other base is a git revision of the repository dir is in: its tree is exported into a
// temporary directory, and the args resolve there at dir's place in the repository (absolute
// args inside the repository are moved along). Close removes it.
func Open(base, dir string, args []string) (*Tree, error) {
	if base == "" {
		return nil, errors.New("--diff: empty BASE")
	}
	if st, err := os.Stat(base); err == nil && st.IsDir() {
		return openDir(base, dir, args), nil
	}
	return openRevision(base, dir, args)
}

func openDir(base, dir string, args []string) *Tree {
	t := &Tree{Label: base, HeadLabel: headLabel(dir), Dir: base, Args: args, Root: base, HeadRoot: dir}
	if len(args) != 1 {
		return t
	}
	head, inBase := args[0], error(nil)
	if filepath.IsAbs(head) {
		inBase = os.ErrNotExist
	} else {
		_, inBase = os.Stat(filepath.Join(base, head))
		if dir != "" {
			head = filepath.Join(dir, head)
		}
	}
	if _, inHead := os.Stat(head); inBase != nil && inHead == nil {
		t.Dir, t.Args = "", []string{base}
		t.Root, t.HeadRoot, t.HeadLabel = dirOf(base), dirOf(head), head
	}
	return t
}

func headLabel(dir string) string {
	if dir == "" {
		return "working tree"
	}
	return dir
}

// dirOf is p for a directory, its directory for a file.
func dirOf(p string) string {
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return filepath.Dir(p)
	}
	return p
}

func git(dir string, stdout io.Writer, args ...string) error {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return nil
}

func gitOut(dir string, args ...string) (string, error) {
	var out bytes.Buffer
	if err := git(dir, &out, args...); err != nil {
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}

func openRevision(rev, dir string, args []string) (*Tree, error) {
	head := dir
	if head == "" {
		head = "."
	}
	absHead, err := filepath.Abs(head)
	if err != nil {
		return nil, fmt.Errorf("--diff %s: %w", rev, err)
	}
	top, err := gitOut(absHead, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--diff %s: not a directory, and %s is not in a git checkout to take it as a revision of (%v)", rev, head, err)
	}
	commit, err := gitOut(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil || commit == "" {
		return nil, fmt.Errorf("--diff %s: neither a directory nor a revision of the git checkout %s", rev, top)
	}
	// The head directory's place in the repository, with symlinks resolved on both sides.
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return nil, fmt.Errorf("--diff %s: %w", rev, err)
	}
	realHead, err := filepath.EvalSymlinks(absHead)
	if err != nil {
		return nil, fmt.Errorf("--diff %s: %w", rev, err)
	}
	rel, err := filepath.Rel(realTop, realHead)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("--diff %s: %s is outside the checkout %s", rev, head, top)
	}
	tmp, err := os.MkdirTemp("", "lifeline-base-")
	if err != nil {
		return nil, fmt.Errorf("--diff %s: %w", rev, err)
	}
	t := &Tree{Label: fmt.Sprintf("%s (commit %.12s)", rev, commit), Dir: filepath.Join(tmp, rel), tmp: tmp}
	t.Root, t.HeadRoot, t.HeadLabel = t.Dir, dir, headLabel(dir)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := git(top, pw, "archive", "--format=tar", commit)
		pw.CloseWithError(err)
		done <- err
	}()
	xerr := extract(pr, tmp)
	if xerr == nil {
		_, xerr = io.Copy(io.Discard, pr) // the archive's end padding
	}
	pr.CloseWithError(errors.New("extraction stopped"))
	gerr := <-done
	if xerr == nil {
		xerr = gerr
	}
	if xerr != nil {
		t.Close()
		return nil, fmt.Errorf("--diff %s: exporting commit %.12s: %w", rev, commit, xerr)
	}
	if _, err := os.Stat(t.Dir); err != nil {
		t.Close()
		return nil, fmt.Errorf("--diff %s: %s does not exist at that revision", rev, filepath.ToSlash(rel))
	}
	for _, a := range args {
		if filepath.IsAbs(a) {
			if real, err := filepath.EvalSymlinks(a); err == nil {
				if r, err := filepath.Rel(realTop, real); err == nil && !strings.HasPrefix(r, "..") {
					a = filepath.Join(tmp, r)
				}
			}
		}
		t.Args = append(t.Args, a)
	}
	return t, nil
}

// extract writes the regular files, directories and in-tree symlinks of a tar stream under
// root; names that would leave root are an error, links that point out of it are skipped.
func extract(r io.Reader, root string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		name := filepath.FromSlash(h.Name)
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) || strings.Contains(name, string(filepath.Separator)+".."+string(filepath.Separator)) {
			return fmt.Errorf("archive entry %q leaves the tree", h.Name)
		}
		target := filepath.Join(root, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			_, cerr := io.Copy(f, tr)
			if err := f.Close(); cerr == nil {
				cerr = err
			}
			if cerr != nil {
				return fmt.Errorf("writing %s: %w", h.Name, cerr)
			}
		case tar.TypeSymlink:
			dest := h.Linkname
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(target), dest)
			}
			if r, err := filepath.Rel(root, dest); err != nil || strings.HasPrefix(r, "..") || filepath.IsAbs(h.Linkname) {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, target); err != nil {
				return err
			}
		}
	}
}
