package lifecycleend

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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
	stop := func(n ast.Node) bool { return analysisutil.Mentions(pass.TypesInfo, n, obj) }
	ret, found := analysisutil.Search(g, as, stop, analysisutil.IsReturn, true)
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
	if endSig.Params().Len() == 0 || endSig.Variadic() && endSig.Params().Len() == 1 {
		indent, eol := lineInfo(pass, as)
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Defer %s.%s() after the start", span.Name, end),
			TextEdits: []analysis.TextEdit{{Pos: eol, End: eol, NewText: []byte("\n" + indent + "defer " + span.Name + "." + end + "()")}},
		}}
	}
	analysisutil.Report(pass, d)
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
