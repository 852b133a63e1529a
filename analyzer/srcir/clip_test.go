package srcir

import (
	"runtime"
	"strings"
	"testing"
)

// TestClipLongLine: the source of a call is a clip of its line, and a line of a minified
// bundle is a whole module (kaibanjs@0.23.1 dist/bundle.mjs: one line of 766 000 characters
// holding thousands of calls). clip reads no further than the runes it keeps: converting the
// line to runes for each call made mapping that file take 210 s.
func TestClipLongLine(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"ééééééé", 6, "ééééé…"},
		{"éééééé", 6, "éééééé"},
	} {
		if got := clip(tc.s, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	line := strings.Repeat("a(b);ü", 200_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		if got := clip(line, 120); len([]rune(got)) != 120 {
			t.Fatalf("clip of a long line: %d runes, want 120", len([]rune(got)))
		}
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("100 clips of a %d-byte line allocated %d bytes: the line is copied", len(line), d)
	}
}
