package roles

const (
	lifelineModel   = "github.com/lifeline-dev/lifeline/model"
	lifelineRuntime = "github.com/lifeline-dev/lifeline/model/runtime"
)

// Lifeline maps lifeline's own model and reference runtime (github.com/lifeline-dev/lifeline/model
// and model/runtime).
var Lifeline = &Profile{
	Name:        "lifeline",
	Description: "github.com/lifeline-dev/lifeline: model status vocabulary and the reference runtime",
	Rules: []Rule{
		{Role: Status, Object: lifelineModel + ".RunStatus"},
		{Role: StopReason, Object: lifelineModel + ".StopReason"},
		{Role: RunEntry, Object: lifelineRuntime + ".Runtime.Start"},
		{Role: RunEntry, Object: lifelineRuntime + ".Runtime.Retry"},
		{Role: RunEntry, Object: lifelineRuntime + ".Runtime.Resume"},
		{Role: RunStart, Object: lifelineRuntime + ".Runtime.Start"},
		{Role: EngineCall, Object: lifelineRuntime + ".Runtime.launch", Loop: lifelineRuntime + ".runExec.loop", Note: "each run's loop goroutine"},
		{Role: ModelCall, Object: lifelineRuntime + ".Model.Decide"},
		{Role: ToolCall, Object: lifelineRuntime + ".Tool.Run", Parallel: true, Note: "a step's tool calls run in parallel"},
		{Role: Tool, Object: lifelineRuntime + ".Tool"},
		{Role: RunID, Object: lifelineRuntime + ".Runtime.newID"},
		{Role: BoundDefault, Object: lifelineRuntime + ".Limits.MaxSteps", Value: "25"},
		{Role: BoundDefault, Object: lifelineRuntime + ".Limits.MaxTurns", Value: "10"},
		{Role: Callback, Object: lifelineRuntime + ".SuccessCheck"},
		{Role: Callback, Object: lifelineRuntime + ".StoppingHook"},
	},
}
