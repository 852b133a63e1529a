package recognize

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/model"
)

// TestStateOutcomesCoverWords: every word a front-end reads as a status value has an outcome.
func TestStateOutcomesCoverWords(t *testing.T) {
	for _, w := range ir.StateWords {
		if _, ok := stateOutcomes[w]; !ok {
			t.Errorf("ir.StateWords has %q, stateOutcomes maps no outcome for it", w)
		}
	}
	if len(stateOutcomes) != len(ir.StateWords) {
		t.Errorf("stateOutcomes has %d words, ir.StateWords %d", len(stateOutcomes), len(ir.StateWords))
	}
	if st, _ := stateOutcome("RunStatus.USER_CANCELLED"); st != string(model.StatusCancelled) {
		t.Errorf("stateOutcome(USER_CANCELLED) = %q, want cancelled", st)
	}
}
