package lifemap

import (
	"fmt"
	"os"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/packages"
)

// addRecognized runs the structural recognizer (analyzer/goir → analyzer/recognize) on pkgs
// and adds the run entries it finds to m: entries the lifecycle pass does not list, and those
// it lists without a turn loop. Entries the pass found through a profile or a directive, or
// with their loops, are kept as they are.
func addRecognized(m *model.Map, pkgs []*packages.Package, passLoops map[model.Position]bool) error {
	table, err := lifecycle.ProfileTable()
	if err != nil {
		return err
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		// SSA could not be built: the map keeps what the lifecycle pass found.
		fmt.Fprintf(os.Stderr, "lifeline: structural recognition skipped: %v\n", err)
		return nil
	}
	roots := map[string]bool{}
	for _, p := range pkgs {
		roots[p.PkgPath] = true
	}
	res := recognize.Recognize(prog, recognize.Options{Table: table, EntryPkgs: roots, Rel: NewRelativizer(pkgs).Rel})
	old := map[model.Position]int{}
	for i, e := range m.Entries {
		old[e.Pos] = i
	}
	found := map[model.Position]bool{}
	for _, l := range res.Loops {
		found[l.Map.Pos] = true
	}
	replaced := map[int]bool{}
	var added []model.Entry
	for _, e := range res.Entries {
		i, ok := old[e.Pos]
		if !ok {
			added = append(added, e)
			continue
		}
		if len(m.Entries[i].Loops) == 0 && m.Entries[i].Provenance.Confidence == model.ConfidenceInferred {
			m.Entries[i] = e
			replaced[i] = true
		}
	}
	// An entry the lifecycle pass inferred from loops that only name-based inference supports
	// (every loop inferred) and that the pass itself dropped once reconciled with the
	// recognizer is dropped: a loop over a finite slice around a database write that stores
	// messages is not a turn loop.
	for p := range passLoops {
		found[p] = true
	}
	kept := m.Entries[:0]
	for i, e := range m.Entries {
		if !replaced[i] && e.Provenance.Confidence == model.ConfidenceInferred && len(e.Loops) > 0 && !anyLoop(e.Loops, found) {
			continue
		}
		kept = append(kept, e)
	}
	m.Entries = append(kept, added...)
	return nil
}

// anyLoop reports whether one of loops is declared, bound by a profile, or recognized.
func anyLoop(loops []model.Loop, found map[model.Position]bool) bool {
	for _, l := range loops {
		if l.Provenance.Confidence != model.ConfidenceInferred || found[l.Pos] {
			return true
		}
		for _, c := range append(append([]model.CallSite{}, l.ModelCalls...), l.ToolCalls...) {
			if c.Provenance.Confidence != model.ConfidenceInferred {
				return true
			}
		}
	}
	return false
}
