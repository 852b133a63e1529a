package lifecycle

import (
	_ "embed"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// Analyzer binds lifecycle roles and summarizes every function of a package; the lifeline
// checks and the map builder use its Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifecycle",
	Doc:        analysisutil.MustExtractDoc(doc, "lifecycle"),
	URL:        "https://github.com/lifeline-dev/lifeline/blob/main/docs/analyzer.md",
	Run:        analysisutil.Safe(run),
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Declared), new(Summary)},
}

var profileFlag string

// FactsOnly is Analyzer for a process that analyzes a package only for the facts its dependents
// import (go vet -vettool on a dependency, VetxOnly): the same name, flag, facts and result
// type, and the same facts, but its Result leaves out what only the package's own checks and
// map read. The structural recognizer runs only when the pass found loops of its own: its
// verdicts on those loops (dropped, cancellation) reach the facts; the loops it finds alone
// reach only the Result. Entries are not computed.
var FactsOnly *analysis.Analyzer

func init() {
	Analyzer.Flags.StringVar(&profileFlag, "profile", "", "comma-separated list of mapping profile files (JSON) to use besides the built-in ones")
	factsOnly := *Analyzer // after the flags: the copy shares them
	factsOnly.Run = analysisutil.Safe(func(pass *analysis.Pass) (any, error) { return runMode(pass, true) })
	FactsOnly = &factsOnly
}

// Result is what the lifecycle pass knows about one package.
type Result struct {
	// Loops are the turn loops held by this package's functions, and their retry loops
	// (Loop.Retry), which only the checks look at.
	Loops []*Loop
	// Entries are the run entry points of the package, as the lifecycle map shows them
	// (positions are absolute file names; the map builder makes them module-relative).
	Entries []model.Entry
	// Profiles names the profiles that bound at least one role here.
	Profiles []string

	st *state
	// mu serializes the checks that share this Result: they run concurrently on one package
	// and the role resolver caches as it goes.
	mu sync.Mutex
}

// Roles returns the roles bound to obj (directives, profiles, inference).
func (r *Result) Roles(obj types.Object) []roles.Binding {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.res.Roles(obj)
}

// Has reports whether obj plays role.
func (r *Result) Has(obj types.Object, role roles.Role) (roles.Binding, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.res.Has(obj, role)
}

// CallRoles returns the roles of the function a call calls: its own roles, or those of the
// named func type or role-bound function value it calls through.
func (r *Result) CallRoles(call *ast.CallExpr) []roles.Binding {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.callRoles(call)
}

func (r *Result) callRoles(call *ast.CallExpr) []roles.Binding {
	return r.st.callRoles(call)
}

// CallReaches reports whether a call is, or reaches through helpers, a call with role (only
// ModelCall and ToolCall are tracked through helpers).
func (r *Result) CallReaches(call *ast.CallExpr, role roles.Role) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.callRoles(call) {
		if b.Role == role {
			return true
		}
	}
	s := &siteSet{}
	if fn, ok := calleeObj(r.st.pass.TypesInfo, call.Fun).(*types.Func); ok {
		r.st.reach(s, fn.Origin(), call, false)
	}
	if role == roles.ModelCall {
		return len(s.model) > 0
	}
	if role == roles.ToolCall {
		return len(s.tool) > 0
	}
	return false
}

// StartsRun reports whether a call starts or drives a run: its callee is bound to run_entry,
// run_start or engine_call, or it runs a turn loop during the call (its summary or fact says
// so; building a graph or a closure that runs one later does not count).
func (r *Result) StartsRun(call *ast.CallExpr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.startsRunCall(call)
}

// StatusOf returns the canonical status a status constant expression stands for.
func (r *Result) StatusOf(e ast.Expr) (model.RunStatus, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.StatusOf(e)
}

// StopReasonOf returns the canonical stop reason a stop reason constant expression stands for.
func (r *Result) StopReasonOf(e ast.Expr) (model.StopReason, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.StopReasonOf(e)
}

// StatusWrites returns the status writes under root.
func (r *Result) StatusWrites(root ast.Node) []StatusWrite {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.writesIn(root)
}

// FieldRoles returns the roles of the struct field a selector or composite-literal key names
// (bound by profile key, directive, or for parent_id/attempt, by name as an inference).
func (r *Result) FieldRoles(recv types.Type, field *types.Var) []roles.Binding {
	r.mu.Lock()
	defer r.mu.Unlock()
	var bs []roles.Binding
	bs = append(bs, r.st.res.declared[field]...)
	bs = append(bs, r.st.res.table.Lookup(roles.FieldKey(recv, field.Name()))...)
	if len(bs) > 0 {
		return bs
	}
	inferred := func(role roles.Role) []roles.Binding {
		return []roles.Binding{{Role: role, Provenance: model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: field named " + field.Name()}}}
	}
	switch n := strings.ToLower(strings.ReplaceAll(field.Name(), "_", "")); n {
	case "parentrunid", "parentid", "parentrun":
		return inferred(roles.ParentID)
	case "attempt", "attemptnumber", "retryattempt":
		return inferred(roles.Attempt)
	}
	return nil
}

// IsToolImpl reports whether fn implements a tool: it is a method of a type that implements a
// tool interface (profile, directive or inferred), with the name of the interface's run method,
// or it carries a tool directive itself.
func (r *Result) IsToolImpl(fn *types.Func) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.st.res.Has(fn, roles.Tool); ok {
		return true
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || types.IsInterface(sig.Recv().Type()) {
		return false
	}
	if n := roles.NamedOf(sig.Recv().Type()); n != nil {
		if _, ok := r.st.res.Has(n.Obj(), roles.Tool); ok {
			return true
		}
	}
	for _, b := range r.st.res.implemented(fn) {
		if b.Role == roles.ToolCall {
			return true
		}
	}
	recv := sig.Recv().Type()
	for _, ti := range r.st.res.toolIfaces() {
		if ti.method != fn.Name() {
			continue
		}
		if types.Implements(recv, ti.iface) || types.Implements(types.NewPointer(recv), ti.iface) {
			return true
		}
	}
	return false
}

// IsCallbackType reports whether t is a func type or interface bound to the callback or tool
// role.
func (r *Result) IsCallbackType(t types.Type) (roles.Role, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := roles.NamedOf(t)
	if n == nil {
		return "", false
	}
	for _, b := range r.st.res.Roles(n.Obj()) {
		if b.Role == roles.Callback || b.Role == roles.Tool {
			return b.Role, true
		}
	}
	return "", false
}

// state is the per-package analysis state.
type state struct {
	pass  *analysis.Pass
	res   *resolver
	funcs map[*types.Func]*funcInfo
	order []*funcInfo
	lines map[string][]string
	// boundRets maps the return statements run when a loop bound is hit to their stop reason.
	boundRets map[token.Pos]model.StopReason
	// prog is the package's lifecycle IR when the recognizer ran on it.
	prog *ir.Program
}

type funcInfo struct {
	decl    *ast.FuncDecl
	obj     *types.Func
	al      aliases
	sites   *siteSet
	summary *Summary
	// loops are the turn loops of the function (closures included), retries its retry loops.
	loops, retries []*Loop
	// reached are the turn loops it holds or reaches through calls, even those it only builds
	// into closures that run later.
	reached []model.Loop
	// runs is true when a call of the function runs a turn loop (see runs.go); lits are its
	// function literals that run during the call.
	runs bool
	lits map[*ast.FuncLit]bool
}

// tables caches the role table of each -profile value: profiles are read once per process,
// whatever the number of packages analyzed in parallel.
var tables struct {
	sync.Mutex
	m map[string]*roles.Table
}

func loadTable(flag string) (*roles.Table, error) {
	tables.Lock()
	defer tables.Unlock()
	if t, ok := tables.m[flag]; ok {
		return t, nil
	}
	profiles := roles.Builtin()
	for _, path := range strings.Split(flag, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		ps, err := roles.LoadProfiles(path)
		if err != nil {
			return nil, err
		}
		profiles = append(ps, profiles...)
	}
	t := roles.NewTable(profiles...)
	if tables.m == nil {
		tables.m = map[string]*roles.Table{}
	}
	tables.m[flag] = t
	return t, nil
}

func run(pass *analysis.Pass) (any, error) { return runMode(pass, false) }

// runMode runs the pass; factsOnly skips what does not reach the facts (see FactsOnly).
func runMode(pass *analysis.Pass, factsOnly bool) (any, error) {
	if factsOnly && isStd(pass) {
		return &Result{}, nil // no facts, and no check reads this Result: the profiles are not even parsed
	}
	table, err := loadTable(profileFlag)
	if err != nil {
		return nil, fmt.Errorf("lifecycle: %w", err)
	}
	a := &state{pass: pass, funcs: map[*types.Func]*funcInfo{}, lines: map[string][]string{}, boundRets: map[token.Pos]model.StopReason{}}
	a.res = newResolver(pass, table)
	if len(a.res.errs) > 0 {
		return nil, errors.Join(a.res.errs...)
	}
	result := &Result{st: a}
	if isStd(pass) {
		return result, nil // fast path: the standard library holds no agent lifecycle
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			f := &funcInfo{decl: fd, obj: obj, summary: &Summary{}}
			a.funcs[obj] = f
			a.order = append(a.order, f)
		}
	}
	for _, f := range a.order {
		f.al = a.findAliases(f.decl.Body)
	}
	// Summaries, to a fixpoint over the package's call graph.
	for range 10 {
		changed := false
		for _, f := range a.order {
			s := a.scan(f.decl.Body, f.al)
			sum := &Summary{Model: s.model, Tool: s.tool, ChecksCancel: s.cancel.IsValid(), Writes: s.writes, MintsID: s.mintsID}
			if !sameSummary(sum, f.summary) {
				changed = true
			}
			f.summary, f.sites = sum, s
		}
		if !changed {
			break
		}
	}
	for _, f := range a.order {
		for _, l := range a.findLoops(f) {
			if l.Retry {
				f.retries = append(f.retries, l)
			} else {
				f.loops = append(f.loops, l)
			}
			result.Loops = append(result.Loops, l)
		}
	}
	if !factsOnly || len(result.Loops) > 0 {
		a.recognizeLoops(result, table)
	}
	// Loops reached through calls, to a fixpoint.
	for _, f := range a.order {
		for _, l := range f.loops {
			f.reached = addLoop(f.reached, l.Map)
		}
		for _, l := range f.sites.loops {
			f.reached = addLoop(f.reached, l)
		}
		for _, key := range f.sites.engines {
			for _, l := range a.engineLoops(key) {
				f.reached = addLoop(f.reached, l)
			}
		}
		if b, ok := a.res.Has(f.obj, roles.EngineCall); ok && b.Rule.Loop != "" {
			for _, l := range a.engineLoops(b.Rule.Loop) {
				f.reached = addLoop(f.reached, l)
			}
		}
	}
	for range 10 {
		changed := false
		for _, f := range a.order {
			for _, callee := range f.sites.calls {
				for _, l := range a.funcs[callee].reached {
					n := len(f.reached)
					f.reached = addLoop(f.reached, l)
					changed = changed || len(f.reached) != n
				}
			}
		}
		if !changed {
			break
		}
	}
	a.computeRuns()
	for _, f := range a.order {
		f.summary.Loops = f.reached
		f.summary.Runs = f.runs
		if !f.summary.empty() {
			pass.ExportObjectFact(f.obj, f.summary)
		}
	}
	if !factsOnly {
		result.Entries = a.entries()
	}
	for name := range a.res.used {
		result.Profiles = append(result.Profiles, name)
	}
	sort.Strings(result.Profiles)
	return result, nil
}

// goroot is the source root of the standard library.
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

// isStd reports whether the package is part of the standard library (its files are in GOROOT).
func isStd(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	return strings.HasPrefix(pass.Fset.File(pass.Files[0].Pos()).Name(), goroot)
}

// engineLoops returns the loops of the engine-loop function named by key.
func (a *state) engineLoops(key string) []model.Loop {
	fn := a.res.LookupFunc(key)
	if fn == nil {
		return nil
	}
	if fn.Pkg() == a.pass.Pkg {
		if f := a.funcs[fn]; f != nil {
			var ls []model.Loop
			for _, l := range f.loops {
				ls = append(ls, l.Map)
			}
			return ls
		}
		return nil
	}
	var s Summary
	if a.pass.ImportObjectFact(fn, &s) {
		return s.Loops
	}
	return nil
}

func addLoop(list []model.Loop, l model.Loop) []model.Loop {
	for _, x := range list {
		if x.Pos == l.Pos {
			return list
		}
	}
	return append(list, l)
}

func sameSummary(a, b *Summary) bool {
	return len(a.Model) == len(b.Model) && len(a.Tool) == len(b.Tool) && a.ChecksCancel == b.ChecksCancel &&
		len(a.Writes) == len(b.Writes) && a.MintsID == b.MintsID
}

// pos converts a token position to a map position (absolute file name).
func (a *state) pos(p token.Pos) model.Position {
	if !p.IsValid() {
		return model.Position{}
	}
	position := a.pass.Fset.Position(p)
	return model.Position{File: position.Filename, Line: position.Line}
}

// src returns the trimmed source line at p.
func (a *state) src(p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	position := a.pass.Fset.Position(p)
	lines, ok := a.lines[position.Filename]
	if !ok {
		data, err := a.pass.ReadFile(position.Filename)
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		a.lines[position.Filename] = lines
	}
	if position.Line < 1 || position.Line > len(lines) {
		return ""
	}
	s := strings.TrimSpace(lines[position.Line-1])
	if len([]rune(s)) > 120 {
		s = string([]rune(s)[:119]) + "…"
	}
	return s
}

// funcName names the function holding a loop: the declaration, or "decl.func1"-style for a
// closure, with the variable it is assigned to when there is one.
func (a *state) funcName(f *funcInfo, fn ast.Node) string {
	name := roles.ShortName(roles.Key(f.obj))
	if lit, ok := fn.(*ast.FuncLit); ok {
		var v string
		ast.Inspect(f.decl.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, r := range as.Rhs {
					if r == lit {
						if id, ok := as.Lhs[i].(*ast.Ident); ok {
							v = id.Name
						}
					}
				}
			}
			return v == ""
		})
		if v != "" {
			return name + " (closure " + v + ")"
		}
		return name + " (closure)"
	}
	return name
}

// ProfileTable returns the role table of the built-in profiles and the -profile files, as the
// pass uses it (the recognizer of analyzer/recognize confirms and vetoes roles with it).
func ProfileTable() (*roles.Table, error) { return loadTable(profileFlag) }

// LoopSiteVia reports whether a call is, or reaches through functions of this package (up to
// four calls deep, closures included), a model or tool call site (by role) of one of the
// package's turn loops: the recognizer's sites carry no roles of their own, so CallReaches does
// not see them.
func (r *Result) LoopSiteVia(call *ast.CallExpr, role roles.Role) bool {
	return r.loopSite(call, role, 4)
}

// LoopSite reports whether a call is itself a model or tool call site (by role) of one of the
// package's turn loops.
func (r *Result) LoopSite(call *ast.CallExpr, role roles.Role) bool {
	return r.loopSite(call, role, 0)
}

func (r *Result) loopSite(call *ast.CallExpr, role roles.Role, maxDepth int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	fset := r.st.pass.Fset
	sites := map[model.Position]bool{}
	for _, l := range r.Loops {
		for _, m := range []*model.Loop{&l.Map, l.Recognized} {
			if m == nil {
				continue
			}
			cs := m.ModelCalls
			if role == roles.ToolCall {
				cs = m.ToolCalls
			}
			for _, c := range cs {
				sites[model.Position{File: c.Pos.File, Line: c.Pos.Line}] = true
			}
		}
	}
	if len(sites) == 0 {
		return false
	}
	at := func(n ast.Node) bool {
		p := fset.Position(n.Pos())
		return sites[r.st.pos(n.Pos())] || sites[model.Position{File: p.Filename, Line: p.Line}]
	}
	seen := map[*funcInfo]bool{}
	var walk func(c *ast.CallExpr, depth int) bool
	walk = func(c *ast.CallExpr, depth int) bool {
		if at(c) {
			return true
		}
		fn, ok := calleeObj(r.st.pass.TypesInfo, c.Fun).(*types.Func)
		if !ok || depth >= maxDepth {
			return false
		}
		g := r.st.funcs[fn.Origin()]
		if g == nil || seen[g] || g.decl.Body == nil {
			return false
		}
		seen[g] = true
		found := false
		ast.Inspect(g.decl.Body, func(n ast.Node) bool {
			if inner, ok := n.(*ast.CallExpr); ok && !found {
				found = walk(inner, depth+1)
			}
			return !found
		})
		return found
	}
	return walk(call, 0)
}
