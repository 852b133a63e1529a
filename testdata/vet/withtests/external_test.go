package agent_test

import (
	"context"
	"testing"

	"example.com/agent"
)

func loopInExternalTest(ctx context.Context, m agent.Model) {
	for {
		m.Generate(ctx, nil)
	}
}

func TestExternal(t *testing.T) { _ = loopInExternalTest }
