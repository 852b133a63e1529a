package agent

import (
	"context"
	"testing"

	"example.com/gclfixture/llm"
)

// loopInTest is in a test file: golangci-lint analyzes tests by default.
func loopInTest(ctx context.Context, m llm.Model) {
	for { // finding: unboundedloop loopcancel
		m.Generate(ctx, nil)
	}
}

func TestNothing(t *testing.T) { _ = loopInTest }
