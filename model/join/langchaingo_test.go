package join_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/model/join"
)

// langchaingoDir returns the directory of github.com/tmc/langchaingo@v0.1.14 in the module
// cache, downloading it through the module proxy when needed (bench/realmods.sh fetches it too);
// the test is skipped when it cannot be had, unless LIFELINE_REQUIRE_SEEDS=1.
func langchaingoDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/tmc/langchaingo@v0.1.14").Output()
	var mod struct{ Dir string }
	if err == nil {
		err = json.Unmarshal(out, &mod)
	}
	if err != nil || mod.Dir == "" {
		msg := "github.com/tmc/langchaingo@v0.1.14 not in the module cache and not downloadable"
		if os.Getenv("LIFELINE_REQUIRE_SEEDS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg + "; set LIFELINE_REQUIRE_SEEDS=1 to make this a failure")
	}
	return mod.Dir
}

// TestLangchaingoJoin joins a real run of langchaingo v0.1.14 (testdata/samples/langchaingo:
// gen/main.go runs agents.Executor offline and records its callbacks) with the map of the same
// version. Read from its code: Executor.Call loops `for i := 0; i < e.MaxIterations; i++`
// (agents/executor.go:58), MaxIterations defaults to _defaultMaxIterations = 5
// (agents/initialize.go:8, options.go:34); when the iterations run out it returns
// `e.getReturn(…), ErrNotFinished` (agents/executor.go:71-74), ErrNotFinished being
// errors.New("agent not finished before max iterations") (agents/errors.go:12); each action runs
// through tool.Call (agents/executor.go:138). The callbacks say only that the run failed with
// that error text: the join must find the return at the bound from the sentinel's message, and
// the bound hit after the default 5 steps.
func TestLangchaingoJoin(t *testing.T) {
	if testing.Short() {
		t.Skip("maps langchaingo")
	}
	dir := langchaingoDir(t)
	tree := readTree(t, "../../testdata/samples/langchaingo/01_max_iterations.events.jsonl")
	m, _, err := lifemap.MapArgs([]string{"./agents"}, lifemap.Options{Dir: dir, Deps: true})
	if err != nil {
		t.Fatal(err)
	}
	names, err := lifemap.IndexLiterals([]string{"./agents"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	res := join.Join(tree, m, join.Options{Names: names})
	if len(res.Runs) != 1 || len(res.Findings) != 0 {
		t.Fatalf("runs %d, findings %v", len(res.Runs), res.Findings)
	}
	r := res.Runs[0]
	if r.Exit == nil || r.Exit.Pos.String() != "agents/executor.go:71" || r.Exit.Confidence != join.High {
		t.Errorf("exit %+v, want agents/executor.go:71 [high]", r.Exit)
	}
	if b := r.Bound; b == nil || !b.Hit || b.Pos.String() != "agents/executor.go:58" || b.Default != "5" || b.Steps != 5 || b.Agrees != "equal" {
		t.Errorf("bound %+v, want agents/executor.go:58 hit after the default 5 steps", b)
	}
	for _, c := range r.Calls {
		if c.Kind == "tool" && (c.Name != "calculator" || c.Pos.String() != "agents/executor.go:138" || c.Confidence != join.High) {
			t.Errorf("tool call %+v, want calculator at agents/executor.go:138 [high]", c)
		}
	}
}
