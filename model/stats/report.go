package stats

import "github.com/lifeline-dev/lifeline/model"

// SketchDoc says how the percentiles are computed (Report.Sketch).
const SketchDoc = "nearest rank; exact up to 1024 values a figure, then a DDSketch within 1% of the value"

// Report is the summary of many runs, failures first. It is what `lifeline stats --format
// json` prints.
type Report struct {
	// Runs counts every run; OpenRuns those never ended (still running or waiting, or cut off).
	Runs     int `json:"runs"`
	OpenRuns int `json:"open_runs"`
	// LateEvents counts events that arrived for a run after it had been summarised (dropped).
	LateEvents int `json:"late_events,omitempty"`
	// ByStatus lists the runs by status in lifecycle order; ByStopReason, most frequent first.
	ByStatus     []NameCount `json:"by_status"`
	ByStopReason []NameCount `json:"by_stop_reason"`
	// Bounds are the runs that hit a limit (max_steps, max_turns, timeout, budget_exceeded).
	Bounds []Bound `json:"bounds"`
	// FailingTools are the tools with failed calls, most failures first (at most Options.Top).
	FailingTools []ToolCount `json:"failing_tools"`
	// ErrorKinds count recorded errors by kind over runs, model calls and failed tool calls.
	ErrorKinds []ErrorKind `json:"error_kinds"`
	// Findings count invariant findings by rule (empty when the invariants were not checked).
	Findings []RuleCount `json:"findings"`
	Totals   Totals      `json:"totals"`
	// Overall holds the percentiles over every run; Groups per value of By.
	Overall Metrics `json:"overall"`
	By      string  `json:"by"`
	Groups  []Group `json:"groups"`
	// Slowest and Costliest are the longest runs and those of highest cost (then tokens).
	Slowest   []RunRef `json:"slowest"`
	Costliest []RunRef `json:"costliest"`
	// Sketch says how percentiles are computed.
	Sketch string `json:"percentiles"`
}

// NameCount is one line of a count table.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Bound counts the runs that stopped at one limit, with the ids of the first ones.
type Bound struct {
	StopReason model.StopReason `json:"stop_reason"`
	Runs       int              `json:"runs"`
	RunIDs     []string         `json:"run_ids"`
}

// ToolCount is the calls and failed calls of one tool.
type ToolCount struct {
	Tool   string `json:"tool"`
	Calls  int    `json:"calls"`
	Failed int    `json:"failed"`
}

// ErrorKind counts the errors of one kind, by where they were recorded.
type ErrorKind struct {
	Kind       string `json:"kind"`
	Runs       int    `json:"runs"`
	ModelCalls int    `json:"model_calls"`
	ToolCalls  int    `json:"tool_calls"`
	Total      int    `json:"total"`
}

// RuleCount counts the findings of one invariant.
type RuleCount struct {
	Code     string `json:"code"`
	Title    string `json:"title,omitempty"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Info     int    `json:"info"`
	Total    int    `json:"total"`
}

// Totals are sums over every run.
type Totals struct {
	Runs            int     `json:"runs"`
	Turns           int     `json:"turns"`
	Steps           int     `json:"steps"`
	ModelCalls      int     `json:"model_calls"`
	ToolCalls       int     `json:"tool_calls"`
	FailedToolCalls int     `json:"failed_tool_calls"`
	Tokens          int64   `json:"tokens"`
	CostUSD         float64 `json:"cost_usd"`
}

// Metrics are the percentiles of the per-run figures. A run without both a start and an end
// time has no duration (DurationMS.Count says how many had one).
type Metrics struct {
	Steps      Quantiles `json:"steps"`
	Turns      Quantiles `json:"turns"`
	DurationMS Quantiles `json:"duration_ms"`
	Tokens     Quantiles `json:"tokens"`
	CostUSD    Quantiles `json:"cost_usd"`
}

// Quantiles summarise one figure over a set of runs.
type Quantiles struct {
	Count int64   `json:"count"`
	Min   float64 `json:"min"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
	Mean  float64 `json:"mean"`
	// Exact is false when the percentiles come from the sketch (within 1%).
	Exact bool `json:"exact"`
}

// Group is the runs of one agent, model, tool or day.
type Group struct {
	Key       string  `json:"key"`
	Runs      int     `json:"runs"`
	Failed    int     `json:"failed"`
	Cancelled int     `json:"cancelled"`
	Metrics   Metrics `json:"metrics"`
}

// RunRef names one run of the slowest or costliest list.
type RunRef struct {
	RunID      string           `json:"run_id"`
	SessionID  string           `json:"session_id"`
	Agent      string           `json:"agent,omitempty"`
	Status     model.RunStatus  `json:"status"`
	StopReason model.StopReason `json:"stop_reason,omitempty"`
	Steps      int              `json:"steps"`
	DurationMS float64          `json:"duration_ms"`
	Tokens     int64            `json:"tokens"`
	CostUSD    float64          `json:"cost_usd"`
}
