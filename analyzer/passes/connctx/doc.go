// Package connctx defines an Analyzer that reports runs started with a connection-scoped
// context: an *http.Request's, or a gRPC server stream's.
//
// # Analyzer connctx
//
// connctx: report runs started with a connection's context
//
// Closing a connection never cancels a run (docs/model.md, invariant L12): a browser reconnect
// restores the view, it does not restart the work. A run started (or an agent loop driven) with
// r.Context() of an HTTP handler is cancelled the moment the client disconnects, a page reload
// or a flaky network kills the run half-way, and the run ends cancelled because of transport.
// The same holds for the Context() of a gRPC server stream, which ends with the stream.
//
//	func handle(w http.ResponseWriter, r *http.Request) {
//		go agent.Run(r.Context(), input) // WRONG
//
//	func handle(w http.ResponseWriter, r *http.Request) {
//		go agent.Run(context.WithoutCancel(r.Context()), input) // RIGHT (the suggested fix)
//
// The check follows the context value, not the call: it traces the context a run start
// receives back through the function's SSA form (assignments, branches that merge two
// contexts, context.WithCancel/WithTimeout/WithDeadline/WithValue and any call that returns a
// context derived from the contexts it is given, this package's helpers through their
// returns, variables captured by closures and goroutines, struct fields and package
// variables) to its roots. A root that is Context() of a request being served or of a server
// stream is the connection's; context.Background(), context.TODO(), context.WithoutCancel(...)
// and a server-lifetime context are not. A context that may be the connection's on one path
// (if ... { ctx = r.Context() }) is reported. A request the code builds itself
// (http.NewRequestWithContext, r.WithContext) carries the context it was given.
//
// A run start is a call of a function bound to run_entry, run_start or engine_call, of a
// function that runs a turn loop, or of a function of the package that passes its context
// parameter on to one of those (a wrapper such as launch(ctx, input) is reported where the
// request's context is passed to it). A function whose body shows its run starts is judged by
// what it passes them: Start(ctx) that launches its loop on context.Background() does not tie
// the run to ctx. A turn loop written inside the handler itself is not a call and is not
// reported.
//
// The suggested fix wraps the reported argument in context.WithoutCancel (Go 1.21): the run
// keeps the request's values (trace ids, credentials) and loses its cancellation. It imports
// "context" when the file does not. No fix is offered for a module before Go 1.21 or where the
// name context means something else.
package connctx
