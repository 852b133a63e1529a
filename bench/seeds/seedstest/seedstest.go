// Package seedstest installs the seed frameworks for tests: bench/seeds/install.sh puts them,
// at their pinned versions and as their users have them, into $SEEDS_DIR or the user cache.
package seedstest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Seed is one installed framework, as install.sh --list prints it.
type Seed struct {
	// Name is the framework's name in bench/seeds (smolagents, openai-agents-js, …).
	Name string
	// Root is the installed package's root directory.
	Root string
	// Paths are the paths lifeline maps, as one space-separated field.
	Paths string
}

// Install runs install.sh (found from repo, the test's path to the repository root) and returns
// the install directory and its frameworks. When pip, npm or the registries are missing the
// test is skipped, unless LIFELINE_REQUIRE_SEEDS=1 (CI), where it fails.
func Install(t testing.TB, repo string) (string, []Seed) {
	t.Helper()
	dir := os.Getenv("SEEDS_DIR")
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			c = os.TempDir()
		}
		dir = filepath.Join(c, "lifeline-seeds")
	}
	script, err := filepath.Abs(filepath.Join(repo, "bench", "seeds", "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", script, "--list", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := "seed frameworks not installed (" + err.Error() + "): " + strings.TrimSpace(stderr.String())
		if os.Getenv("LIFELINE_REQUIRE_SEEDS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg + "; registries unreachable? set LIFELINE_REQUIRE_SEEDS=1 to make this a failure")
	}
	var seeds []Seed
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("install.sh --list: bad line %q", line)
		}
		seeds = append(seeds, Seed{Name: f[0], Root: f[1], Paths: f[2]})
	}
	return dir, seeds
}
