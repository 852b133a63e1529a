package lifemap

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestIndexLiterals(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"agent.go":      "package a\nvar ErrLimit = errors.New(\"agent: step \\\"limit\\\" reached\")\n// \"commented\" it's\nvar t = FuncTool{ToolName: \"search\"}\nvar r = 'x'\nvar m = `multi\nline`\n/* \"blocked\" */ var d = \"deploy\"\n",
		"agent_test.go": "package a\nvar x = \"only_in_tests\"\n",
		"tools/t.py":    "# \"pycomment\"\n@tool('lookup')\ndef f(): pass\n",
		"tools/t.ts":    "const t = tool({name: \"search_docs\"}); // 'nope'\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := IndexLiterals([]string{"./...", "no/such/import/path"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		at   string // "" = absent
	}{
		{"search", "agent.go:4"}, {"deploy", "agent.go:8"}, {"multi\nline", "agent.go:6"}, {"lookup", "tools/t.py:2"},
		{"search_docs", "tools/t.ts:1"}, {"commented", ""}, {"blocked", ""}, {"only_in_tests", ""}, {"pycomment", ""}, {"nope", ""},
	} {
		p, ok := l.Lookup(tc.name)
		if got := map[bool]string{true: p.String(), false: ""}[ok]; got != tc.at {
			t.Errorf("Lookup(%q) = %q, want %q", tc.name, got, tc.at)
		}
	}
	if msg, ok := l.SentinelMessage("ErrLimit"); !ok || msg != `agent: step "limit" reached` {
		t.Errorf("SentinelMessage(ErrLimit) = %q, %v", msg, ok)
	}
	// A Go package directory is its files only.
	l, err = IndexLiterals([]string{"."}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Lookup("lookup"); ok {
		t.Errorf("a package directory indexed its subdirectories")
	}
}

// FuzzScanLiterals: any source scans without a panic, and every literal found is a substring of
// the source on a line that exists.
func FuzzScanLiterals(f *testing.F) {
	f.Add([]byte("var t = FuncTool{ToolName: \"search\"} // 'x'\n/* \"y\" */ `a\nb`"), "//")
	f.Add([]byte("# it's\n@tool('lookup')\n\"\"\"doc\n\"\"\""), "#")
	f.Add([]byte("\"unterminated\n'\\"), "//")
	f.Fuzz(func(t *testing.T, src []byte, comment string) {
		if comment != "//" && comment != "#" {
			comment = "//"
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		scanLiterals(src, comment, func(lit string, line int) {
			if line < 1 || line > lines {
				t.Fatalf("literal %q at line %d of %d", lit, line, lines)
			}
			if !bytes.Contains(src, []byte(lit)) {
				t.Fatalf("literal %q is not in the source", lit)
			}
		})
	})
}
