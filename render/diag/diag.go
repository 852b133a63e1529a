// Package diag renders analysis diagnostics: plain text (file:line:col: message, as go vet
// prints), go vet's JSON shape ({package: {analyzer: [diagnostic...]}}), and, through
// render/sarif, SARIF 2.1.0. It knows nothing about the analyzers: commands convert checker
// results into Diagnostics.
package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// Position is a file position; Column is a 1-based byte column, Offset a 0-based byte offset.
type Position struct {
	Filename string
	Line     int
	Column   int
	Offset   int
}

// String returns "file:line:col".
func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// Edit replaces bytes [Start, End) of Filename with New.
type Edit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

// Fix is a suggested fix.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// Related is a secondary position of a diagnostic.
type Related struct {
	Pos     Position
	End     Position
	Message string
}

// Diagnostic is one finding of one check on one package.
type Diagnostic struct {
	// Package is the package ID, Check the analyzer name.
	Package string
	Check   string
	// Category is the diagnostic's sub-rule, if any.
	Category string
	Pos, End Position
	Message  string
	// URL links to the check's documentation.
	URL     string
	Related []Related
	Fixes   []Fix
}

// Rule documents one check.
type Rule struct {
	// ID is the check name.
	ID string
	// Title is the one-line summary; Doc the full documentation text.
	Title, Doc string
	// URL links to the documentation.
	URL string
}

// Sort orders diagnostics by file, line, column, check.
func Sort(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		return a.Check < b.Check
	})
}

// RelTo rewrites every file name below dir as a path relative to dir ("./" is not added).
func RelTo(ds []Diagnostic, dir string) {
	rel := func(p *Position) {
		if r, err := filepath.Rel(dir, p.Filename); err == nil && !strings.HasPrefix(r, "..") && filepath.IsAbs(p.Filename) {
			p.Filename = filepath.ToSlash(r)
		}
	}
	for i := range ds {
		rel(&ds[i].Pos)
		rel(&ds[i].End)
		for j := range ds[i].Related {
			rel(&ds[i].Related[j].Pos)
			rel(&ds[i].Related[j].End)
		}
	}
}

// WriteText prints one diagnostic per line, "file:line:col: message (check)", then its related
// positions indented by a tab, and a documentation link.
func WriteText(w io.Writer, ds []Diagnostic) error {
	for _, d := range ds {
		if _, err := fmt.Fprintf(w, "%s: %s (%s)\n", d.Pos, d.Message, d.Check); err != nil {
			return fmt.Errorf("writing diagnostics: %w", err)
		}
		for _, r := range d.Related {
			if _, err := fmt.Fprintf(w, "\t%s: %s\n", r.Pos, r.Message); err != nil {
				return fmt.Errorf("writing diagnostics: %w", err)
			}
		}
		if d.URL != "" {
			if _, err := fmt.Fprintf(w, "\tsee %s\n", d.URL); err != nil {
				return fmt.Errorf("writing diagnostics: %w", err)
			}
		}
	}
	return nil
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonDiag struct {
	Category       string        `json:"category,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	URL            string        `json:"url,omitempty"`
	SuggestedFixes []Fix         `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`
}

// WriteJSON prints go vet's JSON shape: {"package ID": {"check": [diagnostic, ...]}}, with
// "posn"/"end" as file:line:col and fix edits as byte offsets. Failed analyses are given as
// {"error": "..."} in errs, keyed by package then check.
func WriteJSON(w io.Writer, ds []Diagnostic, errs map[string]map[string]string) error {
	tree := map[string]map[string]any{}
	for _, d := range ds {
		if tree[d.Package] == nil {
			tree[d.Package] = map[string]any{}
		}
		jd := jsonDiag{Category: d.Category, Posn: d.Pos.String(), End: d.End.String(), Message: d.Message, URL: d.URL, SuggestedFixes: d.Fixes}
		for _, r := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{Posn: r.Pos.String(), End: r.End.String(), Message: r.Message})
		}
		list, _ := tree[d.Package][d.Check].([]jsonDiag)
		tree[d.Package][d.Check] = append(list, jd)
	}
	for pkg, m := range errs {
		if tree[pkg] == nil {
			tree[pkg] = map[string]any{}
		}
		for check, e := range m {
			tree[pkg][check] = map[string]string{"error": e}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "\t")
	if err := enc.Encode(tree); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}
