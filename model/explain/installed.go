package explain

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Install is one framework of the table as bench/seeds/install.sh installs it under a directory
// (its `--list` output): the package root the map's positions are relative to and the paths
// under it to map.
type Install struct {
	Name  string
	Root  string   // the package root, absolute (under the install directory)
	Paths []string // relative to Root
	// Present is whether every path exists under Root.
	Present bool
	// Version is the installed version (a Python package's dist-info, an npm package's
	// package.json), or "" when the metadata is not found.
	Version string
}

// seedLayout is bench/seeds/install.sh --list relative to the install directory (TestInstalledLayout
// checks the two agree): name, package root, paths to map, and where the version is recorded
// ("py:NAME" a dist-info directory NAME-VERSION.dist-info in the root, "npm:DIR" DIR/package.json).
var seedLayout = []struct {
	name, root string
	paths      []string
	version    string
}{
	{"smolagents", "py", []string{"smolagents"}, "py:smolagents"},
	{"openai-agents", "py", []string{"agents"}, "py:openai_agents"},
	{"langgraph", "py", []string{"langgraph"}, "py:langgraph"},
	{"openai-agents-js", "npm/node_modules/@openai/agents-core", []string{"dist"}, "npm:."},
	{"langgraph-js", "npm/node_modules/@langchain/langgraph", []string{"dist"}, "npm:."},
	{"pi", "npm/node_modules/@mariozechner", []string{"pi-agent-core/dist", "pi-coding-agent/dist"}, "npm:pi-agent-core"},
	{"deepseek-harness", "deepseek-harness", []string{"packages"}, ""},
}

// Installed lists the frameworks whose code bench/seeds/install.sh installs, as they sit (or
// would sit) under dir, in the table's order of seedLayout.
func Installed(dir string) []Install {
	var out []Install
	for _, s := range seedLayout {
		in := Install{Name: s.name, Root: filepath.Join(dir, filepath.FromSlash(s.root)), Paths: s.paths, Present: true}
		for _, p := range s.paths {
			if _, err := os.Stat(filepath.Join(in.Root, filepath.FromSlash(p))); err != nil {
				in.Present = false
			}
		}
		if in.Present {
			in.Version = installedVersion(in.Root, s.version)
		}
		out = append(out, in)
	}
	return out
}

func installedVersion(root, where string) string {
	kind, name, _ := strings.Cut(where, ":")
	switch kind {
	case "py":
		m, _ := filepath.Glob(filepath.Join(root, name+"-*.dist-info"))
		if len(m) == 1 {
			return strings.ReplaceAll(name, "_", "-") + "==" + strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m[0]), name+"-"), ".dist-info")
		}
	case "npm":
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name), "package.json"))
		if err != nil {
			return ""
		}
		var p struct{ Name, Version string }
		if json.Unmarshal(data, &p) == nil && p.Version != "" {
			return p.Name + "@" + p.Version
		}
	}
	return ""
}
