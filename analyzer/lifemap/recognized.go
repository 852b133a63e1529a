package lifemap

import (
	"fmt"
	"os"
	"sort"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/packages"
)

// addRecognized runs the structural recognizer (analyzer/goir → analyzer/recognize) on pkgs
// and adds the run entries it finds to m: entries the lifecycle pass does not list, and those
// it lists without a turn loop. Entries the pass found through a profile or a directive, or
// with their loops, are kept as they are.
func addRecognized(m *model.Map, pkgs []*packages.Package, passLoops map[model.Position]bool, passSites []model.CallSite) error {
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
	res, err := safeRecognize(prog, recognize.Options{Table: table, EntryPkgs: roots, Rel: NewRelativizer(pkgs).Rel, ModelSites: passSites})
	if err != nil {
		// the map keeps what the lifecycle pass found
		fmt.Fprintf(os.Stderr, "lifeline: structural recognition skipped: %v\n", err)
		return nil
	}
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
			continue
		}
		if m.Entries[i].Provenance.Confidence == model.ConfidenceInferred {
			// an entry both inferred: the recognizer's exits follow the IR's paths (result
			// cells, the launch, the bound, a resume state), and its ids the calls it reaches
			if len(e.Exits) > 0 {
				m.Entries[i].Exits = e.Exits
			}
			m.Entries[i].IDs = mergeIDs(m.Entries[i].IDs, e.IDs)
			// a loop both found that the pass inferred from names only, without a bound: the
			// recognizer's bound, which the pass's counter rules miss (how much the history
			// grew, a limit checked in a helper), and what happens at it
			byPos := map[model.Position]model.Loop{}
			for _, l := range e.Loops {
				byPos[l.Pos] = l
			}
			for j, l := range m.Entries[i].Loops {
				rl, ok := byPos[l.Pos]
				if !ok || !inferredLoop(l) {
					continue
				}
				if l.Bound == nil && rl.Bound != nil {
					m.Entries[i].Loops[j].Bound, m.Entries[i].Loops[j].OnBound = rl.Bound, rl.OnBound
				} else if b := l.Bound; b != nil && b.Default == "" && rl.Bound != nil && rl.Bound.Expr == b.Expr && rl.Bound.Default != "" {
					// the same bound, whose default the recognizer found (a constant stored
					// into the unexported field by a constructor)
					nb := *b
					nb.Default, nb.DefaultPos, nb.DefaultEnv = rl.Bound.Default, rl.Bound.DefaultPos, rl.Bound.DefaultEnv
					m.Entries[i].Loops[j].Bound = &nb
				}
				if len(l.ToolCalls) == 0 && len(rl.ToolCalls) > 0 {
					// the tool calls the recognizer followed from the model call's result
					// (interface methods the name rules do not take for tools)
					m.Entries[i].Loops[j].ToolCalls, m.Entries[i].Loops[j].ParallelTools = rl.ToolCalls, rl.ParallelTools
				}
				// and the tool calls the recognizer follows to (over a channel to a
				// dispatcher goroutine, through a helper) when the pass found none
				if rl, ok := byPos[l.Pos]; ok && inferredLoop(l) && len(l.ToolCalls) == 0 && len(rl.ToolCalls) > 0 {
					m.Entries[i].Loops[j].ToolCalls, m.Entries[i].Loops[j].ParallelTools = rl.ToolCalls, rl.ParallelTools
				}
			}
		}
	}
	// An entry the lifecycle pass inferred from names only keeps the loops the recognizer
	// finds, and those the reconciled pass kept whose model call's result is at least tested
	// with a branch that leaves; a loop over a finite slice around a database write that
	// stores messages, or a walk over a cursor, is not a turn loop.
	kept := m.Entries[:0]
	for i, e := range m.Entries {
		if !replaced[i] && e.Provenance.Confidence == model.ConfidenceInferred && len(e.Loops) > 0 {
			// keep the loops that are declared, bound by a profile or recognized, and those
			// whose model call's result is at least tested with a branch that leaves
			ls := e.Loops[:0:0]
			for _, l := range e.Loops {
				if !inferredLoop(l) || found[l.Pos] || passLoops[l.Pos] && tested(prog, l) {
					ls = append(ls, l)
				}
			}
			if len(ls) == 0 {
				continue
			}
			e.Loops = ls
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

// tested reports whether one of a loop's model call sites has its result tested with a
// branch that leaves.
func tested(prog *ir.Program, l model.Loop) bool {
	for _, c := range l.ModelCalls {
		if recognize.TestedAt(prog, c.Pos.File, c.Pos.Line) {
			return true
		}
	}
	return recognize.LoopTested(prog, l.Pos.File, l.Pos.Line)
}

// inferredLoop reports whether every element of a loop comes from name-based inference.
func inferredLoop(l model.Loop) bool { return !anyLoop([]model.Loop{l}, map[model.Position]bool{}) }

// safeRecognize runs the recognizer and turns a panic (a bug on code nobody described) into an
// error naming it, so that a map still gets what the other passes found.
func safeRecognize(prog *ir.Program, o recognize.Options) (*recognize.Result, error) {
	return recovered(func() *recognize.Result { return recognize.Recognize(prog, o) })
}

func recovered(run func() *recognize.Result) (res *recognize.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("recognizer: internal error: %v (please report it with the code that triggered it)", r)
		}
	}()
	return run(), nil
}

// mergeIDs adds to the id sites the lifecycle pass found those the recognizer found at other
// places: the pass sees the mints of the entry's own calls by their names (uuid.New() in a
// prepare helper), the recognizer follows the call graph to the helpers that format an id
// from the clock or a counter (a session id made when the caller gave none); both are sites
// of the same run.
func mergeIDs(pass, rec []model.IDSite) []model.IDSite {
	if len(rec) == 0 {
		return pass
	}
	if len(pass) == 0 {
		return rec
	}
	out := append([]model.IDSite{}, pass...)
	for _, s := range rec {
		dup := false
		for _, p := range pass {
			dup = dup || p.Pos == s.Pos && p.Kind == s.Kind
		}
		if !dup {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}
