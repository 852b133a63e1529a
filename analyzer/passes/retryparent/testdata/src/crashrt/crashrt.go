// Package crashrt is a stub of a durable runtime (in the shape of lifeline's model/runtime) for
// the crash-loop cases: Start creates a run, Resume continues the runs of a reopened log.
package crashrt

import "context"

// Runtime is a runtime opened on a log.
type Runtime struct{}

// Spec configures a new run.
type Spec struct {
	Input       string
	ParentRunID string
	Attempt     int
}

// Handle is a started run.
type Handle struct{}

// Wait waits for the run to end.
func (*Handle) Wait(ctx context.Context) (string, error) { return "", nil }

// Open opens a runtime on the log at path.
func Open(path string) (*Runtime, error) { return &Runtime{}, nil }

// Start creates a run.
//
//lifeline:run-start
func (*Runtime) Start(spec Spec) (*Handle, error) { return &Handle{}, nil }

// Resume continues the runs the log left open.
func (*Runtime) Resume() ([]*Handle, error) { return nil, nil }

// Crashed reports whether the runtime stopped at an injected crash.
func (*Runtime) Crashed() bool { return false }

// Close closes the log.
func (*Runtime) Close() {}
