package retryparent

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/internal/analysisutil"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

//go:embed doc.go
var doc string

// Analyzer reports retries that start a new run without parent id and attempt.
var Analyzer = &analysis.Analyzer{
	Name:     "retryparent",
	Doc:      analysisutil.MustExtractDoc(doc, "retryparent"),
	URL:      analysisutil.URL("retryparent"),
	Requires: []*analysis.Analyzer{lifecycle.Analyzer, inspect.Analyzer},
	Run:      analysisutil.Safe(run),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	finders := map[ast.Node]*retryFinder{}
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		isStart := false
		for _, b := range res.CallRoles(call) {
			if b.Role == roles.RunStart {
				isStart = true
			}
		}
		if !isStart {
			continue
		}
		fn, ok := enclosingFunc(cur)
		if !ok {
			continue
		}
		rf := finders[fn.Node()]
		if rf == nil {
			rf = newRetryFinder(pass, res, fn)
			finders[fn.Node()] = rf
		}
		if !rf.isRetry(cur) {
			continue
		}
		for _, arg := range call.Args {
			lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
			if !ok {
				if u, isU := ast.Unparen(arg).(*ast.UnaryExpr); isU && u.Op == token.AND {
					lit, ok = ast.Unparen(u.X).(*ast.CompositeLit)
				}
			}
			if !ok {
				continue
			}
			missing := missingFields(pass, res, lit)
			if len(missing) == 0 {
				continue
			}
			analysisutil.Reportf(pass, lit.Pos(), "retry starts a new run without %s: the new attempt looks unrelated to the run it retries; pass the failed run's id and attempt+1",
				strings.Join(missing, " and "))
		}
	}
	return nil, nil
}

// enclosingFunc is the innermost function declaration or literal around cur.
func enclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return c, true
	}
	return inspector.Cursor{}, false
}

// missingFields lists the parent-id and attempt fields of lit's struct type that lit leaves
// unset.
func missingFields(pass *analysis.Pass, res *lifecycle.Result, lit *ast.CompositeLit) []string {
	t := pass.TypesInfo.TypeOf(lit)
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	set := map[string]bool{}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				set[id.Name] = true
			}
		} else {
			return nil // positional literal sets every field
		}
	}
	var missing []string
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		for _, b := range res.FieldRoles(t, f) {
			if (b.Role == roles.ParentID || b.Role == roles.Attempt) && !set[f.Name()] {
				missing = append(missing, f.Name())
			}
		}
	}
	return missing
}
