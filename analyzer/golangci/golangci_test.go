package golangci_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/golangci"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
)

func checkNames(t *testing.T, p register.LinterPlugin) []string {
	t.Helper()
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return ns
}

func TestNew(t *testing.T) {
	t.Cleanup(func() { lifecycle.Analyzer.Flags.Set("profile", "") })
	var all []string
	for _, a := range analyzer.Checks() {
		all = append(all, a.Name)
	}
	profile := filepath.Join(t.TempDir(), "p.json")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"name":"bad","rulez":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(profile, []byte(`{"name":"p","rules":[{"role":"model_call","object":"example.com/llm.Client.Complete"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		settings any
		checks   []string
		err      string
	}{
		{"no settings", nil, all, ""},
		{"empty settings", map[string]any{}, all, ""},
		{"subset", map[string]any{"checks": []any{"retryparent", "unboundedloop", "retryparent"}}, []string{"retryparent", "unboundedloop"}, ""},
		{"unknown check", map[string]any{"checks": []any{"nope"}}, nil, `unknown check "nope"`},
		{"unknown setting", map[string]any{"check": []any{"retryparent"}}, nil, `unknown field "check"`},
		{"missing profile", map[string]any{"profiles": []any{"no/such/profile.json"}}, nil, "settings.profiles"},
		{"bad profile", map[string]any{"profiles": []any{bad}}, nil, "bad.json"},
		{"profile", map[string]any{"profiles": []any{profile}}, all, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := golangci.New(tt.settings)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := checkNames(t, p); !slices.Equal(got, tt.checks) {
				t.Errorf("checks = %v, want %v", got, tt.checks)
			}
			if p.GetLoadMode() != register.LoadModeTypesInfo {
				t.Errorf("load mode %q, want %q", p.GetLoadMode(), register.LoadModeTypesInfo)
			}
		})
	}
	if got := lifecycle.Analyzer.Flags.Lookup("profile").Value.String(); got != profile {
		t.Errorf("lifecycle -profile = %q, want %q", got, profile)
	}
}

// TestRegistered checks that the blank import registers the plugin under the name
// .golangci.yml uses.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(golangci.Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"checks": []any{"connctx"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := checkNames(t, p); !slices.Equal(got, []string{"connctx"}) {
		t.Errorf("checks = %v", got)
	}
}
