// Package mapdiff compares two lifecycle maps (model.Map) of the same code at two versions and
// reports what the change did to the lifecycle, not to the lines: a bound or its default
// changed, a cancellation check added or removed, an exit added or removed or its outcome
// changed, tools now run in parallel or one after the other, a model or tool call site now
// reached from a turn loop or no longer, a run id no longer passed on to child runs, a run entry
// added or removed.
//
// Elements are matched across the versions by what they are, never by line (lines move): an
// entry by its function, a loop by the function that holds it and its kind, a call site by its
// callee (then its source text, then its file), an exit by what it returns (then its source text),
// an id site by its kind and expression. Compare is a pure function; the renderers in
// render/text, render/json and render/markdown draw its result.
package mapdiff

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Effect says what a change does to the lifecycle's guarantees.
type Effect string

// Effects. A change weakens the lifecycle when a run can now go on longer, or end, without the
// code saying so: see Kind for which kinds weaken.
const (
	// Weakens: a bound removed or raised to unlimited, a cancellation check removed, the
	// bound now hit silently, an error path now reported as completed, the last cancelled exit
	// removed, a new turn loop with neither a bound nor a cancellation check, a parent run id no
	// longer passed to child runs.
	Weakens Effect = "weakens"
	// Strengthens: the reverse of a weakening (a bound or a cancellation check added, …).
	Strengthens Effect = "strengthens"
	// Changes: a lifecycle change to review that neither weakens nor strengthens the
	// guarantees (an exit added, tools now parallel, a bound's default raised from 10 to 20).
	Changes Effect = "changes"
)

// Kind names a kind of lifecycle change.
type Kind string

// Change kinds, in the order a report lists them (within one effect).
const (
	EntryAdded   Kind = "entry_added"   // a run entry point appears
	EntryRemoved Kind = "entry_removed" // a run entry point is gone
	// LoopAdded: an entry reaches a turn loop it did not reach; weakens when the loop has
	// neither a bound nor a cancellation check.
	LoopAdded   Kind = "loop_added"
	LoopRemoved Kind = "loop_removed" // an entry no longer reaches a turn loop
	LoopMoved   Kind = "loop_moved"   // the entry's turn loop is now held by another function
	// BoundAdded strengthens; BoundRemoved weakens.
	BoundAdded   Kind = "bound_added"
	BoundRemoved Kind = "bound_removed"
	// BoundChanged: the bound's expression or optionality changed; weakens when the loop is now
	// unlimited by default (Unlimited).
	BoundChanged Kind = "bound_changed"
	// BoundDefaultChanged: the bound's default changed; weakens when raised to unlimited
	// ("none", infinity, or 0 for an optional bound), strengthens when lowered from unlimited to
	// a value; any other change (10 → 20) is only a change: the loop is still bounded.
	BoundDefaultChanged Kind = "bound_default_changed"
	// OnBoundChanged: what happens at the bound changed; weakens when the bound is now hit
	// silently (the run then looks completed), strengthens when it now errors or records a stop
	// reason where it was silent.
	OnBoundChanged Kind = "on_bound_changed"
	// CancelAdded strengthens; CancelRemoved weakens.
	CancelAdded   Kind = "cancel_check_added"
	CancelRemoved Kind = "cancel_check_removed"
	// ToolsParallel and ToolsSequential: one step's tool calls may now run concurrently, or now
	// run one after the other. Neither weakens the bounds and cancellation the lifecycle
	// guarantees: both are changes to review (parallel tools interleave their effects).
	ToolsParallel   Kind = "tools_parallel"
	ToolsSequential Kind = "tools_sequential"
	// ModelIntoLoop / ModelOutOfLoop: a model callee the loop did not reach before is now
	// reached from it, or no longer is. ModelSiteAdded / ModelSiteRemoved: one more (or one
	// fewer) call site of a callee the loop reaches in both versions. The same for tools.
	ModelIntoLoop    Kind = "model_call_into_loop"
	ModelOutOfLoop   Kind = "model_call_out_of_loop"
	ModelSiteAdded   Kind = "model_site_added"
	ModelSiteRemoved Kind = "model_site_removed"
	ToolIntoLoop     Kind = "tool_call_into_loop"
	ToolOutOfLoop    Kind = "tool_call_out_of_loop"
	ToolSiteAdded    Kind = "tool_site_added"
	ToolSiteRemoved  Kind = "tool_site_removed"
	// ExitAdded and ExitRemoved are changes, except that removing an entry's last cancelled
	// exit weakens (the run can no longer end cancelled).
	ExitAdded   Kind = "exit_added"
	ExitRemoved Kind = "exit_removed"
	// ExitOutcomeChanged weakens when a failed or cancelled exit now stands for completed.
	ExitOutcomeChanged    Kind = "exit_outcome_changed"
	ExitStopReasonChanged Kind = "exit_stop_reason_changed"
	// IDAdded / IDRemoved: an id site; removing a parent id site (a run id passed to child
	// runs) weakens, adding one strengthens.
	IDAdded   Kind = "id_added"
	IDRemoved Kind = "id_removed"
)

var kindOrder = map[Kind]int{}

func init() {
	for i, k := range []Kind{EntryAdded, EntryRemoved, LoopAdded, LoopRemoved, LoopMoved,
		BoundAdded, BoundRemoved, BoundChanged, BoundDefaultChanged, OnBoundChanged,
		CancelAdded, CancelRemoved, ToolsParallel, ToolsSequential,
		ModelIntoLoop, ModelOutOfLoop, ModelSiteAdded, ModelSiteRemoved,
		ToolIntoLoop, ToolOutOfLoop, ToolSiteAdded, ToolSiteRemoved,
		ExitAdded, ExitRemoved, ExitOutcomeChanged, ExitStopReasonChanged, IDAdded, IDRemoved} {
		kindOrder[k] = i
	}
}

// Change is one lifecycle change between the base and the head map.
type Change struct {
	Kind   Kind   `json:"kind"`
	Effect Effect `json:"effect"`
	// Summary is the change in one sentence.
	Summary string `json:"summary"`
	// Entries are the run entries the change concerns (one change reached from several
	// entries is reported once).
	Entries []string `json:"entries"`
	// Loop is the turn loop the change is in: "kind loop in func"; empty for entry-level
	// changes.
	Loop string `json:"loop,omitempty"`
	// Subject is the element that changed: a callee, an exit's detail, a bound's expression,
	// an id site's expression.
	Subject string `json:"subject,omitempty"`
	// Old and New are the element's value before and after (empty when added or removed).
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// OldPos and NewPos are the element's position in each version, when it exists there.
	OldPos model.Position `json:"old_pos,omitzero"`
	NewPos model.Position `json:"new_pos,omitzero"`
}

// Diff is the result of comparing two maps.
type Diff struct {
	// Base and Head label the two versions (a revision, a path).
	Base string `json:"base"`
	Head string `json:"head"`
	// Changes are ordered weakening first, then strengthening, then the rest; within an
	// effect by kind, then position.
	Changes []Change `json:"changes"`
	// Weakened is true when at least one change weakens the lifecycle.
	Weakened bool `json:"weakened"`
	// BaseEntries and HeadEntries count the run entries of each map: no change between two
	// maps without entries means nothing was compared.
	BaseEntries int `json:"base_entries"`
	HeadEntries int `json:"head_entries"`
}

// Count returns how many changes have the effect.
func (d *Diff) Count(e Effect) int {
	n := 0
	for _, c := range d.Changes {
		if c.Effect == e {
			n++
		}
	}
	return n
}

// Compare returns the lifecycle changes from base to head. Either map may be nil (no entries).
func Compare(base, head *model.Map) Diff {
	if base == nil {
		base = &model.Map{}
	}
	if head == nil {
		head = &model.Map{}
	}
	c := &comparer{seen: map[string]int{}}
	baseLoops, headLoops := loopKeys(base), loopKeys(head)
	pairs, gone, added := matchEntries(base.Entries, head.Entries)
	for _, e := range gone {
		c.add(Change{Kind: EntryRemoved, Effect: Changes, Entries: []string{e.Func}, Subject: e.Func, OldPos: e.Pos,
			Summary: "run entry " + e.Func + " removed"})
		for _, l := range e.Loops {
			if !headLoops[loopKey(l)] {
				c.add(loopGone(e.Func, l))
			}
		}
	}
	for _, e := range added {
		c.add(Change{Kind: EntryAdded, Effect: Changes, Entries: []string{e.Func}, Subject: e.Func, NewPos: e.Pos,
			Summary: "run entry " + e.Func + " added"})
		for _, l := range e.Loops {
			if !baseLoops[loopKey(l)] {
				c.add(loopNew(e.Func, l))
			}
		}
	}
	for _, p := range pairs {
		c.entry(p[0], p[1])
	}
	d := Diff{Changes: c.out, BaseEntries: len(base.Entries), HeadEntries: len(head.Entries)}
	slices.SortStableFunc(d.Changes, func(a, b Change) int {
		if r := cmp.Compare(effectRank(a.Effect), effectRank(b.Effect)); r != 0 {
			return r
		}
		if r := cmp.Compare(kindOrder[a.Kind], kindOrder[b.Kind]); r != 0 {
			return r
		}
		if r := comparePos(firstPos(a), firstPos(b)); r != 0 {
			return r
		}
		return cmp.Compare(a.Subject, b.Subject)
	})
	for _, ch := range d.Changes {
		if ch.Effect == Weakens {
			d.Weakened = true
		}
	}
	if d.Changes == nil {
		d.Changes = []Change{}
	}
	return d
}

func effectRank(e Effect) int {
	switch e {
	case Weakens:
		return 0
	case Strengthens:
		return 1
	}
	return 2
}

func firstPos(c Change) model.Position {
	if c.NewPos.IsValid() {
		return c.NewPos
	}
	return c.OldPos
}

func comparePos(a, b model.Position) int {
	if r := cmp.Compare(a.File, b.File); r != 0 {
		return r
	}
	return cmp.Compare(a.Line, b.Line)
}

// comparer collects changes, merging one change reached from several entries into one.
type comparer struct {
	out  []Change
	seen map[string]int // change identity → index in out
}

func (c *comparer) add(ch Change) {
	id := strings.Join([]string{string(ch.Kind), ch.Loop, ch.Subject, ch.Old, ch.New, ch.OldPos.String(), ch.NewPos.String()}, "\x00")
	if ch.Kind == EntryAdded || ch.Kind == EntryRemoved {
		id += "\x00" + strings.Join(ch.Entries, ",")
	}
	if i, ok := c.seen[id]; ok {
		for _, e := range ch.Entries {
			if !slices.Contains(c.out[i].Entries, e) {
				c.out[i].Entries = append(c.out[i].Entries, e)
			}
		}
		return
	}
	c.seen[id] = len(c.out)
	c.out = append(c.out, ch)
}

// matchEntries pairs entries by function name; several entries of one name (rare: the same
// qualified name in two files) pair in position order.
func matchEntries(base, head []model.Entry) (pairs [][2]model.Entry, gone, added []model.Entry) {
	byFunc := map[string][]model.Entry{}
	for _, e := range head {
		byFunc[e.Func] = append(byFunc[e.Func], e)
	}
	used := map[string]int{}
	for _, e := range base {
		hs := byFunc[e.Func]
		if i := used[e.Func]; i < len(hs) {
			pairs = append(pairs, [2]model.Entry{e, hs[i]})
			used[e.Func]++
			continue
		}
		gone = append(gone, e)
	}
	for f, hs := range byFunc {
		for _, e := range hs[used[f]:] {
			added = append(added, e)
		}
	}
	slices.SortFunc(added, func(a, b model.Entry) int { return comparePos(a.Pos, b.Pos) })
	return pairs, gone, added
}

// loopKey is a loop's identity across versions: the function that holds it and its kind.
func loopKey(l model.Loop) string { return l.Func + "\x00" + string(l.Kind) }

func loopKeys(m *model.Map) map[string]bool {
	keys := map[string]bool{}
	for _, e := range m.Entries {
		for _, l := range e.Loops {
			keys[loopKey(l)] = true
		}
	}
	return keys
}

// LoopLabel names a loop in a report: "for loop in agents.Executor.Call".
func LoopLabel(l model.Loop) string { return string(l.Kind) + " loop in " + l.Func }

func loopNew(entry string, l model.Loop) Change {
	ch := Change{Kind: LoopAdded, Effect: Changes, Entries: []string{entry}, Loop: LoopLabel(l), NewPos: l.Pos,
		New: describeLoop(l), Summary: "turn loop added: " + LoopLabel(l) + " (" + describeLoop(l) + ")"}
	if l.Bound == nil && !l.ChecksCancel {
		ch.Effect = Weakens
		ch.Summary += ": it has neither a bound nor a cancellation check"
	}
	return ch
}

func loopGone(entry string, l model.Loop) Change {
	return Change{Kind: LoopRemoved, Effect: Changes, Entries: []string{entry}, Loop: LoopLabel(l), OldPos: l.Pos,
		Old: describeLoop(l), Summary: "turn loop removed: " + LoopLabel(l)}
}

func describeLoop(l model.Loop) string {
	var parts []string
	if l.Bound != nil {
		parts = append(parts, "bound "+describeBound(l.Bound))
	} else {
		parts = append(parts, "no bound")
	}
	if l.ChecksCancel {
		parts = append(parts, "checks cancellation")
	} else {
		parts = append(parts, "no cancellation check")
	}
	return strings.Join(parts, ", ")
}

func describeBound(b *model.Bound) string {
	s := b.Expr
	if b.Default != "" {
		s += " (default " + b.Default + ")"
	}
	if b.Optional {
		s += " (optional: 0 means unlimited)"
	}
	return s
}

func (c *comparer) entry(b, h model.Entry) {
	name := h.Func
	bl, hl := slices.Clone(b.Loops), slices.Clone(h.Loops)
	// Loops of the same identity pair in order; what is left pairs by kind when exactly one of
	// that kind is left on each side (the loop moved to another function).
	lpairs, bLeft, hLeft := pairBy(bl, hl, loopKey)
	byKind := func(ls []model.Loop, k model.LoopKind) []int {
		var is []int
		for i, l := range ls {
			if l.Kind == k {
				is = append(is, i)
			}
		}
		return is
	}
	bDone, hDone := make([]bool, len(bLeft)), make([]bool, len(hLeft))
	for i, x := range bLeft {
		bs, hs := byKind(bLeft, x.Kind), byKind(hLeft, x.Kind)
		if len(bs) == 1 && len(hs) == 1 {
			y := hLeft[hs[0]]
			bDone[i], hDone[hs[0]] = true, true
			c.add(Change{Kind: LoopMoved, Effect: Changes, Entries: []string{name}, Loop: LoopLabel(y),
				Old: x.Func, New: y.Func, OldPos: x.Pos, NewPos: y.Pos,
				Summary: "turn loop moved from " + x.Func + " to " + y.Func})
			lpairs = append(lpairs, [2]model.Loop{x, y})
		}
	}
	for i, x := range bLeft {
		if !bDone[i] {
			c.add(loopGone(name, x))
		}
	}
	for i, y := range hLeft {
		if !hDone[i] {
			c.add(loopNew(name, y))
		}
	}
	for _, p := range lpairs {
		c.loop(name, p[0], p[1])
	}
	c.exits(name, b.Exits, h.Exits)
	c.ids(name, b.IDs, h.IDs)
}

// Unlimited reports whether a bound leaves the loop unlimited when the caller sets nothing:
// no bound, a default of "none" or infinity, or an optional bound (0 = unlimited) whose default
// is unknown or zero.
func Unlimited(b *model.Bound) bool {
	if b == nil {
		return true
	}
	if b.Default == model.DefaultNone || infiniteDefault(b.Default) {
		return true
	}
	if b.Optional {
		switch strings.TrimSpace(b.Default) {
		case "", "0", "None", "null", "undefined", "nil":
			return true
		}
	}
	return false
}

func infiniteDefault(def string) bool {
	d := strings.ToLower(strings.NewReplacer(" ", "", "'", "\"").Replace(def))
	switch d {
	case `float("inf")`, `float("infinity")`, "math.inf", "infinity", "number.positive_infinity",
		"sys.maxsize", "number.max_safe_integer", "math.maxint", "math.maxint64", "math.maxint32":
		return true
	}
	return false
}

func (c *comparer) loop(entry string, b, h model.Loop) {
	label := LoopLabel(h)
	base := Change{Entries: []string{entry}, Loop: label}
	with := func(k Kind, e Effect, subject, old, new string, op, np model.Position, summary string) {
		ch := base
		ch.Kind, ch.Effect, ch.Subject, ch.Old, ch.New, ch.OldPos, ch.NewPos, ch.Summary = k, e, subject, old, new, op, np, summary
		c.add(ch)
	}
	switch {
	case b.Bound != nil && h.Bound == nil:
		with(BoundRemoved, Weakens, b.Bound.Expr, describeBound(b.Bound), "", b.Bound.Pos, h.Pos,
			"bound "+b.Bound.Expr+" removed from the "+label+": the loop has no limit of its own")
	case b.Bound == nil && h.Bound != nil:
		e := Strengthens
		if Unlimited(h.Bound) {
			e = Changes
		}
		with(BoundAdded, e, h.Bound.Expr, "", describeBound(h.Bound), b.Pos, h.Bound.Pos,
			"bound "+describeBound(h.Bound)+" added to the "+label)
	case b.Bound != nil && h.Bound != nil:
		ob, nb := b.Bound, h.Bound
		limEffect := func() Effect {
			switch {
			case !Unlimited(ob) && Unlimited(nb):
				return Weakens
			case Unlimited(ob) && !Unlimited(nb):
				return Strengthens
			}
			return Changes
		}
		if ob.Expr != nb.Expr || ob.Optional != nb.Optional {
			e := limEffect()
			s := "bound of the " + label + " changed from " + describeBound(ob) + " to " + describeBound(nb)
			if e == Weakens {
				s += ": unlimited unless the caller sets it"
			}
			with(BoundChanged, e, nb.Expr, describeBound(ob), describeBound(nb), ob.Pos, nb.Pos, s)
		} else if ob.Default != nb.Default {
			e := limEffect()
			s := "default of bound " + nb.Expr + " " + defaultVerb(ob.Default, nb.Default) + " from " + orUnknown(ob.Default) + " to " + orUnknown(nb.Default)
			if e == Weakens {
				s += ": the loop is unlimited by default"
			}
			if nb.DefaultEnv != "" {
				s += " (when " + nb.DefaultEnv + " is not set)"
			}
			op, np := ob.DefaultPos, nb.DefaultPos
			if !op.IsValid() {
				op = ob.Pos
			}
			if !np.IsValid() {
				np = nb.Pos
			}
			with(BoundDefaultChanged, e, nb.Expr, ob.Default, nb.Default, op, np, s)
		}
	}
	if ob, nb := b.OnBound, h.OnBound; ob != nil && nb != nil && (ob.Kind != nb.Kind || ob.StopReason != nb.StopReason || ob.Value != nb.Value) {
		e := Changes
		switch {
		case nb.Kind == model.OnBoundSilent && ob.Kind != model.OnBoundSilent:
			e = Weakens
		case ob.Kind == model.OnBoundSilent && nb.Kind != model.OnBoundSilent:
			e = Strengthens
		}
		s := "at the bound of the " + label + ": " + describeOnBound(ob) + " → " + describeOnBound(nb)
		if e == Weakens {
			s += " (a run that hits the bound now looks completed)"
		}
		with(OnBoundChanged, e, "", describeOnBound(ob), describeOnBound(nb), ob.Pos, nb.Pos, s)
	}
	switch {
	case b.ChecksCancel && !h.ChecksCancel:
		with(CancelRemoved, Weakens, "", "checked", "", b.CancelPos, h.Pos,
			"the "+label+" no longer checks cancellation between steps")
	case !b.ChecksCancel && h.ChecksCancel:
		with(CancelAdded, Strengthens, "", "", "checked", b.Pos, h.CancelPos,
			"the "+label+" now checks cancellation between steps")
	}
	switch {
	case !b.ParallelTools && h.ParallelTools:
		with(ToolsParallel, Changes, "", "sequential", "parallel", b.Pos, parallelPos(h),
			"tool calls of one step of the "+label+" may now run in parallel (they ran one after the other)")
	case b.ParallelTools && !h.ParallelTools:
		with(ToolsSequential, Changes, "", "parallel", "sequential", parallelPos(b), h.Pos,
			"tool calls of one step of the "+label+" now run one after the other (they ran in parallel)")
	}
	c.sites(base, "model", b.ModelCalls, h.ModelCalls)
	c.sites(base, "tool", b.ToolCalls, h.ToolCalls)
}

func parallelPos(l model.Loop) model.Position {
	for _, s := range l.ToolCalls {
		if s.Parallel {
			return s.Pos
		}
	}
	return l.Pos
}

// defaultVerb says how a default moved: "raised" or "lowered" when both are numbers (a quoted
// number too: Python's int(getenv("LIMIT", "25"))), else "changed".
func defaultVerb(old, new string) string {
	num := func(s string) (float64, error) {
		return strconv.ParseFloat(strings.Trim(strings.TrimSpace(s), "\"'`"), 64)
	}
	o, err1 := num(old)
	n, err2 := num(new)
	if err1 == nil && err2 == nil {
		if n > o {
			return "raised"
		}
		return "lowered"
	}
	return "changed"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func describeOnBound(o *model.OnBound) string {
	s := o.Kind
	if o.Value != "" {
		s += " " + o.Value
	}
	if o.StopReason != "" {
		s += " (" + string(o.StopReason) + ")"
	}
	return s
}

// sites compares the call sites of one role a loop reaches. Sites pair by callee and source
// text, then callee and file, then callee, each in position order.
func (c *comparer) sites(base Change, role string, bs, hs []model.CallSite) {
	keys := []func(model.CallSite) string{
		func(s model.CallSite) string { return s.Callee + "\x00" + normSource(s.Source) },
		func(s model.CallSite) string { return s.Callee + "\x00" + s.Pos.File },
		func(s model.CallSite) string { return s.Callee },
	}
	bLeft, hLeft := pairUp(bs, hs, keys, func(s model.CallSite) model.Position { return s.Pos })
	bCallees, hCallees := map[string]bool{}, map[string]bool{}
	for _, s := range bs {
		bCallees[s.Callee] = true
	}
	for _, s := range hs {
		hCallees[s.Callee] = true
	}
	into, outOf, added, removed := ModelIntoLoop, ModelOutOfLoop, ModelSiteAdded, ModelSiteRemoved
	if role == "tool" {
		into, outOf, added, removed = ToolIntoLoop, ToolOutOfLoop, ToolSiteAdded, ToolSiteRemoved
	}
	for _, s := range bLeft {
		ch := base
		ch.Effect, ch.Subject, ch.OldPos = Changes, s.Callee, s.Pos
		if hCallees[s.Callee] {
			ch.Kind, ch.Summary = removed, "one "+role+" call site of "+s.Callee+" fewer in the "+base.Loop
		} else {
			ch.Kind, ch.Summary = outOf, role+" call "+s.Callee+" is no longer reached from the "+base.Loop
		}
		c.add(ch)
	}
	for _, s := range hLeft {
		ch := base
		ch.Effect, ch.Subject, ch.NewPos = Changes, s.Callee, s.Pos
		if bCallees[s.Callee] {
			ch.Kind, ch.Summary = added, "one more "+role+" call site of "+s.Callee+" in the "+base.Loop
		} else {
			ch.Kind, ch.Summary = into, role+" call "+s.Callee+" is now reached from the "+base.Loop
		}
		c.add(ch)
	}
}

func normSource(s string) string { return strings.Join(strings.Fields(s), " ") }

// pairUp pairs base and head elements pass by pass, each pass on a coarser key, and returns
// what is left unpaired on each side. Within a pass the pairs are a longest common subsequence
// of the two position-ordered sequences of keys: of two identical lines (the same call in two
// functions), each pairs with the one whose neighbours pair too, not merely the first.
func pairUp[T any](bs, hs []T, keys []func(T) string, pos func(T) model.Position) (bLeft, hLeft []T) {
	order := func(xs []T) []T {
		out := slices.Clone(xs)
		slices.SortStableFunc(out, func(a, b T) int { return comparePos(pos(a), pos(b)) })
		return out
	}
	bLeft, hLeft = order(bs), order(hs)
	for _, key := range keys {
		bk, hk := make([]string, len(bLeft)), make([]string, len(hLeft))
		for i, x := range bLeft {
			bk[i] = key(x)
		}
		for i, y := range hLeft {
			hk[i] = key(y)
		}
		bDone, hDone := lcs(bk, hk)
		var nb, nh []T
		for i, x := range bLeft {
			if !bDone[i] {
				nb = append(nb, x)
			}
		}
		for i, y := range hLeft {
			if !hDone[i] {
				nh = append(nh, y)
			}
		}
		bLeft, hLeft = nb, nh
	}
	return bLeft, hLeft
}

// lcsCells bounds the table of lcs; beyond it equal keys pair in order.
const lcsCells = 4 << 20

// lcs marks the elements of a longest common subsequence of a and b.
func lcs(a, b []string) (aIn, bIn []bool) {
	aIn, bIn = make([]bool, len(a)), make([]bool, len(b))
	if len(a)*len(b) > lcsCells {
		queue := map[string][]int{}
		for j, k := range b {
			queue[k] = append(queue[k], j)
		}
		for i, k := range a {
			if q := queue[k]; len(q) > 0 {
				aIn[i], bIn[q[0]] = true, true
				queue[k] = q[1:]
			}
		}
		return aIn, bIn
	}
	// t[i][j] = LCS length of a[i:], b[j:].
	w := len(b) + 1
	t := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j] && t[i*w+j] == t[(i+1)*w+j+1]+1:
			aIn[i], bIn[j] = true, true
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return aIn, bIn
}

type exitPair struct{ b, h model.Exit }

// exits compares an entry's exits. Exits that stand for the same thing pair first (same detail,
// outcome and stop reason: unchanged, wherever they moved); then exits with the same detail or
// the same source text in the same file pair as one exit whose outcome or stop reason changed;
// then exits of the same outcome and stop reason in the same file, whose expression changed.
func (c *comparer) exits(entry string, bs, hs []model.Exit) {
	pos := func(x model.Exit) model.Position { return x.Pos }
	detail := func(x model.Exit) string {
		if d := normSource(x.Detail); d != "" {
			return d
		}
		return normSource(x.Source)
	}
	same := []func(model.Exit) string{
		func(x model.Exit) string {
			return x.Pos.File + "\x00" + detail(x) + "\x00" + x.OutcomeString()
		},
		func(x model.Exit) string { return detail(x) + "\x00" + x.OutcomeString() },
	}
	bLeft, hLeft := pairUp(bs, hs, same, pos)
	// What is left: pair by detail, then by source text, in the same file: a changed exit.
	var changed []exitPair
	for _, key := range []func(model.Exit) string{
		func(x model.Exit) string { return x.Pos.File + "\x00" + detail(x) },
		func(x model.Exit) string { return x.Pos.File + "\x00" + normSource(x.Source) },
	} {
		var nb, nh []model.Exit
		nb, nh, changed = pairChanged(bLeft, hLeft, key, changed)
		bLeft, hLeft = nb, nh
	}
	// Exits still left that stand for the same outcome and stop reason in the same file are the
	// same exit with another expression (`return x` → `return x.final_answer`): no lifecycle
	// change. They pair by a longest common subsequence, in order.
	bLeft, hLeft = pairUp(bLeft, hLeft, []func(model.Exit) string{
		func(x model.Exit) string { return x.Pos.File + "\x00" + x.OutcomeString() },
	}, pos)
	for _, p := range changed {
		subj := detail(p.h)
		if statuses(p.b) != statuses(p.h) {
			// the outcome, or the set of outcomes of an exit taken under a guard, changed
			// weakens when an exit that ended runs failed or cancelled (and never completed) can
			// now report success
			e := Changes
			var ended []string
			for _, o := range p.b.Alternatives() {
				if (o.Outcome == string(model.StatusFailed) || o.Outcome == string(model.StatusCancelled)) && !slices.Contains(ended, o.Outcome) {
					ended = append(ended, o.Outcome)
				}
			}
			if len(ended) > 0 && !p.b.Produces(string(model.StatusCompleted)) && p.h.Produces(string(model.StatusCompleted)) {
				e = Weakens
			}
			s := "exit " + quote(subj) + " now stands for " + describeOutcome(p.h) + " (was " + describeOutcome(p.b) + ")"
			if e == Weakens {
				s += ": a " + strings.Join(ended, " or ") + " run now reports success"
			}
			c.add(Change{Kind: ExitOutcomeChanged, Effect: e, Entries: []string{entry}, Subject: subj,
				Old: describeOutcome(p.b), New: describeOutcome(p.h), OldPos: p.b.Pos, NewPos: p.h.Pos, Summary: s})
		} else if p.b.OutcomeString() != p.h.OutcomeString() {
			old, now := stopReasons(p.b), stopReasons(p.h)
			c.add(Change{Kind: ExitStopReasonChanged, Effect: Changes, Entries: []string{entry}, Subject: subj,
				Old: old, New: now, OldPos: p.b.Pos, NewPos: p.h.Pos,
				Summary: "exit " + quote(subj) + " stop reason " + old + " → " + now})
		}
	}
	headCancelled := slices.ContainsFunc(hs, func(x model.Exit) bool { return x.Produces(string(model.StatusCancelled)) })
	for _, x := range bLeft {
		ch := Change{Kind: ExitRemoved, Effect: Changes, Entries: []string{entry}, Subject: detail(x),
			Old: describeOutcome(x), OldPos: x.Pos, Summary: describeOutcome(x) + " exit " + quote(detail(x)) + " removed"}
		if x.Produces(string(model.StatusCancelled)) && !headCancelled {
			ch.Effect = Weakens
			ch.Summary += ": the run can no longer end cancelled"
		}
		c.add(ch)
	}
	for _, x := range hLeft {
		c.add(Change{Kind: ExitAdded, Effect: Changes, Entries: []string{entry}, Subject: detail(x),
			New: describeOutcome(x), NewPos: x.Pos, Summary: describeOutcome(x) + " exit " + quote(detail(x)) + " added"})
	}
}

func pairChanged(bs, hs []model.Exit, key func(model.Exit) string, acc []exitPair) (bLeft, hLeft []model.Exit, out []exitPair) {
	pairs, bLeft, hLeft := pairBy(bs, hs, key)
	for _, p := range pairs {
		acc = append(acc, exitPair{p[0], p[1]})
	}
	return bLeft, hLeft, acc
}

// pairBy pairs each element of bs, in order, with the first unpaired element of hs of the same
// key; it returns the pairs and what is left on each side, in order.
func pairBy[T any](bs, hs []T, key func(T) string) (pairs [][2]T, bLeft, hLeft []T) {
	hDone := make([]bool, len(hs))
	for _, x := range bs {
		found := -1
		for i, y := range hs {
			if !hDone[i] && key(x) == key(y) {
				found = i
				break
			}
		}
		if found < 0 {
			bLeft = append(bLeft, x)
			continue
		}
		hDone[found] = true
		pairs = append(pairs, [2]T{x, hs[found]})
	}
	for i, y := range hs {
		if !hDone[i] {
			hLeft = append(hLeft, y)
		}
	}
	return pairs, bLeft, hLeft
}

// describeOutcome is what an exit stands for: "failed (error)", or for an exit taken under a
// guard every outcome, "failed (error) | cancelled (cancelled)".
func describeOutcome(x model.Exit) string { return x.OutcomeString() }

// statuses are the outcomes an exit stands for, without stop reasons ("failed|cancelled").
func statuses(x model.Exit) string {
	var out []string
	for _, o := range x.Alternatives() {
		out = append(out, o.Outcome)
	}
	return strings.Join(out, "|")
}

// stopReasons are the stop reasons an exit stands for, "unknown" for none ("error | cancelled").
func stopReasons(x model.Exit) string {
	var out []string
	for _, o := range x.Alternatives() {
		out = append(out, orUnknown(string(o.StopReason)))
	}
	return strings.Join(out, " | ")
}

func quote(s string) string {
	if s == "" {
		return "(end of function)"
	}
	const max = 80
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return strconv.Quote(s)
}

// ids compares an entry's id sites by kind and expression, then kind and file.
func (c *comparer) ids(entry string, bs, hs []model.IDSite) {
	keys := []func(model.IDSite) string{
		func(s model.IDSite) string { return s.Kind + "\x00" + normSource(s.What) },
		func(s model.IDSite) string { return s.Kind + "\x00" + s.Pos.File + "\x00" + normSource(s.Source) },
	}
	pos := func(s model.IDSite) model.Position { return s.Pos }
	bLeft, hLeft := pairUp(bs, hs, keys, pos)
	for _, s := range bLeft {
		ch := Change{Kind: IDRemoved, Effect: Changes, Entries: []string{entry}, Subject: s.What, Old: s.Kind, OldPos: s.Pos,
			Summary: fmt.Sprintf("%s id site %s removed", s.Kind, s.What)}
		if s.Kind == model.IDParent {
			ch.Effect = Weakens
			ch.Summary = "run id no longer passed to child runs: parent id site " + s.What + " removed"
		}
		c.add(ch)
	}
	for _, s := range hLeft {
		ch := Change{Kind: IDAdded, Effect: Changes, Entries: []string{entry}, Subject: s.What, New: s.Kind, NewPos: s.Pos,
			Summary: fmt.Sprintf("%s id site %s added", s.Kind, s.What)}
		if s.Kind == model.IDParent {
			ch.Effect = Strengthens
			ch.Summary = "run id now passed to child runs: parent id site " + s.What + " added"
		}
		c.add(ch)
	}
}
