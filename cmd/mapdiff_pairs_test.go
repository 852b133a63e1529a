package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pairChange is a lifecycle change expected between two releases, written by reading the two
// releases' code, not lifeline's output.
type pairChange struct {
	kind, effect, loop, subject, newPos string
}

// releasePairs are the expected lifecycle changes between two real releases of a framework.
var releasePairs = map[string]struct {
	want []pairChange
	exit int
}{
	// smolagents 1.17.0 → 1.18.0 (agents.py). ToolCallingAgent._step_stream used to run the
	// model's first tool call only (`tool_call = chat_message.tool_calls[0]`, then
	// `self.execute_tool_call(tool_name, tool_arguments)`); 1.18.0 moves the dispatch to
	// process_tool_calls, which submits each call's process_single_tool_call (whose
	// `self.execute_tool_call(tool_name, tool_arguments)` is line 1316) to a ThreadPoolExecutor
	// (`executor.submit(process_single_tool_call, call_info)`, line 1343): the tool calls of one
	// step of MultiStepAgent._run_stream's loop now run in parallel. ToolCallingAgent._step_stream
	// gains a streaming branch, `output_stream = self.model.generate_stream(` (line 1214), a second
	// site of a callee the loop already reached through CodeAgent (line 1470 → 1585). Nothing
	// else of the lifecycle moves: `while final_answer is None and self.step_number <=
	// max_steps`, max_steps=20, the interrupt_switch check (`raise AgentError("Agent
	// interrupted.")`) and run()'s returns and raises are unchanged text, only shifted by the
	// new lines above them. Neither change weakens the lifecycle: exit 0.
	"smolagents": {want: []pairChange{
		{"tools_parallel", "changes", "for loop in agents.MultiStepAgent._run_stream", "", "smolagents/agents.py:1316"},
		{"model_site_added", "changes", "for loop in agents.MultiStepAgent._run_stream", "smolagents.models.Model.generate_stream", "smolagents/agents.py:1214"},
	}},
	// langchaingo v0.1.13 → v0.1.14 (agents/). Executor.Call takes its options
	// (`_ ...chains.ChainCallOption` → `options ...`) and passes them to doIteration and
	// Agent.Plan; tool.Call's input gets strings.TrimSuffix(…, "\nObservation:"); the
	// conversational agent's Plan builds predictOptions before chains.Predict. Every line moves,
	// but the loop `for i := 0; i < e.MaxIterations; i++`, _defaultMaxIterations = 5, the
	// ErrNotFinished return at the bound, the absence of a ctx check, the sequential tool call
	// and every return of Call and the Plan methods stay: no lifecycle change, exit 0.
	"langchaingo": {want: nil},
	// langgraph 1.0.5 → 1.0.6 (pip, --no-deps). _internal/_config.py:31 raises the default
	// recursion limit, `DEFAULT_RECURSION_LIMIT = int(getenv("LANGGRAPH_DEFAULT_RECURSION_LIMIT",
	// "25"))` → `"10000"`; it is the `recursion_limit` the config gets when the caller sets none
	// (_config.py:288), which PregelLoop turns into `self.stop = self.step +
	// self.config["recursion_limit"] + 1` (pregel/_loop.py:1120, 1301) and tests in tick, `if
	// self.step > self.stop` (:467), for the `while loop.tick()` loops of Pregel.stream
	// (pregel/main.py:2643) and Pregel.astream (:2971): the default of both loops' bound changes
	// from 25 to 10000, still a bound (changes, not weakens). The rest of the diff is
	// ensure_valid_checkpointer (a TypeError for a bad checkpointer argument, in the
	// constructors of StateGraph.compile and Pregel, before any run) and the namespace
	// comparison of a Command in _retry.py: no lifecycle change. Exit 0.
	"langgraph": {want: []pairChange{
		{"bound_default_changed", "changes", "engine loop in main.Pregel.stream", "self.stop", "langgraph/_internal/_config.py:31"},
		{"bound_default_changed", "changes", "engine loop in main.Pregel.astream", "self.stop", "langgraph/_internal/_config.py:31"},
	}},
}

// TestMapDiffReleasePairs maps real release pairs fetched by testdata/mapdiff-pairs/fetch.sh
// (pip and the Go module proxy) and compares lifeline map --diff with the changes written above
// from their code diffs: exactly those changes, no others. Without the registries the test is
// skipped, unless LIFELINE_REQUIRE_SEEDS=1.
func TestMapDiffReleasePairs(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches and maps six framework releases")
	}
	script, err := filepath.Abs("testdata/mapdiff-pairs/fetch.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("MAPDIFF_PAIRS_DIR")
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			c = os.TempDir()
		}
		dir = filepath.Join(c, "lifeline-mapdiff-pairs")
	}
	fetch := exec.Command("sh", script, dir)
	var stderr bytes.Buffer
	fetch.Stderr = &stderr
	out, err := fetch.Output()
	if err != nil {
		msg := "release pairs not fetched (" + err.Error() + "): " + strings.TrimSpace(stderr.String())
		if os.Getenv("LIFELINE_REQUIRE_SEEDS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg + "; registries unreachable? set LIFELINE_REQUIRE_SEEDS=1 to make this a failure")
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("fetch.sh: bad line %q", line)
		}
		name, base, head, paths := f[0], f[1], f[2], strings.Fields(f[3])
		pair, ok := releasePairs[name]
		if !ok {
			t.Fatalf("fetch.sh lists %s, which has no expected changes", name)
		}
		seen++
		t.Run(name, func(t *testing.T) {
			args := append([]string{"map", "--diff", base, "-C", head, "--format", "json"}, paths...)
			stdout, errOut, code := lifeline(t, "", args...)
			if code != pair.exit {
				t.Fatalf("exit %d, want %d\n%s", code, pair.exit, errOut)
			}
			var d struct {
				BaseEntries int `json:"base_entries"`
				HeadEntries int `json:"head_entries"`
				Changes     []struct {
					Kind, Effect, Loop, Subject string
					NewPos                      string `json:"new_pos"`
				}
			}
			if err := json.Unmarshal([]byte(stdout), &d); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			// No change must mean the same entries, not two empty maps.
			if d.BaseEntries == 0 || d.HeadEntries == 0 {
				t.Fatalf("entries: base %d, head %d", d.BaseEntries, d.HeadEntries)
			}
			var got []pairChange
			for _, c := range d.Changes {
				got = append(got, pairChange{c.Kind, c.Effect, c.Loop, c.Subject, c.NewPos})
			}
			if !slices.Equal(got, pair.want) {
				t.Errorf("changes:\n  got  %v\n  want %v", got, pair.want)
			}
		})
	}
	if seen != len(releasePairs) {
		t.Errorf("fetch.sh listed %d pairs, want %d", seen, len(releasePairs))
	}
}
