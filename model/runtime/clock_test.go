package runtime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// testBase is the logical origin of the tests' clocks.
var testBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// slowClock is a VirtualClock on a machine that is slow in real time: every reading of the
// clock (one per event written, and more) first burns real time.
type slowClock struct {
	*VirtualClock
	delay time.Duration
	reads atomic.Int64
}

func (c *slowClock) Now() time.Time {
	c.reads.Add(1)
	time.Sleep(c.delay)
	return c.VirtualClock.Now()
}

// logLines plays a scenario on clock and returns its log, line by line.
func logLines(t *testing.T, name string, clock Clock) ([]string, *ScenarioResult) {
	t.Helper()
	res, err := RunScenario(context.Background(), name, ScenarioOptions{Path: filepath.Join(t.TempDir(), "s.jsonl"), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, ev := range res.Events {
		b, err := ev.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	return lines, res
}

func sameLog(t *testing.T, what string, got, want []string) {
	t.Helper()
	for k := range max(len(got), len(want)) {
		if k >= len(got) || k >= len(want) || got[k] != want[k] {
			g, w := "(none)", "(none)"
			if k < len(got) {
				g = got[k]
			}
			if k < len(want) {
				w = want[k]
			}
			t.Errorf("%s: event %d differs:\n got %s\nwant %s", what, k+1, g, w)
			return
		}
	}
}

// TestScenariosDeterministic: every scenario, played again on a VirtualClock with the same
// origin, writes the very same log (timestamps, ids, order), here five times in a row.
func TestScenariosDeterministic(t *testing.T) {
	for _, sc := range Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			want, _ := logLines(t, sc.Name, NewVirtualClock(testBase))
			for i := range 4 {
				got, _ := logLines(t, sc.Name, NewVirtualClock(testBase))
				sameLog(t, fmt.Sprintf("replay %d", i+2), got, want)
			}
		})
	}
}

// TestScenariosUnderSlowness plays every scenario on a clock whose every reading costs 3 ms of
// real time (so the timeout scenario's 80 ms deadline is long past in real time before its
// first step ends), with a single P: the log is byte for byte the one of a normal run, its
// shape the expected one, its invariants clean. On a real clock (the runtime before logical
// time) the timeout scenario ends "steps: want 2, got 1".
func TestScenariosUnderSlowness(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	for _, sc := range Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			want, _ := logLines(t, sc.Name, NewVirtualClock(testBase))
			clock := &slowClock{VirtualClock: NewVirtualClock(testBase), delay: 3 * time.Millisecond}
			got, res := logLines(t, sc.Name, clock)
			if diff := sc.Expect.Diff(ShapeOf(res.Tree)); diff != "" {
				t.Errorf("shape under slowness: %s", diff)
			}
			for _, f := range cleanFindings(res.Events) {
				t.Errorf("finding: %s", f)
			}
			sameLog(t, "slow run", got, want)
			if clock.reads.Load() < 10 {
				t.Errorf("the clock was read %d times: the slowness did not apply", clock.reads.Load())
			}
		})
	}
}

// TestScenarioTimesAreLogical: on a VirtualClock a scenario's times are the sums of its
// scripted durations: the timeout scenario's run ends exactly at its 80 ms deadline.
func TestScenarioTimesAreLogical(t *testing.T) {
	_, res := logLines(t, "timeout", NewVirtualClock(testBase))
	var start, end time.Time
	for _, ev := range res.Events {
		switch ev.Type {
		case model.RunStart:
			start = ev.TS
		case model.RunEnd:
			end = ev.TS
		}
	}
	if d := end.Sub(start); d != 80*time.Millisecond {
		t.Errorf("run lasted %s of logical time, want exactly its 80ms deadline", d)
	}
}

// TestVirtualClock pins the clock's rules: time moves only when something sleeps and nothing
// the runtime waits for is busy; timers fire in time order on the way; a sleep ends early when
// its context is cancelled by a timer it passes.
func TestVirtualClock(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t.Run("timers fire in order while a sleeper passes them", func(t *testing.T) {
		c := NewVirtualClock(base)
		var order []string
		c.AfterFunc(30*time.Millisecond, func() { order = append(order, "30") })
		c.AfterFunc(10*time.Millisecond, func() { order = append(order, "10") })
		tm := c.NewTimer(20 * time.Millisecond)
		if err := Sleep(WithClock(context.Background(), c), 50*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		select {
		case <-tm.C():
		default:
			t.Error("20ms timer did not fire")
		}
		if got := c.Now().Sub(base); got != 50*time.Millisecond {
			t.Errorf("now %s, want 50ms", got)
		}
		if len(order) != 2 || order[0] != "10" || order[1] != "30" {
			t.Errorf("AfterFunc order %v", order)
		}
	})
	t.Run("a timer alone never moves time", func(t *testing.T) {
		c := NewVirtualClock(base)
		tm := c.NewTimer(time.Millisecond)
		time.Sleep(5 * time.Millisecond) // real time passes; logical time does not
		select {
		case <-tm.C():
			t.Error("timer fired without anything sleeping")
		default:
		}
		if !c.Now().Equal(base) {
			t.Errorf("time moved to %s", c.Now())
		}
		c.Advance(time.Millisecond)
		select {
		case <-tm.C():
		default:
			t.Error("Advance did not fire the timer")
		}
	})
	t.Run("a deadline passed by a sleep cancels it at the deadline", func(t *testing.T) {
		c := NewVirtualClock(base)
		ctx, cancel := withTimeout(WithClock(context.Background(), c), c, 80*time.Millisecond)
		defer cancel()
		err := Sleep(ctx, 2*time.Second)
		if !errors.Is(err, context.Canceled) || !timedOut(ctx) {
			t.Fatalf("sleep past the deadline: %v (timed out %v)", err, timedOut(ctx))
		}
		if got := c.Now().Sub(base); got != 80*time.Millisecond {
			t.Errorf("now %s, want the 80ms deadline", got)
		}
	})
	t.Run("a busy activity holds time still", func(t *testing.T) {
		c := NewVirtualClock(base)
		ctx := WithClock(context.Background(), c)
		actx, end := beginActivity(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			Sleep(ctx, 10*time.Millisecond) // a client sleep: waits for the activity
		}()
		waitSleepers(c, 1)
		if !c.Now().Equal(base) {
			t.Fatalf("time moved while an activity was busy")
		}
		if err := Sleep(actx, 4*time.Millisecond); err != nil { // the activity sleeps first: it is earliest
			t.Fatal(err)
		}
		if got := c.Now().Sub(base); got != 4*time.Millisecond {
			t.Errorf("now %s after the activity's sleep, want 4ms", got)
		}
		end()
		<-done
		if got := c.Now().Sub(base); got != 10*time.Millisecond {
			t.Errorf("now %s, want 10ms", got)
		}
	})
}

// waitSleepers waits (without any real-time bound) until n sleepers wait on c.
func waitSleepers(c *VirtualClock, n int) {
	for {
		c.mu.Lock()
		k := len(c.sleepers)
		c.mu.Unlock()
		if k >= n {
			return
		}
		goruntime.Gosched()
	}
}
