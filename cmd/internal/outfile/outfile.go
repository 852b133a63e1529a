// Package outfile writes a command's -o file so that a failed run leaves the file as it was:
// the output goes to a temporary file beside it, which replaces it only on success.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is an output file being written. Write to it, then Commit to put it in place or Abort to
// drop it; until Commit the named file is untouched.
type File struct {
	f      *os.File
	path   string // the file to replace (symbolic links resolved)
	mode   fs.FileMode
	direct bool // f is the named file itself (a device or a pipe: nothing to replace)
	done   bool
}

// Create starts writing path. The temporary file is created in path's directory, so that the
// final rename is atomic; the file keeps the permissions of the one it replaces (0644 for a new
// one). A path that names a device or a pipe (/dev/null, /dev/stdout) is written directly.
func Create(path string) (*File, error) {
	target := path
	mode := fs.FileMode(0o644)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	if st, err := os.Stat(target); err == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", path)
		}
		if !st.Mode().IsRegular() {
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &File{f: f, path: target, direct: true}, nil
		}
		mode = st.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	return &File{f: f, path: target, mode: mode}, nil
}

// Write writes to the temporary file.
func (o *File) Write(p []byte) (int, error) { return o.f.Write(p) }

// Commit syncs the temporary file and renames it over the named file.
func (o *File) Commit() error {
	if o.done {
		return errors.New("outfile: Commit after Commit or Abort")
	}
	o.done = true
	if o.direct {
		return o.f.Close()
	}
	err := o.f.Chmod(o.mode)
	if err == nil {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}

// Abort removes the temporary file; the named file stays as it was. Abort after Commit does
// nothing, so it can be deferred.
func (o *File) Abort() {
	if o.done {
		return
	}
	o.done = true
	o.f.Close()
	if !o.direct {
		os.Remove(o.f.Name())
	}
}
