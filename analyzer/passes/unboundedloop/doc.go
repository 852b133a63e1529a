// Package unboundedloop defines an Analyzer that reports turn loops with no bound and no
// cancellation exit.
//
// # Analyzer unboundedloop
//
// unboundedloop: report turn loops with no bound and no cancellation exit
//
// A turn loop is the loop around model calls (a for loop, or a function that calls itself
// again after the model asked for tools). When it has no bound (max steps, max turns,
// recursion limit) and never checks cancellation, a model that keeps requesting tools runs it
// forever: the run never reaches a stop boundary and no one can stop it.
//
//	for { // WRONG: no bound, no ctx check
//		resp, err := model.Generate(ctx, msgs)
//		...
//	}
//
//	for step := 0; step < maxSteps; step++ { // RIGHT
//		if err := ctx.Err(); err != nil {
//			return err
//		}
//		...
//	}
//
// A retry loop around one model call (no tool calls; a pause or an exit on success between
// attempts) with no bound and no cancellation check is reported as a retry loop: a call that keeps
// failing is retried forever.
//
// A range over a finite collection is bounded by its length: an integer, a string, a slice,
// an array or a pointer to one, or a map the loop does not insert into (the language lets a
// range produce entries added during the iteration, so a loop that keeps adding to the map it
// ranges over need not end). A range over a channel or a function iterator is not bounded: it
// ends only when its producer says so. A for loop that walks a linked structure (its condition
// is n != nil and its post statement n = n.next or n = n.Next()) is bounded by it too.
//
// The length of a collection the loop appends to counts its steps: for len(history)-initLen <
// maxTurns and while len(self.steps) < self.max_steps are bounded by maxTurns and
// self.max_steps. A bound whose default is infinite (max_turns=float("inf")) bounds nothing
// unless the caller sets it, and is reported. A loop each iteration of which waits for the
// user's input (a read of the standard input, Python input()) is an interactive session the
// user ends, not a turn loop, and is not reported; the turn loop each input runs still is.
package unboundedloop
