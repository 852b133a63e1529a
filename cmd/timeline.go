package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/spf13/cobra"
)

type timelineFlags struct {
	inputFormat string
	format      string
	out         string
	check       bool
	mermaid     string
	fullIDs     bool
	width       int
	title       string
	code        []string
	filters     filterFlags
	payload     payloadFlags
}

func newTimelineCmd() *cobra.Command {
	var f timelineFlags
	c := &cobra.Command{
		Use:   "timeline [FILE|DIR…]",
		Short: "Print the lifecycle tree (Session › Run › Turn › Step › calls) of logs in any supported format",
		Long: `timeline reads logs in any supported format (auto-detected per file, or forced with
--input-format), maps them onto the canonical lifecycle model and prints the tree. Several files
are merged (one session may span several files); "-" reads standard input, as does no FILE
when standard input is not a terminal. A directory stands for the logs in it (the other files
are skipped, counted in one line on stderr; --verbose names each).

--format selects the output (` + "text, waterfall, html, mermaid, chrome, otlp, json" + `);
--format json prints the canonical tree with a "summary" object (sessions, runs, turns, steps,
model_calls, tool_calls, failed_tool_calls) and a "runs" array (status, stop_reason) at the top.
--format html writes a whole page: give -o FILE (it is refused on a terminal).

--code PATHS joins each run with the lifecycle map of the code that ran it (Go packages,
Python/TS/JS sources; see lifeline map): the exit of its final status, the bound it hit, the
call sites of its model and tool calls, its parent link, each with a confidence and a reason,
and the behaviour the map does not explain (docs/checks/join-*.md). Text and json only.

--run, --session, --status, --stop-reason, --since and --until keep only the runs they select
(each run is decided once it has ended, and the others are dropped as the input streams);
--depth cuts the tree (0 sessions, 1 runs, 2 turns, 3 steps, 4 calls).

Payloads — model input and output, tool arguments and results, wherever the log records them —
are in the json, html (details pane) and otlp outputs, each cut to --payload-max bytes (default
4096); --redact drops them all, and message texts too.

Records that cannot be decoded are reported on stderr as file:line: message and the rest is
still shown. Exit status: 0, or 1 when an input could not be read at all.`,
		Example: `  lifeline timeline testdata/samples/openai-agents/01_two_turn_tools.jsonl
  lifeline timeline --format json -o tree.json testdata/samples/otel/*.otlp.json
  lifeline timeline --format html --check -o trace.html testdata/samples/langgraph/01_react_multi_step.run_tree.json
  lifeline timeline --format mermaid --mermaid sequence testdata/samples/pi-agent-core/01_multi_turn_tools.events.jsonl
  lifeline timeline --format waterfall testdata/samples/deepseek-harness/approval-composer.session.jsonl
  lifeline demo max-steps --log run.jsonl --force && lifeline timeline --code ./model/runtime run.jsonl
  lifeline timeline --status failed --stop-reason max_steps,max_turns --depth 2 testdata/traces/otel-more
  lifeline convert --to canonical testdata/samples/otel/langgraph_01_react_multi_step.otlp.json | lifeline timeline --input-format canonical -`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runTimeline(cmd, args, f) },
	}
	c.Flags().StringVar(&f.inputFormat, "input-format", "", "force the input format ("+strings.Join(tracer.Names(), ", ")+") instead of detecting it")
	addVerboseFlag(c)
	c.Flags().StringVar(&f.format, "format", "text", "output format: "+strings.Join(timelineFormats(), ", "))
	c.Flags().StringVarP(&f.out, "output", "o", "", "write to this file instead of standard output")
	c.Flags().BoolVar(&f.check, "check", false, "also check invariants L1–L13 and attach the findings (json and renderers that show them)")
	c.Flags().StringVar(&f.mermaid, "mermaid", "gantt", "mermaid diagram: gantt or sequence")
	c.Flags().BoolVar(&f.fullIDs, "full-ids", false, "print ids whole (text, waterfall)")
	c.Flags().IntVar(&f.width, "width", 0, "output width in columns (text, waterfall; default: the terminal's, else $COLUMNS, else 100)")
	c.Flags().StringVar(&f.title, "title", "", "title of the diagram or page (mermaid, html)")
	c.Flags().StringSliceVar(&f.code, "code", nil, "join each run with the lifecycle map of these Go packages or sources (text, json)")
	addFilterFlags(c, &f.filters, true)
	addPayloadFlags(c, &f.payload)
	mustComplete(c, "input-format", complete(inputFormatCompletions()...))
	mustComplete(c, "format", complete(renderFormatCompletions()...))
	mustComplete(c, "mermaid", complete("gantt\tone bar per node on a time axis", "sequence\tmessages between run, model and tools"))
	return c
}

func init() { rootCmd.AddCommand(newTimelineCmd()) }

// timelineFormats lists the output formats (render_formats.go).
func timelineFormats() []string { return renderFormatNames() }

// readTree reads the inputs into a lifecycle tree (and, with check, invariant findings), printing
// decode errors to errw. It returns the error of inputs that could not be read at all.
func readTree(cmd *cobra.Command, args []string, inputFormat string, check bool, errw io.Writer) (*model.Tree, []model.Finding, error) {
	return readTreeWith(cmd, args, readOptions(cmd, inputFormat, model.PayloadPolicy{Max: model.DefaultPayloadMax}), check, errw)
}

// readTreeWith is readTree with the tracer options given (payload policy), and a progress line
// on a terminal.
func readTreeWith(cmd *cobra.Command, args []string, opts tracer.Options, check bool, errw io.Writer) (*model.Tree, []model.Finding, error) {
	wholeTreeGC()
	proj := model.NewProjector()
	var checker *model.Checker
	if check {
		checker = model.NewChecker()
	}
	sink, done := withProgress(func(ev *model.Event) {
		proj.Apply(ev)
		if checker != nil {
			c := *ev
			checker.Check(&c)
		}
	})
	rep, readErr := tracer.Read(args, opts, sink)
	done()
	printDecodeErrors(errw, rep)
	var findings []model.Finding
	if checker != nil {
		findings = checker.Finish()
	}
	return proj.Tree(), findings, readErr
}

func printDecodeErrors(w io.Writer, rep *tracer.Report) {
	if rep == nil {
		return
	}
	for _, e := range rep.Errors {
		fmt.Fprintln(w, e.Error())
	}
	if rep.Dropped > 0 {
		fmt.Fprintf(w, "… and %d more decode errors\n", rep.Dropped)
	}
}

func runTimeline(cmd *cobra.Command, args []string, f timelineFlags) error {
	known := false
	for _, n := range timelineFormats() {
		known = known || n == f.format
	}
	if !known {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (one of %s)", f.format, strings.Join(timelineFormats(), ", "))}
	}
	if f.mermaid != "gantt" && f.mermaid != "sequence" {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --mermaid %q (gantt or sequence)", f.mermaid)}
	}
	if err := refuseHTMLOnTerminal(cmd, f.format, f.out, "-o trace.html"); err != nil {
		return err
	}
	if len(f.code) > 0 && f.format != "text" && f.format != "json" {
		return &exitError{code: exitFailure, err: fmt.Errorf("--code: --format %s does not show the join (text or json)", f.format)}
	}
	rf, filtered, err := f.filters.runFilter(time.Now())
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	args, err = inputFiles(cmd, args, f.inputFormat)
	if err != nil {
		return err
	}
	var code *codeMap
	if len(f.code) > 0 {
		if code, err = loadCodeMap(f.code, cmd.ErrOrStderr()); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
	}
	pol, err := f.payload.policy()
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	ropts := readOptions(cmd, f.inputFormat, pol)
	var tree *model.Tree
	var findings []model.Finding
	var readErr error
	if filtered {
		tree, findings, readErr = readSelection(cmd, args, ropts, f.check, rf, f.filters.depth, cmd.ErrOrStderr())
	} else {
		tree, findings, readErr = readTreeWith(cmd, args, ropts, f.check, cmd.ErrOrStderr())
	}
	out, err := openOutput(cmd, f.out)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	defer out.abort()
	opts := terminalRenderOptions(cmd.OutOrStdout())
	if f.out != "" && f.out != "-" {
		opts = renderOptions{}
	}
	opts.Mermaid, opts.FullIDs, opts.Title = f.mermaid, f.fullIDs, f.title
	if f.width > 0 {
		opts.Width = f.width
	}
	if code != nil {
		opts.Code = code.join(tree)
		opts.CodePaths = code.paths
	}
	if err := renderTree(out, f.format, tree, findings, opts); err != nil {
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
