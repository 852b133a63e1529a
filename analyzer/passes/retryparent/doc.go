// Package retryparent defines an Analyzer that reports retries that start a new run without a
// parent run id and attempt number.
//
// # Analyzer retryparent
//
// retryparent: report retries that start a new run without parent id and attempt
//
// Nothing leaves a terminal status: a retry is a new run that carries parent_run_id and
// attempt+1 (docs/model.md, "Identity" and invariant L9). A run started again in a retry loop,
// or in the error branch after a failed start, without those fields looks unrelated to the run
// it retries: traces cannot group the attempts and a resume cannot tell a retry from a
// duplicate.
//
//	for attempt := 1; attempt <= 3; attempt++ {
//		run, err := StartRun(ctx, RunOptions{Input: in}) // WRONG
//
//	var parent string
//	for attempt := 1; attempt <= 3; attempt++ {
//		run, err := StartRun(ctx, RunOptions{Input: in, ParentRunID: parent, Attempt: attempt}) // RIGHT
//
// Run starts are calls of functions bound to the run_start role (profile or //lifeline:run-start);
// parent id and attempt fields are bound by //lifeline:parent-id and //lifeline:attempt, a
// profile, or inferred from the names ParentRunID/ParentID and Attempt.
package retryparent
