// Package statusowner defines an Analyzer that reports terminal run statuses written by tools or
// callbacks.
//
// # Analyzer statusowner
//
// statusowner: report terminal run statuses written outside the runtime
//
// Only the runtime writes run status (docs/model.md, invariant L8): tools return results, the
// model proposes decisions, and completed is written only after the success criteria are
// checked. A tool implementation, or a callback/hook the framework calls, that sets a run to
// completed, failed or cancelled bypasses those checks: the run can end completed while the
// loop still has pending tool calls, and the event log shows a status written by a tool.
//
//	func (t *SubmitTool) Call(ctx context.Context, args string) (string, error) {
//		t.run.Status = StatusCompleted // WRONG
//		return "submitted", nil
//	}
//
// Return the result (or a stop request) and let the runtime decide. Tools are methods of types
// that implement a tool interface (profile, //lifeline:tool, or inferred); callbacks are function
// literals passed where a func type bound to the callback or tool role is expected, and
// functions marked //lifeline:tool or //lifeline:callback.
package statusowner
