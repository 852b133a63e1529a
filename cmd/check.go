package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/cmd/internal/termsafe"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
	rendertext "github.com/lifeline-dev/lifeline/render/text"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/spf13/cobra"
)

type checkFlags struct {
	inputFormat string
	format      string
	skew        time.Duration
	showOpen    bool
	list        bool
	explain     string
	code        []string
	filters     filterFlags
}

func newCheckCmd() *cobra.Command {
	var f checkFlags
	c := &cobra.Command{
		Use:   "check [FILE|DIR…]",
		Short: "Check logs against the lifecycle invariants L1–L13",
		Long: `check reads logs in any supported format (auto-detected, or forced with --input-format),
maps them onto the canonical model and checks invariants L1–L13 of the lifecycle model.
Each finding names its invariant, the ids involved and the source record (file:line).
A directory stands for the logs in it (the other files are skipped, counted in one line on
stderr; --verbose names each); with no FILE, check reads standard input unless it is a
terminal. --list shows the invariants, --explain one of them. --run, --session,
--status, --stop-reason, --since and --until keep the findings
about the runs they select (and their sessions); every event is still checked.

--code PATHS also joins each run with the lifecycle map of the code that ran it (see
lifeline timeline --code) and reports what the map does not explain as findings of their own
(join-pastbound, join-cancelunchecked, join-statusnoexit, join-toolunregistered:
docs/checks/join-*.md); the text output lists the join after the findings, json has it under
"code".

Exit status: 0 when clean, 3 when there are findings, 1 on bad input (a file that cannot be
read, or records that cannot be decoded; the readable rest is still checked).`,
		Example: `  lifeline demo approval --log run.jsonl --force && lifeline check run.jsonl
  lifeline check --format json testdata/invariants/L4_illegal_transition.jsonl
  cat run.jsonl | lifeline check
  lifeline check testdata/invariants
  lifeline check --status failed,cancelled testdata/traces/otel-more
  lifeline check --list
  lifeline check --explain L7
  lifeline demo max-steps --log run.jsonl --force && lifeline check --code ./model/runtime run.jsonl`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(cmd, args, f) },
	}
	c.Flags().StringVar(&f.inputFormat, "input-format", "", "force the input format instead of detecting it")
	addVerboseFlag(c)
	c.Flags().StringVar(&f.format, "format", "text", "output format: text or json")
	c.Flags().DurationVar(&f.skew, "skew", 5*time.Millisecond, "clock-skew tolerance for interval checks (L2, L10)")
	c.Flags().BoolVar(&f.showOpen, "open", false, "also list runs still live (reported open, not a violation)")
	c.Flags().BoolVar(&f.list, "list", false, "list the invariants and exit")
	c.Flags().StringVar(&f.explain, "explain", "", "print what an invariant (L1…L13, C1) states and exit")
	c.Flags().StringSliceVar(&f.code, "code", nil, "join each run with the lifecycle map of these Go packages or sources and report what it does not explain")
	addFilterFlags(c, &f.filters, false)
	mustComplete(c, "input-format", complete(inputFormatCompletions()...))
	mustComplete(c, "format", complete("text\tfindings, one a line", "json\tthe whole report, for programs"))
	mustComplete(c, "explain", complete(invariantCompletions()...))
	return c
}

func init() { rootCmd.AddCommand(newCheckCmd()) }

// checkReport is the JSON output of check.
type checkReport struct {
	Files    []tracer.FileReport `json:"files"`
	Events   int                 `json:"events"`
	Errors   []string            `json:"decode_errors"`
	Findings []model.Finding     `json:"findings"`
	Counts   map[string]int      `json:"counts"`
	// Code is the join with the map of --code (runs and unexplained-behaviour findings).
	Code      *join.Result `json:"code,omitempty"`
	codePaths []string
}

func runCheck(cmd *cobra.Command, args []string, f checkFlags) error {
	if f.format != "text" && f.format != "json" {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (text or json)", f.format)}
	}
	if f.list || f.explain != "" {
		return explainInvariants(cmd.OutOrStdout(), f)
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
	var proj *model.Projector
	if len(f.code) > 0 {
		if code, err = loadCodeMap(f.code, cmd.ErrOrStderr()); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
		wholeTreeGC()
		proj = model.NewProjector()
	}
	checker := model.NewChecker()
	checker.Skew = f.skew
	events := 0
	var sel *model.Selection // with filters: the runs selected, to keep the findings about them
	if filtered {
		sel = model.NewSelection(rf, -1)
		sel.KeepIDs = true
	}
	sink, done := withProgress(func(ev *model.Event) {
		if rf.SessionID != "" && ev.SessionID != rf.SessionID {
			return
		}
		events++
		if sel != nil {
			c := *ev
			sel.Apply(&c)
		}
		if proj != nil {
			c := *ev
			proj.Apply(&c)
		}
		checker.Check(ev)
	})
	rep, readErr := tracer.Read(args, tracer.Options{Format: f.inputFormat, Stdin: cmd.InOrStdin(), Pipeline: true}, sink)
	done()
	findings := checker.Finish()
	if sel != nil {
		sel.Finish()
		findings = slices.DeleteFunc(findings, func(fd model.Finding) bool { return !sel.Concerns(fd) })
	}
	out := checkReport{Files: rep.Files, Events: events, Errors: []string{}, Findings: []model.Finding{}, Counts: map[string]int{}}
	for _, e := range rep.Errors {
		out.Errors = append(out.Errors, e.Error())
	}
	if rep.Dropped > 0 {
		out.Errors = append(out.Errors, fmt.Sprintf("… and %d more decode errors", rep.Dropped))
	}
	violations := 0
	for _, fd := range findings {
		if fd.Severity == model.SevInfo && !f.showOpen {
			continue
		}
		out.Findings = append(out.Findings, fd)
		out.Counts[string(fd.Severity)]++
		if fd.Severity != model.SevInfo {
			violations++
		}
	}
	if code != nil {
		out.Code, out.codePaths = code.join(proj.Tree()), code.paths
		for _, fd := range out.Code.Findings {
			out.Counts[string(fd.Severity)]++
			if fd.Severity != model.SevInfo {
				violations++
			}
		}
	}
	w := cmd.OutOrStdout()
	if f.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printCheckText(termsafe.NewWriter(w), cmd.ErrOrStderr(), out, violations, readErr != nil)
	}
	switch {
	case readErr != nil:
		return &exitError{code: exitFailure, err: readErr}
	case len(rep.Errors) > 0:
		return &exitError{code: exitFailure, err: fmt.Errorf("%d record(s) could not be decoded", len(rep.Errors)+rep.Dropped)}
	case violations > 0:
		return findingsExit()
	}
	return nil
}

func printCheckText(w, errw io.Writer, r checkReport, violations int, unreadable bool) {
	for _, e := range r.Errors {
		fmt.Fprintln(errw, e)
	}
	for _, fd := range r.Findings {
		fmt.Fprintf(w, "%s\n", fd)
	}
	if r.Code != nil {
		for _, fd := range r.Code.Findings {
			fmt.Fprintf(w, "%s\n", fd)
		}
	}
	if unreadable {
		fmt.Fprintf(w, "%d finding(s) in %d readable events; some input could not be read (see stderr)\n", violations, r.Events)
		return
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(w, "%d finding(s) in %d readable events; %d record(s) could not be decoded (see stderr)\n", violations, r.Events, len(r.Errors))
		return
	}
	if r.Code != nil {
		// The join's runs, after the findings (its findings are listed above).
		joined := *r.Code
		joined.Findings = nil
		if err := rendertext.JoinRender(w, &joined, r.codePaths); err != nil {
			fmt.Fprintln(errw, err)
		}
	}
	if violations == 0 {
		fmt.Fprintf(w, "ok: %d events, no invariant violations\n", r.Events)
		return
	}
	fmt.Fprintf(w, "%d finding(s) (%d error, %d warning) in %d events\n", violations, r.Counts["error"], r.Counts["warning"], r.Events)
}

// invariantDoc is one invariant as check --list and --explain print it.
type invariantDoc struct {
	Code      string `json:"code"`
	Statement string `json:"statement"`
	Doc       string `json:"doc"`
}

// modelDoc is where the invariants are described.
const modelDoc = "https://github.com/lifeline-dev/lifeline/blob/main/docs/model.md#invariants-checked-on-every-trace-tested-on-the-reference-runtime"

// explainInvariants prints the invariants (--list) or one of them (--explain CODE).
func explainInvariants(w io.Writer, f checkFlags) error {
	var docs []invariantDoc
	for _, code := range invariantCodes() {
		if f.explain == "" || strings.EqualFold(f.explain, code) {
			docs = append(docs, invariantDoc{Code: code, Statement: model.InvariantTitles[code], Doc: modelDoc})
		}
	}
	if len(docs) == 0 {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown invariant %q (one of %s; see lifeline check --list)", f.explain, strings.Join(invariantCodes(), ", "))}
	}
	if f.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if f.explain != "" {
			return enc.Encode(docs[0])
		}
		return enc.Encode(docs)
	}
	if f.explain != "" {
		d := docs[0]
		_, err := fmt.Fprintf(w, "%s: %s\n\nlifeline check reports a violation as \"file:line: %s error|warning: …\" and exits 3.\nSee %s\n", d.Code, d.Statement, d.Code, d.Doc)
		return err
	}
	for _, d := range docs {
		if _, err := fmt.Fprintf(w, "%-4s %s\n", d.Code, d.Statement); err != nil {
			return err
		}
	}
	return nil
}
