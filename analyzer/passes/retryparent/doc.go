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
// # What counts as a retry
//
// A retry runs the same work again because the previous attempt failed. The failure of an
// attempt is an error value: the error result of a run start, of a call on what the start
// returned (run.Wait(ctx), wait(ctx, run)), or an error field of that result. A run start is a
// retry when
//
//   - it is in a loop that iterates again on that failure: a branch taken on the attempt's
//     success leaves the loop (return, break), a branch taken on its failure continues it
//     (continue), or the loop condition holds while the attempt's error is non-nil;
//   - or it is in a branch taken only when an earlier run start of the same function failed
//     (if err != nil { StartRun(...) }).
//
// "Taken on success" means taken only when the error is nil, or always when it is nil (the
// else of "err != nil && attempt < max"); the condition may combine the error test with other
// tests (&&, ||, !) and may use errors.Is or errors.As.
//
// Starting runs in a loop is not by itself a retry:
//
//   - a loop whose work changes from one iteration to the next starts a new run each time: the
//     start's arguments depend on a variable the loop changes (its range element or counter, a
//     line it reads, anything it declares or assigns) other than what the attempt returned; the
//     context and the parent-id and attempt fields do not count, since a retry may give each
//     attempt its own deadline and number;
//   - a loop that leaves on the first failure starts nothing again;
//   - a loop whose iterations go on for another reason, such as a crash test that reopens a
//     runtime from its log and starts or resumes a run until nothing crashed, starts a new run
//     in each iteration without looking at how the previous one ended.
//
// Failures that are not error values (a status compared with Failed) are not followed.
//
// Run starts are calls of functions bound to the run_start role (profile or //lifeline:run-start);
// parent id and attempt fields are bound by //lifeline:parent-id and //lifeline:attempt, a
// profile, or inferred from the names ParentRunID/ParentID and Attempt.
package retryparent
