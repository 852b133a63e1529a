package cmd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo copies the pyagent test sources into a new git repository, commits them and returns
// the repository.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	src := "../analyzer/lifemap/testdata/sources/pyagent"
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "pyagent"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pyagent", e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "agent"}} {
		c := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMapDiff: the working tree of a checkout against its HEAD. Removing ReactAgent.run's
// cancellation check (and with it its cancelled exit) weakens the lifecycle: exit 3, in every
// format; an unchanged tree has no lifecycle change and exits 0.
func TestMapDiff(t *testing.T) {
	dir := gitRepo(t)
	out, errOut, code := lifeline(t, "", "map", "--diff", "HEAD", "-C", dir, "pyagent")
	if code != 0 || !strings.Contains(out, "no lifecycle changes") {
		t.Fatalf("unchanged tree: exit %d\n%s%s", code, out, errOut)
	}
	// Shift every line and drop the cancellation check.
	agent := filepath.Join(dir, "pyagent", "agent.py")
	edit(t, agent, "import asyncio\n", "import asyncio\n\n\n# moved down\n")
	edit(t, agent, "            if self.cancel_event.is_set():\n                raise asyncio.CancelledError()\n", "")
	out, errOut, code = lifeline(t, "", "map", "--diff", "HEAD", "-C", dir, "pyagent")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
	}
	for _, want := range []string{"lifecycle diff HEAD (commit ", "weakens the lifecycle:", "cancel_check_removed: the for loop in agent.ReactAgent.run no longer checks cancellation",
		"exit_removed: cancelled (cancelled) exit \"raise asyncio.CancelledError()\" removed: the run can no longer end cancelled"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	// Only what changed: the lines that moved are not changes.
	if strings.Contains(out, "exit_added") || strings.Contains(out, "site") {
		t.Errorf("moved lines reported as changes:\n%s", out)
	}
	out, _, code = lifeline(t, "", "map", "--diff", "HEAD", "-C", dir, "--format", "json", "pyagent")
	var d struct {
		Weakened bool
		Changes  []struct{ Kind, Effect string }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != exitFindings || !d.Weakened || len(d.Changes) != 2 {
		t.Errorf("json: exit %d, %v, %+v\n%s", code, err, d, out)
	}
	out, _, code = lifeline(t, "", "map", "--diff", "HEAD", "-C", dir, "--format", "markdown", "pyagent")
	if code != exitFindings || !strings.Contains(out, "### Lifecycle changes") || !strings.Contains(out, "**2 changes weaken the lifecycle.**") {
		t.Errorf("markdown: exit %d\n%s", code, out)
	}
}

// TestMapDiffDirectory: BASE a second tree: the PATHS resolve in it, or with one PATH it does not
// contain it is that PATH's older version.
func TestMapDiffDirectory(t *testing.T) {
	old := gitRepo(t)
	cur := gitRepo(t)
	edit(t, filepath.Join(cur, "pyagent", "agent.py"), "async def arun(self, task: str, max_turns: int = 10)", "async def arun(self, task: str, max_turns: int = 25)")
	for _, args := range [][]string{
		{"map", "--diff", old, "-C", cur, "pyagent"},
		{"map", "--diff", filepath.Join(old, "pyagent"), filepath.Join(cur, "pyagent")},
	} {
		out, errOut, code := lifeline(t, "", args...)
		if code != 0 || !strings.Contains(out, "bound_default_changed: default of bound max_turns raised from 10 to 25") || changeLines(out) != 1 {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}

func TestMapDiffErrors(t *testing.T) {
	dir := gitRepo(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"map", "--diff", "no-such-rev", "-C", dir, "pyagent"}, "neither a directory nor a revision"},
		{[]string{"map", "--diff", "HEAD", "-C", dir, "--format", "mermaid", "pyagent"}, "with --diff (text, json or markdown)"},
		{[]string{"map", "--diff", "HEAD", "-C", t.TempDir(), "pyagent"}, "not in a git checkout"},
	} {
		_, errOut, code := lifeline(t, "", tt.args...)
		if code != exitFailure || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

// changeLines counts the changes of a text diff (lines indented by exactly two spaces).
func changeLines(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") {
			n++
		}
	}
	return n
}

// TestMapHTML: --format html writes the page, with the map as its data and the --timeline
// address for the run links.
func TestMapHTML(t *testing.T) {
	out, errOut, code := lifeline(t, "", "map", "--format", "html", "--timeline", "runs.html", "analyzer/lifemap/testdata/sources/pyagent")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"<!DOCTYPE html>", `id="lifeline-data"`, `"func":"agent.ReactAgent.run"`, `"timeline":"runs.html"`, "Content-Security-Policy"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	_, errOut, code = lifeline(t, "", "map", "--format", "svg", "analyzer/lifemap/testdata/sources/pyagent")
	if code != exitFailure || !strings.Contains(errOut, "text, json, mermaid or html") {
		t.Errorf("--format svg: exit %d %s", code, errOut)
	}
}

// TestMapHTMLCoverage: --format html --traces: the page carries the join's coverage; the
// max-steps demo run left through the runtime's failed exit and no other.
func TestMapHTMLCoverage(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.jsonl")
	if _, errOut, code := lifeline(t, "", "demo", "max-steps", "--log", log, "--force"); code != 0 {
		t.Fatalf("demo: exit %d %s", code, errOut)
	}
	out, errOut, code := lifeline(t, "", "map", "--format", "html", "--traces", log, "./model/runtime")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	i := strings.Index(out, `id="lifeline-data">`)
	j := strings.Index(out[i:], "</script>")
	if i < 0 || j < 0 {
		t.Fatal("no data element")
	}
	var data struct {
		Coverage bool
		Entries  []struct {
			Func  string
			Exits []struct {
				Outcome    string
				StopReason string `json:"stop_reason"`
				Taken      *struct{ Runs int }
			}
		}
	}
	if err := json.Unmarshal([]byte(out[i+len(`id="lifeline-data">`):i+j]), &data); err != nil {
		t.Fatal(err)
	}
	if !data.Coverage {
		t.Fatal("no coverage in the page")
	}
	taken := map[string]int{}
	for _, e := range data.Entries {
		for _, x := range e.Exits {
			if x.Taken != nil && x.Taken.Runs > 0 {
				taken[e.Func+" "+x.Outcome+" "+x.StopReason] += x.Taken.Runs
			}
		}
	}
	// The run left through the loop's failed exit (StopReason: cause, no constant), which Start,
	// Retry and Resume all reach.
	if taken["runtime.Runtime.Start failed "] != 1 || len(taken) != 3 {
		t.Errorf("exits taken: %v", taken)
	}
}
