//go:build linux

package cmd

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/cmd/internal/progress"
)

// TestProgressOnTerminalOnly: with the delay set to nothing (a long input, as far as the line
// is concerned), check, timeline and stats draw the progress line when standard error is a
// terminal and clear it at the end; with standard error a pipe they never write it.
func TestProgressOnTerminalOnly(t *testing.T) {
	t.Setenv(progress.AfterEnv, "0s")
	for _, args := range [][]string{
		{"check", "testdata/invariants/clean.jsonl"},
		{"timeline", "testdata/traces/otel-more/vercel-ai_01_tool_loop.otlp.json"},
		{"stats", "testdata/traces/otel-more/vercel-ai_01_tool_loop.otlp.json"},
	} {
		t.Run(args[0], func(t *testing.T) {
			out, code := onTerminal(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if !strings.Contains(out, "\rlifeline: reading… ") || !strings.Contains(out, " events, ") || !strings.Contains(out, "\r\x1b[K") {
				t.Errorf("no progress line drawn and cleared on a terminal:\n%q", out)
			}
			_, stderr, code := lifeline(t, "", args...)
			if code != 0 || strings.Contains(stderr, "reading…") || strings.Contains(stderr, "\r") {
				t.Errorf("progress written to a pipe (exit %d): %q", code, stderr)
			}
		})
	}
}
