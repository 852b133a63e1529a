package cmd

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/model"
)

// TestDocReferences resolves every link and every file reference of the user documentation:
// README.md, docs/**, the checks' documentation (the doc strings that vet --explain prints and
// SARIF carries as fullDescription) and each check's URL. A relative link must name a file or
// directory of the repository; a path written in the text (`docs/model.md`, `seeds/`,
// testdata/samples/otel/*.otlp.json) must exist too, relative to the repository root or to the
// document.
func TestDocReferences(t *testing.T) {
	root := ".."
	docs := map[string]string{} // name → text
	read := func(path string) {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		docs[path] = string(data)
	}
	read("README.md")
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			read(filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range analyzer.Checks() {
		docs["doc of check "+a.Name] = a.Doc
		const base = "https://github.com/lifeline-dev/lifeline/blob/main/"
		page, ok := strings.CutPrefix(a.URL, base)
		if !ok {
			t.Errorf("check %s: URL %s is not a page of the repository", a.Name, a.URL)
		} else if _, err := os.Stat(filepath.Join(root, page)); err != nil {
			t.Errorf("check %s: URL %s: %s does not exist", a.Name, a.URL, page)
		}
	}
	// What vet --explain and check --explain print, as a user sees it.
	explain := [][]string{{"check", "--list"}, {"vet", "--list", "--format", "json"}}
	for _, a := range analyzer.Checks() {
		explain = append(explain, []string{"vet", "--explain", a.Name})
	}
	for _, code := range invariantCodes() {
		explain = append(explain, []string{"check", "--explain", code})
	}
	for _, args := range explain {
		out, _, code := lifeline(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		docs["lifeline "+strings.Join(args, " ")] = out
	}

	n := 0
	for name, text := range docs {
		dir := root
		if !strings.HasPrefix(name, "doc of") && !strings.HasPrefix(name, "lifeline ") {
			dir = filepath.Join(root, filepath.Dir(name))
		}
		for _, ref := range docRefs(text) {
			n++
			if !refExists(root, dir, ref) {
				t.Errorf("%s: %q points nowhere", name, ref)
			}
		}
	}
	if n < 50 {
		t.Fatalf("found only %d references: the extraction is broken", n)
	}
}

// TestDocReferencesCatchDeadOnes shows that the extraction sees the kinds of references the
// documentation had dangling.
func TestDocReferencesCatchDeadOnes(t *testing.T) {
	text := "It is distilled from the design documents in `seeds/`.\n" +
		"Only the runtime writes run status (LIFECYCLE.md, invariant L8).\n" +
		"See [the model](missing/model.md#identity) and docs/nothing.md.\n" +
		"See [ids](model.md#identity), [no such part](model.md#no-such-heading) and\n" +
		"https://github.com/lifeline-dev/lifeline/blob/main/docs/gone.md.\n"
	var dead []string
	for _, ref := range docRefs(text) {
		if !refExists("..", "../docs", ref) {
			dead = append(dead, ref)
		}
	}
	want := []string{"missing/model.md#identity", "model.md#no-such-heading", "docs/gone.md", "seeds/", "LIFECYCLE.md", "docs/nothing.md"}
	if strings.Join(dead, " ") != strings.Join(want, " ") {
		t.Fatalf("dead references %q, want %q", dead, want)
	}
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	repoURL   = regexp.MustCompile(`https://github\.com/lifeline-dev/lifeline/blob/main/[^\s)"]+`)
	pathToken = regexp.MustCompile(`^(\.{1,2}/)?[A-Za-z0-9_*.-]+(/[A-Za-z0-9_*.-]+)*/?$`)
	hasExt    = regexp.MustCompile(`\.[a-z]{1,5}$`)
)

// docRefs returns the relative links of text (with their #fragment), the links to files of the
// repository on GitHub (as repository paths), and the repository paths it mentions: a word with a slash that ends with a file extension or a slash, or starts with "./"
// and a top-level directory of the repository, or a bare Markdown file name.
func docRefs(text string) []string {
	var refs []string
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		refs = append(refs, target)
		text = strings.Replace(text, m[0], "]", 1)
	}
	for _, u := range repoURL.FindAllString(text, -1) {
		refs = append(refs, strings.TrimRight(strings.TrimPrefix(u, "https://github.com/lifeline-dev/lifeline/blob/main/"), ".,;:"))
	}
	text = repoURL.ReplaceAllString(text, " ")
	text = regexp.MustCompile(`\bhttps?://\S+`).ReplaceAllString(text, " ")
	top := map[string]bool{}
	if entries, err := os.ReadDir(".."); err == nil {
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				top[e.Name()] = true
			}
		}
	}
	events := map[string]bool{}
	for _, et := range model.EventTypes {
		events[string(et)] = true
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || strings.ContainsRune("`()[]{},;\"'<>|=", r)
	})
	for _, w := range words {
		w = strings.TrimRight(w, ".:")
		w = strings.TrimSuffix(w, "/...")
		if w == "" || w == "." || w == ".." || events[w] || !pathToken.MatchString(w) {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimLeft(w, "./"), "/")
		if strings.Contains(first, ".") && !hasExt.MatchString(w) || strings.Contains(first, ".") && strings.Contains(w, "/") && !top[first] {
			continue // a domain or module path (github.com/…, go.opentelemetry.io/…)
		}
		switch {
		case strings.Contains(w, "/") && (hasExt.MatchString(w) || strings.HasSuffix(w, "/") || strings.HasPrefix(w, "./") && top[first]):
		case !strings.Contains(w, "/") && strings.HasSuffix(w, ".md"):
		default:
			continue
		}
		refs = append(refs, w)
	}
	return refs
}

// refExists reports whether ref names something of the repository, relative to root or dir;
// ref may be a glob (testdata/samples/otel/*.otlp.json), and a Markdown file's #fragment must
// be the anchor of one of its headings (GitHub's: lower case, punctuation dropped, spaces to
// hyphens).
func refExists(root, dir, ref string) bool {
	ref, fragment, _ := strings.Cut(ref, "#")
	for _, base := range []string{root, dir} {
		if fragment != "" {
			data, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(ref)))
			if err == nil && slices.Contains(headingAnchors(string(data)), fragment) {
				return true
			}
			continue
		}
		p := filepath.Join(base, filepath.FromSlash(ref))
		if strings.ContainsAny(ref, "*?") {
			if m, _ := filepath.Glob(p); len(m) > 0 {
				return true
			}
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// headingAnchors returns the anchors GitHub gives the headings of a Markdown text.
func headingAnchors(md string) []string {
	var out []string
	inCode := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
