package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// Errors returned by the runtime's API.
var (
	// ErrCrashed is returned once the runtime stopped abruptly (Crash, a crash point, or an I/O
	// error on the log): nothing more is written; open a new Runtime on the log to recover.
	ErrCrashed = errors.New("runtime stopped (crash): reopen the log to recover")
	// ErrRunEnded is returned when input or a cancellation is sent to a run that has ended.
	ErrRunEnded = errors.New("run has ended")
	// ErrNoTurn is returned by CancelTurn when the run has no turn in progress.
	ErrNoTurn = errors.New("run has no turn in progress")
	// ErrSessionEnded is returned when a run is started in an ended session.
	ErrSessionEnded = errors.New("session has ended")
)

// Options configure a Runtime.
type Options struct {
	// Path is the session's event log (created when missing).
	Path string
	// Agents are the agent configurations runs may use; a run read back from the log is resumed
	// with the agent of its name. Start adds the agent it is given.
	Agents []*Agent
	// Clock stamps events and measures every timeout, deadline, backoff and grace period of
	// the runtime; model and tool calls find it in their context (ClockFrom, Sleep). Default
	// SystemClock; tests and demos use a VirtualClock.
	Clock Clock
	// IDs mints ids (default UUIDs).
	IDs IDGen
	// CrashAt, when set, is asked after every event is durably written; returning true stops the
	// runtime abruptly at that point, as a process crash would (deterministic crash tests).
	CrashAt func(ev model.Event) bool
	// NoSync skips fsync on append (never in production; see Log.NoSync).
	NoSync bool
}

// Runtime runs the agent runs of one session over its durable event log. It is safe for
// concurrent use.
type Runtime struct {
	mu           sync.Mutex
	opts         Options
	clock        Clock
	ids          IDGen
	log          *Log
	recovery     Recovery
	session      string
	sessionEnded bool
	events       []model.Event
	lastTS       time.Time
	used         map[string]bool
	agents       map[string]*Agent
	runs         map[string]*runState
	runOrder     []string
	execs        map[string]*runExec
	conns        map[string]string // open connection → run
	connOrder    []string
	crashed      bool
	changed      chan struct{} // closed and replaced on every append and on a crash
	root         context.Context
	stop         context.CancelFunc
	wg           sync.WaitGroup // run loops
	inflight     sync.WaitGroup // model, tool, probe, hook and check calls (user code)
}

// Open opens the session log at opts.Path, reads it back (a torn last line is truncated and
// reported by Recovery) and rebuilds the state of every run from its events. A new log starts a
// session. Runs left live by a previous process are continued by Resume.
func Open(opts Options) (*Runtime, error) {
	if opts.Path == "" {
		return nil, errors.New("runtime: Options.Path is required")
	}
	if opts.Clock == nil {
		opts.Clock = SystemClock
	}
	if opts.IDs == nil {
		opts.IDs = UUIDs
	}
	lg, events, rec, err := openLog(opts.Path, opts.NoSync)
	if err != nil {
		return nil, fmt.Errorf("open session log: %w", err)
	}
	rt := &Runtime{opts: opts, clock: opts.Clock, ids: opts.IDs, log: lg, recovery: rec,
		used: map[string]bool{}, agents: map[string]*Agent{}, runs: map[string]*runState{},
		execs: map[string]*runExec{}, conns: map[string]string{}, changed: make(chan struct{})}
	rt.root, rt.stop = context.WithCancel(WithClock(context.Background(), opts.Clock))
	for _, a := range opts.Agents {
		if err := rt.register(a); err != nil {
			lg.Close()
			return nil, err
		}
	}
	for i := range events {
		rt.events = append(rt.events, events[i])
		rt.lastTS = events[i].TS
		rt.apply(&rt.events[len(rt.events)-1])
	}
	if len(events) == 0 {
		rt.mu.Lock()
		_, err := rt.append(&model.Event{Type: model.SessionStart, SessionID: rt.newID("session")})
		rt.mu.Unlock()
		if err != nil {
			lg.Close()
			return nil, fmt.Errorf("start session: %w", err)
		}
	}
	return rt, nil
}

func (rt *Runtime) register(a *Agent) error {
	if a == nil || a.Name == "" || a.Model == nil {
		return errors.New("runtime: an agent needs a name and a model")
	}
	if have, ok := rt.agents[a.Name]; ok && have != a {
		return fmt.Errorf("runtime: two different agents named %q", a.Name)
	}
	rt.agents[a.Name] = a
	for _, r := range rt.runs {
		if r.agentName == a.Name && r.agent == nil {
			r.agent = a
		}
	}
	return nil
}

// Recovery reports what Open found in the log (events read, torn line truncated).
func (rt *Runtime) Recovery() Recovery { return rt.recovery }

// SessionID returns the session's id.
func (rt *Runtime) SessionID() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.session
}

// newID mints an id never used in this session's log. Call with rt.mu held.
func (rt *Runtime) newID(kind string) string {
	for {
		id := rt.ids(kind)
		if !rt.used[id] {
			rt.used[id] = true
			return id
		}
	}
}

// append stamps, writes (durably), reads back and applies one event. Call with rt.mu held.
// It fails once the runtime crashed; an I/O error crashes the runtime (it cannot go on without
// durability).
func (rt *Runtime) append(ev *model.Event) (model.Event, error) {
	if rt.crashed {
		return model.Event{}, ErrCrashed
	}
	ev.V = model.SchemaVersion
	if ev.SessionID == "" {
		ev.SessionID = rt.session
	}
	if ev.Source == "" {
		ev.Source = model.SourceRuntime
	}
	ts := rt.clock.Now().UTC().Round(0)
	if ts.Before(rt.lastTS) {
		ts = rt.lastTS // timestamps never go backwards along seq
	}
	ev.TS = ts
	if codeSiteTypes[ev.Type] {
		recordCodeSite(ev)
	}
	back, err := rt.log.Append(ev)
	if err != nil {
		rt.crashLocked()
		return model.Event{}, fmt.Errorf("%w: %w", ErrCrashed, err)
	}
	rt.lastTS = back.TS
	rt.events = append(rt.events, back)
	rt.apply(&rt.events[len(rt.events)-1])
	rt.notify()
	if rt.opts.CrashAt != nil && rt.opts.CrashAt(back) {
		rt.crashLocked()
	}
	return back, nil
}

func (rt *Runtime) crashLocked() {
	if rt.crashed {
		return
	}
	rt.crashed = true
	rt.log.Close()
	rt.stop()
	rt.notify()
	for _, e := range rt.execs {
		e.wakeUp()
	}
}

// Crash stops the runtime abruptly, as a process crash would: nothing more is written, every
// run loop, model call and tool is abandoned. Open a new Runtime on the log to recover.
func (rt *Runtime) Crash() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.crashLocked()
}

// Crashed reports whether the runtime has stopped.
func (rt *Runtime) Crashed() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.crashed
}

// Close stops the runtime (live runs stay live in the log, to be resumed by a later Open) and
// waits for its run loops to return.
func (rt *Runtime) Close() error {
	rt.Crash()
	rt.wg.Wait()
	return nil
}

// Events returns a copy of the events of the log so far.
func (rt *Runtime) Events() []model.Event {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return cloneEvents(rt.events)
}

// cloneEvents copies events with their own top-level attrs maps, so that a consumer that writes
// into them (model.Project merges end attrs into start attrs) never touches the runtime's copy.
func cloneEvents(evs []model.Event) []model.Event {
	out := make([]model.Event, len(evs))
	for i, ev := range evs {
		if ev.Attrs != nil {
			m := make(map[string]any, len(ev.Attrs))
			for k, v := range ev.Attrs {
				m[k] = v
			}
			ev.Attrs = m
		}
		out[i] = ev
	}
	return out
}

// Tree projects the events so far onto the lifecycle tree (on a copy: the projection writes into
// the attrs of the events it is given).
func (rt *Runtime) Tree() *model.Tree { return model.Project(rt.Events()) }

// RunSpec describes a run to start.
type RunSpec struct {
	// Input is the user message the run starts from.
	Input string
	// ParentRunID, Attempt and Kind relate the run to an earlier one ("retry", "resume",
	// "handoff", "subagent"); Attempt defaults to 1.
	ParentRunID string
	Attempt     int
	Kind        string
	parentCall  string
}

// Start queues a run of agent in the session and starts executing it.
func (rt *Runtime) Start(agent *Agent, spec RunSpec) (*RunHandle, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.crashed {
		return nil, ErrCrashed
	}
	if rt.sessionEnded {
		return nil, ErrSessionEnded
	}
	if err := rt.register(agent); err != nil {
		return nil, err
	}
	if spec.Attempt == 0 {
		spec.Attempt = 1
	}
	id := rt.newID("run")
	// The input is durable in the same record that makes the run resumable (attrs.input): a
	// crash before the user message is written cannot leave a run without its input.
	attrs := map[string]any{attrInput: spec.Input}
	if spec.parentCall != "" {
		attrs[attrParentCall] = spec.parentCall
	}
	if _, err := rt.append(&model.Event{Type: model.RunQueued, RunID: id, ParentRunID: spec.ParentRunID, Attempt: spec.Attempt,
		Kind: spec.Kind, Name: agent.Name, AgentVersion: agent.Version, Attrs: attrs}); err != nil {
		return nil, fmt.Errorf("queue run: %w", err)
	}
	if _, err := rt.append(inputMessage(id, spec.Input)); err != nil {
		return nil, fmt.Errorf("record run input: %w", err)
	}
	e := rt.newExec(rt.runs[id])
	rt.launch(e)
	return e.handle, nil
}

// inputMessage is the user message a run starts from.
func inputMessage(runID, text string) *model.Event {
	return &model.Event{Type: model.Message, RunID: runID, Role: "user", Text: text, Source: model.SourceClient}
}

// Retry starts a new run that retries the ended run runID: same agent and input, parent_run_id
// runID, attempt+1, kind "retry". Only a failed or cancelled run may be retried.
func (rt *Runtime) Retry(runID string) (*RunHandle, error) {
	rt.mu.Lock()
	r := rt.runs[runID]
	var agent *Agent
	var spec RunSpec
	var err error
	switch {
	case r == nil:
		err = fmt.Errorf("retry: no run %s in this session", runID)
	case !r.ended || r.status == model.StatusCompleted:
		err = fmt.Errorf("retry: run %s is %s; only a failed or cancelled run is retried", runID, r.status)
	case r.agent == nil:
		err = fmt.Errorf("retry: run %s used agent %q, which is not registered", runID, r.agentName)
	default:
		agent = r.agent
		spec = RunSpec{Input: r.input, ParentRunID: r.id, Attempt: max(r.attempt, 1) + 1, Kind: "retry"}
	}
	rt.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return rt.Start(agent, spec)
}

// Resume continues, after a restart, every run the log shows live: connections of the dead
// process are closed, each run gets run/resumed and its loop carries on from its durable state
// (reconciling calls that were in flight). It returns the handles of the resumed runs.
func (rt *Runtime) Resume() ([]*RunHandle, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.crashed {
		return nil, ErrCrashed
	}
	open := make([]string, 0, len(rt.conns))
	for _, id := range rt.connOrder {
		if _, ok := rt.conns[id]; ok {
			open = append(open, id)
		}
	}
	for _, id := range open {
		if _, err := rt.append(&model.Event{Type: model.ConnectionClose, ConnectionID: id, RunID: rt.conns[id],
			Attrs: map[string]any{attrReason: "process restarted; the transport is gone"}}); err != nil {
			return nil, fmt.Errorf("close stale connection: %w", err)
		}
	}
	var execs []*runExec
	for _, id := range rt.runOrder {
		r := rt.runs[id]
		if r.ended || rt.execs[id] != nil {
			continue
		}
		if r.agent == nil {
			return nil, fmt.Errorf("resume run %s: agent %q is not registered (Options.Agents)", id, r.agentName)
		}
		if _, err := rt.append(&model.Event{Type: model.RunResumed, RunID: id}); err != nil {
			return nil, fmt.Errorf("resume run %s: %w", id, err)
		}
		execs = append(execs, rt.newExec(r))
	}
	handles := make([]*RunHandle, len(execs))
	for i, e := range execs { // every handle exists before any loop runs (probes may wait on children)
		rt.launch(e)
		handles[i] = e.handle
	}
	return handles, nil
}

// Run returns the handle of a run executing in this runtime, or nil.
func (rt *Runtime) Run(id string) *RunHandle {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if e := rt.execs[id]; e != nil {
		return e.handle
	}
	return nil
}

// RunIDs returns the ids of the session's runs in the order they were queued.
func (rt *Runtime) RunIDs() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]string(nil), rt.runOrder...)
}

// EndSession writes session/end. Every run must have ended.
func (rt *Runtime) EndSession() error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var live []string
	for _, id := range rt.runOrder {
		if !rt.runs[id].ended {
			live = append(live, id)
		}
	}
	if len(live) > 0 {
		return fmt.Errorf("end session: runs still live: %v", live)
	}
	if rt.sessionEnded {
		return nil
	}
	for _, id := range rt.connOrder {
		if run, ok := rt.conns[id]; ok {
			if _, err := rt.append(&model.Event{Type: model.ConnectionClose, ConnectionID: id, RunID: run, Source: model.SourceClient}); err != nil {
				return fmt.Errorf("end session: %w", err)
			}
		}
	}
	if _, err := rt.append(&model.Event{Type: model.SessionEnd}); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// Result is how a run ended (or stands).
type Result struct {
	RunID      string           `json:"run_id"`
	Status     model.RunStatus  `json:"status"`
	WaitReason model.WaitReason `json:"wait_reason,omitempty"`
	// Transitions counts the run's status changes so far (queued counts as none): a client
	// that acted on a status waits for this number to grow.
	Transitions int              `json:"transitions"`
	StopReason  model.StopReason `json:"stop_reason,omitempty"`
	Error       *model.ErrorInfo `json:"error,omitempty"`
	// Text is the run's last assistant text.
	Text  string      `json:"text,omitempty"`
	Usage model.Usage `json:"usage,omitzero"`
	Turns int         `json:"turns"`
	Steps int         `json:"steps"`
}

// RunHandle controls one run executing in a Runtime.
type RunHandle struct {
	e *runExec
}

// ID returns the run id.
func (h *RunHandle) ID() string { return h.e.run.id }

// Done is closed when the run's loop returns (the run ended, or the runtime stopped).
func (h *RunHandle) Done() <-chan struct{} { return h.e.done }

// Wait waits for the run's loop to return and reports the run's result. It returns ErrCrashed
// when the runtime stopped before the run ended.
func (h *RunHandle) Wait(ctx context.Context) (Result, error) {
	select {
	case <-h.e.done:
	case <-ctx.Done():
		return h.Result(), fmt.Errorf("wait for run %s: %w", h.ID(), ctx.Err())
	}
	res := h.Result()
	if !h.e.ended() {
		if h.e.err != nil {
			return res, h.e.err
		}
		return res, ErrCrashed
	}
	return res, nil
}

// Result returns the run's current result.
func (h *RunHandle) Result() Result {
	rt := h.e.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return h.e.run.result()
}

// WaitFor waits until cond holds for the run's result (checked after every event), the run's
// loop returns, or ctx is done.
func (h *RunHandle) WaitFor(ctx context.Context, cond func(Result) bool) error {
	rt := h.e.rt
	for {
		rt.mu.Lock()
		res, ch, crashed := h.e.run.result(), rt.changed, rt.crashed
		rt.mu.Unlock()
		if cond(res) {
			return nil
		}
		if crashed {
			return ErrCrashed
		}
		select {
		case <-ch:
		case <-h.e.done:
			if cond(h.Result()) {
				return nil
			}
			return fmt.Errorf("run %s: loop returned before the condition held (status %s)", h.ID(), h.Status())
		case <-ctx.Done():
			return fmt.Errorf("wait for run %s: %w", h.ID(), ctx.Err())
		}
	}
}

// WaitStatus waits until the run has status s (see WaitFor).
func (h *RunHandle) WaitStatus(ctx context.Context, s model.RunStatus) error {
	return h.WaitFor(ctx, func(r Result) bool { return r.Status == s })
}

// Status returns the run's current status.
func (h *RunHandle) Status() model.RunStatus { return h.Result().Status }

// Steer sends steering input: it enters the next step of the current turn.
func (h *RunHandle) Steer(text string) error { return h.e.input(model.InputSteer, text) }

// FollowUp sends follow-up input: it waits for the turn's stop boundary and starts a new turn.
func (h *RunHandle) FollowUp(text string) error { return h.e.input(model.InputFollowUp, text) }

// Approve grants the approval a tool call waits for.
func (h *RunHandle) Approve(callID string) error { return h.e.resolve(callID, model.DecisionApproved) }

// Deny refuses the approval a tool call waits for; the model is told the call was not run.
func (h *RunHandle) Deny(callID string) error { return h.e.resolve(callID, model.DecisionDenied) }

// PendingApprovals returns the ids of the tool calls whose approval was requested and is not
// decided yet.
func (h *RunHandle) PendingApprovals() []string {
	rt := h.e.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var out []string
	for _, c := range h.e.run.pendingApprovals() {
		if c.requested {
			out = append(out, c.req.ID)
		}
	}
	return out
}

// CancelModelCall aborts the model call in flight (only it: the step retries it). It reports
// whether a call was in flight.
func (h *RunHandle) CancelModelCall() bool {
	e := h.e
	e.rt.mu.Lock()
	defer e.rt.mu.Unlock()
	if e.modelCancel == nil {
		return false
	}
	e.modelCancelled = true
	e.modelCancel()
	return true
}

// CancelTurn cancels the current turn: in-flight calls are cancelled and the turn ends
// cancelled; the run carries on with its pending input, or waits for user input.
func (h *RunHandle) CancelTurn() error {
	e := h.e
	e.rt.mu.Lock()
	defer e.rt.mu.Unlock()
	if e.run.ended {
		return ErrRunEnded
	}
	if e.run.turn == nil {
		return ErrNoTurn
	}
	e.turnCancelReq = e.run.turn.id
	if e.turnCancel != nil && e.turnID == e.run.turn.id {
		e.turnCancel()
	}
	e.wakeUp()
	return nil
}

// Cancel cancels the run: it ends with status cancelled (stop reason cancelled).
func (h *RunHandle) Cancel() error {
	e := h.e
	e.rt.mu.Lock()
	defer e.rt.mu.Unlock()
	if e.run.ended {
		return ErrRunEnded
	}
	e.signal(model.StopCancelled, &model.ErrorInfo{Kind: "cancelled", Message: "run cancelled"})
	return nil
}

// Conn is a client's live connection to a run. It is transport only: closing it never changes
// the run.
type Conn struct {
	rt     *Runtime
	id     string
	runID  string
	cursor int64
	closed bool
}

// Attach opens a connection to a run; since is the seq the client has already seen (0 for
// everything), so that a reattach restores the client's view.
func (rt *Runtime) Attach(runID string, since int64) (*Conn, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.runs[runID] == nil {
		return nil, fmt.Errorf("attach: no run %s in this session", runID)
	}
	c := &Conn{rt: rt, id: rt.newID("conn"), runID: runID, cursor: since}
	if _, err := rt.append(&model.Event{Type: model.ConnectionOpen, ConnectionID: c.id, RunID: runID, Source: model.SourceClient}); err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	return c, nil
}

// ID returns the connection id.
func (c *Conn) ID() string { return c.id }

// Cursor returns the seq of the last event the connection delivered.
func (c *Conn) Cursor() int64 { return c.cursor }

// Catchup returns the run's events the connection has not delivered yet and advances its cursor.
func (c *Conn) Catchup() []model.Event {
	c.rt.mu.Lock()
	defer c.rt.mu.Unlock()
	var out []model.Event
	for _, ev := range c.rt.events {
		if ev.Seq > c.cursor && ev.RunID == c.runID {
			out = append(out, ev)
		}
	}
	if n := len(c.rt.events); n > 0 && c.rt.events[n-1].Seq > c.cursor {
		c.cursor = c.rt.events[n-1].Seq
	}
	return out
}

// Close drops the connection (connection/close); the run is not affected.
func (c *Conn) Close() error {
	c.rt.mu.Lock()
	defer c.rt.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if _, ok := c.rt.conns[c.id]; !ok {
		return nil
	}
	if _, err := c.rt.append(&model.Event{Type: model.ConnectionClose, ConnectionID: c.id, RunID: c.runID, Source: model.SourceClient}); err != nil {
		return fmt.Errorf("close connection %s: %w", c.id, err)
	}
	return nil
}

func (rt *Runtime) notify() {
	close(rt.changed)
	rt.changed = make(chan struct{})
}
