package cmd

import (
	"fmt"
	"os"

	"golang.org/x/term"

	"github.com/lifeline-dev/lifeline/cmd/internal/inputs"
	"github.com/spf13/cobra"
)

// addVerboseFlag gives a command that reads FILE|DIR… arguments its --verbose flag.
func addVerboseFlag(c *cobra.Command) {
	c.Flags().Bool("verbose", false, "name on stderr every file of a DIR that is not read, with why (by default each DIR gets one line counting them)")
}

// inputFiles returns the files a log command (check, timeline, convert, stats, map --traces)
// reads: its arguments with each directory replaced by the logs in it (what is skipped is
// counted on stderr, one line a directory, or named one by one with --verbose), or standard
// input when no file is given and standard input is not a terminal.
func inputFiles(cmd *cobra.Command, args []string, inputFormat string) ([]string, error) {
	if len(args) == 0 {
		if isTerminal(cmd.InOrStdin()) {
			return nil, &exitError{code: exitFailure, err: fmt.Errorf("no input: give FILE… or pipe a log into standard input (see %s --help)", cmd.CommandPath())}
		}
		return []string{"-"}, nil
	}
	files, skipped, err := inputs.Expand(args, inputFormat)
	verbose, _ := cmd.Flags().GetBool("verbose") // false for a command without the flag
	for _, line := range inputs.Report(skipped, verbose) {
		fmt.Fprintf(cmd.ErrOrStderr(), "lifeline: %s\n", line)
	}
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	return files, nil
}

// isTerminal reports whether f (a reader or a writer) is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
