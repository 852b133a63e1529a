package cmd

import (
	"fmt"
	"os"

	"golang.org/x/term"

	"github.com/lifeline-dev/lifeline/cmd/internal/inputs"
	"github.com/spf13/cobra"
)

// inputFiles returns the files a log command (check, timeline, convert) reads: its arguments
// with each directory replaced by the logs in it (what is skipped is said on stderr), or
// standard input when no file is given and standard input is not a terminal.
func inputFiles(cmd *cobra.Command, args []string, inputFormat string) ([]string, error) {
	if len(args) == 0 {
		if isTerminal(cmd.InOrStdin()) {
			return nil, &exitError{code: exitFailure, err: fmt.Errorf("no input: give FILE… or pipe a log into standard input (see %s --help)", cmd.CommandPath())}
		}
		return []string{"-"}, nil
	}
	files, skipped, err := inputs.Expand(args, inputFormat)
	for _, s := range skipped {
		fmt.Fprintf(cmd.ErrOrStderr(), "lifeline: %s\n", s)
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
