package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/cmd/internal/termsafe"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
	"github.com/spf13/cobra"
)

// codeMap is the lifecycle map of --code PATHS with the index of their string literals.
type codeMap struct {
	paths []string
	m     *model.Map
	names *lifemap.Literals
}

// loadCodeMap maps the --code paths (Go packages, Python/TS/JS sources) once, printing the
// mapper's warnings to errw. A path ending in .json is a map saved with lifeline map --format
// json (built once, joined many times); its code's literals are not indexed.
func loadCodeMap(paths []string, errw io.Writer) (*codeMap, error) {
	var saved []string
	var code []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".json") {
			saved = append(saved, p)
		} else {
			code = append(code, p)
		}
	}
	if len(saved) > 0 && len(code) > 0 {
		return nil, fmt.Errorf("--code: give saved maps (.json) or code paths, not both")
	}
	if len(saved) > 0 {
		m := &model.Map{}
		for _, p := range saved {
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("--code: %w", err)
			}
			var one model.Map
			if err := json.Unmarshal(data, &one); err != nil {
				return nil, fmt.Errorf("--code: %s: not a lifecycle map (lifeline map --format json): %w", p, err)
			}
			m.Packages = append(m.Packages, one.Packages...)
			m.Entries = append(m.Entries, one.Entries...)
		}
		return &codeMap{paths: paths, m: m}, nil
	}
	m, warns, err := lifemap.MapArgs(paths, lifemap.Options{Deps: true})
	if err != nil {
		return nil, fmt.Errorf("--code: %w", err)
	}
	for _, w := range warns {
		fmt.Fprintln(termsafe.NewWriter(errw), "lifeline: warning: "+w)
	}
	names, err := lifemap.IndexLiterals(paths, "")
	if err != nil {
		return nil, fmt.Errorf("--code: %w", err)
	}
	return &codeMap{paths: paths, m: m, names: names}, nil
}

// join joins a tree with the map.
func (c *codeMap) join(t *model.Tree) *join.Result {
	var names join.Names
	if c.names != nil {
		names = c.names
	}
	return join.Join(t, c.m, join.Options{Names: names})
}

// coverMap reads the --traces logs and marks in m what their runs took (join.Cover).
func coverMap(cmd *cobra.Command, m *model.Map, traces []string) error {
	files, err := inputFiles(cmd, traces, "")
	if err != nil {
		return err
	}
	// Each log is joined on its own: independent logs (two demo runs) may reuse ids, and
	// merged they would read as one run.
	for _, file := range files {
		tree, _, readErr := readTree(cmd, []string{file}, "", false, cmd.ErrOrStderr())
		if readErr != nil {
			return &exitError{code: exitFailure, err: fmt.Errorf("--traces: %w", readErr)}
		}
		join.Cover(m, join.Join(tree, m, join.Options{}))
	}
	return nil
}
