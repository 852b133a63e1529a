package cmd

import (
	"encoding/json"
	"os"
	"runtime/debug"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// isVetTool reports whether lifeline was invoked by go vet -vettool (or go fix -fixtool): with
// -V=full (version for the build cache), -flags (flag description), or a unit's .cfg file.
func isVetTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	last := args[len(args)-1]
	if strings.HasSuffix(last, ".cfg") {
		for _, a := range args[:len(args)-1] {
			if !strings.HasPrefix(a, "-") {
				return false
			}
		}
		return true
	}
	if len(args) == 1 {
		return args[0] == "-V=full" || args[0] == "-flags" || args[0] == "--flags"
	}
	return false
}

// vetTool hands the process to unitchecker, which speaks the go vet protocol and exits.
func vetTool(args []string) bool {
	if !isVetTool(args) {
		return false
	}
	if os.Getenv("GOGC") == "" {
		// One short-lived process a unit, whose heap is the unit's syntax and types (and those
		// of its imports): collecting as the heap doubles costs ≈ 15 % of the CPU for little
		// memory. GOGC, when set, wins.
		debug.SetGCPercent(400)
	}
	unitchecker.Main(vetAnalyzers(args)...) // does not return
	return true
}

// vetAnalyzers returns the analyzers to hand unitchecker for a vet tool invocation: the checks,
// or their facts-only stand-ins (requiring lifecycle.FactsOnly for the lifecycle pass) for a
// unit go vet analyzes only for its facts.
func vetAnalyzers(args []string) []*analysis.Analyzer {
	checks := analyzer.Checks()
	if cfg := args[len(args)-1]; strings.HasSuffix(cfg, ".cfg") && factsOnly(cfg) {
		checks = factsOnlyChecks(checks)
	}
	return checks
}

// factsOnly reports whether the unit's config asks only for facts (VetxOnly): go vet runs the
// tool so on every dependency of the packages it vets (the standard library included) and
// discards the diagnostics. An unreadable config is left to unitchecker to report.
func factsOnly(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// factsOnlyChecks returns stand-ins of checks for a facts-only unit: the same names and flags
// (go vet passes the same flags to every unit), no diagnostics, and as requirements only the
// analyzers that carry facts (the lifecycle pass, ctrlflow), so that a dependency's .vetx file
// holds the same facts while the checks themselves, whose diagnostics go vet would discard,
// do not run. unitchecker runs every analyzer that requires a fact-carrying one in that mode.
func factsOnlyChecks(checks []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(checks))
	for i, a := range checks {
		stub := *a
		stub.Run = func(*analysis.Pass) (any, error) { return nil, nil }
		stub.ResultType = nil
		stub.Requires = nil
		for _, r := range a.Requires {
			if r == lifecycle.Analyzer {
				r = lifecycle.FactsOnly // the same facts, without what only this unit's checks read
			}
			if carriesFacts(r) {
				stub.Requires = append(stub.Requires, r)
			}
		}
		out[i] = &stub
	}
	return out
}

// carriesFacts reports whether a or an analyzer it requires (transitively) has fact types.
func carriesFacts(a *analysis.Analyzer) bool {
	if len(a.FactTypes) > 0 {
		return true
	}
	for _, r := range a.Requires {
		if carriesFacts(r) {
			return true
		}
	}
	return false
}

func init() { preCobra = append(preCobra, vetTool) }
