package lifemap

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/srcir"
	"github.com/lifeline-dev/lifeline/model"
)

// SplitArgs separates the arguments that name Python or TypeScript/JavaScript sources (a
// file with their extension, or a directory holding some and no Go files or go.mod) from Go
// package patterns, which keep going to the Go path.
func SplitArgs(args []string) (goPatterns, sources []string) {
	for _, a := range args {
		if isSourceArg(a) {
			sources = append(sources, a)
		} else {
			goPatterns = append(goPatterns, a)
		}
	}
	return goPatterns, sources
}

func isSourceArg(a string) bool {
	if strings.Contains(a, "...") || !srcir.IsSourcePath(a) {
		return false
	}
	st, err := os.Stat(a)
	if err != nil || !st.IsDir() {
		return err == nil
	}
	if _, err := os.Stat(filepath.Join(a, "go.mod")); err == nil {
		return false
	}
	gofiles, _ := filepath.Glob(filepath.Join(a, "*.go"))
	return len(gofiles) == 0
}

// BuildSources maps Python and TypeScript/JavaScript sources (files, directories, installed
// packages, checkouts) with the same recognizer as Go (analyzer/srcir → analyzer/recognize)
// and the same profiles. Positions are relative to each argument's parent directory for a
// package (a directory with __init__.py or package.json: "smolagents/agents.py"), to the
// argument itself for another directory, to its directory for a file. The warnings name
// unparsed regions inside functions that matter (file:line).
func BuildSources(paths []string) (*model.Map, []string, error) {
	files, err := srcir.Collect(paths)
	if err != nil {
		return nil, nil, err
	}
	prog, diags, err := srcir.BuildFiles(files)
	if err != nil {
		return nil, nil, err
	}
	table, err := lifecycle.ProfileTable()
	if err != nil {
		return nil, nil, err
	}
	rel := sourceRel(paths)
	res := recognize.Recognize(prog, recognize.Options{Table: table, Rel: rel})
	m := &model.Map{Packages: []string{}, Entries: res.Entries}
	if m.Entries == nil {
		m.Entries = []model.Entry{}
	}
	seen := map[string]bool{}
	for _, f := range prog.Funcs {
		top := f.Pkg
		if i := strings.IndexAny(top, "./"); i > 0 && !strings.HasPrefix(top, "@") {
			top = top[:i]
		} else if strings.HasPrefix(top, "@") {
			if parts := strings.SplitN(top, "/", 3); len(parts) >= 2 {
				top = parts[0] + "/" + parts[1]
			}
		}
		if !seen[top] {
			seen[top] = true
			m.Packages = append(m.Packages, top)
		}
	}
	sort.Strings(m.Packages)
	Relativize(m, rel)
	sort.SliceStable(m.Entries, func(i, j int) bool { return m.Entries[i].Pos.Less(m.Entries[j].Pos) })
	var warns []string
	for _, d := range diags {
		warns = append(warns, rel(d.Pos.File)+":"+itoa(d.Pos.Line)+": "+d.Msg)
	}
	return m, warns, nil
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// sourceRel makes file names relative to the arguments' bases (see BuildSources).
func sourceRel(paths []string) func(string) string {
	var bases []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		st, err := os.Stat(abs)
		switch {
		case err != nil:
			continue
		case !st.IsDir():
			bases = append(bases, filepath.Dir(abs))
		case exists(filepath.Join(abs, "__init__.py")) || exists(filepath.Join(abs, "package.json")):
			bases = append(bases, filepath.Dir(abs))
		default:
			bases = append(bases, abs)
		}
	}
	sort.Slice(bases, func(i, j int) bool { return len(bases[i]) > len(bases[j]) })
	return func(file string) string {
		if file == "" {
			return ""
		}
		for _, b := range bases {
			if r, err := filepath.Rel(b, file); err == nil && !strings.HasPrefix(r, "..") {
				return filepath.ToSlash(r)
			}
		}
		return filepath.ToSlash(file)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// MapArgs maps the arguments of lifeline map: Go package patterns with Load and Build,
// Python/TypeScript/JavaScript sources with BuildSources (relative to opts.Dir), one map
// of both. The warnings are BuildSources'.
func MapArgs(args []string, opts Options) (*model.Map, []string, error) {
	var goArgs, srcs []string
	for _, a := range args {
		p := a
		if opts.Dir != "" && !filepath.IsAbs(a) {
			p = filepath.Join(opts.Dir, a)
		}
		if isSourceArg(p) {
			srcs = append(srcs, p)
		} else {
			goArgs = append(goArgs, a)
		}
	}
	var m *model.Map
	var warns []string
	if len(srcs) > 0 {
		sm, w, err := BuildSources(srcs)
		if err != nil {
			return nil, nil, err
		}
		m, warns = sm, w
	}
	if len(goArgs) > 0 {
		pkgs, err := Load(goArgs, opts)
		if err != nil {
			return nil, nil, err
		}
		gm, err := Build(pkgs)
		if err != nil {
			return nil, nil, err
		}
		if m == nil {
			return gm, warns, nil
		}
		gm.Packages = append(gm.Packages, m.Packages...)
		gm.Entries = append(gm.Entries, m.Entries...)
		m = gm
	}
	return m, warns, nil
}
