package cmd

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time with -ldflags "-X github.com/lifeline-dev/lifeline/cmd.version=v1.2.3";
// otherwise it is read from the module build information.
var version = ""

// Version returns lifeline's version: the linked-in one, else the module version, else the VCS
// revision the binary was built from, else "devel".
func Version() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

var versionCmd = &cobra.Command{
	Use:     "version",
	Short:   "Print lifeline's version",
	Example: "  lifeline version",
	Args:    cobra.NoArgs,
	RunE: func(cmd *cobra.Command, args []string) error {
		fmt.Fprintln(cmd.OutOrStdout(), "lifeline", Version())
		return nil
	},
}

func init() { rootCmd.AddCommand(versionCmd) }
