// Package ir is lifeline's language-neutral lifecycle representation of agent code: what a
// front-end (Go from go/ssa today; Python and TypeScript from tree-sitter next) observes about
// functions, loops, calls, branches, returns, cancellation checks and the data flow of call
// results, as plain data. The lifecycle recognizer (analyzer/recognize) reads only this
// package, so every language gets the same rules.
//
// # What a front-end must produce
//
// A Program is a list of Funcs (closures and nested functions are Funcs too, with Parent set)
// plus program-wide facts (Defaults). Within a Func, every element is numbered by its index in
// its slice (Loops[i].ID == i, Calls[i].ID == i, ...) and refers to other elements of the same
// Func by those indices; references to other Funcs use Func.ID (the index in Program.Funcs).
//
//   - Loops: each loop statement (for/while, range over a finite collection, over an integer,
//     over a channel, over an iterator/async iterable: "for await"), with its header position,
//     the loop enclosing it, and its LoopKind. Recursion is not a Loop: the recognizer derives it
//     from Call.Callees.
//   - Calls: each call site with its callee candidates (from a call graph: static callee, or
//     every implementation an interface/dynamic call may reach, as qualified names of Funcs or of
//     external functions), the loops it sits in, whether it is launched concurrently (a goroutine,
//     errgroup/WaitGroup.Go, Promise.all/asyncio.gather/TaskGroup) and the Flow of its result.
//   - Flow (the agent shape, keyed on data flow, not on names): what happens to a call's result,
//     or to what it delivers (channel elements, iterator items, stream events, callbacks): a
//     collection derived from it is tested for emptiness; it is iterated; an element's string
//     field keys a map lookup or is compared against names of callables (a dispatch), and which
//     calls then run the callable; whether those calls' results flow into the input of the next
//     call of the same site (the next iteration).
//   - Branches: conditions that compare a loop counter (a value incremented in the loop) with a
//     bound, with the bound operand described (constant, field key, parameter, variable).
//   - Returns: each return with its values classified (nil, constant, sentinel error, context
//     error, wrapped error, other), whether it can run before any loop of the function starts
//     (AfterLoops, AfterCalls: what can run before it), the loop it is in, and the Guard it is
//     taken under (a value tested for equality with literals: stopReason === "aborted").
//   - Cancels: each cancellation observation (Go ctx.Done()/ctx.Err()/context.Cause; a JS
//     signal.aborted/throwIfAborted; a Python cancel event/flag check) with, per enclosing loop,
//     whether every iteration's path through the loop passes it (EveryIteration: the check
//     dominates every back edge), which a check inside a retry backoff does not.
//   - Mints: where ids are minted (uuid.New, crypto/rand.Text, uuid4(), crypto.randomUUID()).
//
// Positions are absolute file names with 1-based lines; the map builder makes them relative.
// Names are qualified the way the language prints them: Go "(*pkg/path.Type).Method",
// "pkg/path.Func"; Key is the profile key ("pkg/path.Type.Method") shared with analyzer/roles.
package ir

import "strings"

// Pos is a source position: an absolute file name and a 1-based line.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// IsValid reports whether p names a file.
func (p Pos) IsValid() bool { return p.File != "" }

// Program is everything a front-end observed about one set of packages or modules.
type Program struct {
	// Lang is the source language: "go", "python", "typescript", "javascript".
	Lang  string  `json:"lang"`
	Funcs []*Func `json:"funcs"`
	// Defaults are the default values of bound candidates (fields, variables, options) set
	// anywhere in the program: constructors, zero-value checks, functional options.
	Defaults []Default `json:"defaults,omitempty"`
	// EnvDefaults are the defaults (and bound constants) that apply only when an environment
	// variable is unset, by the position of the default's definition, sorted by position.
	EnvDefaults []EnvDefault `json:"env_defaults,omitempty"`
	// Sentinels are the package-level error values (Go sentinel vars, Python exception
	// classes, JS error classes) with a stop reason their name or message suggests, if any.
	Sentinels []Sentinel `json:"sentinels,omitempty"`
	// Directives are the lifeline: comments of sources without a type checker's doc
	// comments (Python "# lifeline:verb args", TS/JS "// lifeline:verb args" on the lines above
	// a declaration), keyed by the declared object's key.
	Directives []Directive `json:"directives,omitempty"`
}

// Directive is a lifeline: comment on a declaration.
type Directive struct {
	Key  string   `json:"key"`
	Verb string   `json:"verb"`
	Args []string `json:"args,omitempty"`
	Pos  Pos      `json:"pos"`
}

// Func is a function, method or closure with a body.
type Func struct {
	ID int `json:"id"`
	// Name is the qualified name, e.g. "(*example.com/a.Agent).Run" or "example.com/a.Run$1".
	Name string `json:"name"`
	// Key is the profile key ("example.com/a.Agent.Run"), "" for closures.
	Key string `json:"key,omitempty"`
	// Short is a readable name, e.g. "a.Agent.Run" or "a.Agent.Run (closure)".
	Short  string `json:"short"`
	Pkg    string `json:"pkg"`
	Pos    Pos    `json:"pos"`
	Source string `json:"source,omitempty"`
	// Recv is the receiver type's name for a method ("" otherwise).
	Recv string `json:"recv,omitempty"`
	// Exported: callable from other packages or modules (Go: exported name, and for a method,
	// an exported receiver type or an unexported one whose method implements an exported
	// interface or that an exported function returns; Python: no leading underscore; TS: exported).
	Exported bool `json:"exported"`
	// ExportedVia names the exported interface method an unexported receiver's method implements.
	ExportedVia string `json:"exported_via,omitempty"`
	// ExportedBy names the exported function (or variable) handing out an unexported receiver
	// whose exported method this is (an exported constructor returning *agent).
	ExportedBy string `json:"exported_by,omitempty"`
	// Implements lists the keys of the interface methods this method implements (Go), the
	// base-class methods it overrides (Python, TS).
	Implements []string `json:"implements,omitempty"`
	// Parent is the enclosing Func of a closure (-1 for top-level functions).
	Parent int `json:"parent"`
	// ParentLoops are the loops of Parent (innermost first) the closure is created in: a closure
	// made in a loop (a goroutine per tool call, the body of a range-over-func loop) is part of
	// that loop's iteration.
	ParentLoops []int `json:"parent_loops,omitempty"`
	// BodyOf is, for the body of a range-over-func loop, that loop's id in Parent; -1 otherwise.
	BodyOf int `json:"body_of"`
	// Launch says how a closure runs: "" (called in place or stored), "go", "errgroup", "defer",
	// "return" (returned to the caller, which runs it later: an iterator it drains, a callback).
	Launch string  `json:"launch,omitempty"`
	Params []Param `json:"params,omitempty"`
	// Results are the result kinds: "error", "chan", "iterator", "stream", "func", "value".
	Results []string `json:"results,omitempty"`
	// Test marks functions in test files.
	Test bool `json:"test,omitempty"`

	Loops    []Loop    `json:"loops,omitempty"`
	Calls    []Call    `json:"calls,omitempty"`
	Branches []Branch  `json:"branches,omitempty"`
	Returns  []Return  `json:"returns,omitempty"`
	Cancels  []Cancel  `json:"cancels,omitempty"`
	Mints    []Mint    `json:"mints,omitempty"`
	Stops    []StopSet `json:"stops,omitempty"`
	// CancelAlways is true when a cancellation check is on every path through the function
	// (it dominates every return): a call of it observes cancellation.
	CancelAlways bool `json:"cancel_always,omitempty"`
	// Lookups are where the function selects a value by the name of one of its parameters (or
	// a name read from one): tools_dict[function_call.name], next(t for t in tools if t.name
	// == call.name), tools.get(call.name) — what a tool call names looked up, wherever the
	// caller's data flow can follow it (Python/TS front-end; the recognizer reads them for
	// the tools of a step generator, see recognize's drainedStep, and of a call whose result
	// leaves but is dispatched by no lookup its flow can follow, see lookupDispatch).
	Lookups []Pos `json:"lookups,omitempty"`
	// RunsLookup is true when the function also runs a callable one of its Lookups selects
	// (func = self.function_map[name]; func(**arguments)), not only hands it back or reads it
	// (a field getter: value.get(name)).
	RunsLookup bool `json:"runs_lookup,omitempty"`
}

// Param is a function parameter.
type Param struct {
	Name string `json:"name"`
	// Kind is "context" (a cancellation carrier: Go context.Context, an AbortSignal), "int",
	// "string", "func" or "value".
	Kind string `json:"kind"`
}

// LoopKind says what drives a loop.
type LoopKind string

// Loop kinds.
const (
	LoopFor       LoopKind = "for"        // for with a condition or none (while)
	LoopRangeList LoopKind = "range_list" // over a finite collection (slice, array, map, string)
	LoopRangeInt  LoopKind = "range_int"  // over an integer: for i := range n
	LoopRangeChan LoopKind = "range_chan" // over a channel
	LoopRangeIter LoopKind = "range_iter" // over an iterator function / async iterable (for await)
)

// Loop is a loop statement.
type Loop struct {
	ID   int      `json:"id"`
	Kind LoopKind `json:"kind"`
	// Pos is the loop statement's header.
	Pos    Pos    `json:"pos"`
	Source string `json:"source,omitempty"`
	// End is the first line after the loop (where "the loop ends" points).
	End Pos `json:"end"`
	// Outer is the enclosing loop of the same Func, -1 if none.
	Outer int `json:"outer"`
	// Cond is the loop condition as written ("" for none or a range).
	Cond string `json:"cond,omitempty"`
	// Over is the ranged expression as written.
	Over string `json:"over,omitempty"`
	// OverCall is the call (index in Func.Calls) whose result the loop ranges over, -1 if none.
	OverCall int `json:"over_call"`
	// Retry is true when the loop only repeats after a failure (its body ends by leaving and
	// goes round again only from an error path): a provider retry around one call, never a
	// turn loop.
	Retry bool `json:"retry,omitempty"`
}

// Call is a call site.
type Call struct {
	ID  int `json:"id"`
	Pos Pos `json:"pos"`
	// Source is the call's source line, Text the call expression as written.
	Source string `json:"source,omitempty"`
	Text   string `json:"text,omitempty"`
	// Callees are the qualified names of the functions the call may run (one for a static call,
	// every implementation for a dynamic call); Keys their profile keys; Abstract is the key of
	// the interface method or func type called through, if any.
	Callees  []string `json:"callees,omitempty"`
	Keys     []string `json:"keys,omitempty"`
	Abstract string   `json:"abstract,omitempty"`
	// Provider names the well-known model API the call is (a provider SDK's chat method, an
	// HTTP request: "openai-go Chat.Completions.New"), from the front-end's table of them:
	// evidence for a model call, never one by itself (the shape decides).
	Provider string `json:"provider,omitempty"`
	// Targets are the Func ids among Callees that have bodies in the Program.
	Targets []int `json:"targets,omitempty"`
	// ArgFuncs are the Funcs passed as arguments (callbacks: a retry wrapper's attempt, a
	// tracing span's body, a Promise.all member).
	ArgFuncs []int `json:"arg_funcs,omitempty"`
	// RunsArgs is true when the ArgFuncs run as the call's loop repeats, though its callee
	// only keeps them: a workflow-DSL loop (wf.dowhile(step, cond)) whose engine runs the
	// step's functions and the condition later, each iteration.
	RunsArgs bool `json:"runs_args,omitempty"`
	// Method is the called method's or function's bare name.
	Method string `json:"method,omitempty"`
	// Loops are the loops of the Func the call is in (innermost first).
	Loops []int `json:"loops,omitempty"`
	// Concurrent says how the call is launched: "" (in place), "go", "errgroup", "all".
	Concurrent string `json:"concurrent,omitempty"`
	// Joins is true when the call waits for the goroutines launched before it (wg.Wait(),
	// g.Wait() of an error group, a Wait method that does either), or returns a channel the
	// function then receives from until it is closed (for ev := range r.RunStream(ctx, s)):
	// what follows runs after them.
	Joins bool `json:"joins,omitempty"`
	// PassesContext is true when a cancellation carrier is an argument.
	PassesContext bool `json:"passes_context,omitempty"`
	// ContextArg describes the context argument's origin: "param", "background", "derived",
	// "request" (an HTTP request's context), "" when none.
	ContextArg string `json:"context_arg,omitempty"`
	// Accessor is true when the call only reads a part of one of its operands: it takes no
	// cancellation carrier, cannot fail, and returns a value of the same kind as its receiver or
	// an argument, or a collection of them (a child accessor n.Child("body"), n.Children(),
	// unwrap(n), s.Items, pair.Next()). No new information enters through it: it is the step of
	// a walk over a tree, a graph or a list, never a model call. Front-ends decide it with their
	// language's types or, without types, from the callee's body (every return is a component
	// of a parameter).
	Accessor bool `json:"accessor,omitempty"`
	// Descends is true when the call hands over, as its receiver or an argument, a part of a
	// parameter (or the receiver) of the function holding it, of the same kind: t.inner for t,
	// n.Left for n, a child of n.Children. A recursion through such calls walks down a finite
	// structure (a tree, a chain of wrappers), never a turn recursion.
	Descends bool `json:"descends,omitempty"`
	// Flow is what happens to the call's result (nil when nothing relevant).
	Flow *Flow `json:"flow,omitempty"`
	// Recursive is true when the call may run the Func that holds it again.
	Recursive bool `json:"recursive,omitempty"`
	// Dominates is true when the call is on every iteration's path of its innermost loop.
	Dominates bool `json:"dominates,omitempty"`
	// Input is true when the call waits for a line the user types: a read of the standard
	// input (Go fmt.Scanln, a bufio reader or scanner over os.Stdin; Python input(),
	// sys.stdin.readline). A loop each iteration of which waits so is a session of user turns
	// ended by the user (EOF, quit), not a turn loop a model keeps going. Set by the front-ends
	// from their tables.
	Input bool `json:"input,omitempty"`
	// InMemory is true when the call has callees and every one of them that has no body in the
	// Program computes in memory from its operands: a function of the language's table of
	// standard libraries that reach no network, process, file or user (Go strings, strconv,
	// sort, encoding/json, net/url, reflect, sync, …). Set by the front-ends from their tables;
	// the recognizer follows the callees with bodies (a constructor, parser or loader that only
	// builds a value from its arguments is never a model call).
	InMemory bool `json:"in_memory,omitempty"`
	// Node is true when the call runs a node func a graph engine keeps by name (a func field
	// of a record read from a map or slice of nodes, possibly wrapped by middleware:
	// nodes[name].Fn(ctx, state)); its Targets are every node the refined call graph resolves
	// it to. The engine's superstep loop may sit several calls above it (a vertex adapter, a
	// worker pool, a superstep helper).
	Node bool `json:"node,omitempty"`
	// Dropped is true when the call is a statement of its own and its result is not used
	// (await runLoop(...);). Set by the Python/TS front-end.
	Dropped bool `json:"dropped,omitempty"`
	// Awaited is true when the call is the operand of an await (await withSpan(span, async ()
	// => …)): the caller waits for what the call hands back, so a callback handed to it runs
	// before the call is over, whatever the callee (one the program does not hold) does with
	// it. Set by the Python/TS front-end.
	Awaited bool `json:"awaited,omitempty"`
}

// Flow is the data flow of a call's result that the agent shape keys on.
type Flow struct {
	// Delivery is how the result arrives: "return", "channel", "iterator", "callback".
	Delivery string `json:"delivery,omitempty"`
	// Checked are tests of a collection derived from the result for emptiness (len == 0,
	// == nil, not x): the "no tool calls → final answer" decision.
	Checked []Check `json:"checked,omitempty"`
	// Iterated are the loops (ids in the Func of the iteration) or positions where a collection
	// derived from the result is iterated.
	Iterated []Pos `json:"iterated,omitempty"`
	// Dispatch are the places where an element's name selects a callable.
	Dispatch []Dispatch `json:"dispatch,omitempty"`
	// FeedsNext is true when what the dispatched calls return flows into the input of the next
	// call of this site; FeedPos is where (the append or store).
	FeedsNext bool `json:"feeds_next,omitempty"`
	FeedPos   Pos  `json:"feed_pos,omitzero"`
	// Kept is true when the feed is a field of the receiver the result is kept in and the
	// call itself reads (self.pending = result; the next self.response(r) hands self.pending
	// to the responder): the tools the call's own body runs run on what an earlier call of
	// the site returned, so they are not the work of an executor the call is.
	Kept bool `json:"kept,omitempty"`
	// ToolsPassed is true when the call receives the collection its dispatched callables are
	// selected from (the model is told which tools it may call).
	ToolsPassed bool `json:"tools_passed,omitempty"`
	// Parsed is true when the result is text that a plain function of the program parses
	// into the next action (act, ok := parse(reply)): a model with no tool-call API whose
	// reply names one action, selected by its verb like an element by its name.
	Parsed bool `json:"parsed,omitempty"`
	// Fields are the field and method names read on the result on the way (evidence only).
	Fields []string `json:"fields,omitempty"`
	// Carriers are the calls whose results carry this result on (a helper handed the result or
	// the state it was kept in, returning what it derived: pendingToolCalls(resp)); such a
	// call is not another model call of the same loop.
	Carriers []CallRef `json:"carriers,omitempty"`
	// Into are the calls of functions of the program that are handed a value derived from
	// the result as an argument and whose own result is not kept (return streamCall({
	// messages: prep.messages })): what the result prepares is their input, so a call
	// among them that decides the same loop is its model call, not this one.
	Into []CallRef `json:"into,omitempty"`
	// Through are the calls this result is handed back up through: a caller's call of the
	// function (or interface method) that returned it, the wrappers of this call
	// (agent.Model.GetResponse(…) around the client.Responses.New(…) of an implementation,
	// r.getResponse(…) around both). Such a call produces the same result; it is no consumer.
	Through []CallRef `json:"through,omitempty"`
}

// Check is a test of a collection derived from a call result.
type Check struct {
	Pos  Pos    `json:"pos"`
	Text string `json:"text,omitempty"`
	// Leaves is true when the empty branch returns or leaves the loop (a final answer).
	Leaves bool `json:"leaves,omitempty"`
	// Return is the return (index in the Func holding the check) the empty branch reaches, -1.
	Return int `json:"return"`
	// Func is the Func holding the check.
	Func int `json:"func"`
	// Indirect is true when the tested value comes from the result only through another
	// call's parameters or results (what a helper returns may merely mix the result in).
	Indirect bool `json:"indirect,omitempty"`
	// State is true when the test reads state the call's function (or a method of the same
	// receiver it calls) wrote, not the result itself: a loop that repeats a step helper
	// (self.step()) and leaves on what the step appended (if self.messages[-1]["role"] ==
	// "exit": return). Func is the function holding that loop.
	State bool `json:"state,omitempty"`
}

// Dispatch is a selection of a callable by an element's name.
type Dispatch struct {
	Pos Pos `json:"pos"`
	// How is "map_lookup" (name keys a map of callables), "name_compare" (the name is compared
	// with callables' names or constant names), "name_arg" (the name is passed to a lookup call),
	// "text_arg" (the reply's text is the argument of the call that runs).
	How string `json:"how"`
	// Func is the Func holding the dispatch; Calls the call ids in that Func (or CallFuncs'
	// Funcs) that run the selected callable: the tool call sites.
	Func  int       `json:"func"`
	Calls []CallRef `json:"calls,omitempty"`
	Text  string    `json:"text,omitempty"`
	// Launched are the Calls reached through a function launched once per element (a
	// goroutine or an errgroup/WaitGroup.Go closure started in a loop, a worker fed from a
	// channel): those tool calls run in parallel, whatever other paths reach the same call.
	Launched []CallRef `json:"launched,omitempty"`
	// Feeds is true when what the one call of an element_arg dispatch returns reaches the
	// input of the next call of the site (outputs = [env.execute(a) for a in reply.actions]
	// appended to the messages the model is sent next): one executor runs every tool call.
	// Of a text_arg dispatch (the reply's text handed as the input of a plain function of
	// the program returning text and an error: results, err := search(query)), that what the
	// function returns reaches the next call's input.
	Feeds bool `json:"feeds,omitempty"`
}

// CallRef names a call of any Func.
type CallRef struct {
	Func int `json:"func"`
	Call int `json:"call"`
}

// Branch is a comparison of a loop counter with a bound.
type Branch struct {
	Pos    Pos    `json:"pos"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text"`
	// Loop is the loop whose counter is compared (the loop the branch leaves).
	Loop int `json:"loop"`
	// InCond is true when the comparison is the loop's condition.
	InCond bool `json:"in_cond,omitempty"`
	// Bound is the operand the counter is compared with.
	Bound Operand `json:"bound"`
	// Optional is true when the bound applies only when set (guarded by bound > 0 / != 0).
	Optional bool `json:"optional,omitempty"`
	// Return is the return the bound branch reaches (index in Func.Returns), -1 when it just
	// leaves the loop; StopText is a stop reason it records, as written.
	Return   int    `json:"return"`
	StopText string `json:"stop_text,omitempty"`
	AtPos    Pos    `json:"at_pos,omitzero"`
	AtSource string `json:"at_source,omitempty"`
	// HandedErr is an error naming the bound that the bound branch builds and hands on
	// without raising it (max_turns_error = MaxTurnsExceeded(...) passed to an error
	// handler, then break): the run fails with it where its result is consumed.
	HandedErr string `json:"handed_err,omitempty"`
}

// Operand describes a value: a constant, a field, a parameter or a variable.
type Operand struct {
	Text string `json:"text"`
	// Kind is "const", "field", "param", "var", "call" or "other".
	Kind string `json:"kind"`
	// Key is a field's or package-level variable's key ("pkg/path.Type.Field").
	Key string `json:"key,omitempty"`
	// Const is the constant value, if known.
	Const string `json:"const,omitempty"`
	// ConstPos is where a named constant is declared.
	ConstPos Pos `json:"const_pos,omitzero"`
}

// ValueKind classifies a returned value.
type ValueKind string

// Value kinds.
const (
	ValNil      ValueKind = "nil"
	ValConst    ValueKind = "const"
	ValSentinel ValueKind = "sentinel" // a package-level error value
	ValCtxErr   ValueKind = "ctx_err"  // ctx.Err(), context.Canceled, context.Cause, or a wrap of them
	ValError    ValueKind = "error"    // another error (new, wrapped, from a call)
	ValCall     ValueKind = "call"     // the results of a call passed through
	ValOther    ValueKind = "other"
)

// Value is a returned value.
type Value struct {
	Kind ValueKind `json:"kind"`
	Text string    `json:"text,omitempty"`
	// Key names the sentinel or the called function.
	Key string `json:"key,omitempty"`
	// Call is the call (index in Func.Calls) whose results are passed through (ValCall), or
	// whose error is returned, possibly wrapped (ValError); -1 if none.
	Call int `json:"call"`
	// Stream is true when the value is a channel, iterator or stream the caller drains.
	Stream bool `json:"stream,omitempty"`
	// Alts are the calls (indices in Func.Calls) whose result the value is on one path each,
	// when there are several: r, err = c.Stream(…) in one branch of an if and r, err =
	// c.Generate(…) in the other, merged into the r returned. Set by the Go front-end, and
	// by the Python/TS front-end for a returned variable assigned from a call in each arm of
	// one if (if mode == WAIT: out = w.run_step(…) elif …: out = w.stream_step(…); return out).
	Alts []int `json:"alts,omitempty"`
}

// Return is a return statement (or the implicit return at the end of a body).
type Return struct {
	Pos    Pos    `json:"pos"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text,omitempty"`
	// Err is the error result (the last result when it is an error; Python/TS: a raise is a
	// Return with Err set and Values empty). Nil when the function returns no error.
	Err    *Value  `json:"err,omitempty"`
	Values []Value `json:"values,omitempty"`
	// AfterLoops are the loops of the Func from which this return can be reached; a return no
	// loop reaches and no run-launching call precedes runs before the run exists.
	AfterLoops []int `json:"after_loops,omitempty"`
	// AfterCalls are the calls of the Func that can run before this return on some path.
	AfterCalls []int `json:"after_calls,omitempty"`
	// InLoop is the innermost loop the return is inside, -1 if none.
	InLoop int `json:"in_loop"`
	// Resume is true when a returned value carries, in a field, a value of the type of one of
	// the function's parameters (a chat continuation's state the caller passes back to resume).
	Resume bool `json:"resume,omitempty"`
	// Waiting is true when the return is taken because the run pauses: under a test of an
	// interruption, a pending approval or human input (if interrupts: return ...).
	Waiting bool `json:"waiting,omitempty"`
	// Raise is true for a raise or throw (Python/TS), including a call that always raises
	// (signal.throwIfAborted(), a helper every path of which throws): the function leaves
	// with an exception, not a value.
	Raise bool `json:"raise,omitempty"`
	// State is the discriminator of the state the function records on its way out, as
	// written: the kind/type/status of an object literal it returns or assigns just before
	// (turnEnds = {kind: 'completed'}; return false, or return {type: 'final_output', ...}).
	State string `json:"state,omitempty"`
	// Guard is the test of a value against literals that the return is taken under: the
	// nearest enclosing if (then-branch) or switch/match arm whose condition compares one value
	// for equality with string literals or constants, alone or joined by or (if
	// (message.stopReason === "error" || message.stopReason === "aborted") return; case
	// "length", "max_tokens": return; if resp.status in ("failed", "cancelled"): raise). Nil
	// when there is none. The front-ends record every such test; the recognizer decides which
	// values say how the run ended.
	Guard *Guard `json:"guard,omitempty"`
	// Wraps are the calls whose results a returned construction is built from (return new
	// StreamWithAbort(stream), where const stream = await this.stream(...)): the caller
	// drains the run they hand back, when they stream it.
	Wraps []int `json:"wraps,omitempty"`
	// ErrOf are the calls whose error is known to be non-nil where the return is taken (it
	// lies under if err != nil of that call's error): the return is on their failure path.
	// Set by the Go front-end.
	ErrOf []int `json:"err_of,omitempty"`
	// OnCancel is true when the return lies under a test that the run was cancelled: the
	// then-branch of errors.Is(err, context.Canceled) (or DeadlineExceeded), of
	// err == context.Canceled, or of ctx.Err() != nil (if errors.Is(err, context.Canceled) {
	// return nil, nil }: a cancel, whatever it returns). Set by the Go front-end.
	OnCancel bool `json:"on_cancel,omitempty"`
	// TryLoops, for a raise that passes on the error its handler caught (a bare raise, throw e
	// of catch (e), raise err of except … as err), are the loops of the Func inside the
	// protected block, or around the try statement (a try inside the loop's body): the error
	// ends the work those loops were doing. Nil otherwise.
	TryLoops []int `json:"try_loops,omitempty"`
	// Caught is the error class the handler of such a rethrow names, as written (except
	// asyncio.CancelledError: raise), "" when it names none (catch (e), except Exception).
	Caught string `json:"caught,omitempty"`
}

// Guard is a test of one value against literals (see Return.Guard).
type Guard struct {
	Pos Pos `json:"pos"`
	// Text is the condition (or the arm's values) as written.
	Text string `json:"text,omitempty"`
	// Subject is the tested value as written (message.stopReason, resp.Choices[0].FinishReason).
	Subject string `json:"subject"`
	// Field is the subject's last field, key or method name (stopReason), or the variable's
	// name when the subject is one.
	Field string `json:"field,omitempty"`
	// Values are the literal values (strings unquoted, constants by value) any one of which
	// takes the return, in source order.
	Values []string `json:"values"`
}

// Cancel is an observation of cancellation.
type Cancel struct {
	Pos  Pos    `json:"pos"`
	Text string `json:"text,omitempty"`
	// Kind is "done" (a wait on the cancellation channel/event), "err" (reading the error or
	// flag) or "call" (a call of a function whose every path checks).
	Kind string `json:"kind"`
	// Loops are the enclosing loops (innermost first) and, for each, whether every iteration's
	// path passes this check.
	Loops []LoopObs `json:"loops,omitempty"`
	// After are the calls of the Func (ids) after which every path to the end of the
	// innermost loop's iteration passes this check: a check that follows each step's model
	// call is a check between steps even when the body has paths without a step.
	After []int `json:"after,omitempty"`
}

// LoopObs says whether an observation is on every iteration's path of a loop.
type LoopObs struct {
	Loop           int  `json:"loop"`
	EveryIteration bool `json:"every_iteration"`
}

// Mint is where an id is minted (uuid.New, a process-wide counter), or where a child gets
// its parent (Kind "parent": a store into a Parent / ParentID field).
type Mint struct {
	Pos    Pos    `json:"pos"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text"`
	// Kind is "" for a mint, "parent" for a parent handed to a child.
	Kind string `json:"kind,omitempty"`
	// Field is the field the id is stored into, if any (e.g. "RunID").
	Field string `json:"field,omitempty"`
	// Owners are the names of the types holding Field, innermost first (an embedded struct,
	// then the type embedding it): what the id identifies ("RunContext", "Invocation").
	Owners []string `json:"owners,omitempty"`
}

// StopSet is a list of stop conditions checked each step (a StopWhen-style predicate list):
// a call in a loop that receives a collection of predicates and whose boolean result decides
// whether the loop goes on.
type StopSet struct {
	Pos    Pos    `json:"pos"`
	Source string `json:"source,omitempty"`
	// Text is the predicate list as written.
	Text string `json:"text"`
	Loop int    `json:"loop"`
	// Key is the predicate list's field key, when it is a field.
	Key string `json:"key,omitempty"`
	// Return is the return (index in Func.Returns) reached when a condition holds, -1 when
	// unknown; StopText a stop reason recorded on the way, as written; AtPos where the
	// function acts on it (the return, the store of the stop reason, what follows the break).
	Return   int    `json:"return"`
	StopText string `json:"stop_text,omitempty"`
	AtPos    Pos    `json:"at_pos,omitzero"`
	AtSource string `json:"at_source,omitempty"`
}

// Default is a default value of a field, variable or option.
type Default struct {
	// Key is the field's or variable's key.
	Key   string `json:"key"`
	Value string `json:"value"`
	Pos   Pos    `json:"pos"`
	// Via is "const" (a declaration), "constructor" (a composite literal or assignment in a
	// function returning the type), "zero_check" (if x == 0 { x = v }), "option" (a functional
	// option or keyword default), "caller" (what a call of the set hands the parameter: Func
	// is the function holding that call, Expr and ExprPos the value as passed; Value and Pos
	// what it amounts to when the caller's own options are unset).
	Via     string `json:"via"`
	Func    int    `json:"func,omitempty"`
	Expr    string `json:"expr,omitempty"`
	ExprPos Pos    `json:"expr_pos,omitzero"`
}

// EnvDefault says that the default value defined at Pos is used only when the environment
// variable Var is unset: int(getenv("LIMIT", "25")), process.env.LIMIT ?? "25", envInt("LIMIT",
// 25) of a Go helper that reads os.Getenv.
type EnvDefault struct {
	Pos Pos    `json:"pos"`
	Var string `json:"var"`
}

// Sentinel is a package-level error value.
type Sentinel struct {
	Key  string `json:"key"`
	Text string `json:"text,omitempty"`
	Pos  Pos    `json:"pos"`
}

// FuncByName returns the index of the Funcs by name.
func (p *Program) FuncByName() map[string]int {
	m := make(map[string]int, len(p.Funcs))
	for i, f := range p.Funcs {
		m[f.Name] = i
	}
	return m
}

// IdentIn reports whether name occurs in s as a whole identifier, not as a property (x.name)
// or a part of a longer identifier; the front-ends and the recognizer test source texts with
// it.
func IdentIn(s, name string) bool {
	word := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; name != "" && i+len(name) <= len(s); {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !word(s[j-1]) && s[j-1] != '.') && (j+len(name) == len(s) || !word(s[j+len(name)])) {
			return true
		}
		i = j + 1
	}
	return false
}

// StateWords are the words of a recorded state (Return.State) that name an outcome, in the
// order they are tried. The recognizer maps each to its outcome; a front-end uses them to tell
// a status value from other text.
var StateWords = []string{"cancel", "abort", "interrupt", "approval", "waiting", "paused",
	"error", "fail", "complete", "final", "finish", "success", "done",
	// a limit's own word names no outcome (the run is failed or completed as the code around
	// says), but a state recorded at the bound that names it is the bound's stop reason
	// (this._finishStream('max_turns'); return;)
	"maxturn", "maxstep", "maxiteration", "maxround", "turnlimit", "steplimit"}

// StateWord returns the first of StateWords that v contains once lower-cased with "_", "-"
// and spaces removed, "" when it contains none.
func StateWord(v string) string {
	n := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(v))
	for _, w := range StateWords {
		if strings.Contains(n, w) {
			return w
		}
	}
	return ""
}
