// Package recognize is lifeline's one lifecycle recognizer: it reads the language-neutral IR
// (analyzer/ir) that a front-end produced (Go today; Python and TypeScript next) and finds the
// agent shape in it — a loop or recursion whose iteration calls something whose result is
// inspected for tool calls, that leaves with a final answer when there are none, and otherwise
// dispatches each tool call by name to a callable and feeds the results into the next call —
// then derives the run entries that reach such a loop, its bound and default, what happens at
// the bound, its model and tool call sites, whether tools run in parallel, whether every
// iteration's path observes cancellation, the exits of the entries with their outcome, and
// where ids are minted. Every element carries its evidence and a score; profiles (role
// tables) confirm or veto any inferred role.
package recognize

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// Options configure recognition.
type Options struct {
	// Table holds the profile rules that confirm or veto roles (nil: none).
	Table *roles.Table
	// EntryPkgs limits entries to these packages (nil: every package).
	EntryPkgs map[string]bool
	// Rel makes file names relative for evidence texts (nil: unchanged).
	Rel func(string) string
	// ModelSites are model call sites found by other means (the lifecycle pass's rules and
	// the facts it carries between packages: an interface method whose result carries tool
	// calls, reached from a loop through helpers). A call of an entry that reaches one of them
	// makes a decision of the run: what returns after it ends a run that started.
	ModelSites []model.CallSite
}

// Threshold is the score a call site needs to be taken for the model call of a turn loop; it
// must also show the decision (a test of its result that leaves when nothing is pending) and a
// dispatch of the result's elements by name to callables that run. A profile's model_call
// rule accepts a call, a "not" rule rejects it.
const Threshold = 6

// Loop is a recognized turn loop with what the checks need.
type Loop struct {
	Map model.Loop
	// Func is the IR function holding the loop (for a recursion, the recursive function).
	Func *ir.Func
	// LoopID is the loop's id in Func (-1 for a recursion).
	LoopID int
	// Entries are the entries that reach it.
	Entries []string
	// atBound is the return the bound's test reaches (boundFunc.Returns[atBound], -1 if none).
	atBound   int
	boundFunc *ir.Func
	// sharedBound: the return at the bound is also the one the final answer leaves to, and it
	// hands back what a call made after the loop returns (see finalBound)
	sharedBound bool
	// boundKey is the key of the bound's value (its defaults, ir.Default.Key)
	boundKey string
}

// Result is what the recognizer found.
type Result struct {
	Entries []model.Entry
	Loops   []*Loop
}

type rec struct {
	p       *ir.Program
	o       Options
	callers map[int][]ir.CallRef
	// argRuns are, by call, the callbacks handed to it that it runs (see callers): a retry's
	// attempt, a TransformStream's flush
	argRuns map[ir.CallRef][]int
	// closures are the Funcs nested directly in each Func (by Parent), in id order.
	closures map[int][]int
	loops    map[string]*Loop // by "func:loop"
	order    []*Loop
	cands    map[*Loop][]*site
	// extra are the candidates a loop got as one more caller's driver of a step function.
	extra map[*Loop]map[*site]bool
	// toolAbstract are the interface methods the recognized tool call sites call through.
	toolAbstract map[string]bool
	// toolPos are the positions of the recognized tool call sites.
	toolPos map[model.Position]bool
	// toolOnly are the toolAbstract methods no other call runs: their implementations are tools.
	toolOnly map[string]bool
	// inMem memoizes inMemoryFunc: 1 while it is being decided (a recursion), 2 yes, 3 no.
	inMem map[int]int
	// agentTypes are the receiver types of the methods that hold a turn loop: an agent (a
	// worker, a sub-agent) whose id field is its run's id and whose parent field links it to
	// the run that spawned it.
	agentTypes map[string]bool
	// modelUp memoizes modelCallers: the functions that reach a loop's model call sites.
	modelUp map[*Loop]map[int]bool
	// toolRun memoizes toolTargets: the functions a loop's tool call sites run.
	toolRun map[*Loop]map[int]bool
	// unstarted memoizes unstartedErrs: a function's error returns, and whether all come
	// before the run starts.
	unstarted map[int]struct {
		n  int
		ok bool
	}
	// steps are the accepted model call sites no loop repeats: one step each.
	steps []*site
	// answerRets memoizes answerReturn: the returns (function id, return index) a loop's
	// final answer leaves to.
	answerRets map[[2]int]bool
}

// Recognize runs the recognizer on a program.
func Recognize(p *ir.Program, o Options) *Result {
	r := &rec{p: p, o: o, callers: map[int][]ir.CallRef{}, argRuns: map[ir.CallRef][]int{}, closures: map[int][]int{}, loops: map[string]*Loop{}, cands: map[*Loop][]*site{}, extra: map[*Loop]map[*site]bool{}}
	for _, f := range p.Funcs {
		if f.Parent >= 0 {
			r.closures[f.Parent] = append(r.closures[f.Parent], f.ID)
		}
	}
	for _, f := range p.Funcs {
		for _, c := range f.Calls {
			for _, t := range c.Targets {
				r.callers[t] = append(r.callers[t], ir.CallRef{Func: f.ID, Call: c.ID})
			}
			// a callback handed to a function that calls its parameter runs during the call
			// (withSpan(async () => { loop }), runWithLifecycle(executor)): the call is its caller
			for _, a := range c.ArgFuncs {
				// (a closure written into a call of a callee the program does not hold,
				// x.withLock(() => this.kick()), p.then(cb): taken to run it later, as a
				// launch, see reaches; a function only named there may be a handler it keeps)
				if a != f.ID && (len(c.Targets) == 0 && p.Funcs[a].Parent == f.ID || c.RunsArgs || r.callsParam(c.Targets)) {
					r.callers[a] = append(r.callers[a], ir.CallRef{Func: f.ID, Call: c.ID})
					ref := ir.CallRef{Func: f.ID, Call: c.ID}
					r.argRuns[ref] = append(r.argRuns[ref], a)
				}
			}
		}
	}
	for _, f := range p.Funcs {
		if f.Test {
			continue
		}
		for i := range f.Calls {
			r.decision(f, &f.Calls[i])
		}
	}
	r.engineLoops()
	// A call that only carries another candidate's result on (a helper returning the pending
	// tool calls of a reply it was handed) is not a model call of its own; a loop left without
	// a candidate (it had only such carriers) is no turn loop.
	var dropped map[*Loop]bool
	for _, l := range r.order {
		carried := map[ir.CallRef]bool{}
		prepares := map[*site]bool{}
		for _, s := range r.cands[l] {
			if s.c.Flow != nil {
				for _, ref := range s.c.Flow.Carriers {
					if ref == (ir.CallRef{Func: s.f.ID, Call: s.c.ID}) {
						continue
					}
					if t := siteAt(r.cands[l], ref); t != nil && t != s && !s.confirmed && !t.confirmed && !r.builds(t.c) &&
						t.leaves && t.dispatch && len(s.c.Targets) == 0 && len(t.c.Targets) > 0 && s.f.ID == t.f.ID && !s.c.Dominates && t.c.Dominates &&
						(t.c.Flow == nil || !slices.Contains(t.c.Flow.Carriers, ir.CallRef{Func: s.f.ID, Call: s.c.ID})) {
						// s runs nothing of the program, only on some iterations, and its
						// "carrier" is a helper of the program beside it, run on every
						// iteration, that is itself a candidate of the loop reaching outside the
						// program: s only prepares the helper's input when it runs (task_prompt =
						// handle_transforms(…) handed to self.call_llm(task=task_prompt),
						// swarms==16.0.3 agent.py:1140-1174), the helper is the call (a helper
						// handed the model's stream to relay it, ai@7 invokeToolCallbacksFromStream,
						// carries a result of the program's own code)
						prepares[s] = true
						continue
					}
					carried[ref] = true
				}
			}
		}
		own := false
		for _, s := range r.cands[l] {
			own = own || !r.extra[l][s]
		}
		kept := r.cands[l][:0]
		for _, s := range r.cands[l] {
			if own && r.extra[l][s] {
				continue // a loop with model calls of its own takes no other driver's step function
			}
			if prepares[s] {
				continue
			}
			if !carried[ir.CallRef{Func: s.f.ID, Call: s.c.ID}] || s.confirmed {
				kept = append(kept, s)
			}
		}
		if len(r.cands[l]) > 0 && len(kept) == 0 {
			if dropped == nil {
				dropped = map[*Loop]bool{}
			}
			dropped[l] = true
		}
		r.cands[l] = kept
	}
	if dropped != nil {
		order := r.order[:0]
		for _, l := range r.order {
			if !dropped[l] {
				order = append(order, l)
			}
		}
		r.order = order
	}
	// A call whose result only prepares another candidate's input (a prepareStep hook whose
	// messages the step's model call receives) is not a model call of its own.
	for _, l := range r.order {
		into := func(s *site, t *site) bool {
			if s.c.Flow == nil {
				return false
			}
			for _, ref := range s.c.Flow.Into {
				if ref == (ir.CallRef{Func: t.f.ID, Call: t.c.ID}) {
					return true
				}
			}
			return false
		}
		drop := map[*site]bool{}
		for _, s := range r.cands[l] {
			for _, t := range r.cands[l] {
				if s != t && !s.confirmed && t.score >= s.score && into(s, t) && !into(t, s) {
					drop[s] = true
				}
				if s != t && !s.confirmed && r.inToolsOf(s, t) && !r.inToolsOf(t, s) {
					// s is made in the helper t hands the reply to, to run its tools: a step
					// of running them (a filter of the calls the reply asks for), no decision
					// of its own (swarms==16.0.3 tool_manager.py:515 _run_tool_search_calls in
					// handle_tool_calls, which agent.py:1201 hands call_llm's reply)
					drop[s] = true
				}
			}
		}
		if len(drop) > 0 {
			kept := r.cands[l][:0]
			for _, s := range r.cands[l] {
				if !drop[s] {
					kept = append(kept, s)
				}
			}
			r.cands[l] = kept
		}
	}
	// Rank: a loop's model calls are its best-scoring candidates (ties kept). The candidates
	// of each implementation the loop's dynamic call may run (a step interface with a
	// provider per implementation) are ranked apart: one of them runs per step.
	for _, l := range r.order {
		groups := map[routeKey][]*site{}
		var keys []routeKey
		for _, s := range r.cands[l] {
			k := r.route(l, s)
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], s)
		}
		var kept []*site
		for _, k := range keys {
			kept = append(kept, rank(groups[k])...)
		}
		for _, s := range kept {
			if !s.confirmed && wrapped(s, kept) {
				continue // its result is handed back up through another kept call: that one is the site
			}
			r.addModel(l, s)
		}
	}
	res := &Result{Loops: r.order}
	for _, l := range r.order {
		r.cancelAfterStep(l)
		r.profileTools(l)
		r.finalBound(l)
		finishLoop(l)
	}
	res.Entries = r.entries()
	return res
}

func (r *rec) rel(p ir.Pos) string {
	f := p.File
	if r.o.Rel != nil {
		f = r.o.Rel(f)
	}
	return f + ":" + strconv.Itoa(p.Line)
}

func pos(p ir.Pos) model.Position { return model.Position{File: p.File, Line: p.Line} }

// site is a scored model-call candidate.
type site struct {
	f        *ir.Func
	c        *ir.Call
	score    float64
	evidence []string
	prov     model.Provenance
	tools    []ir.CallRef
	// launched are the tools the trace reached through a per-element concurrent launch
	launched map[ir.CallRef]bool
	// strong are the tools of dispatches that select by name (not an element handed over)
	strong []ir.CallRef
	// selects: a dispatch looks a callable up by the element's name (a map lookup, a
	// comparison of names) and runs it
	selects bool
	// the parts of the shape seen
	confirmed, leaves, dispatch, feeds, sdk bool
}

var toolFieldRe = regexp.MustCompile(`(?i)^(toolcalls|tool_calls|toolcall|tooluse|tool_use|functioncall|functioncalls|function_call|toolrequests|content)`)

func (s *site) accepted() bool {
	if s.confirmed {
		return true
	}
	return s.score >= Threshold && s.leaves && s.dispatch
}

// score rates a call's result flow against the agent shape.
func (r *rec) score(f *ir.Func, c *ir.Call) *site {
	s := &site{f: f, c: c}
	seenKey := map[string]bool{}
	for _, k := range append(append([]string{}, c.Keys...), c.Abstract) {
		if k == "" || r.o.Table == nil || seenKey[k] {
			continue
		}
		seenKey[k] = true
		if rule, ok := r.o.Table.Vetoed(k, roles.ModelCall); ok {
			s.evidence = append(s.evidence, "vetoed: "+rule)
			s.score = -100
			return s
		}
		for _, b := range r.o.Table.Lookup(k) {
			if b.Role == roles.ModelCall && !s.confirmed {
				s.score += 10
				s.confirmed = true
				s.prov = b.Provenance
				s.evidence = append(s.evidence, "confirmed: "+b.Provenance.Rule)
			}
		}
	}
	fl := c.Flow
	if fl == nil && s.score <= 0 {
		return s
	}
	if c.Accessor && !s.confirmed {
		// n.Child("body"), strip(n), pair.Next(): a part of what the loop or recursion walks,
		// no new information; the walk's end is the structure's end, not a final answer
		s.evidence = append(s.evidence, "reads a part of its operand (a child accessor): no model call")
		return s
	}
	if !s.confirmed && r.builds(c) {
		// NewReferenceLoader(src), parseArgs(args), SortKeys(keys): the result is built in
		// memory from the operands; nothing a model decides enters through it
		s.evidence = append(s.evidence, "builds its result in memory from its operands (a constructor, parser or loader): no model call")
		return s
	}
	if fl != nil {
		var leaving *ir.Check
		for i, ch := range fl.Checked {
			if ch.Indirect && !r.near(f, c, ch.Func) && !r.callsUp(f, ch.Func, 2) && !r.handsTo(f, ch.Func) {
				// tested only after passing through other calls, in a function that neither
				// holds the call, nor is its callee or a caller it returns to: that test
				// decides for some other call
				continue
			}
			if ch.Leaves && (leaving == nil || !ch.Indirect && leaving.Indirect) {
				leaving = &fl.Checked[i]
			}
		}
		for _, ch := range fl.Checked {
			if leaving != nil && ch.Pos == leaving.Pos && ch.Text == leaving.Text {
				s.score += 2
				if ch.Func != f.ID && ch.Func != f.Parent && !ch.State {
					// a helper's early return: weaker than leaving the loop itself (a test
					// of the state the step wrote is the test of the loop that repeats it)
					s.score--
				}
				if ch.Indirect && !(ch.Func == f.ID && (fl.Delivery == "iterator" || fl.Delivery == "channel")) {
					// reached through what another call returns (not the items of the call's
					// own stream tested where the call is made: for m := range
					// p.NewStreaming(…) { final = m }; if final.Role == …, which is as direct
					// as final, err = p.Generate(…) in the other branch)
					s.score -= 0.5
				}
				s.leaves = true
				if ch.State {
					s.evidence = append(s.evidence, fmt.Sprintf("the loop repeating the step tests the state the step wrote (%s), leaves: %s", ch.Text, r.rel(ch.Pos)))
				} else {
					s.evidence = append(s.evidence, fmt.Sprintf("result tested (%s), leaves when nothing is pending: %s", ch.Text, r.rel(ch.Pos)))
				}
				break
			}
		}
		if len(fl.Checked) > 0 && s.score < 2 {
			s.score++
			s.evidence = append(s.evidence, fmt.Sprintf("result tested: %s", r.rel(fl.Checked[0].Pos)))
		}
		if len(fl.Iterated) > 0 {
			s.score++
			s.evidence = append(s.evidence, "a collection of the result is iterated: "+r.rel(fl.Iterated[0]))
		}
		best := 0.0
		var how string
		var at ir.Pos
		self := ir.CallRef{Func: f.ID, Call: c.ID}
		for _, d := range fl.Dispatch {
			// the call itself run as the callable its elements select (a visitor chosen by the
			// kind of each node it returned, whose result is queued for the next round): a
			// walk choosing its next step, not a model choosing tools
			var calls []ir.CallRef
			for _, ref := range d.Calls {
				if ref != self {
					calls = append(calls, ref)
				}
			}
			d.Calls = calls
			w := map[string]float64{"map_lookup": 3, "name_compare": 3, "name_arg": 2, "name_switch": 1, "element_arg": 1}[d.How]
			if d.How == "name_switch" && fl.FeedsNext && r.near(f, c, d.Func) && (r.inIteration(fl, d) || fl.Parsed) {
				// switch call.Name { case "search": … } whose results go back to the model (or
				// the verb of the one action parsed from the reply's text: switch act.Verb); a
				// switch on a name deep in some helper is how every tree walker dispatches on
				// node kinds, not a tool dispatch
				w = 2
			} else if ref, ok := r.calledInIteration(f, fl, d.Func); ok && d.How == "name_switch" && fl.FeedsNext && len(d.Calls) > 0 {
				// the helper the iteration over the calls hands each call to, switching on its
				// name (for _, tc := range msg.ToolCalls { out, err = a.executeToolCall(tc) }):
				// that helper is the tool executor, its call the tool call site
				w = 2
				d.Calls = []ir.CallRef{ref}
			}
			if d.How == "text_arg" && d.Feeds && len(d.Calls) > 0 && r.near(f, c, d.Func) {
				// newResults, err := search(strings.Trim(reply, "\"")) added to the next
				// prompt: the reply's text is the next tool's input, its result the next input
				// of the model (a model with no tool-call API)
				w = 2
			}
			executor := false
			if d.How == "element_arg" && d.Feeds && len(d.Calls) > 0 && (r.inIteration(fl, d) || iteratedAt(fl, d.Pos)) {
				// outputs = [self.env.execute(a) for a in reply["actions"]] fed to the next
				// decision: one executor runs every action the result carries, no lookup by
				// name (the back edge of the loop's data flow goes through it)
				w, executor = 2, true
			}
			if d.How == "collection_arg" && fl.FeedsNext && len(d.Calls) > 0 {
				// parts = await callableTool.callTool(response.functionCalls) fed to the next
				// request: the whole list of calls the reply asks for handed to one runner
				w, executor = 2, true
			}
			if len(d.Calls) == 0 {
				w = 0 // a name compared or looked up without a callable run: a filter
				if d.How == "map_lookup" {
					w = 1
				}
			}
			if w > best || w == best && executor {
				best, how, at = w, d.How, d.Pos
				if executor {
					how = "executor"
				}
			}
			s.tools = append(s.tools, d.Calls...)
			for _, ref := range d.Launched {
				if s.launched == nil {
					s.launched = map[ir.CallRef]bool{}
				}
				s.launched[ref] = true
			}
			if w >= 2 {
				s.strong = append(s.strong, d.Calls...)
			}
			if w >= 3 && len(d.Calls) > 0 {
				s.selects = true
			}
		}
		if len(s.tools) == 0 && best > 1 {
			best = 1
		}
		if best > 0 {
			s.score += best
			s.dispatch = best >= 2
			if how == "executor" {
				s.evidence = append(s.evidence, "each element handed to one executor whose result feeds the next call: "+r.rel(at))
			} else if how == "text_arg" {
				s.evidence = append(s.evidence, "the reply's text is the input of a tool whose result feeds the next call: "+r.rel(at))
			} else {
				s.evidence = append(s.evidence, fmt.Sprintf("each element dispatched by name (%s): %s", strings.ReplaceAll(how, "_", " "), r.rel(at)))
			}
		}
		if fl.FeedsNext {
			s.score += 2
			s.feeds = true
			s.evidence = append(s.evidence, "tool results feed the next call: "+r.rel(fl.FeedPos))
		}
		if fl.ToolsPassed {
			s.score++
			s.evidence = append(s.evidence, "receives the collection its dispatched tools come from")
		}
		switch fl.Delivery {
		case "channel", "iterator":
			s.evidence = append(s.evidence, "result delivered over "+map[string]string{"channel": "a channel", "iterator": "an iterator"}[fl.Delivery])
		}
		read := ""
		for _, fd := range fl.Fields {
			if toolFieldRe.MatchString(fd) && !strings.EqualFold(fd, "content") {
				// the field named as a whole (ToolCalls) before one it prefixes (ToolCallID)
				if m := toolFieldRe.FindString(fd); read == "" || len(m) == len(fd) && len(toolFieldRe.FindString(read)) != len(read) {
					read = fd
				}
			}
		}
		if read != "" {
			s.score += 0.5
			s.evidence = append(s.evidence, "reads "+read)
		}
	}
	if c.Provider != "" {
		s.score += 2
		s.sdk = true
		s.evidence = append(s.evidence, "known provider SDK method: "+c.Provider)
	}
	if !s.confirmed && len(s.tools) > 0 && (fl == nil || !fl.Kept) && r.runsItsTools(c, s.tools) {
		// the call's own body runs the tools it is handed: a tool executor, not the decision
		s.score -= 4
		s.evidence = append(s.evidence, "its own body runs the dispatched tools (a tool executor)")
		s.dispatch, s.feeds = false, false
	}
	if s.prov.Confidence == "" {
		s.prov = model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: the result drives the tool-call decision"}
	}
	return s
}

// rank returns the best-scoring candidates (ties kept; those with tools before those
// without) and every candidate a profile confirms (a polymorphic step with one provider call
// per subclass).
func rank(cands []*site) []*site {
	best, withTools := 0.0, false
	for _, s := range cands {
		withTools = withTools || len(s.tools) > 0
	}
	for _, s := range cands {
		if s.score > best && (len(s.tools) > 0 || !withTools) {
			best = s.score
		}
	}
	var kept []*site
	for _, s := range cands {
		if s.confirmed || s.score >= best-0.25 && (len(s.tools) > 0 || !withTools) {
			kept = append(kept, s)
		}
	}
	return kept
}

// routeKey is a dynamic call of a loop's function and one implementation it may run.
type routeKey struct {
	call ir.CallRef
	impl int
}

// route returns, for a candidate of loop l that is a whole step (it leaves, dispatches and is
// fed back) reached from the loop's function through a call (in the loop) of an interface or
// abstract method that may run several implementations, that call and the implementation it
// goes through, found by walking up callers and closures' parents, at most six steps; or
// reached through one of the calls a helper on the way returns the result of one per arm of
// an if (armCall), that call; the zero key for every other candidate.
func (r *rec) route(l *Loop, s *site) routeKey {
	none := routeKey{call: ir.CallRef{Func: -1, Call: -1}, impl: -1}
	h := l.Func
	if s.f.ID == h.ID || r.within(s.f, h) || !(s.leaves && s.dispatch && s.feeds) {
		return none // (only a whole step of its own: it decides, dispatches and is fed back)
	}
	type item struct{ g, d int }
	seen := map[int]bool{s.f.ID: true}
	queue := []item{{s.f.ID, 0}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.d > 6 {
			continue
		}
		g := r.p.Funcs[it.g]
		for _, ref := range r.callers[g.ID] {
			if r.armCall(ref) {
				// a helper returning the result of one of several calls, one per arm of an
				// if (if mode == WAIT: out = worker.run_step(…) elif mode == STREAM: out =
				// worker.stream_step(…); return out): one way of the step per arm, one runs
				return routeKey{call: ref, impl: g.ID}
			}
			if ref.Func == h.ID || r.within(r.p.Funcs[ref.Func], h) {
				c := &r.p.Funcs[ref.Func].Calls[ref.Call]
				inLoop := ref.Func != h.ID || l.LoopID < 0 || contains(c.Loops, l.LoopID)
				if len(c.Targets) > 1 && c.Abstract != "" && inLoop {
					return routeKey{call: ref, impl: g.ID}
				}
				continue
			}
			if !seen[ref.Func] {
				seen[ref.Func] = true
				queue = append(queue, item{ref.Func, it.d + 1})
			}
		}
		if g.Parent >= 0 && !seen[g.Parent] {
			seen[g.Parent] = true
			queue = append(queue, item{g.Parent, it.d + 1})
		}
	}
	return none
}

// armCall reports whether call ref is one of the calls (at least two) whose results a return
// of its function hands back one per path (ir.Value.Alts).
func (r *rec) armCall(ref ir.CallRef) bool {
	for _, ret := range r.p.Funcs[ref.Func].Returns {
		if len(ret.Values) > 0 && len(ret.Values[0].Alts) > 1 && slices.Contains(ret.Values[0].Alts, ref.Call) {
			return true
		}
	}
	return false
}

// wrapped reports whether the result of site s is handed back up through another of the sites:
// the call of the helper or interface method that returned it, which the loop makes.
func wrapped(s *site, sites []*site) bool {
	if s.c.Flow == nil {
		return false
	}
	for _, o := range sites {
		if o != s && hasRef(s.c.Flow.Through, ir.CallRef{Func: o.f.ID, Call: o.c.ID}) {
			return true
		}
	}
	return false
}

func hasRef(refs []ir.CallRef, ref ir.CallRef) bool {
	for _, x := range refs {
		if x == ref {
			return true
		}
	}
	return false
}

// builds reports whether a call only builds its result in memory from its operands: it takes no
// cancellation carrier, waits for no user, starts nothing concurrent, delivers no stream, and
// every callee is either from the front-end's table of in-memory libraries (ir.Call.InMemory)
// or a function of the program whose own calls are all so, a few calls deep (a constructor
// returning a struct of its arguments, a parser, a loader that only records where to load
// from). Such a call is never a model call, and a recursion through it is no turn recursion.
func (r *rec) builds(c *ir.Call) bool {
	if c.PassesContext || c.Input || c.Concurrent != "" || !c.InMemory {
		return false
	}
	for _, t := range c.Targets {
		if !r.inMemoryFunc(t, 0) {
			return false
		}
	}
	for _, a := range c.ArgFuncs {
		if !r.inMemoryFunc(a, 0) {
			return false
		}
	}
	return true
}

// maxInMemoryDepth is how many calls deep builds follows the program's functions; a function
// it cannot decide within it is taken to reach outside.
const maxInMemoryDepth = 12

// inMemoryFunc reports whether every call of Func id (and of the closures it runs) builds in
// memory, the function takes no cancellation carrier and delivers no stream.
func (r *rec) inMemoryFunc(id, depth int) bool {
	if r.inMem == nil {
		r.inMem = map[int]int{}
	}
	switch r.inMem[id] {
	case 1, 2:
		return true
	case 3:
		return false
	}
	if depth > maxInMemoryDepth {
		return false // undecided: not memoized, a shallower path may decide it
	}
	g := r.p.Funcs[id]
	ok := true
	for _, prm := range g.Params {
		ok = ok && prm.Kind != "context"
	}
	for _, k := range g.Results {
		ok = ok && k != "chan" && k != "iterator" && k != "stream"
	}
	r.inMem[id] = 1
	for i := 0; ok && i < len(g.Calls); i++ {
		d := &g.Calls[i]
		if d.PassesContext || d.Input || d.Concurrent != "" || !d.InMemory {
			ok = false
			break
		}
		for _, t := range append(append([]int{}, d.Targets...), d.ArgFuncs...) {
			if t != id && !r.inMemoryFunc(t, depth+1) {
				ok = false
				break
			}
		}
	}
	if ok {
		r.inMem[id] = 2
	} else if depth <= maxInMemoryDepth {
		r.inMem[id] = 3
	}
	return ok
}

// callsParam reports whether one of the target functions runs one of its function
// parameters: calls it, or hands it on to another call (AsyncLocalStorage.run(ctx, fn),
// startActiveSpan(name, fn)) that runs it in turn.
func (r *rec) callsParam(targets []int) bool {
	runs, _ := r.paramRun(targets)
	return runs
}

// paramRun reports whether one of the target functions runs one of its function parameters
// (callsParam), and whether every one that does runs it only later, in a callback it
// launches and does not wait for (_run(fn) { setTimeout(() => { fn() }, 0) },
// threading.Thread(target=lambda: fn()).start()): the call hands back before what it was
// handed runs.
func (r *rec) paramRun(targets []int) (runs, later bool) {
	later = true
	for _, t := range targets {
		g := r.p.Funcs[t]
		for _, prm := range g.Params {
			if prm.Name == "" || prm.Kind == "int" || prm.Kind == "string" || prm.Kind == "context" {
				continue
			}
			names := []string{prm.Name}
			if strings.HasPrefix(prm.Name, "{") {
				// a destructured options parameter ({ type, execute }): its bindings
				names = strings.FieldsFunc(prm.Name, func(r rune) bool {
					return !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r))
				})
			}
			if ok, l := r.callsName(g, names, 0); ok {
				runs, later = true, later && l
			}
		}
	}
	return runs, runs && later
}

// paramLater reports whether the targets run the function parameters they are handed only
// later, in callbacks they launch (paramRun).
func (r *rec) paramLater(targets []int) bool {
	_, later := r.paramRun(targets)
	return later
}

// callsName reports whether g, or a callback g hands to a call that does not rebind them,
// calls one of the names or hands one on to a call: a parameter the function runs later in a
// callback of its own (_run(fn) { Promise.resolve().then(async () => { await fn() }) }) is run
// all the same. later is true when it is run only in callbacks launched beside g (a task, a
// thread, a timer, a promise continuation: ir.Func.Launch "go").
func (r *rec) callsName(g *ir.Func, names []string, depth int) (runs, later bool) {
	for _, gc := range g.Calls {
		name, args, _ := strings.Cut(gc.Text, "(")
		for _, pn := range names {
			if name == pn || ir.IdentIn(args, pn) {
				return true, false
			}
		}
	}
	if depth >= 2 {
		return false, false
	}
	// (only a callback g hands to a call; a closure g calls itself, go func() { f() }(), is
	// already a call the walk follows; a callback handed to a launcher that runs it,
	// threading.Thread(target=run), executor.submit(run), is handed all the same)
	handed, called, launched := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for _, gc := range g.Calls {
		for _, a := range gc.ArgFuncs {
			handed[a] = true
			launched[a] = launched[a] || gc.Concurrent == "go"
		}
		for _, t := range gc.Targets {
			if !contains(gc.ArgFuncs, t) {
				called[t] = true
			}
		}
	}
	later = true
	for _, k := range r.closures[g.ID] {
		if !handed[k] || called[k] {
			continue
		}
		h := r.p.Funcs[k]
		free := []string{}
		for _, pn := range names {
			bound := false
			for _, prm := range h.Params {
				bound = bound || prm.Name == pn
			}
			if !bound {
				free = append(free, pn)
			}
		}
		if len(free) == 0 {
			continue
		}
		if ok, l := r.callsName(h, free, depth+1); ok {
			runs, later = true, later && (l || h.Launch == "go" || launched[k])
		}
	}
	return runs, runs && later
}

// near reports whether Func fn is where a candidate call c of f sits, f's enclosing function, or
// the function c calls.
func (r *rec) near(f *ir.Func, c *ir.Call, fn int) bool {
	if fn == f.ID || fn == f.Parent {
		return true
	}
	for _, t := range c.Targets {
		if t == fn {
			return true
		}
	}
	return false
}

// iteratedAt reports whether a collection of the result is iterated on the line of p (a
// comprehension over it: [execute(a) for a in reply.actions]).
func iteratedAt(fl *ir.Flow, p ir.Pos) bool {
	for _, it := range fl.Iterated {
		if it.File == p.File && it.Line == p.Line {
			return true
		}
	}
	return false
}

// inIteration reports whether dispatch d sits in a loop that iterates a collection derived
// from the result (switch call.Name inside for _, call := range resp.ToolCalls): a switch on
// the name of the result itself (obj.Name() of a callee a tree walker resolves) selects
// nothing from what the model asked for.
func (r *rec) inIteration(fl *ir.Flow, d ir.Dispatch) bool {
	if d.Func < 0 || d.Func >= len(r.p.Funcs) {
		return false
	}
	for _, l := range r.p.Funcs[d.Func].Loops {
		if l.Pos.File != d.Pos.File || d.Pos.Line < l.Pos.Line || (l.End.IsValid() && d.Pos.Line >= l.End.Line) {
			continue
		}
		for _, it := range fl.Iterated {
			if it == l.Pos {
				return true
			}
		}
	}
	return false
}

// calledInIteration returns the call by which f (or a closure of f) runs Func fn, a static
// call inside a loop of its own that iterates a collection derived from the result (for _, tc
// := range msg.ToolCalls { out, err = a.executeToolCall(tc) }): fn is handed the elements one
// by one, so a switch on a name in its body selects what the result asked for.
func (r *rec) calledInIteration(f *ir.Func, fl *ir.Flow, fn int) (ir.CallRef, bool) {
	if fn < 0 || fn == f.ID || fn == f.Parent {
		return ir.CallRef{}, false
	}
	for _, ref := range r.callers[fn] {
		g := r.p.Funcs[ref.Func]
		if g.ID != f.ID && g.Parent != f.ID {
			continue
		}
		c := &g.Calls[ref.Call]
		if len(c.Targets) != 1 || c.Concurrent != "" && g.ID == f.ID {
			continue
		}
		for _, li := range c.Loops {
			if li < 0 || li >= len(g.Loops) {
				continue
			}
			for _, it := range fl.Iterated {
				if it == g.Loops[li].Pos {
					return ref, true
				}
			}
		}
	}
	return ir.CallRef{}, false
}

// handsTo reports whether f (or a closure of f) calls Func g directly: a helper the holder
// hands what the call delivered (processEvent(&msg, ev) for each event of a stream) tests it
// for the holder.
func (r *rec) handsTo(f *ir.Func, g int) bool {
	for _, ref := range r.callers[g] {
		if ref.Func == f.ID || r.p.Funcs[ref.Func].Parent == f.ID {
			return true
		}
	}
	return false
}

// callsUp reports whether Func g calls f directly or through up to depth-1 other functions
// (the result of a call in f can travel back to g through returns).
func (r *rec) callsUp(f *ir.Func, g, depth int) bool {
	if depth == 0 {
		return false
	}
	for _, ref := range r.callers[f.ID] {
		if ref.Func == g || ref.Func != f.ID && r.callsUp(r.p.Funcs[ref.Func], g, depth-1) {
			return true
		}
	}
	return false
}

// runsItsTools reports whether every tool call of a site is in code its callees run.
func (r *rec) runsItsTools(c *ir.Call, tools []ir.CallRef) bool {
	if len(c.Targets) == 0 {
		return false
	}
	inside := map[int]bool{}
	queue := append(append([]int{}, c.Targets...), c.ArgFuncs...)
	for _, t := range queue {
		inside[t] = true
	}
	for i := 0; i < len(queue) && i < 400; i++ {
		g := r.p.Funcs[queue[i]]
		for _, gc := range g.Calls {
			targets := gc.Targets
			if len(targets) > 4 || callsOwnParam(g, &gc) {
				// (a wrapper's call of the callback it is handed runs, here, only the
				// callbacks handed to it on the way in, already queued from their call's
				// ArgFuncs: not every callback handed to it anywhere, such as the tool
				// runner's body handed to the same span helper)
				targets = nil
			}
			for _, t := range append(append([]int{}, targets...), gc.ArgFuncs...) {
				if !inside[t] {
					inside[t] = true
					queue = append(queue, t)
				}
			}
		}
		for _, k := range r.closures[g.ID] {
			if !inside[k] {
				inside[k] = true
				queue = append(queue, k)
			}
		}
	}
	for _, t := range tools {
		if !inside[t.Func] {
			return false
		}
	}
	return true
}

// decision considers a call as the model call of a turn loop.
func (r *rec) decision(f *ir.Func, c *ir.Call) {
	s := r.score(f, c)
	if !s.accepted() && !s.confirmed && s.c.Flow != nil {
		if ch := r.drainedStep(f); ch != nil {
			if !s.dispatch {
				r.lookupDispatch(s, false)
			}
			if s.dispatch {
				// (the step's events tested by the loop that repeats it: more than a helper's
				// early return the flow may have seen on the way)
				s.score += 2
				s.leaves = true
				s.evidence = append(s.evidence, fmt.Sprintf("a step generator: the loop draining its events tests them (%s), leaves when nothing is pending: %s", ch.Text, r.rel(ch.Pos)))
			}
		}
	}
	if !s.accepted() && !s.confirmed && s.leaves && !s.dispatch && s.c.Flow != nil {
		// the reply handed to a manager whose helpers, many calls down, look each call's
		// function up by name and run it (swarms==16.0.3 agent.py:1201 tool_manager.
		// handle_tool_calls(response) → … → base_tool.py:1448 self.function_map[name])
		r.lookupDispatch(s, true)
	}
	if !s.accepted() {
		if !s.confirmed && s.leaves && s.dispatch && !s.feeds && s.score+2 >= Threshold && len(c.Loops) == 0 && f.Launch == "go" && f.Parent >= 0 {
			// a goroutine making one decision and running its tools once (a stream's run of
			// one step): no next call its tools' results could feed, so it is judged without
			// that evidence (go func() { tokenChan, err := a.llmProvider.Stream(ctx, prompt);
			// …; a.executeToolsAndStream(…) }() in RunStream, agenticgokit@v0.5.5
			// v1beta/agent_impl.go:854-1026; see stepEntries)
			r.steps = append(r.steps, s)
		}
		return
	}
	// The turn loop: the innermost enclosing loop that repeats decisions (not the drain of
	// this call's own stream, not a loop over a finite collection), in this function, the
	// parent a closure runs in, or a caller (a state machine's step function).
	// a profile's model call is the decision wherever its loop is: a caller's loop too
	// (a site that decides and dispatches, in a helper the loop calls: the executor's step
	// method plans, its caller's loop repeats it)
	inLoop := false
	defer func() {
		if !inLoop && s.leaves && s.dispatch {
			// one decision and one round of its tools, with no loop to repeat them (a
			// goroutine streaming one answer): a run of one step (see stepEntries)
			r.steps = append(r.steps, s)
		}
	}()
	for i, h := range r.turnLoops(f, c, s.dispatch && s.feeds || s.confirmed, s.leaves && s.dispatch) {
		if _, vetoed := r.loopVetoed(h.f); vetoed && !s.confirmed {
			continue // a profile says the function holds no turn loop
		}
		if h.loop >= 0 && r.waitsForUser(h.f, h.loop) && !s.confirmed {
			// each iteration waits for a line the user types: a session of user turns the user
			// ends (EOF, quit), not a turn loop the model can keep going
			continue
		}
		if h.loop < 0 && !r.recursiveAvoiding(h.f, s) {
			// the function runs again only through the tools it dispatches: each tool starts a
			// child run (a tree of runs as deep as the tools nest), not the next step of this one
			continue
		}
		key := fmt.Sprintf("%d:%d", h.f.ID, h.loop)
		l := r.loops[key]
		if l == nil {
			l = r.newLoop(h.f, h.loop)
			r.loops[key] = l
			r.order = append(r.order, l)
		}
		r.cands[l] = append(r.cands[l], s)
		inLoop = true
		if i > 0 {
			if r.extra[l] == nil {
				r.extra[l] = map[*site]bool{}
			}
			r.extra[l][s] = true
		}
	}
}

// drainedStep returns the leaving test of the loop that drains the step f is part of: f is a
// generator (the step, one model call and its tools, yielding events), drained — itself, or
// through generators that relay its events, up to three callers away — by a call in a
// repeating loop whose exit test reads the drained events (while True: async for ev in
// self._step(ctx): last = ev; yield ev; if last.is_final(): break). That test is the
// decision's "nothing is pending" for a site of the step that dispatches the tools; the drain
// loop is no turn loop of its own, the loop around it is (turnLoop climbs to it). Nil when
// there is none.
func (r *rec) drainedStep(f *ir.Func) *ir.Check {
	gen := func(g *ir.Func) bool {
		return len(g.Results) > 0 && (g.Results[0] == "iterator" || g.Results[0] == "stream")
	}
	var walk func(g *ir.Func, depth int, seen map[int]bool) *ir.Check
	walk = func(g *ir.Func, depth int, seen map[int]bool) *ir.Check {
		if depth > 3 || seen[g.ID] || !gen(g) || len(r.callers[g.ID]) > 4 {
			return nil
		}
		seen[g.ID] = true
		for _, ref := range r.callers[g.ID] {
			h := r.p.Funcs[ref.Func]
			d := &h.Calls[ref.Call]
			if d.Flow != nil && d.Flow.Delivery == "iterator" {
				for i, ch := range d.Flow.Checked {
					if !ch.Leaves || ch.Indirect || ch.Func != h.ID {
						continue
					}
					for _, li := range d.Loops {
						if l := h.Loops[li]; repeats(l.Kind) && l.OverCall != d.ID && !l.Retry {
							return &d.Flow.Checked[i]
						}
					}
				}
			}
			if ch := walk(h, depth+1, seen); ch != nil {
				return ch
			}
		}
		return nil
	}
	g := f
	for g.Parent >= 0 && !gen(g) {
		g = r.p.Funcs[g.Parent]
	}
	return walk(g, 0, map[int]bool{})
}

// maxLookupDepth is how many calls deep lookupDispatch follows a step's helpers.
const maxLookupDepth = 12

// lookupDispatch makes site s (of a step generator, or with runs, any site that leaves but
// dispatches weakly, when the function found also runs the callable it selects) dispatch when an element of its result is
// handed to a helper of the program that reaches, through the call graph, a function that
// looks a value up by the name of one of its parameters (ir.Func.Lookups: tools_dict[
// function_call.name]): the reply's calls handed down a chain of helpers too long for the
// data flow to follow, to where the tool each names is selected. The helper call is the tool
// call site; the tools run in parallel when a concurrent launch is on the way.
func (r *rec) lookupDispatch(s *site, runs bool) {
	type item struct {
		fn, depth int
		conc      bool
	}
	for _, d := range s.c.Flow.Dispatch {
		if d.How != "element_arg" && d.How != "name_arg" {
			continue
		}
		for _, ref := range d.Calls {
			c := &r.p.Funcs[ref.Func].Calls[ref.Call]
			var queue []item
			for _, t := range c.Targets {
				queue = append(queue, item{t, 0, c.Concurrent != ""})
			}
			// (a function is visited once sequentially and once through a concurrent launch;
			// of the lookups found at the least depth, one reached through a launch is
			// preferred: the parallel executor beside the sequential one, swarms==16.0.3
			// base_tool.py:1016-1020)
			seen := map[item]bool{}
			var found *item
			var at ir.Pos
			for len(queue) > 0 && (found == nil || !found.conc) {
				it := queue[0]
				queue = queue[1:]
				if found != nil && it.depth > found.depth {
					break
				}
				if seen[item{it.fn, 0, it.conc}] || it.depth > maxLookupDepth {
					continue
				}
				seen[item{it.fn, 0, it.conc}] = true
				g := r.p.Funcs[it.fn]
				if len(g.Lookups) > 0 && (g.RunsLookup || !runs) {
					if found == nil || it.conc && !found.conc {
						found, at = &it, g.Lookups[0]
					}
					continue
				}
				// (what was visited already, or lies deeper than the walk goes, is not queued:
				// it would be skipped when taken, and the queue is in order of depth)
				push := func(fn int, conc bool) {
					if it.depth+1 <= maxLookupDepth && !seen[item{fn, 0, conc}] {
						queue = append(queue, item{fn, it.depth + 1, conc})
					}
				}
				for i := range g.Calls {
					e := &g.Calls[i]
					conc := it.conc || e.Concurrent != ""
					for _, t := range e.Targets {
						push(t, conc)
					}
					for _, t := range e.ArgFuncs {
						push(t, conc)
					}
				}
				for _, k := range r.closures[it.fn] {
					push(k, it.conc)
				}
			}
			if found == nil {
				continue
			}
			if !s.dispatch {
				s.dispatch, s.selects = true, true
				s.score += 2
				s.evidence = append(s.evidence, fmt.Sprintf("an element handed to a helper that looks a callable up by its name %d calls down: %s", found.depth+1, r.rel(at)))
			}
			s.strong = append(s.strong, ref)
			if found.conc {
				if s.launched == nil {
					s.launched = map[ir.CallRef]bool{}
				}
				s.launched[ref] = true
			}
		}
	}
}

// waitsForUser reports whether every iteration of loop id of f waits for the user's input: a
// read of it on every iteration's path of that loop (or its condition: for sc.Scan()), itself
// or in a helper one or two calls away (line, ok := prompt(in, "> ")).
func (r *rec) waitsForUser(f *ir.Func, id int) bool {
	for i := range f.Calls {
		c := &f.Calls[i]
		if len(c.Loops) > 0 && c.Loops[0] == id && c.Dominates && r.readsInput(c, 0) {
			return true
		}
	}
	return false
}

// readsInput reports whether a call waits for the user's line (ir.Call.Input), or runs a
// function of the program that does, up to two calls deep.
func (r *rec) readsInput(c *ir.Call, depth int) bool {
	if c.Input {
		return true
	}
	if depth >= 2 || c.Concurrent != "" || len(c.Targets) == 0 {
		return false
	}
	for _, t := range c.Targets {
		g := r.p.Funcs[t]
		found := false
		for i := range g.Calls {
			if d := &g.Calls[i]; len(d.Loops) == 0 && r.readsInput(d, depth+1) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// UserSession reports whether the loop at file:line of p waits for the user's input on every
// iteration (directly or in a helper one or two calls away): a session of user turns the user
// ends, not a turn loop, whatever the turn each input runs.
func UserSession(p *ir.Program, file string, line int) bool {
	r := &rec{p: p}
	for _, f := range p.Funcs {
		for _, l := range f.Loops {
			if l.Pos.File == file && l.Pos.Line == line && r.waitsForUser(f, l.ID) {
				return true
			}
		}
	}
	return false
}

// loopVetoed returns the profile rule saying that f (or, for a closure, the function it is
// written in) holds no turn loop: a "not" engine_loop rule.
func (r *rec) loopVetoed(f *ir.Func) (string, bool) {
	for g := f; g != nil && r.o.Table != nil; {
		if g.Key != "" {
			return r.o.Table.Vetoed(g.Key, roles.EngineLoop)
		}
		if g.Parent < 0 {
			break
		}
		g = r.p.Funcs[g.Parent]
	}
	return "", false
}

// holder is a loop (or, with loop -1, a recursion) of a function.
type holder struct {
	f    *ir.Func
	loop int
}

// turnLoops returns the loops that repeat the decision of call c in f: the one turnLoop finds,
// and when that is a caller's, every caller's (a step function driven by RunToCompletion and
// by an iterator's loop alike).
func (r *rec) turnLoops(f *ir.Func, c *ir.Call, strong, climb bool) []holder {
	h, l := r.turnLoop(f, c, 0, map[int]bool{}, strong, climb)
	if h == nil {
		return nil
	}
	out := []holder{{h, l}}
	if h.ID == f.ID || h.ID == f.Parent || !strong && !climb {
		return out
	}
	// the step function was reached through callers: collect the other callers' loops
	var walk func(g *ir.Func, d int, vis map[int]bool)
	walk = func(g *ir.Func, d int, vis map[int]bool) {
		if d > 3 || vis[g.ID] || len(r.callers[g.ID]) > 4 {
			return
		}
		vis[g.ID] = true
		for _, ref := range r.callers[g.ID] {
			cf := r.p.Funcs[ref.Func]
			if hh, ll := r.turnLoop(cf, &cf.Calls[ref.Call], 3, map[int]bool{g.ID: true}, false, false); hh != nil {
				if r.within(hh, h) {
					// a loop of a callback inside the step the first holder repeats (a
					// stream's pull re-reading the model call it retries): part of that step
					continue
				}
				dup := false
				for _, x := range out {
					dup = dup || x.f.ID == hh.ID && x.loop == ll
				}
				if !dup {
					out = append(out, holder{hh, ll})
				}
			} else {
				walk(cf, d+1, vis)
			}
		}
	}
	walk(f, 0, map[int]bool{})
	return out
}

// within reports whether g is a closure nested (at any depth) in h.
func (r *rec) within(g, h *ir.Func) bool {
	for x := g; x.Parent >= 0; {
		x = r.p.Funcs[x.Parent]
		if x.ID == h.ID {
			return true
		}
	}
	return false
}

func repeats(k ir.LoopKind) bool { return k == ir.LoopFor || k == ir.LoopRangeInt }

// turnLoop finds the loop that repeats the decision of call c in f; strong (the site both
// dispatches and feeds back) allows a caller's loop (a state machine's step function).
func (r *rec) turnLoop(f *ir.Func, c *ir.Call, depth int, seen map[int]bool, strong, climb bool) (*ir.Func, int) {
	return r.turnLoopN(f, c, depth, 3, seen, strong, climb)
}

// engineDepth is how many calls above the call of a graph's node func (ir.Call.Node) the
// engine's superstep loop may sit: a vertex adapter, a retry wrapper, a worker pool's task, a
// superstep helper running the frontier, the iteration helper the loop calls.
const engineDepth = 10

// turnLoopN is turnLoop climbing at most limit calls.
func (r *rec) turnLoopN(f *ir.Func, c *ir.Call, depth, limit int, seen map[int]bool, strong, climb bool) (*ir.Func, int) {
	if depth > limit || seen[f.ID] {
		return nil, -1
	}
	seen[f.ID] = true
	var loops []int
	if c != nil {
		loops = c.Loops
	}
	for _, li := range loops {
		l := f.Loops[li]
		if c != nil && l.OverCall == c.ID || l.Retry {
			continue // the drain of the call's own stream; a retry around the call
		}
		if l.Kind == ir.LoopRangeList && !strong {
			// once per element of a finite collection, with nothing fed back into the next
			// call: the decision repeats per element (stored messages replayed, documents
			// summarized), and no loop around the range makes it a turn
			return nil, -1
		}
		if repeats(l.Kind) {
			return f, li
		}
	}
	if strong || climb {
		// a node func a graph engine runs (an agent node, a tools node): the loop is the
		// engine's, above the call of the node, not one of the function that built the node
		// and only stored it
		for _, ref := range r.callers[f.ID] {
			g := r.p.Funcs[ref.Func]
			if gc := &g.Calls[ref.Call]; gc.Node && len(r.callers[f.ID]) <= 4 {
				if h, l := r.turnLoopN(g, gc, 0, engineDepth, seen, strong, climb); h != nil {
					return h, l
				}
			}
			if gc := &g.Calls[ref.Call]; gc.RunsArgs && len(gc.Loops) > 0 {
				// a step of a workflow-DSL loop (wf.dowhile(step, cond)): the declaration's
				// loop repeats it, not a loop of the creator that built the step and only
				// returned it (srcir dslLoops)
				if h, l := r.turnLoopN(g, gc, depth+1, limit+1, seen, strong, climb); h != nil {
					return h, l
				}
			}
		}
	}
	if f.Parent >= 0 {
		p := r.p.Funcs[f.Parent]
		for _, li := range f.ParentLoops {
			if repeats(p.Loops[li].Kind) {
				return p, li
			}
		}
		if len(f.ParentLoops) == 0 {
			if h, l := r.turnLoopN(p, nil, depth+1, limit, seen, strong, climb); h != nil {
				return h, l
			}
		}
	}
	if (c != nil && len(loops) == 0 || c == nil) && strong {
		// a recursion repeats the decision only when the tool results reach the next call
		if r.recursive(f) {
			return f, -1
		}
	}
	// a helper called from a loop: the caller's loop
	if !strong && !climb || len(r.callers[f.ID]) > 4 {
		return nil, -1
	}
	// (a caller's call inside a loop first: a caller is visited once, and its call before the
	// loop, resuming what was pending, repeats nothing)
	refs := slices.Clone(r.callers[f.ID])
	sort.SliceStable(refs, func(i, j int) bool {
		return len(r.p.Funcs[refs[i].Func].Calls[refs[i].Call].Loops) > 0 && len(r.p.Funcs[refs[j].Func].Calls[refs[j].Call].Loops) == 0
	})
	for _, ref := range refs {
		g := r.p.Funcs[ref.Func]
		if h, l := r.turnLoopN(g, &g.Calls[ref.Call], depth+1, limit, seen, strong, climb); h != nil {
			return h, l
		}
	}
	return nil, -1
}

// recursive reports whether f may call itself again (directly or through up to two others),
// not counting calls that descend into a part of what they were handed (ir.Call.Descends).
func (r *rec) recursive(f *ir.Func) bool {
	var walk func(g *ir.Func, d int, seen map[int]bool) bool
	walk = func(g *ir.Func, d int, seen map[int]bool) bool {
		if d > 3 || seen[g.ID] {
			return false
		}
		seen[g.ID] = true
		for _, c := range g.Calls {
			if c.Descends {
				continue // down a part of what it was handed: a walk over a finite structure
			}
			for _, t := range r.runsOf(g, &c) {
				if t == f.ID {
					return true
				}
				if walk(r.p.Funcs[t], d+1, seen) {
					return true
				}
			}
		}
		return false
	}
	return walk(f, 0, map[int]bool{})
}

// runsOf lists the functions call c of g runs: its targets and the callbacks handed to it
// that it (or the code outside the set it calls) runs — a step that starts the next one from
// its stream's flush (new TransformStream({ flush() { … step(…) } })), a .then callback.
func (r *rec) runsOf(g *ir.Func, c *ir.Call) []int {
	cb := r.argRuns[ir.CallRef{Func: g.ID, Call: c.ID}]
	if len(cb) == 0 {
		return c.Targets
	}
	return append(append([]int{}, c.Targets...), cb...)
}

// recursiveAvoiding reports whether f may call itself again (as recursive does) on a path
// that does not pass through the dispatch of site s: a call that receives a tool call's name
// or runs the callable it selects. A turn recursion calls itself after the tools ran, with
// their results; a recursion only through the dispatched tools is a tool running a child run
// (a tree of runs as deep as the tools nest), not the next step of this run.
func (r *rec) recursiveAvoiding(f *ir.Func, s *site) bool {
	skip := map[ir.CallRef]bool{}
	for _, t := range s.tools {
		skip[t] = true
	}
	if s.c.Flow != nil {
		for _, d := range s.c.Flow.Dispatch {
			if d.Func < 0 || d.Func >= len(r.p.Funcs) {
				continue
			}
			for _, dc := range r.p.Funcs[d.Func].Calls {
				if dc.Pos == d.Pos {
					skip[ir.CallRef{Func: d.Func, Call: dc.ID}] = true
				}
			}
		}
	}
	if len(skip) == 0 {
		return true
	}
	var walk func(g *ir.Func, d int, seen map[int]bool) bool
	walk = func(g *ir.Func, d int, seen map[int]bool) bool {
		if d > 3 || seen[g.ID] {
			return false
		}
		seen[g.ID] = true
		for _, c := range g.Calls {
			if skip[ir.CallRef{Func: g.ID, Call: c.ID}] || c.Descends {
				continue
			}
			for _, t := range r.runsOf(g, &c) {
				if t == f.ID || walk(r.p.Funcs[t], d+1, seen) {
					return true
				}
			}
		}
		return false
	}
	return walk(f, 0, map[int]bool{})
}

func (r *rec) newLoop(f *ir.Func, id int) *Loop {
	l := &Loop{Func: f, LoopID: id, atBound: -1}
	m := &l.Map
	if id < 0 {
		m.Kind, m.Pos, m.Source = model.LoopRecursion, pos(f.Pos), f.Source
	} else {
		lp := f.Loops[id]
		m.Kind, m.Pos, m.Source = model.LoopFor, pos(lp.Pos), lp.Source
	}
	m.Func = f.Short
	m.ModelCalls, m.ToolCalls = []model.CallSite{}, []model.CallSite{}
	r.bound(l)
	r.cancel(l)
	return l
}

func (r *rec) addModel(l *Loop, s *site) {
	c := s.c
	prov := model.Provenance{Confidence: s.prov.Confidence, Rule: s.prov.Rule, Evidence: s.evidence, Score: s.score}
	sites := []model.CallSite{{Pos: pos(c.Pos), Source: c.Source, Callee: calleeName(c), Via: r.via(c, 0), Provenance: prov}}
	if alts := r.alternatives(c); len(alts) > 1 {
		// a helper asking the model one of several ways (streamed or not, an opener on the
		// first step): each provider call it returns the result of is a model call of the step
		sites = sites[:0]
		for _, a := range alts {
			sites = append(sites, model.CallSite{Pos: pos(a.Pos), Source: a.Source, Callee: calleeName(a),
				Via: append([]string{calleeName(c)}, r.via(a, 1)...), Provenance: prov})
		}
	}
	cs := sites[0]
	for _, site := range sites {
		dup := false
		for _, x := range l.Map.ModelCalls {
			dup = dup || x.Pos == site.Pos
		}
		if !dup {
			l.Map.ModelCalls = append(l.Map.ModelCalls, site)
		}
	}
	if s.score > l.Map.Provenance.Score {
		ev := append([]string{fmt.Sprintf("iteration calls %s: %s", cs.Callee, r.rel(c.Pos))}, s.evidence...)
		l.Map.Provenance = model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: agent shape (decide, dispatch tools by name, feed results back)", Evidence: ev, Score: s.score}
		if s.prov.Confidence == model.ConfidenceProfile || s.prov.Confidence == model.ConfidenceDeclared {
			l.Map.Provenance.Confidence = s.prov.Confidence
		}
	}
	refs := s.tools
	if s.confirmed || s.selects {
		// a described framework: its tool sites come from a selection by name or its
		// profile's tool_call rules, not from every helper an element is handed to; so
		// for a site whose elements are selected by name: the helpers an element is
		// handed to elsewhere (a parser, a clone) run no tool
		refs = s.strong
	}
	for _, ref := range refs {
		g := r.p.Funcs[ref.Func]
		tc := &g.Calls[ref.Call]
		par := tc.Concurrent != "" || s.launched[ref] || r.launched(g, l.Func, l.LoopID)
		ts := model.CallSite{Pos: pos(tc.Pos), Source: tc.Source, Callee: calleeName(tc), Parallel: par,
			Provenance: model.Provenance{Confidence: model.ConfidenceInferred, Rule: "inferred: runs the callable a tool call's name selects", Score: s.score}}
		if rule, ok := r.vetoedTool(tc); ok {
			ts.Provenance.Evidence = append(ts.Provenance.Evidence, rule)
			continue
		}
		dup := false
		for i, x := range l.Map.ToolCalls {
			if x.Pos == ts.Pos {
				dup = true
				l.Map.ToolCalls[i].Parallel = x.Parallel || par
			}
		}
		if !dup {
			l.Map.ToolCalls = append(l.Map.ToolCalls, ts)
		}
		if par {
			l.Map.ParallelTools = true
		}
	}
}

// alternatives returns the calls whose results the one function call c runs hands back on
// different paths (return a.opener.Open(…) on the first step, else r, err = m.Stream(…) or
// r, err = m.Generate(…) merged into r): provider calls, each taking a context; none unless
// there are two or more.
func (r *rec) alternatives(c *ir.Call) []*ir.Call {
	if len(c.Targets) != 1 {
		return nil
	}
	g := r.p.Funcs[c.Targets[0]]
	var ids []int
	add := func(id int) {
		if id >= 0 && id < len(g.Calls) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, ret := range g.Returns {
		if len(ret.Values) == 0 || ret.Err != nil && ret.Err.Kind != ir.ValNil && ret.Err.Kind != ir.ValCall {
			continue // an error return hands back no answer
		}
		v := ret.Values[0]
		if v.Kind == ir.ValCall {
			add(v.Call)
		}
		for _, a := range v.Alts {
			add(a)
		}
	}
	if len(ids) < 2 {
		return nil
	}
	var out []*ir.Call
	for _, id := range ids {
		a := &g.Calls[id]
		if !a.PassesContext || a.InMemory || a.Accessor || a.Recursive {
			return nil // not every one asks a provider: a helper's plumbing, no alternatives
		}
		out = append(out, a)
	}
	return out
}

// engineLoops makes the engine loops profiles name: in a function an engine_call rule names
// as its loop (or an engine_loop rule binds), the loop around a call of the engine (a graph
// engine's superstep: while loop.tick(): runner.tick(tasks)) is the turn loop. The model and
// tool calls are the engine's node tasks that call dispatches: profile-bound model and tool
// sites it reaches, else the dispatch itself.
func (r *rec) engineLoops() {
	if r.o.Table == nil {
		return
	}
	for _, f := range r.p.Funcs {
		if f.Test || f.Key == "" {
			continue
		}
		holds := false
		var loopRule roles.Binding
		for _, b := range r.o.Table.Lookup(f.Key) {
			if b.Role == roles.EngineLoop {
				holds, loopRule = true, b
			}
		}
		if holds {
			// an engine_loop rule or directive: the function's outermost repeating loop
			for li := range f.Loops {
				if f.Loops[li].Outer >= 0 || !repeats(f.Loops[li].Kind) {
					continue
				}
				key := fmt.Sprintf("%d:%d", f.ID, li)
				l := r.loops[key]
				if l == nil {
					l = r.newLoop(f, li)
					r.loops[key] = l
					r.order = append(r.order, l)
				}
				l.Map.Kind, l.Map.Provenance = model.LoopEngine, loopRule.Provenance
				break
			}
		}
		for i := range f.Calls {
			c := &f.Calls[i]
			eb, ok := r.engineRule(c, f.Key)
			if !ok {
				continue
			}
			if loopRule.Role == "" {
				loopRule = eb
			}
			li := -1
			for _, x := range c.Loops {
				if f.Loops[x].OverCall != c.ID && repeats(f.Loops[x].Kind) {
					li = x
					break
				}
			}
			if li < 0 {
				continue
			}
			key := fmt.Sprintf("%d:%d", f.ID, li)
			l := r.loops[key]
			if l == nil {
				l = r.newLoop(f, li)
				r.loops[key] = l
				r.order = append(r.order, l)
			}
			l.Map.Kind = model.LoopEngine
			l.Map.Provenance = loopRule.Provenance
			l.Map.Provenance.Evidence = append(l.Map.Provenance.Evidence, fmt.Sprintf("iteration runs the engine: %s %s", calleeName(c), r.rel(c.Pos)))
			site := model.CallSite{Pos: pos(c.Pos), Source: c.Source, Callee: calleeName(c) + " (the engine's node tasks)", Parallel: eb.Rule.Parallel,
				Provenance: eb.Provenance}
			dup := false
			for _, x := range l.Map.ModelCalls {
				dup = dup || x.Pos == site.Pos
			}
			if !dup {
				l.Map.ModelCalls = append(l.Map.ModelCalls, site)
				l.Map.ToolCalls = append(l.Map.ToolCalls, site)
			}
			l.Map.ParallelTools = l.Map.ParallelTools || eb.Rule.Parallel
		}
	}
}

// engineRule returns the engine_call rule binding a call of a function whose key is holder
// (the rule's loop, or any when the rule names none).
func (r *rec) engineRule(c *ir.Call, holder string) (roles.Binding, bool) {
	for _, k := range append(append([]string{}, c.Keys...), c.Abstract) {
		for _, b := range r.o.Table.Lookup(k) {
			if b.Role == roles.EngineCall && (b.Rule.Loop == "" || b.Rule.Loop == holder) {
				return b, true
			}
		}
	}
	return roles.Binding{}, false
}

// profileTools adds the call sites a profile's tool_call rule binds that the loop's iteration
// reaches through the call graph (callees and the callbacks handed to calls: an executor's
// submit, a gather): parallel when the rule says so or a concurrent launch is on the way.
// reachesModel reports whether g (a closure launched concurrently) reaches a model call of
// loop l, through the call graph and the callbacks it hands on (14 calls deep): such a launch
// runs a whole step's work — a graph engine's goroutine per node of a superstep, running the
// model node and the tools node alike — not one tool call of a step, and what it runs stays
// sequential unless launched concurrently again.
func (r *rec) reachesModel(l *Loop, g *ir.Func) bool {
	at := map[model.Position]bool{}
	for _, m := range l.Map.ModelCalls {
		at[m.Pos] = true
	}
	if len(at) == 0 {
		return false
	}
	seen := map[int]bool{g.ID: true}
	queue := []int{g.ID}
	for d := 0; len(queue) > 0 && d <= 14; d++ {
		var next []int
		for _, id := range queue {
			for _, c := range r.p.Funcs[id].Calls {
				if at[pos(c.Pos)] {
					return true
				}
				if len(c.Targets) > 8 {
					continue
				}
				for _, t := range append(append([]int{}, c.Targets...), c.ArgFuncs...) {
					if !seen[t] && len(seen) < 3000 {
						seen[t] = true
						next = append(next, t)
					}
				}
			}
		}
		queue = next
	}
	return false
}

func (r *rec) profileTools(l *Loop) {
	if r.o.Table == nil {
		return
	}
	type item struct {
		f    int
		d    int
		conc bool
	}
	var queue []item
	// a function is visited once sequentially and once under a concurrent launch
	seen := map[int]bool{2 * l.Func.ID: true}
	visit := func(g *ir.Func, c *ir.Call, conc bool, d int) {
		if c.Concurrent != "" && !conc {
			conc = true
			for _, t := range append(append([]int{}, c.Targets...), c.ArgFuncs...) {
				if r.reachesModel(l, r.p.Funcs[t]) {
					conc = false // a goroutine per graph node: a step's work, not a tool call
				}
			}
		}
		if b, ok := r.toolRule(c); ok {
			if _, vetoed := r.vetoedTool(c); vetoed {
				return
			}
			par := conc || b.Rule.Parallel
			for i, x := range l.Map.ToolCalls {
				if x.Pos == pos(c.Pos) {
					l.Map.ToolCalls[i].Parallel = l.Map.ToolCalls[i].Parallel || par
					l.Map.ParallelTools = l.Map.ParallelTools || par
					return
				}
			}
			l.Map.ToolCalls = append(l.Map.ToolCalls, model.CallSite{Pos: pos(c.Pos), Source: c.Source, Callee: calleeName(c), Parallel: par,
				Provenance: b.Provenance})
			l.Map.ParallelTools = l.Map.ParallelTools || par
			return
		}
		if len(c.Targets) > 8 || d > 14 {
			return
		}
		for _, t := range append(append([]int{}, c.Targets...), c.ArgFuncs...) {
			tf := r.p.Funcs[t]
			cc := conc || (tf.Launch == "go" || tf.Launch == "errgroup" || tf.Launch == "all") && !r.reachesModel(l, tf)
			k := 2 * t
			if cc {
				k++
			}
			if !seen[k] && len(seen) < 3000 {
				seen[k] = true
				queue = append(queue, item{f: t, d: d + 1, conc: cc})
			}
		}
	}
	for i := range l.Func.Calls {
		c := &l.Func.Calls[i]
		if l.LoopID >= 0 && !contains(c.Loops, l.LoopID) {
			continue
		}
		visit(l.Func, c, false, 0)
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		g := r.p.Funcs[it.f]
		for i := range g.Calls {
			visit(g, &g.Calls[i], it.conc, it.d)
		}
	}
}

// toolRule returns the tool_call rule binding a call's callee, if any.
func (r *rec) toolRule(c *ir.Call) (roles.Binding, bool) {
	for _, k := range append(append([]string{}, c.Keys...), c.Abstract) {
		if k == "" {
			continue
		}
		for _, b := range r.o.Table.Lookup(k) {
			if b.Role == roles.ToolCall {
				return b, true
			}
		}
	}
	return roles.Binding{}, false
}

func (r *rec) vetoedTool(c *ir.Call) (string, bool) {
	if r.o.Table == nil {
		return "", false
	}
	for _, k := range append(append([]string{}, c.Keys...), c.Abstract) {
		if rule, ok := r.o.Table.Vetoed(k, roles.ToolCall); ok {
			return rule, true
		}
	}
	return "", false
}

// launched reports whether g runs concurrently relative to the loop's function: it, or a
// closure between it and the loop's function, is launched with go or an errgroup, or it is
// called only from code so launched (a tool executor called from a goroutine per tool call).
func (r *rec) launched(g, holder *ir.Func, loop int) bool {
	return r.launchedDepth(g, holder, loop, 0, map[int]bool{})
}

func (r *rec) launchedDepth(g, holder *ir.Func, loop, depth int, seen map[int]bool) bool {
	if seen[g.ID] {
		return false
	}
	seen[g.ID] = true
	for x := g; x != nil && x.ID != holder.ID; {
		if (x.Launch == "go" || x.Launch == "errgroup") && !(x.Parent == holder.ID && loop >= 0 && len(x.ParentLoops) > 0 && x.ParentLoops[0] == loop) &&
			!(x.Parent < 0 && x.Launch == "go" && r.singleWorker(x)) {
			// (a goroutine started by the turn loop's own iteration runs one step's work,
			// not one tool call: what runs inside it is sequential; so does a function of
			// its own started with go outside any loop only, judged by its callers below:
			// one dispatcher serving a channel of tool calls runs them one after another)
			return true
		}
		if x.Parent < 0 {
			break
		}
		x = r.p.Funcs[x.Parent]
	}
	if g.Parent >= 0 {
		// a closure of a helper (the body handed to a tracing wrapper): launched when the
		// function it is written in is, unless it is written in the loop's function
		top := g
		for top.Parent >= 0 {
			if top.ID == holder.ID {
				return false
			}
			top = r.p.Funcs[top.Parent]
		}
		if top.ID == holder.ID || seen[top.ID] {
			return false
		}
		seen[top.ID] = true
		g = top
	}
	if g.ID == holder.ID || depth >= 3 {
		return false
	}
	callers := r.callers[g.ID]
	if len(callers) == 0 || len(callers) > 4 {
		return false
	}
	single := g.Launch == "go" && r.singleWorker(g)
	for _, ref := range callers {
		c := &r.p.Funcs[ref.Func].Calls[ref.Call]
		// (one goroutine started outside any loop — a dispatcher serving a channel of tool
		// calls — runs them one after another, unless its own caller is launched so)
		if (c.Concurrent == "" || single) && !r.launchedDepth(r.p.Funcs[ref.Func], holder, loop, depth+1, seen) {
			return false
		}
	}
	return true
}

// singleWorker reports whether g is started concurrently only outside loops: every call of
// it under go or an errgroup is in no loop of its function.
func (r *rec) singleWorker(g *ir.Func) bool {
	n := 0
	for _, ref := range r.callers[g.ID] {
		c := &r.p.Funcs[ref.Func].Calls[ref.Call]
		if c.Concurrent == "" {
			continue
		}
		if len(c.Loops) > 0 {
			return false
		}
		n++
	}
	return n > 0
}

func calleeName(c *ir.Call) string {
	if c.Abstract != "" {
		return roles.ShortName(c.Abstract)
	}
	for _, k := range c.Keys {
		if k != "" {
			return roles.ShortName(k)
		}
	}
	if c.Text != "" {
		t := c.Text
		if i := strings.IndexByte(t, '('); i > 0 {
			t = t[:i]
		}
		return t
	}
	return c.Method
}

// via follows a helper (or a callback a wrapper runs: a retry's attempt) down to the provider
// call whose result it returns.
func (r *rec) via(c *ir.Call, depth int) []string {
	if depth > 3 {
		return nil
	}
	var g *ir.Func
	switch {
	case len(c.Targets) == 1:
		g = r.p.Funcs[c.Targets[0]]
	case len(c.ArgFuncs) == 1:
		g = r.p.Funcs[c.ArgFuncs[0]]
	default:
		return nil
	}
	for _, ret := range g.Returns {
		for _, v := range ret.Values {
			if v.Kind != ir.ValCall || v.Call < 0 {
				continue
			}
			inner := &g.Calls[v.Call]
			return append([]string{calleeName(inner)}, r.via(inner, depth+1)...)
		}
	}
	// the call whose result g hands back through a variable, also one made in a closure g
	// hands to a wrapper (span.WithSpan(ctx, …, func(ctx) error { resp, err = m.Get(…) }))
	for _, h := range append([]int{g.ID}, r.closures[g.ID]...) {
		for i := range r.p.Funcs[h].Calls {
			inner := &r.p.Funcs[h].Calls[i]
			if inner.Flow == nil {
				continue
			}
			for _, ref := range inner.Flow.Through {
				if &r.p.Funcs[ref.Func].Calls[ref.Call] == c {
					return append([]string{calleeName(inner)}, r.via(inner, depth+1)...)
				}
			}
		}
	}
	// the first call whose result is returned through a variable: a provider method
	for _, ic := range g.Calls {
		if ic.Provider != "" {
			return []string{ic.Provider}
		}
	}
	return r.forced(g, depth)
}

// forced is the way a getter reaches the lazy call it forces (tool_calls → _force → iterate
// self → __iter__ draining self.model.execute(…)): the iteration of the receiver whose
// iterator method loops over a call of no function of the program, through the methods g
// calls (up to three deep), nil if none.
func (r *rec) forced(g *ir.Func, depth int) []string {
	if depth > 3 {
		return nil
	}
	for i := range g.Calls {
		c := &g.Calls[i]
		if len(c.Targets) != 1 || c.Targets[0] == g.ID {
			continue
		}
		t := r.p.Funcs[c.Targets[0]]
		if c.Method == "iterate" {
			if rest := r.drained(t, 0); rest != nil {
				return append([]string{calleeName(c)}, rest...)
			}
			continue
		}
		if rest := r.forced(t, depth+1); rest != nil {
			return append([]string{calleeName(c)}, rest...)
		}
	}
	return nil
}

// bound finds the loop's bound: a counter comparison in its condition or body, in a helper it
// calls (a state machine's check), or a recursion's depth parameter.
func (r *rec) bound(l *Loop) {
	f := l.Func
	var best *ir.Branch
	var bestFunc *ir.Func
	for i := range f.Branches {
		b := &f.Branches[i]
		if b.Loop != l.LoopID {
			continue
		}
		if best == nil || b.InCond && !best.InCond {
			best, bestFunc = b, f
		}
	}
	if best == nil && l.LoopID < 0 {
		// a recursion whose step runs in a closure of the recursive function (a tracing
		// span's callback): the depth check is the closure's, on the parameter it captured
		for _, g := range r.p.Funcs {
			if g.Parent < 0 || !r.within(g, f) {
				continue
			}
			for i := range g.Branches {
				if b := &g.Branches[i]; b.Loop == -1 && best == nil {
					best, bestFunc = b, g
				}
			}
		}
	}
	stops := false
	for _, ss := range f.Stops {
		stops = stops || ss.Loop == l.LoopID // (-1: a recursion's, see srcir stopSets)
	}
	if best == nil && !stops {
		// (a recursion's: a limits check the recursive function calls before its step)
		best, bestFunc = r.helperBound(f, l.LoopID)
	}
	if best == nil {
		for _, ss := range f.Stops {
			if ss.Loop == l.LoopID {
				// a list of stop conditions: empty unless the caller or a default fills it
				bd := &model.Bound{Expr: ss.Text, Pos: pos(ss.Pos), Source: ss.Source, Optional: true}
				if ss.Key != "" {
					r.boundDefault(bd, ss.Key)
					l.boundKey = ss.Key
				}
				if bd.Default == "" {
					bd.Default = model.DefaultNone
				}
				l.Map.Bound = bd
				at, src := ss.AtPos, ss.AtSource
				if !at.IsValid() {
					at, src = ss.Pos, ss.Source
				}
				l.Map.OnBound = r.onBound(f, ss.Return, ss.StopText, at, src, "")
				return
			}
		}
		return
	}
	b := best
	bd := &model.Bound{Expr: b.Bound.Text, Pos: pos(b.Pos), Source: b.Source, Optional: b.Optional}
	if b.Bound.Kind == "const" && b.Bound.ConstPos.IsValid() {
		bd.Default, bd.DefaultPos = b.Bound.Const, pos(b.Bound.ConstPos)
	}
	if b.Bound.Key != "" {
		r.boundDefault(bd, b.Bound.Key)
		l.boundKey = b.Bound.Key
	}
	bd.DefaultEnv = r.envOf(bd.DefaultPos)
	l.Map.Bound = bd
	ob := r.onBound(bestFunc, b.Return, b.StopText, b.AtPos, b.AtSource, model.StopMaxSteps)
	if ob.Kind == model.OnBoundSilent && b.InCond && b.StopText == "" && b.HandedErr == "" {
		// the loop's condition is the bound, and its body tests the same bound again to
		// record why it will end (if iteration_count >= max_iterations: self._last_stop_reason
		// = "max_steps"; the condition then ends the loop, praisonaiagents==1.7.17
		// llm/openai_client.py:2048, 2308-2309): the stop reason recorded is what happens there
		for _, o := range bestFunc.Branches {
			if o.Loop != b.Loop || o.InCond || o.StopText == "" || o.Return >= 0 || o.HandedErr != "" || o.Bound.Text != b.Bound.Text {
				continue
			}
			if sr := stopReasonOf(o.StopText); sr != "" {
				ob.Kind, ob.StopReason, ob.Value = model.OnBoundStopReason, sr, strings.Trim(o.StopText, "\"'`")
				if o.AtPos.IsValid() {
					ob.Pos, ob.Source = pos(o.AtPos), o.AtSource
				} else {
					ob.Pos, ob.Source = pos(o.Pos), o.Source
				}
				break
			}
		}
	}
	if ob.Kind == model.OnBoundStopReason && b.Return >= 0 && b.Return < len(bestFunc.Returns) {
		if rt := bestFunc.Returns[b.Return]; rt.Err != nil && rt.Err.Kind != ir.ValNil && rt.Pos.IsValid() {
			// the stop recorded on the way (a span error, an event: max_turns_reached) and
			// an error returned at the bound (return MaxTurnsExceededErrorf(…), return text,
			// ErrMaxTurns): the run fails with that error, for the reason recorded
			ob.Kind, ob.Value = model.OnBoundError, rt.Err.Text
			ob.Pos, ob.Source = pos(rt.Pos), rt.Source
			if sr := r.sentinelReason(rt.Err); sr != "" {
				ob.StopReason = sr
			}
		}
	}
	if ob.Kind == model.OnBoundSilent && l.LoopID >= 0 && (bestFunc != f || b.Return < 0) {
		// the loop ends at the bound (a helper's check, or the condition) and the function
		// raises the bound's error after it: if loop.status == "out_of_steps": raise ...
		if ret := r.raisedAfter(f, l.LoopID); ret != nil {
			ob.Kind, ob.Value, ob.StopReason = model.OnBoundError, ret.Err.Text, r.sentinelReason(ret.Err)
			ob.Pos, ob.Source = pos(ret.Pos), ret.Source
		}
	}
	if ob.Kind == model.OnBoundSilent && b.HandedErr != "" {
		// the bound's error is built and handed on (to an error handler, the result the
		// caller drains): the run fails with it, raised where the result is consumed
		ob.Kind, ob.Value = model.OnBoundError, b.HandedErr
		if sr := stopReasonOf(b.HandedErr); sr != "" {
			ob.StopReason = sr
		}
	}
	l.atBound, l.boundFunc = b.Return, bestFunc
	l.Map.OnBound = ob
}

// finalBound, once the loop's model calls are known, turns an error at the bound that is only
// the error of a last model request (return a.final(ctx, msgs): at the bound the run asks the
// loop's model API for an answer without tools and hands it back) into the loop's silent end
// on its step limit.
func (r *rec) finalBound(l *Loop) {
	ob, f := l.Map.OnBound, l.boundFunc
	if ob == nil || ob.Kind != model.OnBoundError || f == nil || l.atBound < 0 || l.atBound >= len(f.Returns) {
		return
	}
	ret := &f.Returns[l.atBound]
	if pos(ret.Pos) != ob.Pos {
		return
	}
	switch {
	case r.finalAnswer(l, f, ret):
		ob.Kind, ob.Value, ob.StopReason = model.OnBoundSilent, ret.Text, model.StopMaxSteps
	case ret.Err != nil && ret.Err.Kind == ir.ValCall && r.answerReturn(f.ID, l.atBound):
		// the loop leaves at the bound to the return its final answer leaves to, one that
		// hands back what a call made after the loop returns (a completion hook's error:
		// return a.cfg.OnDone(ctx, answer)): the bound is silent, the call decides the exit
		ob.Kind, ob.Value, ob.StopReason = model.OnBoundSilent, ret.Text, model.StopMaxSteps
		l.sharedBound = true
	case ret.Err != nil && ret.Err.Kind == ir.ValCall && r.finishes(l, f, ret.Err.Call):
		// if chatCtx.callTimes == maxCalls { return endCall(ctx, chatCtx, resp, w) }: at the
		// bound the last reply is handed to a helper that writes it out and returns nil
		// unless the writing fails: the loop ends quietly on its limit, the helper decides
		ob.Kind, ob.Value, ob.StopReason = model.OnBoundSilent, ret.Text, model.StopMaxSteps
	}
}

// finishes reports whether call id of f, returned at loop l's bound, runs one function of the
// program (not the loop's own) that returns only an error, nil on some path: a finishing step
// (the last reply written out) whose only failure is its own, not an error the bound raises.
func (r *rec) finishes(l *Loop, f *ir.Func, id int) bool {
	if id < 0 || id >= len(f.Calls) {
		return false
	}
	c := &f.Calls[id]
	if len(c.Targets) != 1 || c.Abstract != "" || c.Targets[0] == l.Func.ID || c.Targets[0] == f.ID {
		return false
	}
	g := r.p.Funcs[c.Targets[0]]
	if len(g.Results) != 1 || g.Results[0] != "error" {
		return false
	}
	for _, rt := range g.Returns {
		if rt.Err != nil && rt.Err.Kind == ir.ValNil && rt.Pos.IsValid() {
			return true
		}
	}
	return false
}

// answerReturn reports whether return ret of function f is where a recognized loop's final
// answer leaves to: the return a leaving test of one of its model calls' results reaches.
func (r *rec) answerReturn(f, ret int) bool {
	if r.answerRets == nil {
		r.answerRets = map[[2]int]bool{}
		for _, l := range r.order {
			at := map[model.Position]bool{}
			for _, m := range l.Map.ModelCalls {
				at[m.Pos] = true
			}
			for _, s := range r.cands[l] {
				if s.c.Flow == nil || !at[pos(s.c.Pos)] {
					continue
				}
				for _, ch := range s.c.Flow.Checked {
					if ch.Leaves && ch.Return >= 0 {
						r.answerRets[[2]int{ch.Func, ch.Return}] = true
					}
				}
			}
		}
	}
	return r.answerRets[[2]int{f, ret}]
}

// finalAnswer reports whether ret passes on the results of a call that reaches (three calls
// deep at most) a call of the API of one of the loop's model calls: a last model request made
// at the bound, whose answer ends the run.
func (r *rec) finalAnswer(l *Loop, f *ir.Func, ret *ir.Return) bool {
	if ret.Err == nil || ret.Err.Kind != ir.ValCall || ret.Err.Call < 0 || ret.Err.Call >= len(f.Calls) {
		return false
	}
	at := map[model.Position]bool{}
	for _, m := range l.Map.ModelCalls {
		at[m.Pos] = true
	}
	keys := map[string]bool{}
	for i := range r.p.Funcs {
		for _, c := range r.p.Funcs[i].Calls {
			if at[pos(c.Pos)] {
				for _, k := range c.Keys {
					keys[k] = true
				}
			}
		}
	}
	if len(keys) == 0 {
		return false
	}
	c := &f.Calls[ret.Err.Call]
	for _, k := range c.Keys {
		if keys[k] {
			// the loop's model call made once more after it (for ...: … else: return await
			// self._inner_get(history, settings) with tools switched off)
			return true
		}
	}
	if len(c.Targets) != 1 {
		return false
	}
	seen := map[int]bool{f.ID: true}
	queue := []int{c.Targets[0]}
	for d := 0; len(queue) > 0 && d < 3; d++ {
		var next []int
		for _, id := range queue {
			if seen[id] {
				continue
			}
			seen[id] = true
			g := r.p.Funcs[id]
			if g.ID == l.Func.ID {
				return false // the loop again, not a last request
			}
			for _, gc := range g.Calls {
				for _, k := range gc.Keys {
					if keys[k] {
						return true
					}
				}
				if len(gc.Targets) <= 2 {
					next = append(next, gc.Targets...)
				}
			}
		}
		queue = next
	}
	return false
}

// onBound says what a function does at a bound or stop condition: the return it reaches
// (ret, an index in f.Returns, -1 if none is certain) or the stop reason it records (stop, as
// written); at is where. An error returned is "error", a stop reason recorded "stop_reason",
// anything else (a successful return, leaving the loop) "silent". def is the stop reason of a
// silent end ("" when the loop may go on to other exits that say why it ended).
func (r *rec) onBound(f *ir.Func, ret int, stop string, at ir.Pos, atSrc string, def model.StopReason) *model.OnBound {
	ob := &model.OnBound{Kind: model.OnBoundSilent, Pos: pos(at), Source: atSrc}
	if stop != "" {
		if sr := stopReasonOf(stop); sr != "" {
			ob.Kind, ob.StopReason, ob.Value = model.OnBoundStopReason, sr, stop
		}
	}
	if ob.Kind != model.OnBoundStopReason && ret >= 0 && ret < len(f.Returns) {
		rt := f.Returns[ret]
		ob.Pos, ob.Source = pos(rt.Pos), rt.Source
		switch {
		case (rt.Err == nil || rt.Err.Kind == ir.ValNil) && len(rt.Values) == 1 && rt.Values[0].Kind == ir.ValConst &&
			strings.Trim(rt.Values[0].Text, "\"'`") != rt.Values[0].Text && reasonWord.MatchString(strings.Trim(rt.Values[0].Text, "\"'`")) &&
			stopReasonOf(rt.Values[0].Text) != "":
			// return "limit_turns": the helper hands the stop reason to the caller, which
			// records it (a message, "max turns reached", is an answer)
			ob.Kind, ob.Value, ob.StopReason = model.OnBoundStopReason, strings.Trim(rt.Values[0].Text, "\"'`"), stopReasonOf(rt.Values[0].Text)
		case (rt.Err == nil || rt.Err.Kind == ir.ValNil) && len(rt.Values) == 1 && memberReason(rt.Values[0].Text) != "":
			// return AgentTerminateMode.MAX_TURNS; of the helper that checks the bound
			// (@google/gemini-cli-core@0.61.0 dist/src/agents/local-executor.js:1045-1050): the
			// member of an enumeration naming the limit is the stop reason handed to the caller
			v := memberReason(rt.Values[0].Text)
			ob.Kind, ob.Value, ob.StopReason = model.OnBoundStopReason, v, stopReasonOf(v)
		case rt.State != "" && limitReason(stopReasonOf(rt.State)):
			// this._finishStream('max_turns', {...}); return; at the bound: the state the run
			// records on the way out names the limit (@google/gemini-cli-core@0.61.0
			// dist/src/agent/legacy-agent-session.js:122-128)
			ob.Kind, ob.Value, ob.StopReason = model.OnBoundStopReason, rt.State, stopReasonOf(rt.State)
		case rt.Err == nil || rt.Err.Kind == ir.ValNil:
			ob.Kind, ob.Value, ob.StopReason = model.OnBoundSilent, rt.Text, def
		default:
			ob.Kind, ob.Value = model.OnBoundError, rt.Err.Text
			ob.StopReason = r.sentinelReason(rt.Err)
		}
	}
	if ob.Kind == model.OnBoundSilent && ob.StopReason == "" {
		ob.StopReason = def
	}
	return ob
}

// memberReason returns the member name of an enumeration member (AgentTerminateMode.MAX_TURNS,
// StopReason.max_steps) that names a step or turn limit, "" otherwise.
func memberReason(text string) string {
	i := strings.LastIndexByte(text, '.')
	if i <= 0 || strings.ContainsAny(text, "()[] ") {
		return ""
	}
	if v := text[i+1:]; reasonWord.MatchString(v) && limitReason(stopReasonOf(v)) {
		return v
	}
	return ""
}

// limitReason reports whether sr is the stop reason of a step or turn limit.
func limitReason(sr model.StopReason) bool {
	return sr == model.StopMaxTurns || sr == model.StopMaxSteps
}

// reasonWord matches a stop reason's identifier (limit_turns, maxSteps), not a message.
var reasonWord = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*([_:-][A-Za-z0-9]+)*$`)

// helperBound finds a bound checked in the helpers the loop calls (a state machine's step,
// an invocation's call counter), nearest first, up to three calls below the loop: a counter
// comparison outside any loop of the helper that leaves it. Dynamic calls with many
// implementations are not followed.
// maxHelperBoundDepth is how many calls deep helperBound looks for the bound's test: a step
// generator's model call counts its calls in a cost manager five calls below the loop
// (run_async -> _run_one_step_async -> _call_llm_async -> call_llm_async -> a tracing
// closure -> increment_llm_call_count -> increment_and_enforce_llm_calls_limit).
const maxHelperBoundDepth = 6

func (r *rec) helperBound(f *ir.Func, loop int) (*ir.Branch, *ir.Func) {
	seen := map[int]bool{f.ID: true}
	var level []int
	for _, c := range f.Calls {
		if loop >= 0 && !contains(c.Loops, loop) || loop < 0 && (len(c.Loops) > 0 || c.Recursive) || len(c.Targets) > 3 {
			continue
		}
		for _, t := range c.Targets {
			if !seen[t] {
				seen[t] = true
				level = append(level, t)
			}
		}
	}
	for depth := 0; depth < maxHelperBoundDepth && len(level) > 0; depth++ {
		var next []int
		for _, t := range level {
			g := r.p.Funcs[t]
			if g.Test && !f.Test {
				// a test's fake of the model or a tool (if f.n == 1 { return tool calls }):
				// its counter scripts the test, it bounds no run of the package
				continue
			}
			var first, set *ir.Branch
			for i := range g.Branches {
				// a limit kept in the run's state or configuration, not a collection's end
				b := &g.Branches[i]
				if b.Loop >= 0 && !carriedCount(g, b) || b.Bound.Kind == "call" || b.Bound.Kind == "other" {
					continue
				}
				if first == nil {
					first = b
				}
				if !b.Optional || r.boundSet(b) {
					// of optional limits tested together (0 < step_limit <= n or 0 <
					// cost_limit <= cost), the one whose default sets a limit
					if set == nil {
						set = b
					}
					switch stopReasonOf(b.StopText) {
					case model.StopMaxSteps, model.StopMaxTurns:
						// of tests of the same limit, the one that ends the run for it (a
						// decider testing max_iters first in a branch that only forces the
						// output tool, then where it exits with finished_reason
						// EXCEED_MAX_ITERS: agentscope==2.0.11 agent/_agent.py:3636, 3736)
						return b, g
					}
				}
			}
			if set != nil {
				return set, g
			}
			if first != nil {
				return first, g
			}
			for _, c := range g.Calls {
				if len(c.Loops) > 0 || len(c.Targets) > 3 || c.Concurrent != "" {
					continue
				}
				for _, u := range c.Targets {
					if !seen[u] {
						seen[u] = true
						next = append(next, u)
					}
				}
			}
		}
		level = next
	}
	return nil, nil
}

// carriedCount reports whether branch b of helper g, in a loop of g, compares a counter that
// is a parameter of g with a limit that is another: a count the caller carries in and the
// helper goes on counting per element (for fc in function_calls: current_function_call_count
// += 1; if current_function_call_count > function_call_limit: skip it, agno==3.1.10
// agno/models/base.py:2431-2445), a limit of the run's tool calls, not the end of the list.
func carriedCount(g *ir.Func, b *ir.Branch) bool {
	if b.Bound.Kind != "param" {
		return false
	}
	counter := ""
	for _, op := range []string{">=", "<=", ">", "<", "=="} {
		if l, r, ok := strings.Cut(b.Text, op); ok {
			l, r = strings.TrimSpace(l), strings.TrimSpace(strings.TrimPrefix(r, "="))
			switch b.Bound.Text {
			case r:
				counter = l
			case l:
				counter = r
			}
			break
		}
	}
	if counter == "" || counter == b.Bound.Text {
		return false
	}
	for _, p := range g.Params {
		if p.Name == counter {
			return true
		}
	}
	return false
}

// boundSet reports whether the default of an optional bound's operand sets a limit (not 0,
// None, null or unknown).
func (r *rec) boundSet(b *ir.Branch) bool {
	bd := &model.Bound{Expr: b.Bound.Text, Optional: true}
	if b.Bound.Kind == "const" {
		bd.Default = b.Bound.Const
	}
	if b.Bound.Key != "" {
		r.boundDefault(bd, b.Bound.Key)
	}
	switch bd.Default {
	case "", "0", "0.0", "0.", "None", "null", "undefined", model.DefaultNone:
		return false
	}
	return true
}

// drained is the way from iterator method t to the call of no function of the program its
// loop drains: that call, or a generator of the program it loops over and that one's way (for
// chunk in self._iter_events(), which drains self.model.execute(…)); for a generator whose
// loop ranges over a local (generator = self.model.execute(…); for chunk in generator) the
// way ends at it. nil if none.
func (r *rec) drained(t *ir.Func, depth int) []string {
	if depth > 3 {
		return nil
	}
	for _, l := range t.Loops {
		if l.OverCall < 0 || l.OverCall >= len(t.Calls) {
			continue
		}
		oc := &t.Calls[l.OverCall]
		if oc.Method == "iterate" {
			continue
		}
		if len(oc.Targets) == 0 {
			return []string{calleeName(oc)}
		}
		if len(oc.Targets) == 1 && oc.Targets[0] != t.ID {
			g := r.p.Funcs[oc.Targets[0]]
			if rest := r.drained(g, depth+1); rest != nil {
				return append([]string{calleeName(oc)}, rest...)
			}
			for _, gl := range g.Loops {
				if gl.OverCall < 0 && gl.Over != "" && !strings.ContainsAny(gl.Over, ".()[ ") {
					return []string{calleeName(oc)}
				}
			}
		}
	}
	return nil
}

// raisedAfter returns a return of f after loop id (outside it) that raises an error naming
// a bound: a profile's bound_error or a sentinel whose name says a limit was reached.
func (r *rec) raisedAfter(f *ir.Func, id int) *ir.Return {
	for i := range f.Returns {
		ret := &f.Returns[i]
		if ret.Err == nil || ret.Err.Kind != ir.ValSentinel || !contains(ret.AfterLoops, id) || ret.InLoop == id {
			continue
		}
		bound := false
		if r.o.Table != nil {
			for _, b := range r.o.Table.Lookup(ret.Err.Key) {
				bound = bound || b.Role == roles.BoundError
			}
		}
		if sr := stopReasonOf(ret.Err.Key); sr == model.StopMaxSteps || sr == model.StopMaxTurns {
			bound = true
		}
		if bound {
			return ret
		}
	}
	return nil
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// envOf returns the environment variable that overrides the default defined at p, "" if none.
func (r *rec) envOf(p model.Position) string {
	if !p.IsValid() {
		return ""
	}
	for _, e := range r.p.EnvDefaults {
		if e.Pos.File == p.File && e.Pos.Line == p.Line {
			return e.Var
		}
	}
	return ""
}

func (r *rec) boundDefault(bd *model.Bound, key string) {
	if r.o.Table != nil {
		for _, b := range r.o.Table.Lookup(key) {
			if b.Role == roles.BoundDefault && b.Rule.Value != "" {
				bd.Default = b.Rule.Value
				return
			}
		}
	}
	// the default set in a constructor or option, preferring a named constant
	var best *ir.Default
	rank := map[string]int{"const": 3, "zero_check": 2, "constructor": 1, "option": 1}
	for i := range r.p.Defaults {
		d := &r.p.Defaults[i]
		if d.Key != key || d.Via == "caller" {
			continue // (what one caller passes: for the entries that call so, see callerBound)
		}
		if best == nil || rank[d.Via] > rank[best.Via] {
			best = d
		}
	}
	if best != nil {
		bd.Default, bd.DefaultPos = best.Value, pos(best.Pos)
	}
}

// stopReasonOf maps a stop reason's text (a constant's name and value, an error message) to a
// canonical stop reason.
func stopReasonOf(text string) model.StopReason {
	s := strings.ToLower(text)
	n := strings.NewReplacer("_", "", "-", "", " ", "", ":", "").Replace(s)
	switch {
	case strings.Contains(n, "cancel"):
		return model.StopCancelled
	case strings.Contains(n, "timeout") || strings.Contains(n, "deadline"):
		return model.StopTimeout
	case strings.Contains(n, "budget") || strings.Contains(n, "token"):
		return model.StopBudgetExceeded
	case strings.Contains(n, "turn") && (strings.Contains(n, "max") || strings.Contains(n, "limit") || strings.Contains(n, "toomany") || strings.Contains(n, "exceed")):
		return model.StopMaxTurns
	case (strings.Contains(n, "max") || strings.Contains(n, "limit") || strings.Contains(n, "toomany") || strings.Contains(n, "exceed")) &&
		(strings.Contains(n, "step") || strings.Contains(n, "iter") || strings.Contains(n, "round") || strings.Contains(n, "loop") || strings.Contains(n, "call") || strings.Contains(n, "recursion")):
		return model.StopMaxSteps
	case strings.Contains(n, "goal") || n == "done" || strings.HasSuffix(n, "completed"):
		return model.StopGoalReached
	}
	return ""
}

func (r *rec) sentinelReason(v *ir.Value) model.StopReason {
	if v.Key != "" && r.o.Table != nil {
		for _, b := range r.o.Table.Lookup(v.Key) {
			if b.Role == roles.BoundError && b.Rule.StopReason != "" {
				return b.Rule.StopReason
			}
		}
	}
	if sr := stopReasonOf(v.Key + " " + v.Text); sr != "" && sr != model.StopGoalReached {
		return sr
	}
	return model.StopMaxSteps // an error at the bound ends the run on its step limit
}

// cancel decides whether every iteration's path observes cancellation.
func (r *rec) cancel(l *Loop) {
	f := l.Func
	if l.LoopID < 0 {
		if f.CancelAlways {
			for _, c := range f.Cancels {
				if c.Kind != "call" {
					l.Map.ChecksCancel, l.Map.CancelPos = true, pos(c.Pos)
					return
				}
			}
		}
		if c, ok := r.recursionCheck(f); ok {
			l.Map.ChecksCancel, l.Map.CancelPos = true, pos(c.Pos)
		}
		return
	}
	for _, c := range f.Cancels {
		for _, o := range c.Loops {
			if o.Loop == l.LoopID && o.EveryIteration {
				if c.Kind == "call" && r.isSite(l, c.Pos) {
					continue
				}
				l.Map.ChecksCancel, l.Map.CancelPos = true, pos(c.Pos)
				return
			}
		}
	}
	// for await (const event of this.runOneStepAsync(ctx)) { if (ctx.abortSignal?.aborted)
	// return; … } as the body's drain of the step (@google/adk@2.0.0
	// dist/esm/agents/llm_agent.js:442-445): a check on every item of a step generator of the
	// program that every iteration drains is a check between steps
	for _, c := range f.Cancels {
		if c.Kind == "call" || len(c.Loops) < 2 || !c.Loops[0].EveryIteration || c.Loops[1].Loop != l.LoopID {
			continue
		}
		in := c.Loops[0].Loop
		if in < 0 || in >= len(f.Loops) || f.Loops[in].ID != in || f.Loops[in].Outer != l.LoopID {
			continue
		}
		oc := f.Loops[in].OverCall
		if oc < 0 || oc >= len(f.Calls) {
			continue
		}
		if d := &f.Calls[oc]; len(d.Targets) > 0 && d.Dominates && len(d.Loops) > 0 && d.Loops[0] == l.LoopID {
			l.Map.ChecksCancel, l.Map.CancelPos = true, pos(c.Pos)
			return
		}
	}
}

// cancelAfterStep takes a check that follows every model call of the loop on the way back to
// its head (Cancel.After) as a check between steps, when no check is on every iteration.
func (r *rec) cancelAfterStep(l *Loop) {
	if l.Map.ChecksCancel || l.LoopID < 0 || len(l.Map.ModelCalls) == 0 {
		return
	}
	f := l.Func
	sites := map[int]bool{}
	for _, mc := range l.Map.ModelCalls {
		found := false
		for _, c := range f.Calls {
			if pos(c.Pos) == mc.Pos && contains(c.Loops, l.LoopID) {
				sites[c.ID], found = true, true
			}
		}
		if !found {
			return // a model call elsewhere (a helper's): not known to be followed
		}
	}
	for _, c := range f.Cancels {
		if len(c.Loops) == 0 || c.Loops[0].Loop != l.LoopID || c.Kind == "call" && r.isSite(l, c.Pos) {
			continue
		}
		n := 0
		for _, id := range c.After {
			if sites[id] {
				n++
			}
		}
		if n == len(sites) {
			l.Map.ChecksCancel, l.Map.CancelPos = true, pos(c.Pos)
			return
		}
	}
}

// isSite reports whether p is the position of a call that only passes the context on to the
// model (a provider call observing its context is propagation, not a check between steps).
func (r *rec) isSite(l *Loop, p ir.Pos) bool {
	for _, c := range l.Func.Calls {
		if c.Pos == p && c.Flow != nil {
			return true
		}
		if c.Pos == p && c.Provider != "" {
			return true
		}
	}
	return false
}

// finishLoop re-checks cancellation now that all model calls are known and sorts call sites.
func finishLoop(l *Loop) {
	if l.Map.ChecksCancel {
		for _, m := range l.Map.ModelCalls {
			if m.Pos == l.Map.CancelPos {
				l.Map.ChecksCancel, l.Map.CancelPos = false, model.Position{}
			}
		}
		for _, t := range l.Map.ToolCalls {
			if t.Pos == l.Map.CancelPos {
				l.Map.ChecksCancel, l.Map.CancelPos = false, model.Position{}
			}
		}
	}
	sort.SliceStable(l.Map.ModelCalls, func(i, j int) bool { return l.Map.ModelCalls[i].Pos.Less(l.Map.ModelCalls[j].Pos) })
	sort.SliceStable(l.Map.ToolCalls, func(i, j int) bool { return l.Map.ToolCalls[i].Pos.Less(l.Map.ToolCalls[j].Pos) })
}

// TestedAt reports whether the program has a call at file:line whose result is tested with a
// branch that leaves (the "no tool calls: final answer" half of the shape). The map and the
// checks keep a loop that name-based inference found only when one of its model call sites
// passes this test (or the loop never leaves).
func TestedAt(p *ir.Program, file string, line int) bool {
	if p == nil {
		return false
	}
	for _, f := range p.Funcs {
		for _, c := range f.Calls {
			if c.Pos.Line != line || c.Pos.File != file || c.Flow == nil {
				continue
			}
			for _, ch := range c.Flow.Checked {
				if ch.Leaves {
					return true
				}
			}
		}
	}
	return false
}

// LoopTested reports whether a call in the loop at file:line (or, for a recursion, in the
// function declared there) has its result tested with a branch that leaves.
func LoopTested(p *ir.Program, file string, line int) bool {
	if p == nil {
		return false
	}
	for _, f := range p.Funcs {
		if f.Pos.File != file {
			continue
		}
		ids := map[int]bool{}
		for _, l := range f.Loops {
			if l.Pos.Line == line {
				ids[l.ID] = true
			}
		}
		whole := f.Pos.Line == line
		if len(ids) == 0 && !whole {
			continue
		}
		for _, c := range f.Calls {
			in := whole
			for _, li := range c.Loops {
				in = in || ids[li]
			}
			if !in || c.Flow == nil {
				continue
			}
			for _, ch := range c.Flow.Checked {
				if ch.Leaves {
					return true
				}
			}
		}
	}
	return false
}

// recursionCheck finds a cancellation check between the steps of recursion f in a function on
// the way back to f (the helper that runs the tools and then recurses: if cancelled { return }
// before recurse(...)): a check on every path through that function (CancelAlways), written
// before its call that leads back to f. The last such check before the call is returned.
func (r *rec) recursionCheck(f *ir.Func) (ir.Cancel, bool) {
	var best ir.Cancel
	found := false
	var walk func(g *ir.Func, d int, seen map[int]bool) bool
	walk = func(g *ir.Func, d int, seen map[int]bool) bool {
		if d > 3 || seen[g.ID] {
			return false
		}
		seen[g.ID] = true
		back := false
		for _, c := range g.Calls {
			if c.Descends {
				continue
			}
			leads := false
			for _, t := range c.Targets {
				if t == f.ID || walk(r.p.Funcs[t], d+1, seen) {
					leads = true
				}
			}
			if !leads {
				continue
			}
			back = true
			if g.ID == f.ID || !g.CancelAlways {
				continue
			}
			for _, k := range g.Cancels {
				if k.Kind != "call" && k.Pos.File == c.Pos.File && k.Pos.Line < c.Pos.Line && (!found || k.Pos.Line > best.Pos.Line) {
					best, found = k, true
				}
			}
		}
		return back
	}
	walk(f, 0, map[int]bool{})
	return best, found
}

// inToolsOf reports whether site s sits in a function (or a closure of one) that one of the
// tool call sites of site t calls: the helper t's reply is handed to to run its tools.
func (r *rec) inToolsOf(s, t *site) bool {
	fn := s.f
	for fn.Parent >= 0 {
		fn = r.p.Funcs[fn.Parent]
	}
	for _, ref := range t.tools {
		if ref.Func < 0 || ref.Func >= len(r.p.Funcs) || ref.Call >= len(r.p.Funcs[ref.Func].Calls) {
			continue
		}
		if ref == (ir.CallRef{Func: s.f.ID, Call: s.c.ID}) {
			return false
		}
		if slices.Contains(r.p.Funcs[ref.Func].Calls[ref.Call].Targets, fn.ID) {
			return true
		}
	}
	return false
}

// siteAt returns the candidate among cands made at call ref, nil when there is none.
func siteAt(cands []*site, ref ir.CallRef) *site {
	for _, s := range cands {
		if s.f.ID == ref.Func && s.c.ID == ref.Call {
			return s
		}
	}
	return nil
}
