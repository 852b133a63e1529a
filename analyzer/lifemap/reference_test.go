package lifemap_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model/explain"
)

// TestReferenceMapCitedByExplain: the sites lifeline explain cites from the reference runtime's
// map exist in this checkout, each at a line that holds the code the map records for it.
// (TestRuntimeMap keeps the map itself equal to a fresh map of model/runtime.)
func TestReferenceMapCitedByExplain(t *testing.T) {
	skipWithoutRuntime(t)
	m, err := lifemap.ReferenceMap()
	if err != nil {
		t.Fatal(err)
	}
	fws, err := roles.Frameworks()
	if err != nil {
		t.Fatal(err)
	}
	fws = explain.WithMap(fws, roles.Lifeline.Name, m)
	files := map[string][]string{}
	cited := 0
	for _, topic := range explain.Names() {
		d, err := explain.Build(context.Background(), topic, "en", fws)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range d.Frameworks {
			for _, s := range row.Sites {
				cited++
				lines, ok := files[s.Loc.File]
				if !ok {
					data, err := os.ReadFile("../../" + s.Loc.File)
					if err != nil {
						t.Fatalf("%s: %v", topic, err)
					}
					lines = strings.Split(string(data), "\n")
					files[s.Loc.File] = lines
				}
				if s.Loc.Line < 1 || s.Loc.Line > len(lines) {
					t.Errorf("%s: %s is past the end of the file", topic, s.Loc)
					continue
				}
				src := strings.TrimSuffix(s.Source, "…")
				if src != "" && !strings.Contains(strings.TrimSpace(lines[s.Loc.Line-1]), src) {
					t.Errorf("%s: %s %s cited at %s, which reads %q", topic, s.Kind, src, s.Loc, lines[s.Loc.Line-1])
				}
			}
		}
	}
	if cited < 15 {
		t.Fatalf("only %d map sites cited", cited)
	}
}
