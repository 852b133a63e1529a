// Package optparent is a LangChain-style executor shaped like github.com/hupe1980/golc@v0.0.113
// golc.go:27-60 (Call) and callback/manager.go:30-62 (NewManager, newManager): the run's
// callback manager is made by a constructor that many callers hand option closures to
// (optFns ...func(*ManagerOptions), applied one by one: fn(&opts)); the entry's own closure
// gives the new manager its parent's run id (mo.ParentRunID = opts.ParentRunID, golc.go:37).
package optparent

import "crypto/rand"

// ManagerOptions configures a callback manager.
type ManagerOptions struct {
	ParentRunID string
	Verbose     bool
	Tags        []string
}

// Manager tells callbacks about a run.
type Manager struct {
	runID       string
	parentRunID string
	verbose     bool
	tags        []string
}

// NewManager makes a manager (callback/manager.go:60).
func NewManager(verbose bool, optFns ...func(*ManagerOptions)) *Manager {
	return newManager("", verbose, optFns...)
}

// NewManagerForTool makes a manager for a tool run.
func NewManagerForTool(runID string, optFns ...func(*ManagerOptions)) *Manager {
	return newManager(runID, false, optFns...)
}

func newManager(runID string, verbose bool, optFns ...func(*ManagerOptions)) *Manager {
	opts := ManagerOptions{Verbose: verbose}
	for _, fn := range optFns {
		fn(&opts)
	}
	return &Manager{runID: runID, parentRunID: opts.ParentRunID, verbose: opts.Verbose, tags: opts.Tags}
}

// OnChainStart starts a chain run with a fresh id (callback/manager.go:178 mints it with uuid.New).
func (m *Manager) OnChainStart(name string) *Manager {
	return &Manager{runID: rand.Text(), parentRunID: m.runID, verbose: m.verbose}
}

// RunID is the run's id.
func (m *Manager) RunID() string { return m.runID }

// Other callers of the constructors, each with an option closure of its own.

// Verbose makes a verbose manager.
func Verbose() *Manager {
	return NewManager(true, func(mo *ManagerOptions) { mo.Verbose = true })
}

// Tagged makes a manager with tags.
func Tagged(tags ...string) *Manager {
	return NewManager(false, func(mo *ManagerOptions) { mo.Tags = tags })
}

// ForTool makes the manager of a tool run under parent.
func ForTool(runID string, parent *Manager) *Manager {
	return NewManagerForTool(runID, func(mo *ManagerOptions) { mo.ParentRunID = parent.RunID() })
}

// Quiet makes a quiet manager.
func Quiet() *Manager {
	return NewManager(false, func(mo *ManagerOptions) { mo.Verbose = false })
}
