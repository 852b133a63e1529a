package roles

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// DirectivePrefix starts every lifeline directive comment.
const DirectivePrefix = "//lifeline:"

// Directive is one parsed //lifeline: comment.
type Directive struct {
	// Verb is the word after "//lifeline:", e.g. "model-call" or "ignore".
	Verb string
	// Args are the space-separated words after the verb.
	Args []string
	// Comment is the comment the directive was parsed from.
	Comment *ast.Comment
}

// directiveRoles maps declaration directives to roles. The first argument, where a role takes
// one, is its canonical value (status, stop reason, default).
var directiveRoles = map[string]Role{
	"model-call":   ModelCall,
	"tool-call":    ToolCall,
	"run-entry":    RunEntry,
	"run-start":    RunStart,
	"engine-loop":  EngineLoop,
	"span-start":   SpanStart,
	"status-owner": StatusOwner,
	"tool":         Tool,
	"callback":     Callback,
	"status":       Status,
	"stop-reason":  StopReason,
	"bound-error":  BoundError,
	"bound":        BoundDefault,
	"parent-id":    ParentID,
	"attempt":      Attempt,
	"run-id":       RunID,
}

// DirectiveVerbs lists the declaration directive verbs, sorted.
func DirectiveVerbs() []string {
	return []string{"attempt", "bound", "bound-error", "callback", "engine-loop", "model-call",
		"parent-id", "run-entry", "run-id", "run-start", "span-start", "status", "status-owner",
		"stop-reason", "tool", "tool-call"}
}

// ParseDirective parses one comment; ok is false when it is not a //lifeline: directive.
func ParseDirective(c *ast.Comment) (d Directive, ok bool) {
	rest, ok := strings.CutPrefix(c.Text, DirectivePrefix)
	if !ok {
		return Directive{}, false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return Directive{Comment: c}, true
	}
	return Directive{Verb: fields[0], Args: fields[1:], Comment: c}, true
}

// Directives returns the directives in a doc comment group.
func Directives(doc *ast.CommentGroup) []Directive {
	if doc == nil {
		return nil
	}
	var ds []Directive
	for _, c := range doc.List {
		if d, ok := ParseDirective(c); ok {
			ds = append(ds, d)
		}
	}
	return ds
}

// BindingOf turns a declaration directive into a binding for the object named key. It returns
// an error for unknown verbs or bad arguments, and ok=false for directives that are not
// declarations (ignore).
func (d Directive) BindingOf(key string) (b Binding, ok bool, err error) {
	if d.Verb == "ignore" || d.Verb == "file-ignore" {
		return Binding{}, false, nil
	}
	role, known := directiveRoles[d.Verb]
	if !known {
		return Binding{}, false, fmt.Errorf("unknown directive %s%s (known: %s, ignore)", DirectivePrefix, d.Verb, strings.Join(DirectiveVerbs(), ", "))
	}
	r := Rule{Role: role, Object: key}
	arg := ""
	if len(d.Args) > 0 {
		arg = d.Args[0]
	}
	switch role {
	case BoundError:
		r.StopReason = model.StopReason(arg)
		if arg == "" {
			r.StopReason = model.StopMaxSteps
		}
		if !r.StopReason.Valid() {
			return Binding{}, false, fmt.Errorf("%s%s: unknown stop reason %q", DirectivePrefix, d.Verb, arg)
		}
	case BoundDefault:
		r.Value = arg
	case ToolCall:
		r.Parallel = arg == "parallel"
	case SpanStart:
		r.End = arg
	case EngineCall:
		r.Loop = arg
	}
	return Binding{
		Role:       role,
		Rule:       r,
		Provenance: model.Provenance{Confidence: model.ConfidenceDeclared, Rule: "directive " + d.Comment.Text},
	}, true, nil
}
