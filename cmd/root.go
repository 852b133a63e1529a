// Package cmd holds lifeline's cobra commands: each parses its flags, calls the packages that do
// the work and prints. No lifecycle logic lives here.
package cmd

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/lifeline-dev/lifeline/cmd/internal/termsafe"
	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	exitOK       = 0
	exitFailure  = 1 // bad input, I/O error, bad flags
	exitFindings = 3 // the command ran and reported findings (check, vet)
)

// exitError carries a process exit code through cobra without printing anything extra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// findingsExit reports that a command found problems: exit code 3, nothing more printed.
func findingsExit() error { return &exitError{code: exitFindings} }

var rootCmd = &cobra.Command{
	Use:   "lifeline",
	Short: "Show how AI-agent programs live: lifecycle timelines, maps and checks",
	Long: `lifeline maps an agent framework's source code and runtime logs onto one canonical
lifecycle model — Session › Run › Turn › Step › (model call, tool call) — and renders
timelines, lifecycle maps and vet-style diagnostics.`,
	SilenceUsage:  true,
	SilenceErrors: true,
}

// preCobra lists hooks that may take over the process before cobra parses the arguments
// (go vet's -vettool protocol is one). A hook returns true when it handled the invocation.
var preCobra []func(args []string) bool

// Execute runs the lifeline command line and exits the process with its status.
func Execute() {
	for _, hook := range preCobra {
		if hook(os.Args[1:]) {
			return
		}
	}
	// Everything a command prints on stderr (decode errors, diagnostics, verdicts) embeds file
	// names and record contents: escape what a terminal would act on.
	stderr := termsafe.NewWriter(os.Stderr)
	rootCmd.SetErr(stderr)
	err := rootCmd.Execute()
	if err == nil {
		os.Exit(exitOK)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "lifeline:", ee.err)
		}
		os.Exit(ee.code)
	}
	fmt.Fprintln(stderr, "lifeline:", err)
	os.Exit(exitFailure)
}

// wholeTreeGC tunes the garbage collector for commands that hold a whole lifecycle tree: the
// tree only grows, so collecting at 4× the live heap instead of 2× saves a third of the time on
// large traces, with a soft 8 GiB limit. GOGC and GOMEMLIMIT, when set, win.
func wholeTreeGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(8 << 30)
	}
}
