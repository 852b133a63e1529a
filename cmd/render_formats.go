package cmd

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
	renderchrome "github.com/lifeline-dev/lifeline/render/chrome"
	renderhtml "github.com/lifeline-dev/lifeline/render/html"
	renderjson "github.com/lifeline-dev/lifeline/render/json"
	rendermermaid "github.com/lifeline-dev/lifeline/render/mermaid"
	renderotlp "github.com/lifeline-dev/lifeline/render/otlp"
	rendertext "github.com/lifeline-dev/lifeline/render/text"
	renderwaterfall "github.com/lifeline-dev/lifeline/render/waterfall"
)

// renderFormat is one output format of `lifeline timeline --format`.
type renderFormat struct {
	Name        string
	Description string
}

// renderFormats lists the timeline output formats, the default first.
var renderFormats = []renderFormat{
	{"text", "indented tree with start offsets, durations, statuses, stop reasons, errors and token/cost roll-ups (default)"},
	{"waterfall", "terminal Gantt chart: one bar per node on a time axis, parallel tool calls overlapping, open nodes to the trace end"},
	{"html", "one self-contained HTML file (no network): zoomable waterfall, collapsible tree, search, details pane"},
	{"mermaid", "Markdown with Mermaid Gantt (or, with --mermaid sequence, sequence) diagrams that GitHub renders"},
	{"chrome", "Chrome Trace Event JSON for ui.perfetto.dev and chrome://tracing: a process per run, a track per layer"},
	{"otlp", "OTLP JSON (resourceSpans) with GenAI semantic conventions for otel-tui, Jaeger or an OTel Collector"},
	{"json", "the canonical tree with summary and runs at the top (stable, for programs)"},
}

// renderFormatNames returns the names of renderFormats.
func renderFormatNames() []string {
	names := make([]string, len(renderFormats))
	for i, f := range renderFormats {
		names[i] = f.Name
	}
	return names
}

// renderFormatHelp is the formats as "name: description" lines for a command's long help.
func renderFormatHelp() string {
	var b strings.Builder
	for _, f := range renderFormats {
		fmt.Fprintf(&b, "  %-10s %s\n", f.Name, f.Description)
	}
	return b.String()
}

// renderOptions are the presentation choices the command line makes for every renderer.
type renderOptions struct {
	// Width is the terminal width (text, waterfall); 0 lets the renderer choose.
	Width int
	// Color turns on ANSI colours (text, waterfall).
	Color bool
	// FullIDs prints ids whole (text, waterfall).
	FullIDs bool
	// Mermaid is "gantt" (default) or "sequence".
	Mermaid string
	// Title names the diagram or page (mermaid, html).
	Title string
	// Code is the join of the tree with the map of CodePaths (timeline --code; text, json).
	Code      *join.Result
	CodePaths []string
}

// terminalRenderOptions decides width and colour for output written to out: colour only when
// out is a terminal and NO_COLOR is unset or empty (https://no-color.org), width from the
// terminal, else $COLUMNS, else the renderer's default.
func terminalRenderOptions(out io.Writer) renderOptions {
	var o renderOptions
	f, ok := out.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd()))
	if tty {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			o.Width = w
		}
		o.Color = os.Getenv("NO_COLOR") == ""
	}
	if o.Width == 0 {
		if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
			o.Width = c
		}
	}
	return o
}

// renderTree writes t in the named format to w; findings are shown on the nodes they concern.
func renderTree(w io.Writer, format string, t *model.Tree, findings []model.Finding, opts renderOptions) error {
	var err error
	switch format {
	case "text", "":
		err = rendertext.Render(w, t, rendertext.Options{Width: opts.Width, Color: opts.Color, FullIDs: opts.FullIDs, Findings: findings})
		if err == nil && opts.Code != nil {
			err = rendertext.JoinRender(w, opts.Code, opts.CodePaths)
		}
	case "waterfall":
		err = renderwaterfall.Render(w, t, renderwaterfall.Options{Width: opts.Width, Color: opts.Color, FullIDs: opts.FullIDs, Findings: findings})
	case "html":
		err = renderhtml.Render(w, t, findings, renderhtml.Options{Title: opts.Title})
	case "mermaid":
		switch opts.Mermaid {
		case "", "gantt", "sequence":
		default:
			return fmt.Errorf("unknown --mermaid %q (gantt or sequence)", opts.Mermaid)
		}
		err = rendermermaid.Render(w, t, rendermermaid.Options{Sequence: opts.Mermaid == "sequence", Title: opts.Title, Findings: findings})
	case "chrome":
		err = renderchrome.Render(w, t, renderchrome.Options{Findings: findings})
	case "otlp":
		err = renderotlp.Render(w, t, renderotlp.Options{Findings: findings})
	case "json":
		jo := renderjson.Options{Findings: findings}
		if opts.Code != nil {
			jo.Code = opts.Code
		}
		err = renderjson.Render(w, t, jo)
	default:
		return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(renderFormatNames(), ", "))
	}
	if err != nil {
		return fmt.Errorf("%s output: %w", format, err)
	}
	return nil
}
