// Package stopreasonrank defines an Analyzer that reports stop reasons overwritten by a reason
// of lower priority.
//
// # Analyzer stopreasonrank
//
// stopreasonrank: report stop reasons overwritten by a lower-priority one
//
// When several causes race, priority decides: cancelled > timeout > budget_exceeded >
// guardrail > tool_error = model_error = error > max_steps = max_turns > goal_reached, and a
// recorded reason is never replaced by a lower one (docs/model.md, invariant L7). Code that sets
// a stop reason and then, on some path, unconditionally sets a lower one loses the real cause:
// a cancelled run reports goal_reached, a timeout reports max_steps.
//
//	run.StopReason = StopCancelled
//	...
//	run.StopReason = StopGoalReached // WRONG on a path from the line above
//
//	if run.StopReason == "" { // RIGHT: reading the field first counts as a guard
//		run.StopReason = StopGoalReached
//	}
//
// Stop reasons are constants of a type bound to the stop_reason role (model.StopReason, a
// profile, //lifeline:stop-reason, or inferred from its constants). The check follows the
// control-flow graph; any read of the field between the two writes is taken as a guard.
package stopreasonrank
