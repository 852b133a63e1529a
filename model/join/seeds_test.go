package join_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/bench/seeds/seedstest"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
	"github.com/lifeline-dev/lifeline/tracer"
)

// seedRoots installs the seed frameworks with bench/seeds/install.sh (pinned versions, as their
// users have them) and returns name → package root. Without pip/npm or the registries the test
// is skipped, unless LIFELINE_REQUIRE_SEEDS=1 (CI), where it fails.
func seedRoots(t *testing.T) map[string]string {
	t.Helper()
	_, seeds := seedstest.Install(t, "../..")
	roots := map[string]string{}
	for _, s := range seeds {
		roots[s.Name] = s.Root
	}
	return roots
}

func readTree(t *testing.T, file string) *model.Tree {
	t.Helper()
	p := model.NewProjector()
	if _, err := tracer.Read([]string{file}, tracer.Options{}, func(ev *model.Event) { p.Apply(ev) }); err != nil {
		t.Fatal(err)
	}
	return p.Tree()
}

// seedCase is a real log of a seed framework (testdata/samples, made by the framework at the
// version bench/seeds/install.sh pins) with the join expected from reading that version's code.
type seedCase struct {
	seed, paths, log string
	exit             string // the raise or exit that ended the run
	bound, onBound   string
	boundDefault     string
	steps            int
	agrees           string
	tools            map[string]string // tool name → call site
	model            string            // a call site the model calls may have gone through
	modelHigh        bool              // whether the trace says which
	// exitOutcome and exitStop, when set, are the outcome and stop reason the exit stands for in
	// this run (of the several an exit taken under a guard stands for).
	exitOutcome string
	exitStop    model.StopReason
	// exitGap, when set, is why lifeline's map cannot yet produce the exit read from the code
	// (an analyzer gap): the rest of the case is checked, then the case is skipped, not passed.
	exitGap string
}

var seedCases = []seedCase{{
	// @openai/agents-core 0.20.0 (testdata/samples/openai-agents-streams, gen.mjs: run(…, {stream:
	// true, maxTurns: 2})). The stream loop (#runStreamLoop, dist/run.js:1542) calls prepareTurn
	// (dist/run.js:1685), which for the third SDK turn finds state._currentTurn > state._maxTurns
	// (dist/runner/turnPreparation.js:63) and throws MaxTurnsExceededError (:68): two lifeline Steps,
	// below DEFAULT_MAX_TURNS = 10 (dist/runner/constants.js:5). Function tools run through
	// invokeFunctionTool (dist/runner/toolExecution.js:952) in both loops; the streamed model call
	// is getStreamedResponseWithRetry (dist/run.js:1875), the non-streamed one getResponseWithRetry
	// (dist/run.js:1077): a stream of events does not say which loop ran.
	seed: "openai-agents-js", paths: "dist", log: "testdata/samples/openai-agents-streams/03_max_turns.stream.jsonl",
	exit: "dist/runner/turnPreparation.js:68", bound: "dist/runner/turnPreparation.js:63", onBound: "dist/runner/turnPreparation.js:68",
	boundDefault: "10", steps: 2, agrees: "below",
	tools: map[string]string{"search_docs": "dist/runner/toolExecution.js:952"},
	model: "dist/run.js:1875",
}, {
	// @langchain/langgraph 1.7.3 (testdata/samples/langgraph-streams, gen.mjs: recursionLimit 4).
	// Pregel's stream loop (dist/pregel/index.js:1318, while (await loop.tick(…))) ends when
	// PregelLoop.tick finds this.step > this.stop (dist/pregel/loop.js:669) and sets
	// "out_of_steps"; the stream then throws GraphRecursionError (dist/pregel/index.js:1337). The
	// agent and tools nodes run as the engine's tasks (runner.tick, dist/pregel/index.js:1323).
	// The limit defaults to DEFAULT_RECURSION_LIMIT = 25 (dist/pregel/utils/config.js:36); it
	// counts supersteps (the agent and the tools node each take one), so the 4 of gen.mjs are 2
	// lifeline Steps, below the default.
	seed: "langgraph-js", paths: "dist", log: "testdata/samples/langgraph-streams/03_recursion_limit.stream_events_v3.jsonl",
	exit: "dist/pregel/index.js:1337", bound: "dist/pregel/loop.js:669", onBound: "dist/pregel/index.js:1337",
	boundDefault: "25", steps: 2, agrees: "below",
	tools: map[string]string{"search_docs": "dist/pregel/index.js:1323"},
	model: "dist/pregel/index.js:1323", modelHigh: true,
}, {
	// @mariozechner/pi-agent-core 0.73.1 (testdata/traces/pi-agent-core, gen.mjs 05: Agent with
	// toolExecution "parallel", agent.abort() while the second model request is pending). Agent.prompt
	// runs runAgentLoop (dist/agent.js:261) → runLoop, whose inner loop (dist/agent-loop.js:85,
	// while (hasMoreToolCalls || pendingMessages.length > 0)) has no step bound. Each Step's model
	// call is streamAssistantResponse (dist/agent-loop.js:103). The one tool call of Step 1 ran
	// through executeToolCallsParallel: prepareToolCall (:284), then executePreparedToolCall
	// (:296); with one tool the events are the same in sequential mode (:251, :261), so the trace
	// cannot say which loop ran, but both reach the one place the tool runs,
	// prepared.tool.execute (:375), which the map gives as the tool's site: it stands for the
	// call whichever loop ran. The abort makes the second response stopReason "aborted" (pi-ai's stream,
	// outside the map), and runLoop takes `if (message.stopReason === "error" ||
	// message.stopReason === "aborted")` (:105): turn_end with no tool results, agent_end, and
	// the return at dist/agent-loop.js:108 ends the cancelled run.
	seed: "pi", paths: "pi-agent-core/dist pi-coding-agent/dist", log: "testdata/traces/pi-agent-core/05_abort.events.jsonl",
	exit:  "pi-agent-core/dist/agent-loop.js:108",
	tools: map[string]string{"build_report": "pi-agent-core/dist/agent-loop.js:375"},
	model: "pi-agent-core/dist/agent-loop.js:103", modelHigh: true,
	// The return at :108 stands for two outcomes: "error" fails the run, "aborted" cancels it;
	// this run was aborted, so the join takes the second, for its outcome and stop reason.
	exitOutcome: "cancelled", exitStop: "cancelled",
}}

// TestSeedJoins joins real logs of the seed frameworks with the maps of the same versions and
// compares with the join written by reading their code.
func TestSeedJoins(t *testing.T) {
	if testing.Short() {
		t.Skip("maps installed frameworks")
	}
	roots := seedRoots(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range seedCases {
		t.Run(tc.seed, func(t *testing.T) {
			root, ok := roots[tc.seed]
			if !ok {
				t.Fatalf("install.sh lists no %s", tc.seed)
			}
			tree := readTree(t, filepath.Join(repo, tc.log))
			t.Chdir(root)
			m, _, err := lifemap.BuildSources(strings.Fields(tc.paths))
			if err != nil {
				t.Fatal(err)
			}
			res := join.Join(tree, m, join.Options{})
			if len(res.Runs) != 1 {
				t.Fatalf("%d runs", len(res.Runs))
			}
			r := res.Runs[0]
			exitOK := r.Exit != nil && r.Exit.Pos.String() == tc.exit && r.Exit.Confidence == join.High
			if !exitOK && tc.exitGap == "" {
				t.Errorf("exit %+v, want %s [high]", r.Exit, tc.exit)
			}
			if exitOK && tc.exitOutcome != "" && (r.Exit.Outcome != tc.exitOutcome || r.Exit.StopReason != tc.exitStop) {
				t.Errorf("exit %s stands for %s (%s) in this run, want %s (%s)", r.Exit.Pos, r.Exit.Outcome, r.Exit.StopReason, tc.exitOutcome, tc.exitStop)
			}
			if tc.bound == "" {
				if r.Bound != nil && r.Bound.Hit {
					t.Errorf("bound %+v hit; the code's loop has no bound", r.Bound)
				}
			} else if b := r.Bound; b == nil || !b.Hit || b.Pos.String() != tc.bound || b.OnBound.String() != tc.onBound ||
				b.Default != tc.boundDefault || b.Steps != tc.steps || b.Agrees != tc.agrees {
				t.Errorf("bound %+v, want hit at %s (at bound %s), default %q, %d steps, %s", b, tc.bound, tc.onBound, tc.boundDefault, tc.steps, tc.agrees)
			}
			for _, c := range r.Calls {
				switch c.Kind {
				case "tool":
					if want := tc.tools[c.Name]; c.Pos.String() != want || c.Confidence != join.High {
						t.Errorf("tool %s: site %s [%s], want %s [high]", c.Name, c.Pos, c.Confidence, want)
					}
				case "model":
					sites := []string{c.Pos.String()}
					for _, o := range c.Others {
						sites = append(sites, o.String())
					}
					if !slices.Contains(sites, tc.model) {
						t.Errorf("model calls: sites %v lack %s", sites, tc.model)
					}
					if (c.Confidence == join.High) != tc.modelHigh {
						t.Errorf("model calls: confidence %s (%s); the trace says which site: %v", c.Confidence, c.Reason, tc.modelHigh)
					}
				}
			}
			for _, f := range res.Findings {
				if tc.exitGap != "" && !exitOK && f.Check == join.CheckStatusNoExit {
					continue // the gap's own symptom
				}
				t.Errorf("finding on a clean log: %v", f)
			}
			if !exitOK {
				t.Skipf("exit %+v, want %s [high]: %s", r.Exit, tc.exit, tc.exitGap)
			}
		})
	}
}

// TestSeedFixturesClean: every real log of a seed framework in testdata, joined with the map of
// the installed version, gets an exit for each ended run and no warning: clean fixtures are
// explained (a note about a map that only knows completing exits is allowed).
func TestSeedFixturesClean(t *testing.T) {
	if testing.Short() {
		t.Skip("maps installed frameworks")
	}
	roots := seedRoots(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ seed, paths, globs string }{
		{"openai-agents-js", "dist", "testdata/samples/openai-agents-streams/0*.stream.jsonl testdata/samples/openai-agents-streams/1[78]_*.stream.jsonl testdata/samples/openai-agents/*.jsonl testdata/traces/openai-agents/*.jsonl"},
		{"langgraph-js", "dist", "testdata/samples/langgraph-streams/*.jsonl testdata/samples/langgraph/*.run_tree.json testdata/traces/langgraph/*.run_tree.json"},
		{"pi", "pi-agent-core/dist pi-coding-agent/dist", "testdata/samples/pi-agent-core/*.jsonl testdata/samples/pi-coding-agent/*.jsonl testdata/traces/pi-agent-core/*.jsonl testdata/traces/pi-coding-agent/*.jsonl"},
	} {
		t.Run(s.seed, func(t *testing.T) {
			var files []string
			for _, g := range strings.Fields(s.globs) {
				m, _ := filepath.Glob(filepath.Join(repo, g))
				files = append(files, m...)
			}
			if len(files) == 0 {
				t.Fatal("no fixtures")
			}
			var trees []*model.Tree
			for _, f := range files {
				trees = append(trees, readTree(t, f))
			}
			t.Chdir(roots[s.seed])
			m, _, err := lifemap.BuildSources(strings.Fields(s.paths))
			if err != nil {
				t.Fatal(err)
			}
			for i, tr := range trees {
				res := join.Join(tr, m, join.Options{})
				for _, f := range res.Findings {
					if f.Severity != model.SevInfo {
						t.Errorf("%s: %s", filepath.Base(files[i]), f)
					}
				}
				for _, r := range res.Runs {
					if r.Status.Terminal() && r.Exit == nil && endsOtherwise(m) {
						t.Errorf("%s: run %s (%s) has no exit", filepath.Base(files[i]), r.RunID, r.Status)
					}
				}
			}
		})
	}
}

// endsOtherwise: some exit of m ends a run otherwise than completed.
func endsOtherwise(m *model.Map) bool {
	for _, e := range m.Entries {
		for _, x := range e.Exits {
			if x.Outcome != "completed" && x.Outcome != model.OutcomeStarted && x.Outcome != model.OutcomeNotStarted {
				return true
			}
		}
	}
	return false
}
