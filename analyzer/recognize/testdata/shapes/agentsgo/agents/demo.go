package agents

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// RunInputs runs an agent on the accumulated inputs with the default runner.
func RunInputs(ctx context.Context, agent *Agent, items []string) (*RunResult, error) {
	return DefaultRunner.Run(ctx, agent, strings.Join(items, "\n"))
}

// RunInputsStreamed is RunInputs, streamed.
func RunInputsStreamed(ctx context.Context, agent *Agent, items []string) (*RunResultStreaming, error) {
	return DefaultRunner.RunStreamed(ctx, agent, strings.Join(items, "\n"))
}

// RunDemoLoop runs a REPL on the terminal: one run per line the user types.
func RunDemoLoop(ctx context.Context, agent *Agent, stream bool) error {
	return RunDemoLoopRW(ctx, agent, stream, os.Stdin, os.Stdout)
}

// RunDemoLoopRW reads lines from r and runs the agent once per line, writing to w.
func RunDemoLoopRW(ctx context.Context, agent *Agent, stream bool, r io.Reader, w io.Writer) error {
	reader := bufio.NewReader(r)
	var items []string
	for {
		fmt.Fprint(w, " > ")
		line, err := reader.ReadString('\n')
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		line = strings.TrimSpace(line)
		if line == "exit" || line == "quit" {
			return nil
		}
		items = append(items, line)
		if stream {
			if _, err := RunInputsStreamed(ctx, agent, items); err != nil {
				return err
			}
			continue
		}
		res, err := RunInputs(ctx, agent, items)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, res.FinalOutput)
	}
}
