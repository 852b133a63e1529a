// Package mapdiff renders a lifecycle diff (model/mapdiff.Diff): as text for a terminal, as
// JSON for programs and as Markdown for a pull-request comment. Every string that comes from
// the code under review (function names, source text, file names) is escaped for the format.
package mapdiff

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lifeline-dev/lifeline/model/mapdiff"
)

var effects = []mapdiff.Effect{mapdiff.Weakens, mapdiff.Strengthens, mapdiff.Changes}

func heading(e mapdiff.Effect) string {
	switch e {
	case mapdiff.Weakens:
		return "weakens the lifecycle"
	case mapdiff.Strengthens:
		return "strengthens the lifecycle"
	}
	return "other lifecycle changes"
}

func counts(d *mapdiff.Diff) string {
	return fmt.Sprintf("%d weaken, %d strengthen, %d other", d.Count(mapdiff.Weakens), d.Count(mapdiff.Strengthens), d.Count(mapdiff.Changes))
}

func where(c mapdiff.Change) string {
	switch {
	case c.OldPos.IsValid() && c.NewPos.IsValid():
		if c.OldPos == c.NewPos {
			return "at " + c.NewPos.String()
		}
		return "at " + c.OldPos.String() + " → " + c.NewPos.String()
	case c.NewPos.IsValid():
		return "at " + c.NewPos.String()
	case c.OldPos.IsValid():
		return "was at " + c.OldPos.String()
	}
	return ""
}

// Text writes the diff for a terminal: a summary line, then the changes grouped by effect, each
// with its kind, its sentence, where it is (base → head position) and the entries it concerns.
func Text(w io.Writer, d *mapdiff.Diff) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "lifecycle diff %s → %s: ", d.Base, d.Head)
	switch {
	case len(d.Changes) == 0 && d.BaseEntries == 0 && d.HeadEntries == 0:
		fmt.Fprintln(bw, "no run entry point in either version: nothing to compare")
	case len(d.Changes) == 0:
		fmt.Fprintf(bw, "no lifecycle changes (%d run %s in each)\n", d.HeadEntries, plural(d.HeadEntries, "entry", "entries"))
	default:
		fmt.Fprintf(bw, "%d %s (%s)\n", len(d.Changes), plural(len(d.Changes), "change", "changes"), counts(d))
	}
	for _, e := range effects {
		first := true
		for _, c := range d.Changes {
			if c.Effect != e {
				continue
			}
			if first {
				fmt.Fprintf(bw, "\n%s:\n", heading(e))
				first = false
			}
			fmt.Fprintf(bw, "  %s: %s\n", c.Kind, c.Summary)
			if at := where(c); at != "" {
				fmt.Fprintf(bw, "    %s\n", at)
			}
			fmt.Fprintf(bw, "    entries: %s\n", strings.Join(c.Entries, ", "))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing lifecycle diff: %w", err)
	}
	return nil
}

// JSON writes the diff as indented JSON: {"base", "head", "changes": [{kind, effect, summary,
// entries, loop, subject, old, new, old_pos, new_pos}], "weakened"}.
func JSON(w io.Writer, d *mapdiff.Diff) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return fmt.Errorf("writing lifecycle diff: %w", err)
	}
	return nil
}

// Markdown writes the diff as a pull-request comment: a heading with the verdict, then one table
// per effect (change, where, entries). Text from the code is escaped so that it cannot open a
// code span, a link, an HTML tag or a table cell.
func Markdown(w io.Writer, d *mapdiff.Diff) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### Lifecycle changes: %s → %s\n\n", md(d.Base), md(d.Head))
	switch {
	case len(d.Changes) == 0 && d.BaseEntries == 0 && d.HeadEntries == 0:
		fmt.Fprintln(bw, "Neither version has a run entry point: nothing to compare.")
	case len(d.Changes) == 0:
		fmt.Fprintf(bw, "No lifecycle changes: the %d run %s, their turn loops, bounds, cancellation checks, call sites, exits and id sites are the same.\n", d.HeadEntries, plural(d.HeadEntries, "entry", "entries"))
	case d.Weakened:
		fmt.Fprintf(bw, "**%d %s the lifecycle.** %d %s in all (%s).\n", d.Count(mapdiff.Weakens), plural(d.Count(mapdiff.Weakens), "change weakens", "changes weaken"), len(d.Changes), plural(len(d.Changes), "change", "changes"), counts(d))
	default:
		fmt.Fprintf(bw, "No change weakens the lifecycle. %d %s in all (%s).\n", len(d.Changes), plural(len(d.Changes), "change", "changes"), counts(d))
	}
	for _, e := range effects {
		first := true
		for _, c := range d.Changes {
			if c.Effect != e {
				continue
			}
			if first {
				fmt.Fprintf(bw, "\n#### %s\n\n| change | where | entries |\n|---|---|---|\n", mdHeading(e))
				first = false
			}
			entries := make([]string, len(c.Entries))
			for i, en := range c.Entries {
				entries[i] = md(en)
			}
			fmt.Fprintf(bw, "| %s<br>%s | %s | %s |\n", md(string(c.Kind)), md(c.Summary), md(where(c)), strings.Join(entries, "<br>"))
		}
	}
	fmt.Fprintln(bw, "\n<sub>lifeline map --diff: lifecycle elements are matched by function, kind and callee, not by line.</sub>")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing lifecycle diff: %w", err)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func mdHeading(e mapdiff.Effect) string {
	switch e {
	case mapdiff.Weakens:
		return "⚠️ Weakens the lifecycle"
	case mapdiff.Strengthens:
		return "Strengthens the lifecycle"
	}
	return "Other lifecycle changes"
}

// md escapes text for a Markdown table cell: <, > and & become entities (no HTML tag, no
// entity can start), the characters that open emphasis, a code span, a link or a new cell get a
// backslash (CommonMark), line breaks become spaces, control characters are dropped.
func md(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_[]~|#!", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
