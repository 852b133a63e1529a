package lifemap

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
)

// TestRecognizerPanicIsAnError: a recognizer panic on code nobody described becomes an error
// naming it (map and vet keep what the other passes found), not a crash of lifeline.
func TestRecognizerPanicIsAnError(t *testing.T) {
	res, err := recovered(func() *recognize.Result {
		var s []int
		_ = s[3] // index out of range, as a recognizer bug would
		return &recognize.Result{}
	})
	if err == nil || res != nil {
		t.Fatalf("got result %v, error %v; want no result and an error", res, err)
	}
	if !strings.Contains(err.Error(), "recognizer: internal error") || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("error %q does not say what failed", err)
	}
	if res, err := recovered(func() *recognize.Result { return &recognize.Result{} }); err != nil || res == nil {
		t.Fatalf("a normal run: result %v, error %v", res, err)
	}
}
