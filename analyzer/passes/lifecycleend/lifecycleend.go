package lifecycleend

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

//go:embed doc.go
var doc string

// Analyzer reports lifecycle starts that are not ended on every path.
var Analyzer = &analysis.Analyzer{
	Name:     "lifecycleend",
	Doc:      analysisutil.MustExtractDoc(doc, "lifecycleend"),
	URL:      analysisutil.URL("lifecycleend"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer, ctrlflow.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var g *cfg.CFG
		switch fn := cur.Node().(type) {
		case *ast.FuncDecl:
			g = cfgs.FuncDecl(fn)
		case *ast.FuncLit:
			g = cfgs.FuncLit(fn)
		}
		if g == nil {
			continue
		}
		for _, b := range g.Blocks {
			for _, n := range b.Nodes {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 {
					continue
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok {
					continue
				}
				end := ""
				for _, bd := range res.CallRoles(call) {
					if bd.Role == roles.SpanStart {
						end = bd.Rule.End
						if end == "" {
							end = "End"
						}
					}
				}
				if end == "" {
					end = pairedEnd(pass, call)
				}
				if end == "" {
					continue
				}
				check(pass, g, as, call, end)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, g *cfg.CFG, as *ast.AssignStmt, call *ast.CallExpr, end string) {
	// The span is the assigned variable whose type has the end method.
	var span *ast.Ident
	var endSig *types.Signature
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		t := pass.TypesInfo.TypeOf(id)
		if id.Name == "_" {
			if tup, ok := pass.TypesInfo.TypeOf(call).(*types.Tuple); ok {
				for i := 0; i < tup.Len(); i++ {
					if i < len(as.Lhs) && as.Lhs[i] == l {
						t = tup.At(i).Type()
					}
				}
			} else {
				t = pass.TypesInfo.TypeOf(call)
			}
		}
		if t == nil {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, pass.Pkg, end)
		if fn, ok := obj.(*types.Func); ok {
			span, endSig = id, fn.Type().(*types.Signature)
			break
		}
	}
	if span == nil {
		return
	}
	name := analysisutil.Render(pass.Fset, call.Fun, 40)
	if span.Name == "_" {
		analysisutil.Reportf(pass, span.Pos(), "the span started by %s is discarded, so it can never be ended: timelines show it open forever", name)
		return
	}
	obj := pass.TypesInfo.ObjectOf(span)
	if v, ok := obj.(*types.Var); !ok || v.Parent() == nil || v.Parent() == pass.Pkg.Scope() {
		return
	}
	info := pass.TypesInfo
	// the containers the span is stored in (spans[c.ID] = span): storing it is no end; ending
	// an element of one (spans[r.ID].End(), for _, s := range spans { s.End() }) is
	held := storedIn(info, g, obj)
	elems := elementVars(info, g, held)
	// the ranges over a container that end each element (for _, s := range spans { s.End() }):
	// the range's operand, evaluated before the loop, stands for ending them all
	endAll := map[ast.Node]bool{}
	for _, b := range g.Blocks {
		if rs, ok := b.Stmt.(*ast.RangeStmt); ok && b.Kind == cfg.KindRangeLoop && len(held) > 0 {
			if id, ok := ast.Unparen(rs.X).(*ast.Ident); ok && held[info.ObjectOf(id)] && endsElement(info, rs.Body, held, elems, end) {
				endAll[rs.X] = true
			}
		}
	}
	stop := func(n ast.Node) bool {
		if len(held) > 0 && storesOnly(info, n, obj, held) {
			return false
		}
		return analysisutil.Mentions(info, n, obj) || endAll[n] || len(held) > 0 && (endsElement(info, n, held, elems, end) || testsLen(info, n, held))
	}
	var errObj types.Object
	if len(as.Lhs) > 1 {
		if id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident); ok && id != span && id.Name != "_" {
			if o := info.ObjectOf(id); o != nil && roles.IsError(o.Type()) {
				errObj = o
			}
		}
	}
	ret, found := searchOpen(info, g, as, errObj, stop)
	if !found {
		return
	}
	d := analysis.Diagnostic{
		Pos:     as.Pos(),
		End:     as.End(),
		Message: fmt.Sprintf("%s started by %s is not ended on every path: the span stays open in traces and timelines; call %s.%s on all paths (e.g. with defer)", span.Name, name, span.Name, end),
	}
	if ret != nil {
		d.Related = []analysis.RelatedInformation{{Pos: ret.Pos(), Message: "this return is reached without ending " + span.Name}}
	}
	if len(held) > 0 {
		// kept in a container to be ended when its call's result arrives: the missing end is
		// on the returns that leave it pending, not a defer after the start
		d.Message = fmt.Sprintf("%s started by %s is stored in %s and not ended on every path: a return leaves it open in traces and timelines; end the pending spans there", span.Name, name, heldNames(held))
	} else if endSig.Params().Len() == 0 || endSig.Variadic() && endSig.Params().Len() == 1 {
		indent, eol := lineInfo(pass, as)
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Defer %s.%s() after the start", span.Name, end),
			TextEdits: []analysis.TextEdit{{Pos: eol, End: eol, NewText: []byte("\n" + indent + "defer " + span.Name + "." + end + "()")}},
		}}
	}
	analysisutil.Report(pass, d)
}

// heldNames lists the containers' names.
func heldNames(held map[types.Object]bool) string {
	var names []string
	for o := range held {
		names = append(names, o.Name())
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// pairedEnd infers the end method of a start that no rule binds: a method call whose name
// holds "Start" (cm.OnChainStart) and whose result's type has the method named the same with
// "End" in its place (rm.OnChainEnd): a callback manager's run, ended by its pair.
func pairedEnd(pass *analysis.Pass, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !strings.Contains(sel.Sel.Name, "Start") {
		return ""
	}
	if _, isMethod := pass.TypesInfo.Uses[sel.Sel].(*types.Func); !isMethod {
		return ""
	}
	t := pass.TypesInfo.TypeOf(call)
	var first types.Type
	if tup, ok := t.(*types.Tuple); ok {
		if tup.Len() == 0 || tup.Len() > 2 || tup.Len() == 2 && !roles.IsError(tup.At(1).Type()) {
			return ""
		}
		first = tup.At(0).Type()
	} else {
		first = t
	}
	if first == nil {
		return ""
	}
	end := strings.Replace(sel.Sel.Name, "Start", "End", 1)
	if obj, _, _ := types.LookupFieldOrMethod(first, true, pass.Pkg, end); obj != nil {
		if _, ok := obj.(*types.Func); ok {
			return end
		}
	}
	return ""
}

// storedIn returns the local variables of container type (map, slice, array) that the span
// obj is stored into somewhere in g: spans[c.ID] = span, pending = append(pending, span).
func storedIn(info *types.Info, g *cfg.CFG, obj types.Object) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			if c := storeTarget(info, n, obj); c != nil {
				out[c] = true
			}
		}
	}
	return out
}

// storeTarget returns the container n stores obj into, or nil.
func storeTarget(info *types.Info, n ast.Node, obj types.Object) types.Object {
	as, ok := n.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	isObj := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(id) == obj
	}
	local := func(e ast.Expr) types.Object {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.Parent() == nil || v.Parent().Parent() == types.Universe {
			return nil
		}
		switch v.Type().Underlying().(type) {
		case *types.Map, *types.Slice, *types.Array:
			return v
		}
		return nil
	}
	switch l := as.Lhs[0].(type) {
	case *ast.IndexExpr:
		if isObj(as.Rhs[0]) {
			return local(l.X)
		}
	case *ast.Ident:
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) < 2 {
			return nil
		}
		if fn, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || fn.Name != "append" {
			return nil
		}
		if _, builtin := info.Uses[ast.Unparen(call.Fun).(*ast.Ident)].(*types.Builtin); !builtin {
			return nil
		}
		for _, a := range call.Args[1:] {
			if isObj(a) {
				if c := local(l); c != nil && c == local(call.Args[0]) {
					return c
				}
			}
		}
	}
	return nil
}

// storesOnly reports whether n does nothing with obj but store it into one of the containers.
func storesOnly(info *types.Info, n ast.Node, obj types.Object, held map[types.Object]bool) bool {
	c := storeTarget(info, n, obj)
	return c != nil && held[c]
}

// elementVars maps the variables read from an element of one of the containers (s :=
// spans[id]; s, ok := spans[id]; for _, s := range spans) to it.
func elementVars(info *types.Info, g *cfg.CFG, held map[types.Object]bool) map[types.Object]bool {
	out := map[types.Object]bool{}
	heldExpr := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && held[info.ObjectOf(id)]
	}
	add := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			if o := info.ObjectOf(id); o != nil {
				out[o] = true
			}
		}
	}
	for _, b := range g.Blocks {
		// (a range statement is no node of the graph: its loop block names it)
		if rs, ok := b.Stmt.(*ast.RangeStmt); ok && b.Kind == cfg.KindRangeLoop && heldExpr(rs.X) && rs.Value != nil {
			add(rs.Value)
		}
		for _, n := range b.Nodes {
			ast.Inspect(n, func(m ast.Node) bool {
				switch x := m.(type) {
				case *ast.FuncLit:
					return false
				case *ast.AssignStmt:
					if len(x.Rhs) == 1 && len(x.Lhs) >= 1 {
						if ix, ok := ast.Unparen(x.Rhs[0]).(*ast.IndexExpr); ok && heldExpr(ix.X) {
							add(x.Lhs[0])
						}
					}
				case *ast.RangeStmt:
					if heldExpr(x.X) && x.Value != nil {
						add(x.Value)
					}
				}
				return true
			})
		}
	}
	return out
}

// endsElement reports whether n calls the end method on an element of one of the containers:
// spans[id].End(), or on a variable read from one (elems).
func endsElement(info *types.Info, n ast.Node, held, elems map[types.Object]bool, end string) bool {
	fromHeld := func(e ast.Expr) bool {
		if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
			if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok && held[info.ObjectOf(id)] {
				return true
			}
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && elems[info.ObjectOf(id)]
	}
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if found {
			return false
		}
		if _, lit := m.(*ast.FuncLit); lit {
			return false
		}
		call, ok := m.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && sel.Sel.Name == end && fromHeld(sel.X) {
			found = true
		}
		return !found
	})
	return found
}

// testsLen reports whether n is a condition on the length of one of the containers (if
// len(spans) == 0 { return nil }): the code keeps count of what is pending and leaves only
// when it says so; the path is not followed further.
func testsLen(info *types.Info, n ast.Node, held map[types.Object]bool) bool {
	e, ok := n.(ast.Expr)
	if !ok {
		return false
	}
	found := false
	ast.Inspect(e, func(m ast.Node) bool {
		call, ok := m.(*ast.CallExpr)
		if !ok || found || len(call.Args) != 1 {
			return !found
		}
		fn, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok || fn.Name != "len" {
			return true
		}
		if _, builtin := info.Uses[fn].(*types.Builtin); !builtin {
			return true
		}
		if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok && held[info.ObjectOf(id)] {
			found = true
		}
		return !found
	})
	return found
}

// searchOpen walks g forward from start and returns the first return (or the function's end)
// reached on a path that meets no node for which stop is true. With errObj (the error the start
// returns with the span), a path where errObj was tested non-nil and not reassigned since is
// the start's failure: no span was opened, nothing to end there.
func searchOpen(info *types.Info, g *cfg.CFG, start ast.Node, errObj types.Object, stop func(ast.Node) bool) (ast.Node, bool) {
	if errObj == nil {
		return analysisutil.Search(g, start, stop, analysisutil.IsReturn, true)
	}
	sb, si := analysisutil.NodeBlock(g, start)
	if sb == nil {
		return nil, false
	}
	// failed: errObj was tested non-nil on the path; tracking: errObj still holds the start's
	// error (not reassigned since)
	type state struct {
		b                *cfg.Block
		failed, tracking bool
	}
	seen := map[state]bool{}
	var visit func(st state, from int) (ast.Node, bool)
	visit = func(st state, from int) (ast.Node, bool) {
		b := st.b
		cond := -1
		if len(b.Succs) == 2 && len(b.Nodes) > 0 {
			cond = len(b.Nodes) - 1
		}
		for k := from; k < len(b.Nodes) && k != cond; k++ {
			n := b.Nodes[k]
			if n == start || stop(n) {
				return nil, false
			}
			if analysisutil.IsReturn(n) {
				if st.failed {
					return nil, false
				}
				return n, true
			}
			if st.tracking && assignsObj(info, n, errObj) {
				st.failed, st.tracking = false, false
			}
		}
		if len(b.Succs) == 0 && b.Live && !st.failed && b.Kind != cfg.KindSelectAfterCase {
			if len(b.Nodes) > 0 {
				return b.Nodes[len(b.Nodes)-1], true
			}
			return nil, true
		}
		var succ []state
		if cond >= 0 {
			c, _ := b.Nodes[cond].(ast.Expr)
			if c != nil && stop(c) {
				return nil, false
			}
			if c != nil && st.tracking {
				switch analysisutil.ErrTest(info, c, errObj) {
				case token.NEQ:
					succ = append(succ, state{b.Succs[0], true, true}, state{b.Succs[1], st.failed, true})
				case token.EQL:
					succ = append(succ, state{b.Succs[1], true, true}, state{b.Succs[0], st.failed, true})
				}
			}
		}
		if len(succ) == 0 {
			for _, x := range b.Succs {
				succ = append(succ, state{x, st.failed, st.tracking})
			}
		}
		for _, nx := range succ {
			if seen[nx] {
				continue
			}
			seen[nx] = true
			if n, ok := visit(nx, 0); ok {
				return n, true
			}
		}
		return nil, false
	}
	return visit(state{sb, false, true}, si+1)
}

// assignsObj reports whether n assigns obj (err = …, x, err := …).
func assignsObj(info *types.Info, n ast.Node, obj types.Object) bool {
	as, ok := n.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && (info.Defs[id] == obj || info.Uses[id] == obj) {
			return true
		}
	}
	return false
}

// lineInfo returns the indentation of n's line and the position of that line's end.
func lineInfo(pass *analysis.Pass, n ast.Node) (indent string, eol token.Pos) {
	tf := pass.Fset.File(n.Pos())
	p := pass.Fset.Position(n.Pos())
	data, err := pass.ReadFile(p.Filename)
	if err != nil || tf == nil {
		return "\t", n.End()
	}
	start := tf.Offset(tf.LineStart(p.Line))
	endOff := tf.Offset(n.End())
	for endOff < len(data) && data[endOff] != '\n' {
		endOff++
	}
	line := string(data[start:endOff])
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))], tf.Pos(endOff)
}
