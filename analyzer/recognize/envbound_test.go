package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// envCase is a turn loop whose default bound comes from the environment (testdata/shapes/
// envbound), read from the code: the fallback is the default, at the line that writes it, and
// the variable is named.
type envCase struct {
	entry, def string
	defLine    int
	env        string
}

var envCases = map[string][]envCase{
	"go": {
		{"envbound.Agent.Ask", "12", 35, "AGENT_MAX_STEPS"},   // MaxSteps: envInt("AGENT_MAX_STEPS", 12)
		{"envbound.Runner.Loop", "8", 69, "RUNNER_MAX_TURNS"}, // limit := 8; if v, ok := os.LookupEnv(…); ok { limit, _ = … }
	},
	"agent.ts": {
		{"agent.runTurns", "10", 2, "AGENT_MAX_TURNS"}, // Number(process.env.AGENT_MAX_TURNS ?? "10")
		{"agent.runSteps", "25", 3, "AGENT_MAX_STEPS"}, // Number(process.env.AGENT_MAX_STEPS || 25)
	},
	"agent.py": {
		{"agent.Agent.run", "20", 5, "AGENT_MAX_STEPS"},    // int(os.environ.get("AGENT_MAX_STEPS", "20"))
		{"agent.Agent.rounds", "6", 6, "AGENT_MAX_ROUNDS"}, // int(getenv("AGENT_MAX_ROUNDS", "6"))
	},
}

func checkEnvBound(t *testing.T, e *model.Entry, c envCase) {
	t.Helper()
	if e == nil || len(e.Loops) != 1 || e.Loops[0].Bound == nil {
		t.Fatalf("%s: want one entry with one bounded loop, got %+v", c.entry, e)
	}
	b := e.Loops[0].Bound
	if b.Default != c.def && b.Default != `"`+c.def+`"` || b.DefaultPos.Line != c.defLine || b.DefaultEnv != c.env {
		t.Errorf("%s: default %s at %s, env %q; want %s at line %d, env %q", c.entry, b.Default, b.DefaultPos, b.DefaultEnv, c.def, c.defLine, c.env)
	}
}

// TestEnvDefaults (Go): a default read from the environment with a constant fallback.
func TestEnvDefaults(t *testing.T) {
	res := recognizeShapes(t)
	for _, c := range envCases["go"] {
		checkEnvBound(t, entry(res, c.entry), c)
	}
}
