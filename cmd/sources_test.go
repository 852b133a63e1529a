//go:build cgo

package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const sourcesDir = "analyzer/lifemap/testdata/sources"

// TestMapVetSources: lifeline map and vet read Python and TypeScript/JavaScript paths
// (files, directories, mixed trees) next to Go package patterns, with the same outputs.
func TestMapVetSources(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"python text", []string{"map", sourcesDir + "/pyagent"}, 0, []string{"turn loop (for) in agent.ReactAgent.run",
			"bound: self.max_steps (default 20 at", "pyagent/config.py:1)", "cancellation: checked between steps"}},
		{"mixed json", []string{"map", "--format", "json", sourcesDir + "/pyagent", sourcesDir + "/tsagent"}, 0, []string{`"default_pos"`, `"runner.Runner.run"`, `"parallel": true`}},
		{"file mermaid", []string{"map", "--format", "mermaid", sourcesDir + "/tsagent/src/legacy.js"}, 0, []string{"flowchart TD"}},
		{"go and sources", []string{"map", "./model/runtime", sourcesDir + "/pyagent"}, 0, []string{"model/runtime", "agent.ReactAgent.run"}},
		{"vet text", []string{"vet", sourcesDir + "/vet"}, 3, []string{"vet/unbounded.py:3:1: turn loop has no bound", "docs/checks/unboundedloop.md", "vet/nocancel.ts:3:1: turn loop never checks cancellation"}},
		{"vet sarif", []string{"vet", "--format", "sarif", sourcesDir + "/vet"}, 3, []string{`"ruleId": "loopcancel"`}},
		{"vet json", []string{"vet", "--format", "json", sourcesDir + "/vet"}, 3, []string{`"unboundedloop"`}},
		{"vet subset clean", []string{"vet", "--checks", "connctx", sourcesDir + "/vet"}, 0, nil},
		{"not a source file", []string{"map", "go.mod"}, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := lifeline(t, "", tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %.2000s\nstderr: %s", code, tt.code, out, errOut)
			}
			for _, want := range tt.contains {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%.3000s", want, out)
				}
			}
		})
	}
}

// TestSourcesWithoutCgo: a binary built with CGO_ENABLED=0 still builds and says why it cannot
// read Python or TypeScript.
func TestSourcesWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lifeline without cgo")
	}
	bin := filepath.Join(t.TempDir(), "lifeline-nocgo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	c := exec.Command(bin, "map", sourcesDir+"/pyagent")
	c.Dir = ".."
	out, err := c.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "built without cgo") || !strings.Contains(string(out), "CGO_ENABLED=1") {
		t.Fatalf("without cgo: err %v, output %s", err, out)
	}
}
