package agent

import (
	"context"
	"testing"
)

func loopInTest(ctx context.Context, m Model) {
	for {
		m.Generate(ctx, nil)
	}
}

func TestLoop(t *testing.T) { _ = loopInTest }
