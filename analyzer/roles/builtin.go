package roles

// Built-in profiles, read from each framework's source at the version named in Description.
// Keys follow Key: "import/path.Name" or "import/path.Type.Member".

const (
	eino   = "github.com/cloudwego/eino/"
	lcgo   = "github.com/tmc/langchaingo/"
	genkit = "github.com/firebase/genkit/go/"
	otel   = "go.opentelemetry.io/otel/trace."
)

// Eino maps github.com/cloudwego/eino (read at v0.7.36): the compose graph engine, whose
// super-step loop in (*runner).run is the turn loop of every graph-based agent (flow/agent/react,
// adk's ChatModelAgent); chat-model nodes are model calls and ToolsNode runs tool calls (in
// parallel unless ExecuteSequentially).
var Eino = &Profile{
	Name:        "eino",
	Description: "github.com/cloudwego/eino v0.7.36: compose graph engine, flow/agent/react, adk",
	Rules: []Rule{
		{Role: ModelCall, Object: eino + "components/model.BaseChatModel.Generate"},
		{Role: ModelCall, Object: eino + "components/model.BaseChatModel.Stream"},
		{Role: ToolCall, Object: eino + "components/tool.InvokableTool.InvokableRun", Parallel: true, Note: "ToolsNode runs tool calls in parallel unless ExecuteSequentially"},
		{Role: ToolCall, Object: eino + "components/tool.StreamableTool.StreamableRun", Parallel: true},
		{Role: ToolCall, Object: eino + "components/tool.EnhancedInvokableTool.InvokableRun", Parallel: true},
		{Role: ToolCall, Object: eino + "components/tool.EnhancedStreamableTool.StreamableRun", Parallel: true},
		{Role: Tool, Object: eino + "components/tool.InvokableTool"},
		{Role: Tool, Object: eino + "components/tool.StreamableTool"},
		{Role: EngineLoop, Object: eino + "compose.runner.run", Note: "graph super-step loop: each step runs the triggered nodes (chat model, tools) as tasks"},
		{Role: EngineCall, Object: eino + "compose.Runnable.Invoke", Loop: eino + "compose.runner.run"},
		{Role: EngineCall, Object: eino + "compose.Runnable.Stream", Loop: eino + "compose.runner.run"},
		{Role: EngineCall, Object: eino + "compose.Runnable.Collect", Loop: eino + "compose.runner.run"},
		{Role: EngineCall, Object: eino + "compose.Runnable.Transform", Loop: eino + "compose.runner.run"},
		{Role: EngineCall, Object: eino + "compose.runnablePacker.Invoke", Loop: eino + "compose.runner.run"},
		{Role: EngineCall, Object: eino + "compose.runnablePacker.Stream", Loop: eino + "compose.runner.run"},
		{Role: RunEntry, Object: eino + "compose.runnablePacker.Invoke", Note: "compiled graph Invoke"},
		{Role: RunEntry, Object: eino + "compose.runnablePacker.Stream", Note: "compiled graph Stream"},
		{Role: RunEntry, Object: eino + "flow/agent/react.Agent.Generate"},
		{Role: RunEntry, Object: eino + "flow/agent/react.Agent.Stream"},
		{Role: RunEntry, Object: eino + "adk.Runner.Run"},
		{Role: RunEntry, Object: eino + "adk.Runner.Query"},
		{Role: RunEntry, Object: eino + "adk.Runner.Resume"},
		{Role: RunEntry, Object: eino + "adk.ChatModelAgent.Run"},
		{Role: RunEntry, Object: eino + "adk.ChatModelAgent.Resume"},
		{Role: EngineCall, Object: eino + "adk.ChatModelAgent.Run", Loop: eino + "compose.runner.run", Note: "ChatModelAgent runs a compose ReAct graph"},
		{Role: EngineCall, Object: eino + "adk.ChatModelAgent.Resume", Loop: eino + "compose.runner.run"},
		{Role: EngineCall, Object: eino + "adk.Agent.Run", Loop: eino + "compose.runner.run", Note: "a ChatModelAgent runs a compose ReAct graph"},
		{Role: EngineCall, Object: eino + "adk.ResumableAgent.Resume", Loop: eino + "compose.runner.run"},
		{Role: BoundError, Object: eino + "compose.ErrExceedMaxSteps", StopReason: "max_steps"},
		{Role: BoundError, Object: eino + "adk.ErrExceedMaxIterations", StopReason: "max_steps"},
		{Role: BoundDefault, Object: eino + "compose.graphCompileOptions.maxRunSteps", Value: "len(nodes)+10 (react: AgentConfig.MaxStep; adk: math.MaxInt, bounded by MaxIterations=20)"},
	},
}

// LangChainGo maps github.com/tmc/langchaingo (read at v0.1.14): agents.Executor.Call runs
// Agent.Plan (the model decision) and tools.Tool.Call up to MaxIterations (default 5) and
// returns ErrNotFinished at the bound.
var LangChainGo = &Profile{
	Name:        "langchaingo",
	Description: "github.com/tmc/langchaingo v0.1.14: agents executor, llms, tools",
	Rules: []Rule{
		{Role: ModelCall, Object: lcgo + "llms.Model.GenerateContent"},
		{Role: ModelCall, Object: lcgo + "llms.Model.Call"},
		{Role: ModelCall, Object: lcgo + "llms.GenerateFromSinglePrompt"},
		{Role: ModelCall, Object: lcgo + "agents.Agent.Plan", Note: "the agent's model decision"},
		{Role: ToolCall, Object: lcgo + "tools.Tool.Call"},
		{Role: Tool, Object: lcgo + "tools.Tool"},
		{Role: RunEntry, Object: lcgo + "agents.Executor.Call"},
		{Role: EngineCall, Object: lcgo + "chains.Chain.Call", Loop: lcgo + "agents.Executor.Call", Note: "chains.Call/Run on an Executor"},
		{Role: Callback, Object: lcgo + "callbacks.Handler"},
		{Role: BoundError, Object: lcgo + "agents.ErrNotFinished", StopReason: "max_steps"},
		{Role: BoundDefault, Object: lcgo + "agents.Executor.MaxIterations", Value: "5"},
	},
}

// Genkit maps github.com/firebase/genkit/go (read at v1.4.0): ai.GenerateWithRequest drives a
// recursive generate closure: model call, then tool requests in parallel goroutines, then
// generate(ctx, newReq, currentTurn+1, ...) until MaxTurns (default 5).
var Genkit = &Profile{
	Name:        "genkit",
	Description: "github.com/firebase/genkit/go v1.4.0: ai generate loop, tools",
	Rules: []Rule{
		{Role: ModelCall, Object: genkit + "ai.Model.Generate"},
		{Role: ModelCall, Object: genkit + "ai.ModelFunc"},
		{Role: ModelCall, Object: genkit + "ai.BackgroundModel.Start"},
		{Role: ToolCall, Object: genkit + "ai.Tool.RunRaw"},
		{Role: ToolCall, Object: genkit + "ai.Tool.RunRawMultipart"},
		{Role: Tool, Object: genkit + "ai.Tool"},
		{Role: RunEntry, Object: genkit + "ai.GenerateWithRequest"},
		{Role: BoundDefault, Object: genkit + "ai.GenerateActionOptions.MaxTurns", Value: "5"},
	},
}

// OpenTelemetry maps go.opentelemetry.io/otel/trace spans: a span started for a run, turn, step
// or call must be ended on every path.
var OpenTelemetry = &Profile{
	Name:        "otel",
	Description: "go.opentelemetry.io/otel/trace: Tracer.Start returns a span to End",
	Rules: []Rule{
		{Role: SpanStart, Object: otel + "Tracer.Start", End: "End"},
	},
}

// Builtin returns the built-in profiles: the Go ones above, then the Python and
// TypeScript/JavaScript ones of profiles/*.json.
func Builtin() []*Profile {
	return append([]*Profile{Lifeline, Eino, LangChainGo, Genkit, OpenTelemetry}, embedded()...)
}
