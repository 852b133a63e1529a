//go:build cgo

package srcir

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// pyOutputFieldSrc is reduced from griptape==1.13.0 griptape/tasks/prompt_task.py:300-325
// (PromptTask.default_run_actions_subtasks): the loop `while subtask.output is None` goes on
// while the subtask built from the model's output has no output yet and ends once it has one
// (a final answer, or the error stored at the bound); the subtask is what the helper returns
// when handed a value built from the model call's result (add_subtask(ActionsSubtask(output))).
const pyOutputFieldSrc = `from attrs import define, field


@define
class ActionsSubtask:
    output: object = field(default=None, init=False)
    _input: object = field(default=None, alias="input")

    def attach_to(self, parent_task):
        self.origin_task = parent_task


class PromptTask:
    def add_subtask(self, subtask):
        subtask.attach_to(self)
        self.subtasks.append(subtask)
        return subtask

    def run_subtasks(self, subtask_input):
        subtask = self.add_subtask(ActionsSubtask(subtask_input))
        while subtask.output is None:
            if len(self.subtasks) >= self.max_subtasks:
                subtask.output = ErrorArtifact("Exceeded tool limit")
            else:
                subtask.run()
                output = self.prompt_driver.run(self.prompt_stack)
                subtask = self.add_subtask(ActionsSubtask(output))
        return subtask.output

    def run_pending(self, prompt):
        reply = self.prompt_driver.run(prompt)
        while reply.tool_calls is not None:
            self.run_tools(reply.tool_calls)
            reply = self.prompt_driver.run(prompt)
        return reply
`

// TestPythonOutputFieldLeaves: a test that the output field of a value derived from a call's
// result is None is the test of a step still pending (the loop leaves when it is set), the
// other way round from a collection of calls tested for None (leaves when there is none).
func TestPythonOutputFieldLeaves(t *testing.T) {
	p := buildPy(t, pyOutputFieldSrc)
	for _, tc := range []struct {
		fn, call, test string
	}{
		{"m.PromptTask.run_subtasks", "self.add_subtask(ActionsSubtask(output))", "subtask.output is None"},
		// the model call: its result handed bare to the constructor of a class of the set
		// (an attrs class with no __init__) that a helper returns, the subtask tested; its
		// output field is no mention of the local output
		{"m.PromptTask.run_subtasks", "self.prompt_driver.run(self.prompt_stack)", "subtask.output is None"},
		{"m.PromptTask.run_pending", "self.prompt_driver.run(prompt)", "reply.tool_calls is not None"},
	} {
		c := callText(t, funcNamed(t, p, tc.fn), tc.call)
		found := false
		for _, ch := range flowChecks(c) {
			if ch.Text == tc.test {
				found = true
				if !ch.Leaves || ch.Func != funcNamed(t, p, tc.fn).ID {
					t.Errorf("%s: check %q does not leave, want it to (the loop ends when it fails)", tc.fn, ch.Text)
				}
			}
		}
		if !found {
			t.Errorf("%s: %s: no check %q in %+v", tc.fn, tc.call, tc.test, c.Flow)
		}
	}
}

func flowChecks(c *ir.Call) []ir.Check {
	if c.Flow == nil {
		return nil
	}
	return c.Flow.Checked
}
