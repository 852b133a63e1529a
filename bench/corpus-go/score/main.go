// Command score measures `lifeline map` and `lifeline vet` against the hand-written ground truth
// of the Go agent corpus (bench/corpus-go/*.truth.json, read from each project's source, never
// from lifeline's output) and of the Python/TypeScript/JavaScript frameworks (bench/seeds,
// bench/corpus-pyts: `-truth DIR -projects LIST`, with LIST as their install.sh --list prints it).
//
//	bench/corpus-go/fetch.sh                       # fetch the projects (prints where)
//	go build -o /tmp/lifeline . && go run ./bench/corpus-go/score -lifeline /tmp/lifeline
//	go run ./bench/corpus-go/score -lifeline /tmp/lifeline -json -v adk fantasy
//
// For each project it runs `lifeline map --format json PATTERNS` and `lifeline vet --format json
// PATTERNS` in the project's directory (CORPUS_DIR/<name>, made by fetch.sh) and matches what they
// print to the truth: an entry by function name or declaration line (±2); a loop by position
// (±2 lines), anywhere in the map; its bound by expression (or last selector) or default value,
// what happens at the bound by kind, model and tool call sites by line (±1, the call or one of
// the calls that lead to it), parallel tools and cancellation by boolean; exits by line (±1) and
// outcome, in the matched entry; id sites by line and kind; vet findings by check and line (±1).
// Findings that match no real defect are false positives, except those on places the truth
// calls arguable. A loop the map reports where the truth has no turn loop is an invented loop.
// It prints a Markdown table (or JSON with -json); -v adds every missed fact.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// Truth is one project's ground truth (see bench/corpus-go/README.md).
type Truth struct {
	Project       string      `json:"project"`
	Module        string      `json:"module"`
	Version       string      `json:"version"`
	Patterns      []string    `json:"patterns"`
	Why           string      `json:"why"`
	UnscoredFiles []string    `json:"unscored_files,omitempty"`
	UnscoredNote  string      `json:"unscored_note,omitempty"`
	Entries       []TEntry    `json:"entries"`
	Defects       []TDefect   `json:"defects"`
	Arguable      []TFinding  `json:"arguable"`
	MustNotFlag   []TFinding  `json:"must_not_flag"`
	NotTurnLoops  []TPlace    `json:"not_turn_loops"`
	ExtraLoops    []TPlace    `json:"extra_loops,omitempty"`
	Notes         interface{} `json:"notes,omitempty"`

	// The fields below are for the Python/TypeScript/JavaScript truths (bench/seeds,
	// bench/corpus-pyts); a Go truth leaves them unset.

	// Lang is "python", "typescript" or "javascript" (empty for Go). Positions of such a truth
	// are relative to the package root install.sh prints, not to a module.
	Lang string `json:"lang,omitempty"`
	// Package is what was installed, as the registry names it ("smolagents==1.26.0",
	// "@openai/agents-core@0.20.0"), or where the sources come from.
	Package string `json:"package,omitempty"`
	// Sources says which files were read for the truth and whether TS sources ship too.
	Sources string `json:"sources,omitempty"`
	// ScoreDefaults scores each bound's default value and default_pos as a fact of its own
	// ("default"): the JSON bound's default and default_pos of issue 11.
	ScoreDefaults bool `json:"score_defaults,omitempty"`
	// Vocabulary maps a lifeline layer (run, turn, step, bound, …) to
	// the framework's own words for it. Scored apart from the facts: a word counts when it
	// appears in the map outside source lines and names.
	Vocabulary []TWord `json:"vocabulary,omitempty"`
}

// TWord is the framework's own word for one lifeline layer.
type TWord struct {
	Layer string `json:"layer"`
	// Words are the framework's terms; any one found in the map, in one string with Layer,
	// counts.
	Words []string `json:"words"`
	Where string   `json:"where,omitempty"`
	Note  string   `json:"note,omitempty"`
}

// TEntry is a run entry point of the truth.
type TEntry struct {
	ID       string   `json:"id"`
	Func     string   `json:"func"`
	Also     []string `json:"also,omitempty"`
	Pos      string   `json:"pos"`
	Note     string   `json:"note,omitempty"`
	Loops    []TLoop  `json:"loops,omitempty"`
	LoopRefs []string `json:"loop_refs,omitempty"`
	Exits    []TExit  `json:"exits"`
	IDs      []TID    `json:"ids"`
}

// TLoop is a turn loop of the truth.
type TLoop struct {
	ID            string     `json:"id"`
	Pos           string     `json:"pos"`
	Kind          string     `json:"kind"`
	Bound         *TBound    `json:"bound"`
	OnBound       *TOnBound  `json:"on_bound"`
	ModelCalls    []TCall    `json:"model_calls"`
	ToolCalls     []TCall    `json:"tool_calls"`
	ParallelTools TBool      `json:"parallel_tools"`
	ChecksCancel  TBool      `json:"checks_cancel"`
	NoBound       *TFactOnly `json:"no_bound,omitempty"`
}

// TFactOnly carries just an id (a fact whose value is implied by its place).
type TFactOnly struct {
	ID string `json:"id"`
}

// TBound is a loop's limit; a nil *TBound (JSON null) means the loop has none.
type TBound struct {
	ID         string   `json:"id"`
	Expr       string   `json:"expr"`
	AlsoExpr   []string `json:"also_expr,omitempty"`
	Default    string   `json:"default"`
	DefaultPos string   `json:"default_pos,omitempty"`
	Pos        string   `json:"pos"`
	Note       string   `json:"note,omitempty"`
}

// TOnBound is what happens at the bound.
type TOnBound struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Value string `json:"value,omitempty"`
	Pos   string `json:"pos,omitempty"`
	Note  string `json:"note,omitempty"`
}

// TCall is a model or tool call site: Pos is the call of the provider or tool, Via the calls
// that lead to it from the loop (either counts).
type TCall struct {
	ID     string   `json:"id"`
	Pos    string   `json:"pos"`
	Via    []string `json:"via,omitempty"`
	Callee string   `json:"callee,omitempty"`
}

// TBool is a boolean fact; a null value is not scored.
type TBool struct {
	ID    string `json:"id"`
	Value *bool  `json:"value"`
	// Mode refines checks_cancel: "checked" (an explicit check on the loop's path, value
	// true), "propagated" (a signal only handed to the model/tool call, or Python's implicit
	// asyncio cancellation; value false) or "none" (value false).
	Mode string `json:"mode,omitempty"`
	Pos  string `json:"pos,omitempty"`
	Note string `json:"note,omitempty"`
}

// TExit is an exit of an entry.
type TExit struct {
	ID      string `json:"id"`
	Pos     string `json:"pos"`
	Outcome string `json:"outcome"`
	// Outcomes, for an exit that stands for several outcomes (a return under a test of a stop
	// reason against several literals), are all of them, Outcome being the first.
	Outcomes []string `json:"outcomes,omitempty"`
	Note     string   `json:"note,omitempty"`
}

// TID is where a run id is minted or passed on.
type TID struct {
	ID   string   `json:"id"`
	Pos  string   `json:"pos"`
	Via  []string `json:"via,omitempty"`
	Kind string   `json:"kind"`
	What string   `json:"what,omitempty"`
}

// TDefect is a real lifecycle defect a vet-style check should report.
type TDefect struct {
	ID         string   `json:"id"`
	Check      string   `json:"check"`
	AlsoChecks []string `json:"also_checks,omitempty"`
	Pos        string   `json:"pos"`
	AlsoPos    []string `json:"also_pos,omitempty"`
	Why        string   `json:"why"`
}

// TFinding is a place (and check, "*" for any) that is arguable or must not be flagged.
type TFinding struct {
	Check string `json:"check"`
	Pos   string `json:"pos"`
	Why   string `json:"why"`
}

// TPlace is a source place with a reason.
type TPlace struct {
	Pos string `json:"pos"`
	Why string `json:"why"`
}

// Fact is one scored fact.
type Fact struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	OK       bool   `json:"ok"`
	Want     string `json:"want"`
	Got      string `json:"got,omitempty"`
	IsExit   bool   `json:"-"`
	Unscored bool   `json:"-"`
}

// Finding is a vet finding with its verdict.
type Finding struct {
	Check   string `json:"check"`
	Pos     string `json:"pos"`
	Message string `json:"message"`
	Verdict string `json:"verdict"` // true, false, arguable, unscored
	Defect  string `json:"defect,omitempty"`
	MustNot bool   `json:"must_not_flag,omitempty"`
}

// Result is one project's score.
type Result struct {
	Project       string            `json:"project"`
	Module        string            `json:"module"`
	Version       string            `json:"version"`
	Error         string            `json:"error,omitempty"`
	FactsOK       int               `json:"facts_ok"`
	Facts         int               `json:"facts"`
	ExitsOK       int               `json:"exits_ok"`
	Exits         int               `json:"exits"`
	VetTrue       int               `json:"vet_true"`
	VetFalse      int               `json:"vet_false"`
	VetArguable   int               `json:"vet_arguable"`
	DefectsFound  int               `json:"defects_found"`
	Defects       int               `json:"defects"`
	InventedLoops []string          `json:"invented_loops"`
	ByKind        map[string][2]int `json:"by_kind"`
	FactList      []Fact            `json:"fact_list"`
	Findings      []Finding         `json:"findings"`
	MissedDefects []string          `json:"missed_defects"`
	MapError      string            `json:"map_error,omitempty"`
	VetError      string            `json:"vet_error,omitempty"`
	VocabOK       int               `json:"vocab_ok"`
	Vocab         int               `json:"vocab"`
	MissedWords   []string          `json:"missed_words,omitempty"`
	MapSeconds    float64           `json:"map_seconds"`
	VetSeconds    float64           `json:"vet_seconds"`
}

func main() {
	lifeline := flag.String("lifeline", "", "lifeline binary to measure (required)")
	truthDir := flag.String("truth", "", "directory of *.truth.json and projects.tsv (default: the directory of this command's source, bench/corpus-go)")
	corpus := flag.String("corpus", "", "where fetch.sh put the projects (default $CORPUS_DIR or $TMPDIR/lifeline-corpus-go)")
	asJSON := flag.Bool("json", false, "print JSON instead of a Markdown table")
	verbose := flag.Bool("v", false, "list every missed fact and every false positive")
	keep := flag.String("keep", "", "directory to keep each project's map and vet output in")
	reuse := flag.String("reuse", "", "score the map/vet outputs kept earlier in this directory instead of running lifeline")
	check := flag.Bool("check", false, "with -projects: print every position of the truths with the source line it names, and fail on a position whose file or line does not exist in the installed tree (run it after changing a pinned version)")
	timeout := flag.Duration("timeout", 15*time.Minute, "time limit of one lifeline run")
	projects := flag.String("projects", "", "project list as install.sh prints it (name<TAB>package root<TAB>paths): run lifeline in each root on those paths instead of CORPUS_DIR/<name> on the truth's patterns (the Python/TypeScript corpora)")
	flag.Parse()
	if *check {
		if *projects == "" {
			fmt.Fprintln(os.Stderr, "score: -check needs -projects")
			os.Exit(2)
		}
		dir := *truthDir
		if dir == "" {
			dir = "bench/corpus-go"
		}
		truths, err := loadTruths(dir, flag.Args())
		if err == nil {
			var list map[string]project
			if list, err = readProjects(*projects); err == nil {
				bad := 0
				for _, t := range truths {
					p, ok := list[t.Project]
					if !ok {
						fmt.Printf("%s: not in %s\n", t.Project, *projects)
						bad++
						continue
					}
					bad += checkPositions(os.Stdout, t, p.root)
				}
				if bad > 0 {
					fmt.Fprintf(os.Stderr, "score: %d positions do not exist\n", bad)
					os.Exit(1)
				}
				return
			}
		}
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(1)
	}
	if *lifeline == "" && *reuse == "" {
		fmt.Fprintln(os.Stderr, "score: -lifeline BINARY is required (or -reuse DIR)")
		os.Exit(2)
	}
	dir := *truthDir
	if dir == "" {
		dir = "bench/corpus-go"
	}
	cdir := *corpus
	if cdir == "" {
		cdir = os.Getenv("CORPUS_DIR")
	}
	if cdir == "" {
		cdir = filepath.Join(os.TempDir(), "lifeline-corpus-go")
	}
	truths, err := loadTruths(dir, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(1)
	}
	var list map[string]project
	if *projects != "" {
		if list, err = readProjects(*projects); err != nil {
			fmt.Fprintln(os.Stderr, "score:", err)
			os.Exit(1)
		}
	}
	var results []*Result
	for _, t := range truths {
		r := &Result{Project: t.Project, Module: t.Module, Version: t.Version}
		if t.Module == "" {
			r.Module = t.Package
		}
		pdir, patterns := filepath.Join(cdir, t.Project), t.Patterns
		if list != nil {
			p, ok := list[t.Project]
			if !ok {
				r.Error = fmt.Sprintf("not in the project list %s (not installed)", *projects)
				r.MapError, r.VetError = r.Error, r.Error
				_ = scoreIn(t, "", nil, []byte(`{"entries":[]}`), []byte(`{}`), r)
				results = append(results, r)
				continue
			}
			pdir, patterns = p.root, p.paths
		}
		var mapOut, vetOut []byte
		var mapErr, vetErr error
		if *reuse != "" {
			mapOut, mapErr = os.ReadFile(filepath.Join(*reuse, t.Project+".map.json"))
			vetOut, vetErr = os.ReadFile(filepath.Join(*reuse, t.Project+".vet.json"))
		} else {
			// The map and vet runs are independent: a failed map (a language lifeline cannot
			// read yet) still gets its vet run scored, and both count as finding nothing.
			var secs float64
			mapOut, secs, mapErr = run(*timeout, pdir, *lifeline, append([]string{"map", "--format", "json"}, patterns...), 0)
			r.MapSeconds = secs
			vetOut, secs, vetErr = run(*timeout, pdir, *lifeline, append([]string{"vet", "--format", "json"}, patterns...), 0, 3)
			r.VetSeconds = secs
			if *keep != "" {
				_ = os.MkdirAll(*keep, 0o755)
				if mapErr == nil {
					_ = os.WriteFile(filepath.Join(*keep, t.Project+".map.json"), mapOut, 0o644)
				}
				if vetErr == nil {
					_ = os.WriteFile(filepath.Join(*keep, t.Project+".vet.json"), vetOut, 0o644)
				}
			}
		}
		if mapErr == nil && !json.Valid(mapOut) {
			mapErr = fmt.Errorf("map printed no JSON: %q", firstLine(string(mapOut)))
		}
		if vetErr == nil && !json.Valid(vetOut) {
			vetErr = fmt.Errorf("vet printed no JSON: %q", firstLine(string(vetOut)))
		}
		var msgs []string
		if mapErr != nil {
			r.MapError = mapErr.Error()
			msgs = append(msgs, "map failed: "+r.MapError)
			mapOut = []byte(`{"entries":[]}`)
		}
		if vetErr != nil {
			r.VetError = vetErr.Error()
			msgs = append(msgs, "vet failed: "+r.VetError)
			vetOut = []byte(`{}`)
		}
		r.Error = strings.Join(msgs, "; ")
		if err := scoreIn(t, pdir, patterns, mapOut, vetOut, r); err != nil && r.Error == "" {
			r.Error = err.Error()
		}
		results = append(results, r)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"projects": results, "total": total(results)}); err != nil {
			fmt.Fprintln(os.Stderr, "score:", err)
			os.Exit(1)
		}
		return
	}
	writeTable(os.Stdout, results, *verbose)
}

func loadTruths(dir string, only []string) ([]*Truth, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.truth.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.truth.json in %s (run from the repository root or pass -truth)", dir)
	}
	sort.Strings(files)
	var out []*Truth
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var t Truth
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if len(only) > 0 && !slices.Contains(only, t.Project) {
			continue
		}
		out = append(out, &t)
	}
	return out, nil
}

// project is one line of an install.sh project list.
type project struct {
	root  string
	paths []string
}

// readProjects reads name<TAB>root<TAB>space-separated paths lines ('#' comments allowed).
func readProjects(file string) (map[string]project, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]project{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("%s:%d: want name<TAB>root<TAB>paths, got %q", file, i+1, line)
		}
		out[f[0]] = project{root: f[1], paths: strings.Fields(f[2])}
	}
	return out, nil
}

// run runs bin with args in dir and returns its standard output; exit codes in ok are success.
func run(timeout time.Duration, dir, bin string, args []string, ok ...int) ([]byte, float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !slices.Contains(ok, ee.ExitCode()) {
			msg := strings.TrimSpace(stderr.String())
			if len(msg) > 400 {
				msg = msg[:400] + "…"
			}
			return nil, secs, fmt.Errorf("%s %s in %s: %v: %s", filepath.Base(bin), strings.Join(args, " "), dir, err, msg)
		}
	}
	return stdout.Bytes(), secs, nil
}

// pos is a parsed file:line.
type pos struct {
	file string
	line int
}

func (p pos) String() string { return p.file + ":" + strconv.Itoa(p.line) }

// parsePos parses "file:line" or "file:line:col" and makes file relative to the project's
// module root (a dependency-style "module/path/…" or "module@version/…" prefix is removed).
func parsePos(s, module, root string) pos {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return pos{}
	}
	// file:line[:col]
	parts := strings.Split(s, ":")
	nums := 0
	for i := len(parts) - 1; i > 0 && nums < 2; i-- {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			break
		}
		nums++
	}
	if nums == 0 {
		return pos{file: normFile(s, module, root)}
	}
	lineIdx := len(parts) - nums
	line, _ := strconv.Atoi(parts[lineIdx])
	return pos{file: normFile(strings.Join(parts[:lineIdx], ":"), module, root), line: line}
}

func normFile(f, module, root string) string {
	f = filepath.ToSlash(f)
	if root != "" {
		r := filepath.ToSlash(root)
		if strings.HasPrefix(f, r+"/") {
			f = f[len(r)+1:]
		}
	}
	if module != "" {
		if strings.HasPrefix(f, module+"@") {
			if i := strings.IndexByte(f[len(module):], '/'); i >= 0 {
				f = f[len(module)+i+1:]
			}
		} else if strings.HasPrefix(f, module+"/") {
			f = f[len(module)+1:]
		}
	}
	return strings.TrimPrefix(f, "./")
}

func near(a, b pos, tol int) bool {
	if a.file == "" || a.file != b.file {
		return false
	}
	d := a.line - b.line
	return d >= -tol && d <= tol
}

// normFunc removes spaces and a leading package path from a qualified function name, so that
// "(*github.com/x/agent.Agent).Run" and "(*agent.Agent).Run" compare equal.
func normFunc(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	// (*path/to/pkg.T).M -> (*pkg.T).M ; path/to/pkg.F -> pkg.F
	prefix := ""
	switch {
	case strings.HasPrefix(s, "(*"):
		prefix, s = "(*", s[2:]
	case strings.HasPrefix(s, "("):
		prefix, s = "(", s[1:]
	}
	// Type and method names have no slash: the package path ends at the last one.
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return prefix + s
}

// funcMatch reports whether a reported function name is the truth's. For Go both are
// normalized (normFunc). For Python/TS, where a name may or may not carry its module
// ("agents.run.Runner.run", "Runner.run", "dist/run.js Runner.run"), one must end the other at a
// dot, and the shorter must still name a class or module and a function ("Runner.run", never "run").
func funcMatch(lang, want, got string) bool {
	w, g := normFunc(want), normFunc(got)
	if w == g {
		return true
	}
	if lang == "" || !strings.Contains(w, ".") || !strings.Contains(g, ".") {
		return false
	}
	// Separators other than dots (a "#" for private members, spaces, "::") read as dots.
	clean := func(s string) string {
		s = strings.NewReplacer("#", "", "::", ".", " ", ".", "(*", "", "(", "", ")", "", "*", "").Replace(s)
		return strings.Trim(s, ".")
	}
	w, g = clean(w), clean(g)
	return w == g || strings.HasSuffix(g, "."+w) || strings.HasSuffix(w, "."+g)
}

// exprMatch reports whether a reported bound expression names the truth's: equal without
// spaces, or the same last selector ("b.Params.MaxIterations" and "MaxIterations").
func exprMatch(want, got string) bool {
	w := strings.ReplaceAll(want, " ", "")
	g := strings.ReplaceAll(got, " ", "")
	if w == "" || g == "" {
		return false
	}
	if w == g {
		return true
	}
	last := func(s string) string {
		s = strings.TrimSuffix(s, "()")
		if i := strings.LastIndexAny(s, ".>"); i >= 0 {
			return s[i+1:]
		}
		return s
	}
	return last(w) == last(g)
}

type mapLoop struct {
	loop  model.Loop
	entry string
	p     pos
}

func score(t *Truth, mapOut, vetOut []byte, r *Result) error {
	return scoreIn(t, "", nil, mapOut, vetOut, r)
}

// scoreIn scores the map and vet output of a project installed at root and mapped on paths
// (relative to root). Positions lifeline prints are made relative to root: an absolute path
// under root loses that prefix, and a path relative to one of the mapped paths instead of root
// (a file that exists only as root/path/file) gains the path.
func scoreIn(t *Truth, root string, paths []string, mapOut, vetOut []byte, r *Result) error {
	var m model.Map
	if err := json.Unmarshal(mapOut, &m); err != nil {
		return fmt.Errorf("decoding map JSON: %w", err)
	}
	r.FactList, r.Findings, r.InventedLoops, r.MissedDefects = []Fact{}, []Finding{}, []string{}, []string{}
	module := t.Module
	if t.Lang != "" {
		module = ""
	}
	P := func(s string) pos { return rebase(parsePos(s, module, root), root, paths) }
	unscored := func(p pos) bool {
		for _, f := range t.UnscoredFiles {
			// A file, a directory (every file under it), or "*.ext" (every file with that
			// ending: the .mjs twins of a package's .js files).
			if p.file == f || strings.HasPrefix(p.file, strings.TrimSuffix(f, "/")+"/") ||
				strings.HasPrefix(f, "*.") && strings.HasSuffix(p.file, f[1:]) {
				return true
			}
		}
		return false
	}
	var loops []mapLoop
	for _, e := range m.Entries {
		for _, l := range e.Loops {
			loops = append(loops, mapLoop{loop: l, entry: e.Func, p: P(l.Pos.String())})
		}
	}
	add := func(f Fact) { r.FactList = append(r.FactList, f) }
	b2s := func(b bool) string { return strconv.FormatBool(b) }

	// Loops of the truth by id, so that loop_refs can be resolved.
	truthLoops := map[string]TLoop{}
	for _, e := range t.Entries {
		for _, l := range e.Loops {
			truthLoops[l.ID] = l
		}
	}
	for _, e := range t.Entries {
		// Entry.
		var me *model.Entry
		ep := P(e.Pos)
		for i := range m.Entries {
			got := &m.Entries[i]
			names := append([]string{e.Func}, e.Also...)
			match := near(P(got.Pos.String()), ep, 2)
			for _, n := range names {
				if funcMatch(t.Lang, n, got.Func) {
					match = true
				}
			}
			if match {
				me = got
				break
			}
		}
		// A Python/TS entry often delegates (Runner.run -> AgentRunner._run_impl): its exits
		// are looked for in every map entry that matches one of its names.
		var alsoEntries []*model.Entry
		if t.Lang != "" {
			for i := range m.Entries {
				got := &m.Entries[i]
				if got == me {
					continue
				}
				for _, n := range append([]string{e.Func}, e.Also...) {
					if funcMatch(t.Lang, n, got.Func) || near(P(got.Pos.String()), ep, 2) {
						alsoEntries = append(alsoEntries, got)
						break
					}
				}
			}
		}
		f := Fact{ID: e.ID, Kind: "entry", Want: e.Func + " @ " + e.Pos}
		if me != nil {
			f.OK, f.Got = true, me.Func+" @ "+me.Pos.String()
		}
		add(f)

		// Loops.
		for _, tl := range e.Loops {
			lp := P(tl.Pos)
			var ml *model.Loop
			if me != nil {
				// the entry's own view of the loop first: a bound's default can be what
				// this entry passes to the loop's function (model.Bound.Passed)
				for i := range me.Loops {
					if near(P(me.Loops[i].Pos.String()), lp, 2) {
						ml = &me.Loops[i]
						break
					}
				}
			}
			for i := range loops {
				if ml == nil && near(loops[i].p, lp, 2) {
					ml = &loops[i].loop
					break
				}
			}
			f := Fact{ID: tl.ID, Kind: "loop", Want: tl.Kind + " @ " + tl.Pos}
			if ml != nil {
				f.OK, f.Got = true, string(ml.Kind)+" @ "+ml.Pos.String()+" in "+ml.Func
			}
			add(f)
			// Bound.
			if tl.Bound == nil {
				id := tl.ID + ".bound"
				if tl.NoBound != nil {
					id = tl.NoBound.ID
				}
				f := Fact{ID: id, Kind: "bound", Want: "none"}
				if ml != nil {
					f.OK = ml.Bound == nil
					if ml.Bound != nil {
						f.Got = ml.Bound.Expr + " default " + ml.Bound.Default
					}
				}
				add(f)
			} else {
				want := tl.Bound.Expr + " default " + tl.Bound.Default
				f := Fact{ID: tl.Bound.ID, Kind: "bound", Want: want}
				if ml != nil && ml.Bound != nil {
					f.Got = ml.Bound.Expr + " default " + ml.Bound.Default
					for _, x := range append([]string{tl.Bound.Expr}, tl.Bound.AlsoExpr...) {
						if exprMatch(x, ml.Bound.Expr) {
							f.OK = true
						}
					}
					if tl.Bound.Default != "none" && tl.Bound.Default != "" && strings.TrimSpace(ml.Bound.Default) == tl.Bound.Default {
						f.OK = true
					}
				}
				add(f)
				if t.ScoreDefaults && tl.Bound.Default != "" && tl.Bound.Default != "none" {
					f := Fact{ID: tl.Bound.ID + ".default", Kind: "default", Want: tl.Bound.Default + " @ " + tl.Bound.DefaultPos}
					if ml != nil && ml.Bound != nil {
						f.Got = ml.Bound.Default + " @ " + ml.Bound.DefaultPos.String()
						f.OK = sameValue(ml.Bound.Default, tl.Bound.Default) &&
							(tl.Bound.DefaultPos == "" || near(P(ml.Bound.DefaultPos.String()), P(tl.Bound.DefaultPos), 1))
					}
					add(f)
				}
				if tl.OnBound != nil {
					f := Fact{ID: tl.OnBound.ID, Kind: "on_bound", Want: tl.OnBound.Kind}
					if ml != nil && ml.OnBound != nil {
						f.Got = ml.OnBound.Kind
						f.OK = ml.OnBound.Kind == tl.OnBound.Kind
					}
					add(f)
				}
			}
			// Call sites.
			for _, kind := range []string{"model_call", "tool_call"} {
				want := tl.ModelCalls
				if kind == "tool_call" {
					want = tl.ToolCalls
				}
				for _, c := range want {
					f := Fact{ID: c.ID, Kind: kind, Want: c.Pos}
					if len(c.Via) > 0 {
						f.Want += " (or via " + strings.Join(c.Via, ", ") + ")"
					}
					if ml != nil {
						sites := ml.ModelCalls
						if kind == "tool_call" {
							sites = ml.ToolCalls
						}
						var got []string
						for _, s := range sites {
							sp := P(s.Pos.String())
							got = append(got, sp.String())
							for _, w := range append([]string{c.Pos}, c.Via...) {
								if near(sp, P(w), 1) {
									f.OK = true
								}
							}
						}
						f.Got = strings.Join(got, ", ")
					}
					add(f)
				}
			}
			// Booleans.
			for _, b := range []struct {
				kind string
				tb   TBool
				get  func(*model.Loop) bool
			}{
				{"parallel_tools", tl.ParallelTools, func(l *model.Loop) bool { return l.ParallelTools }},
				{"checks_cancel", tl.ChecksCancel, func(l *model.Loop) bool { return l.ChecksCancel }},
			} {
				if b.tb.Value == nil {
					continue
				}
				f := Fact{ID: b.tb.ID, Kind: b.kind, Want: b2s(*b.tb.Value)}
				if ml != nil {
					f.Got = b2s(b.get(ml))
					f.OK = b.get(ml) == *b.tb.Value
				}
				add(f)
			}
		}

		// Exits.
		for _, x := range e.Exits {
			want := x.Outcome
			if len(x.Outcomes) > 0 {
				want = strings.Join(x.Outcomes, "|")
			}
			f := Fact{ID: x.ID, Kind: "exit", Want: want + " @ " + x.Pos, IsExit: true}
			if me != nil {
				xp := P(x.Pos)
				var exits []model.Exit
				for _, ent := range append([]*model.Entry{me}, alsoEntries...) {
					exits = append(exits, ent.Exits...)
				}
				for _, gx := range exits {
					if near(P(gx.Pos.String()), xp, 1) {
						f.Got = gx.Outcome + " @ " + gx.Pos.String()
						if len(x.Outcomes) > 0 {
							var got []string
							for _, o := range gx.Alternatives() {
								got = append(got, o.Outcome)
							}
							f.Got = strings.Join(got, "|") + " @ " + gx.Pos.String()
							if strings.Join(got, "|") == strings.Join(x.Outcomes, "|") {
								f.OK = true
								break
							}
						} else if gx.Outcome == x.Outcome {
							f.OK = true
							break
						}
					}
				}
			}
			add(f)
		}
		// Ids.
		for _, id := range e.IDs {
			f := Fact{ID: id.ID, Kind: "id", Want: id.Kind + " @ " + id.Pos}
			if me != nil {
				for _, g := range me.IDs {
					for _, w := range append([]string{id.Pos}, id.Via...) {
						if near(P(g.Pos.String()), P(w), 1) && g.Kind == id.Kind {
							f.OK, f.Got = true, g.Kind+" @ "+g.Pos.String()
						}
					}
				}
			}
			add(f)
		}
	}

	// Invented loops: distinct reported loops where the truth has no turn loop.
	known := []pos{}
	for _, l := range truthLoops {
		known = append(known, P(l.Pos))
	}
	for _, x := range t.ExtraLoops {
		known = append(known, P(x.Pos))
	}
	seen := map[string]bool{}
	for _, l := range loops {
		if seen[l.p.String()] || unscored(l.p) {
			continue
		}
		seen[l.p.String()] = true
		ok := false
		for _, k := range known {
			if near(l.p, k, 2) {
				ok = true
			}
		}
		if !ok {
			r.InventedLoops = append(r.InventedLoops, l.p.String()+" ("+l.loop.Func+")")
		}
	}

	// Vet.
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(vetOut, &tree); err != nil {
		return fmt.Errorf("decoding vet JSON: %w", err)
	}
	found := map[string]bool{}
	pkgs := make([]string, 0, len(tree))
	for k := range tree {
		pkgs = append(pkgs, k)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		checks := make([]string, 0, len(tree[pkg]))
		for c := range tree[pkg] {
			checks = append(checks, c)
		}
		sort.Strings(checks)
		for _, check := range checks {
			var ds []struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(tree[pkg][check], &ds); err != nil {
				continue // {"error": ...}: a failed analysis, reported by the exit status
			}
			for _, d := range ds {
				p := P(d.Posn)
				fd := Finding{Check: check, Pos: p.String(), Message: d.Message, Verdict: "false"}
				if unscored(p) {
					fd.Verdict = "unscored"
				}
				for _, df := range t.Defects {
					if !slices.Contains(append([]string{df.Check}, df.AlsoChecks...), check) {
						continue
					}
					for _, w := range append([]string{df.Pos}, df.AlsoPos...) {
						if near(p, P(w), 1) {
							fd.Verdict, fd.Defect = "true", df.ID
						}
					}
				}
				if fd.Verdict == "false" {
					for _, a := range t.Arguable {
						if (a.Check == "*" || a.Check == check) && near(p, P(a.Pos), 1) {
							fd.Verdict = "arguable"
						}
					}
				}
				if fd.Verdict == "false" {
					for _, a := range t.MustNotFlag {
						if (a.Check == "*" || a.Check == check) && near(p, P(a.Pos), 1) {
							fd.MustNot = true
						}
					}
				}
				switch fd.Verdict {
				case "true":
					r.VetTrue++
					found[fd.Defect] = true
				case "false":
					r.VetFalse++
				case "arguable":
					r.VetArguable++
				}
				r.Findings = append(r.Findings, fd)
			}
		}
	}
	r.Defects = len(t.Defects)
	for _, df := range t.Defects {
		if found[df.ID] {
			r.DefectsFound++
		} else {
			r.MissedDefects = append(r.MissedDefects, df.ID+" "+df.Check+" @ "+df.Pos)
		}
	}
	scoreVocabulary(t, mapOut, r)
	r.ByKind = map[string][2]int{}
	for _, f := range r.FactList {
		k := r.ByKind[f.Kind]
		k[1]++
		if f.OK {
			k[0]++
		}
		r.ByKind[f.Kind] = k
		if f.IsExit {
			r.Exits++
			if f.OK {
				r.ExitsOK++
			}
		} else {
			r.Facts++
			if f.OK {
				r.FactsOK++
			}
		}
	}
	return nil
}

func total(rs []*Result) *Result {
	t := &Result{Project: "total", ByKind: map[string][2]int{}}
	for _, r := range rs {
		t.FactsOK += r.FactsOK
		t.Facts += r.Facts
		t.ExitsOK += r.ExitsOK
		t.Exits += r.Exits
		t.VetTrue += r.VetTrue
		t.VetFalse += r.VetFalse
		t.VetArguable += r.VetArguable
		t.DefectsFound += r.DefectsFound
		t.VocabOK += r.VocabOK
		t.Vocab += r.Vocab
		t.Defects += r.Defects
		t.InventedLoops = append(t.InventedLoops, r.InventedLoops...)
		for k, v := range r.ByKind {
			c := t.ByKind[k]
			c[0] += v[0]
			c[1] += v[1]
			t.ByKind[k] = c
		}
	}
	return t
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", (a*100+b/2)/b)
}

func writeTable(w io.Writer, rs []*Result, verbose bool) {
	vocab := false
	for _, r := range rs {
		vocab = vocab || r.Vocab > 0
	}
	hdr, sep := "", ""
	if vocab {
		hdr, sep = " vocabulary |", "---|"
	}
	fmt.Fprintln(w, "| project | module@version | facts | exits | vet true | vet false | vet arguable | defects found | invented loops |"+hdr)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|"+sep)
	withInvented := 0
	for _, r := range rs {
		mv := r.Module + "@" + r.Version
		if r.Version == "" || strings.Contains(r.Module, r.Version) {
			mv = r.Module
		}
		switch {
		case r.MapError != "" && r.VetError != "":
			mv += " (**map and vet failed**)"
		case r.MapError != "":
			mv += " (**map failed**)"
		case r.VetError != "":
			mv += " (**vet failed**)"
		case r.Error != "":
			mv += " (**error**)"
		}
		if len(r.InventedLoops) > 0 {
			withInvented++
		}
		voc := ""
		if vocab {
			voc = fmt.Sprintf(" %d/%d |", r.VocabOK, r.Vocab)
		}
		fmt.Fprintf(w, "| %s | %s | %d/%d | %d/%d | %d | %d | %d | %d/%d | %d |%s\n", r.Project, mv, r.FactsOK, r.Facts, r.ExitsOK, r.Exits,
			r.VetTrue, r.VetFalse, r.VetArguable, r.DefectsFound, r.Defects, len(r.InventedLoops), voc)
	}
	t := total(rs)
	voc := ""
	if vocab {
		voc = fmt.Sprintf(" %d/%d |", t.VocabOK, t.Vocab)
	}
	fmt.Fprintf(w, "| **total** | %d projects | **%d/%d (%s)** | **%d/%d (%s)** | %d | %d (%s of true+false) | %d | **%d/%d** | %d in %d projects |%s\n",
		len(rs), t.FactsOK, t.Facts, pct(t.FactsOK, t.Facts), t.ExitsOK, t.Exits, pct(t.ExitsOK, t.Exits),
		t.VetTrue, t.VetFalse, pct(t.VetFalse, t.VetTrue+t.VetFalse), t.VetArguable, t.DefectsFound, t.Defects, len(t.InventedLoops), withInvented, voc)
	fmt.Fprintln(w)
	kinds := make([]string, 0, len(t.ByKind))
	for k := range t.ByKind {
		kinds = append(kinds, k)
	}
	order := []string{"entry", "loop", "bound", "default", "on_bound", "model_call", "tool_call", "parallel_tools", "checks_cancel", "id", "exit"}
	sort.Slice(kinds, func(i, j int) bool { return slices.Index(order, kinds[i]) < slices.Index(order, kinds[j]) })
	fmt.Fprint(w, "| fact kind |")
	for _, k := range kinds {
		fmt.Fprintf(w, " %s |", k)
	}
	fmt.Fprint(w, "\n|---|")
	for range kinds {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprint(w, "\n| correct |")
	for _, k := range kinds {
		fmt.Fprintf(w, " %d/%d |", t.ByKind[k][0], t.ByKind[k][1])
	}
	fmt.Fprintln(w)
	for _, r := range rs {
		if r.Error != "" {
			fmt.Fprintf(w, "\n%s: error: %s\n", r.Project, r.Error)
		}
	}
	if !verbose {
		return
	}
	for _, r := range rs {
		fmt.Fprintf(w, "\n### %s\n\n", r.Project)
		for _, f := range r.FactList {
			if !f.OK {
				got := f.Got
				if got == "" {
					got = "nothing"
				}
				fmt.Fprintf(w, "- missed %s %s: want %s, got %s\n", f.Kind, f.ID, f.Want, got)
			}
		}
		for _, d := range r.MissedDefects {
			fmt.Fprintf(w, "- defect not found: %s\n", d)
		}
		for _, fd := range r.Findings {
			if fd.Verdict == "false" {
				extra := ""
				if fd.MustNot {
					extra = " (a must-not-flag place)"
				}
				fmt.Fprintf(w, "- false positive %s @ %s%s: %s\n", fd.Check, fd.Pos, extra, firstLine(fd.Message))
			}
		}
		for _, l := range r.InventedLoops {
			fmt.Fprintf(w, "- invented turn loop %s\n", l)
		}
		for _, word := range r.MissedWords {
			fmt.Fprintf(w, "- framework word not in the map: %s\n", word)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// rebase makes p relative to root when lifeline printed it relative to one of the mapped paths
// (the file is missing at root/p but present at root/path/p, for exactly one path).
func rebase(p pos, root string, paths []string) pos {
	if root == "" || p.file == "" || filepath.IsAbs(p.file) {
		return p
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p.file))); err == nil {
		return p
	}
	var hit string
	for _, dir := range paths {
		cand := pathJoin(dir, p.file)
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(cand))); err == nil {
			if hit != "" {
				return p // ambiguous
			}
			hit = cand
		}
	}
	if hit != "" {
		p.file = hit
	}
	return p
}

func pathJoin(dir, file string) string {
	dir = strings.TrimSuffix(filepath.ToSlash(dir), "/")
	if dir == "" || dir == "." {
		return file
	}
	return dir + "/" + file
}

// sameValue compares a default as printed and as written in the truth, ignoring spaces and
// quotes ("'auto'" and "auto").
func sameValue(got, want string) bool {
	clean := func(s string) string {
		s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
		return strings.Trim(s, "\"'`")
	}
	return clean(got) != "" && clean(got) == clean(want)
}

// vocabSkip are the map JSON keys whose strings are not the map's own words: source lines,
// names and positions (a loop in run_single_turn does not teach that a turn is a Step).
var vocabSkip = map[string]bool{"source": true, "func": true, "callee": true, "via": true, "pos": true,
	"detail": true, "what": true, "expr": true, "value": true, "evidence": true, "packages": true,
	"module": true, "default_pos": true, "cancel_pos": true}

// scoreVocabulary counts the truth's vocabulary layers whose framework word appears in the map
// JSON outside source lines, names and positions, in one string together with the lifeline
// layer it stands for (case-insensitive, whole words: "SDK turn = Step" teaches that an OpenAI
// Agents turn is a Step; "turn" alone does not, lifeline has Turns of its own).
func scoreVocabulary(t *Truth, mapOut []byte, r *Result) {
	var tree any
	if err := json.Unmarshal(mapOut, &tree); err != nil {
		return
	}
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !vocabSkip[k] {
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			texts = append(texts, strings.ToLower(v))
		}
	}
	walk(tree)
	for _, w := range t.Vocabulary {
		r.Vocab++
		ok := false
		for _, word := range w.Words {
			for _, s := range texts {
				if containsWord(s, strings.ToLower(word)) && containsWord(s, strings.ToLower(w.Layer)) {
					ok = true
				}
			}
		}
		if ok {
			r.VocabOK++
		} else {
			r.MissedWords = append(r.MissedWords, w.Layer+" = "+strings.Join(w.Words, " / "))
		}
	}
}

// containsWord reports whether w occurs in s with no letter, digit or underscore on either side.
func containsWord(s, w string) bool {
	if w == "" {
		return false
	}
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !isWord(s[j-1])) && (end == len(s) || !isWord(s[end])) {
			return true
		}
		i = j + 1
	}
}

// truthPositions lists every position of a truth with a label: entries, loops, bounds and their
// defaults, on-bound places, call sites and the calls that lead to them, boolean facts' places,
// exits, id sites, and the defect, arguable, must-not-flag, not-turn-loop and extra-loop places.
func truthPositions(t *Truth) [][2]string {
	var out [][2]string
	add := func(label, p string) {
		if p != "" {
			out = append(out, [2]string{label, p})
		}
	}
	for _, e := range t.Entries {
		add(e.ID, e.Pos)
		for _, l := range e.Loops {
			add(l.ID, l.Pos)
			if l.Bound != nil {
				add(l.Bound.ID, l.Bound.Pos)
				add(l.Bound.ID+".default", l.Bound.DefaultPos)
			}
			if l.OnBound != nil {
				add(l.OnBound.ID, l.OnBound.Pos)
			}
			for _, c := range append(append([]TCall{}, l.ModelCalls...), l.ToolCalls...) {
				add(c.ID, c.Pos)
				for _, v := range c.Via {
					add(c.ID+".via", v)
				}
			}
			add(l.ParallelTools.ID, l.ParallelTools.Pos)
			add(l.ChecksCancel.ID, l.ChecksCancel.Pos)
		}
		for _, x := range e.Exits {
			add(x.ID, x.Pos)
		}
		for _, i := range e.IDs {
			add(i.ID, i.Pos)
			for _, v := range i.Via {
				add(i.ID+".via", v)
			}
		}
	}
	for _, d := range t.Defects {
		add(d.ID, d.Pos)
		for _, p := range d.AlsoPos {
			add(d.ID+".also", p)
		}
	}
	for _, f := range t.Arguable {
		add("arguable "+f.Check, f.Pos)
	}
	for _, f := range t.MustNotFlag {
		add("must_not_flag "+f.Check, f.Pos)
	}
	for _, f := range t.NotTurnLoops {
		add("not_turn_loop", f.Pos)
	}
	for _, f := range t.ExtraLoops {
		add("extra_loop", f.Pos)
	}
	return out
}

// checkPositions prints each position of t with the source line it names under root and returns
// how many name a missing file or a line past the file's end.
func checkPositions(w io.Writer, t *Truth, root string) int {
	bad := 0
	lines := map[string][]string{}
	for _, lp := range truthPositions(t) {
		p := parsePos(lp[1], "", "")
		src, ok := lines[p.file]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.file)))
			if err == nil {
				src = strings.Split(string(b), "\n")
			}
			lines[p.file] = src
		}
		text := "!! missing file"
		switch {
		case src == nil:
			bad++
		case p.line < 1 || p.line > len(src):
			text = "!! no such line"
			bad++
		default:
			text = strings.TrimSpace(src[p.line-1])
			if len(text) > 100 {
				text = text[:100] + "…"
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.Project, lp[0], lp[1], text)
	}
	return bad
}
