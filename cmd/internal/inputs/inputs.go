// Package inputs turns the FILE… arguments of lifeline's log commands into the files to read:
// a directory stands for the files in it whose format is recognised, and what is left out is
// counted in one line per directory (Report), or named with why when asked to be verbose.
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
	"strings"

	"github.com/lifeline-dev/lifeline/tracer"
)

// Skipped is a directory entry that is not read.
type Skipped struct {
	Dir    string // the directory argument the entry was found in
	Path   string
	Reason string
	// Problem is set when the entry could not be examined (an I/O error): Report names it on
	// its own line, never folded into a directory's count.
	Problem bool
}

// Reasons an entry of a directory is not read, other than an I/O error.
const (
	ReasonUnknown   = "not a log of a known format"
	ReasonEmpty     = "empty"
	ReasonDir       = "a directory (directories are not read recursively)"
	ReasonIrregular = "not a regular file"
)

// groups are the reasons Report folds into a directory's count, in the order it names them,
// with how a count of one and of several is said.
var groups = []struct{ reason, one, several string }{
	{ReasonUnknown, "not a log of a known format", "not logs of a known format"},
	{ReasonEmpty, "empty", "empty"},
	{ReasonDir, "subdirectory not read recursively", "subdirectories not read recursively"},
	{ReasonIrregular, "not a regular file", "not regular files"},
}

// namesShown is how many entry names a directory's count line gives before "…".
const namesShown = 3

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
				skipped = append(skipped, Skipped{Dir: arg, Path: path, Reason: why, Problem: !known(why)})
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
		return ReasonDir, false
	}
	st, err := os.Stat(path) // follows a symbolic link
	if err != nil {
		return err.Error(), false
	}
	if !st.Mode().IsRegular() {
		return ReasonIrregular, false
	}
	if st.Size() == 0 {
		return ReasonEmpty, false
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
		return ReasonEmpty, false
	}
	if _, err := tracer.Detect(head); err != nil {
		return ReasonUnknown, false
	}
	return "", true
}

// known reports whether why is one of the reasons Report folds into a count.
func known(why string) bool {
	for _, g := range groups {
		if g.reason == why {
			return true
		}
	}
	return false
}

// Report returns the lines (without a "lifeline: " prefix) that tell what Expand skipped.
// Verbose gives one line per entry, with why. Otherwise an entry that could not be examined
// (Problem) keeps its own line, and the rest of a directory's entries — files of no known
// format, empty files, subdirectories — are counted in one line per directory argument,
// naming the first few; a directory with a single such entry names it as a verbose line would.
func Report(skipped []Skipped, verbose bool) []string {
	var lines []string
	if verbose {
		for _, s := range skipped {
			lines = append(lines, s.String())
		}
		return lines
	}
	var dirs []string
	byDir := map[string][]Skipped{}
	for _, s := range skipped {
		if s.Problem {
			lines = append(lines, s.String())
			continue
		}
		if _, seen := byDir[s.Dir]; !seen {
			dirs = append(dirs, s.Dir)
		}
		byDir[s.Dir] = append(byDir[s.Dir], s)
	}
	for _, dir := range dirs {
		lines = append(lines, dirLine(dir, byDir[dir]))
	}
	return lines
}

// dirLine is the one line that counts the entries of dir that were skipped (none a Problem).
func dirLine(dir string, entries []Skipped) string {
	if len(entries) == 1 {
		return entries[0].String()
	}
	var parts []string
	noun := "files"
	for _, g := range groups {
		var names []string
		for _, e := range entries {
			if e.Reason == g.reason {
				names = append(names, filepath.Base(e.Path))
			}
		}
		if len(names) == 0 {
			continue
		}
		if g.reason == ReasonDir {
			noun = "entries"
		}
		if len(names) == len(entries) && g.reason == ReasonUnknown {
			// The common case, said plainly: a directory of logs beside scripts and notes.
			return fmt.Sprintf("skipped %d files under %s that are %s (%s); --verbose lists them", len(entries), dir, g.several, firstNames(names))
		}
		what := g.several
		if len(names) == 1 {
			what = g.one
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s)", len(names), what, firstNames(names)))
	}
	return fmt.Sprintf("skipped %d %s under %s: %s; --verbose lists them", len(entries), noun, dir, strings.Join(parts, ", "))
}

// firstNames joins the first namesShown of names, with "…" for the rest.
func firstNames(names []string) string {
	if len(names) > namesShown {
		names = append(names[:namesShown:namesShown], "…")
	}
	return strings.Join(names, ", ")
}
