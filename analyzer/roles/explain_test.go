package roles

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model/explain"
)

// repoLine returns line n of a repository file, failing when the file or the line does not
// exist.
func repoLine(t *testing.T, loc explain.Location) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(loc.File)))
	if err != nil {
		t.Fatalf("cited %s: %v", loc, err)
	}
	lines := strings.Split(string(data), "\n")
	if loc.Line < 1 || loc.Line > len(lines) {
		t.Fatalf("cited %s: the file has %d lines", loc, len(lines))
	}
	return lines[loc.Line-1]
}

// TestFrameworksCiteTheirLines: every rule and vocabulary entry of every built-in profile is
// cited at a line of this repository that writes it.
func TestFrameworksCiteTheirLines(t *testing.T) {
	fws, err := Frameworks()
	if err != nil {
		t.Fatal(err)
	}
	rules := 0
	for _, p := range Builtin() {
		i := slices.IndexFunc(fws, func(f explain.Framework) bool { return f.Name == p.Name })
		if i < 0 {
			t.Errorf("profile %s missing from Frameworks", p.Name)
			continue
		}
		f := fws[i]
		n := 0
		for _, r := range p.Rules {
			if !r.Not {
				n++
			}
		}
		if len(f.Rules) != n || len(f.Words) != len(p.Vocabulary) {
			t.Errorf("%s: %d rules, %d words; the profile has %d rules (not vetoes), %d words", p.Name, len(f.Rules), len(f.Words), n, len(p.Vocabulary))
		}
		for _, r := range f.Rules {
			rules++
			line := repoLine(t, r.Loc)
			obj := r.Object
			if strings.HasSuffix(r.Loc.File, ".go") {
				_, obj, _ = strings.Cut(line, `"`) // the Go source writes prefix + "suffix"
				obj, _, _ = strings.Cut(obj, `"`)
				if !strings.HasSuffix(r.Object, obj) || !strings.Contains(line, "Role:") {
					t.Errorf("%s cites %s for %s %s: %q", p.Name, r.Loc, r.Role, r.Object, line)
				}
				continue
			}
			if !strings.Contains(line, strconv.Quote(obj)) {
				t.Errorf("%s cites %s for %s %s: %q", p.Name, r.Loc, r.Role, r.Object, line)
			}
		}
		for _, w := range f.Words {
			if line := repoLine(t, w.Loc); !strings.Contains(line, `"words"`) && !strings.Contains(line, strconv.Quote(w.Words[0])) {
				t.Errorf("%s cites %s for the %s words %v: %q", p.Name, w.Loc, w.Layer, w.Words, line)
			}
		}
	}
	if rules < 50 {
		t.Fatalf("only %d rules cited", rules)
	}
}

// TestExplainCitationsExist builds every topic in both languages with the built-in profiles:
// every location a framework table cites exists and writes what it is cited for, and the table
// covers every built-in framework profile.
func TestExplainCitationsExist(t *testing.T) {
	fws, err := Frameworks()
	if err != nil {
		t.Fatal(err)
	}
	table, err := explain.TableFrameworks()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Builtin() {
		if !slices.Contains(table, p.Name) && p != OpenTelemetry {
			t.Errorf("profile %s is not in %s", p.Name, explain.TableFile)
		}
	}
	for _, name := range table {
		if !slices.ContainsFunc(fws, func(f explain.Framework) bool { return f.Name == name }) {
			t.Errorf("%s lists %s, which no built-in profile describes", explain.TableFile, name)
		}
	}
	cited := 0
	for _, topic := range explain.Names() {
		for _, lang := range explain.Languages {
			d, err := explain.Build(context.Background(), topic, lang, fws)
			if err != nil {
				t.Fatalf("%s %s: %v", topic, lang, err)
			}
			if len(d.Frameworks) != len(table) {
				t.Errorf("%s: %d framework rows, want %d", topic, len(d.Frameworks), len(table))
			}
			for _, row := range d.Frameworks {
				if len(row.Names) > 0 {
					cited++
					line := repoLine(t, *row.NamesLoc)
					if !strings.Contains(line, strconv.Quote(row.Framework)+":") || !strings.Contains(line, strconv.Quote(row.Names[0])) {
						t.Errorf("%s/%s: names cited at %s: %q", topic, row.Framework, row.NamesLoc, line)
					}
				}
				for _, r := range row.Rules {
					cited++
					repoLine(t, r.Loc)
				}
				for _, w := range row.Words {
					cited++
					repoLine(t, w.Loc)
				}
			}
		}
	}
	if cited < 100 {
		t.Fatalf("only %d locations cited", cited)
	}
}
