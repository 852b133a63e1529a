package goir

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// stateLeaves reports whether blk, a block of loop l on a path back to its header, ends the
// loop's current work by writing its state: on the way back it stores a constant of a named
// type into a field (a.state = StateDone, or a setter a.setState(StateDone) storing its
// parameter there), and the loop compares that field (read directly or through a getter) with
// another constant of the type (if a.getState() == StateRunning { …step… }), so that the next
// iteration does not run the step: the loop is a state machine that waits for the next input
// or returns in the written state (a chat agent whose one for loop both waits for the user's
// next query and runs the steps of the current one: GoogleCloudPlatform/kubectl-ai
// pkg/agent/conversation.go, c.setAgentState(api.AgentStateDone); continue).
func stateLeaves(blk *ssa.BasicBlock, l *natLoop) bool {
	if l == nil || l.header == nil {
		return false
	}
	for i := 0; i < 8 && blk != nil && l.blocks[blk] && blk != l.header; i++ {
		for _, in := range blk.Instrs {

			if fv, c := stateWrite(in); fv != nil && loopTestsOther(l, fv, c) {
				return true
			}
		}
		if len(blk.Succs) != 1 {
			return false
		}
		blk = blk.Succs[0]
	}
	return false
}

// stateWrite returns the field and the constant an instruction writes as a state: a store of
// a constant of a named non-boolean basic type into a field, or a static call passing such a
// constant to a parameter that the callee stores into a field.
func stateWrite(in ssa.Instruction) (*types.Var, *ssa.Const) {
	switch x := in.(type) {
	case *ssa.Store:
		fa, ok := x.Addr.(*ssa.FieldAddr)
		c, isC := x.Val.(*ssa.Const)
		if ok && isC && stateConst(c) {
			return fieldOf(fa.X.Type(), fa.Field), c
		}
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil || len(callee.Blocks) == 0 {
			return nil, nil
		}
		args := x.Call.Args
		for i, a := range args {
			c, ok := a.(*ssa.Const)
			if !ok || !stateConst(c) || i >= len(callee.Params) {
				continue
			}
			p := callee.Params[i]
			for _, r := range *p.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Val == p {
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
						return fieldOf(fa.X.Type(), fa.Field), c
					}
				}
			}
		}
	}
	return nil, nil
}

// stateConst reports whether c is a constant of a named type whose underlying type is a
// string or an integer (an enum of phases), not a bool, a plain number or nil.
func stateConst(c *ssa.Const) bool {
	if c.Value == nil {
		return false
	}
	if _, ok := types.Unalias(c.Type()).(*types.Named); !ok {
		return false
	}
	b, ok := c.Type().Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsString|types.IsInteger) != 0
}

// loopTestsOther reports whether loop l compares the value of field fv with a constant of the
// same type other than c.
func loopTestsOther(l *natLoop, fv *types.Var, c *ssa.Const) bool {
	for blk := range l.blocks {
		for _, in := range blk.Instrs {
			bo, ok := in.(*ssa.BinOp)
			if !ok || bo.Op != token.EQL && bo.Op != token.NEQ {
				continue
			}
			k, v := bo.Y, bo.X
			if _, ok := bo.X.(*ssa.Const); ok {
				k, v = bo.X, bo.Y
			}
			kc, ok := k.(*ssa.Const)
			if !ok || kc.Value == nil || !types.Identical(kc.Type(), c.Type()) || constant.Compare(kc.Value, token.EQL, c.Value) {
				continue
			}

			if readsField(v, fv, 0) {
				return true
			}
		}
	}
	return false
}

// readsField reports whether v is a load of field fv, directly or as what a static call
// (a getter) returns.
func readsField(v ssa.Value, fv *types.Var, depth int) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			return fieldOf(fa.X.Type(), fa.Field) == fv
		}
		if al, ok := x.X.(*ssa.Alloc); ok && depth <= 2 {
			// a result slot (a getter with a deferred unlock: return a.state is stored into
			// the slot the deferred call runs before the return loads it)
			for _, r := range *al.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == al && readsField(st.Val, fv, depth+1) {
					return true
				}
			}
		}
	case *ssa.Field:
		return fieldOf(x.X.Type(), x.Field) == fv
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil || depth > 2 {
			return false
		}
		for _, blk := range callee.Blocks {

			if rt, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && len(rt.Results) == 1 {
				if readsField(rt.Results[0], fv, depth+1) {
					return true
				}
			}
		}
	}
	return false
}
