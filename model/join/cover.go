package join

import "github.com/lifeline-dev/lifeline/model"

// Cover adds to the coverage of m (model.Coverage in each element's Taken) the runs of res: call
// it once per joined log to sum several. It records in m which of its elements the joined runs took (model.Coverage in each
// element's Taken): the exit each run left through (a raise at a bound counts for the bound's
// OnBound), the bound it hit, the loops and call sites its calls went through. Every exit, loop,
// bound, OnBound and call site gets a Coverage, zero when no run took it, so that a reader sees
// what no trace ever reached. A match the trace cannot tell from others (an exit or call site
// with Others) counts for none of them: coverage says only what the traces show. Exits that are not a run's end (not_started, started) get none.
// An element shown under several entries is counted at each.
func Cover(m *model.Map, res *Result) {
	exits := map[model.Position][]string{}
	bounds := map[model.Position][]string{}
	onBounds := map[model.Position][]string{}
	sites := map[model.Position][]string{}
	loops := map[model.Position][]string{}
	for _, r := range res.Runs {
		for _, x := range r.Pauses {
			if len(x.Others) == 0 {
				exits[x.Pos] = append(exits[x.Pos], r.RunID)
			}
		}
		if x := r.Exit; x != nil && len(x.Others) == 0 {
			if x.Kind == "raise" {
				onBounds[x.Pos] = append(onBounds[x.Pos], r.RunID)
			} else {
				exits[x.Pos] = append(exits[x.Pos], r.RunID)
			}
		}
		if b := r.Bound; b != nil && b.Hit {
			bounds[b.Pos] = append(bounds[b.Pos], r.RunID)
			if x := r.Exit; b.OnBound.IsValid() && (x == nil || x.Kind != "raise") {
				onBounds[b.OnBound] = append(onBounds[b.OnBound], r.RunID)
			}
		}
		seen := map[model.Position]bool{}
		for _, c := range r.Calls {
			if c.Pos.IsValid() && len(c.Others) == 0 && !seen[c.Pos] {
				seen[c.Pos] = true
				sites[c.Pos] = append(sites[c.Pos], r.RunID)
			}
		}
		if len(r.Calls) > 0 {
			for _, l := range runLoopsOf(m, r) {
				loops[l] = append(loops[l], r.RunID)
			}
		}
	}
	// Entries may share a loop's slices and pointers: each Coverage is added to once a call.
	done := map[*model.Coverage]bool{}
	cov := func(c *model.Coverage, ids []string) *model.Coverage {
		if c == nil {
			c = &model.Coverage{}
		}
		if done[c] {
			return c
		}
		done[c] = true
		for _, id := range ids {
			c.Add(id)
		}
		return c
	}
	for i := range m.Entries {
		e := &m.Entries[i]
		for j := range e.Exits {
			x := &e.Exits[j]
			if x.Outcome == model.OutcomeNotStarted || x.Outcome == model.OutcomeStarted {
				continue // not where a run ends: no trace takes it or not
			}
			x.Taken = cov(x.Taken, exits[x.Pos])
		}
		for j := range e.Loops {
			l := &e.Loops[j]
			l.Taken = cov(l.Taken, loops[l.Pos])
			if l.Bound != nil {
				b := *l.Bound
				b.Taken = cov(b.Taken, bounds[b.Pos])
				l.Bound = &b
			}
			if l.OnBound != nil {
				ob := *l.OnBound
				ob.Taken = cov(ob.Taken, onBounds[ob.Pos])
				l.OnBound = &ob
			}
			for k := range l.ModelCalls {
				l.ModelCalls[k].Taken = cov(l.ModelCalls[k].Taken, sites[l.ModelCalls[k].Pos])
			}
			for k := range l.ToolCalls {
				l.ToolCalls[k].Taken = cov(l.ToolCalls[k].Taken, sites[l.ToolCalls[k].Pos])
			}
		}
	}
}

// runLoopsOf are the loops that hold one of the run's matched call sites.
func runLoopsOf(m *model.Map, r Run) []model.Position {
	at := map[model.Position]bool{}
	for _, c := range r.Calls {
		if c.Pos.IsValid() && len(c.Others) == 0 {
			at[c.Pos] = true
		}
	}
	seen := map[model.Position]bool{}
	var out []model.Position
	for _, e := range m.Entries {
		for _, l := range e.Loops {
			if seen[l.Pos] {
				continue
			}
			hit := false
			for _, c := range l.ModelCalls {
				hit = hit || at[c.Pos]
			}
			if hit {
				seen[l.Pos] = true
				out = append(out, l.Pos)
			}
		}
	}
	return out
}
