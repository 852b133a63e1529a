package explain

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/model/explain"
)

func heading(s string, color bool) string {
	if color {
		return "\x1b[1m" + s + "\x1b[0m"
	}
	return s
}

func renderText(w io.Writer, d *explain.Doc, opts Options) error {
	width := opts.width()
	var b bytes.Buffer
	b.WriteString(heading(d.Title, opts.Color) + "\n")
	b.WriteString(strings.Repeat("═", min(runeWidth(d.Title), width)) + "\n\n")
	b.WriteString(heading(label(d.Lang, "definition"), opts.Color) + strings.TrimRight(paren(d.Lang, colon(d.Lang, label(d.Lang, "source"), d.Source)), " ") + "\n")
	for i, p := range d.Definition {
		if item, ok := strings.CutPrefix(p, "- "); ok {
			b.WriteString(wrap("  • "+plain(item), width, "    ") + "\n")
			if i+1 == len(d.Definition) || !strings.HasPrefix(d.Definition[i+1], "- ") {
				b.WriteString("\n")
			}
			continue
		}
		b.WriteString(wrap("  "+plain(p), width, "  ") + "\n\n")
	}
	b.WriteString("\n" + heading(label(d.Lang, "drawing"), opts.Color) + "\n")
	for _, dr := range d.Drawings {
		line := "  " + label(d.Lang, "scenario") + " " + dr.Scenario
		if showDescription(d.Lang, dr) {
			line += " — " + dr.Description
		}
		b.WriteString("\n" + wrap(line, width, "    ") + "\n")
		if dr.Caption != "" {
			b.WriteString(wrap("  "+plain(dr.Caption), width, "  ") + "\n")
		}
		b.WriteString("  " + colon(d.Lang, label(d.Lang, "shape"), shapeText(dr.Shape)) + "\n")
		b.WriteString("  " + strings.TrimSpace(paren(d.Lang, colon(d.Lang, label(d.Lang, "reproduce"), dr.Command))) + "\n\n")
		tree, err := drawTree(dr, width, opts.Color)
		if err != nil {
			return err
		}
		b.WriteString(tree + "\n")
		kind := ""
		for _, f := range dr.Facts {
			if f.Kind != kind {
				kind = f.Kind
				b.WriteString("\n  " + strings.TrimSpace(colon(d.Lang, factKind(d.Lang, kind), "")) + "\n")
			}
			b.WriteString(wrap("    "+f.String(), width, "      ") + "\n")
		}
	}
	b.WriteString("\n" + heading(label(d.Lang, "frameworks"), opts.Color) + "\n")
	b.WriteString(wrap("  "+label(d.Lang, "frameworks_hint"), width, "  ") + "\n")
	for _, row := range d.Frameworks {
		fmt.Fprintf(&b, "\n  %s  %s\n", heading(row.Framework, opts.Color), strings.TrimSpace(paren(d.Lang, colon(d.Lang, label(d.Lang, "version"), row.Version))))
		if row.Absent() {
			b.WriteString("    " + label(d.Lang, "none") + "\n")
		}
		for _, n := range mapNotes(d.Lang, row) {
			b.WriteString(wrap("    "+n, width, "      ") + "\n")
		}
		if row.Absent() {
			continue
		}
		if len(row.Names) > 0 {
			b.WriteString(wrap("    "+colon(d.Lang, label(d.Lang, "names"), strings.Join(row.Names, ", "))+"  ← "+row.NamesLoc.String(), width, "      ") + "\n")
		}
		for _, r := range row.Rules {
			b.WriteString(wrap("    "+ruleText(r, d.Lang)+"  ← "+r.Loc.String(), width, "      ") + "\n")
		}
		for _, v := range row.Words {
			b.WriteString(wrap("    "+wordText(v, d.Lang)+"  ← "+v.Loc.String(), width, "      ") + "\n")
		}
		for _, s := range row.Sites {
			b.WriteString(wrap("    "+colon(d.Lang, label(d.Lang, "map"), siteText(s))+"  ← "+s.Loc.String(), width, "      ") + "\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// runeWidth is the width of s in terminal columns: 2 for wide (CJK) runes.
func runeWidth(s string) int {
	n := 0
	for _, r := range s {
		n += cellWidth(r)
	}
	return n
}

func cellWidth(r rune) int {
	if r >= 0x1100 && (r <= 0x115F || (r >= 0x2E80 && r <= 0xA4CF) || (r >= 0xAC00 && r <= 0xD7A3) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0xFE30 && r <= 0xFE4F) || (r >= 0xFF00 && r <= 0xFF60) || (r >= 0xFFE0 && r <= 0xFFE6)) {
		return 2
	}
	return 1
}

// wrap breaks s into lines of at most width columns, continuing lines with indent: at spaces,
// and between any two wide runes (Chinese has no spaces between words). A word longer than a
// line stays whole.
func wrap(s string, width int, indent string) string {
	var out strings.Builder
	line, lw := "", 0
	for _, tok := range tokens(s) {
		tw := runeWidth(tok)
		if lw > 0 && lw+tw > width && strings.TrimSpace(line) != "" && strings.TrimSpace(tok) != "" {
			out.WriteString(strings.TrimRight(line, " ") + "\n")
			line, lw = indent, runeWidth(indent)
			if tok == " " {
				continue
			}
		}
		if tok == " " && strings.TrimSpace(line) == "" && lw > 0 && line == indent {
			continue
		}
		line += tok
		lw += tw
	}
	out.WriteString(strings.TrimRight(line, " "))
	return out.String()
}

// noBreakBefore are the punctuation marks a line may not start with.
const noBreakBefore = "。，、；：？！）」』】》”’"

// noBreakAfter are the punctuation marks a line may not end with.
const noBreakAfter = "（「『【《“‘"

// opening reports whether s is only opening punctuation (it joins the token after it).
func opening(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune(noBreakAfter, r) {
			return false
		}
	}
	return s != ""
}

// tokens splits s into words, single spaces and single wide runes (each a place to break);
// an opening bracket or quote joins the token after it and closing punctuation the token
// before it, so that neither ends up alone at a line's edge.
func tokens(s string) []string {
	var out []string
	start := 0
	flush := func(i int) {
		if i > start {
			out = append(out, s[start:i])
		}
		start = i
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ':
			flush(i)
			out = append(out, " ")
			start = i + n
		case strings.ContainsRune(noBreakBefore, r) && (len(out) > 0 || i > start):
			flush(i)
			out[len(out)-1] += s[i : i+n] // closing punctuation stays on the line it closes
			start = i + n
		case strings.ContainsRune(noBreakAfter, r):
			if !opening(s[start:i]) {
				flush(i)
			}
			// an opening mark starts the token after it
		case cellWidth(r) == 2:
			if !opening(s[start:i]) {
				flush(i)
			}
			out = append(out, s[start:i+n])
			start = i + n
		}
		i += n
	}
	flush(len(s))
	return out
}
