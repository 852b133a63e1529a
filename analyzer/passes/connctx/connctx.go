package connctx

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

//go:embed doc.go
var doc string

// Analyzer reports runs started with a connection-scoped context.
var Analyzer = &analysis.Analyzer{
	Name:     "connctx",
	Doc:      analysisutil.MustExtractDoc(doc, "connctx"),
	URL:      analysisutil.URL("connctx"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	if !hasConnRoot(pass.TypesInfo) {
		return nil, nil // no connection's context is read here: nothing can be tied to one
	}
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	pkg, funcs := buildSSA(pass)
	c := newChecker(pass, res, pkg, funcs)
	c.solve()
	c.report()
	return nil, nil
}

// hasConnRoot reports whether the package calls Context() on an *http.Request or a server
// stream: without one no context of the package is connection-scoped.
func hasConnRoot(info *types.Info) bool {
	for _, sel := range info.Selections {
		if sel.Kind() != types.MethodVal || sel.Obj().Name() != "Context" {
			continue
		}
		recv := sel.Recv()
		if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
			recv = sig.Recv().Type() // the declaring type, for a promoted method
		}
		if isRequest(recv) || isServerStream(recv) || isServerStream(sel.Recv()) {
			return true
		}
	}
	return false
}

// checker finds the run starts of a package whose context comes from a connection.
//
// A run start is a call the lifecycle pass says starts or drives a run (Result.StartsRun), or a
// call of a function of this package that passes one of its context parameters on to a run
// start or to the calls of a turn loop it holds (flows). A function of this package that shows
// run starts or turn loops in its body is judged by that data flow, not by its name or role: a
// Start(ctx) that launches its loop on context.Background() does not tie the run to ctx. One
// that shows neither (its role comes from a directive or a profile) passes all its contexts on.
type checker struct {
	pass  *analysis.Pass
	res   *lifecycle.Result
	pkg   *ssa.Package
	funcs []*ssa.Function
	t     *tracer
	// calls maps the Lparen of each call expression to it; starts caches StartsRun by Lparen.
	calls  map[token.Pos]*ast.CallExpr
	starts map[token.Pos]bool
	// loops are the spans of the package's turn loops (retry loops excluded).
	loops [][2]token.Pos
	// flows maps a function's parameter (index into Params) to the run start it reaches.
	flows       map[*ssa.Function]map[int]token.Pos
	transparent map[*ssa.Function]bool
	found       map[findKey]finding
}

type findKey struct {
	call ssa.CallInstruction
	arg  int
}

type finding struct {
	ci  ssa.CallInstruction
	arg int // index into ci.Common().Args
	o   origin
	via token.Pos // the run start a wrapper's call reaches, if the call is not one itself
}

func newChecker(pass *analysis.Pass, res *lifecycle.Result, pkg *ssa.Package, funcs []*ssa.Function) *checker {
	c := &checker{
		pass:        pass,
		res:         res,
		pkg:         pkg,
		funcs:       funcs,
		t:           newTracer(pkg, funcs),
		calls:       map[token.Pos]*ast.CallExpr{},
		starts:      map[token.Pos]bool{},
		flows:       map[*ssa.Function]map[int]token.Pos{},
		transparent: map[*ssa.Function]bool{},
		found:       map[findKey]finding{},
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				c.calls[call.Lparen] = call
			}
			return true
		})
	}
	for _, l := range res.Loops {
		if !l.Retry && l.Node != nil {
			c.loops = append(c.loops, [2]token.Pos{l.Node.Pos(), l.Node.End()})
		}
	}
	return c
}

// startsRun reports whether the call at lparen starts or drives a run (lifecycle pass).
func (c *checker) startsRun(lparen token.Pos) bool {
	if v, ok := c.starts[lparen]; ok {
		return v
	}
	v := false
	if call := c.calls[lparen]; call != nil {
		v = c.res.StartsRun(call)
	}
	c.starts[lparen] = v
	return v
}

func (c *checker) inLoop(p token.Pos) bool {
	for _, l := range c.loops {
		if l[0] <= p && p < l[1] {
			return true
		}
	}
	return false
}

// body returns the function of this package with a body that a call statically calls.
func (c *checker) body(common *ssa.CallCommon) *ssa.Function {
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg != c.pkg || len(callee.Blocks) == 0 {
		return nil
	}
	return callee
}

// isTransparent reports whether fn shows in its body (closures included) a run start or a
// turn loop, so that the data flow of its parameters says which contexts its runs get.
func (c *checker) isTransparent(fn *ssa.Function) bool {
	if v, ok := c.transparent[fn]; ok {
		return v
	}
	c.transparent[fn] = false // recursion
	v := false
	if syn := fn.Syntax(); syn != nil {
		for _, l := range c.loops {
			if syn.Pos() <= l[0] && l[0] < syn.End() {
				v = true
			}
		}
	}
	var visit func(f *ssa.Function)
	visit = func(f *ssa.Function) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if ci, ok := instr.(ssa.CallInstruction); ok && !v && c.startsRun(ci.Common().Pos()) {
					v = true
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			visit(anon)
		}
	}
	if !v {
		visit(fn)
	}
	c.transparent[fn] = v
	return v
}

// ctxArgs returns the indices into common.Args of the call's context arguments.
func ctxArgs(common *ssa.CallCommon) []int {
	sig := common.Signature()
	off := 0
	if !common.IsInvoke() && sig.Recv() != nil {
		off = 1
	}
	var out []int
	for j := off; j < len(common.Args); j++ {
		p := j - off
		if p >= sig.Params().Len() || (sig.Variadic() && p == sig.Params().Len()-1) {
			break
		}
		if roles.IsContext(sig.Params().At(p).Type()) {
			out = append(out, j)
		}
	}
	return out
}

// startArgs returns the context arguments of a call that become the context of a run, and for
// a call of a wrapper, the run start they reach.
func (c *checker) startArgs(common *ssa.CallCommon) (args []int, via []token.Pos) {
	if fn := c.body(common); fn != nil && c.isTransparent(fn) {
		for j := range common.Args {
			if at, ok := c.flows[fn][j]; ok {
				args, via = append(args, j), append(via, at)
			}
		}
		return args, via
	}
	if c.startsRun(common.Pos()) {
		args = ctxArgs(common)
		return args, make([]token.Pos, len(args))
	}
	return nil, nil
}

// addFlow records that parameter o reaches the run start at.
func (c *checker) addFlow(o origin, at token.Pos) bool {
	m := c.flows[o.fn]
	if m == nil {
		m = map[int]token.Pos{}
		c.flows[o.fn] = m
	}
	if _, ok := m[o.idx]; ok {
		return false
	}
	m[o.idx] = at
	return true
}

// solve follows the context of every run start to its roots, to a fixpoint over the
// package's wrappers: a parameter that reaches a run start makes the calls passing it run
// starts in turn.
func (c *checker) solve() {
	for changed := true; changed; {
		changed = false
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					ci, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					common := ci.Common()
					args, via := c.startArgs(common)
					for k, j := range args {
						at := via[k]
						if !at.IsValid() {
							at = common.Pos()
						}
						for _, o := range c.t.trace(common.Args[j]) {
							if o.conn() {
								key := findKey{ci, j}
								if _, ok := c.found[key]; !ok {
									c.found[key] = finding{ci: ci, arg: j, o: o, via: via[k]}
								}
							} else if c.addFlow(o, at) {
								changed = true
							}
						}
					}
					if len(args) > 0 || !c.inLoop(common.Pos()) {
						continue
					}
					// A call of a turn loop: the contexts it gets are the run's. Only the
					// parameters they come from matter here (they make the function's callers
					// run starts); a loop written in a handler itself is not a call to report.
					for _, j := range ctxArgs(common) {
						for _, o := range c.t.trace(common.Args[j]) {
							if !o.conn() && c.addFlow(o, common.Pos()) {
								changed = true
							}
						}
					}
				}
			}
		}
	}
}

// report reports the findings in source order.
func (c *checker) report() {
	fs := make([]finding, 0, len(c.found))
	for _, f := range c.found {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool {
		pi, pj := fs[i].ci.Common().Pos(), fs[j].ci.Common().Pos()
		if pi != pj {
			return pi < pj
		}
		if pi, pj := fs[i].ci.Pos(), fs[j].ci.Pos(); pi != pj {
			return pi < pj
		}
		return fs[i].arg < fs[j].arg
	})
	for _, f := range fs {
		c.reportOne(f)
	}
}

func (c *checker) reportOne(f finding) {
	common := f.ci.Common()
	var arg ast.Expr
	if call := c.calls[common.Pos()]; call != nil {
		if i := c.astArg(call, common, f.arg); i >= 0 && i < len(call.Args) {
			arg = call.Args[i]
		}
	}
	d := analysis.Diagnostic{Pos: f.ci.Pos()}
	if arg != nil {
		d.Pos, d.End = arg.Pos(), arg.End()
	}
	what, effect := "the HTTP request's context", "the client disconnecting cancels the run"
	if f.o.kind == fromStream {
		what, effect = "the gRPC stream's context", "the stream ending (the client cancelling or disconnecting) cancels the run"
	}
	var notes []string
	if arg == nil || f.o.pos < arg.Pos() || f.o.pos >= arg.End() {
		src := "Context()"
		if call := c.calls[f.o.pos]; call != nil {
			src = analysisutil.Render(c.pass.Fset, call, 60)
		}
		notes = append(notes, fmt.Sprintf("from %s at %s", src, c.where(f.o.pos)))
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: f.o.pos, Message: "the connection's context"})
	}
	if f.via.IsValid() {
		notes = append(notes, "reaching the run start at "+c.where(f.via))
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: f.via, Message: "the run start"})
	}
	note := ""
	if len(notes) > 0 {
		note = " (" + strings.Join(notes, ", ") + ")"
	}
	d.Message = "run started with " + what + note + ": " + effect + "; detach it with context.WithoutCancel or use a server-scoped context"
	if arg != nil {
		if fix, ok := c.fix(arg); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	analysisutil.Report(c.pass, d)
}

// astArg maps an index into common.Args to an index into the call expression's arguments.
func (c *checker) astArg(call *ast.CallExpr, common *ssa.CallCommon, j int) int {
	if !common.IsInvoke() && common.Signature().Recv() != nil {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodExpr {
				return j // T.M(recv, args...): the receiver is an argument
			}
		}
		return j - 1
	}
	return j
}

func (c *checker) where(p token.Pos) string {
	pos := c.pass.Fset.Position(p)
	return filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line)
}

// fix wraps arg in context.WithoutCancel: the run keeps the request's values (trace ids,
// auth) and loses its cancellation. It imports "context" when the file does not, and offers
// nothing where WithoutCancel does not exist (a file for Go before 1.21) or where the name
// "context" means something else.
func (c *checker) fix(arg ast.Expr) (analysis.SuggestedFix, bool) {
	file := analysisutil.FileOf(c.pass, arg.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	if v := c.pass.TypesInfo.FileVersions[file]; v != "" && version.Compare(v, "go1.21") < 0 {
		return analysis.SuggestedFix{}, false
	}
	scope := c.pass.Pkg.Scope().Innermost(arg.Pos())
	if scope == nil {
		return analysis.SuggestedFix{}, false
	}
	isContextPkg := func(obj types.Object) bool {
		pn, ok := obj.(*types.PkgName)
		return ok && pn.Imported().Path() == "context"
	}
	prefix := ""
	var edits []analysis.TextEdit
	found := false
	for _, imp := range file.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path != "context" {
			continue
		}
		name := "context"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch name {
		case "_":
			continue
		case ".":
			if _, obj := scope.LookupParent("WithoutCancel", arg.Pos()); obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "context" {
				prefix, found = "", true
			}
		default:
			if _, obj := scope.LookupParent(name, arg.Pos()); isContextPkg(obj) {
				prefix, found = name+".", true
			}
		}
		if found {
			break
		}
	}
	if !found {
		if _, obj := scope.LookupParent("context", arg.Pos()); obj != nil {
			return analysis.SuggestedFix{}, false // "context" is taken here
		}
		prefix = "context."
		edits = append(edits, importEdit(file))
	}
	edits = append(edits,
		analysis.TextEdit{Pos: arg.Pos(), End: arg.Pos(), NewText: []byte(prefix + "WithoutCancel(")},
		analysis.TextEdit{Pos: arg.End(), End: arg.End(), NewText: []byte(")")})
	return analysis.SuggestedFix{Message: "Detach the run with " + prefix + "WithoutCancel", TextEdits: edits}, true
}

// importEdit adds `import "context"` to a file that lacks it.
func importEdit(file *ast.File) analysis.TextEdit {
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			if g.Lparen.IsValid() && len(g.Specs) > 0 { // first in the first group
				p := g.Specs[0].Pos()
				return analysis.TextEdit{Pos: p, End: p, NewText: []byte("\"context\"\n\t")}
			}
			return analysis.TextEdit{Pos: g.End(), End: g.End(), NewText: []byte("\n\nimport \"context\"")}
		}
	}
	return analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport \"context\"")}
}
