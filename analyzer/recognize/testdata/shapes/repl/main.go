// Package repl holds interactive sessions: each iteration waits for a line the user types
// and runs one bounded agent turn with it; the session ends at EOF or on "quit".
package repl

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"example.com/shapes/llm"
)

// Agent answers with tools.
type Agent struct {
	c     *llm.Client
	tools map[string]func(string) string
	msgs  []llm.Message
}

// Turn runs the agent until the model stops asking for tools, at most 8 steps.
func (a *Agent) Turn(ctx context.Context, input string) (string, error) {
	a.msgs = append(a.msgs, llm.Message{Role: "user", Content: input})
	for i := 0; i < 8; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: a.msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		a.msgs = append(a.msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				a.msgs = append(a.msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return "", nil
}

// Chat reads lines until EOF and answers each with one turn.
func (a *Agent) Chat(ctx context.Context) error {
	reader := bufio.NewReader(os.Stdin)
	for {
		fmt.Print("> ")
		input, err := reader.ReadString('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		out, err := a.Turn(ctx, strings.TrimSpace(input))
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(out)
	}
}

// Scan answers each line a scanner reads.
func (a *Agent) Scan(ctx context.Context) error {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if sc.Text() == "quit" {
			return nil
		}
		out, err := a.Turn(ctx, sc.Text())
		if err != nil {
			return err
		}
		fmt.Println(out)
	}
	return sc.Err()
}

// Inline is a session whose turn is written in the loop that reads the user's lines: the
// model is asked again only when the user typed something.
func (a *Agent) Inline(ctx context.Context) error {
	for {
		var line string
		if _, err := fmt.Scanln(&line); err != nil {
			return nil
		}
		a.msgs = append(a.msgs, llm.Message{Role: "user", Content: line})
		resp, err := a.c.Chat(ctx, llm.Request{Messages: a.msgs})
		if err != nil {
			return err
		}
		m := resp.Choices[0].Message
		a.msgs = append(a.msgs, m)
		if len(m.ToolCalls) == 0 {
			fmt.Println(m.Content)
			continue
		}
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				a.msgs = append(a.msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
}

// Respond runs one step: one model call, its tools run and their results kept for the next.
func (a *Agent) Respond(ctx context.Context, input string) (string, error) {
	a.msgs = append(a.msgs, llm.Message{Role: "user", Content: input})
	resp, err := a.c.Chat(ctx, llm.Request{Messages: a.msgs})
	if err != nil {
		return "", err
	}
	m := resp.Choices[0].Message
	a.msgs = append(a.msgs, m)
	if len(m.ToolCalls) == 0 {
		return m.Content, nil
	}
	for _, tc := range m.ToolCalls {
		if t, ok := a.tools[tc.Function.Name]; ok {
			a.msgs = append(a.msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
		}
	}
	return "", nil
}

// Session answers each line the user types with one step.
func (a *Agent) Session(ctx context.Context) error {
	reader := bufio.NewReader(os.Stdin)
	for {
		line, err := reader.ReadString('\n')
		if err != nil {
			return nil
		}
		out, err := a.Respond(ctx, line)
		if err != nil {
			return err
		}
		fmt.Println(out)
	}
}
