package text

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// MapRender writes a lifecycle map as a readable tree: each run entry with its turn loops
// (bound, what happens at the bound, cancellation, model and tool call sites), its exits and its
// id sites, every element with its file:line and source line. A loop already shown under an
// earlier entry is referred to, not repeated; a loop an entry holds itself (in its body or a
// closure of it) is shown under that entry, and referred to from the others that reach it.
func MapRender(w io.Writer, m *model.Map) error {
	bw := bufio.NewWriter(w)
	p := &lifemapPrinter{w: bw, shown: map[model.Position]string{}, owner: map[model.Position]string{}}
	for _, e := range m.Entries {
		for _, l := range e.Loops {
			if _, ok := p.owner[l.Pos]; !ok && (l.Func == e.Func || strings.HasPrefix(l.Func, e.Func+" (")) {
				p.owner[l.Pos] = e.Func
			}
		}
	}
	p.line("", "lifecycle map of %s", strings.Join(m.Packages, ", "))
	if len(m.Profiles) > 0 {
		p.line("", "profiles: %s", strings.Join(m.Profiles, ", "))
	}
	p.terms(m.Terms)
	if line := coverageLine(m); line != "" {
		p.line("", "%s", line)
	}
	if len(m.Entries) == 0 {
		p.line("", "no run entry points found (no turn loop around a model call, no profile or //lifeline:run-entry)")
	}
	for _, e := range m.Entries {
		p.entry(e)
	}
	if p.err != nil {
		return fmt.Errorf("writing map: %w", p.err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing map: %w", err)
	}
	return nil
}

type lifemapPrinter struct {
	w     *bufio.Writer
	shown map[model.Position]string // loop position → entry that showed it
	owner map[model.Position]string // loop position → entry that holds it
	err   error
}

func (p *lifemapPrinter) line(indent, format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, indent+format+"\n", args...)
}

func lifemapAt(pos model.Position, src string) string {
	if !pos.IsValid() {
		return ""
	}
	if src == "" {
		return pos.String()
	}
	return pos.String() + "  " + src
}

func (p *lifemapPrinter) entry(e model.Entry) {
	p.line("", "")
	p.line("", "run entry %s  [%s]", e.Func, e.Provenance.Confidence)
	p.line("  ", "%s", lifemapAt(e.Pos, e.Source))
	if e.Provenance.Rule != "" {
		p.line("  ", "why: %s", e.Provenance.Rule)
	}
	p.evidence("  ", e.Provenance)
	if len(e.Loops) == 0 {
		p.line("  ", "turn loop: none found")
	}
	for _, l := range e.Loops {
		p.loop(e.Func, l)
	}
	if len(e.Exits) > 0 {
		p.line("  ", "exits:")
		for _, x := range e.Exits {
			out := x.OutcomeString()
			if x.Taken != nil {
				p.line("    ", "%-34s %-10s %s", out, takenTag(x.Taken), lifemapAt(x.Pos, x.Source))
			} else {
				p.line("    ", "%-34s %s", out, lifemapAt(x.Pos, x.Source))
			}
			if len(x.Outcomes) > 0 && x.Guard != "" {
				var whens []string
				for _, o := range x.Outcomes {
					whens = append(whens, strconv.Quote(o.When)+" → "+o.String())
				}
				p.line("      ", "- taken when %s: %s", x.Guard, strings.Join(whens, ", "))
			}
		}
	}
	if len(e.IDs) > 0 {
		p.line("  ", "ids:")
		for _, id := range e.IDs {
			p.line("    ", "%-7s %s  %s", id.Kind, id.What, id.Pos)
		}
	}
}

func (p *lifemapPrinter) loop(entry string, l model.Loop) {
	if o, ok := p.owner[l.Pos]; ok && o != entry {
		p.line("  ", "turn loop (%s) %s: %s, shown under %s", l.Kind, l.Func, l.Pos, o)
		return
	}
	if first, ok := p.shown[l.Pos]; ok {
		p.line("  ", "turn loop (%s) %s: %s, shown under %s", l.Kind, l.Func, l.Pos, first)
		return
	}
	p.shown[l.Pos] = entry
	p.line("  ", "turn loop (%s) in %s  [%s]%s", l.Kind, l.Func, l.Provenance.Confidence, takenSuffix(l.Taken))
	p.line("    ", "%s", lifemapAt(l.Pos, l.Source))
	p.evidence("    ", l.Provenance)
	if l.Bound == nil {
		p.line("    ", "bound: NONE")
	} else {
		def := ""
		if l.Bound.Default != "" {
			def = " (default " + l.Bound.Default + ")"
			if l.Bound.DefaultPos.IsValid() {
				def = " (default " + l.Bound.Default + " at " + l.Bound.DefaultPos.String() + ")"
			}
			if l.Bound.DefaultEnv != "" {
				def = strings.TrimSuffix(def, ")") + ", unless " + l.Bound.DefaultEnv + " is set)"
			}
			if l.Bound.Passed != "" {
				def = strings.TrimSuffix(def, ")") + "; passed as " + l.Bound.Passed
				if l.Bound.PassedPos.IsValid() {
					def += " at " + l.Bound.PassedPos.String()
				}
				def += ")"
			}
		}
		switch {
		case l.Bound.Optional && l.Bound.Default == model.DefaultNone:
			def = " (stop conditions: none unless set)"
		case l.Bound.Optional && noneLiteral(l.Bound.Default):
			def += " (" + l.Bound.Default + " = unlimited)"
		case l.Bound.Optional:
			def += " (0 = unlimited)"
		}
		p.line("    ", "bound: %s%s%s  %s", l.Bound.Expr, def, takenSuffix(l.Bound.Taken), lifemapAt(l.Bound.Pos, l.Bound.Source))
	}
	if ob := l.OnBound; ob != nil {
		what := ob.Kind
		if ob.Value != "" {
			what += " " + ob.Value
		}
		if ob.StopReason != "" {
			what += " → " + string(ob.StopReason)
		}
		p.line("    ", "at bound: %s%s  %s", what, takenSuffix(ob.Taken), lifemapAt(ob.Pos, ob.Source))
	}
	if l.ChecksCancel {
		p.line("    ", "cancellation: checked between steps  %s", l.CancelPos)
	} else {
		p.line("    ", "cancellation: NOT checked between steps")
	}
	for _, c := range l.ModelCalls {
		p.call("model call", c)
	}
	if len(l.ModelCalls) == 0 {
		p.line("    ", "model call: none found")
	}
	par := "sequential"
	if l.ParallelTools {
		par = "parallel"
	}
	for _, c := range l.ToolCalls {
		kind := "tool call (sequential)"
		if c.Parallel {
			kind = "tool call (parallel)"
		}
		p.call(kind, c)
	}
	if len(l.ToolCalls) == 0 {
		p.line("    ", "tool call: none found")
	} else {
		p.line("    ", "tools run: %s", par)
	}
}

func (p *lifemapPrinter) call(kind string, c model.CallSite) {
	via := ""
	if len(c.Via) > 0 {
		via = " via " + strings.Join(c.Via, " → ")
	}
	p.line("    ", "%s %s%s  [%s]%s", kind, c.Callee, via, c.Provenance.Confidence, takenSuffix(c.Taken))
	p.line("      ", "%s", lifemapAt(c.Pos, c.Source))
	p.evidence("      ", c.Provenance)
}

// evidence prints the observations an inference rests on, and its score.
func (p *lifemapPrinter) evidence(indent string, pr model.Provenance) {
	if len(pr.Evidence) == 0 {
		return
	}
	p.line(indent, "evidence (score %.1f):", pr.Score)
	for _, e := range pr.Evidence {
		p.line(indent+"  ", "- %s", e)
	}
}

// terms writes the framework's own words for lifeline's layers, one line per profile.
func (p *lifemapPrinter) terms(ts []model.Term) {
	for i := 0; i < len(ts); {
		j := i
		var texts []string
		for ; j < len(ts) && ts[j].Origin() == ts[i].Origin(); j++ {
			texts = append(texts, ts[j].Text)
		}
		p.line("", "framework words (%s): %s", ts[i].Origin(), strings.Join(texts, "; "))
		i = j
	}
}

// takenTag says how many runs of the joined traces took an element ("taken 3", "NOT TAKEN"),
// or "" when no traces were joined.
func takenTag(c *model.Coverage) string {
	switch {
	case c == nil:
		return ""
	case c.Runs == 0:
		return "NOT TAKEN"
	}
	return fmt.Sprintf("taken %d", c.Runs)
}

func takenSuffix(c *model.Coverage) string {
	if t := takenTag(c); t != "" {
		return "  " + t
	}
	return ""
}

// coverageLine sums up what the joined traces took, like go test -cover: "coverage: 4 of 9
// exits, 1 of 1 bounds, 2 of 3 call sites taken"; "" when no traces were joined. An element
// shown under several entries counts once.
func coverageLine(m *model.Map) string {
	type tally struct{ taken, all int }
	var exits, bounds, sites tally
	seen := map[string]bool{}
	count := func(t *tally, kind string, pos model.Position, c *model.Coverage) bool {
		if c == nil {
			return false
		}
		if k := kind + pos.String(); !seen[k] {
			seen[k] = true
			t.all++
			if c.Runs > 0 {
				t.taken++
			}
		}
		return true
	}
	any := false
	for _, e := range m.Entries {
		for _, x := range e.Exits {
			any = count(&exits, "x", x.Pos, x.Taken) || any
		}
		for _, l := range e.Loops {
			if l.Bound != nil {
				any = count(&bounds, "b", l.Bound.Pos, l.Bound.Taken) || any
			}
			for _, c := range l.ModelCalls {
				any = count(&sites, "c", c.Pos, c.Taken) || any
			}
			for _, c := range l.ToolCalls {
				any = count(&sites, "c", c.Pos, c.Taken) || any
			}
		}
	}
	if !any {
		return ""
	}
	pct := func(t tally) string {
		if t.all == 0 {
			return "0 of 0"
		}
		return fmt.Sprintf("%d of %d (%.0f%%)", t.taken, t.all, 100*float64(t.taken)/float64(t.all))
	}
	return "coverage: exits " + pct(exits) + ", bounds " + pct(bounds) + ", call sites " + pct(sites) + " taken by the traces' runs"
}

// noneLiteral reports whether a default is a language's "nothing" (Python None, JS null or
// undefined, Go nil): an optional bound defaulting to it is unset, the loop unlimited.
func noneLiteral(def string) bool {
	switch def {
	case "None", "null", "undefined", "nil":
		return true
	}
	return false
}
