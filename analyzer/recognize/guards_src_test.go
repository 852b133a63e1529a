//go:build cgo

package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/srcir"
)

// TestGuardedExitsSource: the same shapes in TypeScript and Python, through srcir.
func TestGuardedExitsSource(t *testing.T) {
	for _, tc := range []struct{ file, entry string }{
		{"agent.ts", "agent.runLoop"},
		{"agent.py", "agent.Agent.run"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := "testdata/shapes/guardexit"
			prog, diags, err := srcir.BuildFiles([]string{dir + "/" + tc.file}, dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %v", diags)
			}
			res := recognize.Recognize(prog, recognize.Options{})
			var names []string
			for _, e := range res.Entries {
				names = append(names, e.Func)
			}
			e := entry(res, tc.entry)
			if e == nil {
				t.Fatalf("no entry %s among %v", tc.entry, names)
			}
			checkGuardExits(t, e, guardCases[tc.entry])
		})
	}
}

// TestEnvDefaultsSource: defaults read from the environment in TypeScript and Python.
func TestEnvDefaultsSource(t *testing.T) {
	for _, file := range []string{"agent.ts", "agent.py"} {
		t.Run(file, func(t *testing.T) {
			dir := "testdata/shapes/envbound"
			prog, diags, err := srcir.BuildFiles([]string{dir + "/" + file}, dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %v", diags)
			}
			res := recognize.Recognize(prog, recognize.Options{})
			for _, c := range envCases[file] {
				checkEnvBound(t, entry(res, c.entry), c)
			}
		})
	}
}
