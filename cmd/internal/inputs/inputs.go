// Package inputs turns the FILE… arguments of lifeline's log commands into the files to read:
// a directory stands for the files in it whose format is recognised, and what is left out is
// named, with why.
package inputs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/lifeline-dev/lifeline/tracer"
)

// Skipped is a directory entry that is not read.
type Skipped struct {
	Path   string
	Reason string
}

func (s Skipped) String() string { return fmt.Sprintf("skipped %s: %s", s.Path, s.Reason) }

// Expand returns args with every directory replaced by its files, in name order, that are
// logs: of a recognised format (tracer.Detect), or any non-empty file when format forces one.
// Subdirectories are not entered. Arguments that are not directories ("-", files, missing
// paths) are kept as they are, for the reader to report. A directory with no log in it is an
// error naming it.
func Expand(args []string, format string) (files []string, skipped []Skipped, err error) {
	for _, arg := range args {
		st, serr := os.Stat(arg)
		if arg == "-" || serr != nil || !st.IsDir() {
			files = append(files, arg)
			continue
		}
		entries, rerr := os.ReadDir(arg)
		if rerr != nil {
			return nil, skipped, fmt.Errorf("reading directory %s: %w", arg, rerr)
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		found := 0
		for _, e := range entries {
			path := filepath.Join(arg, e.Name())
			why, ok := isLog(path, e, format)
			if !ok {
				skipped = append(skipped, Skipped{Path: path, Reason: why})
				continue
			}
			files = append(files, path)
			found++
		}
		if found == 0 {
			return nil, skipped, fmt.Errorf("%s: no log file in this directory (%d entries skipped)", arg, len(entries))
		}
	}
	return files, skipped, nil
}

// isLog reports whether the directory entry at path is to be read, or why not.
func isLog(path string, e os.DirEntry, format string) (string, bool) {
	if e.IsDir() {
		return "a directory (directories are not read recursively)", false
	}
	st, err := os.Stat(path) // follows a symbolic link
	if err != nil {
		return err.Error(), false
	}
	if !st.Mode().IsRegular() {
		return "not a regular file", false
	}
	if st.Size() == 0 {
		return "empty", false
	}
	if format != "" {
		return "", true
	}
	f, err := os.Open(path)
	if err != nil {
		return err.Error(), false
	}
	defer f.Close()
	head, err := bufio.NewReaderSize(f, tracer.HeadSize).Peek(tracer.HeadSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return err.Error(), false
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return "empty", false
	}
	if _, err := tracer.Detect(head); err != nil {
		return "not a log of a known format", false
	}
	return "", true
}
