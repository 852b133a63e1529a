//go:build cgo

package srcir

import (
	"os"
	"testing"
)

// BenchmarkBuild maps the directory SRCIR_BENCH (an installed framework, see
// bench/seeds/install.sh): parse and lower every file. Skipped without it.
func BenchmarkBuild(b *testing.B) {
	_, files := benchFiles(b)
	for b.Loop() {
		if _, _, err := BuildFiles(files); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildParsed builds the directory SRCIR_BENCH from one parse (Parsed.Build): the
// lowering, call resolution, flows and facts, without tree-sitter. Skipped without it.
func BenchmarkBuildParsed(b *testing.B) {
	dir, files := benchFiles(b)
	p, err := ParseFiles(files, dir)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p.Build()
	}
}

// benchFiles is the directory SRCIR_BENCH and its source files; it skips b without it.
func benchFiles(b *testing.B) (string, []string) {
	dir := os.Getenv("SRCIR_BENCH")
	if dir == "" {
		b.Skip("set SRCIR_BENCH to a directory")
	}
	files, err := Collect([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	return dir, files
}
