// Package crosstest runs a check the way lifeline vet does on a whole program, for the
// analysistest cases whose finding needs packages that import the analyzed one: a first round
// over every package computes what their implementations call
// (lifecycle.CrossPackageModels), and analysistest.Run then checks the // want comments with
// that knowledge (the lifecycle pass's -implmodels flag).
package crosstest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Run loads patterns from the GOPATH-style testdata directory, runs a first round of a, sets
// the lifecycle pass's -implmodels flag from its facts for the second round, and runs
// analysistest.Run. It fails the test when the first round finds no cross-package model call.
func Run(t *testing.T, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	dir := analysistest.TestData()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(dir, "src"),
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := lifecycle.CrossPackageModels(graph.All())
	if v == "" {
		t.Fatalf("first round over %v: no interface method or func type whose implementation in another package calls the model", patterns)
	}
	old := lifecycle.Analyzer.Flags.Lookup(lifecycle.ImplModelsFlag).Value.String()
	if err := lifecycle.Analyzer.Flags.Set(lifecycle.ImplModelsFlag, v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lifecycle.Analyzer.Flags.Set(lifecycle.ImplModelsFlag, old) })
	t.Logf("-implmodels=%s", v)
	return analysistest.Run(t, dir, a, patterns...)
}
