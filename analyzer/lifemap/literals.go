package lifemap

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Literals indexes the string literals written in the source files of some paths: the names a
// program registers its tools under are written there (`FuncTool{ToolName: "search"}`,
// `tool({name: "search_docs"})`, `@tool("lookup")`). It answers model/join's Names: whether a
// tool name of a trace is written in the mapped code at all, and where first.
type Literals struct {
	at map[string]model.Position
	// sentinels maps a sentinel error's name to its message (Go: ErrX = errors.New("…")).
	sentinels map[string]string
}

// SentinelMessage returns the message of the sentinel error declared under name
// (`var ErrNotFinished = errors.New("agent not finished before max iterations")`), for
// model/join: a trace's error text that carries it names the exit returning the sentinel.
func (l *Literals) SentinelMessage(name string) (string, bool) {
	if l == nil {
		return "", false
	}
	m, ok := l.sentinels[name]
	return m, ok
}

// sentinelDecl is a Go sentinel error declaration: NAME = errors.New("message").
var sentinelDecl = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\s*=\s*errors\.New\(\s*"((?:[^"\\\n]|\\.)*)"\s*\)`)

// Lookup returns where name is first written as a whole string literal.
func (l *Literals) Lookup(name string) (model.Position, bool) {
	if l == nil {
		return model.Position{}, false
	}
	p, ok := l.at[name]
	return p, ok
}

// Len is the number of distinct literals indexed.
func (l *Literals) Len() int { return len(l.at) }

// literalExts are the source files whose literals are indexed, with their line-comment marker.
var literalExts = map[string]string{
	".go": "//", ".py": "#", ".ts": "//", ".tsx": "//", ".mts": "//", ".cts": "//",
	".js": "//", ".mjs": "//", ".cjs": "//",
}

// maxLiteralFile is the largest file read (bundles beyond it carry no registrations worth the time).
const maxLiteralFile = 8 << 20

// IndexLiterals reads the string literals of the files that args name, resolved in dir ("" =
// current directory) like lifeline map's arguments: a file, a directory (for Go, its package;
// for Python and JS/TS, the tree below it), a pattern ending in /... (the tree). Arguments that
// name no local path (import paths) are skipped. Positions are relative to dir.
func IndexLiterals(args []string, dir string) (*Literals, error) {
	l := &Literals{at: map[string]model.Position{}, sentinels: map[string]string{}}
	base := dir
	if base == "" {
		base = "."
	}
	for _, a := range args {
		recursive := false
		if rest, ok := strings.CutSuffix(a, "/..."); ok {
			a, recursive = rest, true
			if a == "" || a == "." {
				a = "."
			}
		}
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, a)
		}
		st, err := os.Stat(p)
		if err != nil {
			continue // an import path, not a local file
		}
		if !st.IsDir() {
			if err := l.file(p, base); err != nil {
				return nil, err
			}
			continue
		}
		if !recursive && isSourceArg(p) {
			recursive = true
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != p && (!recursive || d.Name() == ".git") {
					return filepath.SkipDir
				}
				return nil
			}
			return l.file(path, base)
		})
		if err != nil {
			return nil, fmt.Errorf("indexing string literals: %w", err)
		}
	}
	return l, nil
}

func (l *Literals) file(path, base string) error {
	ext := filepath.Ext(path)
	comment, ok := literalExts[ext]
	if !ok || strings.HasSuffix(path, ".d.ts") || isTestFile(path) {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() > maxLiteralFile {
		return nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("indexing string literals: %w", err)
	}
	rel, err := filepath.Rel(base, path)
	if err != nil {
		rel = path
	}
	rel = filepath.ToSlash(rel)
	if ext == ".go" {
		for _, m := range sentinelDecl.FindAllSubmatch(src, -1) {
			if msg, err := strconv.Unquote(`"` + string(m[2]) + `"`); err == nil {
				if _, seen := l.sentinels[string(m[1])]; !seen {
					l.sentinels[string(m[1])] = msg
				}
			}
		}
	}
	scanLiterals(src, comment, func(lit string, line int) {
		if _, seen := l.at[lit]; !seen {
			l.at[lit] = model.Position{File: rel, Line: line}
		}
	})
	return nil
}

// scanLiterals calls fn with every string literal of src ("…", '…', `…`, escapes kept as
// written) and its line, skipping line comments (comment) and /* */ blocks (for // languages).
func scanLiterals(src []byte, comment string, fn func(lit string, line int)) {
	line := 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
		case strings.HasPrefix(string(src[i:min(i+len(comment), len(src))]), comment):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i-- // the newline is counted by the loop
		case comment == "//" && c == '/' && i+1 < len(src) && src[i+1] == '*':
			for i += 2; i+1 < len(src) && (src[i] != '*' || src[i+1] != '/'); i++ {
				if src[i] == '\n' {
					line++
				}
			}
			i++
		case c == '"' || c == '\'' || c == '`':
			start, startLine := i+1, line
			j := start
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' {
					j++
					continue
				}
				if src[j] == '\n' {
					if c != '`' {
						break // an unterminated one-line literal: not a literal
					}
					line++
				}
			}
			if j < len(src) && src[j] == c {
				fn(string(src[start:j]), startLine)
				i = j
			} else {
				i = j - 1
			}
		}
	}
}

// isTestFile reports whether path is a test file (Go _test.go, Python test_*.py / *_test.py,
// JS/TS *.test.* / *.spec.*): tests are not the program whose registrations a trace shows.
func isTestFile(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.py") ||
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
}
