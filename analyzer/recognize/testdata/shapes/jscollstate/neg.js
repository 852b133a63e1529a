"use strict";
// Not a turn loop: a batch worker hands its list to a helper that looks handlers up by kind
// and pushes what they return; the loop leaves on a test of the list's length, the helper
// calls no model (its result is the handler table's, a lookup in memory).
var Worker = class {
  constructor(handlers) {
    this.handlers = handlers;
  }
  fill(out, jobs) {
    for (const job of jobs) {
      const h = this.handlers.get(job.kind);
      if (h) {
        out.push(h(job));
      }
    }
  }
  drain(queue) {
    const out = [];
    while (true) {
      this.fill(out, queue.take(10));
      if (out.length >= 100) {
        return out;
      }
    }
  }
};
module.exports = { Worker };
