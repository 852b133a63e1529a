package b

import (
	"testing"

	"example.com/testsonly/c"
)

func TestStep(t *testing.T) {
	if Step() != c.One {
		t.Fatal("differs")
	}
}
