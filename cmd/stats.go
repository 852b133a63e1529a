package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/stats"
	renderstats "github.com/lifeline-dev/lifeline/render/stats"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/store"
	"github.com/spf13/cobra"
)

type statsFlags struct {
	inputFormat string
	format      string
	out         string
	by          string
	top         int
	check       bool
	title       string
	data        []string
}

func newStatsCmd() *cobra.Command {
	var f statsFlags
	c := &cobra.Command{
		Use:   "stats [FILE|DIR…] [--data DIR…]",
		Short: "Summarise many runs, failures first: statuses, stop reasons, bounds, failing tools, percentiles",
		Long: `stats reads logs in any supported format (like timeline: auto-detected, several files
merged, a directory for the logs in it, "-" or a pipe for standard input) and summarises every
run, failures first: runs by status and stop reason, runs that hit a bound (max_steps,
max_turns, timeout, budget_exceeded), the tools that fail most, error kinds, invariant findings
by rule, steps/turns/duration/tokens/cost percentiles (p50, p90, p99) over all runs and per
--by group (agent, model, tool or day), and the slowest and costliest runs with their ids.

It streams: each run is summarised once it has ended and then forgotten, so memory does not
grow with the input (only the invariant checker's table of ids, 8 bytes an id, does; --check=false
turns it off). Percentiles are exact up to 1024 runs a group, then from a DDSketch within 1%.

--data DIR reads the journal of a lifeline serve data directory (DIR/spans.jsonl and
DIR/events.jsonl); give it several times to summarise several stores together, as behind a
load-balancing Collector that shards a fleet's traces by trace id.

--format text (default), json, or html (one self-contained page with charts; give -o FILE).
Exit status: 0, or 1 when an input could not be read at all.`,
		Example: `  lifeline stats testdata/traces/otel-more
  lifeline stats --by model --format json testdata/traces/openai-agents
  lifeline stats --by tool testdata/traces/pi-agent-core testdata/samples/openai-agents
  lifeline stats --format html -o stats.html testdata/traces/otel-more testdata/samples/deepseek-harness
  lifeline stats --data testdata/serve/otel-python
  lifeline stats --data testdata/serve/otel-python --by tool --format json`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runStats(cmd, args, f) },
	}
	c.Flags().StringVar(&f.inputFormat, "input-format", "", "force the input format ("+strings.Join(tracer.Names(), ", ")+") instead of detecting it")
	addVerboseFlag(c)
	c.Flags().StringVar(&f.format, "format", "text", "output format: text, json or html")
	c.Flags().StringVarP(&f.out, "output", "o", "", "write to this file instead of standard output")
	c.Flags().StringVar(&f.by, "by", stats.ByAgent, "group the percentiles by "+strings.Join(stats.GroupKeys, ", "))
	c.Flags().IntVar(&f.top, "top", 10, "how many slowest, costliest runs and failing tools to list")
	c.Flags().BoolVar(&f.check, "check", true, "check invariants L1–L13 and count the findings by rule")
	c.Flags().StringVar(&f.title, "title", "", "title of the page (html)")
	c.Flags().StringArrayVar(&f.data, "data", nil, "a lifeline serve data directory to read the journal of (repeatable)")
	mustComplete(c, "input-format", complete(inputFormatCompletions()...))
	mustComplete(c, "format", complete("text\tfailures first, for a terminal", "json\tthe whole report, for programs", "html\ta self-contained page with charts"))
	mustComplete(c, "by", complete(stats.GroupKeys...))
	return c
}

func init() { rootCmd.AddCommand(newStatsCmd()) }

func runStats(cmd *cobra.Command, args []string, f statsFlags) error {
	if f.format != "text" && f.format != "json" && f.format != "html" {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (text, json or html)", f.format)}
	}
	if !slices.Contains(stats.GroupKeys, f.by) {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --by %q (one of %s)", f.by, strings.Join(stats.GroupKeys, ", "))}
	}
	if err := refuseHTMLOnTerminal(cmd, f.format, f.out, "-o stats.html"); err != nil {
		return err
	}
	for _, dir := range f.data {
		files, err := store.Journal(dir)
		if err != nil {
			return &exitError{code: exitFailure, err: err}
		}
		args = append(args, files...)
	}
	args, err := inputFiles(cmd, args, f.inputFormat)
	if err != nil {
		return err
	}
	st := stats.NewStream(stats.Options{By: f.by, Top: f.top}, f.check)
	// payloads are not summarised: they are dropped as they are read
	opts := readOptions(cmd, f.inputFormat, model.PayloadPolicy{Redact: true})
	sink, done := withProgress(st.Apply)
	rep, readErr := tracer.Read(args, opts, sink)
	done()
	printDecodeErrors(cmd.ErrOrStderr(), rep)
	report := st.Report()
	out, err := openOutput(cmd, f.out)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	defer out.abort()
	switch f.format {
	case "json":
		err = renderstats.JSON(out, report)
	case "html":
		err = renderstats.HTML(out, report, renderstats.HTMLOptions{Title: f.title})
	default:
		err = renderstats.Text(out, report, renderstats.TextOptions{Color: f.out == "" && terminalRenderOptions(cmd.OutOrStdout()).Color})
	}
	if err != nil {
		return &exitError{code: exitFailure, err: out.unchanged(err)}
	}
	if readErr != nil {
		return &exitError{code: exitFailure, err: out.unchanged(readErr)}
	}
	if err := out.commit(); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	return nil
}
