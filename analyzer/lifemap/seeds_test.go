package lifemap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/bench/seeds/seedstest"
	"github.com/lifeline-dev/lifeline/render/text"
)

// seedsDir installs the seed frameworks of issue 11 with bench/seeds/install.sh, as their users
// have them, at the pinned versions, into $SEEDS_DIR or the user cache, and returns the
// "name<TAB>root<TAB>paths" lines it lists. When the registries cannot be reached (or pip/npm
// are missing) the test is skipped, unless LIFELINE_REQUIRE_SEEDS=1 (CI), where it fails.
func seedsDir(t *testing.T) [][3]string {
	t.Helper()
	_, seeds := seedstest.Install(t, "../..")
	var list [][3]string
	for _, s := range seeds {
		list = append(list, [3]string{s.Name, s.Root, s.Paths})
	}
	return list
}

// TestSeedMaps: the text map of each seed framework, installed by bench/seeds/install.sh, is
// its golden file testdata/seeds/NAME.map.txt (go test -update rewrites them). The ground truth
// is bench/seeds/*.truth.json, scored by bench/seeds/run.sh; these goldens pin what the map
// shows, framework words included.
func TestSeedMaps(t *testing.T) {
	if testing.Short() {
		t.Skip("maps seven installed frameworks")
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seedsDir(t) {
		name, root, paths := s[0], s[1], strings.Fields(s[2])
		t.Run(name, func(t *testing.T) {
			t.Chdir(root)
			m, _, err := lifemap.BuildSources(paths)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := text.MapRender(&b, m); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "framework words ("+name+")") {
				t.Errorf("the map of %s does not show its framework words:\n%.400s", name, b.String())
			}
			t.Chdir(here)
			golden(t, filepath.Join("seeds", name+".map.txt"), b.Bytes())
		})
	}
}
