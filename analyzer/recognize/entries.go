package recognize

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
)

// reach is how a function reaches turn loops: the loops, and for each, the call of the
// function that leads there (-1 when the function holds the loop) and whether the path runs
// concurrently (a goroutine or errgroup on the way).
type reach struct {
	loops []*Loop
	// launch maps a call id of the function to whether that call starts the run concurrently.
	launch map[int]bool
	holds  map[int]bool // loop ids held by the function itself
	path   map[*Loop]string
	// returns is true when the function reaches a loop through a closure it returns (an
	// iterator the caller drains): returning it hands the run to the caller.
	returns bool
	// opaque are the calls by which the function reaches a loop through a callback it hands,
	// awaited, to a callee the program does not hold (await runWithContext(ctx, () =>
	// generateHelper(…))): what the run's returns hand back reaches the function only through
	// that callee, so no return of the function passes them on as they are.
	opaque map[int]bool
}

// reaches maps each function that reaches a turn loop to how. A loop reached only through a
// tool call site (a tool that runs an agent: the child run's loop) counts for a function only
// when it reaches no loop otherwise.
func (r *rec) reaches() map[int]*reach {
	strict, full := r.reach(true), r.reach(false)
	for id := range full {
		if s := strict[id]; s != nil && len(s.loops) > 0 {
			full[id] = s
		}
	}
	return full
}

func (r *rec) reach(skipTools bool) map[int]*reach {
	out := map[int]*reach{}
	get := func(id int) *reach {
		x := out[id]
		if x == nil {
			x = &reach{launch: map[int]bool{}, holds: map[int]bool{}, path: map[*Loop]string{}}
			out[id] = x
		}
		return x
	}
	// the functions handed to a call as a callback
	passed := map[int]bool{}
	for _, f := range r.p.Funcs {
		for _, c := range f.Calls {
			for _, a := range c.ArgFuncs {
				passed[a] = true
			}
		}
	}
	for _, l := range r.order {
		type item struct {
			f    int
			conc bool
			path string
			d    int
			// ret: f reaches the loop only in the closure it returns (a handler the caller
			// must call, an iterator to drain)
			ret bool
		}
		x := get(l.Func.ID)
		x.loops = append(x.loops, l)
		x.holds[l.LoopID] = true
		x.path[l] = fmt.Sprintf("holds the turn loop: %s", r.rel(ir.Pos{File: l.Map.Pos.File, Line: l.Map.Pos.Line}))
		queue := []item{{f: l.Func.ID, path: x.path[l]}}
		seen := map[int]bool{l.Func.ID: true}
		for len(queue) > 0 {
			it := queue[0]
			queue = queue[1:]
			if it.d > 6 {
				continue
			}
			callee := r.p.Funcs[it.f]
			if callee.Launch == "return" && callee.Parent >= 0 && !seen[callee.Parent] {
				// a closure its parent returns: the parent hands the run to its caller
				g := r.p.Funcs[callee.Parent]
				seen[g.ID] = true
				gx := get(g.ID)
				gx.returns = true
				p := fmt.Sprintf("returns %s: %s; %s", callee.Short, r.rel(callee.Pos), it.path)
				gx.loops = append(gx.loops, l)
				gx.path[l] = p
				// (no deeper: the parent hands back the run its closure holds)
				queue = append(queue, item{f: g.ID, conc: it.conc, path: p, d: it.d, ret: true})
			}
			for _, ref := range r.callers[it.f] {
				g := r.p.Funcs[ref.Func]
				c := &g.Calls[ref.Call]
				if skipTools && r.toolSite(c) {
					// a tool that runs an agent: the loop is the child run's, not the caller's
					continue
				}
				if passed[it.f] && callsOwnParam(g, c) {
					// a wrapper running the callback it was handed (tracing.WithTrace(ctx, p,
					// func(ctx) error { for … })): the loop is run by whoever hands that
					// callback over (a caller of it already), not by every caller of the wrapper
					continue
				}
				if it.ret && r.p.Lang == "go" && !returnsCall(g, c.ID) {
					// h = logged(a.handle(c)), &Server{h: h}: the closure that runs the loop
					// kept, to be called later: making it runs nothing. (Go's call graph
					// resolves the later call of the func value to the closure itself, VTA, so
					// whoever runs it reaches the loop as its caller; the Python/TS call graph
					// does not follow a returned closure handed on, middleware.run(p,
					// self._make_terminal()), so there the maker stays on the way.)
					continue
				}
				conc := it.conc || c.Concurrent != "" || callee.Launch == "go" || callee.Launch == "errgroup" ||
					len(c.Targets) == 0 && contains(c.ArgFuncs, callee.ID) && !c.Awaited || // a callback an unknown callee runs later (unless the caller awaits the call: await withSpan(span, async () => …) runs it before it is over)
					len(c.Targets) > 0 && contains(c.ArgFuncs, callee.ID) && r.paramLater(c.Targets) // or one the callee launches
				gx := get(g.ID)
				if len(c.Targets) == 0 && c.Awaited && contains(c.ArgFuncs, callee.ID) {
					if gx.opaque == nil {
						gx.opaque = map[int]bool{}
					}
					gx.opaque[c.ID] = true
				}
				if prev, ok := gx.launch[c.ID]; !ok || prev && !conc {
					gx.launch[c.ID] = conc
				}
				if seen[g.ID] {
					continue
				}
				seen[g.ID] = true
				p := fmt.Sprintf("calls %s: %s; %s", calleeName(c), r.rel(c.Pos), it.path)
				gx.loops = append(gx.loops, l)
				gx.path[l] = p
				d := it.d + 1
				if callee.Parent == g.ID && (callee.Launch == "go" || callee.Launch == "errgroup") {
					d = it.d // a goroutine its own function starts for the run: no deeper
				}
				queue = append(queue, item{f: g.ID, conc: conc, path: p, d: d, ret: it.ret})
			}
		}
	}
	return out
}

// returnsCall reports whether a return of g hands back the results of call ci as they are.
func returnsCall(g *ir.Func, ci int) bool {
	for _, ret := range g.Returns {
		if ret.Err != nil && ret.Err.Kind == ir.ValCall && ret.Err.Call == ci {
			return true
		}
		for _, v := range ret.Values {
			if v.Kind == ir.ValCall && v.Call == ci {
				return true
			}
		}
	}
	return false
}

// callsOwnParam reports whether call c of g calls one of g's function-valued parameters.
func callsOwnParam(g *ir.Func, c *ir.Call) bool {
	name, _, ok := strings.Cut(c.Text, "(")
	if !ok || name == "" {
		return false
	}
	for _, prm := range g.Params {
		if prm.Name == name && prm.Kind == "func" {
			return true
		}
	}
	return false
}

// toolSite reports whether c is a recognized tool call site, or a call through an interface
// method the recognized tool call sites call through.
func (r *rec) toolSite(c *ir.Call) bool {
	if c.Abstract != "" && r.toolAbstract[c.Abstract] {
		return true
	}
	return r.toolPos[pos(c.Pos)]
}

// entries lists the run entries: exported functions (or methods an exported interface
// exposes) that reach a turn loop, confirmed or vetoed by run_entry rules.
func (r *rec) entries() []model.Entry {
	r.toolAbstract = map[string]bool{}
	r.toolPos = map[model.Position]bool{}
	r.agentTypes = map[string]bool{}
	for _, l := range r.order {
		for _, tc := range l.Map.ToolCalls {
			r.toolPos[tc.Pos] = true
		}
		if l.Func != nil && l.Func.Recv != "" {
			r.agentTypes[l.Func.Recv] = true
		}
	}
	// the interface methods called at tool call sites, unless some other call outside tests
	// runs them too (an agent interface both run at the top and handed to a loop as a tool)
	other := map[string]bool{}
	for _, f := range r.p.Funcs {
		for _, c := range f.Calls {
			if c.Abstract == "" {
				continue
			}
			if r.toolPos[pos(c.Pos)] {
				r.toolAbstract[c.Abstract] = true
			} else if !f.Test {
				other[c.Abstract] = true
			}
		}
	}
	r.toolOnly = map[string]bool{}
	for k := range r.toolAbstract {
		r.toolOnly[k] = !other[k]
	}
	reaches := r.reaches()
	var out []model.Entry
	var ids []int
	for id := range reaches {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		x := reaches[id]
		f := r.p.Funcs[id]
		if f.Test || f.Parent >= 0 || (r.o.EntryPkgs != nil && !r.o.EntryPkgs[f.Pkg]) {
			continue
		}
		prov, ok := r.entryProv(f)
		if !ok || r.sessionDriver(f, reaches, 0) {
			continue
		}
		out = append(out, r.entryOf(f, x, prov, reaches))
	}
	out = append(out, r.heldEntries(out, reaches)...)
	out = append(out, r.stepEntries(reaches)...)
	out = append(out, r.singleCallEntries(out, reaches)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}

// chatSDKRe matches the chat methods of the well-known provider SDKs of Python and JS/TS as a
// call writes them on its client (client.chat.completions.create, instructor's
// create_partial, client.messages.create, client.responses.create,
// client.models.generate_content, model.generateContent, litellm.completion).
var chatSDKRe = regexp.MustCompile(`(^|\.)(chat\.completions\.(create|create_partial|create_with_completion|create_iterable|parse|stream)|beta\.chat\.completions\.(parse|stream)|messages\.(create|stream)|responses\.(create|stream|parse)|models\.generate_content(_stream)?|generate_content(_async)?|generateContent(Stream)?|litellm\.a?completion|acompletion)$`)

// singleCallEntries are the runs of one step with no turn loop (Python/TS/JS): in a program
// that holds no turn loop at all, the exported functions that reach a provider SDK's chat
// call made outside any loop, through calls made outside loops, and are called so by no
// other such function (atomic-agents==1.1.11 atomic_agents/agents/base_agent.py:183 BaseAgent.run
// → get_response → self.client.chat.completions.create(…) at :174, its reply returned). A
// program with a turn loop has its runs there: a lone chat call beside it is an auxiliary (a
// summary, a title). A call in a loop is a batch over a collection or a session of user
// turns (one run per line typed), not the run.
func (r *rec) singleCallEntries(have []model.Entry, reaches map[int]*reach) []model.Entry {
	if r.p.Lang == "go" || len(r.order) > 0 || len(have) > 0 {
		return nil
	}
	// on: the functions on the way down to a lone chat call, with the call of each that leads there
	on := map[int]map[int]bool{}
	path := map[int]string{} // how each function on the way reaches the chat call
	type item struct{ f, d int }
	var queue []item
	for _, f := range r.p.Funcs {
		if f.Test {
			continue
		}
		for _, c := range f.Calls {
			if len(c.Targets) > 0 || len(c.Loops) > 0 || !chatSDKRe.MatchString(calleeText(c.Text)) {
				continue
			}
			if on[f.ID] == nil {
				on[f.ID] = map[int]bool{}
				path[f.ID] = fmt.Sprintf("model call %s: %s", calleeText(c.Text), r.rel(c.Pos))
				queue = append(queue, item{f.ID, 0})
			}
			on[f.ID][c.ID] = true
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.d >= 4 {
			continue
		}
		for _, ref := range r.callers[it.f] {
			g := r.p.Funcs[ref.Func]
			c := &g.Calls[ref.Call]
			if g.Test || len(c.Loops) > 0 || c.Concurrent != "" {
				continue
			}
			if on[g.ID] == nil {
				on[g.ID] = map[int]bool{}
				path[g.ID] = fmt.Sprintf("calls %s: %s; %s", calleeName(c), r.rel(c.Pos), path[it.f])
				queue = append(queue, item{g.ID, it.d + 1})
			}
			on[g.ID][c.ID] = true
		}
	}
	var ids []int
	for id := range on {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var out []model.Entry
	for _, id := range ids {
		f := r.p.Funcs[id]
		if f.Parent >= 0 || (r.o.EntryPkgs != nil && !r.o.EntryPkgs[f.Pkg]) {
			continue
		}
		prov, ok := r.entryProv(f)
		if !ok {
			continue
		}
		top := true
		for _, ref := range r.callers[id] {
			if g := r.p.Funcs[ref.Func]; on[g.ID] != nil && on[g.ID][ref.Call] && g.ID != id && g.Exported && g.Parent < 0 {
				top = false // called by an exported function on the way: that one is the run
			}
		}
		if !top {
			continue
		}
		x := &reach{launch: map[int]bool{}, holds: map[int]bool{}, path: map[*Loop]string{}}
		for cid := range on[id] {
			x.launch[cid] = false
		}
		with := withReach(reaches)
		with[id] = x
		if prov.Confidence == model.ConfidenceInferred {
			prov.Rule = "inferred: exported function makes one provider chat call outside any loop (a run of one step, no turn loop)"
			prov.Evidence = append(prov.Evidence, path[id])
		}
		out = append(out, r.loopless(f, with, prov))
	}
	return out
}

// withReach copies reaches with room for one more entry's reach.
func withReach(reaches map[int]*reach) map[int]*reach {
	with := make(map[int]*reach, len(reaches)+1)
	for k, v := range reaches {
		with[k] = v
	}
	return with
}

// loopless is the run entry f without a turn loop (a run of one step): its exits as the reaches
// in with lead to them, in source order, and the ids it mints.
func (r *rec) loopless(f *ir.Func, with map[int]*reach, prov model.Provenance) model.Entry {
	e := model.Entry{Func: f.Short, Pos: pos(f.Pos), Source: f.Source, Loops: []model.Loop{}, Provenance: prov}
	e.Exits = r.exitsOf(f, with, 0, map[int]bool{}, false)
	if e.Exits == nil {
		e.Exits = []model.Exit{}
	}
	sort.SliceStable(e.Exits, func(i, j int) bool { return e.Exits[i].Pos.Less(e.Exits[j].Pos) })
	e.IDs = r.ids(f)
	return e
}

// calleeText is the callee of a call expression as written: the text before its arguments.
func calleeText(text string) string {
	name, _, _ := strings.Cut(text, "(")
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "await "))
}

// entryOf is the run entry f, reaching turn loops as x says, with provenance prov.
func (r *rec) entryOf(f *ir.Func, x *reach, prov model.Provenance, reaches map[int]*reach) model.Entry {
	e := model.Entry{Func: f.Short, Pos: pos(f.Pos), Source: f.Source, Loops: []model.Loop{}}
	seen := map[*Loop]bool{}
	for _, l := range x.loops {
		if seen[l] {
			continue
		}
		seen[l] = true
		e.Loops = append(e.Loops, r.callerBound(f, l))
		l.Entries = append(l.Entries, f.Short)
		if prov.Confidence == model.ConfidenceInferred {
			prov.Evidence = append(prov.Evidence, x.path[l])
			if l.Map.Provenance.Score > prov.Score {
				prov.Score = l.Map.Provenance.Score
			}
		}
	}
	sort.SliceStable(e.Loops, func(i, j int) bool { return e.Loops[i].Pos.Less(e.Loops[j].Pos) })
	e.Provenance = prov
	seenExits := map[int]bool{}
	e.Exits = r.exits(f, reaches, 0, seenExits)
	e.Exits = append(e.Exits, r.holderExits(f, x, reaches, seenExits)...)
	e.Exits = append(e.Exits, boundExits(e.Loops, e.Exits)...)
	if e.Exits == nil {
		e.Exits = []model.Exit{}
	}
	sort.SliceStable(e.Exits, func(i, j int) bool { return e.Exits[i].Pos.Less(e.Exits[j].Pos) })
	e.IDs = r.ids(f)
	return e
}

// heldEntries are the unexported functions holding a turn loop that an exported entry runs
// without being the run itself (Python/TS/JS):
//   - the run an entry starts in the background and returns from at once (its exits say
//     started): static runTools(...) { const runner = new Runner(); runner._run(() =>
//     runner._runTools(...)); return runner; }, where _run starts the callback in a setTimeout
//     (openai@7.55.0 lib/ChatCompletionRunner.js:9-17, lib/EventStream.js:1077-1102): the
//     launched method's returns are how the run ends;
//   - the implementations of a template hook the entry calls on itself, when several
//     subclasses implement it each with a turn loop of its own (Agent.run: for rsp in
//     self._run(...), qwen-agent==0.0.34 qwen_agent/agent.py:123, FnCallAgent._run,
//     ReActChat._run, …): each is the run of its own agent kind.
func (r *rec) heldEntries(have []model.Entry, reaches map[int]*reach) []model.Entry {
	if r.p.Lang == "go" {
		return nil
	}
	done := map[string]bool{}
	for _, e := range have {
		done[e.Func] = true
	}
	byName := map[string]*ir.Func{}
	for _, f := range r.p.Funcs {
		if done[f.Short] && f.Parent < 0 && !f.Test {
			byName[f.Short] = f
		}
	}
	// the loop holders an exported entry runs and waits for (Delegator.run awaits the #loop
	// that Delegator.stream starts in the background): the run is that entry's, not the
	// background's
	waited := map[int]bool{}
	background := map[int]bool{}
	for _, e := range have {
		f := byName[e.Func]
		if f == nil || reaches[f.ID] == nil {
			continue
		}
		x := reaches[f.ID]
		bg := r.startsOnly(f, e, x)
		for _, l := range x.loops {
			if l.Func != nil && l.Func.ID != f.ID {
				if bg {
					background[l.Func.ID] = true
				} else {
					waited[l.Func.ID] = true
				}
			}
		}
	}
	var out []model.Entry
	add := func(t int, rule, why string) {
		g := r.p.Funcs[t]
		y := reaches[t]
		if g.Exported || g.Test || g.Parent >= 0 || y == nil || len(y.holds) == 0 || done[g.Short] ||
			(r.o.EntryPkgs != nil && !r.o.EntryPkgs[g.Pkg]) {
			return
		}
		done[g.Short] = true
		prov := model.Provenance{Confidence: model.ConfidenceInferred, Rule: rule, Evidence: []string{why}}
		out = append(out, r.entryOf(g, y, prov, reaches))
	}
	for _, e := range have {
		f := byName[e.Func]
		if f == nil {
			continue
		}
		x := reaches[f.ID]
		if x == nil || len(x.holds) > 0 {
			continue
		}
		if r.startsOnly(f, e, x) {
			// the loop holders the background run reaches
			for _, l := range x.loops {
				if l.Func != nil && l.Func.ID != f.ID && background[l.Func.ID] && !waited[l.Func.ID] {
					add(l.Func.ID, "inferred: runs the turn loop of the run the exported "+roles.ShortName(f.Short)+" starts in the background",
						fmt.Sprintf("started by %s: %s; %s", f.Short, r.rel(f.Pos), x.path[l]))
				}
			}
			continue
		}
		for cid := range x.launch {
			c := &f.Calls[cid]
			if !r.templateCall(c) {
				continue
			}
			var holders []int
			for _, t := range c.Targets {
				if y := reaches[t]; y != nil && len(y.holds) > 0 {
					holders = append(holders, t)
				}
			}
			if len(holders) < 2 {
				continue
			}
			for _, t := range holders {
				add(t, "inferred: implements the hook "+calleeName(c)+" the exported "+roles.ShortName(f.Short)+" runs, with a turn loop of its own",
					fmt.Sprintf("called by %s: %s", f.Short, r.rel(c.Pos)))
			}
		}
	}
	return out
}

// startsOnly reports whether entry e (function f, reaching loops as x says) only starts its
// run in the background: every return of f itself hands back a run still going (started, or
// not_started before the launch), and every call by which it reaches a loop is concurrent.
func (r *rec) startsOnly(f *ir.Func, e model.Entry, x *reach) bool {
	own := map[model.Position]bool{}
	for _, ret := range f.Returns {
		own[pos(ret.Pos)] = true
	}
	started := false
	for _, ex := range e.Exits {
		if !own[ex.Pos] {
			continue
		}
		if ex.Outcome != model.OutcomeStarted && ex.Outcome != model.OutcomeNotStarted {
			return false
		}
		started = started || ex.Outcome == model.OutcomeStarted
	}
	if !started || len(x.launch) == 0 {
		return false
	}
	for _, c := range x.launch {
		if !c {
			return false
		}
	}
	return true
}

// stepEntries are the exported functions without a turn loop that start a goroutine making one
// model decision and running its tools once, and return the channel it streams on: a run of
// one step, started when the goroutine is (its exits not_started before, started after).
func (r *rec) stepEntries(reaches map[int]*reach) []model.Entry {
	var out []model.Entry
	done := map[int]bool{}
	for _, s := range r.steps {
		g := s.f
		if g.Test || g.Launch != "go" || g.Parent < 0 {
			continue
		}
		f := r.p.Funcs[g.Parent]
		if done[f.ID] || f.Test || f.Parent >= 0 || reaches[f.ID] != nil || len(f.Results) == 0 ||
			f.Results[0] != "chan" && f.Results[0] != "stream" || (r.o.EntryPkgs != nil && !r.o.EntryPkgs[f.Pkg]) {
			continue
		}
		prov, ok := r.entryProv(f)
		if !ok {
			continue
		}
		x := &reach{launch: map[int]bool{}, holds: map[int]bool{}, path: map[*Loop]string{}}
		for _, c := range f.Calls {
			if contains(c.Targets, g.ID) {
				x.launch[c.ID] = true
			}
		}
		if len(x.launch) == 0 {
			continue
		}
		done[f.ID] = true
		with := withReach(reaches)
		with[f.ID] = x
		if prov.Confidence == model.ConfidenceInferred {
			prov.Rule = "inferred: exported function starts a goroutine that makes one model step (no turn loop)"
			prov.Evidence = append(prov.Evidence, fmt.Sprintf("starts %s: %s; model call %s: %s", g.Short, r.rel(g.Pos), calleeName(s.c), r.rel(s.c.Pos)))
			prov.Evidence = append(prov.Evidence, s.evidence...)
			prov.Score = s.score
		}
		out = append(out, r.loopless(f, with, prov))
	}
	return out
}

// sessionDriver reports whether f is a session of user turns around run entries rather than a
// run entry: it holds no turn loop, and every call by which it reaches one is made inside a loop
// each iteration of which waits for a line the user types (a reader over os.Stdin, also one its
// caller hands to a parameter) and runs an exported function that reaches the loop itself (the
// run entry, once per input), or is a call of another session driver (RunDemoLoop calling
// RunDemoLoopRW with os.Stdin).
func (r *rec) sessionDriver(f *ir.Func, reaches map[int]*reach, depth int) bool {
	x := reaches[f.ID]
	if x == nil || len(x.holds) > 0 || len(x.launch) == 0 || depth > 3 {
		return false
	}
	for cid := range x.launch {
		c := &f.Calls[cid]
		if len(c.Targets) == 0 {
			return false
		}
		session := false
		for _, id := range c.Loops {
			session = session || r.waitsForUser(f, id)
		}
		for _, t := range c.Targets {
			g := r.p.Funcs[t]
			if session && !(g.Exported && g.Parent < 0 && reaches[t] != nil) ||
				!session && !r.sessionDriver(g, reaches, depth+1) {
				return false
			}
		}
	}
	return true
}

func (r *rec) entryProv(f *ir.Func) (model.Provenance, bool) {
	keys := append([]string{f.Key}, f.Implements...)
	if r.o.Table != nil {
		for _, k := range keys {
			if rule, ok := r.o.Table.Vetoed(k, roles.RunEntry); ok {
				_ = rule
				return model.Provenance{}, false
			}
		}
		for _, k := range keys {
			for _, b := range r.o.Table.Lookup(k) {
				if b.Role == roles.RunEntry {
					return b.Provenance, true
				}
			}
		}
		for _, k := range f.Implements {
			for _, b := range r.o.Table.Lookup(k) {
				if b.Role == roles.ToolCall {
					return model.Provenance{}, false // a tool that starts a child run: the child's entry is the call it makes
				}
			}
		}
	}
	if !f.Exported {
		return model.Provenance{}, false
	}
	for _, k := range f.Implements {
		if r.toolOnly[k] {
			// a tool implementation that runs an agent: the child run's entry is the
			// tool call that reaches it
			return model.Provenance{}, false
		}
	}
	rule := "inferred: exported function runs a turn loop"
	if f.ExportedVia != "" {
		rule = "inferred: method exposed by the exported interface " + roles.ShortName(f.ExportedVia) + " runs a turn loop"
	} else if f.ExportedBy != "" {
		rule = "inferred: method of a type handed out by the exported " + roles.ShortName(f.ExportedBy) + " runs a turn loop"
	}
	return model.Provenance{Confidence: model.ConfidenceInferred, Rule: rule}, true
}

// exits classifies the returns of f by path.
func (r *rec) exits(f *ir.Func, reaches map[int]*reach, depth int, seen map[int]bool) []model.Exit {
	return r.exitsOf(f, reaches, depth, seen, false)
}

// callerBound is loop l's map as entry f sees it: when f (or a closure of it) calls the
// loop's function handing it the bound as an option (Agent.generateText → generateText({
// stopWhen: options?.stopWhen ?? this.stopWhen ?? stepCountIs(maxSteps) }), @voltagent/core@2.10.0
// dist/index.js:31576, into ai@6.0.325 generateText({ stopWhen = stepCountIs(1) })), the
// bound's default is what f passes, not the callee's own.
func (r *rec) callerBound(f *ir.Func, l *Loop) model.Loop {
	lm := l.Map
	if lm.Bound == nil || l.boundKey == "" {
		return lm
	}
	for i := range r.p.Defaults {
		d := &r.p.Defaults[i]
		if d.Via != "caller" || d.Key != l.boundKey || d.Func < 0 || d.Func >= len(r.p.Funcs) {
			continue
		}
		top := r.p.Funcs[d.Func]
		for top.Parent >= 0 && top.Parent < len(r.p.Funcs) && top.Parent != top.ID {
			top = r.p.Funcs[top.Parent]
		}
		if top.ID != f.ID && !strings.HasPrefix(top.Name, f.Name+"$") {
			continue // (a closure's named local function: generateText$1.run)
		}
		bd := *lm.Bound
		bd.Default, bd.DefaultPos, bd.DefaultEnv = d.Value, pos(d.Pos), r.envOf(pos(d.Pos))
		bd.Passed, bd.PassedPos = d.Expr, pos(d.ExprPos)
		lm.Bound = &bd
		return lm
	}
	return lm
}

// exitsOf lists f's exits; underway is true when f is entered with the run already under way
// (handed on to by a return after a step of a recursion it is part of): none of its returns
// comes before the run exists.
func (r *rec) exitsOf(f *ir.Func, reaches map[int]*reach, depth int, seen map[int]bool, underway bool) []model.Exit {
	if depth > 8 || seen[f.ID] {
		return nil
	}
	seen[f.ID] = true
	x := reaches[f.ID]
	var out []model.Exit
	// the model calls of the recursion f holds (its step's decision), or of the recursion of
	// a function f is a closure of (the step's body run in a callback: return
	// tracing.RunInNewSpan(ctx, …, func(ctx, req) { resp, err := fn(ctx, req); … })), by call id
	steps := map[int]bool{}
	if x != nil {
		for _, l := range x.loops {
			if l.LoopID >= 0 || !(l.Func.ID == f.ID && x.holds[-1] || r.within(f, l.Func)) {
				continue
			}
			for _, mc := range l.Map.ModelCalls {
				for _, c := range f.Calls {
					if pos(c.Pos) == mc.Pos {
						steps[c.ID] = true
					}
				}
			}
		}
	}
	for ri, ret := range f.Returns {
		if !ret.Pos.IsValid() {
			continue
		}
		ex := model.Exit{Pos: pos(ret.Pos), Source: ret.Source, Detail: ret.Text}
		launched, concOnly := false, true
		refused := false // on the failure path of a launch that fails only before the run starts
		if x != nil {
			for _, li := range ret.AfterLoops {
				if x.holds[li] {
					launched, concOnly = true, false
				}
			}
			for _, ci := range ret.AfterCalls {
				if _, ok := x.launch[ci]; ok && slices.Contains(ret.ErrOf, ci) && r.failsUnstarted(&f.Calls[ci], reaches, depth) {
					// taken when the call failed, and it fails only before the run starts
					// (a before-run callback's refusal or custom answer): no launch on this path
					refused = true
					continue
				}
				if conc, ok := x.launch[ci]; ok {
					launched = true
					concOnly = concOnly && conc
				} else if steps[ci] {
					// f is a step of its own recursion: after the step's model call the run is
					// under way (what leaves now ends it)
					launched, concOnly = true, false
				} else if slices.Contains(ret.ErrOf, ci) && r.runsTool(f, ci, x) {
					// the run's own tool run before its loop (a first search whose results
					// the loop's model judges, then refines): the run is under way, what
					// fails now fails the run
					launched = true
					concOnly = concOnly && f.Calls[ci].Concurrent != ""
				} else if r.startsStep(f, ci, x, reaches) {
					// a call that reaches one of the run's model calls (its first step made
					// before the loop, through helpers of other functions or packages: start
					// -> Engine.Start -> complete -> Model.Call): the run is under way
					launched = true
					concOnly = concOnly && f.Calls[ci].Concurrent != ""
				}
			}
		}
		if launched && concOnly {
			// wg.Wait(), g.Wait() after the launches: the runs launched in goroutines are
			// over when the function returns (a batch runner), not left running
			for _, ci := range ret.AfterCalls {
				if f.Calls[ci].Joins {
					concOnly = false
				}
			}
		}
		if x != nil && x.returns && returnsFunc(ret) {
			// hands the closure that runs the loop to the caller: what the caller drains decides,
			// and the closure's returns say how the run it drives ends
			launched, concOnly = true, false
			for _, k := range r.closures[f.ID] {
				if g := r.p.Funcs[k]; g.Launch == "return" && reaches[g.ID] != nil {
					out = append(out, r.exits(g, reaches, depth+1, seen)...)
				}
			}
		}
		// a return passing a callee's results through: the callee's exits
		if ret.Err != nil && (ret.Err.Kind == ir.ValCall || ret.Err.Kind == ir.ValError) && ret.Err.Call >= 0 && x != nil {
			c := f.Calls[ret.Err.Call]
			if _, ok := x.launch[c.ID]; ok && len(c.ArgFuncs) == 1 && (r.callsParam(c.Targets) || len(c.Targets) == 0) &&
				(ret.Err.Kind == ir.ValCall || reaches[c.ArgFuncs[0]] != nil) {
				// return withSpan(async () => { … }), err := traced(ctx, func(ctx) error
				// { … }); return out, err: what the callback returns (a callee of the set that
				// calls its parameter, or one outside the set handed the callback)
				if inner := r.exits(r.p.Funcs[c.ArgFuncs[0]], reaches, depth+1, seen); len(inner) > 0 {
					out = append(out, inner...)
					continue
				}
			}
		}
		pv := ret.Err
		handsSeq := false
		if pv == nil && len(ret.Values) == 1 && ret.Values[0].Kind == ir.ValCall && len(f.Results) == 1 && (f.Results[0] == "iterator" || f.Results[0] == "func") {
			// return s.h.Handle(ctx, in): the iterator a callee makes, handed on (through a
			// handler adapter and its middlewares, each one an implementation that reaches
			// the same closure: the first one visited gives its exits)
			pv, handsSeq = &ret.Values[0], true
		}
		if pv != nil && pv.Kind == ir.ValCall && pv.Call >= 0 && x != nil {
			c := f.Calls[pv.Call]
			// of a dynamic call's implementations, the one that reaches the loop (an engine
			// interface with several implementations, one of which runs the turns)
			var reaching []int
			for _, t := range c.Targets {
				if reaches[t] != nil {
					reaching = append(reaching, t)
				}
			}
			if _, ok := x.launch[c.ID]; ok && (len(reaching) == 1 || len(reaching) > 1 && len(reaching) <= 8 && (r.templateCall(&c) || handsSeq)) {
				// several: a template method each subclass implements with a loop of its own
				// (BaseAgent.run -> this._run), each one's exits
				var inner []model.Exit
				for _, t := range reaching {
					inner = append(inner, r.exitsOf(r.p.Funcs[t], reaches, depth+1, seen, underway || launched && x.holds[-1])...)
				}
				if handsSeq {
					// (the adapters' and the maker's own returns only hand the iterator on, and
					// an iterator handed on starts nothing: the caller drains it)
					kept := inner[:0]
					for _, e := range inner {
						if (e.Outcome != model.OutcomePropagated || e.StopReason != "") && e.Outcome != model.OutcomeStarted {
							kept = append(kept, e)
						}
					}
					inner = kept
				}
				if len(inner) > 0 {
					out = append(out, inner...)
					if pv.Stream || handsSeq {
						// a returned generator or stream: the caller drains the run
						ex.Outcome = model.OutcomePropagated
						out = append(out, ex)
					} else if startedIn(inner) {
						// return streamResult: the callee hands back a run it left running
						ex.Outcome = model.OutcomeStarted
						out = append(out, ex)
					} else {
						// return GenerateWithRequest(ctx, r, opts, …): the callee's run ends
						// as its exits say, and this return hands that outcome back
						ex.Outcome = model.OutcomePropagated
						out = append(out, ex)
					}
					continue
				}
			}
		}
		if x != nil && launched && ret.Err != nil && ret.Err.Kind == ir.ValNil && r.wrapsStream(f, ret, x) {
			// return new StreamWithAbort(stream): hands back the stream the run fills; the
			// caller drains the run
			ex.Outcome = model.OutcomePropagated
			out = append(out, ex)
			continue
		}
		atBound, boundReason := r.atBound(f, ret)
		if atBound && r.sharedBoundAt(f, ri) {
			// the return the final answer leaves to, reached at the bound too (the loop falls
			// out at its bound): what the call made after the loop returns decides, not the bound
			atBound = false
		}
		startFailed := false
		if ret.Err != nil && ret.Err.Kind == ir.ValError && ret.Err.Call >= 0 && x != nil {
			if _, isLaunch := x.launch[ret.Err.Call]; isLaunch {
				for _, t := range f.Calls[ret.Err.Call].Targets {
					startFailed = startFailed || r.startsAsync(t, reaches, depth+1)
				}
			}
		}
		switch {
		case x != nil && !launched && !underway && (answers(ret) || refused && ret.Err.Kind == ir.ValNil && streams(ret)):
			// an answer given before the run launches (a canned or cached reply, or the
			// stream of a custom response a refused launch carried back): the run completed
			// without a step
			ex.Outcome, ex.StopReason = string(model.StatusCompleted), model.StopGoalReached
		case x != nil && !launched && !underway, startFailed:
			ex.Outcome = model.OutcomeNotStarted
		case ret.Err == nil:
			ex.Outcome = model.OutcomePropagated
			if launched && concOnly && !(len(f.Results) == 1 && f.Results[0] == "iterator") {
				// (an iterator handed back runs nothing until the caller drains it, whatever
				// goroutine it starts then: the caller drains the run)
				ex.Outcome = model.OutcomeStarted
			}
		case ret.Err.Kind == ir.ValNil:
			switch {
			case launched && concOnly, streams(ret):
				ex.Outcome = model.OutcomeStarted
			case ret.Resume && !allResume(f):
				// hands back the state the caller passes in again: the run waits for input
				ex.Outcome = string(model.StatusWaiting)
			case atBound:
				ex.Outcome, ex.StopReason = string(model.StatusCompleted), boundReason
			default:
				ex.Outcome, ex.StopReason = string(model.StatusCompleted), model.StopGoalReached
			}
		case ret.Err.Kind == ir.ValCtxErr:
			ex.Outcome, ex.StopReason = string(model.StatusCancelled), model.StopCancelled
		case atBound && ret.Err.Kind == ir.ValCall && r.silentBoundAt(ret.Pos):
			// return a.final(ctx, msgs) at the bound: the last model request's outcome, on the
			// step limit
			ex.Outcome, ex.StopReason = model.OutcomePropagated, boundReason
		case atBound:
			ex.Outcome, ex.StopReason = string(model.StatusFailed), boundReason
		case ret.Err.Kind == ir.ValCall && r.valueOnly(f, ret.Err.Call):
			// return self._return(output): a helper that only builds the result
			ex.Outcome, ex.StopReason = string(model.StatusCompleted), model.StopGoalReached
		case ret.Raise && x != nil && heldIn(x, ret.TryLoops):
			// catch (e) { …; throw e } around the turn loop the function runs: the error ends
			// the run here (a model or tool failure the loop did not absorb), it is no
			// callee's outcome passed on; a handler of a cancellation passes on a cancel
			if l := strings.ToLower(ret.Caught); strings.Contains(l, "cancel") || strings.Contains(l, "abort") {
				ex.Outcome, ex.StopReason = string(model.StatusCancelled), model.StopCancelled
			} else {
				ex.Outcome, ex.StopReason = string(model.StatusFailed), model.StopError
			}
		case ret.Raise && x != nil && ret.Err.Kind == ir.ValCall && ret.Err.Call < 0 && ret.InLoop >= 0 && x.holds[ret.InLoop]:
			// if (error) throw error in the body of the turn loop the function runs, the error
			// a tool queue captured (@aigne/core@1.72.0 lib/esm/agents/ai-agent.js:467-468):
			// it ends the run here, it is no callee's outcome handed back
			ex.Outcome, ex.StopReason = string(model.StatusFailed), model.StopError
		case ret.Err.Kind == ir.ValCall && ret.Err.Call >= 0 && x != nil && ret.InLoop >= 0 && x.holds[ret.InLoop] &&
			slices.Contains(ret.ErrOf, ret.Err.Call) && r.startsStep(f, ret.Err.Call, x, reaches):
			// err = a.runIteration(ctx, i); if err != nil { return err } in the body of the
			// turn loop the function holds (henomis/lingoose@v0.3.0 assistant/assistant.go:98-100),
			// the call reaching the loop's model call: the step failed, and its error ends this
			// run here; it is no callee's outcome handed back (a helper that only checks the
			// context or the bound first hands back what it decides)
			ex.Outcome, ex.StopReason = string(model.StatusFailed), model.StopError
		case ret.Err.Kind == ir.ValCall && launched && !concOnly && r.afterRun(f, x, reaches, ret.Err.Call) && r.p.Lang != "go":
			// return await this.checkResponseByGuideRails(input, await
			// agentProcessResultToObject(response), opts) (@aigne/core@1.72.0
			// lib/esm/agents/agent.js:392): a Python or JS/TS return hands back the value of a
			// call that runs nothing of the run (its failure is a raise of its own): the run
			// under way completed
			ex.Outcome, ex.StopReason = string(model.StatusCompleted), model.StopGoalReached
		case ret.Err.Kind == ir.ValCall && launched && !concOnly && r.afterRun(f, x, reaches, ret.Err.Call):
			// return a.cfg.OnDone(ctx, answer) after the loop: the error of a call that runs
			// nothing of the run (a completion hook, a save) ends the run that is under way
			ex.Outcome, ex.StopReason = string(model.StatusFailed), model.StopError
		case ret.Err.Kind == ir.ValCall:
			ex.Outcome = model.OutcomePropagated
		default:
			ex.Outcome, ex.StopReason = string(model.StatusFailed), model.StopError
			if ret.Err.Kind == ir.ValSentinel {
				if sr := r.sentinelReason(ret.Err); sr != "" && stopReasonOf(ret.Err.Key+" "+ret.Err.Text) != "" {
					ex.StopReason = sr
				}
			}
		}
		if ret.OnCancel && (ex.Outcome == string(model.StatusCompleted) || ex.Outcome == string(model.StatusFailed)) {
			// if errors.Is(err, context.Canceled) { return nil, nil }: the run was cancelled,
			// whatever the return hands back
			ex.Outcome, ex.StopReason = string(model.StatusCancelled), model.StopCancelled
		}
		if ret.Waiting && (ex.Outcome == string(model.StatusCompleted) || ex.Outcome == model.OutcomePropagated) {
			// returned because the run pauses for input or approval: it waits, to be resumed
			ex.Outcome, ex.StopReason = string(model.StatusWaiting), ""
		}
		if st, sr := stateOutcome(ret.State); st != "" && ex.Outcome != model.OutcomeNotStarted && ex.Outcome != model.OutcomeStarted {
			// the state recorded on the way out says how the run ended (turnEnds = {kind:
			// 'aborted'}; throw error)
			ex.Outcome, ex.StopReason = st, sr
		} else if !atBound {
			// taken under a test of a status or stop reason: the tested literals say how the
			// run ended (if (message.stopReason === "aborted") return)
			applyGuard(&ex, ret)
		}
		out = append(out, ex)
	}
	if x != nil && (f.Results != nil && (f.Results[0] == "stream" || f.Results[0] == "iterator") || r.iterBody(f)) {
		out = append(out, r.drainedExits(f, x, reaches, depth, seen)...)
	}
	return out
}

// iterBody reports whether f is the body of an iterator its parent returns (return
// func(yield func(*Message, error) bool) { … }): what it drains and relays of another
// iterator (for m, err := range handler.Handle(ctx, inv) { if !yield(m, err) { break } }) ends
// the run as that iterator's body does.
func (r *rec) iterBody(f *ir.Func) bool {
	if f.Parent < 0 || f.Launch != "return" || len(f.Results) != 0 || len(f.Params) != 1 || f.Params[0].Kind != "func" {
		return false
	}
	p := r.p.Funcs[f.Parent]
	return len(p.Results) > 0 && p.Results[0] == "iterator"
}

// failsUnstarted reports whether every error return of the functions call c runs that reach
// a turn loop is an exit before the run starts (not_started): when c failed, no run began.
func (r *rec) failsUnstarted(c *ir.Call, reaches map[int]*reach, depth int) bool {
	if depth > 3 || len(c.Targets) == 0 || len(c.Targets) > 8 {
		return false
	}
	n := 0
	for _, t := range c.Targets {
		if reaches[t] == nil {
			continue
		}
		errs, ok := r.unstartedErrs(t, reaches, depth)
		if !ok {
			return false
		}
		n += errs
	}
	return n > 0
}

// unstartedErrs counts the error returns of function id, and reports whether every one of
// them is an exit before the run starts (memoized: the exits are followed once per function).
func (r *rec) unstartedErrs(id int, reaches map[int]*reach, depth int) (int, bool) {
	if m, ok := r.unstarted[id]; ok {
		return m.n, m.ok
	}
	if r.unstarted == nil {
		r.unstarted = map[int]struct {
			n  int
			ok bool
		}{}
	}
	g := r.p.Funcs[id]
	outcome := map[model.Position]string{}
	for _, ex := range r.exits(g, reaches, depth+1, map[int]bool{}) {
		if o, ok := outcome[ex.Pos]; ok && o != ex.Outcome {
			ex.Outcome = "" // several outcomes at one return: not only before the start
		}
		outcome[ex.Pos] = ex.Outcome
	}
	n, ok := 0, true
	for _, ret := range g.Returns {
		if ret.Err == nil || ret.Err.Kind == ir.ValNil || ret.Raise || !ret.Pos.IsValid() {
			continue
		}
		if outcome[pos(ret.Pos)] != model.OutcomeNotStarted {
			ok = false
			break
		}
		n++
	}
	r.unstarted[id] = struct {
		n  int
		ok bool
	}{n, ok}
	return n, ok
}

// startsStep reports whether call ci of f runs, through the call graph, one of the model call
// sites of the turn loops f reaches, or a model call site known from the lifecycle pass: the
// run's first decision made before the loop (a state machine's start step: start ->
// Engine.Start -> complete -> Model.Call) starts the run as the loop would. A call that leads
// to the loop itself is a launch already (reach.launch).
func (r *rec) startsStep(f *ir.Func, ci int, x *reach, reaches map[int]*reach) bool {
	if ci < 0 || ci >= len(f.Calls) || len(x.loops) == 0 {
		return false
	}
	c := &f.Calls[ci]
	if len(c.Targets) == 0 || len(c.Targets) > 8 {
		return false
	}
	sets := []map[int]bool{r.modelCallers(nil, r.o.ModelSites, reaches)}
	for _, l := range x.loops {
		sets = append(sets, r.modelCallers(l, l.Map.ModelCalls, reaches))
	}
	for _, up := range sets {
		for _, t := range c.Targets {
			if up[t] {
				return true
			}
		}
	}
	return false
}

// runsTool reports whether call ci of f, a static call of a function of the program outside
// the loops f reaches, runs one of the functions that a tool call site of those loops runs
// (searchResult, err := tool.TavilySearch(query) before the loop whose tool call site is
// tool.TavilySearch(newQuery)). The exits asking are those taken when that call failed.
func (r *rec) runsTool(f *ir.Func, ci int, x *reach) bool {
	if ci < 0 || ci >= len(f.Calls) || len(x.loops) == 0 {
		return false
	}
	c := &f.Calls[ci]
	if len(c.Targets) != 1 || len(c.Loops) > 0 || c.Abstract != "" {
		return false
	}
	for _, l := range x.loops {
		if r.toolTargets(l)[c.Targets[0]] {
			return true
		}
	}
	return false
}

// toolTargets are the functions loop l's tool call sites run by a static call (memoized).
func (r *rec) toolTargets(l *Loop) map[int]bool {
	if m, ok := r.toolRun[l]; ok {
		return m
	}
	out := map[int]bool{}
	at := map[model.Position]bool{}
	for _, tc := range l.Map.ToolCalls {
		at[tc.Pos] = true
	}
	if len(at) > 0 && len(at) <= 8 {
		// (a handful of tools, each a function of its own; the dozens of helpers a large
		// run loop reaches through its dispatch are not a run's own tools)
		for _, g := range r.p.Funcs {
			for _, c := range g.Calls {
				if at[pos(c.Pos)] && len(c.Targets) == 1 && c.Abstract == "" {
					out[c.Targets[0]] = true
				}
			}
		}
	}
	if r.toolRun == nil {
		r.toolRun = map[*Loop]map[int]bool{}
	}
	r.toolRun[l] = out
	return out
}

// modelCallers are the functions that make one of the model calls sites (loop l's, or the
// known ones when l is nil): the functions holding them, the helpers a site runs whose results
// it returns (Continue -> complete), and their callers up the call graph (14 calls at most),
// through static calls of functions that do not reach a turn loop themselves. Memoized per
// loop.
func (r *rec) modelCallers(l *Loop, sites []model.CallSite, reaches map[int]*reach) map[int]bool {
	if m, ok := r.modelUp[l]; ok {
		return m
	}
	at := map[model.Position][]string{}
	for _, m := range sites {
		at[m.Pos] = append(at[m.Pos], m.Callee)
	}
	out := map[int]bool{}
	var queue []int
	seed := func(id int) {
		if !out[id] {
			out[id] = true
			queue = append(queue, id)
		}
	}
	// the helpers a site runs to reach the provider, whose results it passes on (Continue ->
	// complete): another caller of them makes the same model call
	var down func(c *ir.Call, depth int)
	down = func(c *ir.Call, depth int) {
		if depth > 3 || len(c.Targets) != 1 || out[c.Targets[0]] {
			return
		}
		seed(c.Targets[0])
		g := r.p.Funcs[c.Targets[0]]
		for _, ret := range g.Returns {
			if v := ret.Err; v != nil && v.Kind == ir.ValCall && v.Call >= 0 && v.Call < len(g.Calls) {
				down(&g.Calls[v.Call], depth+1)
			}
		}
	}
	if len(at) > 0 {
		for _, g := range r.p.Funcs {
			if g.Test {
				continue
			}
			for i := range g.Calls {
				c := &g.Calls[i]
				callees, ok := at[pos(c.Pos)]
				if !ok {
					continue
				}
				// the call the site names, of the calls on its line
				same := slices.Contains(callees, calleeName(c))
				if !same {
					n := 0
					for _, o := range g.Calls {
						if pos(o.Pos) == pos(c.Pos) {
							n++
						}
					}
					same = n == 1
				}
				if same {
					seed(g.ID)
					down(c, 0)
				}
			}
		}
	}
	for d := 0; len(queue) > 0 && d < 14 && len(out) < 3000; d++ {
		var next []int
		for _, id := range queue {
			for _, ref := range r.callers[id] {
				c := &r.p.Funcs[ref.Func].Calls[ref.Call]
				if len(c.Targets) > 2 || !slices.Contains(c.Targets, id) {
					// (a dynamic call resolved to many candidates, a callback handed over: too
					// loose to say the caller makes the model call)
					continue
				}
				if x := reaches[ref.Func]; x != nil {
					if _, ok := x.launch[ref.Call]; ok {
						continue // the call leads to a loop: it launches the run (reach.launch)
					}
				}
				if !out[ref.Func] {
					out[ref.Func] = true
					next = append(next, ref.Func)
				}
			}
		}
		queue = next
	}
	if r.modelUp == nil {
		r.modelUp = map[*Loop]map[int]bool{}
	}
	r.modelUp[l] = out
	return out
}

// drainedExits are the exits of the run a generator f drains and relays (async for ev in
// self._run_loop(…): yield …): the stream of a call that leads to the turn loop, or built
// around a call that does (invoke(stage, ctx, self._make_terminal(…))): the run ends in that
// generator, whose outcomes reach f's consumer as the events it relays.
func (r *rec) drainedExits(f *ir.Func, x *reach, reaches map[int]*reach, depth int, seen map[int]bool) []model.Exit {
	var out []model.Exit
	for _, l := range f.Loops {
		if l.Kind != ir.LoopRangeIter || l.OverCall >= len(f.Calls) {
			continue
		}
		oc := ir.Call{ID: -1}
		if l.OverCall >= 0 {
			oc = f.Calls[l.OverCall]
		}
		for _, c := range f.Calls {
			if _, ok := x.launch[c.ID]; !ok {
				continue
			}
			// the drained call, or a call in the loop's header (its arguments)
			// (or the call of the iterator it returned that a range-over-func loop makes, which
			// has no position of its own)
			if c.ID != oc.ID && c.Pos.IsValid() && (c.Pos.File != l.Pos.File || c.Pos.Line < l.Pos.Line || c.Pos.Line >= l.End.Line || contains(c.Loops, l.ID)) {
				continue
			}
			for _, t := range c.Targets {
				if reaches[t] != nil {
					out = append(out, r.exitsOf(r.p.Funcs[t], reaches, depth+1, seen, true)...)
				}
			}
		}
	}
	return out
}

// stateOutcomes map each word of a recorded state (ir.StateWords) to its outcome.
var stateOutcomes = map[string]struct {
	outcome model.RunStatus
	reason  model.StopReason
}{
	"cancel": {model.StatusCancelled, model.StopCancelled}, "abort": {model.StatusCancelled, model.StopCancelled},
	"interrupt": {model.StatusWaiting, ""}, "approval": {model.StatusWaiting, model.StopAwaitingApproval},
	"waiting": {model.StatusWaiting, ""}, "paused": {model.StatusWaiting, ""},
	"error": {model.StatusFailed, model.StopError}, "fail": {model.StatusFailed, model.StopError},
	"complete": {model.StatusCompleted, model.StopGoalReached}, "final": {model.StatusCompleted, model.StopGoalReached},
	"finish": {model.StatusCompleted, model.StopGoalReached}, "success": {model.StatusCompleted, model.StopGoalReached},
	"done": {model.StatusCompleted, model.StopGoalReached},
	// a limit's words name a stop reason, no outcome: the return's own way says failed or
	// completed (see recognize.onBound)
	"maxturn": {"", model.StopMaxTurns}, "maxstep": {"", model.StopMaxSteps}, "maxiteration": {"", model.StopMaxSteps},
	"maxround": {"", model.StopMaxSteps}, "turnlimit": {"", model.StopMaxTurns}, "steplimit": {"", model.StopMaxSteps},
}

// stateOutcome maps a recorded state's discriminator to an outcome, "" when it names none:
// the outcome of the first of ir.StateWords the state contains.
func stateOutcome(state string) (string, model.StopReason) {
	o, ok := stateOutcomes[ir.StateWord(state)]
	if !ok {
		return "", ""
	}
	return string(o.outcome), o.reason
}

// loopedOn reports whether every call of h from a function that reaches a loop is the
// condition of a loop of its caller (while (await this.turn()) {}).
func (r *rec) loopedOn(h *ir.Func, reaches map[int]*reach) bool {
	n := 0
	for _, ref := range r.callers[h.ID] {
		if reaches[ref.Func] == nil {
			continue
		}
		g := r.p.Funcs[ref.Func]
		c := g.Calls[ref.Call]
		cond := false
		for _, l := range g.Loops {
			cond = cond || c.Text != "" && strings.Contains(l.Cond, c.Text)
		}
		if !cond {
			return false
		}
		n++
	}
	return n > 0
}

// wrapsStream reports whether a returned construction is built from the result of a call
// that leads to the loop and hands back a stream or generator (ir.Return.Wraps).
func (r *rec) wrapsStream(f *ir.Func, ret ir.Return, x *reach) bool {
	for _, ci := range ret.Wraps {
		if _, ok := x.launch[ci]; ok && ci < len(f.Calls) && r.streamsRun(&f.Calls[ci], 0) {
			return true
		}
	}
	return false
}

// streamsRun reports whether call c returns a generator or stream: a callee that is one, or
// that returns the result of a call that does (return super.stream(...) reaching an async
// generator), a few calls deep.
func (r *rec) streamsRun(c *ir.Call, depth int) bool {
	for _, t := range c.Targets {
		g := r.p.Funcs[t]
		if len(g.Results) > 0 && (g.Results[0] == "iterator" || g.Results[0] == "stream") {
			return true
		}
		for _, rt := range g.Returns {
			if rt.Err == nil || rt.Err.Kind != ir.ValCall || rt.Err.Call < 0 || rt.Err.Call >= len(g.Calls) {
				continue
			}
			if rt.Err.Stream || depth < 3 && r.streamsRun(&g.Calls[rt.Err.Call], depth+1) {
				return true
			}
		}
	}
	return false
}

// holderExits are the exits of the functions holding the turn loops f reaches when nothing
// on the way reads what the holder returns: f starts the run in the background (every call
// of f that leads to a loop is concurrent), or every call of the holder from a function
// that reaches the loop drops its result (await runLoop(...); return newMessages). Then the
// run ends where the holder leaves its loop. A holder whose result its caller reads hands
// back what the caller decides on (a state it inspects), so its returns are no exits.
// Returns of a holder that run before its loop are left out (f's own exits say whether the
// run starts), and so are its pass-throughs.
func (r *rec) holderExits(f *ir.Func, x *reach, reaches map[int]*reach, seen map[int]bool) []model.Exit {
	background := len(x.launch) > 0
	for _, conc := range x.launch {
		background = background && conc
	}
	var out []model.Exit
	for _, l := range x.loops {
		h := l.Func
		if h.ID == f.ID || seen[h.ID] {
			continue
		}
		dropped := len(r.callers[h.ID]) > 0
		for _, ref := range r.callers[h.ID] {
			if reaches[ref.Func] != nil {
				dropped = dropped && r.p.Funcs[ref.Func].Calls[ref.Call].Dropped
			}
		}
		if !background && !dropped && len(x.opaque) == 0 {
			// (reached through an awaited callback of a callee outside the program, the
			// holder's returns are how the run ends: they reach f only through that callee)
			continue
		}
		// a holder its caller loops on (while (await this.turn()) {}): returning true goes
		// on to the caller's next round, it ends nothing
		goOn := map[model.Position]bool{}
		if r.loopedOn(h, reaches) {
			for _, rt := range h.Returns {
				if len(rt.Values) == 1 && rt.Values[0].Kind == ir.ValConst && (rt.Values[0].Text == "true" || rt.Values[0].Text == "True") {
					goOn[pos(rt.Pos)] = true
				}
			}
		}
		for _, ex := range r.exits(h, reaches, 1, seen) {
			if goOn[ex.Pos] {
				continue
			}
			// (a holder's pass-through says nothing of the run's end: a bare return of a
			// goroutine whose outcome goes out on a channel, a rethrow)
			if ex.Outcome != model.OutcomeNotStarted && ex.Outcome != model.OutcomePropagated {
				out = append(out, ex)
			}
		}
	}
	return out
}

// boundExits are the raises at the bounds of loops, where no exit stands for them yet: a
// limit checked in a helper the loop calls (prepareTurn throws MaxTurnsExceededError) ends
// the run where it raises.
func boundExits(loops []model.Loop, have []model.Exit) []model.Exit {
	var out []model.Exit
	for _, l := range loops {
		ob := l.OnBound
		if ob == nil || ob.Kind != model.OnBoundError || ob.Pos.File == "" {
			continue
		}
		dup := false
		for _, ex := range append(have, out...) {
			dup = dup || ex.Pos == ob.Pos || ob.StopReason != "" && ex.StopReason == ob.StopReason && ex.Outcome == string(model.StatusFailed)
		}
		if !dup {
			out = append(out, model.Exit{Pos: ob.Pos, Source: ob.Source, Outcome: string(model.StatusFailed), StopReason: ob.StopReason, Detail: ob.Value})
		}
	}
	return out
}

// sharedBoundAt reports whether return ri of f is a loop's return at the bound that is also
// its final answer's, handing back what a call made after the loop returns (see finalBound).
func (r *rec) sharedBoundAt(f *ir.Func, ri int) bool {
	for _, l := range r.order {
		if l.sharedBound && l.boundFunc == f && l.atBound == ri {
			return true
		}
	}
	return false
}

// afterRun reports whether call ci of f runs nothing of the run f drives: it is made outside
// the loops, leads to no turn loop and makes none of the run's model calls (a completion
// hook, a save after the loop). Its error is the run's failure, not an outcome passed through.
//
// A hook called through a func value inside a loop (if err := cfg.loopHook(ctx, i, input);
// err != nil { return err }) is such a call too: it is told of the step, and its error ends
// the run that is under way.
func (r *rec) afterRun(f *ir.Func, x *reach, reaches map[int]*reach, ci int) bool {
	if x == nil || ci < 0 || ci >= len(f.Calls) || len(f.Calls[ci].Loops) > 0 && !r.funcValueCall(f, ci) {
		return false
	}
	if _, ok := x.launch[ci]; ok {
		return false
	}
	return !r.startsStep(f, ci, x, reaches)
}

// silentBoundAt reports whether a loop ends silently at its bound with the return at p (a
// last model request's answer handed back, see finalBound).
func (r *rec) silentBoundAt(p ir.Pos) bool {
	for _, l := range r.order {
		if ob := l.Map.OnBound; ob != nil && ob.Kind == model.OnBoundSilent && ob.Pos == pos(p) {
			return true
		}
	}
	return false
}

// atBound reports whether the return ret of f is what a loop does at its bound: the on-bound
// return itself, or a return of the error of a helper whose only error is the one it returns
// at the bound (a limit checked in a helper the loop calls). A bound that does not say why
// the loop ended (a stop-condition list whose exit is also the final answer's) marks no exit.
func (r *rec) atBound(f *ir.Func, ret ir.Return) (bool, model.StopReason) {
	at := func(p ir.Pos, errOnly bool) (bool, model.StopReason) {
		for _, l := range r.order {
			ob := l.Map.OnBound
			if ob == nil || ob.StopReason == "" || ob.Pos.File != p.File || ob.Pos.Line != p.Line {
				continue
			}
			if errOnly && ob.Kind != model.OnBoundError {
				continue
			}
			return true, ob.StopReason
		}
		return false, ""
	}
	if ok, sr := at(ret.Pos, false); ok {
		return ok, sr
	}
	// the error of a helper (possibly wrapped, through helpers) whose only error is the bound's
	var only func(f *ir.Func, ret ir.Return, depth int) (bool, model.StopReason)
	only = func(f *ir.Func, ret ir.Return, depth int) (bool, model.StopReason) {
		if depth > 3 || ret.Err == nil || (ret.Err.Kind != ir.ValCall && ret.Err.Kind != ir.ValError) || ret.Err.Call < 0 || ret.Err.Call >= len(f.Calls) {
			return false, ""
		}
		for _, t := range f.Calls[ret.Err.Call].Targets {
			g := r.p.Funcs[t]
			var bound bool
			var sr model.StopReason
			others := false
			for _, gr := range g.Returns {
				if gr.Err == nil || gr.Err.Kind == ir.ValNil {
					continue
				}
				if ok, s := at(gr.Pos, true); ok {
					bound, sr = true, s
				} else if ok, s := only(g, gr, depth+1); ok {
					bound, sr = true, s
				} else {
					others = true
				}
			}
			if bound && !others {
				return true, sr
			}
		}
		return false, ""
	}
	return only(f, ret, 0)
}

// allResume reports whether every successful return of f hands back a resume state (then
// the state is just the updated conversation, not a sign of waiting).
func allResume(f *ir.Func) bool {
	for _, r := range f.Returns {
		if r.Err != nil && r.Err.Kind == ir.ValNil && !r.Resume {
			return false
		}
	}
	return true
}

// returnsFunc reports whether ret returns a stream or function value that is not nil.
func returnsFunc(ret ir.Return) bool {
	for _, v := range ret.Values {
		if v.Stream && v.Kind != ir.ValNil && v.Kind != ir.ValCall {
			return true
		}
	}
	return false
}

// answers reports whether a return hands back a result without an error: a nil error with a
// value that is neither nil, a zero constant, nor a stream the caller still has to drain.
func answers(ret ir.Return) bool {
	if ret.Err == nil || ret.Err.Kind != ir.ValNil {
		return false
	}
	for i, v := range ret.Values {
		if i == len(ret.Values)-1 || v.Stream {
			continue
		}
		switch v.Kind {
		case ir.ValNil:
		case ir.ValConst:
			if v.Text != `""` && v.Text != "0" && v.Text != "false" && v.Text != "''" {
				return true
			}
		case ir.ValCall:
		default:
			return true
		}
	}
	return false
}

func streams(ret ir.Return) bool {
	for _, v := range ret.Values {
		if v.Stream && v.Kind != ir.ValNil {
			return true
		}
	}
	return false
}

// runIDField matches the fields that hold the id of a run or of one of its layers.
var runIDField = regexp.MustCompile(`(?i)(run|trace|session|invocation|execution|conversation|span|turn|step|thread|request)_?id$`)

// bareID matches an id field that says nothing of what it identifies; its holder's type does.
var bareID = regexp.MustCompile(`(?i)^_?id$`)

// runLayerType matches the names of types that stand for a run or one of its layers (a run's
// or call's context, an invocation, a session).
var runLayerType = regexp.MustCompile(`(?i)(run|runner|trace|session|invocation|execution|conversation|span|turn|step|thread|context|ctx|call|task|checkpoint)$`)

// toolCallType matches the names of types that stand for one tool call the model asked for
// (a FunctionCall, a ToolCall): their id pairs the call with its result, it is not a run's.
var toolCallType = regexp.MustCompile(`(?i)(tool|function)_?call$`)

// runLayer reports whether one of the types holding a field stands for a run or a layer of it.
// agentOwned reports whether the innermost type holding a field is an agent type (the receiver
// of a method holding a turn loop): a worker's ID is its run's id, its ParentID its parent's.
func (r *rec) agentOwned(owners []string) bool {
	return len(owners) > 0 && r.agentTypes[owners[0]]
}

func runLayer(owners []string) bool {
	for _, o := range owners {
		if runLayerType.MatchString(o) && !toolCallType.MatchString(o) {
			return true
		}
	}
	return false
}

// ids lists the id mints of the code f runs: ids stored into a run, trace, session or step id
// field, or minted without being stored into a field.
func (r *rec) ids(f *ir.Func) []model.IDSite {
	var out []model.IDSite
	seen := map[int]bool{f.ID: true}
	queue := []int{f.ID}
	// a closure reached through a dynamic call (an option func applied by a constructor, o(w))
	// runs for this entry only when the entry ran the function that made it (WithParent(id)):
	// such closures wait until their maker is seen
	var waiting []int
	for d := 0; (len(queue) > 0 || len(waiting) > 0) && d < 1500; d++ {
		if len(queue) == 0 {
			var still []int
			for _, w := range waiting {
				if seen[w] {
					continue
				}
				if seen[r.p.Funcs[w].Parent] {
					seen[w] = true
					queue = append(queue, w)
				} else {
					still = append(still, w)
				}
			}
			if len(queue) == 0 {
				break
			}
			waiting = still
		}
		g := r.p.Funcs[queue[0]]
		queue = queue[1:]
		for _, m := range g.Mints {
			if m.Kind == "parent" {
				if runLayer(m.Owners) || runIDField.MatchString(m.Field) || r.agentOwned(m.Owners) {
					out = append(out, model.IDSite{Pos: pos(m.Pos), Source: m.Source, Kind: model.IDParent, What: m.Text})
				}
				continue
			}
			if m.Field != "" && !runIDField.MatchString(m.Field) && !(bareID.MatchString(m.Field) && (runLayer(m.Owners) || r.agentOwned(m.Owners))) {
				continue // a message, tool call or record id, not a run's
			}
			what := m.Text
			if m.Field != "" {
				what += " → " + m.Field
			}
			out = append(out, model.IDSite{Pos: pos(m.Pos), Source: m.Source, Kind: model.IDMinted, What: what})
		}
		for _, cl := range r.closures[g.ID] {
			// the closures g launches, defers or returns to the caller that drains them (an
			// iterator's body mints the run's id) run its code too; a callback it stores is a
			// handler of something else (closures called in place are call targets already)
			switch fn := r.p.Funcs[cl]; {
			case fn.Launch == "return" || fn.Launch == "go" || fn.Launch == "errgroup" || fn.Launch == "defer" || fn.BodyOf >= 0:
			default:
				continue
			}
			if !seen[cl] {
				seen[cl] = true
				queue = append(queue, cl)
			}
		}
		for _, c := range g.Calls {
			if len(c.Targets) > 3 {
				if c.Abstract == "" && len(c.Targets) <= 64 && r.allClosures(c.Targets) {
					// for _, fn := range optFns { fn(&opts) } in a constructor many callers hand
					// option closures to: of those, the closures made by code this entry ran
					// (func(mo *ManagerOptions) { mo.ParentRunID = opts.ParentRunID })
					for _, t := range c.Targets {
						if !seen[t] && !slices.Contains(waiting, t) {
							waiting = append(waiting, t)
						}
					}
				}
				continue // a dynamic call with many implementations: not followed for ids
			}
			next := c.Targets
			if r.callsParam(c.Targets) {
				next = append(append([]int{}, c.Targets...), c.ArgFuncs...) // callbacks the call runs
			}
			for _, t := range next {
				if seen[t] {
					continue
				}
				if pa := r.p.Funcs[t].Parent; pa >= 0 && pa != g.ID && !seen[pa] {
					if !slices.Contains(waiting, t) {
						waiting = append(waiting, t)
					}
					continue
				}
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}

// allClosures reports whether every function of ids is a closure (a function literal).
func (r *rec) allClosures(ids []int) bool {
	for _, id := range ids {
		if r.p.Funcs[id].Parent < 0 {
			return false
		}
	}
	return true
}

// startsAsync reports whether a successful return of the function only starts the run (it
// launches the loop concurrently): an error it returns means the run never started.
func (r *rec) startsAsync(id int, reaches map[int]*reach, depth int) bool {
	if depth > 3 {
		return false
	}
	// depth carries on from the exits that asked: exits and startsAsync call each other on
	// mutually recursive functions (a run whose tools are child runs)
	for _, ex := range r.exits(r.p.Funcs[id], reaches, depth+1, map[int]bool{}) {
		if ex.Outcome == model.OutcomeStarted {
			return true
		}
	}
	return false
}

// valueOnly reports whether call id of f runs one function of the program every return of
// which is a value (no error, raise or pass-through): returning its result completes the run.
func (r *rec) valueOnly(f *ir.Func, id int) bool { return r.valueOnlyAt(f, id, 0) }

func (r *rec) valueOnlyAt(f *ir.Func, id, depth int) bool {
	if id < 0 || id >= len(f.Calls) || len(f.Calls[id].Targets) != 1 {
		return false
	}
	g := r.p.Funcs[f.Calls[id].Targets[0]]
	if len(g.Returns) == 0 || len(g.Results) > 0 && (g.Results[0] == "iterator" || g.Results[0] == "stream" || g.Results[0] == "chan") {
		return false
	}
	if r.funcValueCall(f, id) {
		// cfg.loopHook(ctx, i, input): a func value whose one known target is the no-op
		// default a constructor installs and an option replaces, not a helper of this code
		// that builds the result: its error is the hook's refusal
		return false
	}
	values := 0
	for _, rt := range g.Returns {
		if !rt.Raise {
			values++
		}
		switch {
		case rt.Raise:
			// a raise is a failure of its own (an exit of the run where it propagates), not
			// a way the helper hands back a result
		case rt.Err != nil && rt.Err.Kind == ir.ValCall && depth < 3 && r.valueOnlyAt(g, rt.Err.Call, depth+1):
			// return completeResult(result): a helper that only builds the result
		case rt.Err != nil && rt.Err.Kind != ir.ValNil:
			return false
		}
	}
	return values > 0
}

// funcValueCall reports whether call id of f runs a func value that code elsewhere set: a
// value of a named func type (cfg.loopHook of type LoopHook, whose known target
// defaultLoopHook implements nothing of that name), or a closure another function made.
func (r *rec) funcValueCall(f *ir.Func, id int) bool {
	c := &f.Calls[id]
	if len(c.Targets) != 1 {
		return false
	}
	g := r.p.Funcs[c.Targets[0]]
	return g.Parent >= 0 && g.Parent != f.ID && g.Parent != f.Parent ||
		c.Abstract != "" && c.Abstract != g.Key && !slices.Contains(g.Implements, c.Abstract)
}

// startedIn reports whether exits hand back a run still running in the background: one
// does, and the others are refusals to start.
func startedIn(exits []model.Exit) bool {
	started := false
	for _, x := range exits {
		switch x.Outcome {
		case model.OutcomeStarted:
			started = true
		case model.OutcomeNotStarted:
		default:
			return false
		}
	}
	return started
}

// templateCall reports whether c calls a method on the instance itself in a language with
// classes (this._run(...), self._step(...)): its targets are the overrides of the subclasses,
// one of which the instance is, not unrelated implementations of an interface.
func (r *rec) templateCall(c *ir.Call) bool {
	if r.p.Lang == "go" {
		return false
	}
	return strings.HasPrefix(c.Text, "this.") || strings.HasPrefix(c.Text, "self.")
}

// heldIn reports whether one of loops is a turn loop the function of x holds.
func heldIn(x *reach, loops []int) bool {
	for _, li := range loops {
		if x.holds[li] {
			return true
		}
	}
	return false
}
