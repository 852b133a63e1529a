package cmd

import (
	"fmt"
	goruntime "runtime"
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

// versionInfo is what version --format json prints.
type versionInfo struct {
	Version string `json:"version"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

func newVersionCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "version",
		Short: "Print lifeline's version",
		Long:  "version prints lifeline's version (also: lifeline --version); --format json adds the Go version, OS and architecture.",
		Example: `  lifeline version
  lifeline version --format json
  lifeline --version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			switch format {
			case "text":
				_, err := fmt.Fprintln(w, "lifeline", Version())
				return err
			case "json":
				return writeJSON(w, versionInfo{Version: Version(), Go: goruntime.Version(), OS: goruntime.GOOS, Arch: goruntime.GOARCH})
			}
			return &exitError{code: exitFailure, err: fmt.Errorf("unknown --format %q (text or json)", format)}
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	mustComplete(c, "format", complete("text", "json"))
	return c
}

func init() {
	rootCmd.AddCommand(newVersionCmd())
	rootCmd.Version = Version()
	rootCmd.SetVersionTemplate("lifeline {{.Version}}\n")
}
