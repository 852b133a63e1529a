package analysisutil

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// Search walks the control-flow graph g forward from just after node start (a node of one of
// g's blocks, or nil for the entry) and returns the first node for which hit is true on a path
// that meets no node for which stop is true. When atExit is true, falling off the end of the
// function (a live block without successors) counts as a hit and is returned as the block's
// last node, or the block itself when it has none. ok is false when no such path exists.
func Search(g *cfg.CFG, start ast.Node, stop, hit func(ast.Node) bool, atExit bool) (found ast.Node, ok bool) {
	var startBlock *cfg.Block
	startIndex := -1
	if start == nil {
		if len(g.Blocks) == 0 {
			return nil, false
		}
		startBlock = g.Blocks[0]
	} else {
		startBlock, startIndex = NodeBlock(g, start)
		if startBlock == nil {
			return nil, false
		}
	}
	seen := map[*cfg.Block]bool{}
	var visit func(b *cfg.Block, from int) (ast.Node, bool)
	visit = func(b *cfg.Block, from int) (ast.Node, bool) {
		for _, n := range b.Nodes[from:] {
			if stop(n) {
				return nil, false
			}
			if hit(n) {
				return n, true
			}
		}
		if len(b.Succs) == 0 && atExit && b.Live && b.Kind != cfg.KindSelectAfterCase {
			// (a select without a default after its last case: go/cfg's block for choosing
			// none, where the select blocks; no way out of the function)
			if len(b.Nodes) > 0 {
				return b.Nodes[len(b.Nodes)-1], true
			}
			return nil, true
		}
		for _, s := range b.Succs {
			if seen[s] {
				continue
			}
			seen[s] = true
			if n, ok := visit(s, 0); ok {
				return n, true
			}
		}
		return nil, false
	}
	return visit(startBlock, startIndex+1)
}

// Mentions reports whether n refers to obj anywhere (closures included), except as the
// left-hand side of a plain assignment, which overwrites rather than uses.
func Mentions(info *types.Info, n ast.Node, obj types.Object) bool {
	assigned := map[*ast.Ident]bool{}
	if as, ok := n.(*ast.AssignStmt); ok {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				assigned[id] = true
			}
		}
	}
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && !assigned[id] && info.ObjectOf(id) == obj {
			found = true
		}
		return !found
	})
	return found
}

// IsReturn reports whether n is a return statement.
func IsReturn(n ast.Node) bool {
	_, ok := n.(*ast.ReturnStmt)
	return ok
}

// EnclosingFunc returns the innermost *ast.FuncDecl or *ast.FuncLit of file that contains pos.
func EnclosingFunc(file *ast.File, n ast.Node) ast.Node {
	var best ast.Node
	ast.Inspect(file, func(m ast.Node) bool {
		if m == nil || m.Pos() > n.Pos() || m.End() < n.End() {
			return false
		}
		switch m.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			best = m
		}
		return true
	})
	return best
}

// NodeBlock returns the block of g that holds n and n's index in it (the last such block), or
// nil and -1.
func NodeBlock(g *cfg.CFG, n ast.Node) (*cfg.Block, int) {
	var nb *cfg.Block
	ni := -1
	for _, b := range g.Blocks {
		for i, m := range b.Nodes {
			if m == n {
				nb, ni = b, i
			}
		}
	}
	return nb, ni
}
