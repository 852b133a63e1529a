package lifemap_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
)

// TestLoadTestsOfPatternsOnly loads package a with its tests; a imports b of the same module,
// which Load adds from source for its facts, and b's tests import c. The go command must never
// be asked for b's test packages (go list -test would compile their test-only dependencies:
// minutes on a fresh build cache), and a's test variant must be checked against b from source.
func TestLoadTestsOfPatternsOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the go command wrapper is a shell script")
	}
	real, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	wrapper := "#!/bin/sh\necho \"$*\" >>" + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	pkgs, err := lifemap.Load([]string{"./a"}, lifemap.Options{Dir: "testdata/testsonly", Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range strings.Split(strings.TrimSpace(string(calls)), "\n") {
		if strings.Contains(call, "list") && strings.Contains(call, "-test=true") && strings.Contains(call, "testsonly/b") {
			t.Errorf("b's tests were listed: go %s", call)
		}
	}
	if len(pkgs) != 1 || pkgs[0].ID != "example.com/testsonly/a [example.com/testsonly/a.test]" {
		var ids []string
		for _, p := range pkgs {
			ids = append(ids, p.ID)
		}
		t.Fatalf("packages %v, want a's test variant (which replaces a)", ids)
	}
	variant := pkgs[0]
	if len(variant.Syntax) != 2 || variant.Types == nil || !variant.Types.Complete() || len(variant.TypesInfo.Defs) == 0 {
		t.Fatalf("a's test variant is not type-checked from its two files: %d files", len(variant.Syntax))
	}
	b := variant.Imports["example.com/testsonly/b"]
	if b == nil || len(b.Syntax) == 0 || b.TypesInfo == nil || len(b.TypesInfo.Defs) == 0 {
		t.Fatalf("b is not loaded from source (its facts would not reach a's tests)")
	}
	if imps := variant.Types.Imports(); !slices.Contains(imps, b.Types) {
		t.Errorf("a's test variant is type-checked against another b")
	}
	if _, ok := variant.Imports["example.com/testsonly/c"]; ok {
		t.Errorf("c (a test-only dependency of b) is in a's test graph")
	}
}
