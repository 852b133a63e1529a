// Package runtime is lifeline's reference agent runtime: a real, concurrent executor of the
// canonical lifecycle model of docs/model.md (Session › Run › Turn › Step › model call / tool
// call), whose only external parts are the Model and Tool interfaces.
//
// The session's append-only JSON Lines event log is the source of truth. Every event is written
// and fsynced before the runtime acts on it, and every decision the run loop takes is derived
// from the events already written (a reducer folds them into per-run state), so the same loop
// that drives a live run also resumes one after a process crash: Open reads the log back
// (truncating a torn last line), Resume writes run/resumed and the loop carries on from the
// durable facts. A side-effecting tool call that was started but whose result was never recorded
// is confirmed through the tool's idempotency probe, or surfaced with outcome "unknown"; it is
// never re-executed blindly. A run's input is durable in its run/queued event, so no crash can
// leave a resumable run without it; a model call a crash interrupted ends cancelled with
// attrs.interrupted and is re-issued without counting against the step's model attempts (a
// crash is not a provider error).
//
// All time goes through the Clock of Options: event timestamps, the run's deadline, model-call
// timeouts, retry backoff, the cancel grace and probe timeouts; models and tools find the clock
// in their context (Sleep, ClockFrom). On a VirtualClock time is logical — it moves only when
// something sleeps and nothing the runtime waits for is busy — so that the scenarios, the demo
// and the tests give the same log on any machine, however slow or loaded.
//
// The event order follows docs/events.md. Scenarios lists the built-in scenarios that the
// `lifeline demo` command runs and the tests check against invariants L1–L13.
package runtime
