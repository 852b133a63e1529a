package roles

import (
	"go/constant"
	"go/types"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Structural inference: what the analyzer assumes about code that no profile and no directive
// describes. Every inferred binding has confidence "inferred".

// canonical forms, matched as suffixes of a constant's normalized value or name.
var statusForms = []struct {
	suffix string
	status model.RunStatus
}{
	{"completed", model.StatusCompleted}, {"complete", model.StatusCompleted}, {"succeeded", model.StatusCompleted},
	{"success", model.StatusCompleted}, {"done", model.StatusCompleted}, {"finished", model.StatusCompleted},
	{"failed", model.StatusFailed}, {"failure", model.StatusFailed}, {"errored", model.StatusFailed},
	{"cancelled", model.StatusCancelled}, {"canceled", model.StatusCancelled}, {"aborted", model.StatusCancelled},
	{"running", model.StatusRunning}, {"inprogress", model.StatusRunning}, {"started", model.StatusRunning},
	{"queued", model.StatusQueued}, {"pending", model.StatusQueued},
	{"waiting", model.StatusWaiting}, {"paused", model.StatusWaiting}, {"interrupted", model.StatusWaiting},
}

var stopForms = []struct {
	suffix string
	reason model.StopReason
}{
	{"goalreached", model.StopGoalReached}, {"maxsteps", model.StopMaxSteps}, {"maxstep", model.StopMaxSteps},
	{"maxiterations", model.StopMaxSteps}, {"maxturns", model.StopMaxTurns}, {"maxturn", model.StopMaxTurns},
	{"timeout", model.StopTimeout}, {"deadline", model.StopTimeout}, {"budgetexceeded", model.StopBudgetExceeded},
	{"guardrail", model.StopGuardrail}, {"toolerror", model.StopToolError}, {"modelerror", model.StopModelError},
	{"cancelled", model.StopCancelled}, {"canceled", model.StopCancelled}, {"awaitingapproval", model.StopAwaitingApproval},
	{"error", model.StopError},
}

func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// constText returns the normalized string value of c if it is a string constant, and its
// normalized name.
func constText(c *types.Const) (value, name string) {
	if c.Val().Kind() == constant.String {
		value = normalize(constant.StringVal(c.Val()))
	}
	return value, normalize(c.Name())
}

// CanonicalStatus maps a constant of a status type to a canonical status by its value or name.
func CanonicalStatus(c *types.Const) (model.RunStatus, bool) {
	value, name := constText(c)
	for _, s := range []string{value, name} {
		if s == "" {
			continue
		}
		for _, f := range statusForms {
			if strings.HasSuffix(s, f.suffix) {
				return f.status, true
			}
		}
	}
	return "", false
}

// CanonicalStopReason maps a constant of a stop reason type to a canonical stop reason.
func CanonicalStopReason(c *types.Const) (model.StopReason, bool) {
	value, name := constText(c)
	for _, s := range []string{value, name} {
		if s == "" {
			continue
		}
		for _, f := range stopForms {
			if strings.HasSuffix(s, f.suffix) {
				return f.reason, true
			}
		}
	}
	return "", false
}

// ConstsOf returns the package-level constants of type tn declared in tn's package, sorted by
// name.
func ConstsOf(tn *types.TypeName) []*types.Const {
	if tn.Pkg() == nil {
		return nil
	}
	var cs []*types.Const
	scope := tn.Pkg().Scope()
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), tn.Type()) {
			cs = append(cs, c)
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name() < cs[j].Name() })
	return cs
}

func basicNamed(tn *types.TypeName) bool {
	b, ok := tn.Type().Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsString|types.IsInteger) != 0
}

// InferStatusType reports whether tn looks like a run status type: a string or integer type
// whose constants include at least two distinct terminal statuses and no loop-bound stop
// reason.
func InferStatusType(tn *types.TypeName) bool {
	if !basicNamed(tn) || InferStopReasonType(tn) {
		return false
	}
	seen := map[model.RunStatus]bool{}
	for _, c := range ConstsOf(tn) {
		if s, ok := CanonicalStatus(c); ok && s.Terminal() {
			seen[s] = true
		}
	}
	return len(seen) >= 2
}

// InferStopReasonType reports whether tn looks like a stop reason type: a string or integer type
// with constants for at least two stop reasons, one of them a bound or goal reason
// (max_steps, max_turns, goal_reached, budget_exceeded, guardrail).
func InferStopReasonType(tn *types.TypeName) bool {
	if !basicNamed(tn) {
		return false
	}
	seen := map[model.StopReason]bool{}
	specific := false
	for _, c := range ConstsOf(tn) {
		if r, ok := CanonicalStopReason(c); ok {
			seen[r] = true
			switch r {
			case model.StopMaxSteps, model.StopMaxTurns, model.StopGoalReached, model.StopBudgetExceeded, model.StopGuardrail:
				specific = true
			}
		}
	}
	return specific && len(seen) >= 2
}

func isContext(t types.Type) bool {
	n := NamedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool { return isContext(t) }

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsError reports whether t is the error type.
func IsError(t types.Type) bool { return isError(t) }

// carriesToolCalls reports whether t (a struct, pointer, slice, stream) has a field or method
// whose name says tool calls, looking two levels deep.
func carriesToolCalls(t types.Type, depth int, seen map[types.Type]bool) bool {
	if depth > 2 || t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		return carriesToolCalls(u.Elem(), depth, seen)
	case *types.Slice:
		return carriesToolCalls(u.Elem(), depth, seen)
	case *types.Named:
		for i := 0; i < u.NumMethods(); i++ {
			if toolCallName(u.Method(i).Name()) {
				return true
			}
		}
		if n := u.TypeArgs(); n != nil {
			for i := 0; i < n.Len(); i++ {
				if carriesToolCalls(n.At(i), depth+1, seen) {
					return true
				}
			}
		}
		return carriesToolCalls(u.Underlying(), depth, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if toolCallName(f.Name()) {
				return true
			}
			if carriesToolCalls(f.Type(), depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// DeliversToolCalls reports whether a value of type t carries tool calls or delivers values that
// do: a reply with ToolCalls, a channel of chunks carrying them, an iterator or a stream reader
// whose methods return them (Recv() (*Chunk, error)), three levels deep. A call whose result
// delivers tool calls is a model call, never a tool call.
func DeliversToolCalls(t types.Type) bool { return delivers(t, 0, map[types.Type]bool{}) }

func delivers(t types.Type, depth int, seen map[types.Type]bool) bool {
	if depth > 3 || t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if carriesToolCalls(t, 0, map[types.Type]bool{}) {
		return true
	}
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		return delivers(u.Elem(), depth, seen)
	case *types.Chan:
		return delivers(u.Elem(), depth+1, seen)
	case *types.Named:
		if n := u.TypeArgs(); n != nil {
			for i := 0; i < n.Len(); i++ {
				if delivers(n.At(i), depth+1, seen) {
					return true
				}
			}
		}
		for i := 0; i < u.NumMethods(); i++ {
			if sig, ok := u.Method(i).Type().(*types.Signature); ok && sig.Params().Len() == 0 {
				for j := 0; j < sig.Results().Len(); j++ {
					if delivers(sig.Results().At(j).Type(), depth+1, seen) {
						return true
					}
				}
			}
		}
		return delivers(u.Underlying(), depth, seen)
	case *types.Interface:
		for i := 0; i < u.NumMethods(); i++ {
			sig := u.Method(i).Type().(*types.Signature)
			if sig.Params().Len() > 0 {
				continue
			}
			for j := 0; j < sig.Results().Len(); j++ {
				if delivers(sig.Results().At(j).Type(), depth+1, seen) {
					return true
				}
			}
		}
	case *types.Signature:
		// an iterator: func(yield func(V, error) bool)
		if u.Params().Len() == 1 {
			if y, ok := u.Params().At(0).Type().Underlying().(*types.Signature); ok {
				for j := 0; j < y.Params().Len(); j++ {
					if delivers(y.Params().At(j).Type(), depth+1, seen) {
						return true
					}
				}
			}
		}
	}
	return false
}

// ResultDeliversToolCalls reports whether one of a signature's results (other than an error)
// delivers tool calls (DeliversToolCalls).
func ResultDeliversToolCalls(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if t := sig.Results().At(i).Type(); !isError(t) && DeliversToolCalls(t) {
			return true
		}
	}
	return false
}

// CarriesToolCalls reports whether t (a struct, pointer, slice, stream) has a field or method
// whose name says tool calls (ToolCalls, ToolRequests, FunctionCall), two levels deep.
func CarriesToolCalls(t types.Type) bool { return carriesToolCalls(t, 0, map[types.Type]bool{}) }

func toolCallName(name string) bool {
	n := normalize(name)
	return n == "toolcalls" || n == "toolcall" || n == "toolrequests" || n == "tooluses" || n == "functioncall" || n == "functioncalls"
}

// InferModelCall reports whether a function or method signature looks like a model call: it
// takes a context.Context first and returns a value that carries tool calls (a field or method
// named like ToolCalls/ToolRequests, up to two levels deep) plus an error. Only interface
// methods and func-typed values qualify: concrete implementations are matched against them.
func InferModelCall(sig *types.Signature) bool {
	if sig.Params().Len() == 0 || !isContext(sig.Params().At(0).Type()) {
		return false
	}
	res := sig.Results()
	if res.Len() < 2 || !isError(res.At(res.Len()-1).Type()) {
		return false
	}
	for i := 0; i < res.Len()-1; i++ {
		switch res.At(i).Type().Underlying().(type) {
		case *types.Slice, *types.Map, *types.Array:
			continue // a list of messages is history, not one model response
		}
		if carriesToolCalls(res.At(i).Type(), 0, map[types.Type]bool{}) {
			return true
		}
	}
	return false
}

// InferToolInterface reports whether iface (the underlying interface of named type tn) looks
// like a tool: its name contains "tool", it has a Name() string method and a method that takes
// a context.Context and returns an error, and that method's result delivers no tool calls (a
// ToolCallingModel's Stream is a model call). It returns that method.
func InferToolInterface(tn *types.TypeName) (*types.Func, bool) {
	iface, ok := tn.Type().Underlying().(*types.Interface)
	if !ok || !strings.Contains(strings.ToLower(tn.Name()), "tool") {
		return nil, false
	}
	hasName := false
	var run *types.Func
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		sig := m.Type().(*types.Signature)
		if m.Name() == "Name" && sig.Params().Len() == 0 && sig.Results().Len() == 1 {
			hasName = true
		}
		if sig.Params().Len() > 0 && isContext(sig.Params().At(0).Type()) &&
			sig.Results().Len() > 0 && isError(sig.Results().At(sig.Results().Len()-1).Type()) && run == nil {
			run = m
		}
	}
	if run != nil && ResultDeliversToolCalls(run.Type().(*types.Signature)) {
		// a ToolCallingModel's Stream or Generate: the reply carries the tool calls the
		// model asks for; a model, not a tool
		return nil, false
	}
	return run, hasName && run != nil
}

// InferBoundError maps a sentinel error's name to the stop reason of a loop bound
// (ErrMaxSteps, ErrExceedMaxIterations, ErrMaxTurns, ErrRecursionLimit, ...).
func InferBoundError(name string) (model.StopReason, bool) {
	n := normalize(name)
	switch {
	case strings.Contains(n, "maxturn"), strings.Contains(n, "toomanyturn"):
		return model.StopMaxTurns, true
	case strings.Contains(n, "maxstep"), strings.Contains(n, "maxiteration"), strings.Contains(n, "recursionlimit"),
		strings.Contains(n, "notfinished"), strings.Contains(n, "maxrounds"), strings.Contains(n, "toomanystep"),
		strings.Contains(n, "toomanyiteration"):
		return model.StopMaxSteps, true
	}
	return "", false
}
