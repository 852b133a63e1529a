package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/explain"
	renderexplain "github.com/lifeline-dev/lifeline/render/explain"
	"github.com/spf13/cobra"
)

type explainFlags struct {
	format string
	lang   string
	// frameworkRoot is where bench/seeds/install.sh installed the seed frameworks ("" = none).
	frameworkRoot string
}

func newExplainCmd() *cobra.Command {
	var f explainFlags
	c := &cobra.Command{
		Use:   "explain [TOPIC]",
		Short: "Teach the lifecycle model: a topic's definition, a live drawing, and each framework's names for it",
		Long: `explain teaches one topic of the lifecycle model (docs/model.md): its definition, a live
drawing from the reference runtime (a scenario of model/runtime run now, cut to the piece of the
tree that shows the topic), and how each supported framework names and implements it — a table
generated from the built-in mapping profiles, the framework vocabulary table and, for the
reference runtime, its lifecycle map, every entry cited at its line in this repository. Without a topic it lists the topics.

--framework-root DIR adds the map sites of the seed frameworks (smolagents, OpenAI Agents,
LangGraph, Pi, DeepSeek Harness…) installed under DIR the way bench/seeds/install.sh lays them out
(DIR/py, DIR/npm/node_modules, DIR/deepseek-harness): each is mapped now (lifeline map of its
package), and its loop, bound and default, model and tool call sites and exits are cited at
their lines in the installed files, with the installed version. Without it, or for a framework
not installed there, the table says so.

Topics: ` + strings.Join(explain.Names(), ", ") + `.

The texts come in English and Chinese (--lang en|zh); the default follows the locale (LC_ALL,
LC_MESSAGES, LANG: zh… gives zh). The model's terms stay identifiers in both.

Exit status: 0, or 1 on an unknown topic, language or format.`,
		Example: `  lifeline explain
  lifeline explain turn
  lifeline explain cancellation --lang zh
  lifeline explain stop-reasons --format markdown
  lifeline explain approval --format json
  lifeline explain steer-follow-up --format html > steer.html`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return complete(explain.Names()...)(c, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runExplain(cmd, args, f) },
	}
	c.Flags().StringVar(&f.format, "format", "text", "output format: "+strings.Join(renderexplain.Formats, ", "))
	c.Flags().StringVar(&f.lang, "lang", "", "language of the texts: "+strings.Join(explain.Languages, " or ")+" (default from the locale)")
	c.Flags().StringVar(&f.frameworkRoot, "framework-root", "", "map the seed frameworks installed under `DIR` by bench/seeds/install.sh and cite their map sites")
	mustComplete(c, "format", complete("text\tfor a terminal", "markdown\tfor a document or a pull-request comment", "json\tfor programs", "html\tone self-contained page"))
	mustComplete(c, "lang", complete("en\tEnglish", "zh\t中文"))
	return c
}

func init() { rootCmd.AddCommand(newExplainCmd()) }

func runExplain(cmd *cobra.Command, args []string, f explainFlags) error {
	lang := f.lang
	if lang == "" {
		lang = explain.LangFromEnv(os.Getenv)
	}
	if !explain.ValidLang(lang) {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --lang %q (%s)", lang, strings.Join(explain.Languages, " or "))}
	}
	if !validExplainFormat(f.format) {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (one of %s)", f.format, strings.Join(renderexplain.Formats, ", "))}
	}
	if err := refuseHTMLOnTerminal(cmd, f.format, "", "lifeline explain TOPIC --format html > explain.html"); err != nil {
		return err
	}
	ro := terminalRenderOptions(cmd.OutOrStdout())
	opts := renderexplain.Options{Format: f.format, Width: ro.Width, Color: ro.Color}
	out, err := openOutput(cmd, "")
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if len(args) == 0 {
		list, err := explain.List(lang)
		if err == nil {
			err = renderexplain.RenderList(out, lang, list, opts)
		}
		if err == nil {
			err = out.commit()
		}
		if err != nil {
			return &exitError{code: exitFailure, err: err}
		}
		return nil
	}
	if _, ok := explain.Lookup(args[0]); !ok {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown topic %q; topics: %s (lifeline explain lists them)", args[0], strings.Join(explain.Names(), ", "))}
	}
	fws, err := roles.Frameworks()
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	ref, err := lifemap.ReferenceMap()
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	fws = explain.WithMap(fws, roles.Lifeline.Name, ref)
	if fws, err = withInstalledMaps(fws, f.frameworkRoot); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	doc, err := explain.Build(context.Background(), args[0], lang, fws)
	if err == nil {
		err = renderexplain.Render(out, doc, opts)
	}
	if err == nil {
		err = out.commit()
	}
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	return nil
}

func validExplainFormat(name string) bool {
	for _, n := range renderexplain.Formats {
		if n == name {
			return true
		}
	}
	return false
}

// withInstalledMaps attaches to each seed framework the map of its code installed under root
// (explain.Installed), or a note that it was not mapped and why.
func withInstalledMaps(fws []explain.Framework, root string) ([]explain.Framework, error) {
	if root != "" {
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--framework-root %s: not a directory (bench/seeds/install.sh DIR installs the frameworks there)", root)
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, fmt.Errorf("--framework-root: %w", err)
		}
		root = abs
	}
	for _, in := range explain.Installed(root) {
		src := explain.MapSource{State: explain.MapNotRequested}
		var m *model.Map
		switch {
		case root == "":
		case !in.Present:
			src = explain.MapSource{State: explain.MapNotInstalled, Root: in.Root}
		default:
			paths := make([]string, len(in.Paths))
			for i, p := range in.Paths {
				paths[i] = filepath.Join(in.Root, p)
			}
			var err error
			if m, _, err = lifemap.BuildSourcesIn(in.Root, paths); err != nil {
				return nil, fmt.Errorf("--framework-root: mapping %s at %s: %w", in.Name, in.Root, err)
			}
			src = explain.MapSource{State: explain.MapInstalled, Root: in.Root, Version: in.Version}
		}
		fws = explain.WithMapFrom(fws, in.Name, m, src)
	}
	return fws, nil
}
