package cmd

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/bench/seeds/seedstest"
	"github.com/lifeline-dev/lifeline/model/explain"
)

// seedInstall installs the seed frameworks with bench/seeds/install.sh (as model/join's seed
// tests do) and returns the install directory and its --list lines (name, root, paths). Without
// pip/npm or the registries the test is skipped, unless LIFELINE_REQUIRE_SEEDS=1.
func seedInstall(t *testing.T) (string, [][]string) {
	t.Helper()
	if testing.Short() {
		t.Skip("maps installed frameworks")
	}
	dir, seeds := seedstest.Install(t, "..")
	var rows [][]string
	for _, s := range seeds {
		rows = append(rows, []string{s.Name, s.Root, s.Paths})
	}
	return dir, rows
}

// TestExplainInstalledLayout: explain.Installed finds every framework where install.sh --list
// says it is, with the paths it maps.
func TestExplainInstalledLayout(t *testing.T) {
	dir, rows := seedInstall(t)
	got := map[string]explain.Install{}
	for _, in := range explain.Installed(dir) {
		got[in.Name] = in
	}
	if len(got) != len(rows) {
		t.Errorf("Installed lists %d frameworks, install.sh --list %d", len(got), len(rows))
	}
	for _, r := range rows {
		in, ok := got[r[0]]
		if !ok {
			t.Errorf("Installed lacks %s", r[0])
			continue
		}
		if in.Root != filepath.Clean(r[1]) || !slices.Equal(in.Paths, strings.Fields(r[2])) || !in.Present {
			t.Errorf("%s: Installed %+v, install.sh --list root %s paths %s", r[0], in, r[1], r[2])
		}
	}
}

// TestExplainFrameworkRootSites maps the installed seed frameworks as explain --framework-root
// does: every seed framework's row of the turn topic cites its turn loop, and every map site any
// topic cites is the line of an installed file it names (its source text is on that line).
func TestExplainFrameworkRootSites(t *testing.T) {
	dir, rows := seedInstall(t)
	fws, err := roles.Frameworks()
	if err != nil {
		t.Fatal(err)
	}
	if fws, err = withInstalledMaps(fws, dir); err != nil {
		t.Fatal(err)
	}
	lines := map[string][]string{}
	fileLines := func(path string) []string {
		if l, ok := lines[path]; ok {
			return l
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("cited file: %v", err)
		}
		lines[path] = strings.Split(string(data), "\n")
		return lines[path]
	}
	cited := map[string]int{}
	for _, topic := range explain.Names() {
		doc, err := explain.Build(context.Background(), topic, "en", fws)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range doc.Frameworks {
			if !slices.ContainsFunc(rows, func(r []string) bool { return r[0] == row.Framework }) {
				continue
			}
			if row.Map.State != explain.MapInstalled || row.Map.Root == "" {
				t.Errorf("%s %s: map %+v, want installed", topic, row.Framework, row.Map)
			}
			if topic == "turn" && !slices.ContainsFunc(row.Sites, func(s explain.Site) bool { return s.Kind == "loop" }) {
				t.Errorf("turn %s: no loop site among %v", row.Framework, row.Sites)
			}
			for _, s := range row.Sites {
				cited[row.Framework]++
				if s.Loc.Root != row.Map.Root {
					t.Errorf("%s %s: site %s root %q, want %q", topic, row.Framework, s.Loc, s.Loc.Root, row.Map.Root)
				}
				l := fileLines(filepath.Join(s.Loc.Root, s.Loc.File))
				if s.Loc.Line < 1 || s.Loc.Line > len(l) {
					t.Errorf("%s %s: %s: no such line", topic, row.Framework, s.Loc)
					continue
				}
				src := strings.TrimSuffix(s.Source, "…")
				if first, _, _ := strings.Cut(src, "\n"); src != "" && !strings.Contains(strings.Join(strings.Fields(l[s.Loc.Line-1]), " "), strings.Join(strings.Fields(first), " ")) {
					t.Errorf("%s %s: %s is %q, the map cites %q", topic, row.Framework, s.Loc, strings.TrimSpace(l[s.Loc.Line-1]), s.Source)
				}
			}
		}
	}
	for _, r := range rows {
		if cited[r[0]] == 0 {
			t.Errorf("%s: no map site cited by any topic", r[0])
		}
	}
}

// TestExplainNoFrameworkRoot: without --framework-root each seed framework's row says its map
// was not computed; a root that is not a directory is an error.
func TestExplainNoFrameworkRoot(t *testing.T) {
	fws, err := roles.Frameworks()
	if err != nil {
		t.Fatal(err)
	}
	got, err := withInstalledMaps(fws, "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range got {
		if f.Map.State == explain.MapNotRequested {
			n++
			if len(f.Sites) != 0 {
				t.Errorf("%s: %d sites without a map", f.Name, len(f.Sites))
			}
		}
	}
	if n != len(explain.Installed("")) {
		t.Errorf("%d frameworks say their map was not requested, want %d", n, len(explain.Installed("")))
	}
	missing := filepath.Join(t.TempDir(), "none")
	if _, err := withInstalledMaps(fws, missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("--framework-root %s: error %v", missing, err)
	}
	got, err = withInstalledMaps(fws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if f.Map.State == explain.MapNotRequested || (f.Map.State == explain.MapInstalled) {
			t.Errorf("%s: map %+v in an empty root, want not_installed", f.Name, f.Map)
		}
	}
}
