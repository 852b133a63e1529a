// Package join puts a trace and a lifecycle map together: for each run of a lifecycle tree
// (model.Tree, from a log) it finds the code of a lifecycle map (model.Map, from the framework's
// source) that explains it — the exit that produced the run's final status and stop reason, the
// turn loop and bound when the run hit a bound, the model and tool call sites its calls went
// through, the site that links it to its parent run — each match with a confidence and the
// reason for it. What the map cannot explain is reported as a finding (docs/checks/join-*.md):
// a run longer than its bound, a cancelled run whose loops never check cancellation, a status no
// exit produces, a tool name the code never writes.
//
// Join is a pure function of its inputs: it reads the tree and the map and writes neither.
// Cover adds the result to the map as coverage (model.Coverage on each element).
package join

import (
	"sort"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Confidence says how sure a match is.
type Confidence string

// Confidence levels, strongest first.
const (
	// High: the trace's own words (a stop reason, an error type, a literal of the error text, a
	// run kind) name the code element, and nothing else fits as well.
	High Confidence = "high"
	// Medium: the outcome fits and the element is the only one of its kind, or the trace's
	// words fit several elements equally.
	Medium Confidence = "medium"
	// Low: only the outcome (or only the shape) fits.
	Low Confidence = "low"
)

// Site is a code element a run was matched to.
type Site struct {
	Pos model.Position `json:"pos"`
	// Source is the site's source line; JSON has it once, in Result.Sources.
	Source string `json:"-"`
	// Func is the run entry (or the loop's function) the element belongs to.
	Func       string     `json:"func,omitempty"`
	Confidence Confidence `json:"confidence"`
	// Reason says why the element was matched.
	Reason string `json:"reason"`
}

// ExitMatch is the exit that produced a run's final status.
type ExitMatch struct {
	Site
	// Kind is "exit" (an exit of the map) or "raise" (the throw, raise or error return at a
	// loop's bound, when no exit of the map carries the run's outcome more closely).
	Kind       string           `json:"kind"`
	Outcome    string           `json:"outcome"`
	StopReason model.StopReason `json:"stop_reason,omitempty"`
	// Entries are the run entries the exit belongs to.
	Entries []string `json:"entries,omitempty"`
	// Others are exits that fit as well (same score): the trace cannot tell them apart.
	Others []model.Position `json:"others,omitempty"`
}

// BoundMatch is the turn loop and bound a run hit (or, for a run that did not stop at a bound,
// the bound that applies when its step count says something about it).
type BoundMatch struct {
	Site
	// Loop is the turn loop the bound limits; OtherLoops are further loops with the same bound.
	Loop       model.Position   `json:"loop"`
	OtherLoops []model.Position `json:"other_loops,omitempty"`
	Expr       string           `json:"expr"`
	Default    string           `json:"default,omitempty"`
	DefaultPos model.Position   `json:"default_pos,omitzero"`
	// DefaultEnv is the environment variable that replaces the default when set, if any.
	DefaultEnv string `json:"default_env,omitempty"`
	// OnBound is what the code does at the bound (its position and stop reason).
	OnBound    model.Position   `json:"on_bound,omitzero"`
	StopReason model.StopReason `json:"stop_reason,omitempty"`
	// Hit is true when the run stopped at this bound (its stop reason is the bound's).
	Hit bool `json:"hit"`
	// Steps is the run's step count: each iteration of a turn loop is one Step.
	Steps int `json:"steps"`
	// Agrees compares Steps with the default: "equal" (the run stopped at the default bound),
	// "below" (the run was given a lower limit, or did not reach it), "above" (the run went past
	// the default), "unknown" (no numeric default).
	Agrees string `json:"agrees"`
}

// CallMatch is the code site a run's model or tool calls went through.
type CallMatch struct {
	Site
	// Kind is "model" or "tool".
	Kind string `json:"kind"`
	// Name is the model or tool name of the trace ("" when the trace names none).
	Name string `json:"name,omitempty"`
	// Calls is how many of the run's calls of that name went through the site.
	Calls  int    `json:"calls"`
	Callee string `json:"callee"`
	// Registered is where the mapped code writes the tool's name, if it does.
	Registered model.Position `json:"registered,omitzero"`
	// Others are further call sites that fit as well: the trace cannot tell them apart.
	Others []model.Position `json:"others,omitempty"`
}

// ParentMatch is the code that linked a run to its parent run.
type ParentMatch struct {
	ParentRunID string `json:"parent_run_id"`
	Kind        string `json:"kind,omitempty"`
	// Sites are the id sites that pass a parent run id, best first.
	Sites []Site `json:"sites"`
}

// Run is what the map explains of one run.
type Run struct {
	RunID      string           `json:"run_id"`
	SessionID  string           `json:"session_id"`
	Status     model.RunStatus  `json:"status"`
	StopReason model.StopReason `json:"stop_reason,omitempty"`
	Steps      int              `json:"steps"`
	Exit       *ExitMatch       `json:"exit,omitempty"`
	// Pauses are the exits of the run's earlier waiting statuses (a pause for approval or
	// input the run resumed from), in order.
	Pauses []ExitMatch  `json:"pauses,omitempty"`
	Bound  *BoundMatch  `json:"bound,omitempty"`
	Calls  []CallMatch  `json:"calls,omitempty"`
	Parent *ParentMatch `json:"parent,omitempty"`
	// Origin is the trace record that opened the run.
	Origin *model.Origin `json:"origin,omitempty"`
}

// Finding is behaviour of a run that the map does not explain.
type Finding struct {
	// Check is the finding's id, documented in docs/checks/<Check>.md.
	Check    string         `json:"check"`
	Severity model.Severity `json:"severity"`
	RunID    string         `json:"run_id"`
	// Origin is the trace record the finding is about; Pos the code it is about, if any.
	Origin  *model.Origin  `json:"origin,omitempty"`
	Pos     model.Position `json:"pos,omitzero"`
	Message string         `json:"message"`
}

// String is "origin: check severity: message (code pos)".
func (f Finding) String() string {
	where := "run " + f.RunID
	if f.Origin != nil {
		where = f.Origin.String()
	}
	s := where + ": " + f.Check + " " + string(f.Severity) + ": " + f.Message
	if f.Pos.IsValid() {
		s += " (" + f.Pos.String() + ")"
	}
	return s
}

// The finding ids (docs/checks/<id>.md).
const (
	CheckPastBound        = "join-pastbound"        // a run took more steps than its loop's bound allows
	CheckCancelUnchecked  = "join-cancelunchecked"  // a cancelled run whose turn loops never check cancellation
	CheckStatusNoExit     = "join-statusnoexit"     // a final status no exit of the map produces
	CheckToolUnregistered = "join-toolunregistered" // a tool name the mapped code never writes
)

// Checks lists the finding ids with their one-line statements.
var Checks = []struct{ ID, Title string }{
	{CheckPastBound, "a run took more steps than the bound of its turn loop allows by default"},
	{CheckCancelUnchecked, "a cancelled run, but none of the turn loops it can run checks cancellation"},
	{CheckStatusNoExit, "a run ended with a status no exit of the map produces"},
	{CheckToolUnregistered, "a run called a tool whose name the mapped code never writes"},
}

// Result is the join of a tree and a map.
type Result struct {
	Runs     []Run     `json:"runs"`
	Findings []Finding `json:"findings"`
	// Sources are the source lines of the sites the runs matched, by position ("file:line").
	Sources map[string]string `json:"sources,omitempty"`
}

// Names tells whether a name is written as a string literal in the mapped code, and where. A
// nil Names (no index of the code's literals) turns the tool-name check off.
type Names interface {
	Lookup(name string) (model.Position, bool)
}

// Sentinels is what a Names may also know: the message of a sentinel error by its name
// (ErrNotFinished → "agent not finished before max iterations").
type Sentinels interface {
	SentinelMessage(name string) (string, bool)
}

// Options tune Join.
type Options struct {
	// Names indexes the string literals of the mapped code (tool names registered in code);
	// when it also implements Sentinels, an exit returning a sentinel error is matched on the
	// sentinel's message in the trace's error text.
	Names Names
}

// Join matches every run of t to the code of m.
func Join(t *model.Tree, m *model.Map, opts Options) *Result {
	ix := newIndex(m)
	if s, ok := opts.Names.(Sentinels); ok && opts.Names != nil {
		ix.sentinels = s
	}
	n := 0
	for _, se := range t.Sessions {
		n += len(se.Runs)
	}
	res := &Result{Runs: make([]Run, 0, n), Findings: []Finding{}}
	for _, se := range t.Sessions {
		for _, r := range se.Runs {
			jr, fs := ix.run(r, opts)
			res.Runs = append(res.Runs, jr)
			res.Findings = append(res.Findings, fs...)
		}
	}
	res.Sources = ix.sources
	return res
}

// exitRef is one exit of the map with the entries it belongs to.
type exitRef struct {
	exit    model.Exit
	entries []string
}

// loopRef is one turn loop with the entries that run it.
type loopRef struct {
	loop    model.Loop
	entries []string
}

type index struct {
	m       *model.Map
	exits   []*exitRef
	loops   []*loopRef
	ids     []model.IDSite
	idFunc  []string
	entries []model.Entry
	// lits caches the literals of the code texts scored against runs.
	lits map[string][]string
	// picks caches call-site choices; loopSets the loops of each exit's entries.
	picks     map[pickKey]*picked
	exitCache map[string]*ExitMatch
	sentinels Sentinels
	// onBoundAt are the positions of the loops' OnBound sites.
	onBoundAt map[model.Position]bool
	// onBoundVal is what the code raises at each OnBound site (its value, as written).
	onBoundVal map[model.Position]string
	// endsOtherwise: some exit of the map ends a run otherwise than completed.
	endsOtherwise bool
	sources       map[string]string
	boundCache    map[boundKey]*BoundMatch
	loopSets      map[string][]*loopRef
}

// source records the source line of a matched site for Result.Sources.
func (ix *index) source(s Site) {
	if s.Source != "" {
		ix.sources[s.Pos.String()] = s.Source
	}
}

// literalsOf is literals(text), computed once per text.
func (ix *index) literalsOf(text string) []string {
	l, ok := ix.lits[text]
	if !ok {
		l = literals(text)
		ix.lits[text] = l
	}
	return l
}

func newIndex(m *model.Map) *index {
	ix := &index{m: m, onBoundAt: map[model.Position]bool{}, onBoundVal: map[model.Position]string{}, endsOtherwise: endsOtherwise(m), entries: m.Entries, lits: map[string][]string{}, picks: map[pickKey]*picked{}, exitCache: map[string]*ExitMatch{}, sources: map[string]string{}, boundCache: map[boundKey]*BoundMatch{}, loopSets: map[string][]*loopRef{}}
	exitAt := map[model.Position]*exitRef{}
	loopAt := map[model.Position]*loopRef{}
	idAt := map[model.Position]bool{}
	for _, e := range m.Entries {
		for _, x := range e.Exits {
			if r := exitAt[x.Pos]; r != nil {
				r.entries = append(r.entries, e.Func)
				continue
			}
			r := &exitRef{exit: x, entries: []string{e.Func}}
			exitAt[x.Pos] = r
			ix.exits = append(ix.exits, r)
		}
		for _, l := range e.Loops {
			if l.OnBound != nil {
				ix.onBoundAt[l.OnBound.Pos] = true
				ix.onBoundVal[l.OnBound.Pos] = l.OnBound.Value
			}
			if r := loopAt[l.Pos]; r != nil {
				r.entries = append(r.entries, e.Func)
				continue
			}
			r := &loopRef{loop: l, entries: []string{e.Func}}
			loopAt[l.Pos] = r
			ix.loops = append(ix.loops, r)
		}
		for _, id := range e.IDs {
			if id.Kind == model.IDParent && !idAt[id.Pos] {
				idAt[id.Pos] = true
				ix.ids = append(ix.ids, id)
				ix.idFunc = append(ix.idFunc, ix.enclosingEntry(id.Pos))
			}
		}
	}
	return ix
}

// enclosingEntry is the run entry whose declaration is the nearest one before pos in pos's
// file, or "" (the site is in a helper the map does not list as an entry).
func (ix *index) enclosingEntry(pos model.Position) string {
	best, line := "", 0
	for _, e := range ix.entries {
		if e.Pos.File == pos.File && e.Pos.Line <= pos.Line && e.Pos.Line > line {
			best, line = e.Func, e.Pos.Line
		}
	}
	return best
}

// evidence is what a run's trace says about its end: the words its errors use.
type evidence struct {
	status model.RunStatus
	stop   model.StopReason
	wait   model.WaitReason
	// atBound is the exit the run was matched to, when it is where a loop's bound is enforced
	// (the sentinel or raise at the bound): the run hit that bound whatever its stop reason says.
	atBound model.Position
	kinds   []string // error kinds (type names)
	texts   []string // error messages
	steps   int
	cancels bool
}

func runEvidence(r *model.Run) evidence {
	ev := evidence{status: r.Status, stop: r.StopReason, wait: r.WaitReason}
	add := func(e *model.ErrorInfo) {
		if e == nil {
			return
		}
		if e.Kind != "" {
			ev.kinds = append(ev.kinds, e.Kind)
		}
		if e.Message != "" {
			ev.texts = append(ev.texts, e.Message)
		}
	}
	add(r.Error)
	for _, tu := range r.Turns {
		add(tu.Error)
		ev.steps += len(tu.Steps)
		for _, st := range tu.Steps {
			add(st.Error)
		}
	}
	return ev
}

// score is a candidate's fit with its reasons.
type score struct {
	n       int
	reasons []string
	strong  bool // the trace's own words matched (not only the outcome)
}

func (s *score) add(n int, strong bool, reason string) {
	s.n += n
	s.strong = s.strong || strong
	s.reasons = append(s.reasons, reason)
}

// wordsFit scores the trace's error kinds and texts against code text (an exit's detail and
// source line, a bound's value): an error type named in the code, a literal of the code in the
// error text.
func (ix *index) wordsFit(s *score, ev evidence, code ...string) {
	if len(ev.kinds) == 0 && len(ev.texts) == 0 {
		return
	}
	text := strings.Join(code, "\n")
	for _, k := range ev.kinds {
		// A type name (MaxTurnsExceededError, GraphRecursionError), not a category word
		// ("model", "timeout") that any code line may hold as an identifier.
		if len(k) >= 5 && strings.ToLower(k) != k && identIn(text, k) {
			s.add(5, true, "error type "+k+" is the one the code raises")
			break
		}
	}
	for _, lit := range ix.literalsOf(text) {
		for _, msg := range ev.texts {
			if strings.Contains(msg, lit) {
				s.add(5, true, "the error text contains the code's literal "+strconv.Quote(lit))
				return
			}
		}
	}
	if ix.sentinels == nil {
		return
	}
	for _, id := range idents(text) {
		sm, ok := ix.sentinels.SentinelMessage(id)
		if !ok || len(sm) < 4 {
			continue
		}
		for _, msg := range ev.texts {
			if strings.Contains(msg, sm) {
				s.add(5, true, "the error text carries the message of sentinel "+id+" ("+strconv.Quote(sm)+")")
				return
			}
		}
	}
}

func statusWord(s model.RunStatus) string { return string(s) }

func (ix *index) run(r *model.Run, opts Options) (Run, []Finding) {
	ev := runEvidence(r)
	jr := Run{RunID: r.ID, SessionID: r.SessionID, Status: r.Status, StopReason: r.StopReason, Steps: ev.steps, Origin: r.Origin}
	var fs []Finding
	finding := func(check string, sev model.Severity, pos model.Position, msg string) {
		fs = append(fs, Finding{Check: check, Severity: sev, RunID: r.ID, Origin: r.Origin, Pos: pos, Message: msg})
	}
	if len(ix.m.Entries) == 0 {
		return jr, nil
	}
	jr.Bound = ix.bound(ev)
	jr.Exit = ix.exit(ev, jr.Bound)
	if x := jr.Exit; x != nil && (jr.Bound == nil || !jr.Bound.Hit) && ix.onBoundAt[x.Pos] {
		ev.atBound = x.Pos
		jr.Bound = ix.bound(ev)
	}
	for i, h := range r.History {
		if h.Status != model.StatusWaiting || (i == len(r.History)-1 && r.Status == model.StatusWaiting) {
			continue
		}
		pev := evidence{status: h.Status, stop: h.StopReason, wait: h.WaitReason}
		if x := ix.exit(pev, nil); x != nil {
			jr.Pauses = append(jr.Pauses, *x)
		}
	}
	if r.Status.Terminal() || r.Status == model.StatusWaiting {
		if jr.Exit == nil {
			// A map whose every exit completes knows no way out but success: the run's status
			// says more about the map than about the code.
			sev, why := model.SevWarning, ""
			if !ix.endsOtherwise {
				sev, why = model.SevInfo, "; every exit of the map completes, so the map is likely missing its failure and cancellation exits"
			}
			finding(CheckStatusNoExit, sev, model.Position{}, "the run ended "+statusWord(r.Status)+stopSuffix(r.StopReason)+" and no exit of the map produces that status (nor passes a callee's outcome on)"+why)
		}
	}
	loops := ix.runLoops(jr.Exit)
	if b := jr.Bound; b != nil && b.Agrees == "above" {
		finding(CheckPastBound, model.SevWarning, b.Pos, "the run took "+strconv.Itoa(ev.steps)+" steps; its turn loop's bound "+b.Expr+" is "+b.Default+" by default (a run configured with a larger limit shows this too)")
	}
	if r.Status == model.StatusCancelled && len(loops) > 0 {
		checked := false
		for _, l := range loops {
			checked = checked || l.loop.ChecksCancel
		}
		// A call that ended cancelled explains the cancellation: the cancelled context reached
		// the model or the tool. Unexplained is a run cancelled with no call cancelled.
		if !checked && !cancelledCall(r) {
			finding(CheckCancelUnchecked, model.SevWarning, loops[0].loop.Pos, "the run was cancelled with no model or tool call cancelled, but no turn loop it can run checks cancellation between steps: something outside the loop ended it")
		}
	}
	jr.Calls = ix.calls(r, loops, opts)
	if opts.Names != nil {
		registered, unregistered := 0, []CallMatch(nil)
		for _, c := range jr.Calls {
			if c.Kind != "tool" || c.Name == "" {
				continue
			}
			if c.Registered.IsValid() {
				registered++
			} else {
				unregistered = append(unregistered, c)
			}
		}
		// Only code that registers some of the run's tools can be said not to register the
		// others: a framework's map alone (the tools live in the application) registers none.
		if registered > 0 {
			for _, c := range unregistered {
				finding(CheckToolUnregistered, model.SevWarning, c.Pos, "the run called tool "+strconv.Quote(c.Name)+", a name the mapped code never writes (it registers others the run called)")
			}
		}
	}
	if r.ParentRunID != "" {
		jr.Parent = ix.parent(r)
	}
	return jr, fs
}

func stopSuffix(s model.StopReason) string {
	if s == "" {
		return ""
	}
	return " (" + string(s) + ")"
}

// exit picks the exit that produced the run's final status. Runs that end alike share the
// answer (it is read, never written, by Cover and the renderers).
func (ix *index) exit(ev evidence, b *BoundMatch) *ExitMatch {
	var k strings.Builder
	k.WriteString(string(ev.status) + "\x00" + string(ev.stop) + "\x00" + string(ev.wait))
	if b != nil && b.Hit {
		k.WriteString("\x00hit " + b.OnBound.String())
	}
	for _, s := range ev.kinds {
		k.WriteString("\x00k" + s)
	}
	for _, s := range ev.texts {
		k.WriteString("\x00t" + s)
	}
	key := k.String()
	if x, ok := ix.exitCache[key]; ok {
		return x
	}
	x := ix.pickExit(ev, b)
	if x != nil {
		ix.source(x.Site)
	}
	if len(ix.exitCache) < 1<<16 {
		ix.exitCache[key] = x
	}
	return x
}

func (ix *index) pickExit(ev evidence, b *BoundMatch) *ExitMatch {
	if ev.status == "" || ev.status == model.StatusQueued || ev.status == model.StatusRunning {
		return nil
	}
	type cand struct {
		m *ExitMatch
		s score
	}
	var cands []cand
	for _, x := range ix.exits {
		e := x.exit
		// An exit standing for several outcomes (taken under a test of a stop reason against
		// literals) fits with the best of them.
		var best *cand
		for _, alt := range e.Alternatives() {
			var s score
			switch alt.Outcome {
			case string(ev.status):
				s.add(2, false, "the exit's outcome is "+alt.Outcome)
			case model.OutcomePropagated:
				if ev.status == model.StatusCompleted {
					continue
				}
				s.add(1, false, "the exit passes a callee's outcome on")
			default:
				continue
			}
			if alt.When != "" {
				s.add(0, false, "it is taken when "+e.Guard+", and "+strconv.Quote(alt.When)+" stands for "+alt.String())
			}
			switch {
			case alt.StopReason != "" && alt.StopReason == ev.stop:
				s.add(3, true, "its stop reason is "+string(alt.StopReason))
			case alt.StopReason != "" && ev.stop != "":
				s.add(-1, false, "its stop reason "+string(alt.StopReason)+" is not the run's "+string(ev.stop))
			case alt.StopReason != "":
				s.add(-1, false, "it records stop reason "+string(alt.StopReason)+", the run none")
			}
			if ev.status != model.StatusCompleted {
				// An exit at a bound raises what the bound's OnBound says (a sentinel's name
				// the exit's first line may not show).
				ix.wordsFit(&s, ev, e.Detail, e.Source, ix.onBoundVal[e.Pos])
			}
			if ev.wait != "" && strings.Contains(squash(e.Source+" "+e.Detail), squash(string(ev.wait))) {
				s.add(2, true, "it writes the wait reason "+string(ev.wait))
			}
			if best == nil || s.n > best.s.n {
				best = &cand{&ExitMatch{Site: Site{Pos: e.Pos, Source: e.Source, Func: firstOf(x.entries)}, Kind: "exit",
					Outcome: alt.Outcome, StopReason: alt.StopReason, Entries: x.entries}, s}
			}
		}
		if best != nil {
			cands = append(cands, *best)
		}
	}
	// A bound that raises (an error or exception at the bound) ends the run where it raises,
	// when the run stopped at that bound.
	if b != nil && b.Hit {
		for _, l := range ix.loops {
			ob := l.loop.OnBound
			if ob == nil || ob.Pos != b.OnBound || ob.Kind != model.OnBoundError {
				continue
			}
			var s score
			s.add(3, true, "the run stopped at the bound ("+string(ev.stop)+"), where the code raises "+abbrev(ob.Value))
			ix.wordsFit(&s, ev, ob.Value, ob.Source)
			out := string(ev.status)
			cands = append(cands, cand{&ExitMatch{Site: Site{Pos: ob.Pos, Source: ob.Source, Func: l.loop.Func}, Kind: "raise",
				Outcome: out, StopReason: ob.StopReason, Entries: l.entries}, s})
			break
		}
	}
	if len(cands) == 0 {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].s.n > cands[j].s.n })
	best := cands[0]
	m := best.m
	m.Reason = strings.Join(best.s.reasons, "; ")
	for _, c := range cands[1:] {
		if c.s.n == best.s.n {
			m.Others = append(m.Others, c.m.Pos)
		}
	}
	switch {
	case best.s.strong && len(m.Others) == 0:
		m.Confidence = High
	case best.s.strong || (len(m.Others) == 0 && best.m.Outcome == string(ev.status)):
		m.Confidence = Medium
	default:
		m.Confidence = Low
	}
	if len(m.Others) > 0 {
		m.Reason += "; " + strconv.Itoa(len(m.Others)) + " other exit(s) fit as well"
	}
	return m
}

// bound finds the bound the run stopped at (its stop reason is the bound's), or else the bound
// of the map's turn loops when they all share one.
func (ix *index) bound(ev evidence) *BoundMatch {
	k := boundKey{ev.stop, ev.steps, ev.atBound}
	if b, ok := ix.boundCache[k]; ok {
		return b
	}
	b := ix.pickBound(ev)
	if b != nil {
		ix.source(b.Site)
	}
	if len(ix.boundCache) < 1<<16 {
		ix.boundCache[k] = b
	}
	return b
}

// boundKey is what a bound match depends on: the run's stop reason and step count.
type boundKey struct {
	stop    model.StopReason
	steps   int
	atBound model.Position
}

func (ix *index) pickBound(ev evidence) *BoundMatch {
	var hit, any []*loopRef
	for _, l := range ix.loops {
		if l.loop.Bound == nil {
			continue
		}
		any = append(any, l)
		if ob := l.loop.OnBound; ob != nil && (ob.StopReason != "" && ob.StopReason == ev.stop || ev.atBound.IsValid() && ob.Pos == ev.atBound) {
			hit = append(hit, l)
		}
	}
	pick, isHit := hit, true
	if len(pick) == 0 {
		isHit = false
		// No bound was hit: a run's step count still says something when every turn loop of
		// the map has the same bound.
		if len(any) == 0 || len(any) != len(ix.loops) {
			return nil
		}
		for _, l := range any[1:] {
			if l.loop.Bound.Pos != any[0].loop.Bound.Pos {
				return nil
			}
		}
		pick = any
	}
	l := pick[0]
	b := l.loop.Bound
	bm := &BoundMatch{Loop: l.loop.Pos, Expr: b.Expr, Default: b.Default, DefaultPos: b.DefaultPos, DefaultEnv: b.DefaultEnv, Hit: isHit, Steps: ev.steps}
	bm.Site = Site{Pos: b.Pos, Source: b.Source, Func: l.loop.Func}
	if ob := l.loop.OnBound; ob != nil {
		bm.OnBound, bm.StopReason = ob.Pos, ob.StopReason
	}
	samePlace := true
	for _, o := range pick[1:] {
		if o.loop.Bound.Pos != b.Pos {
			samePlace = false
		}
		bm.OtherLoops = append(bm.OtherLoops, o.loop.Pos)
	}
	bm.Agrees = "unknown"
	if n, err := strconv.Atoi(b.Default); err == nil && n > 0 {
		switch {
		case ev.steps == n:
			bm.Agrees = "equal"
		case ev.steps < n:
			bm.Agrees = "below"
		default:
			bm.Agrees = "above"
		}
	}
	var reasons []string
	switch {
	case isHit && ev.atBound.IsValid() && (l.loop.OnBound.StopReason != ev.stop):
		reasons = append(reasons, "the run left through the exit at this bound ("+ev.atBound.String()+")")
	case isHit:
		reasons = append(reasons, "the run's stop reason "+string(ev.stop)+" is what the code records at this bound")
	default:
		reasons = append(reasons, "every turn loop of the map has this bound")
	}
	switch bm.Agrees {
	case "equal":
		reasons = append(reasons, "the run's "+strconv.Itoa(ev.steps)+" steps equal the default "+b.Default)
	case "below":
		if isHit {
			reasons = append(reasons, "the run stopped after "+strconv.Itoa(ev.steps)+" steps, below the default "+b.Default+": it was given a lower limit")
		} else {
			reasons = append(reasons, strconv.Itoa(ev.steps)+" steps, within the default "+b.Default)
		}
	case "above":
		reasons = append(reasons, "the run's "+strconv.Itoa(ev.steps)+" steps exceed the default "+b.Default)
	}
	if len(bm.OtherLoops) > 0 {
		if samePlace {
			reasons = append(reasons, strconv.Itoa(len(bm.OtherLoops))+" other loop(s) share the bound")
		} else {
			reasons = append(reasons, strconv.Itoa(len(bm.OtherLoops))+" other loop(s) fit")
		}
	}
	bm.Reason = strings.Join(reasons, "; ")
	switch {
	case isHit && (samePlace || len(bm.OtherLoops) == 0):
		bm.Confidence = High
	case isHit:
		bm.Confidence = Medium
	default:
		bm.Confidence = Low
	}
	return bm
}

// runLoops are the turn loops of the entries the run's exit belongs to (all loops when the run
// matched no exit).
func (ix *index) runLoops(x *ExitMatch) []*loopRef {
	if x == nil {
		return ix.loops
	}
	k := strings.Join(x.Entries, "\x00")
	if l, ok := ix.loopSets[k]; ok {
		return l
	}
	l := ix.entryLoops(x)
	ix.loopSets[k] = l
	return l
}

func (ix *index) entryLoops(x *ExitMatch) []*loopRef {
	in := map[string]bool{}
	for _, e := range x.Entries {
		in[e] = true
	}
	var out []*loopRef
	for _, l := range ix.loops {
		for _, e := range l.entries {
			if in[e] {
				out = append(out, l)
				break
			}
		}
	}
	if len(out) == 0 {
		return ix.loops
	}
	return out
}

// calls matches the run's model and tool calls to the call sites of its loops. Sites bound by
// a directive or a profile are preferred to inferred ones; a site whose source names the tool
// wins outright.
func (ix *index) calls(r *model.Run, loops []*loopRef, opts Options) []CallMatch {
	type key struct{ kind, name string }
	type count struct {
		key
		n int
	}
	var counts []count // few distinct names a run: a slice beats a map
	add := func(k key) {
		for i := range counts {
			if counts[i].key == k {
				counts[i].n++
				return
			}
		}
		counts = append(counts, count{k, 1})
	}
	for _, tu := range r.Turns {
		for _, st := range tu.Steps {
			for _, c := range st.ModelCalls {
				add(key{"model", c.Name})
			}
			for _, c := range st.ToolCalls {
				add(key{"tool", c.Name})
			}
		}
	}
	var out []CallMatch
	for _, k := range counts {
		cm := CallMatch{Kind: k.kind, Name: k.name, Calls: k.n}
		if k.kind == "tool" && k.name != "" && opts.Names != nil {
			if p, ok := opts.Names.Lookup(k.name); ok {
				cm.Registered = p
			}
		}
		pk := loopsKey(loops)
		pk.kind, pk.name = k.kind, k.name
		pick, ok := ix.picks[pk]
		if !ok {
			pick = ix.pick(loops, k.kind, k.name)
			ix.picks[pk] = pick
		}
		if pick == nil {
			if k.kind == "tool" && opts.Names != nil {
				out = append(out, cm) // kept for the registration check
			}
			continue
		}
		cm.Site, cm.Callee, cm.Others = pick.site, pick.callee, pick.others
		out = append(out, cm)
	}
	return out
}

// pickKey identifies a call-site choice: the loops of a run, the call's kind and name.
type pickKey struct {
	loops      *loopRef // the first loop; with n, enough to tell the loop sets runLoops returns
	n          int
	kind, name string
}

func loopsKey(loops []*loopRef) pickKey {
	if len(loops) == 0 {
		return pickKey{}
	}
	return pickKey{loops: loops[0], n: len(loops)}
}

// picked is a call-site choice, made once per pickKey.
type picked struct {
	site   Site
	callee string
	others []model.Position
}

func (ix *index) pick(loops []*loopRef, kind, name string) *picked {
	var sites []model.CallSite
	seen := map[model.Position]bool{}
	for _, l := range loops {
		list := l.loop.ModelCalls
		if kind == "tool" {
			list = l.loop.ToolCalls
		}
		for _, c := range list {
			if !seen[c.Pos] {
				seen[c.Pos] = true
				sites = append(sites, c)
			}
		}
	}
	if len(sites) == 0 {
		return nil
	}
	best, others, conf, reason := pickSite(sites, name)
	ix.sources[best.Pos.String()] = best.Source
	return &picked{site: Site{Pos: best.Pos, Source: best.Source, Confidence: conf, Reason: reason}, callee: best.Callee, others: others}
}

func pickSite(sites []model.CallSite, name string) (model.CallSite, []model.Position, Confidence, string) {
	if name != "" {
		for _, s := range sites {
			if identIn(s.Source, name) || strings.Contains(s.Source, strconv.Quote(name)) {
				return s, nil, High, "the call site names " + strconv.Quote(name)
			}
		}
	}
	top := 0
	for _, s := range sites {
		top = max(top, s.Provenance.Confidence.Rank())
	}
	var best []model.CallSite
	for _, s := range sites {
		if s.Provenance.Confidence.Rank() == top {
			best = append(best, s)
		}
	}
	why := "the only call site of its kind in the run's turn loops"
	if len(sites) > 1 {
		why = "the only " + string(best[0].Provenance.Confidence) + " call site of its kind among " + strconv.Itoa(len(sites))
	}
	if len(best) == 1 {
		if best[0].Provenance.Confidence.Rank() >= model.ConfidenceProfile.Rank() || len(sites) == 1 {
			return best[0], nil, High, why
		}
		return best[0], nil, Medium, why
	}
	var others []model.Position
	for _, s := range best[1:] {
		others = append(others, s.Pos)
	}
	return best[0], others, Low, strconv.Itoa(len(best)) + " call sites of its kind fit equally (the trace does not say which loop ran); the first is shown"
}

// parent ranks the id sites that pass a parent run id for a run with a parent.
func (ix *index) parent(r *model.Run) *ParentMatch {
	pm := &ParentMatch{ParentRunID: r.ParentRunID, Kind: r.Kind}
	type cand struct {
		site Site
		n    int
	}
	var cands []cand
	for i, id := range ix.ids {
		n, reasons := 1, []string{"passes a parent run id (" + id.What + ")"}
		if r.Kind != "" {
			switch lits := ix.literalsOf(id.Source); {
			case containsStr(lits, r.Kind):
				n += 3
				reasons = append(reasons, "mints a link of the run's kind "+strconv.Quote(r.Kind))
			case len(kindLiterals(lits)) > 0:
				n -= 2
				reasons = append(reasons, "mints a link of another kind")
			}
		}
		if f := ix.idFunc[i]; f != "" {
			n++
			reasons = append(reasons, "in run entry "+f)
		}
		cands = append(cands, cand{Site{Pos: id.Pos, Source: id.Source, Func: ix.idFunc[i], Reason: strings.Join(reasons, "; ")}, n})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].n > cands[j].n })
	for i, c := range cands {
		switch {
		case c.n >= 4 && (i > 0 || len(cands) == 1 || cands[1].n < c.n):
			c.site.Confidence = High
		case c.n >= 2:
			c.site.Confidence = Medium
		default:
			c.site.Confidence = Low
		}
		pm.Sites = append(pm.Sites, c.site)
		ix.source(c.site)
	}
	return pm
}

// kindLiterals are the literals of a source line that look like a run kind (one lower-case word).
func kindLiterals(lits []string) []string {
	var out []string
	for _, l := range lits {
		if l != "" && strings.ToLower(l) == l && !strings.ContainsAny(l, " \t/.:") {
			out = append(out, l)
		}
	}
	return out
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func abbrev(s string) string {
	if len(s) > 60 {
		return s[:57] + "…"
	}
	return s
}

// squash lower-cases s and drops everything but letters and digits, so that a trace's word
// ("user_input") and the code's spelling of it (WaitUserInput, "user-input") compare.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// endsOtherwise reports whether some exit of m ends a run failed, cancelled or waiting, or
// passes a callee's outcome on.
func endsOtherwise(m *model.Map) bool {
	for _, e := range m.Entries {
		for _, x := range e.Exits {
			for _, o := range x.Alternatives() {
				switch o.Outcome {
				case string(model.StatusCompleted), model.OutcomeStarted, model.OutcomeNotStarted:
				default:
					return true
				}
			}
		}
	}
	return false
}

// cancelledCall reports whether a model or tool call of the run ended cancelled.
func cancelledCall(r *model.Run) bool {
	cancelled := func(o model.Outcome, e *model.ErrorInfo) bool {
		return o == model.OutcomeCancelled || (e != nil && e.Kind == "cancelled")
	}
	for _, tu := range r.Turns {
		for _, st := range tu.Steps {
			for _, c := range st.ModelCalls {
				if cancelled(c.Outcome, c.Error) {
					return true
				}
			}
			for _, c := range st.ToolCalls {
				if cancelled(c.Outcome, c.Error) {
					return true
				}
			}
		}
	}
	return false
}

// idents are the identifiers of a code text, a qualified name's parts each on its own.
func idents(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		if !identByte(text[i]) || text[i] >= '0' && text[i] <= '9' {
			i++
			continue
		}
		j := i
		for j < len(text) && identByte(text[j]) {
			j++
		}
		out = append(out, text[i:j])
		i = j
	}
	return out
}
