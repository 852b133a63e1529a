package runtime

import (
	"context"
	"sync"
	"time"
)

// Clock is the runtime's only source of time: it stamps events and measures every duration the
// runtime waits for (the run's Timeout, ModelCallTimeout, RetryBackoff, CancelGrace,
// ProbeTimeout). The runtime also puts it in the context of every model, tool, probe and hook
// call, where Sleep and ClockFrom find it, so that user code waits on the same clock.
//
// SystemClock is real time. VirtualClock is logical time for tests and demos: a run's outcome
// on it does not depend on how fast the machine is.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer whose channel receives once d has passed on this clock.
	NewTimer(d time.Duration) Timer
	// AfterFunc calls f once d has passed on this clock and returns a timer that cancels it.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a one-shot timer of a Clock.
type Timer interface {
	// C is the channel the timer sends on (nil for a timer made by AfterFunc).
	C() <-chan time.Time
	// Stop prevents the timer from firing; it reports whether it stopped it.
	Stop() bool
}

type systemClock struct{}

func (systemClock) Now() time.Time                            { return time.Now() }
func (systemClock) NewTimer(d time.Duration) Timer            { return realTimer{time.NewTimer(d)} }
func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return realTimer{time.AfterFunc(d, f)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop() bool          { return t.t.Stop() }

// SystemClock is the real clock.
var SystemClock Clock = systemClock{}

// OffsetClock reads a fixed base time plus the real time elapsed since it was made: timestamps
// are reproducible in their origin while durations stay real (and so depend on the machine's
// speed; tests use VirtualClock). Share one across the runtimes opened on a log.
type OffsetClock struct {
	base  time.Time
	start time.Time
}

// NewOffsetClock returns a clock that starts at base.
func NewOffsetClock(base time.Time) *OffsetClock {
	return &OffsetClock{base: base, start: time.Now()}
}

// Now returns base plus the real time elapsed.
func (c *OffsetClock) Now() time.Time { return c.base.Add(time.Since(c.start)) }

// NewTimer returns a real timer.
func (c *OffsetClock) NewTimer(d time.Duration) Timer { return SystemClock.NewTimer(d) }

// AfterFunc calls f after the real duration d.
func (c *OffsetClock) AfterFunc(d time.Duration, f func()) Timer { return SystemClock.AfterFunc(d, f) }

type clockKey struct{}

// WithClock returns a context that carries c (see ClockFrom).
func WithClock(ctx context.Context, c Clock) context.Context {
	return context.WithValue(ctx, clockKey{}, c)
}

// ClockFrom returns the clock ctx carries (the runtime's, in every call it makes), or
// SystemClock.
func ClockFrom(ctx context.Context) Clock {
	if c, ok := ctx.Value(clockKey{}).(Clock); ok && c != nil {
		return c
	}
	return SystemClock
}

// sleeper is implemented by clocks that wait by themselves (VirtualClock).
type sleeper interface {
	sleep(ctx context.Context, d time.Duration) error
}

// Sleep waits d on the clock ctx carries (ClockFrom), or until ctx is done (returning its error).
// Models and tools wait with it so that they keep the runtime's time.
func Sleep(ctx context.Context, d time.Duration) error {
	c := ClockFrom(ctx)
	if s, ok := c.(sleeper); ok {
		return s.sleep(ctx, d)
	}
	if d <= 0 {
		return ctx.Err()
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// withTimeout is context.WithTimeout on clock c: the context is cancelled with cause
// context.DeadlineExceeded once d has passed on c (context.Cause tells a timeout apart).
func withTimeout(ctx context.Context, c Clock, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := c.(systemClock); ok {
		return context.WithTimeout(ctx, d)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	t := c.AfterFunc(d, func() { cancel(context.DeadlineExceeded) })
	return ctx, func() {
		t.Stop()
		cancel(context.Canceled)
	}
}

// timedOut reports whether ctx ended because its deadline passed (on any clock).
func timedOut(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded
}

// --- logical time ------------------------------------------------------------------------

// VirtualClock is logical time: it starts at a base time and moves only when something waits
// on it. A Sleep (of a model, a tool, a client or the runtime's retry backoff) registers its
// wake-up time; the clock moves to the earliest wake-up once no model, tool, probe or hook call
// the runtime is waiting for is busy (each such call counts as busy until it returns or sleeps
// on this clock), and fires on the way, in time order, every timer due (the run's deadline, a
// call timeout, the cancel grace). Calls that wake at the same instant wake one at a time, in
// the order the runtime started them, each once the one before is done or sleeps again. Real
// time spent computing is zero logical time: a run gives the same events on a fast machine, a
// slow one or under -race, which is what tests and demos need. Timers alone never move it: a
// deadline passes only while something sleeps past it.
//
// Share one across the runtimes opened on one log (before and after a simulated crash).
type VirtualClock struct {
	mu       sync.Mutex
	now      time.Time
	seq      int64
	timers   []*vtimer // due time order (small: a linear scan is enough)
	sleepers map[*vsleep]struct{}
	busy     int // activities (runtime-managed calls) not sleeping on the clock
	nact     int64
	nsleep   int64
	woken    *activity // the last activity woken: the next one due at the same instant waits for it
	changed  chan struct{}
}

// NewVirtualClock returns a logical clock that starts at base.
func NewVirtualClock(base time.Time) *VirtualClock {
	return &VirtualClock{now: base, sleepers: map[*vsleep]struct{}{}, changed: make(chan struct{})}
}

// Now returns the logical time.
func (c *VirtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

type vtimer struct {
	c   *VirtualClock
	at  time.Time
	seq int64
	ch  chan time.Time
	f   func()
	on  bool // registered, not fired or stopped
}

func (t *vtimer) C() <-chan time.Time { return t.ch }

func (t *vtimer) Stop() bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if !t.on {
		return false
	}
	t.on = false
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			break
		}
	}
	return true
}

func (t *vtimer) fire(now time.Time) {
	if t.f != nil {
		t.f()
		return
	}
	select {
	case t.ch <- now:
	default:
	}
}

func (c *VirtualClock) add(d time.Duration, ch chan time.Time, f func()) *vtimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &vtimer{c: c, at: c.now.Add(d), seq: c.seq, ch: ch, f: f}
	if d <= 0 {
		now := c.now
		if f != nil {
			go f()
		} else {
			ch <- now
		}
		return t
	}
	t.on = true
	i := len(c.timers)
	for i > 0 && c.timers[i-1].at.After(t.at) {
		i--
	}
	c.timers = append(c.timers, nil)
	copy(c.timers[i+1:], c.timers[i:])
	c.timers[i] = t
	return t
}

// NewTimer returns a timer that fires once the clock has moved d forward.
func (c *VirtualClock) NewTimer(d time.Duration) Timer { return c.add(d, make(chan time.Time, 1), nil) }

// AfterFunc calls f once the clock has moved d forward: on the goroutine that moves the clock,
// before the clock moves on (a non-positive d calls it at once on its own goroutine).
func (c *VirtualClock) AfterFunc(d time.Duration, f func()) Timer { return c.add(d, nil, f) }

// Advance moves the clock forward by d, firing the timers due on the way, whatever is busy.
func (c *VirtualClock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	for {
		due := c.stepLocked(target)
		if due == nil && !c.now.Before(target) {
			c.mu.Unlock()
			return
		}
		c.fireUnlocked(due)
	}
}

// stepLocked moves the clock to the earlier of target and the next timer, and removes the
// timers due then. Call with c.mu held.
func (c *VirtualClock) stepLocked(target time.Time) []*vtimer {
	next := target
	if len(c.timers) > 0 && c.timers[0].at.Before(next) {
		next = c.timers[0].at
	}
	if next.After(c.now) {
		c.now = next
	}
	var due []*vtimer
	for len(c.timers) > 0 && !c.timers[0].at.After(c.now) {
		t := c.timers[0]
		t.on = false
		c.timers = c.timers[1:]
		due = append(due, t)
	}
	c.notifyLocked()
	return due
}

// fireUnlocked fires timers outside the lock and takes it again.
func (c *VirtualClock) fireUnlocked(due []*vtimer) {
	now := c.now
	c.mu.Unlock()
	for _, t := range due {
		t.fire(now)
	}
	c.mu.Lock()
}

func (c *VirtualClock) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

type vsleep struct {
	until time.Time
	order int64 // wake-up order among sleepers due at one instant
}

// nextDue reports whether s may wake now: it is due, no sleeper due before it in order is still
// waiting, and the activity woken last is done or asleep again. Call with c.mu held.
func (c *VirtualClock) nextDue(s *vsleep) bool {
	if c.now.Before(s.until) {
		return false
	}
	for o := range c.sleepers {
		if o != s && !c.now.Before(o.until) && o.order < s.order {
			return false
		}
	}
	w := c.woken
	return w == nil || w.ended || w.parked > 0
}

// earliest reports whether no other sleeper wakes before s. Call with c.mu held.
func (c *VirtualClock) earliest(s *vsleep) bool {
	for o := range c.sleepers {
		if o.until.Before(s.until) {
			return false
		}
	}
	return true
}

func (c *VirtualClock) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	act := activityOf(ctx, c)
	c.mu.Lock()
	c.nsleep++
	s := &vsleep{until: c.now.Add(d), order: 1<<62 + c.nsleep} // other sleepers after activities
	if act != nil {
		s.order = act.seq
	}
	c.sleepers[s] = struct{}{}
	act.parkLocked()
	c.notifyLocked()
	defer func() {
		delete(c.sleepers, s)
		act.unparkLocked()
		c.notifyLocked()
		c.mu.Unlock()
	}()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.nextDue(s) {
			if act != nil {
				c.woken = act
			}
			return nil
		}
		if c.now.Before(s.until) && c.busy == 0 && c.earliest(s) {
			c.fireUnlocked(c.stepLocked(s.until))
			continue
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		c.mu.Lock()
	}
}

// An activity is a call the runtime waits for (a model, tool, probe, hook or success check
// call, with the runtime's bookkeeping around it). While it is busy — neither sleeping on the
// clock nor ended — a VirtualClock does not move: what it computes takes no logical time.
type activity struct {
	c      *VirtualClock
	seq    int64 // start order
	parked int   // > 0 while sleeping on the clock (or waiting for a run)
	ended  bool
}

type activityKey struct{}

// beginActivity marks the start of a call the runtime waits for and returns the context to
// give it and the function that ends the activity (idempotent). Without a VirtualClock both are
// no-ops.
func beginActivity(ctx context.Context) (context.Context, func()) {
	vc, ok := ClockFrom(ctx).(interface{ virtual() *VirtualClock })
	if !ok {
		return ctx, func() {}
	}
	c := vc.virtual()
	c.mu.Lock()
	c.nact++
	a := &activity{c: c, seq: c.nact}
	c.busy++
	c.mu.Unlock()
	return context.WithValue(ctx, activityKey{}, a), func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if a.ended {
			return
		}
		a.ended = true
		if a.parked == 0 {
			c.busy--
		}
		c.notifyLocked()
	}
}

func (c *VirtualClock) virtual() *VirtualClock { return c }

// activityOf returns the activity of ctx on clock c (nil when none).
func activityOf(ctx context.Context, c *VirtualClock) *activity {
	if a, ok := ctx.Value(activityKey{}).(*activity); ok && a.c == c {
		return a
	}
	return nil
}

func (a *activity) parkLocked() {
	if a == nil || a.ended {
		return
	}
	if a.parked == 0 {
		a.c.busy--
	}
	a.parked++
}

func (a *activity) unparkLocked() {
	if a == nil || a.ended || a.parked == 0 {
		return
	}
	a.parked--
	if a.parked == 0 {
		a.c.busy++
	}
}

// parked marks ctx's activity as waiting (not busy) until the returned function is called: a
// call that waits for another run (a sub-agent) does not hold the clock still meanwhile.
func parked(ctx context.Context) func() {
	a, _ := ctx.Value(activityKey{}).(*activity)
	if a == nil {
		return func() {}
	}
	a.c.mu.Lock()
	a.parkLocked()
	a.c.notifyLocked()
	a.c.mu.Unlock()
	return func() {
		a.c.mu.Lock()
		a.unparkLocked()
		a.c.notifyLocked()
		a.c.mu.Unlock()
	}
}
