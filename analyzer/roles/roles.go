// Package roles binds lifecycle roles (model call, tool call, run entry, run status, stop reason,
// ...) to Go objects. A role comes from one of three sources, strongest first: a //lifeline:
// directive in the source, a mapping profile (built in for known frameworks, or loaded from a
// file), or structural inference on types. Every binding records its source so that outputs can
// say how sure they are.
package roles

import (
	"go/types"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Role is a lifecycle role that an object can play.
type Role string

// Roles. Function roles bind *types.Func objects (functions, methods, interface methods) or
// named func types; type roles bind *types.TypeName; value roles bind package-level vars,
// constants and struct fields.
const (
	// ModelCall: calling this function is one provider computation (a model call).
	ModelCall Role = "model_call"
	// ToolCall: calling this function executes one tool.
	ToolCall Role = "tool_call"
	// RunEntry: this function starts or drives a run.
	RunEntry Role = "run_entry"
	// EngineCall: calling this function runs a framework engine whose turn loop is the
	// function named by Rule.Loop.
	EngineCall Role = "engine_call"
	// EngineLoop: this function holds a framework engine loop (its outermost for loop is the
	// turn loop even though the model is reached through dispatched nodes).
	EngineLoop Role = "engine_loop"
	// RunStart: this function creates a new run (so a retry through it needs a parent id).
	RunStart Role = "run_start"
	// SpanStart: this function starts a lifecycle span (run, turn, step, call) and returns a
	// value whose Rule.End method must be called on every path.
	SpanStart Role = "span_start"
	// StatusOwner: this function (or every method of this type) may write terminal statuses.
	StatusOwner Role = "status_owner"
	// Tool: this type (or func type) is a tool implementation: its methods run as tool calls.
	Tool Role = "tool"
	// Callback: this func type or interface is a hook the framework calls back.
	Callback Role = "callback"
	// Status: this named type holds run statuses; its constants map to canonical statuses.
	Status Role = "status"
	// StatusConst: this constant is the canonical status Rule.Status.
	StatusConst Role = "status_const"
	// StopReason: this named type holds stop reasons.
	StopReason Role = "stop_reason"
	// StopReasonConst: this constant is the canonical stop reason Rule.StopReason.
	StopReasonConst Role = "stop_reason_const"
	// BoundError: this sentinel error reports that a turn loop hit its bound
	// (Rule.StopReason says which bound).
	BoundError Role = "bound_error"
	// BoundDefault: this field or variable bounds a turn loop; Rule.Value is its default.
	BoundDefault Role = "bound_default"
	// ParentID: this field carries a parent run id.
	ParentID Role = "parent_id"
	// Attempt: this field carries a run's attempt number.
	Attempt Role = "attempt"
	// RunID: this function mints run ids.
	RunID Role = "run_id"
)

// AllRoles lists every role, for validation and documentation.
var AllRoles = []Role{ModelCall, ToolCall, RunEntry, EngineCall, EngineLoop, RunStart, SpanStart,
	StatusOwner, Tool, Callback, Status, StatusConst, StopReason, StopReasonConst, BoundError,
	BoundDefault, ParentID, Attempt, RunID}

// Valid reports whether r is a known role.
func (r Role) Valid() bool {
	for _, x := range AllRoles {
		if x == r {
			return true
		}
	}
	return false
}

// Binding is one role bound to one object, with where the binding came from.
type Binding struct {
	Role Role
	// Rule is the profile rule, directive or inference that produced the binding.
	Rule Rule
	// Provenance says how sure the binding is and why.
	Provenance model.Provenance
}

// Key returns the stable name under which profiles refer to obj:
//
//	pkg/path.Name               package-level func, var, const or type
//	pkg/path.Type.Method        method (pointer or value receiver), or interface method
//	pkg/path.Type.Field         struct field (see FieldKey)
//
// It returns "" for objects that profiles cannot name (locals, parameters, fields).
func Key(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	if fn, ok := obj.(*types.Func); ok {
		sig, _ := fn.Type().(*types.Signature)
		if sig != nil && sig.Recv() != nil {
			if n := namedOf(sig.Recv().Type()); n != nil {
				return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + fn.Name()
			}
			return ""
		}
		return fn.Pkg().Path() + "." + fn.Name()
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// FieldKey returns the key of field name in the named struct type recv ("pkg/path.Type.Field"),
// or "" when recv is not (a pointer to) a named type.
func FieldKey(recv types.Type, name string) string {
	n := namedOf(recv)
	if n == nil || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + name
}

// ShortName returns a readable name for a key: the last path element of the package plus the
// rest, e.g. "github.com/tmc/langchaingo/agents.Executor.Call" → "agents.Executor.Call".
func ShortName(key string) string {
	slash := strings.LastIndexByte(key, '/')
	return key[slash+1:]
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		return n.Origin()
	}
	return nil
}

// NamedOf returns the named type of t or of *t (its generic origin), or nil.
func NamedOf(t types.Type) *types.Named { return namedOf(t) }
