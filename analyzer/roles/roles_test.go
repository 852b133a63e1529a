package roles

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

func TestParseProfiles(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		n       int
		wantErr bool
	}{
		{"one", `{"name":"x","rules":[{"role":"model_call","object":"a.B.C"}]}`, 1, false},
		{"list", `[{"name":"x","rules":[]},{"name":"y","rules":[{"role":"tool_call","object":"a.T.Run","parallel":true}]}]`, 2, false},
		{"unknown role", `{"name":"x","rules":[{"role":"model","object":"a.B"}]}`, 0, true},
		{"no object", `{"name":"x","rules":[{"role":"model_call"}]}`, 0, true},
		{"no name", `{"rules":[]}`, 0, true},
		{"unknown field", `{"name":"x","rulez":[]}`, 0, true},
		{"bad stop reason", `{"name":"x","rules":[{"role":"bound_error","object":"a.E","stop_reason":"later"}]}`, 0, true},
		{"not json", `name: x`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := ParseProfiles([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if len(ps) != tt.n {
				t.Errorf("got %d profiles, want %d", len(ps), tt.n)
			}
		})
	}
}

func TestBuiltinProfilesValid(t *testing.T) {
	for _, p := range Builtin() {
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
	}
}

func TestDirective(t *testing.T) {
	tests := []struct {
		text    string
		role    Role
		ok      bool
		wantErr bool
	}{
		{"//lifeline:model-call", ModelCall, true, false},
		{"//lifeline:tool-call parallel", ToolCall, true, false},
		{"//lifeline:bound-error max_turns", BoundError, true, false},
		{"//lifeline:bound-error soon", "", false, true},
		{"//lifeline:ignore toolerror reason", "", false, false},
		{"//lifeline:frobnicate", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			d, isDirective := ParseDirective(&ast.Comment{Text: tt.text})
			if !isDirective {
				t.Fatal("not parsed as a directive")
			}
			b, ok, err := d.BindingOf("p.X")
			if (err != nil) != tt.wantErr || ok != tt.ok {
				t.Fatalf("ok=%v err=%v, want ok=%v wantErr=%v", ok, err, tt.ok, tt.wantErr)
			}
			if ok && b.Role != tt.role {
				t.Errorf("role = %s, want %s", b.Role, tt.role)
			}
			if ok && b.Provenance.Confidence != model.ConfidenceDeclared {
				t.Errorf("confidence = %s", b.Provenance.Confidence)
			}
		})
	}
	if _, ok := ParseDirective(&ast.Comment{Text: "// lifeline:model-call"}); ok {
		t.Error("a comment with a space is not a directive")
	}
}

func TestInference(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	mk := func(name string, consts map[string]string) *types.TypeName {
		tn := types.NewTypeName(token.NoPos, pkg, name, nil)
		types.NewNamed(tn, types.Typ[types.String], nil)
		pkg.Scope().Insert(tn)
		for c, v := range consts {
			pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, c, tn.Type(), constant.MakeString(v)))
		}
		return tn
	}
	status := mk("Phase", map[string]string{"PhaseDone": "done", "PhaseFailed": "failed", "PhaseRunning": "running"})
	reason := mk("Why", map[string]string{"WhyMaxSteps": "max_steps", "WhyCancelled": "cancelled"})
	other := mk("Color", map[string]string{"Red": "red", "Blue": "blue"})
	tests := []struct {
		name         string
		tn           *types.TypeName
		status, stop bool
	}{
		{"status", status, true, false},
		{"stop reason", reason, false, true},
		{"neither", other, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InferStatusType(tt.tn); got != tt.status {
				t.Errorf("InferStatusType = %v", got)
			}
			if got := InferStopReasonType(tt.tn); got != tt.stop {
				t.Errorf("InferStopReasonType = %v", got)
			}
		})
	}
	for name, want := range map[string]model.StopReason{"ErrExceedMaxSteps": model.StopMaxSteps, "ErrMaxTurns": model.StopMaxTurns, "ErrNotFinished": model.StopMaxSteps} {
		if got, ok := InferBoundError(name); !ok || got != want {
			t.Errorf("InferBoundError(%s) = %s, %v", name, got, ok)
		}
	}
	if _, ok := InferBoundError("ErrClosed"); ok {
		t.Error("ErrClosed is not a bound error")
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/tmc/langchaingo/agents.Executor.Call": "agents.Executor.Call",
		"context.Context.Done":                            "context.Context.Done",
	} {
		if got := ShortName(in); got != want {
			t.Errorf("ShortName(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestProfileVeto(t *testing.T) {
	ps, err := ParseProfiles([]byte(`{"name": "p", "rules": [
		{"role": "model_call", "object": "example.com/store.DB.Save", "not": true},
		{"role": "model_call", "object": "example.com/llm.Client.Chat"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tab := NewTable(ps...)
	if rule, ok := tab.Vetoed("example.com/store.DB.Save", ModelCall); !ok || rule == "" {
		t.Errorf("veto not found")
	}
	if bs := tab.Lookup("example.com/store.DB.Save"); len(bs) != 0 {
		t.Errorf("a veto must not bind the role: %+v", bs)
	}
	if _, ok := tab.Vetoed("example.com/llm.Client.Chat", ModelCall); ok {
		t.Errorf("a positive rule is no veto")
	}
}
