package a

import (
	"context"
	"errors"

	"crashrt"
)

// crashAtEveryEvent is the shape of model/runtime's TestSubagentCrashAtEveryEvent: each
// iteration opens a fresh log, starts a run, crashes it and resumes it; the loop ends when
// nothing crashed. Each start is a new run under test, not a retry of the previous one.
func crashAtEveryEvent(ctx context.Context) error {
	for k := 1; ; k++ {
		rt, err := crashrt.Open("s.jsonl")
		if err != nil {
			return err
		}
		h, err := rt.Start(crashrt.Spec{Input: "find papers"})
		if err == nil {
			h.Wait(ctx)
		}
		crashed := rt.Crashed()
		rt.Close()
		if !crashed {
			return nil
		}
		rt2, err := crashrt.Open("s.jsonl")
		if err != nil {
			return err
		}
		hs, err := rt2.Resume()
		if err != nil {
			return err
		}
		for _, h := range hs {
			if _, err := h.Wait(ctx); err != nil {
				return err
			}
		}
	}
}

// lifetimes is the shape of model/runtime's runSeed: the first lifetime starts the run, every
// later one resumes it after a crash; a failed start ends the loop.
func lifetimes(ctx context.Context, crashes int) error {
	for life := 0; ; life++ {
		rt, err := crashrt.Open("seed.jsonl")
		if err != nil {
			return err
		}
		var hs []*crashrt.Handle
		if life == 0 {
			h, err := rt.Start(crashrt.Spec{Input: "do the task"})
			if err != nil && !rt.Crashed() {
				return err
			}
			if h != nil {
				hs = append(hs, h)
			}
		} else if !rt.Crashed() {
			if hs, err = rt.Resume(); err != nil && !rt.Crashed() {
				return err
			}
		}
		for _, h := range hs {
			if _, err := h.Wait(ctx); err != nil && !rt.Crashed() {
				return err
			}
		}
		crashed := rt.Crashed()
		rt.Close()
		if !crashed {
			return nil
		}
		crashes--
	}
}

// restartUntilDone is a retry through the same runtime: the loop goes on when the started run
// failed.
func restartUntilDone(ctx context.Context, rt *crashrt.Runtime) error {
	for i := 0; i < 3; i++ {
		h, err := rt.Start(crashrt.Spec{Input: "do the task"}) // want `retry starts a new run without ParentRunID and Attempt`
		if err != nil {
			continue
		}
		if _, err := h.Wait(ctx); err == nil {
			return nil
		}
	}
	return errors.New("three failed attempts")
}
