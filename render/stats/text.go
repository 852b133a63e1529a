// Package stats renders a fleet summary (model/stats.Report): Text for a terminal, JSON for
// programs and HTML (one self-contained page with inline SVG charts, no script, no network).
package stats

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model/stats"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// TextOptions control Text.
type TextOptions struct {
	// Color turns on ANSI colour for failures.
	Color bool
}

// Text writes the report failures first: status and stop reasons, bounds hit, failing tools,
// error kinds, invariant findings, then totals, percentiles (overall and per group) and the
// slowest and costliest runs. Names and ids from the logs are cleaned of control sequences.
func Text(w io.Writer, r *stats.Report, o TextOptions) error {
	p := &printer{w: w, color: o.Color}
	p.f("%s runs", view.Count(int64(r.Runs)))
	if r.OpenRuns > 0 {
		p.f(" (%s open)", view.Count(int64(r.OpenRuns)))
	}
	p.f("\n")
	if r.LateEvents > 0 {
		p.f("%s late events dropped (after their run was summarised)\n", view.Count(int64(r.LateEvents)))
	}
	p.section("runs by status")
	for _, c := range r.ByStatus {
		p.row(c.Name, c.Count, r.Runs, c.Name == "failed" || c.Name == "cancelled")
	}
	p.section("runs by stop reason")
	for _, c := range r.ByStopReason {
		p.row(c.Name, c.Count, r.Runs, c.Name != "goal_reached" && c.Name != "(none)" && c.Name != "awaiting_approval")
	}
	if len(r.Bounds) > 0 {
		p.section("runs that hit a bound")
		for _, b := range r.Bounds {
			p.f("  %-22s %8s  %s\n", b.StopReason, view.Count(int64(b.Runs)), ids(b.RunIDs, b.Runs))
		}
	}
	if len(r.FailingTools) > 0 {
		p.section("failing tools (failed / calls)")
		for _, t := range r.FailingTools {
			p.f("  %-22s %8s / %s\n", view.Truncate(view.Clean(t.Tool), 22), view.Count(int64(t.Failed)), view.Count(int64(t.Calls)))
		}
	}
	if len(r.ErrorKinds) > 0 {
		p.section("error kinds (runs, model calls, tool calls)")
		for _, k := range r.ErrorKinds {
			p.f("  %-22s %8s  (%d, %d, %d)\n", view.Truncate(view.Clean(k.Kind), 22), view.Count(int64(k.Total)), k.Runs, k.ModelCalls, k.ToolCalls)
		}
	}
	if len(r.Findings) > 0 {
		p.section("invariant findings by rule (errors, warnings, info)")
		for _, f := range r.Findings {
			p.f("  %-4s %8s  (%d, %d, %d)  %s\n", view.Clean(f.Code), view.Count(int64(f.Total)), f.Errors, f.Warnings, f.Info, f.Title)
		}
	}
	t := r.Totals
	p.section("totals")
	p.f("  %s turns, %s steps, %s model calls, %s tool calls (%s failed), %s tokens, %s\n",
		view.Count(int64(t.Turns)), view.Count(int64(t.Steps)), view.Count(int64(t.ModelCalls)), view.Count(int64(t.ToolCalls)),
		view.Count(int64(t.FailedToolCalls)), view.Count(t.Tokens), view.Cost(t.CostUSD))
	p.section("percentiles per run (p50 / p90 / p99, max)")
	p.metrics("all runs", r.Runs, 0, r.Overall)
	if len(r.Groups) > 0 {
		p.section("by " + r.By + " (runs, failed)")
		for _, g := range r.Groups {
			p.metrics(g.Key, g.Runs, g.Failed, g.Metrics)
		}
	}
	if len(r.Slowest) > 0 {
		p.section("slowest runs")
		for _, x := range r.Slowest {
			p.ref(x, durMS(x.DurationMS))
		}
	}
	if len(r.Costliest) > 0 {
		p.section("costliest runs")
		for _, x := range r.Costliest {
			p.ref(x, view.Cost(x.CostUSD)+" "+view.Count(x.Tokens)+" tok")
		}
	}
	p.f("\npercentiles: %s\n", r.Sketch)
	return p.err
}

// JSON writes the report as indented JSON.
func JSON(w io.Writer, r *stats.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

type printer struct {
	w     io.Writer
	color bool
	err   error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *printer) section(title string) { p.f("\n%s\n", title) }

func (p *printer) row(name string, n, of int, bad bool) {
	pct := ""
	if of > 0 {
		pct = fmt.Sprintf("%5.1f%%", 100*float64(n)/float64(of))
	}
	line := fmt.Sprintf("  %-22s %8s  %s", view.Truncate(view.Clean(name), 22), view.Count(int64(n)), pct)
	if bad && p.color && n > 0 {
		line = "\x1b[31m" + line + "\x1b[0m"
	}
	p.f("%s\n", line)
}

func (p *printer) metrics(key string, runs, failed int, m stats.Metrics) {
	head := view.Truncate(view.Clean(key), 28)
	if failed > 0 || key != "all runs" {
		head += fmt.Sprintf(" (%s, %s)", view.Count(int64(runs)), view.Count(int64(failed)))
	}
	p.f("  %s\n", head)
	p.f("    steps     %s\n", qs(m.Steps, num))
	p.f("    turns     %s\n", qs(m.Turns, num))
	if m.DurationMS.Count > 0 {
		p.f("    duration  %s\n", qs(m.DurationMS, durMS))
	}
	if m.Tokens.Max > 0 {
		p.f("    tokens    %s\n", qs(m.Tokens, num))
	}
	if m.CostUSD.Max > 0 {
		p.f("    cost      %s\n", qs(m.CostUSD, view.Cost))
	}
}

func (p *printer) ref(x stats.RunRef, what string) {
	agent := ""
	if x.Agent != "" {
		agent = " " + view.Truncate(view.Clean(x.Agent), 20)
	}
	p.f("  %-12s %s %s/%s%s  session %s\n", what, view.Clean(x.RunID), x.Status, orDash(string(x.StopReason)), agent, view.Clean(x.SessionID))
}

func qs(q stats.Quantiles, f func(float64) string) string {
	s := fmt.Sprintf("%s / %s / %s, max %s", f(q.P50), f(q.P90), f(q.P99), f(q.Max))
	if !q.Exact {
		s += " (≈1%)"
	}
	return s
}

func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return view.Count(int64(v))
	}
	if v >= 100 {
		return view.Count(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func durMS(ms float64) string { return view.DurNS(ms * float64(time.Millisecond)) }

func ids(list []string, n int) string {
	clean := make([]string, len(list))
	for i, id := range list {
		clean[i] = view.Clean(id)
	}
	s := strings.Join(clean, " ")
	if n > len(list) {
		s += fmt.Sprintf(" … (%d more)", n-len(list))
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
