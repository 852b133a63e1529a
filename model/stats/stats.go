// Package stats summarises many runs, failures first: runs by status and stop reason, runs that
// hit a bound, the tools that fail most and the kinds of errors, invariant findings by rule,
// percentiles of steps, turns, duration, tokens and cost (overall and per agent, model, tool or
// day) and the slowest and costliest runs. An Aggregator takes one run at a time (what
// model.Projector.Release hands over) and keeps bounded state: counters by name (at most
// Options.MaxKeys names a table, the rest counted as "(other)"), quantile sketches of bounded
// size (see Sketch) and the Options.Top slowest and costliest runs; its memory does not grow
// with the number of runs.
package stats

import (
	"cmp"
	"slices"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// Group keys for Options.By.
const (
	ByAgent = "agent"
	ByModel = "model"
	ByTool  = "tool"
	ByDay   = "day"
)

// GroupKeys lists what Options.By takes.
var GroupKeys = []string{ByAgent, ByModel, ByTool, ByDay}

// Placeholder names of a group or table entry.
const (
	// Other is where a table's entries beyond Options.MaxKeys are counted.
	Other = "(other)"
	// Unnamed stands for a run without an agent name, a call without a model or tool name.
	Unnamed = "(unnamed)"
	// NoTime is the day of a run whose log has no timestamps.
	NoTime = "(no time)"
	// Unspecified is the kind of an error recorded without one.
	Unspecified = "(unspecified)"
)

// Options control an Aggregator.
type Options struct {
	// By is the grouping of Report.Groups: agent (default), model, tool or day (UTC).
	By string
	// Top is how many slowest and costliest runs are listed (default 10); bound hits list as
	// many run ids per bound.
	Top int
	// MaxKeys bounds the distinct names of every table (default 1000).
	MaxKeys int
}

// Aggregator accumulates runs into a Report.
type Aggregator struct {
	opts      Options
	runs      int
	open      int
	status    counter
	stop      counter
	bounds    map[model.StopReason]*Bound
	tools     map[string]*ToolCount
	kinds     map[string]*ErrorKind
	findings  map[string]*RuleCount
	overall   metrics
	groups    map[string]*groupAcc
	slowest   []RunRef
	costliest []RunRef
	totals    Totals
	late      int
}

// New returns an empty Aggregator.
func New(opts Options) *Aggregator {
	if opts.By == "" {
		opts.By = ByAgent
	}
	if opts.Top <= 0 {
		opts.Top = 10
	}
	if opts.MaxKeys <= 0 {
		opts.MaxKeys = 1000
	}
	return &Aggregator{opts: opts, status: counter{max: opts.MaxKeys}, stop: counter{max: opts.MaxKeys},
		bounds: map[model.StopReason]*Bound{}, tools: map[string]*ToolCount{}, kinds: map[string]*ErrorKind{},
		findings: map[string]*RuleCount{}, groups: map[string]*groupAcc{}}
}

// bounds are the stop reasons that mean a run hit a limit.
var boundReasons = []model.StopReason{model.StopMaxSteps, model.StopMaxTurns, model.StopTimeout, model.StopBudgetExceeded}

// counter counts by name, at most max names.
type counter struct {
	m   map[string]int
	max int
}

func (c *counter) add(k string, n int) {
	if c.m == nil {
		c.m = map[string]int{}
	}
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		k = Other
	}
	c.m[k] += n
}

// key returns k, or Other when m already holds max keys and not k.
func key[V any](m map[string]V, k string, max int) string {
	if _, ok := m[k]; !ok && len(m) >= max {
		return Other
	}
	return k
}

// metrics holds the sketches of the per-run figures.
type metrics struct {
	steps, turns, duration, tokens, cost Sketch
}

func (m *metrics) add(f runFigures) {
	m.steps.Add(float64(f.steps))
	m.turns.Add(float64(f.turns))
	if f.timed {
		m.duration.Add(float64(f.duration) / float64(time.Millisecond))
	}
	m.tokens.Add(float64(f.usage.Total()))
	m.cost.Add(f.usage.CostUSD)
}

func (m *metrics) report() Metrics {
	return Metrics{Steps: quantiles(&m.steps), Turns: quantiles(&m.turns), DurationMS: quantiles(&m.duration),
		Tokens: quantiles(&m.tokens), CostUSD: quantiles(&m.cost)}
}

type groupAcc struct {
	runs, failed, cancelled int
	m                       metrics
}

// runFigures are what a run contributes to the percentiles.
type runFigures struct {
	steps, turns          int
	duration              time.Duration
	timed                 bool
	usage                 model.Usage
	modelCalls, toolCalls int
	failedTools           int
}

// Add accounts for one run (and its turns, steps and calls). s is the run's session (may be
// nil); Add keeps no pointer to either.
func (a *Aggregator) Add(s *model.Session, r *model.Run) {
	_ = s
	a.runs++
	if !r.Ended {
		a.open++
	}
	a.status.add(string(orStatus(r.Status)), 1)
	if r.StopReason != "" {
		a.stop.add(string(r.StopReason), 1)
	} else {
		a.stop.add("(none)", 1)
	}
	if slices.Contains(boundReasons, r.StopReason) {
		b := a.bounds[r.StopReason]
		if b == nil {
			b = &Bound{StopReason: r.StopReason}
			a.bounds[r.StopReason] = b
		}
		b.Runs++
		if len(b.RunIDs) < a.opts.Top {
			b.RunIDs = append(b.RunIDs, r.ID)
		}
	}
	if r.Error != nil {
		a.kind(r.Error.Kind).Runs++
	}
	var f runFigures
	f.turns = len(r.Turns)
	f.usage = r.Usage
	if d, ok := r.DurationOK(); ok && r.Ended && !r.Start.IsZero() && !r.End.IsZero() {
		f.duration, f.timed = d, true
	}
	modelNames, toolNames := []string{}, []string{}
	for _, tu := range r.Turns {
		f.steps += len(tu.Steps)
		for _, st := range tu.Steps {
			for _, m := range st.ModelCalls {
				f.modelCalls++
				modelNames = appendNew(modelNames, orUnnamed(m.Name))
				if m.Error != nil || m.Outcome == model.OutcomeError {
					a.kind(errKind(m.Error)).ModelCalls++
				}
			}
			for _, c := range st.ToolCalls {
				f.toolCalls++
				name := orUnnamed(c.Name)
				toolNames = appendNew(toolNames, name)
				k := key(a.tools, name, a.opts.MaxKeys)
				tc := a.tools[k]
				if tc == nil {
					tc = &ToolCount{Tool: k}
					a.tools[k] = tc
				}
				tc.Calls++
				if c.Failed() {
					f.failedTools++
					tc.Failed++
					a.kind(errKind(c.Error)).ToolCalls++
				}
			}
		}
	}
	a.totals.Runs++
	a.totals.Turns += f.turns
	a.totals.Steps += f.steps
	a.totals.ModelCalls += f.modelCalls
	a.totals.ToolCalls += f.toolCalls
	a.totals.FailedToolCalls += f.failedTools
	a.totals.Tokens = model.SatAdd(a.totals.Tokens, f.usage.Total())
	a.totals.CostUSD = model.FiniteCost(a.totals.CostUSD + f.usage.CostUSD)
	a.overall.add(f)
	var keys []string
	switch a.opts.By {
	case ByModel:
		keys = modelNames
	case ByTool:
		keys = toolNames
	case ByDay:
		if r.Start.IsZero() {
			keys = []string{NoTime}
		} else {
			keys = []string{r.Start.UTC().Format(time.DateOnly)}
		}
	default:
		keys = []string{orUnnamed(r.Agent)}
	}
	for _, k := range keys {
		k = key(a.groups, k, a.opts.MaxKeys)
		g := a.groups[k]
		if g == nil {
			g = &groupAcc{}
			a.groups[k] = g
		}
		g.runs++
		switch r.Status {
		case model.StatusFailed:
			g.failed++
		case model.StatusCancelled:
			g.cancelled++
		}
		g.m.add(f)
	}
	ref := RunRef{RunID: r.ID, SessionID: r.SessionID, Agent: r.Agent, Status: orStatus(r.Status),
		StopReason: r.StopReason, Steps: f.steps, Tokens: f.usage.Total(), CostUSD: f.usage.CostUSD}
	if f.timed {
		ref.DurationMS = float64(f.duration) / float64(time.Millisecond)
		a.slowest = topK(a.slowest, ref, a.opts.Top, func(x, y RunRef) int { return cmp.Compare(y.DurationMS, x.DurationMS) })
	}
	if ref.CostUSD > 0 || ref.Tokens > 0 {
		a.costliest = topK(a.costliest, ref, a.opts.Top, func(x, y RunRef) int {
			if c := cmp.Compare(y.CostUSD, x.CostUSD); c != 0 {
				return c
			}
			return cmp.Compare(y.Tokens, x.Tokens)
		})
	}
}

// AddFindings counts invariant findings by rule (model.Checker's findings).
func (a *Aggregator) AddFindings(fs []model.Finding) {
	for _, f := range fs {
		k := key(a.findings, f.Code, a.opts.MaxKeys)
		rc := a.findings[k]
		if rc == nil {
			rc = &RuleCount{Code: k, Title: model.InvariantTitles[k]}
			a.findings[k] = rc
		}
		switch f.Severity {
		case model.SevError:
			rc.Errors++
		case model.SevWarning:
			rc.Warnings++
		default:
			rc.Info++
		}
	}
}

// SetLate records how many events arrived for runs already summarised (model.Projector.Late).
func (a *Aggregator) SetLate(n int) { a.late = n }

func (a *Aggregator) kind(k string) *ErrorKind {
	k = key(a.kinds, k, a.opts.MaxKeys)
	e := a.kinds[k]
	if e == nil {
		e = &ErrorKind{Kind: k}
		a.kinds[k] = e
	}
	return e
}

func errKind(e *model.ErrorInfo) string {
	if e == nil || e.Kind == "" {
		return Unspecified
	}
	return e.Kind
}

func orUnnamed(s string) string {
	if s == "" {
		return Unnamed
	}
	return s
}

func orStatus(s model.RunStatus) model.RunStatus {
	if s == "" {
		return "(none)"
	}
	return s
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// topK inserts ref into list (sorted by cmp, at most k long).
func topK(list []RunRef, ref RunRef, k int, cmp func(x, y RunRef) int) []RunRef {
	i, _ := slices.BinarySearchFunc(list, ref, func(x, y RunRef) int {
		if c := cmp(x, y); c != 0 {
			return c
		}
		return -1 // after equal ones: the first seen stays first
	})
	if i >= k {
		return list
	}
	list = slices.Insert(list, i, ref)
	if len(list) > k {
		list = list[:k]
	}
	return list
}

func quantiles(s *Sketch) Quantiles {
	if s.Count() == 0 {
		return Quantiles{}
	}
	return Quantiles{Count: s.Count(), Min: s.Min(), P50: s.Quantile(0.5), P90: s.Quantile(0.9),
		P99: s.Quantile(0.99), Max: s.Max(), Mean: s.Sum() / float64(s.Count()), Exact: s.Exact()}
}

// Report builds the summary of every run added so far.
func (a *Aggregator) Report() *Report {
	rep := &Report{Runs: a.runs, OpenRuns: a.open, LateEvents: a.late, By: a.opts.By, Totals: a.totals,
		Overall: a.overall.report(), Slowest: slices.Clone(a.slowest), Costliest: slices.Clone(a.costliest),
		Sketch: SketchDoc}
	rep.Totals.Runs = a.runs
	for _, s := range model.AllStatuses {
		if n := a.status.m[string(s)]; n > 0 {
			rep.ByStatus = append(rep.ByStatus, NameCount{string(s), n})
		}
	}
	for k, n := range a.status.m {
		if !model.RunStatus(k).Valid() {
			rep.ByStatus = append(rep.ByStatus, NameCount{k, n})
		}
	}
	rep.ByStopReason = sortedCounts(a.stop.m)
	for _, br := range boundReasons {
		if b := a.bounds[br]; b != nil {
			rep.Bounds = append(rep.Bounds, *b)
		}
	}
	for _, t := range a.tools {
		if t.Failed > 0 {
			rep.FailingTools = append(rep.FailingTools, *t)
		}
	}
	slices.SortFunc(rep.FailingTools, func(x, y ToolCount) int {
		return cmp.Or(cmp.Compare(y.Failed, x.Failed), cmp.Compare(y.Calls, x.Calls), cmp.Compare(x.Tool, y.Tool))
	})
	if len(rep.FailingTools) > a.opts.Top {
		rep.FailingTools = rep.FailingTools[:a.opts.Top]
	}
	for _, k := range a.kinds {
		e := *k
		e.Total = e.Runs + e.ModelCalls + e.ToolCalls
		rep.ErrorKinds = append(rep.ErrorKinds, e)
	}
	slices.SortFunc(rep.ErrorKinds, func(x, y ErrorKind) int {
		return cmp.Or(cmp.Compare(y.Total, x.Total), cmp.Compare(x.Kind, y.Kind))
	})
	for _, f := range a.findings {
		rc := *f
		rc.Total = rc.Errors + rc.Warnings + rc.Info
		rep.Findings = append(rep.Findings, rc)
	}
	slices.SortFunc(rep.Findings, func(x, y RuleCount) int { return cmp.Compare(ruleOrder(x.Code), ruleOrder(y.Code)) })
	for k, g := range a.groups {
		rep.Groups = append(rep.Groups, Group{Key: k, Runs: g.runs, Failed: g.failed, Cancelled: g.cancelled, Metrics: g.m.report()})
	}
	slices.SortFunc(rep.Groups, func(x, y Group) int {
		if a.opts.By == ByDay {
			return cmp.Compare(x.Key, y.Key)
		}
		return cmp.Or(cmp.Compare(y.Runs, x.Runs), cmp.Compare(x.Key, y.Key))
	})
	return rep
}

// ruleOrder sorts L1 … L13 by number, then the rest by name.
func ruleOrder(code string) string {
	if len(code) == 2 && code[0] == 'L' {
		return "L0" + code[1:]
	}
	return code
}

func sortedCounts(m map[string]int) []NameCount {
	out := make([]NameCount, 0, len(m))
	for k, n := range m {
		out = append(out, NameCount{k, n})
	}
	slices.SortFunc(out, func(x, y NameCount) int { return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Name, y.Name)) })
	return out
}

// Stream summarises an event stream as it arrives: a model.Projector that hands over each run
// once it has ended (model.Projector.Release), an Aggregator, and, with check, a model.Checker
// whose findings are counted by rule.
type Stream struct {
	proj    *model.Projector
	checker *model.Checker
	agg     *Aggregator
	// Keep, when set, decides which runs are summarised (the others are skipped).
	Keep func(*model.Session, *model.Run) bool
}

// NewStream returns a Stream; check runs the invariant checker too.
func NewStream(opts Options, check bool) *Stream {
	s := &Stream{proj: model.NewProjector(), agg: New(opts)}
	if check {
		s.checker = model.NewChecker()
	}
	s.proj.Release(0, func(se *model.Session, r *model.Run) {
		if s.Keep == nil || s.Keep(se, r) {
			s.agg.Add(se, r)
		}
	})
	return s
}

// Apply takes one event (the sink of tracer.Read).
func (s *Stream) Apply(ev *model.Event) {
	s.proj.Apply(ev)
	if s.checker != nil {
		c := *ev
		s.checker.Check(&c)
	}
}

// Report ends the stream: the runs not handed over yet are summarised, and the report returned.
func (s *Stream) Report() *Report {
	s.proj.Drain()
	s.agg.SetLate(s.proj.Late())
	if s.checker != nil {
		s.agg.AddFindings(s.checker.Finish())
	}
	return s.agg.Report()
}
