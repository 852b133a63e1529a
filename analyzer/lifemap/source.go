package lifemap

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/analyzer/srcir"
	"github.com/lifeline-dev/lifeline/model"
)

func isSourceArg(a string) bool {
	if strings.Contains(a, "...") {
		return false
	}
	st, err := os.Stat(a)
	if err != nil {
		return false
	}
	if st.IsDir() {
		// a Go package or module directory goes to the Go path (checked before walking)
		if _, err := os.Stat(filepath.Join(a, "go.mod")); err == nil {
			return false
		}
		if gofiles, _ := filepath.Glob(filepath.Join(a, "*.go")); len(gofiles) > 0 {
			return false
		}
	}
	return srcir.IsSourcePath(a)
}

// BuildSources maps Python and TypeScript/JavaScript sources (files, directories, installed
// packages, checkouts) with the same recognizer as Go (analyzer/srcir → analyzer/recognize)
// and the same profiles. Positions are relative to the current directory for files under it; otherwise
// to each argument's parent directory for a package (a directory with __init__.py or
// package.json: "smolagents/agents.py"), to the argument itself for another directory, to its
// directory for a file. The warnings name
// unparsed regions inside functions that matter (file:line).
func BuildSources(paths []string) (*model.Map, []string, error) {
	return BuildSourcesIn("", paths)
}

// BuildSourcesIn is BuildSources with positions relative to root ("" = the current directory)
// for the files under it: the two trees of a map diff name their files alike.
func BuildSourcesIn(root string, paths []string) (*model.Map, []string, error) {
	r, err := recognizeSources(root, paths)
	if err != nil {
		return nil, nil, err
	}
	return r.m, r.warns, nil
}

type sourceResult struct {
	m     *model.Map
	res   *recognize.Result
	prog  *ir.Program
	warns []string
	rel   func(string) string
}

func recognizeSources(root string, paths []string) (*sourceResult, error) {
	files, err := srcir.Collect(paths)
	if err != nil {
		return nil, err
	}
	parsed, err := srcir.ParseFiles(files, paths...)
	if err != nil {
		return nil, err
	}
	prog, diags := parsed.Build()
	// the dependencies the files reach are read (below, when the map needs them) on another
	// core while the recognizer runs on this one: ready when asked for, else dropped
	type depsRead struct {
		dl  *srcir.DepLoad
		err error
	}
	depsc := make(chan depsRead, 1)
	go func() {
		dl, err := parsed.LoadDeps()
		depsc <- depsRead{dl, err}
	}()
	table, err := lifecycle.ProfileTable()
	if err != nil {
		return nil, err
	}
	var deps srcir.Deps
	rel := sourceRel(root, paths, deps)
	rtable, err := withDirectives(table, prog, rel)
	if err != nil {
		return nil, err
	}
	res, err := safeRecognize(prog, recognize.Options{Table: rtable, Rel: rel})
	if err != nil {
		return nil, err
	}
	if len(res.Entries) == 0 || declaredUnreached(prog, rtable, res) {
		// the named code runs no turn loop of its own, or a run entry declared in it (a
		// profile's, a lifeline:run-entry directive's) reaches none there: it may hand the
		// run to an installed dependency (@voltagent/core's Agent.generateText to ai's
		// generateText), whose modules the files reach are read (srcir.Parsed.LoadDeps, started above);
		// the run entries stay the named files', and the map read through the dependencies
		// is taken when it has more of them. The files are not parsed again, and with no
		// dependency module read there is nothing new to build: only the dependencies'
		// syntax errors are wanted (below).
		r := <-depsc
		if r.err != nil {
			return nil, r.err
		}
		dl := r.dl
		d := dl.Deps
		var ddiags []srcir.Diag
		if len(d) == 0 {
			ddiags = dl.Diags()
		} else {
			var dprog *ir.Program
			dprog, ddiags = dl.Build()
			drel := sourceRel(root, paths, d)
			dtable, err := withDirectives(table, dprog, drel)
			if err != nil {
				return nil, err
			}
			entryPkgs := map[string]bool{}
			for _, f := range dprog.Funcs {
				if _, dep := d[f.Pos.File]; !dep {
					entryPkgs[f.Pkg] = true
				}
			}
			dres, err := safeRecognize(dprog, recognize.Options{Table: dtable, Rel: drel, EntryPkgs: entryPkgs})
			if err != nil {
				return nil, err
			}
			if len(dres.Entries) > len(res.Entries) {
				prog, diags, deps, rel, table, res = dprog, ddiags, d, drel, dtable, dres
			}
		}
		if len(deps) == 0 {
			// the dependencies read run no turn loop either: their syntax errors may be why
			// (a definition or re-export the parser could not read), reported as the named
			// files' are
			for _, dg := range ddiags {
				if dg.Name != "" {
					diags = append(diags, dg)
				}
			}
		}
	}
	if len(deps) == 0 {
		table = rtable
	}
	m := &model.Map{Packages: []string{}, Entries: res.Entries}
	if m.Entries == nil {
		m.Entries = []model.Entry{}
	}
	seen := map[string]bool{}
	keys := make([]string, 0, len(prog.Funcs))
	for _, f := range prog.Funcs {
		if f.Key != "" {
			keys = append(keys, f.Key)
		}
		if _, dep := deps[f.Pos.File]; dep {
			continue // the packages listed are the analysed ones
		}
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
	m.Terms = table.Terms(keys)
	Relativize(m, rel)
	sort.SliceStable(m.Entries, func(i, j int) bool { return m.Entries[i].Pos.Less(m.Entries[j].Pos) })
	inferTerms(m)
	var warns []string
	for _, d := range diags {
		file := rel(d.Pos.File)
		if d.Name != "" && file == filepath.ToSlash(d.Pos.File) {
			file = d.Name // a dependency's file the map names no element in
		}
		warns = append(warns, file+":"+itoa(d.Pos.Line)+": "+d.Msg)
	}
	return &sourceResult{m: m, res: res, prog: prog, warns: warns, rel: rel}, nil
}

// declaredUnreached reports whether a function of prog that table declares a run entry (a
// profile's rule, a lifeline:run-entry directive) has no entry in res: it reaches no turn loop
// in the code read.
func declaredUnreached(prog *ir.Program, table *roles.Table, res *recognize.Result) bool {
	have := map[string]bool{}
	for _, e := range res.Entries {
		have[e.Func] = true
	}
	for _, f := range prog.Funcs {
		if f.Test || have[f.Short] {
			continue
		}
		for _, k := range append([]string{f.Key}, f.Implements...) {
			for _, b := range table.Lookup(k) {
				if b.Role == roles.RunEntry {
					return true
				}
			}
		}
	}
	return false
}

// SourceFinding is a finding of lifeline vet on Python or TypeScript/JavaScript sources.
type SourceFinding struct {
	Check string
	// File is absolute; Line 1-based.
	File    string
	Line    int
	Message string
}

// VetSources runs the checks that apply to Python and TypeScript/JavaScript on the turn loops
// the recognizer finds in paths: unboundedloop (a turn loop with no bound and no cancellation
// check) and loopcancel (a bounded turn loop whose function has a cancellation carrier, an
// AbortSignal or a cancel event, that no step checks; Python's implicit asyncio cancellation
// is propagation and no finding). enabled selects checks by name (nil: all). A
// "# lifeline:ignore CHECK" or "// lifeline:ignore CHECK" comment on the loop's line or the
// line above suppresses a finding. Rel makes the findings' file names relative, as the map's.
func VetSources(paths []string, enabled map[string]bool) (findings []SourceFinding, warns []string, rel func(string) string, err error) {
	r, err := recognizeSources("", paths)
	if err != nil {
		return nil, nil, nil, err
	}
	on := func(c string) bool { return enabled == nil || enabled[c] }
	lines := map[string][]string{}
	ignored := func(file string, line int, check string) bool {
		ls, ok := lines[file]
		if !ok {
			if data, err := os.ReadFile(file); err == nil {
				ls = strings.Split(string(data), "\n")
			}
			lines[file] = ls
		}
		for _, l := range []int{line - 1, line - 2} {
			if l < 0 || l >= len(ls) {
				continue
			}
			t := ls[l]
			i := strings.Index(t, "lifeline:ignore")
			if i < 0 {
				continue
			}
			pre := strings.TrimRight(t[:i], " ")
			if !strings.HasSuffix(pre, "#") && !strings.HasSuffix(pre, "//") {
				continue
			}
			fields := strings.Fields(t[i+len("lifeline:ignore"):])
			if len(fields) > 0 && (fields[0] == check || strings.Contains(","+fields[0]+",", ","+check+",")) {
				return true
			}
		}
		return false
	}
	for _, l := range r.res.Loops {
		if len(l.Entries) == 0 {
			continue
		}
		ml := l.Map
		what := "turn loop"
		if ml.Kind == model.LoopRecursion {
			what = "turn recursion"
		}
		file, line := ml.Pos.File, ml.Pos.Line
		switch {
		case (ml.Bound == nil || infinite(ml.Bound.Default) || ml.Bound.Optional && unset(ml.Bound.Default)) && !ml.ChecksCancel && on("unboundedloop"):
			if !ignored(file, line, "unboundedloop") {
				msg := what + " has no bound and no cancellation exit: a model that keeps requesting tools runs it forever; add a max-steps bound and check cancellation between steps"
				if ml.Bound != nil && ml.Bound.Optional && unset(ml.Bound.Default) {
					msg = what + "'s bound " + ml.Bound.Expr + " is unset by default (" + ml.Bound.Default + ": unlimited) and there is no cancellation exit: a model that keeps requesting tools runs it forever; give the bound a default and check cancellation between steps"
				}
				findings = append(findings, SourceFinding{Check: "unboundedloop", File: file, Line: line, Message: msg})
			}
		case ml.Bound != nil && !ml.ChecksCancel && hasCarrier(r.prog, l) && on("loopcancel"):
			if !ignored(file, line, "loopcancel") {
				findings = append(findings, SourceFinding{Check: "loopcancel", File: file, Line: line,
					Message: what + " never checks cancellation between steps: a cancelled run keeps calling the model until " + ml.Bound.Expr + " is reached; check the signal (signal.aborted / throwIfAborted, a cancel event) at the top of each step"})
			}
		}
	}
	sort.SliceStable(findings, func(i, j int) bool {
		if findings[i].File != findings[j].File {
			return findings[i].File < findings[j].File
		}
		return findings[i].Line < findings[j].Line
	})
	return findings, r.warns, r.rel, nil
}

// hasCarrier reports whether a cancellation carrier reaches the loop: a parameter of its
// function (or of the function a closure is in) or an argument of a call in the loop.
func hasCarrier(p *ir.Program, l *recognize.Loop) bool {
	for f := l.Func; f != nil; {
		for _, pa := range f.Params {
			if pa.Kind == "context" {
				return true
			}
		}
		if f.Parent < 0 {
			break
		}
		f = p.Funcs[f.Parent]
	}
	for _, c := range l.Func.Calls {
		if c.PassesContext && (l.LoopID < 0 || contains(c.Loops, l.LoopID)) {
			return true
		}
	}
	return false
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// sourceRel makes file names relative to root ("" = the current directory) when they are
// under it, to the arguments' bases (see BuildSources) otherwise; a dependency's file
// elsewhere is named by its package and its path in it (deps), as Go names a dependency's
// files by module path.
func sourceRel(root string, paths []string, deps srcir.Deps) func(string) string {
	var bases []string
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			bases = append(bases, abs)
		}
	} else if wd, err := os.Getwd(); err == nil {
		bases = append(bases, wd)
	}
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
	// the recognizer asks it of the same few hundred files for every element it scores:
	// each file's answer is computed once
	var mu sync.Mutex
	memo := map[string]string{}
	return func(file string) string {
		if file == "" {
			return ""
		}
		mu.Lock()
		r, ok := memo[file]
		mu.Unlock()
		if ok {
			return r
		}
		r = filepath.ToSlash(file)
		for _, b := range bases {
			if rel, err := filepath.Rel(b, file); err == nil && !strings.HasPrefix(rel, "..") {
				r = filepath.ToSlash(rel)
				break
			}
		}
		if d, ok := deps[file]; ok && r == filepath.ToSlash(file) {
			r = d
		}
		mu.Lock()
		memo[file] = r
		mu.Unlock()
		return r
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
	goArgs, srcs := SplitArgsIn(opts.Dir, args)
	return mapArgs(goArgs, srcs, opts)
}

// SplitArgsIn separates the arguments that name Python or TypeScript/JavaScript sources (a
// file with their extension, or a directory holding some and no Go files or go.mod),
// resolved in dir ("" = current directory) and returned joined with it, from Go package
// patterns, returned as given: they keep going to the Go path.
func SplitArgsIn(dir string, args []string) (goPatterns, sources []string) {
	for _, a := range args {
		p := a
		if dir != "" && !filepath.IsAbs(a) {
			p = filepath.Join(dir, a)
		}
		if isSourceArg(p) {
			sources = append(sources, p)
		} else {
			goPatterns = append(goPatterns, a)
		}
	}
	return goPatterns, sources
}

func mapArgs(goArgs, srcs []string, opts Options) (*model.Map, []string, error) {
	var m *model.Map
	var warns []string
	if len(srcs) > 0 {
		sm, w, err := BuildSourcesIn(opts.SourceRoot, srcs)
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
		gm.Terms = append(gm.Terms, m.Terms...)
		m = gm
	}
	return m, warns, nil
}

// infinite reports whether a bound's default is infinite (float("inf"), math.inf, Infinity):
// with the defaults the loop has no bound.
// unset reports whether an optional bound's default leaves it unset: a "nothing" literal
// (None, null, undefined) that every caller hands on (chain_limit=… else self.chain_limit
// with the field None), or no stop condition at all. An unknown default ("") is no finding.
func unset(def string) bool {
	switch def {
	case "None", "null", "undefined", "nil", model.DefaultNone:
		return true
	}
	return false
}

func infinite(def string) bool {
	d := strings.ToLower(strings.NewReplacer(" ", "", "'", "\"").Replace(def))
	switch d {
	case `float("inf")`, `float("infinity")`, "math.inf", "infinity", "number.positive_infinity", "sys.maxsize", "number.max_safe_integer":
		return true
	}
	return false
}

// withDirectives adds the sources' "# lifeline:" / "// lifeline:" directives to the table, as
// declared bindings of the objects they sit on; an unknown verb is an error naming its line.
func withDirectives(t *roles.Table, prog *ir.Program, rel func(string) string) (*roles.Table, error) {
	extra := map[string][]roles.Binding{}
	for _, d := range prog.Directives {
		text := roles.DirectivePrefix + strings.Join(append([]string{d.Verb}, d.Args...), " ")
		b, ok, err := roles.Directive{Verb: d.Verb, Args: d.Args, Comment: &ast.Comment{Text: text}}.BindingOf(d.Key)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", rel(d.Pos.File), d.Pos.Line, err)
		}
		if ok {
			extra[d.Key] = append(extra[d.Key], b)
		}
	}
	return t.With(extra), nil
}
