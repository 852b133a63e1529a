package cmd

import (
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer"
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
	unitchecker.Main(analyzer.Checks()...) // does not return
	return true
}

func init() { preCobra = append(preCobra, vetTool) }
