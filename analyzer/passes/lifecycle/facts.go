package lifecycle

import (
	"fmt"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// Declared is the fact exported for an object that carries //lifeline: directives, so that
// packages using it see the same roles.
type Declared struct {
	Rules []roles.Rule
}

// AFact marks Declared as an analysis fact.
func (*Declared) AFact() {}

func (d *Declared) String() string {
	var rs []string
	for _, r := range d.Rules {
		rs = append(rs, string(r.Role))
	}
	return "declared(" + strings.Join(rs, ",") + ")"
}

// Summary is the fact exported for a function: how it reaches model and tool calls, whether it
// checks cancellation, which turn loops it holds or reaches, and which terminal statuses it
// writes. A helper that calls the model is itself a model-call site for its callers.
type Summary struct {
	Model        []model.CallSite
	Tool         []model.CallSite
	ChecksCancel bool
	// Loops are the turn loops the function holds or reaches (closures it builds included).
	Loops []model.Loop
	// Runs is true when a call of the function runs a turn loop before it returns (see runs.go).
	Runs bool
	// Writes lists the terminal statuses the function writes (directly or through helpers).
	Writes []model.RunStatus
	// MintsID is true when the function mints an id (directly or through helpers).
	MintsID bool
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	var parts []string
	if len(s.Model) > 0 {
		parts = append(parts, "model")
	}
	if len(s.Tool) > 0 {
		parts = append(parts, "tool")
	}
	if s.ChecksCancel {
		parts = append(parts, "cancel")
	}
	if len(s.Loops) > 0 {
		parts = append(parts, fmt.Sprintf("loops=%d", len(s.Loops)))
	}
	if s.Runs {
		parts = append(parts, "runs")
	}
	for _, w := range s.Writes {
		parts = append(parts, "writes="+string(w))
	}
	if s.MintsID {
		parts = append(parts, "mints-id")
	}
	return "lifecycle(" + strings.Join(parts, " ") + ")"
}

func (s *Summary) empty() bool {
	return len(s.Model) == 0 && len(s.Tool) == 0 && !s.ChecksCancel && len(s.Loops) == 0 && !s.Runs && len(s.Writes) == 0 && !s.MintsID
}
