package stats

import (
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/lifeline-dev/lifeline/model/stats"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// HTMLOptions control HTML.
type HTMLOptions struct {
	// Title is the page title (default "lifeline stats").
	Title string
}

// HTML writes the report as one self-contained page: the tables of Text with horizontal bar
// charts drawn as inline SVG (no script, no style or font from the network). Every text from
// the logs goes through html/template's contextual escaping.
func HTML(w io.Writer, r *stats.Report, o HTMLOptions) error {
	if o.Title == "" {
		o.Title = "lifeline stats"
	}
	d := page{Title: o.Title, R: r}
	d.Status = bars(r.ByStatus, func(n string) bool { return n == "failed" || n == "cancelled" })
	d.Stop = bars(r.ByStopReason, func(n string) bool { return n != "goal_reached" && n != "(none)" && n != "awaiting_approval" })
	var tools []stats.NameCount
	for _, t := range r.FailingTools {
		tools = append(tools, stats.NameCount{Name: t.Tool, Count: t.Failed})
	}
	d.Tools = bars(tools, func(string) bool { return true })
	var kinds []stats.NameCount
	for _, k := range r.ErrorKinds {
		kinds = append(kinds, stats.NameCount{Name: k.Kind, Count: k.Total})
	}
	d.Kinds = bars(kinds, func(string) bool { return true })
	var rules []stats.NameCount
	for _, f := range r.Findings {
		rules = append(rules, stats.NameCount{Name: f.Code, Count: f.Total})
	}
	d.Rules = bars(rules, func(string) bool { return true })
	d.Groups = groupCharts(r)
	return pageTemplate.Execute(w, d)
}

type page struct {
	Title                             string
	R                                 *stats.Report
	Status, Stop, Tools, Kinds, Rules chart
	Groups                            []figureChart
}

// chart is a horizontal bar chart: one bar a row, scaled to the largest.
type chart struct {
	Rows   []bar
	Height int
}

type bar struct {
	Label string
	Value string
	Y     int
	W     float64 // bar width in the 0–340 drawing area
	Bad   bool
}

const rowH = 22

func bars(counts []stats.NameCount, bad func(string) bool) chart {
	most := 0
	for _, c := range counts {
		most = max(most, c.Count)
	}
	var ch chart
	for i, c := range counts {
		w := 0.0
		if most > 0 {
			w = 340 * float64(c.Count) / float64(most)
		}
		ch.Rows = append(ch.Rows, bar{Label: view.Truncate(c.Name, 22), Value: view.Count(int64(c.Count)), Y: i * rowH, W: w, Bad: bad(c.Name) && c.Count > 0})
	}
	ch.Height = len(counts) * rowH
	return ch
}

// figureChart draws p50, p90 and p99 of one figure for every group (and all runs).
type figureChart struct {
	Title  string
	Rows   []qbar
	Height int
}

type qbar struct {
	Label         string
	Y             int
	P50, P90, P99 float64 // widths
	Text          string
}

func groupCharts(r *stats.Report) []figureChart {
	type fig struct {
		title string
		get   func(stats.Metrics) stats.Quantiles
		f     func(float64) string
	}
	figs := []fig{
		{"steps per run", func(m stats.Metrics) stats.Quantiles { return m.Steps }, num},
		{"turns per run", func(m stats.Metrics) stats.Quantiles { return m.Turns }, num},
		{"duration", func(m stats.Metrics) stats.Quantiles { return m.DurationMS }, durMS},
		{"tokens per run", func(m stats.Metrics) stats.Quantiles { return m.Tokens }, num},
		{"cost per run", func(m stats.Metrics) stats.Quantiles { return m.CostUSD }, view.Cost},
	}
	type row struct {
		label string
		m     stats.Metrics
	}
	rows := []row{{"all runs", r.Overall}}
	for _, g := range r.Groups {
		rows = append(rows, row{fmt.Sprintf("%s (%d)", g.Key, g.Runs), g.Metrics})
	}
	var out []figureChart
	for _, f := range figs {
		most := 0.0
		for _, x := range rows {
			most = math.Max(most, f.get(x.m).P99)
		}
		if most <= 0 {
			continue
		}
		fc := figureChart{Title: f.title}
		for _, x := range rows {
			q := f.get(x.m)
			if q.Count == 0 {
				continue
			}
			scale := func(v float64) float64 { return 400 * v / most }
			fc.Rows = append(fc.Rows, qbar{Label: view.Truncate(x.label, 40), Y: len(fc.Rows) * rowH,
				P50: scale(q.P50), P90: scale(q.P90), P99: scale(q.P99),
				Text: fmt.Sprintf("%s / %s / %s", f.f(q.P50), f.f(q.P90), f.f(q.P99))})
		}
		fc.Height = len(fc.Rows) * rowH
		out = append(out, fc)
	}
	return out
}

var funcs = template.FuncMap{
	"count":   func(n int) string { return view.Count(int64(n)) },
	"count64": func(n int64) string { return view.Count(n) },
	"cost":    view.Cost,
	"dur":     durMS,
	"dash":    orDash,
	"num":     num,
	"add":     func(a, b int) int { return a + b },
	"px":      func(f float64) string { return fmt.Sprintf("%.1f", f) },
	"addf":    func(a, b float64) float64 { return a + b },
}

var pageTemplate = template.Must(template.New("stats").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{{.Title}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px;margin:0 0 4px} h2{font-size:15px;margin:28px 0 8px;border-bottom:1px solid #dde;padding-bottom:4px}
.sum{color:#556} table{border-collapse:collapse;margin:4px 0} td,th{padding:2px 10px;text-align:left;vertical-align:top}
th{color:#556;font-weight:600} td.n{text-align:right;font-variant-numeric:tabular-nums}
svg text{font:12px system-ui,sans-serif;fill:#1d2330} rect.ok{fill:#6a8fd8} rect.bad{fill:#d8584a}
rect.p50{fill:#3f6fd1} rect.p90{fill:#8aa8e6} rect.p99{fill:#c9d6f3} code{font-size:12px}
.grid{display:flex;flex-wrap:wrap;gap:8px 40px} .grid>section{min-width:560px}
</style></head>
<body>
<h1>{{.Title}}</h1>
<p class="sum" id="summary">{{count .R.Runs}} runs{{if .R.OpenRuns}} ({{count .R.OpenRuns}} open){{end}} ·
{{count .R.Totals.Turns}} turns · {{count .R.Totals.Steps}} steps · {{count .R.Totals.ModelCalls}} model calls ·
{{count .R.Totals.ToolCalls}} tool calls ({{count .R.Totals.FailedToolCalls}} failed) · {{count64 .R.Totals.Tokens}} tokens · {{cost .R.Totals.CostUSD}}</p>
<div class="grid">
<section><h2>Runs by status</h2>{{template "bars" .Status}}</section>
<section><h2>Runs by stop reason</h2>{{template "bars" .Stop}}</section>
{{if .R.Bounds}}<section><h2>Runs that hit a bound</h2><table id="bounds"><tr><th>stop reason</th><th>runs</th><th>run ids</th></tr>
{{range .R.Bounds}}<tr><td>{{.StopReason}}</td><td class="n">{{count .Runs}}</td><td>{{range .RunIDs}}<code>{{.}}</code> {{end}}</td></tr>{{end}}</table></section>{{end}}
{{if .Tools.Rows}}<section><h2>Failing tools (failed calls)</h2>{{template "bars" .Tools}}
<table id="tools"><tr><th>tool</th><th>failed</th><th>calls</th></tr>{{range .R.FailingTools}}<tr><td>{{.Tool}}</td><td class="n">{{count .Failed}}</td><td class="n">{{count .Calls}}</td></tr>{{end}}</table></section>{{end}}
{{if .Kinds.Rows}}<section><h2>Error kinds</h2>{{template "bars" .Kinds}}</section>{{end}}
{{if .Rules.Rows}}<section><h2>Invariant findings by rule</h2>{{template "bars" .Rules}}
<table id="findings"><tr><th>rule</th><th>errors</th><th>warnings</th><th>info</th><th></th></tr>{{range .R.Findings}}<tr><td>{{.Code}}</td><td class="n">{{.Errors}}</td><td class="n">{{.Warnings}}</td><td class="n">{{.Info}}</td><td>{{.Title}}</td></tr>{{end}}</table></section>{{end}}
</div>
<h2>Percentiles per run by {{.R.By}} (p50 / p90 / p99)</h2>
<div class="grid">{{range .Groups}}<section class="figure"><h3>{{.Title}}</h3>
<svg class="qchart" width="900" height="{{.Height}}" role="img" aria-label="{{.Title}}">{{range .Rows}}<g transform="translate(0,{{.Y}})"><text x="0" y="15">{{.Label}}</text>
<rect class="p99" x="300" y="3" width="{{px .P99}}" height="16"></rect><rect class="p90" x="300" y="3" width="{{px .P90}}" height="16"></rect><rect class="p50" x="300" y="3" width="{{px .P50}}" height="16"></rect>
<text x="710" y="15">{{.Text}}</text></g>{{end}}</svg></section>{{end}}</div>
<table id="groups"><tr><th>{{.R.By}}</th><th>runs</th><th>failed</th><th>cancelled</th><th>steps p50/p90/p99</th><th>duration p50/p90/p99</th><th>tokens p50/p90/p99</th><th>cost p50/p90/p99</th></tr>
{{range .R.Groups}}<tr><td>{{.Key}}</td><td class="n">{{count .Runs}}</td><td class="n">{{count .Failed}}</td><td class="n">{{count .Cancelled}}</td>
<td>{{num .Metrics.Steps.P50}} / {{num .Metrics.Steps.P90}} / {{num .Metrics.Steps.P99}}</td><td>{{dur .Metrics.DurationMS.P50}} / {{dur .Metrics.DurationMS.P90}} / {{dur .Metrics.DurationMS.P99}}</td>
<td>{{num .Metrics.Tokens.P50}} / {{num .Metrics.Tokens.P90}} / {{num .Metrics.Tokens.P99}}</td><td>{{cost .Metrics.CostUSD.P50}} / {{cost .Metrics.CostUSD.P90}} / {{cost .Metrics.CostUSD.P99}}</td></tr>{{end}}</table>
{{if .R.Slowest}}<h2>Slowest runs</h2><table id="slowest"><tr><th>duration</th><th>run</th><th>status</th><th>stop reason</th><th>agent</th><th>session</th></tr>
{{range .R.Slowest}}<tr><td class="n">{{dur .DurationMS}}</td><td><code>{{.RunID}}</code></td><td>{{.Status}}</td><td>{{dash (print .StopReason)}}</td><td>{{.Agent}}</td><td><code>{{.SessionID}}</code></td></tr>{{end}}</table>{{end}}
{{if .R.Costliest}}<h2>Costliest runs</h2><table id="costliest"><tr><th>cost</th><th>tokens</th><th>run</th><th>status</th><th>agent</th><th>session</th></tr>
{{range .R.Costliest}}<tr><td class="n">{{cost .CostUSD}}</td><td class="n">{{count64 .Tokens}}</td><td><code>{{.RunID}}</code></td><td>{{.Status}}</td><td>{{.Agent}}</td><td><code>{{.SessionID}}</code></td></tr>{{end}}</table>{{end}}
<p class="sum">Percentiles: {{.R.Sketch}}.</p>
</body></html>
{{define "bars"}}<svg class="bars" width="560" height="{{.Height}}" role="img">{{range .Rows}}<g transform="translate(0,{{.Y}})"><text x="0" y="15">{{.Label}}</text><rect class="{{if .Bad}}bad{{else}}ok{{end}}" x="150" y="3" width="{{px .W}}" height="16"></rect><text x="{{px (addf .W 156)}}" y="15">{{.Value}}</text></g>{{end}}</svg>{{end}}
`))
