package lifemap

import (
	"fmt"

	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Analyze runs checks on pkgs (loaded by Load) as lifeline vet does, over the whole program: a
// package's pass sees only the packages it imports, so an engine loop calling an interface
// method or a func value whose model-calling implementation lives in a package that imports
// the engine's is no turn loop to it. When the first round's facts show such implementations
// (lifecycle.CrossPackageModels), the checks run again with the lifecycle pass told of them
// (its -implmodels flag, restored afterwards), and that round's graph is returned.
func Analyze(checks []*analysis.Analyzer, pkgs []*packages.Package) (*checker.Graph, error) {
	graph, err := checker.Analyze(checks, pkgs, nil)
	if err != nil {
		return nil, err
	}
	fl := lifecycle.Analyzer.Flags.Lookup(lifecycle.ImplModelsFlag)
	old := fl.Value.String()
	v := lifecycle.CrossPackageModels(graph.All())
	if v == "" || v == old {
		return graph, nil
	}
	if old != "" {
		v = old + "," + v
	}
	if err := fl.Value.Set(v); err != nil {
		return nil, fmt.Errorf("setting -%s: %w", lifecycle.ImplModelsFlag, err)
	}
	defer func() { _ = fl.Value.Set(old) }()
	return checker.Analyze(checks, pkgs, nil)
}
