// Package connctx defines an Analyzer that reports runs started with a connection-scoped
// context, such as an *http.Request's.
//
// # Analyzer connctx
//
// connctx: report runs started with an HTTP request's context
//
// Closing a connection never cancels a run (docs/model.md, invariant L12): a browser reconnect
// restores the view, it does not restart the work. A run started (or an agent loop driven) with
// r.Context() of an HTTP handler is cancelled the moment the client disconnects, a page reload
// or a flaky network kills the run half-way, and the run ends cancelled because of transport.
//
//	func handle(w http.ResponseWriter, r *http.Request) {
//		go agent.Run(r.Context(), input) // WRONG
//
//	func handle(w http.ResponseWriter, r *http.Request) {
//		go agent.Run(context.WithoutCancel(r.Context()), input) // RIGHT (the suggested fix)
//
// Contexts derived from the request's (context.WithTimeout(r.Context(), ...) and so on) are
// connection-scoped too; context.WithoutCancel detaches them while keeping their values. A run
// start is a call of a function bound to run_entry, run_start or engine_call, or of a function
// that runs a turn loop.
package connctx
