// Package model is lifeline's canonical lifecycle model: the layers Session › Run › Turn › Step ›
// (model call, tool call) and Connection, their ids, run statuses and stop reasons, the canonical
// event vocabulary, the projection of an event stream onto the lifecycle tree, and the invariants
// L1–L13 of docs/model.md as a streaming checker.
//
// Everything else in lifeline speaks this package: the reference runtime (model/runtime)
// executes it, tracers map foreign logs onto its events, the analyzer maps foreign source code
// onto its terms and renderers draw its trees. It does no I/O.
package model
