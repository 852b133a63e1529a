package cmd

import (
	"fmt"
	"go/token"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/cmd/internal/termsafe"
	"github.com/lifeline-dev/lifeline/render/diag"
	"github.com/lifeline-dev/lifeline/render/sarif"
	"github.com/spf13/cobra"
	"golang.org/x/tools/go/analysis"
)

type vetFlags struct {
	format  string
	profile string
	checks  string
	dir     string
	tests   bool
	tags    []string
	list    bool
	explain string
}

func newVetCmd() *cobra.Command {
	var f vetFlags
	c := &cobra.Command{
		Use:   "vet PACKAGES|PATHS…",
		Short: "Report lifecycle defects in Go agent code (go vet-style checks)",
		Long: `vet type-checks Go packages and runs lifeline's checks on them: turn loops with no bound and no
cancellation exit, loops that never check cancellation between steps, terminal statuses written
by tools or callbacks, completed written after a dropped step error, stop reasons overwritten by
lower ones, lifecycle spans not ended on every path, retries without parent run id, runs started
with an HTTP request's context, discarded tool errors. Each diagnostic says its lifecycle
consequence and links to its documentation (docs/checks/NAME.md). Suppress one with a
"//lifeline:ignore CHECK reason" comment on its line or the line above.

The same checks run under go vet: go vet -vettool=$(which lifeline) ./...

Python and TypeScript/JavaScript paths (files, directories, installed packages, as for
lifeline map) get the checks that apply to the turn loops lifeline recognizes there:
unboundedloop and loopcancel; "# lifeline:ignore CHECK" / "// lifeline:ignore CHECK"
suppress them.

Positions are module-relative, as in lifeline map: dir/file.go:line:col in the main module,
module/path/dir/file.go:line:col in a dependency.

Exit status: 0 when clean, 3 when there are findings, 1 on failure (packages that cannot be
loaded or do not type-check, a bad flag or profile).`,
		Example: `  lifeline vet ./...
  lifeline vet --format sarif ./... > lifeline.sarif
  lifeline vet --format json --checks unboundedloop,loopcancel ./model/runtime
  lifeline vet --list
  lifeline vet --list --format json
  lifeline vet --explain connctx
  go vet -vettool=$(which lifeline) ./...`,
		RunE: func(cmd *cobra.Command, args []string) error { return runVet(cmd, args, f) },
	}
	c.Flags().StringVar(&f.format, "format", "text", "output format: text, json (go vet's shape) or sarif (SARIF 2.1.0)")
	c.Flags().StringVar(&f.profile, "profile", "", "comma-separated mapping profile files (JSON) to use besides the built-in ones")
	c.Flags().StringVar(&f.checks, "checks", "", "comma-separated checks to run (default: all)")
	c.Flags().StringVarP(&f.dir, "dir", "C", "", "resolve packages in this directory (its module)")
	c.Flags().BoolVar(&f.tests, "tests", true, "include test files, as go vet does (--tests=false leaves them out)")
	c.Flags().StringSliceVar(&f.tags, "tags", nil, "build tags")
	c.Flags().BoolVar(&f.list, "list", false, "list the checks and exit")
	c.Flags().StringVar(&f.explain, "explain", "", "print the documentation of a check and exit")
	var checks []string
	for _, a := range analyzer.Checks() {
		checks = append(checks, a.Name+"\t"+checkTitle(a))
	}
	mustComplete(c, "format", complete("text\tfile:line:col: message (check)", "json\tgo vet -json's shape", "sarif\tSARIF 2.1.0, for code scanning"))
	mustComplete(c, "checks", completeList(checks...))
	mustComplete(c, "explain", complete(checks...))
	return c
}

func init() { rootCmd.AddCommand(newVetCmd()) }

// checkEntry is one check in vet --list --format json.
type checkEntry struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// relativize rewrites the positions of ds with rel (lifemap's module-relative names, the ones
// lifeline map prints). Suggested fixes keep absolute names: tools apply them.
func relativize(ds []diag.Diagnostic, rel func(string) string) {
	fix := func(p *diag.Position) { p.Filename = rel(p.Filename) }
	for i := range ds {
		fix(&ds[i].Pos)
		fix(&ds[i].End)
		for j := range ds[i].Related {
			fix(&ds[i].Related[j].Pos)
			fix(&ds[i].Related[j].End)
		}
	}
}

func checkTitle(a *analysis.Analyzer) string {
	title, _, _ := strings.Cut(a.Doc, "\n")
	return title
}

func runVet(cmd *cobra.Command, args []string, f vetFlags) error {
	out := cmd.OutOrStdout()
	all := analyzer.Checks()
	if f.list {
		switch f.format {
		case "text":
			for _, a := range all {
				fmt.Fprintf(out, "%-18s %s\n", a.Name, checkTitle(a))
			}
			return nil
		case "json":
			var list []checkEntry
			for _, a := range all {
				list = append(list, checkEntry{Name: a.Name, Title: checkTitle(a), URL: a.URL})
			}
			return writeJSON(out, list)
		}
		return &exitError{code: exitFailure, err: fmt.Errorf("--list: unknown --format %q (text or json)", f.format)}
	}
	if f.explain != "" {
		for _, a := range all {
			if a.Name == f.explain {
				fmt.Fprintf(out, "%s: %s\n\n%s\n", a.Name, a.Doc, a.URL)
				return nil
			}
		}
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown check %q (see lifeline vet --list)", f.explain)}
	}
	if len(args) == 0 {
		return &exitError{code: exitFailure, err: fmt.Errorf("no packages given (try: lifeline vet ./...)")}
	}
	switch f.format {
	case "text", "json", "sarif":
	default:
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (text, json or sarif)", f.format)}
	}
	checks, err := selectChecks(all, f.checks)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if err := setProfile(f.profile); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	tuneGC()
	goArgs, srcs := lifemap.SplitArgsIn(f.dir, args)
	ds, err := vetSources(cmd, srcs, checks)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	failures := map[string]map[string]string{}
	var failed []string
	if len(goArgs) > 0 {
		gds, gfailures, gfailed, err := vetGo(goArgs, f, checks)
		if err != nil {
			return err
		}
		ds, failures, failed = append(ds, gds...), gfailures, gfailed
	}
	diag.Sort(ds)
	switch f.format {
	case "json":
		err = diag.WriteJSON(out, ds, failures)
	case "sarif":
		var rules []diag.Rule
		for _, a := range checks {
			rules = append(rules, diag.Rule{ID: a.Name, Title: checkTitle(a), Doc: a.Doc, URL: a.URL})
		}
		err = sarif.Write(out, "lifeline", Version(), rules, ds)
	default:
		err = diag.WriteText(termsafe.NewWriter(out), ds)
	}
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if len(failed) > 0 {
		sort.Strings(failed)
		return &exitError{code: exitFailure, err: fmt.Errorf("analysis failed:\n\t%s", strings.Join(failed, "\n\t"))}
	}
	if len(ds) > 0 {
		return findingsExit()
	}
	return nil
}

// tuneGC makes the garbage collector run less often while packages are type-checked and
// analyzed, unless GOGC says otherwise: the heap is mostly live syntax and types until the
// process exits, so collecting at the default 100% growth costs a third of lifeline vet's CPU
// time on langchaingo for about 10% less peak memory.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// firstGCAt is the heap size below which lifeline map does not collect at all (deferFirstGC).
const firstGCAt = 512 << 20

// gcDeferred is set while a deferFirstGC is waiting for its first collection.
var gcDeferred atomic.Bool

// deferFirstGC makes the garbage collector wait until the heap reaches limit bytes before its
// first collection, then collect as before (the GOGC and memory limit in force when called;
// tuneGC's 400 %): a map's heap is the syntax trees and IR of every file, live until the map
// is built, so the collections on the way there (three for the installed openai-agents, the
// last one marking ≈ 180 MB of trees) free almost nothing. A map whose heap stays under limit
// is never collected; a larger one is collected at limit, from when on GOGC rules again.
// GOGC or GOMEMLIMIT, when set, win.
func deferFirstGC(limit int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || !gcDeferred.CompareAndSwap(false, true) {
		return
	}
	pct := debug.SetGCPercent(-1)
	mem := debug.SetMemoryLimit(limit)
	s := &gcSentinel{}
	runtime.SetFinalizer(s, func(*gcSentinel) {
		// the first collection freed s: the heap reached limit (or someone ran runtime.GC)
		debug.SetMemoryLimit(mem)
		debug.SetGCPercent(pct)
		gcDeferred.Store(false)
	})
}

// gcSentinel is the object whose finalizer ends deferFirstGC: it holds a pointer so that it
// is not batched with other tiny objects (a tiny object is freed only with its whole block).
type gcSentinel struct{ _ *int }

func selectChecks(all []*analysis.Analyzer, list string) ([]*analysis.Analyzer, error) {
	if strings.TrimSpace(list) == "" {
		return all, nil
	}
	byName := map[string]*analysis.Analyzer{}
	for _, a := range all {
		byName[a.Name] = a
	}
	var out []*analysis.Analyzer
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		a, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("unknown check %q (see lifeline vet --list)", name)
		}
		out = append(out, a)
	}
	return out, nil
}

func convert(fset *token.FileSet, pkg string, a *analysis.Analyzer, d analysis.Diagnostic) diag.Diagnostic {
	pos := func(p token.Pos) diag.Position {
		if !p.IsValid() {
			return diag.Position{}
		}
		q := fset.Position(p)
		return diag.Position{Filename: q.Filename, Line: q.Line, Column: q.Column, Offset: q.Offset}
	}
	end := d.End
	if !end.IsValid() {
		end = d.Pos
	}
	out := diag.Diagnostic{Package: pkg, Check: a.Name, Category: d.Category, Pos: pos(d.Pos), End: pos(end), Message: d.Message, URL: d.URL}
	if out.URL == "" {
		out.URL = a.URL
	}
	for _, r := range d.Related {
		re := r.End
		if !re.IsValid() {
			re = r.Pos
		}
		out.Related = append(out.Related, diag.Related{Pos: pos(r.Pos), End: pos(re), Message: r.Message})
	}
	for _, fx := range d.SuggestedFixes {
		fix := diag.Fix{Message: fx.Message}
		for _, e := range fx.TextEdits {
			ee := e.End
			if !ee.IsValid() {
				ee = e.Pos
			}
			p, q := fset.Position(e.Pos), fset.Position(ee)
			fix.Edits = append(fix.Edits, diag.Edit{Filename: p.Filename, Start: p.Offset, End: q.Offset, New: string(e.NewText)})
		}
		out.Fixes = append(out.Fixes, fix)
	}
	return out
}

// toUTF16Columns converts byte columns to UTF-16 code units, which SARIF counts.
func toUTF16Columns(ds []diag.Diagnostic) {
	cache := map[string][]string{}
	conv := func(p *diag.Position) {
		if p.Filename == "" || p.Column <= 1 {
			return
		}
		lines, ok := cache[p.Filename]
		if !ok {
			if data, err := os.ReadFile(p.Filename); err == nil {
				lines = strings.Split(string(data), "\n")
			}
			cache[p.Filename] = lines
		}
		if p.Line < 1 || p.Line > len(lines) || p.Column-1 > len(lines[p.Line-1]) {
			return
		}
		prefix := lines[p.Line-1][:p.Column-1]
		n := 0
		for len(prefix) > 0 {
			r, size := utf8.DecodeRuneInString(prefix)
			prefix = prefix[size:]
			if r >= 0x10000 {
				n += 2
			} else {
				n++
			}
		}
		p.Column = n + 1
	}
	for i := range ds {
		conv(&ds[i].Pos)
		conv(&ds[i].End)
	}
}

func loadProfileFile(path string) ([]*roles.Profile, error) {
	ps, err := roles.LoadProfiles(path)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	return ps, nil
}

// vetSources runs the checks that apply to Python and TypeScript/JavaScript sources
// (lifemap.VetSources) and prints its warnings (unparsed regions) on stderr.
func vetSources(cmd *cobra.Command, srcs []string, checks []*analysis.Analyzer) ([]diag.Diagnostic, error) {
	if len(srcs) == 0 {
		return nil, nil
	}
	enabled := map[string]bool{}
	urls := map[string]string{}
	for _, a := range checks {
		enabled[a.Name], urls[a.Name] = true, a.URL
	}
	found, warns, rel, err := lifemap.VetSources(srcs, enabled)
	if err != nil {
		return nil, err
	}
	for _, w := range warns {
		fmt.Fprintln(termsafe.NewWriter(cmd.ErrOrStderr()), "lifeline: warning: "+w)
	}
	var ds []diag.Diagnostic
	for _, x := range found {
		p := diag.Position{Filename: x.File, Line: x.Line, Column: 1}
		ds = append(ds, diag.Diagnostic{Check: x.Check, Pos: p, End: p, Message: x.Message, URL: urls[x.Check]})
	}
	relativize(ds, rel)
	return ds, nil
}

// vetGo loads Go packages and runs the checks on them.
func vetGo(args []string, f vetFlags, checks []*analysis.Analyzer) ([]diag.Diagnostic, map[string]map[string]string, []string, error) {
	pkgs, err := lifemap.Load(args, lifemap.Options{Dir: f.dir, Tests: f.tests, Tags: f.tags})
	if err != nil {
		return nil, nil, nil, &exitError{code: exitFailure, err: err}
	}
	graph, err := lifemap.Analyze(checks, pkgs)
	if err != nil {
		return nil, nil, nil, &exitError{code: exitFailure, err: fmt.Errorf("analyzing: %w", err)}
	}
	var ds []diag.Diagnostic
	failures := map[string]map[string]string{}
	var failed []string
	for _, act := range graph.Roots {
		if act.Err != nil {
			if failures[act.Package.ID] == nil {
				failures[act.Package.ID] = map[string]string{}
			}
			failures[act.Package.ID][act.Analyzer.Name] = act.Err.Error()
			failed = append(failed, fmt.Sprintf("%s: %s: %v", act.Package.PkgPath, act.Analyzer.Name, act.Err))
			continue
		}
		for _, d := range act.Diagnostics {
			ds = append(ds, convert(act.Package.Fset, act.Package.ID, act.Analyzer, d))
		}
	}
	diag.Sort(ds)
	if f.format == "sarif" {
		toUTF16Columns(ds) // reads the files: before positions are made relative
	}
	relativize(ds, lifemap.NewRelativizer(pkgs).Rel)
	return ds, failures, failed, nil
}
