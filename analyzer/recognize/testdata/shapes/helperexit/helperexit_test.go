package helperexit

import (
	"context"
	"testing"
)

func TestRun(t *testing.T) {
	a := &Agent{max: 1}
	if _, err := a.Run(context.Background(), ""); err == nil {
		t.Fatal("want an error")
	}
}
