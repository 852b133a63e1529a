package cmd

import (
	"slices"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/spf13/cobra"
)

// Shell completion of flag values and arguments (cobra's `lifeline completion SHELL`): every
// flag that takes one of a fixed set of values completes them, with their descriptions.

type completion = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective)

// complete offers the values, each "name\tdescription" or "name", that start with what is typed.
func complete(values ...string) completion {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeList completes the last item of a comma-separated list of values, leaving out the
// ones already given.
func completeList(values ...string) completion {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		done, prefix := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			done, prefix = toComplete[:i+1], toComplete[i+1:]
		}
		given := strings.Split(done, ",")
		var out []cobra.Completion
		for _, v := range values {
			name, _, _ := strings.Cut(v, "\t")
			if strings.HasPrefix(name, prefix) && !slices.Contains(given, name) {
				out = append(out, done+v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// mustComplete registers fn for the flag of c; the flag is defined just before, so an error
// is a programming mistake.
func mustComplete(c *cobra.Command, flag string, fn completion) {
	if err := c.RegisterFlagCompletionFunc(flag, fn); err != nil {
		panic(err)
	}
}

// inputFormatCompletions are the names of the input formats with their descriptions.
func inputFormatCompletions() []string {
	var out []string
	for _, f := range tracer.Formats {
		out = append(out, f.Name+"\t"+f.Description)
	}
	return out
}

// renderFormatCompletions are the timeline output formats with their descriptions.
func renderFormatCompletions() []string {
	var out []string
	for _, f := range renderFormats {
		out = append(out, f.Name+"\t"+f.Description)
	}
	return out
}

// invariantCodes returns the codes of the invariants check verifies, in order: L1 … L13, then
// the others (C1, …).
func invariantCodes() []string {
	codes := make([]string, 0, len(model.InvariantTitles))
	for c := range model.InvariantTitles {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		a, b := codes[i], codes[j]
		if a[0] != b[0] {
			return a[0] == 'L' // L first
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	})
	return codes
}

// invariantCompletions are the invariant codes with their statements.
func invariantCompletions() []string {
	var out []string
	for _, c := range invariantCodes() {
		out = append(out, c+"\t"+model.InvariantTitles[c])
	}
	return out
}
