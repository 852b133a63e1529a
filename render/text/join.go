package text

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
)

// JoinRender writes what a lifecycle map explains of each run (model/join): the exit of its
// final status, the bound it hit, the call sites its calls went through and its parent link,
// each with its confidence and reason, then the behaviour the map does not explain.
func JoinRender(w io.Writer, res *join.Result, maps []string) error {
	bw := bufio.NewWriter(w)
	p := &lifemapPrinter{w: bw}
	p.line("", "")
	p.line("", "code: what the map of %s explains of each run", strings.Join(maps, ", "))
	for _, r := range res.Runs {
		head := "run " + r.RunID + " · " + string(r.Status)
		if r.StopReason != "" {
			head += " " + string(r.StopReason)
		}
		head += " · " + strconv.Itoa(r.Steps) + " steps"
		p.line("", "%s", head)
		if x := r.Exit; x != nil {
			what := x.Outcome
			if x.StopReason != "" {
				what += " (" + string(x.StopReason) + ")"
			}
			if x.Kind == "raise" {
				what = "raised at the bound, " + what
			}
			p.site("exit", what, x.Site)
			for _, o := range x.Others {
				p.line("            ", "or %s", o)
			}
		} else if r.Status.Terminal() || r.Status == model.StatusWaiting {
			p.line("  ", "exit    none of the map's exits produces %s", r.Status)
		}
		if b := r.Bound; b != nil {
			what := b.Expr
			if b.Default != "" && b.DefaultEnv != "" {
				what += " (default " + b.Default + ", unless " + b.DefaultEnv + " is set)"
			} else if b.Default != "" {
				what += " (default " + b.Default + ")"
			}
			if b.Hit {
				what += ", hit after " + strconv.Itoa(b.Steps) + " steps"
			} else {
				what += ", not hit: " + strconv.Itoa(b.Steps) + " steps"
			}
			what += " [" + b.Agrees + "]"
			p.site("bound", what, b.Site)
			if b.OnBound.IsValid() {
				p.line("            ", "at bound %s; loop %s", b.OnBound, b.Loop)
			}
		}
		for _, c := range r.Calls {
			what := c.Name
			if what == "" {
				what = "(unnamed)"
			}
			what += " ×" + strconv.Itoa(c.Calls)
			if c.Callee != "" {
				what += " → " + c.Callee
			}
			if c.Registered.IsValid() {
				what += ", named at " + c.Registered.String()
			}
			if !c.Pos.IsValid() {
				p.line("  ", "%-7s %s: no call site in the run's loops", c.Kind, what)
				continue
			}
			p.site(c.Kind, what, c.Site)
		}
		if pm := r.Parent; pm != nil {
			what := "parent " + pm.ParentRunID
			if pm.Kind != "" {
				what += " (" + pm.Kind + ")"
			}
			if len(pm.Sites) == 0 {
				p.line("  ", "parent  %s: no id site of the map passes a parent run id", what)
			}
			for i, s := range pm.Sites {
				if i == 0 {
					p.site("parent", what, s)
					continue
				}
				p.line("            ", "or %s [%s] %s", s.Pos, s.Confidence, s.Reason)
			}
		}
	}
	if len(res.Findings) > 0 {
		p.line("", "")
		p.line("", "unexplained behaviour (docs/checks/join-*.md):")
		for _, f := range res.Findings {
			p.line("  ", "%s", f)
		}
	}
	if p.err != nil {
		return fmt.Errorf("writing join: %w", p.err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing join: %w", err)
	}
	return nil
}

func (p *lifemapPrinter) site(kind, what string, s join.Site) {
	p.line("  ", "%-7s %s  %s  [%s]", kind, what, s.Pos, s.Confidence)
	if s.Source != "" {
		p.line("            ", "%s", s.Source)
	}
	if s.Reason != "" {
		p.line("            ", "why: %s", s.Reason)
	}
}
