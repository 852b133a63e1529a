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
package unboundedloop
