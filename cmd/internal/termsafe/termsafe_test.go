package termsafe

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain file.jsonl:3: expected a JSON object", "plain file.jsonl:3: expected a JSON object"},
		{"evil\x1b]0;pwned\x07.jsonl", `evil\x1b]0;pwned\x07.jsonl`},
		{"a\x1b[2Jb", `a\x1b[2Jb`},
		{"line\rfake", `line\rfake`},
		{"two\nlines\tand tab", "two\nlines\tand tab"},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"bidi \u202egnp.exe", `bidi \u202egnp.exe`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"del\x7f", `del\x7f`},
		{"résumé › 名前", "résumé › 名前"},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzString: the result never holds a character a terminal acts on, and is valid UTF-8.
func FuzzString(f *testing.F) {
	f.Add("evil\x1b]0;x\x07")
	f.Add("\u009b\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if !utf8.ValidString(out) {
			t.Fatalf("String(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r == '\u202e' || r == '\u2066' {
				t.Fatalf("String(%q) = %q holds %U", s, out, r)
			}
		}
		if !strings.ContainsAny(s, "\\") && safe(s) && out != s {
			t.Fatalf("safe text changed: %q → %q", s, out)
		}
	})
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	n, err := fmt.Fprintf(w, "open %s: no such file\n", "evil\x1b]0;x\x07")
	if err != nil || n != len("open evil\x1b]0;x\x07: no such file\n") {
		t.Fatalf("n %d err %v", n, err)
	}
	if got := b.String(); got != "open evil\\x1b]0;x\\x07: no such file\n" {
		t.Fatalf("%q", got)
	}
}
