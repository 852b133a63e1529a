package cmd

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lifeline-dev/lifeline/cmd/internal/progress"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/spf13/cobra"
)

// filterFlags are the run filters of timeline and check.
type filterFlags struct {
	run, session string
	statuses     []string
	stopReasons  []string
	since, until string
	depth        int
}

// addFilterFlags adds --run, --session, --status, --stop-reason, --since, --until and, with
// depth, --depth to c.
func addFilterFlags(c *cobra.Command, f *filterFlags, depth bool) {
	fl := c.Flags()
	fl.StringVar(&f.run, "run", "", "only the run with this id")
	fl.StringVar(&f.session, "session", "", "only the runs of the session with this id")
	fl.StringSliceVar(&f.statuses, "status", nil, "only runs with this final status (repeat or comma-separate: failed,cancelled)")
	fl.StringSliceVar(&f.stopReasons, "stop-reason", nil, "only runs with this stop reason (repeat or comma-separate: max_steps,timeout)")
	fl.StringVar(&f.since, "since", "", "only runs still going at or after this time: RFC 3339, a date, or a duration before now (2h)")
	fl.StringVar(&f.until, "until", "", "only runs started before this time: RFC 3339, a date, or a duration before now")
	if depth {
		fl.IntVar(&f.depth, "depth", -1, "show the tree down to this depth: 0 sessions, 1 runs, 2 turns, 3 steps, 4 calls")
	}
	mustComplete(c, "status", complete("queued", "running", "waiting", "completed", "failed", "cancelled"))
	var reasons []string
	for _, r := range model.AllStopReasons {
		reasons = append(reasons, string(r))
	}
	mustComplete(c, "stop-reason", complete(reasons...))
}

// runFilter returns the filter the flags ask for (now is what durations count back from) and
// whether any filter or depth was given.
func (f *filterFlags) runFilter(now time.Time) (model.RunFilter, bool, error) {
	rf := model.RunFilter{RunID: f.run, SessionID: f.session}
	for _, s := range f.statuses {
		rf.Statuses = append(rf.Statuses, model.RunStatus(s))
	}
	for _, s := range f.stopReasons {
		rf.StopReasons = append(rf.StopReasons, model.StopReason(s))
	}
	var err error
	if f.since != "" {
		if rf.Since, err = model.ParseTimeBound(f.since, now); err != nil {
			return rf, false, fmt.Errorf("--since %w", err)
		}
	}
	if f.until != "" {
		if rf.Until, err = model.ParseTimeBound(f.until, now); err != nil {
			return rf, false, fmt.Errorf("--until %w", err)
		}
	}
	if err := rf.Validate(); err != nil {
		return rf, false, err
	}
	if f.depth > model.DepthCalls {
		return rf, false, fmt.Errorf("--depth %d: at most %d (calls)", f.depth, model.DepthCalls)
	}
	return rf, !rf.IsZero() || f.depth >= 0, nil
}

// readSelection is readTree for a filtered timeline: the runs are projected as they end and only
// those the filter selects are kept (cut to depth); findings are those about a kept run.
func readSelection(cmd *cobra.Command, args []string, opts tracer.Options, check bool, rf model.RunFilter, depth int, errw io.Writer) (*model.Tree, []model.Finding, error) {
	sel := model.NewSelection(rf, depth)
	var checker *model.Checker
	if check {
		checker = model.NewChecker()
	}
	sink, done := withProgress(func(ev *model.Event) {
		if checker != nil && (rf.SessionID == "" || ev.SessionID == rf.SessionID) {
			c := *ev
			checker.Check(&c)
		}
		sel.Apply(ev)
	})
	rep, readErr := tracer.Read(args, opts, sink)
	done()
	printDecodeErrors(errw, rep)
	tree := sel.Tree()
	var findings []model.Finding
	if checker != nil {
		for _, fd := range checker.Finish() {
			if sel.Concerns(fd) {
				findings = append(findings, fd)
			}
		}
	}
	return tree, findings, readErr
}

// payloadFlags are --payload-max and --redact.
type payloadFlags struct {
	max    int
	redact bool
}

// addPayloadFlags adds --payload-max and --redact to c.
func addPayloadFlags(c *cobra.Command, p *payloadFlags) {
	c.Flags().IntVar(&p.max, "payload-max", model.DefaultPayloadMax, "cut each payload (model input/output, tool arguments/results, message text) to this many bytes; 0 keeps them whole (up to 64 KiB)")
	c.Flags().BoolVar(&p.redact, "redact", false, "drop every payload and message text (model input/output, tool arguments/results)")
}

// policy is the payload policy the flags ask for.
func (p *payloadFlags) policy() (model.PayloadPolicy, error) {
	if p.max < 0 {
		return model.PayloadPolicy{}, fmt.Errorf("--payload-max %d: a size in bytes, 0 for no cut", p.max)
	}
	return model.PayloadPolicy{Max: p.max, Redact: p.redact}, nil
}

// readOptions are the tracer options of a log command reading its inputs.
func readOptions(cmd *cobra.Command, inputFormat string, pol model.PayloadPolicy) tracer.Options {
	return tracer.Options{Format: inputFormat, Stdin: cmd.InOrStdin(), Pipeline: true, Payload: pol}
}

// withProgress wraps sink with a progress line on standard error for a long input, when
// standard error is a terminal (silent otherwise); call done once reading is over.
func withProgress(sink func(*model.Event)) (wrapped func(*model.Event), done func()) {
	line := progress.New(os.Stderr, isTerminal(os.Stderr))
	if line == nil {
		return sink, func() {}
	}
	return func(ev *model.Event) {
		line.Event()
		sink(ev)
	}, line.Done
}
