package spantree

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Expected is the ground truth of a real fixture (testdata/traces/<framework>/<name>.expected.json).
type Expected struct {
	model.Summary
	RunsDetail []struct {
		Status     model.RunStatus  `json:"status"`
		StopReason model.StopReason `json:"stop_reason"`
	} `json:"runs_detail"`
}

// LoadExpected reads an expected.json file.
func LoadExpected(path string) (*Expected, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var e Expected
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &e, nil
}

// Compare returns what differs between a tree and the ground truth ("" when they agree). Runs
// are compared as a multiset of (status, stop reason).
func (e *Expected) Compare(t *model.Tree) string {
	var diffs []string
	if got := t.Summarize(); got != e.Summary {
		diffs = append(diffs, fmt.Sprintf("summary %+v, want %+v", got, e.Summary))
	}
	var got, want []string
	for _, s := range t.Sessions {
		for _, r := range s.Runs {
			got = append(got, string(r.Status)+"/"+string(r.StopReason))
		}
	}
	for _, r := range e.RunsDetail {
		want = append(want, string(r.Status)+"/"+string(r.StopReason))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		diffs = append(diffs, fmt.Sprintf("runs %v, want %v", got, want))
	}
	return strings.Join(diffs, "; ")
}

// Fixtures lists the files under dir (recursively, skipping node_modules) whose name ends with
// one of the suffixes.
func Fixtures(dir string, suffixes ...string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		for _, s := range suffixes {
			if !d.IsDir() && strings.HasSuffix(p, s) {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}
