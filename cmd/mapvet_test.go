package cmd

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const agentDir = "analyzer/lifemap/testdata/agent"

func TestMapCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"text", []string{"map", "-C", agentDir, "./..."}, 0, "turn loop (for) in agent.Agent.Run"},
		{"json", []string{"map", "--format", "json", "-C", agentDir, "./..."}, 0, `"on_bound"`},
		{"mermaid", []string{"map", "--format", "mermaid", "-C", agentDir, "./..."}, 0, "flowchart TD"},
		{"bad format", []string{"map", "--format", "xml", "-C", agentDir, "./..."}, 1, ""},
		{"does not type-check", []string{"map", "-C", "analyzer/lifemap/testdata/broken", "./..."}, 1, ""},
		{"missing package", []string{"map", "-C", agentDir, "example.com/agent/nope"}, 1, ""},
		{"bad profile", []string{"map", "--profile", "nope.json", "-C", agentDir, "./..."}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := lifeline(t, "", tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.contains) {
				t.Errorf("output lacks %q:\n%s", tt.contains, out)
			}
			if code != 0 && (errOut == "" || strings.Contains(errOut, "panic")) {
				t.Errorf("want a clear error, got %q", errOut)
			}
		})
	}
}

func TestVetCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"text findings", []string{"vet", "-C", agentDir, "./..."}, 3, "agent.go:93:1: turn recursion never checks cancellation"},
		{"doc link", []string{"vet", "-C", agentDir, "./..."}, 3, "docs/checks/loopcancel.md"},
		{"json", []string{"vet", "--format", "json", "-C", agentDir, "./..."}, 3, `"loopcancel"`},
		{"sarif", []string{"vet", "--format", "sarif", "-C", agentDir, "./..."}, 3, `"version": "2.1.0"`},
		{"clean subset", []string{"vet", "--checks", "retryparent,connctx", "-C", agentDir, "./..."}, 0, ""},
		{"list", []string{"vet", "--list"}, 0, "unboundedloop"},
		{"explain", []string{"vet", "--explain", "connctx"}, 0, "WithoutCancel"},
		{"unknown check", []string{"vet", "--checks", "nope", "./..."}, 1, ""},
		{"does not type-check", []string{"vet", "-C", "analyzer/lifemap/testdata/broken", "./..."}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := lifeline(t, "", tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.contains) {
				t.Errorf("output lacks %q:\n%s", tt.contains, out)
			}
		})
	}
	out, _, _ := lifeline(t, "", "vet", "--format", "json", "-C", agentDir, "./...")
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Errorf("--format json is not go vet's shape: %v", err)
	}
}

// TestGoVetVettool runs the checks under go vet -vettool.
func TestGoVetVettool(t *testing.T) {
	c := exec.Command("go", "vet", "-vettool="+binary, "./...")
	c.Dir = "../" + agentDir
	out, err := c.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet found nothing:\n%s", out)
	}
	if !strings.Contains(string(out), "turn recursion never checks cancellation") {
		t.Errorf("go vet -vettool output:\n%s", out)
	}
	v := exec.Command(binary, "-V=full")
	vout, err := v.Output()
	if err != nil || !strings.Contains(string(vout), "buildID=") {
		t.Errorf("-V=full: %v %s", err, vout)
	}
}
