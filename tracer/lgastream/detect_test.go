package lgastream_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/lgastream"
)

// TestDetectAll: every astream view of testdata is detected as langgraph-astream and no other
// file of testdata is.
func TestDetectAll(t *testing.T) {
	n := 0
	for _, root := range []string{"../../testdata/samples", "../../testdata/traces", "../../testdata/samples-py"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if d != nil && d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			if len(b) > tracer.HeadSize {
				b = b[:tracer.HeadSize]
			}
			f, derr := tracer.Detect(b)
			got := derr == nil && f.Name == lgastream.Name
			want := strings.Contains(filepath.Base(path), ".astream") || strings.Contains(filepath.Base(path), ".graph_stream")
			if want {
				n++
			}
			if got != want {
				t.Errorf("%s: detected as %v (err %v), want astream %v", path, f.Name, derr, want)
			}
			return nil
		})
	}
	if n < 66 {
		t.Errorf("only %d astream files", n)
	}
}
