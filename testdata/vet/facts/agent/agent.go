// Package agent runs a turn loop whose model call is known only from the facts of package llm:
// go vet -vettool=lifeline ./agent analyzes llm for its facts alone (VetxOnly).
package agent

import (
	"context"

	"example.com/facts/llm"
)

// Loop never stops.
func Loop(ctx context.Context) {
	for {
		llm.Ask(ctx, "next")
	}
}
