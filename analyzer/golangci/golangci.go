// Package golangci is lifeline's golangci-lint module plugin: a golangci-lint built with a blank
// import of this package (golangci-lint custom, or by hand, see docs/analyzer.md) runs
// lifeline's checks as the custom linter "lifeline".
//
// In .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - lifeline
//	  settings:
//	    custom:
//	      lifeline:
//	        type: module
//	        description: lifecycle defects of Go agent code
//	        settings:
//	          checks: [unboundedloop, loopcancel] # default: every check
//	          profiles: [lifeline-profile.json]   # mapping profiles besides the built-in ones
//
// The checks need type information (load mode "typesinfo"); the lifecycle pass carries facts
// between the packages golangci-lint analyzes, as it does under go vet.
package golangci

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"golang.org/x/tools/go/analysis"
)

// Name is the linter's name in golangci-lint's configuration.
const Name = "lifeline"

func init() { register.Plugin(Name, New) }

// Settings are the plugin's settings (linters.settings.custom.lifeline.settings).
type Settings struct {
	// Checks names the checks to run (lifeline vet --list); empty runs every check.
	Checks []string `json:"checks"`
	// Profiles are mapping profile files (JSON, docs/analyzer.md) used besides the built-in
	// profiles; relative paths are resolved in the directory golangci-lint runs in.
	Profiles []string `json:"profiles"`
}

// Plugin is the golangci-lint linter plugin.
type Plugin struct {
	checks []*analysis.Analyzer
}

// New decodes the settings and returns the plugin. An unknown setting, an unknown check or a
// profile that does not load is an error, which golangci-lint reports before it runs.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("lifeline: %w", err)
	}
	all := analyzer.Checks()
	checks := all
	if len(s.Checks) > 0 {
		checks = nil
		for _, name := range s.Checks {
			i := slices.IndexFunc(all, func(a *analysis.Analyzer) bool { return a.Name == name })
			if i < 0 {
				return nil, fmt.Errorf("lifeline: unknown check %q in settings.checks (known: %s)", name, names(all))
			}
			if !slices.Contains(checks, all[i]) {
				checks = append(checks, all[i])
			}
		}
	}
	for _, p := range s.Profiles {
		if _, err := roles.LoadProfiles(p); err != nil {
			return nil, fmt.Errorf("lifeline: settings.profiles: %w", err)
		}
	}
	if err := lifecycle.Analyzer.Flags.Set("profile", strings.Join(s.Profiles, ",")); err != nil {
		return nil, fmt.Errorf("lifeline: setting profiles: %w", err)
	}
	return &Plugin{checks: checks}, nil
}

func names(as []*analysis.Analyzer) string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return strings.Join(ns, ", ")
}

// BuildAnalyzers returns the checks to run.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.checks, nil }

// GetLoadMode says the checks need type information.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
