package helperexit

import (
	"context"
	"testing"
)

func TestAnswer(t *testing.T) {
	a := &Agent{max: 1}
	if _, err := a.Answer(context.Background(), ""); err == nil {
		t.Fatal("want an error")
	}
}
