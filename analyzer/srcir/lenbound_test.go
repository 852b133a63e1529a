//go:build cgo

package srcir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
)

// TestGrownHistoryBound: a loop bounded by how much the history it appends to has grown
// (len(history) - init_len < max_turns), or by the length of a list of steps it appends to,
// is bounded by that limit, as written; a limit whose default is float("inf") is a bound with
// an unlimited default.
func TestGrownHistoryBound(t *testing.T) {
	src := `import copy


class Agent:
    def __init__(self, max_steps=20):
        self.max_steps = max_steps
        self.steps = []

    def handle(self, calls, functions):
        table = {f.__name__: f for f in functions}
        out = []
        for c in calls:
            out.append(table[c.name]())
        return out

    def run(self, client, messages, functions, agent, max_turns=float("inf")):
        active_agent = agent
        init_len = len(messages)
        history = copy.deepcopy(messages)
        while len(history) - init_len < max_turns and active_agent:
            message = client.create(history, functions)
            history.append(message)
            if not message.tool_calls:
                break
            history.extend(self.handle(message.tool_calls, functions))
        return history

    def step_all(self, client, messages, functions):
        while len(self.steps) < self.max_steps:
            message = client.create(messages, functions)
            self.steps.append(message)
            if not message.tool_calls:
                return message
            messages.extend(self.handle(message.tool_calls, functions))
        return None
`
	p := buildPy(t, src)
	res := recognize.Recognize(p, recognize.Options{})
	got := describe(res, filepath.Base)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(got)
	}
	for _, want := range []string{
		fmt.Sprintf("loop for m.Agent.run line %d\n    bound max_turns default float(\"inf\")", lineOf(src, "while len(history)")),
		fmt.Sprintf("loop for m.Agent.step_all line %d\n    bound self.max_steps default 20", lineOf(src, "while len(self.steps)")),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestUserSessions: a loop each iteration of which waits for the user's line (input(),
// sys.stdin.readline()) is a session the user ends, not a turn loop, even when each line runs
// one model step whose tool calls are dispatched.
func TestUserSessions(t *testing.T) {
	src := `import sys


class Agent:
    def handle(self, calls, functions):
        table = {f.__name__: f for f in functions}
        out = []
        for c in calls:
            out.append(table[c.name]())
        return out

    def respond(self, client, messages, functions, text):
        messages.append({"role": "user", "content": text})
        message = client.create(messages, functions)
        if not message.tool_calls:
            return message.content
        messages.extend(self.handle(message.tool_calls, functions))
        return None

    def chat(self, client, functions):
        messages = []
        while True:
            user_input = input("> ")
            if user_input == "quit":
                break
            print(self.respond(client, messages, functions, user_input))

    def serve(self, client, functions):
        messages = []
        while True:
            line = sys.stdin.readline()
            if not line:
                return
            print(self.respond(client, messages, functions, line))
`
	p := buildPy(t, src)
	res := recognize.Recognize(p, recognize.Options{})
	got := describe(res, filepath.Base)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(got)
	}
	for _, l := range res.Loops {
		t.Errorf("user session taken for a turn loop: %s line %d", l.Map.Func, l.Map.Pos.Line)
	}
}
