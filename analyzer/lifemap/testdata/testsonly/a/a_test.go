package a

import (
	"testing"

	"example.com/testsonly/b"
)

func TestRun(t *testing.T) {
	if Run() != b.Step() {
		t.Fatal("differs")
	}
}
