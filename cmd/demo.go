package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lifeline-dev/lifeline/cmd/internal/termsafe"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/runtime"
	"github.com/spf13/cobra"
)

type demoFlags struct {
	list    bool
	log     string
	force   bool
	format  string
	uuids   bool
	fullIDs bool
}

func newDemoCmd() *cobra.Command {
	var f demoFlags
	c := &cobra.Command{
		Use:   "demo [SCENARIO]",
		Short: "Run a built-in scenario of the reference runtime and print its lifecycle tree",
		Long: `demo runs a scripted scenario on lifeline's reference agent runtime (model/runtime): a real,
concurrent runtime whose model and tools are scripted. The runtime writes the session's canonical
event log (fsynced, the source of truth); demo reads it back, checks it against invariants L1–L13
and the scenario's expected shape, and prints the lifecycle tree with durations, statuses, stop
reasons and errors. The default scenario is "happy"; --list shows them all.

Exit status: 0 when the scenario ran and its log is clean, 3 when the log has invariant findings
or the tree does not have the expected shape, 1 on an unknown scenario or an I/O error.

Output formats (--format):
` + renderFormatHelp(),
		Example: `  lifeline demo
  lifeline demo --list
  lifeline demo --list --format json
  lifeline demo crash-resume --log /tmp/crash.jsonl --force && lifeline check /tmp/crash.jsonl
  lifeline demo approval --format json`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, s := range runtime.Scenarios() {
				names = append(names, s.Name+"\t"+s.Description)
			}
			return complete(names...)(c, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runDemo(cmd, args, f) },
	}
	c.Flags().BoolVar(&f.list, "list", false, "list the scenarios with a one-line description each (--format json: as JSON)")
	c.Flags().StringVar(&f.log, "log", "", "write the canonical event log to `FILE` (kept after the run)")
	c.Flags().BoolVar(&f.force, "force", false, "overwrite the --log file if it exists")
	c.Flags().StringVar(&f.format, "format", "text", "output format: "+strings.Join(renderFormatNames(), ", "))
	c.Flags().BoolVar(&f.uuids, "uuid", false, "mint UUIDs (the runtime's default) instead of readable sequential ids")
	c.Flags().BoolVar(&f.fullIDs, "full-ids", false, "print ids whole instead of shortened")
	mustComplete(c, "format", complete(renderFormatCompletions()...))
	return c
}

func init() { rootCmd.AddCommand(newDemoCmd()) }

func runDemo(cmd *cobra.Command, args []string, f demoFlags) error {
	w := cmd.OutOrStdout()
	if f.list {
		switch f.format {
		case "text":
			printScenarioList(w)
			return nil
		case "json":
			return writeJSON(w, scenarioList())
		}
		return &exitError{code: exitFailure, err: fmt.Errorf("--list: unknown --format %q (text or json)", f.format)}
	}
	name := runtime.Scenarios()[0].Name
	if len(args) == 1 {
		name = args[0]
	}
	sc, ok := runtime.Lookup(name)
	if !ok {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown scenario %q; valid scenarios: %s", name, strings.Join(runtime.ScenarioNames(), ", "))}
	}
	if !validFormat(f.format) {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (one of %s)", f.format, strings.Join(renderFormatNames(), ", "))}
	}
	if err := refuseHTMLOnTerminal(cmd, f.format, "", "lifeline demo --format html > demo.html"); err != nil {
		return err
	}
	if f.log != "" && f.force {
		if err := os.Remove(f.log); err != nil && !os.IsNotExist(err) {
			return &exitError{code: exitFailure, err: fmt.Errorf("--force: %w", err)}
		}
	} else if st, err := os.Stat(f.log); f.log != "" && err == nil && st.Size() > 0 {
		return &exitError{code: exitFailure, err: fmt.Errorf("--log %s already exists: add --force to overwrite it, or choose another file", f.log)}
	}
	opts := runtime.ScenarioOptions{Path: f.log}
	if f.uuids {
		opts.IDs = runtime.UUIDs
	}
	res, err := runtime.RunScenario(context.Background(), name, opts)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	findings := model.CheckEvents(res.Events)
	var problems []model.Finding
	for _, fd := range findings {
		if fd.Severity != model.SevInfo {
			problems = append(problems, fd)
		}
	}
	diff := sc.Expect.Diff(runtime.ShapeOf(res.Tree))

	ro := terminalRenderOptions(w)
	ro.FullIDs = f.fullIDs
	ro.Title = "lifeline demo: " + sc.Name
	if f.format == "text" {
		fmt.Fprintf(w, "scenario %s: %s\n\n", sc.Name, sc.Description)
	}
	if err := renderTree(w, f.format, res.Tree, problems, ro); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	// The verdict follows the text tree; with other formats stdout stays parseable and only
	// problems are reported, on stderr.
	if f.format == "text" {
		fmt.Fprintln(w)
		printDemoVerdict(termsafe.NewWriter(w), res, problems, diff, f.log)
	} else if len(problems) > 0 || diff != "" {
		printDemoVerdict(cmd.ErrOrStderr(), res, problems, diff, f.log)
	}
	if len(problems) > 0 || diff != "" {
		return findingsExit()
	}
	return nil
}

func validFormat(name string) bool {
	for _, n := range renderFormatNames() {
		if n == name {
			return true
		}
	}
	return false
}

// scenarioEntry is one scenario in demo --list --format json.
type scenarioEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Default     bool   `json:"default,omitempty"`
}

func scenarioList() []scenarioEntry {
	var out []scenarioEntry
	for i, s := range runtime.Scenarios() {
		out = append(out, scenarioEntry{Name: s.Name, Description: s.Description, Default: i == 0})
	}
	return out
}

func printScenarioList(w io.Writer) {
	width := 0
	for _, s := range runtime.Scenarios() {
		width = max(width, len(s.Name))
	}
	for i, s := range runtime.Scenarios() {
		def := ""
		if i == 0 {
			def = " (default)"
		}
		fmt.Fprintf(w, "  %-*s  %s%s\n", width, s.Name, s.Description, def)
	}
}

// printDemoVerdict says what was checked: recoveries, invariants, expected shape and the log.
func printDemoVerdict(w io.Writer, res *runtime.ScenarioResult, problems []model.Finding, diff, logPath string) {
	for i, rec := range res.Recoveries {
		if i > 0 || rec.Events > 0 || rec.TornBytes > 0 {
			fmt.Fprintf(w, "recovery: reopened the log after a crash: %d events read back", rec.Events)
			if rec.TornBytes > 0 {
				fmt.Fprintf(w, ", torn last line of %d bytes truncated", rec.TornBytes)
			}
			fmt.Fprintln(w)
		}
	}
	if len(problems) == 0 {
		fmt.Fprintf(w, "invariants: ok (%d events, L1–L13 clean)\n", len(res.Events))
	} else {
		fmt.Fprintf(w, "invariants: %d finding(s)\n", len(problems))
		for _, fd := range problems {
			fmt.Fprintf(w, "  %s\n", fd)
		}
	}
	if diff == "" {
		s := res.Scenario.Expect
		fmt.Fprintf(w, "shape: ok (%d run(s), %d turn(s), %d step(s), %d model call(s), %d tool call(s), %d failed)\n",
			s.Runs, s.Turns, s.Steps, s.ModelCalls, s.ToolCalls, s.FailedToolCalls)
	} else {
		fmt.Fprintf(w, "shape: MISMATCH: %s\n", diff)
	}
	if logPath != "" {
		fmt.Fprintf(w, "log: %s\n", logPath)
	}
}
