// Package analysisutil holds helpers shared by lifeline's analysis passes: doc extraction,
// documentation links, suppression directives and small AST utilities.
package analysisutil

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// DocsBase is where each check's documentation lives; a check's URL is DocsBase + name + ".md".
const DocsBase = "https://github.com/lifeline-dev/lifeline/blob/main/docs/checks/"

// URL returns the documentation link of a check.
func URL(name string) string { return DocsBase + name + ".md" }

// MustExtractDoc returns the documentation of analyzer name from the package comment in
// content (the text of a doc.go): the text after the "# Analyzer name" heading, up to the next
// heading, with the leading "name: " of the title removed. It panics on a malformed doc.go, a
// programming error caught by every test.
func MustExtractDoc(content, name string) string {
	doc, err := ExtractDoc(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

// ExtractDoc is MustExtractDoc with an error.
func ExtractDoc(content, name string) (string, error) {
	var lines []string
	in := false
	for _, line := range strings.Split(content, "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		text, ok := strings.CutPrefix(line, "//")
		if !ok {
			continue
		}
		text = strings.TrimPrefix(text, " ")
		if strings.HasPrefix(text, "# ") {
			if in {
				break
			}
			in = text == "# Analyzer "+name
			continue
		}
		if in {
			lines = append(lines, text)
		}
	}
	doc := strings.TrimSpace(strings.Join(lines, "\n"))
	if doc == "" {
		return "", fmt.Errorf("doc.go: no \"# Analyzer %s\" section", name)
	}
	title, ok := strings.CutPrefix(doc, name+": ")
	if !ok {
		return "", fmt.Errorf("doc.go: section of %s must start with %q", name, name+": ")
	}
	return title, nil
}

// Ignored reports whether a //lifeline:ignore directive naming check (or "all") with a reason
// covers pos: on the same line or on the line just above. A //lifeline:file-ignore directive
// anywhere in the file covers the whole file.
func Ignored(pass *analysis.Pass, pos token.Pos, check string) bool {
	file := FileOf(pass, pos)
	if file == nil {
		return false
	}
	line := pass.Fset.Position(pos).Line
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			rest, ok := strings.CutPrefix(c.Text, "//lifeline:")
			if !ok {
				continue
			}
			fields := strings.Fields(rest)
			if len(fields) < 3 { // verb, check, reason
				continue
			}
			if fields[1] != check && fields[1] != "all" {
				continue
			}
			switch fields[0] {
			case "file-ignore":
				return true
			case "ignore":
				cl := pass.Fset.Position(c.Slash).Line
				if cl == line || cl == line-1 {
					return true
				}
			}
		}
	}
	return false
}

// FileOf returns the syntax tree of the file holding pos.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Report reports d unless a //lifeline:ignore directive suppresses it. It fills in the URL
// from the check's documentation when d has none, so each diagnostic links to its doc.
func Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if Ignored(pass, d.Pos, pass.Analyzer.Name) {
		return
	}
	if d.URL == "" {
		d.URL = pass.Analyzer.URL
	}
	pass.Report(d)
}

// Reportf is Report with a formatted message and no end, fix or related information.
func Reportf(pass *analysis.Pass, pos token.Pos, format string, args ...any) {
	Report(pass, analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Render prints a node as Go source, on one line, shortened to max runes (0: no limit).
func Render(fset *token.FileSet, n ast.Node, max int) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, n); err != nil {
		return "?"
	}
	s := strings.Join(strings.Fields(buf.String()), " ")
	if max > 0 && len([]rune(s)) > max {
		s = string([]rune(s)[:max-1]) + "…"
	}
	return s
}

// Safe wraps an analyzer's run function so that a bug in lifeline turns into an analysis error
// naming the package, not a crash of the whole driver.
func Safe(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if r := recover(); r != nil {
				result, err = nil, fmt.Errorf("internal error in %s on %s: %v (please report this)", pass.Analyzer.Name, pass.Pkg.Path(), r)
			}
		}()
		return run(pass)
	}
}
