package cmd

import (
	"fmt"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/spf13/cobra"
)

type convertFlags struct {
	inputFormat string
	to          string
	out         string
	payload     payloadFlags
}

func newConvertCmd() *cobra.Command {
	var f convertFlags
	c := &cobra.Command{
		Use:   "convert [FILE|DIR…] --to canonical",
		Short: "Convert logs in any supported format to lifeline's canonical event log",
		Long: `convert reads logs in any supported format (auto-detected per file, or forced with
--input-format) and writes the canonical event log (JSON Lines, docs/events.md): one event per
line, numbered per session, each with the source record (file:line) it came from and what was
inferred rather than read. Several files are merged; "-" reads standard input, as does no FILE
when standard input is not a terminal; a directory stands for the logs in it (the other files are
skipped, counted in one line on stderr; --verbose names each). The output streams: memory does
not grow with the input.

Records that cannot be decoded are reported on stderr as file:line: message and the rest is
still converted. Exit status: 0, or 1 when an input could not be read at all.`,
		Example: `  lifeline convert --to canonical testdata/samples/openai-agents/02_tool_error.jsonl
  lifeline convert --to canonical -o run.jsonl testdata/samples/otel/langgraph_01_react_multi_step.otlp.json && lifeline check run.jsonl`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runConvert(cmd, args, f) },
	}
	c.Flags().StringVar(&f.inputFormat, "input-format", "", "force the input format instead of detecting it")
	addVerboseFlag(c)
	c.Flags().StringVar(&f.to, "to", "canonical", "output format: canonical")
	c.Flags().StringVarP(&f.out, "output", "o", "", "write to this file instead of standard output")
	addPayloadFlags(c, &f.payload)
	mustComplete(c, "input-format", complete(inputFormatCompletions()...))
	mustComplete(c, "to", complete("canonical\tlifeline's event log, JSON Lines (docs/events.md)"))
	return c
}

func init() { rootCmd.AddCommand(newConvertCmd()) }

func runConvert(cmd *cobra.Command, args []string, f convertFlags) error {
	if f.to != "canonical" {
		return &exitError{code: exitFailure, err: fmt.Errorf("unknown --to %q (canonical)", f.to)}
	}
	args, err := inputFiles(cmd, args, f.inputFormat)
	if err != nil {
		return err
	}
	w, err := openOutput(cmd, f.out)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	defer w.abort()
	var werr error
	pol, err := f.payload.policy()
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	rep, readErr := tracer.Read(args, tracer.Options{Format: f.inputFormat, Stdin: cmd.InOrStdin(), Payload: pol}, func(ev *model.Event) {
		if werr != nil {
			return
		}
		line, err := ev.MarshalLine()
		if err != nil {
			werr = fmt.Errorf("%s: %w", ev.Where(), err)
			return
		}
		line = append(line, '\n')
		_, werr = w.Write(line)
	})
	printDecodeErrors(cmd.ErrOrStderr(), rep)
	if werr != nil {
		return &exitError{code: exitFailure, err: w.unchanged(werr)}
	}
	if readErr != nil {
		return &exitError{code: exitFailure, err: w.unchanged(readErr)}
	}
	if err := w.commit(); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	return nil
}
