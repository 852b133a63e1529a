package explain

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/lifeline-dev/lifeline/model/explain"
)

// mdEscape makes text safe in a Markdown table cell and as inline text: | and the characters
// that would start markup or HTML are escaped.
func mdEscape(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "|", "\\|", "<", "&lt;", ">", "&gt;", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "\n", " ")
	return r.Replace(s)
}

// mdText makes text with `code` spans safe as Markdown: outside the spans, < and > are escaped
// (no HTML reaches a viewer); the spans stay code.
func mdText(s string) string {
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(parts[i])
	}
	return strings.Join(parts, "`")
}

// mdCode is s as an inline code span (a longer fence when s holds backticks); | is escaped for
// tables.
func mdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") + pad + fence
}

// mdLoc is a location as a link relative to the repository root.
func mdLoc(l explain.Location) string {
	if l.Root != "" { // a file of an installed framework, not of this repository
		return mdCode(l.String())
	}
	u := (&url.URL{Path: l.File}).EscapedPath()
	u = strings.NewReplacer("(", "%28", ")", "%29").Replace(u)
	return fmt.Sprintf("[%s](%s#L%d)", mdEscape(l.String()), u, l.Line)
}

func renderMarkdown(w io.Writer, d *explain.Doc) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n## %s\n\n", mdText(d.Title), label(d.Lang, "definition"))
	for i, p := range d.Definition {
		b.WriteString(mdText(p) + "\n")
		if i+1 < len(d.Definition) && !(strings.HasPrefix(p, "- ") && strings.HasPrefix(d.Definition[i+1], "- ")) {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "\n*%s*\n\n## %s\n", colon(d.Lang, label(d.Lang, "source"), "["+d.Source+"]("+d.Source+")"), label(d.Lang, "drawing"))
	for _, dr := range d.Drawings {
		fmt.Fprintf(&b, "\n### %s `%s`\n", label(d.Lang, "scenario"), dr.Scenario)
		if showDescription(d.Lang, dr) {
			b.WriteString("\n" + mdEscape(dr.Description) + "\n")
		}
		if dr.Caption != "" {
			b.WriteString("\n" + mdText(dr.Caption) + "\n")
		}
		fmt.Fprintf(&b, "\n%s · %s\n\n", colon(d.Lang, label(d.Lang, "shape"), mdCode(shapeText(dr.Shape))), colon(d.Lang, label(d.Lang, "reproduce"), mdCode(dr.Command)))
		tree, err := drawTree(dr, 100, false)
		if err != nil {
			return err
		}
		fence := "```"
		for strings.Contains(tree, fence) {
			fence += "`"
		}
		b.WriteString(fence + "text\n" + tree + "\n" + fence + "\n")
		if len(dr.Facts) > 0 {
			b.WriteString("\n")
		}
		for _, f := range dr.Facts {
			items := make([]string, len(f.Items))
			for i, it := range f.Items {
				items[i] = mdCode(it)
			}
			fmt.Fprintf(&b, "- %s — %s\n", mdEscape(factKind(d.Lang, f.Kind)), colon(d.Lang, mdCode(f.Subject), strings.Join(items, " · ")))
		}
	}
	fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", label(d.Lang, "frameworks"), label(d.Lang, "frameworks_hint"))
	fmt.Fprintf(&b, "| %s | %s | %s | %s |\n|---|---|---|---|\n", label(d.Lang, "framework"), label(d.Lang, "version"), label(d.Lang, "names"), label(d.Lang, "implements"))
	for _, row := range d.Frameworks {
		names := "—"
		if len(row.Names) > 0 {
			cs := make([]string, len(row.Names))
			for i, n := range row.Names {
				cs[i] = mdCode(n)
			}
			names = strings.Join(cs, ", ") + " (" + mdLoc(*row.NamesLoc) + ")"
		}
		var impl []string
		for _, r := range row.Rules {
			s := mdCode(r.Role) + " " + mdCode(r.Object)
			if r.StopReason != "" {
				s += " → " + mdCode(r.StopReason)
			}
			if r.Value != "" {
				s += " = " + mdCode(r.Value)
			}
			impl = append(impl, s+" ("+mdLoc(r.Loc)+")")
		}
		for _, v := range row.Words {
			cs := make([]string, len(v.Words))
			for i, x := range v.Words {
				cs[i] = mdCode(x)
			}
			impl = append(impl, mdEscape(v.Layer)+": "+strings.Join(cs, ", ")+" ("+mdLoc(v.Loc)+")")
		}
		for _, st := range row.Sites {
			x := mdEscape(label(d.Lang, "map")) + label(d.Lang, "colon") + mdCode(strings.Join(strings.Fields(st.Kind+" "+st.Value+" "+st.What), " "))
			if st.Source != "" {
				x += " " + mdCode(st.Source)
			}
			impl = append(impl, x+" ("+mdLoc(st.Loc)+")")
		}
		if row.Absent() {
			impl = []string{label(d.Lang, "none")}
		} else if len(impl) == 0 {
			impl = []string{"—"}
		}
		for _, n := range mapNotes(d.Lang, row) {
			impl = append(impl, "*"+mdEscape(n)+"*")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdEscape(row.Framework), mdCode(row.Version), names, strings.Join(impl, "<br>"))
	}
	_, err := w.Write(b.Bytes())
	return err
}
