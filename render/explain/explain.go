// Package explain renders lifeline explain's documents (model/explain) as text for a terminal,
// Markdown, JSON or one self-contained HTML page. A document's live drawings go through the
// timeline renderers (render/text for the tree, render/json in JSON); everything taken from
// profiles or traces is escaped in HTML.
package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lifeline-dev/lifeline/model/explain"
	"github.com/lifeline-dev/lifeline/model/runtime"
	renderjson "github.com/lifeline-dev/lifeline/render/json"
	rendertext "github.com/lifeline-dev/lifeline/render/text"
)

// Formats are the output formats, the default first.
var Formats = []string{"text", "markdown", "json", "html"}

// Options control the rendering.
type Options struct {
	// Format is one of Formats ("" is text).
	Format string
	// Width is the text width in columns (text); 0 means 100.
	Width int
	// Color emits ANSI bold headings and a coloured tree (text; the caller decides).
	Color bool
}

func (o Options) width() int {
	if o.Width <= 0 {
		return rendertext.DefaultWidth
	}
	return max(o.Width, 60)
}

// Render writes one explained topic.
func Render(w io.Writer, d *explain.Doc, opts Options) error {
	var err error
	switch opts.Format {
	case "", "text":
		err = renderText(w, d, opts)
	case "markdown":
		err = renderMarkdown(w, d)
	case "json":
		err = renderJSON(w, d)
	case "html":
		err = renderHTML(w, d)
	default:
		return fmt.Errorf("unknown format %q (one of %s)", opts.Format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return fmt.Errorf("explain %s (%s): %w", d.Topic, opts.Format, err)
	}
	return nil
}

// RenderList writes the list of topics.
func RenderList(w io.Writer, lang string, list []explain.Summary, opts Options) error {
	switch opts.Format {
	case "", "text":
		var b bytes.Buffer
		b.WriteString(heading(label(lang, "topics"), opts.Color) + "\n\n")
		n := 0
		for _, s := range list {
			n = max(n, len(s.Topic))
		}
		for _, s := range list {
			line := fmt.Sprintf("  %-*s  %s", n, s.Topic, s.Title)
			if len(s.Aliases) > 0 {
				line += strings.TrimRight(paren(lang, colon(lang, label(lang, "aliases"), strings.Join(s.Aliases, ", "))), " ")
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n" + wrap(label(lang, "topics_hint"), opts.width(), "") + "\n")
		_, err := w.Write(b.Bytes())
		return err
	case "markdown":
		var b bytes.Buffer
		b.WriteString("# " + label(lang, "topics") + "\n\n")
		for _, s := range list {
			fmt.Fprintf(&b, "- `%s` — %s\n", s.Topic, mdEscape(s.Title))
		}
		b.WriteString("\n" + label(lang, "topics_hint") + "\n")
		_, err := w.Write(b.Bytes())
		return err
	case "json":
		return writeJSON(w, list)
	case "html":
		return renderListHTML(w, lang, list)
	}
	return fmt.Errorf("unknown format %q (one of %s)", opts.Format, strings.Join(Formats, ", "))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// drawTree renders a drawing's tree with the text timeline renderer.
func drawTree(d explain.Drawing, width int, color bool) (string, error) {
	var b bytes.Buffer
	if err := rendertext.Render(&b, d.Tree, rendertext.Options{Width: width, Color: color}); err != nil {
		return "", err
	}
	// The renderer's header counts the nodes of the cut tree; the drawing shows the whole
	// scenario's shape instead.
	s := b.String()
	if _, rest, ok := strings.Cut(s, "\n\n"); ok {
		s = rest
	}
	return strings.TrimRight(s, "\n"), nil
}

// shapeText is a scenario's shape on one line, its counts named as in JSON.
func shapeText(s runtime.Shape) string {
	return fmt.Sprintf("runs %d · turns %d · steps %d · model_calls %d · tool_calls %d · failed_tool_calls %d",
		s.Runs, s.Turns, s.Steps, s.ModelCalls, s.ToolCalls, s.FailedToolCalls)
}

// jsonDrawing is a drawing in JSON: its tree as render/json writes it.
type jsonDrawing struct {
	explain.Drawing
	Tree json.RawMessage `json:"tree"`
}

func renderJSON(w io.Writer, d *explain.Doc) error {
	out := struct {
		*explain.Doc
		Drawings []jsonDrawing `json:"drawings"`
	}{Doc: d}
	for _, dr := range d.Drawings {
		var b bytes.Buffer
		if err := renderjson.Render(&b, dr.Tree, renderjson.Options{}); err != nil {
			return err
		}
		out.Drawings = append(out.Drawings, jsonDrawing{Drawing: dr, Tree: json.RawMessage(bytes.TrimSpace(b.Bytes()))})
	}
	return writeJSON(w, out)
}

// plain drops the `code` marks of a definition's text.
func plain(s string) string { return strings.ReplaceAll(s, "`", "") }

// ruleText is one profile rule as a line: role, object and what the rule says besides.
func ruleText(r explain.Rule, lang string) string {
	s := r.Role + " " + r.Object
	switch {
	case r.StopReason != "":
		s += " → " + r.StopReason
	case r.Status != "":
		s += " → " + r.Status
	}
	if r.Value != "" {
		s += " = " + r.Value
	}
	if r.Note != "" && lang == "en" {
		s += " — " + r.Note
	}
	return s
}

// wordText is one vocabulary entry as a line.
func wordText(v explain.Word, lang string) string {
	s := v.Layer + ": " + strings.Join(v.Words, ", ")
	if v.Note != "" && lang == "en" {
		s += " — " + v.Note
	}
	return s
}

func factKind(lang, kind string) string {
	if s := label(lang, "fact."+kind); s != "" {
		return s
	}
	return kind
}

// showDescription says whether to print a drawing's scenario description (written in English
// by model/runtime) besides its caption: in English, or when there is no caption.
func showDescription(lang string, d explain.Drawing) bool { return lang == "en" || d.Caption == "" }

// siteText is one map element as a line: kind, value, name, and the code line.
func siteText(s explain.Site) string {
	t := strings.Join(strings.Fields(s.Kind+" "+s.Value+" "+s.What), " ")
	if s.Source != "" {
		t += " — " + s.Source
	}
	return t
}
