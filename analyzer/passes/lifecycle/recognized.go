package lifecycle

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// recognizeLoops runs the structural recognizer (analyzer/goir → analyzer/recognize) on the
// package and reconciles the pass's loops with it, so that the checks see the recognizer's
// turn loops:
//   - a loop the pass inferred from names only (every element inferred) that the recognizer
//     does not find is dropped (a loop over a finite slice around a database write);
//   - a loop both find takes the recognizer's cancellation verdict (a check must be on every
//     iteration's path: a ctx.Done() inside a retry backoff does not count);
//   - a loop only the recognizer finds is added.
//
// SSA is built only for packages with a loop around a call whose result is inspected (see
// worthRecognizing): the others hold no turn loop the recognizer could find.
func (a *state) recognizeLoops(result *Result, table *roles.Table) {
	var res *recognize.Result
	if a.worthRecognizing() {
		prog, err := goir.BuildSources(a.pass.Fset, []goir.Source{{Types: a.pass.Pkg, Syntax: a.pass.Files, TypesInfo: a.pass.TypesInfo}})
		if err != nil {
			return // SSA could not be built: keep the pass's own loops
		}
		res = recognize.Recognize(prog, recognize.Options{Table: table})
		a.prog = prog
	} else {
		// no loop inspects what it calls: the recognizer would find no turn loop here
		res = &recognize.Result{}
	}
	found := map[model.Position]*recognize.Loop{}
	for _, l := range res.Loops {
		found[l.Map.Pos] = l
	}
	have := map[model.Position]bool{}
	kept := result.Loops[:0]
	for _, l := range result.Loops {
		have[l.Map.Pos] = true
		rl := found[l.Map.Pos]
		if rl == nil && !l.Retry && inferredOnly(l.Map) {
			if a.finiteRange(l.Node) {
				continue // a loop over a finite collection the agent shape does not support
			}
			if a.prog != nil && leaves(l.Node) && !a.tested(l.Map) && !a.leavesOnlyOnError(l.Node) {
				continue // it leaves, but not on what its "model call" returns: not a decision
			}
			if a.prog != nil && recognize.UserSession(a.prog, l.Map.Pos.File, l.Map.Pos.Line) {
				continue // every iteration waits for the user's line: a session the user ends
			}
		}
		if rl != nil {
			l.Retry = false // tool results feed the next call: a turn loop, not a retry
			l.Recognized = &rl.Map
		}
		if rl != nil && l.Map.Provenance.Confidence == model.ConfidenceInferred {
			l.Map.ChecksCancel, l.Map.CancelPos = rl.Map.ChecksCancel, rl.Map.CancelPos
			if !rl.Map.ChecksCancel {
				l.CancelPos = token.NoPos
			}
			if l.Map.Bound == nil && rl.Map.Bound != nil {
				// a bound the pass's counter rules miss (how much the history grew, a limit
				// checked in a helper, a stop-condition list): the recognizer's
				l.Map.Bound, l.Map.OnBound = rl.Map.Bound, rl.Map.OnBound
			}
		}
		kept = append(kept, l)
	}
	result.Loops = kept
	keptSet := map[*Loop]bool{}
	for _, l := range kept {
		keptSet[l] = true
	}
	for _, f := range a.order {
		fl := f.loops[:0]
		for _, l := range f.loops {
			if keptSet[l] {
				fl = append(fl, l)
			}
		}
		f.loops = fl
	}
	for _, rl := range res.Loops {
		if have[rl.Map.Pos] {
			continue
		}
		node, fn := a.nodeAt(rl)
		if node == nil {
			continue
		}
		l := &Loop{Node: node, Func: fn, Map: rl.Map, HasContext: sigHasContext(a.sigOf(fn)), Recognized: &rl.Map}
		for _, p := range rl.Func.Params {
			l.HasContext = l.HasContext || p.Kind == "context"
		}
		if !l.HasContext && rl.Func.Parent >= 0 {
			for _, p := range a.prog.Funcs[rl.Func.Parent].Params {
				l.HasContext = l.HasContext || p.Kind == "context"
			}
		}
		for _, f := range a.order {
			// the declaration a closure holding the loop is in (an iterator body of a Run
			// that takes an invocation context)
			if !l.HasContext && f.decl.Pos() <= node.Pos() && node.End() <= f.decl.End() {
				l.HasContext = sigHasContext(a.sigOf(f.decl))
			}
		}
		result.Loops = append(result.Loops, l)
	}
}

// tested reports whether one of a loop's model call sites has its result tested with a
// branch that leaves.
func (a *state) tested(l model.Loop) bool {
	for _, c := range l.ModelCalls {
		if recognize.TestedAt(a.prog, c.Pos.File, c.Pos.Line) {
			return true
		}
	}
	return recognize.LoopTested(a.prog, l.Pos.File, l.Pos.Line)
}

// leaves reports whether a condition-less for loop has a way out: a return, a break or a goto
// in its body outside nested function literals (a loop that never leaves is reported
// whatever it calls).
func leaves(n ast.Node) bool {
	var body ast.Node
	switch x := n.(type) {
	case *ast.ForStmt:
		if x.Cond != nil {
			return false // a counted loop: kept for the bound checks whatever its body does
		}
		body = x.Body
	default:
		return false
	}
	found := false
	ast.Inspect(body, func(m ast.Node) bool {
		switch y := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if y.Tok == token.BREAK || y.Tok == token.GOTO {
				found = true
			}
		}
		return !found
	})
	return found
}

// finiteRange reports whether n ranges over a finite collection (slice, array, map, string).
func (a *state) finiteRange(n ast.Node) bool {
	rs, ok := n.(*ast.RangeStmt)
	if !ok {
		return false
	}
	t := a.pass.TypesInfo.TypeOf(rs.X)
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	case *types.Pointer:
		_, arr := u.Elem().Underlying().(*types.Array)
		return arr
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// inferredOnly reports whether every element of a loop is inferred by the pass's name rules.
func inferredOnly(l model.Loop) bool {
	if l.Provenance.Confidence != model.ConfidenceInferred {
		return false
	}
	for _, c := range append(append([]model.CallSite{}, l.ModelCalls...), l.ToolCalls...) {
		if c.Provenance.Confidence != model.ConfidenceInferred {
			return false
		}
	}
	return true
}

// nodeAt finds the loop statement (or the recursive function) of a recognized loop, and the
// function holding it.
func (a *state) nodeAt(rl *recognize.Loop) (node, fn ast.Node) {
	for _, file := range a.pass.Files {
		if a.pass.Fset.File(file.Pos()).Name() != rl.Map.Pos.File {
			continue
		}
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if node != nil {
				return false
			}
			stack = append(stack, n)
			line := a.pass.Fset.Position(n.Pos()).Line
			match := false
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				match = rl.LoopID >= 0 && line == rl.Map.Pos.Line
			case *ast.FuncDecl, *ast.FuncLit:
				match = rl.LoopID < 0 && line == rl.Map.Pos.Line
			}
			if match {
				node = n
				for i := len(stack) - 1; i >= 0; i-- {
					switch stack[i].(type) {
					case *ast.FuncDecl, *ast.FuncLit:
						if stack[i] != n || rl.LoopID < 0 {
							fn = stack[i]
							return false
						}
					}
				}
			}
			return true
		})
	}
	return node, fn
}

// worthRecognizing is a cheap syntactic test: the package has a loop whose body compares a
// len(...) with a constant or ranges over a selector (tool calls in a result), and calls
// something.
func (a *state) worthRecognizing() bool {
	info := a.pass.TypesInfo
	found := false
	for id, obj := range info.Uses {
		// a read of the standard input: a loop around it may be a user session
		if v, ok := obj.(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "os" && v.Name() == "Stdin" && id != nil {
			return true
		}
	}
	for _, file := range a.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if found {
				return false
			}
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			default:
				return true
			}
			calls, inspects := false, false
			ast.Inspect(body, func(m ast.Node) bool {
				switch x := m.(type) {
				case *ast.CallExpr:
					if t, ok := info.Types[x]; ok && !t.IsVoid() {
						calls = true
					}
				case *ast.BinaryExpr:
					if c, ok := ast.Unparen(x.X).(*ast.CallExpr); ok {
						if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "len" {
							inspects = true
						}
					}
				case *ast.RangeStmt:
					if _, ok := ast.Unparen(x.X).(*ast.SelectorExpr); ok {
						if t := info.TypeOf(x.X); t != nil {
							if _, isSlice := t.Underlying().(*types.Slice); isSlice {
								inspects = true
							}
						}
					}
				}
				return true
			})
			found = calls && inspects
			return !found
		})
	}
	return found
}

// leavesOnlyOnError reports whether every way out of a condition-less loop (a return, a break
// or a goto outside nested loops and function literals) sits in the body of an `if err != nil`
// on an error value: the loop goes round again on success and stops on a failure, which is a
// turn loop with no final-answer exit, not a retry-until-success loop (that one leaves when the
// call succeeds).
func (a *state) leavesOnlyOnError(n ast.Node) bool {
	fs, ok := n.(*ast.ForStmt)
	if !ok || fs.Cond != nil {
		return false
	}
	exits, onError := 0, 0
	var walk func(m ast.Node, inErr bool)
	walk = func(m ast.Node, inErr bool) {
		ast.Inspect(m, func(x ast.Node) bool {
			switch y := x.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if x == m {
					return true
				}
				if _, ret := y.(*ast.FuncLit); ret {
					return false
				}
				// returns inside nested statements still leave; breaks there do not
				ast.Inspect(y, func(z ast.Node) bool {
					if _, ok := z.(*ast.FuncLit); ok {
						return false
					}
					if _, ok := z.(*ast.ReturnStmt); ok {
						exits++ // a return from a nested statement: counted as a plain exit
					}
					return true
				})
				return false
			case *ast.IfStmt:
				if x == m {
					return true
				}
				if y.Init != nil {
					walk(y.Init, inErr)
				}
				walk(y.Body, inErr || a.errNotNil(y.Cond))
				if y.Else != nil {
					walk(y.Else, inErr)
				}
				return false
			case *ast.ReturnStmt:
				exits++
				if inErr {
					onError++
				}
			case *ast.BranchStmt:
				if y.Tok == token.BREAK || y.Tok == token.GOTO {
					exits++
					if inErr {
						onError++
					}
				}
			}
			return true
		})
	}
	walk(fs.Body, false)
	return exits > 0 && exits == onError
}

// errNotNil reports whether cond is `x != nil` (either way round) with x of type error.
func (a *state) errNotNil(cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x := b.X
	if id, ok := ast.Unparen(b.X).(*ast.Ident); ok && id.Name == "nil" {
		x = b.Y
	} else if id, ok := ast.Unparen(b.Y).(*ast.Ident); !ok || id.Name != "nil" {
		return false
	}
	t := a.pass.TypesInfo.TypeOf(x)
	return t != nil && roles.IsError(t)
}
