package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/baseline"
	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/cmd/internal/termsafe"
	"github.com/lifeline-dev/lifeline/model/mapdiff"
	rendermapdiff "github.com/lifeline-dev/lifeline/render/mapdiff"
	"github.com/lifeline-dev/lifeline/render/maphtml"
	"github.com/lifeline-dev/lifeline/render/mermaid"
	"github.com/lifeline-dev/lifeline/render/text"
	"github.com/spf13/cobra"
)

type mapFlags struct {
	format   string
	profile  string
	dir      string
	tests    bool
	tags     []string
	traces   []string
	diff     string
	timeline string
}

func newMapCmd() *cobra.Command {
	var f mapFlags
	c := &cobra.Command{
		Use:   "map PACKAGES|PATHS…",
		Short: "Map Go agent code onto the lifecycle: run entries, turn loops, bounds, model and tool calls, exits",
		Long: `map type-checks Go packages and reconstructs, for each run entry point, its turn loops (a for
loop, a recursion, or a framework engine loop named by a profile) with their bound and default,
what happens at the bound, the model and tool call sites they reach (and whether tools run in
parallel), whether they check cancellation between steps, the exits with their outcome, and
where run ids are minted. Roles come from //lifeline: directives, mapping profiles (built in
for lifeline, eino, langchaingo, genkit; more with --profile) and structural inference; every
element says which, as its confidence. See docs/analyzer.md.

Python and TypeScript/JavaScript sources are read too: a file (.py, .ts, .tsx, .mts, .cts,
.js, .mjs, .cjs), a directory, an installed package (site-packages/smolagents,
node_modules/@openai/agents-core) or a checkout; .d.ts files carry no bodies and are skipped,
and of a package shipped as ES modules and as CommonJS only the ES build is read.
Their positions are relative to the package's parent directory.

Positions are module-relative: dir/file.go:line in the main module, module/path/dir/file.go:line
in a dependency.

--traces FILES joins the runs of these logs (any format timeline reads) with the map and
marks every exit, loop, bound and call site with how many runs took it, like go test -cover
for lifecycle exits (text: "taken N" / "NOT TAKEN" and a coverage line; json: "taken"). A run
whose exit or call site the trace cannot tell from others counts for none of them.

With --diff BASE the map is compared with the map of the same PATHS at BASE, a git revision of
the checkout (exported with git archive into a temporary directory) or a directory (a second
checkout or install, in which the PATHS resolve as they do here; with one PATH it does not
contain, BASE is that PATH's older version). It reports lifecycle changes, not line changes:
entries and turn loops added or removed, a bound or its default changed, what happens at the
bound, cancellation checks, tools now parallel or sequential, model and tool calls now reached
from a loop or no longer, exits added, removed or with another outcome, id sites. Elements are
matched by function, kind and callee, never by line. --format text, json or markdown (for a
pull-request comment). A change weakens the lifecycle when a bound is removed or raised to
unlimited, a cancellation check is removed, the bound is now hit silently, a failed or
cancelled exit now stands for completed, the last cancelled exit is removed, a new turn loop has
neither bound nor cancellation check, or a parent run id is no longer passed to child runs;
tools turning parallel is a change to review, not a weakening.

Exit status: 0 on success, 1 when the packages cannot be loaded or do not type-check, 3 when
--diff finds a change that weakens the lifecycle.`,
		Example: `  lifeline map ./model/runtime
  lifeline map --format json ./model/runtime
  lifeline map --format mermaid ./... > lifecycle.mmd
  lifeline map -C analyzer/lifemap/testdata/agent ./...
  lifeline map --format html ./model/runtime > map.html
  lifeline map --diff HEAD ./model/runtime
  lifeline map --diff testdata/mapdiff/base/pyagent testdata/mapdiff/head/pyagent
  lifeline map --diff testdata/mapdiff/base/pyagent --format markdown testdata/mapdiff/head/pyagent
  lifeline demo max-steps --log run.jsonl --force && lifeline map ./model/runtime --traces run.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runMap(cmd, args, f) },
	}
	c.Flags().StringVar(&f.format, "format", "text", "output format: text, json, mermaid or html; with --diff: text, json or markdown")
	c.Flags().StringVar(&f.timeline, "timeline", "", "with --format html: the `URL` of the traces' timeline page (lifeline timeline --format html), which each run an exit lists links to")
	c.Flags().StringVar(&f.profile, "profile", "", "comma-separated mapping profile files (JSON) to use besides the built-in ones")
	c.Flags().StringVarP(&f.dir, "dir", "C", "", "resolve packages in this directory (its module)")
	c.Flags().BoolVar(&f.tests, "tests", false, "include test packages")
	c.Flags().StringSliceVar(&f.tags, "tags", nil, "build tags")
	c.Flags().StringSliceVar(&f.traces, "traces", nil, "logs whose runs are joined with the map: every element shows how many runs took it")
	addVerboseFlag(c)
	mustComplete(c, "format", complete("text\tthe map, indented", "json\tentries, loops, calls and exits, for programs", "mermaid\ta flowchart", "html\tone self-contained page: each entry a flow, source lines, coverage", "markdown\twith --diff: the lifecycle changes as a pull-request comment"))
	c.Flags().StringVar(&f.diff, "diff", "", "compare with the map at `BASE`: a git revision of this checkout or a directory")
	return c
}

func init() { rootCmd.AddCommand(newMapCmd()) }

func runMap(cmd *cobra.Command, args []string, f mapFlags) error {
	if f.diff != "" {
		return runMapDiff(cmd, args, f)
	}
	switch f.format {
	case "text", "json", "mermaid", "html":
	default:
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (text, json, mermaid or html)", f.format)}
	}
	if err := refuseHTMLOnTerminal(cmd, f.format, "", "lifeline map --format html PATHS > map.html"); err != nil {
		return err
	}
	if err := setProfile(f.profile); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	tuneGC()
	deferFirstGC(firstGCAt)
	m, warns, err := lifemap.MapArgs(args, lifemap.Options{Dir: f.dir, Tests: f.tests, Tags: f.tags, Deps: true})
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	for _, w := range warns {
		fmt.Fprintln(termsafe.NewWriter(cmd.ErrOrStderr()), "lifeline: warning: "+w)
	}
	if len(f.traces) > 0 {
		if err := coverMap(cmd, m, f.traces); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	switch f.format {
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(m); err != nil {
			return &exitError{code: exitFailure, err: fmt.Errorf("writing map: %w", err)}
		}
	case "mermaid":
		if err := mermaid.MapFlowchart(out, m); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
	case "html":
		if err := maphtml.Render(out, m, maphtml.Options{Timeline: f.timeline}); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
	default:
		// File names and identifiers reach the terminal: rendered whole, then escaped (a
		// streaming renderer may cut a UTF-8 sequence between two writes).
		var buf bytes.Buffer
		if err := text.MapRender(&buf, m); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
		if _, err := termsafe.NewWriter(out).Write(buf.Bytes()); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
	}
	return nil
}

// runMapDiff maps the PATHS here and at --diff BASE and reports the lifecycle changes.
func runMapDiff(cmd *cobra.Command, args []string, f mapFlags) error {
	switch f.format {
	case "text", "json", "markdown":
	default:
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q with --diff (text, json or markdown)", f.format)}
	}
	if err := setProfile(f.profile); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	tuneGC()
	opts := lifemap.Options{Dir: f.dir, Tests: f.tests, Tags: f.tags, Deps: true}
	base, err := baseline.Open(f.diff, f.dir, args)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	defer base.Close()
	stderr := termsafe.NewWriter(cmd.ErrOrStderr())
	opts.SourceRoot = base.HeadRoot
	head, warns, err := lifemap.MapArgs(args, opts)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	for _, w := range warns {
		fmt.Fprintln(stderr, "lifeline: warning: "+w)
	}
	bopts := opts
	bopts.Dir, bopts.SourceRoot = base.Dir, base.Root
	old, warns, err := lifemap.MapArgs(base.Args, bopts)
	if err != nil {
		return &exitError{code: exitFailure, err: fmt.Errorf("mapping %s: %w", base.Label, err)}
	}
	for _, w := range warns {
		fmt.Fprintln(stderr, "lifeline: warning: "+base.Label+": "+w)
	}
	d := mapdiff.Compare(old, head)
	d.Base, d.Head = base.Label, base.HeadLabel
	var buf bytes.Buffer
	switch f.format {
	case "json":
		err = rendermapdiff.JSON(&buf, &d)
	case "markdown":
		err = rendermapdiff.Markdown(&buf, &d)
	default:
		err = rendermapdiff.Text(&buf, &d)
	}
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	out := cmd.OutOrStdout()
	if f.format == "text" {
		out = termsafe.NewWriter(out)
	}
	if _, err := out.Write(buf.Bytes()); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if d.Weakened {
		return findingsExit()
	}
	return nil
}

// setProfile passes --profile to the lifecycle pass (its -profile analyzer flag), checking the
// files first so that a bad profile is a clear error.
func setProfile(files string) error {
	for _, p := range strings.Split(files, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := loadProfileFile(p); err != nil {
			return err
		}
	}
	if err := lifecycle.Analyzer.Flags.Set("profile", files); err != nil {
		return fmt.Errorf("setting profile: %w", err)
	}
	return nil
}
