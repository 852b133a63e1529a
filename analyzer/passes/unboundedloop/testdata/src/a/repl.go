package a

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"fw"
)

// Runner runs one agent turn (a bounded loop) per input.
type Runner interface {
	Run(ctx context.Context, input string) (string, error)
}

// stepAgent answers with one step: one model call, its tools run, their results kept for the
// next input.
type stepAgent struct {
	m     fw.Model
	tools map[string]fw.Tool
	msgs  []fw.Message
}

// Run runs one step.
func (s *stepAgent) Run(ctx context.Context, input string) (string, error) {
	s.msgs = append(s.msgs, fw.Message{Text: input})
	msg, err := s.m.Generate(ctx, s.msgs)
	if err != nil {
		return "", err
	}
	s.msgs = append(s.msgs, *msg)
	if len(msg.ToolCalls) == 0 {
		return msg.Text, nil
	}
	for _, tc := range msg.ToolCalls {
		if t, ok := s.tools[tc.Name]; ok {
			out, err := t.Call(ctx, tc.Args)
			if err != nil {
				out = "error: " + err.Error()
			}
			s.msgs = append(s.msgs, fw.Message{Text: out})
		}
	}
	return "", nil
}

// prompt prints a prompt and reads the user's line.
func prompt(r *bufio.Reader, p string) (string, bool) {
	fmt.Print(p)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(line), true
}

// readLine reads a line through the prompt helper: two calls from the session's loop.
func readLine(r *bufio.Reader) (string, bool) { return prompt(r, "> ") }

// chatREPL is a demo session: each line the user types runs the agent once, through an
// interface; the line is read by a helper.
func chatREPL(ctx context.Context, agent Runner) {
	in := bufio.NewReader(os.Stdin)
	for {
		line, ok := prompt(in, "you> ")
		if !ok || line == "quit" {
			return
		}
		out, err := agent.Run(ctx, line)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(out)
	}
}

// methodValueREPL runs the agent through a method value; the line is read two calls away.
func methodValueREPL(ctx context.Context, a *stepAgent) {
	run := a.Run
	in := bufio.NewReader(os.Stdin)
	for {
		line, ok := readLine(in)
		if !ok {
			return
		}
		out, _ := run(ctx, line)
		fmt.Println(out)
	}
}

// scannerREPL reads lines with a scanner over the standard input.
func scannerREPL(ctx context.Context, a *stepAgent) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		out, _ := a.Run(ctx, sc.Text())
		fmt.Println(out)
	}
}

// noInput has the same loop without any input: nothing but the model ends it.
func noInput(ctx context.Context, a *stepAgent) {
	for { // want `turn loop around fw.Model.Generate has no bound`
		out, _ := a.Run(ctx, "go on")
		fmt.Println(out)
	}
}
