// Package runindex holds the values a store of runs serves to its readers, whatever keeps
// them: one row per run (what a run list shows), the query that selects rows, counts by status
// and the store's running totals. lifeline serve's store (tracer/store) answers with them and
// its UI (render/web) reads them, so the UI depends on these values and not on the store.
package runindex

import "time"

// Row is the summary of one run.
type Row struct {
	RunID      string        `json:"run_id"`
	SessionID  string        `json:"session_id"`
	Agent      string        `json:"agent,omitempty"`
	Status     string        `json:"status"`
	StopReason string        `json:"stop_reason,omitempty"`
	Error      string        `json:"error,omitempty"`
	Turns      int           `json:"turns"`
	Steps      int           `json:"steps"`
	ToolCalls  int           `json:"tool_calls"`
	Tokens     int64         `json:"tokens"`
	CostUSD    float64       `json:"cost_usd"`
	Start      time.Time     `json:"start,omitzero"`
	Duration   time.Duration `json:"duration_ns"`
	Findings   int           `json:"findings"`
}

// Query selects rows; empty fields match everything.
type Query struct {
	Status     string
	StopReason string
	// Search matches a substring of the run id, session id, agent or error.
	Search string
	// Failed keeps only runs that did not complete, or have findings.
	Failed bool
	// Limit caps the rows (0: 500).
	Limit int
}

// StatusCount is how many runs have one status and stop reason.
type StatusCount struct {
	Status, StopReason string
	Runs               int
}

// Counters are a store's running totals.
type Counters struct {
	// Spans and Events are those in the journal (replayed at open plus acknowledged since).
	Spans, Events int64
	// Rejected counts spans the receiver refused since the store was opened.
	Rejected int64
	// Runs is how many runs the store holds.
	Runs int
	// Lag is how long the oldest acknowledged batch not yet in the index has waited (0 when
	// the index is up to date).
	Lag time.Duration
}
