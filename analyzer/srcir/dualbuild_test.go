package srcir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCollectCommonJSTwin: a package built twice (ES modules and CommonJS, as its package.json
// "exports" says) is read in its ES build, also when the bundler's chunk names differ by
// content hash (the layout of @mastra/core@1.71.0's dist/: agent-BOxKOk3n.js beside
// agent-B0HTHdrj.cjs) and when the builds are two directories (dist/esm, dist/cjs). A .cjs
// outside the twin's directory (a bin script) and a package with one build are kept whole.
func TestCollectCommonJSTwin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pkg   string
		files []string
		want  string
	}{{
		name:  "hashed chunks",
		pkg:   `{"name":"p","type":"module","exports":{".":{"import":{"types":"./dist/index.d.ts","default":"./dist/index.js"},"require":{"types":"./dist/index.d.ts","default":"./dist/index.cjs"}},"./agent":{"import":"./dist/agent/index.js","require":"./dist/agent/index.cjs"}}}`,
		files: []string{"dist/index.js", "dist/index.cjs", "dist/agent-BOxKOk3n.js", "dist/agent-B0HTHdrj.cjs", "dist/agent/index.js", "dist/agent/index.cjs", "bin/cli.cjs"},
		want:  "bin/cli.cjs dist/agent-BOxKOk3n.js dist/agent/index.js dist/index.js",
	}, {
		name:  "two trees",
		pkg:   `{"name":"p","main":"./dist/cjs/index.js","module":"./dist/esm/index.js"}`,
		files: []string{"dist/esm/index.js", "dist/esm/run-1a.js", "dist/cjs/index.js", "dist/cjs/run-2b.js"},
		want:  "dist/esm/index.js dist/esm/run-1a.js",
	}, {
		name:  "one build",
		pkg:   `{"name":"p","main":"./dist/index.cjs","exports":{".":{"require":"./dist/index.cjs"}}}`,
		files: []string{"dist/index.cjs", "dist/chunk-1a.cjs"},
		want:  "dist/chunk-1a.cjs dist/index.cjs",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range append(tc.files, "package.json") {
				p := filepath.Join(dir, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				data := []byte("export const x = 1;\n")
				if f == "package.json" {
					data = []byte(tc.pkg)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			files, err := Collect([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				r, _ := filepath.Rel(dir, f)
				got = append(got, filepath.ToSlash(r))
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("Collect = %s, want %s", g, tc.want)
			}
		})
	}
}
