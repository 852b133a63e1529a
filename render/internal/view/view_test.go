package view

import (
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\x1b[31mred\x1b[0m", "ared"},
		{"x\x1b]0;title\x07y", "xy"},
		{"x\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\y", "xlinky"},
		{"line1\nline2\ttab", "line1 line2 tab"},
		{"bell\x07nul\x00del\x7f", "bellnuldel"},
		{"c1\u009b31mcsi", "c1csi"},
		{"bidi\u202eevil", "bidievil"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"日本語", "日本語"},
		{"cut\x1b[", "cut"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestShortID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"run-1", 14, "run-1"},
		{"3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f", 14, "3f2a9c1e"},
		{"call_VSPygqKTWdrhaFErNvMV18Yl", 14, "call_VSP…V18Yl"},
	} {
		if got := ShortID(tc.in, tc.max); got != tc.want {
			t.Errorf("ShortID(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestDur(t *testing.T) {
	for _, tc := range []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"}, {500 * time.Nanosecond, "500ns"}, {850 * time.Microsecond, "850µs"}, {12 * time.Millisecond, "12ms"},
		{1234 * time.Millisecond, "1.234s"}, {123 * time.Second, "2m03s"}, {62 * time.Minute, "1h02m"},
	} {
		if got := Dur(tc.in); got != tc.want {
			t.Errorf("Dur(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCountTruncate(t *testing.T) {
	if got := Count(1234567); got != "1,234,567" {
		t.Errorf("Count = %q", got)
	}
	if got := Truncate("日本語ツール", 5); got != "日本…" {
		t.Errorf("Truncate = %q", got)
	}
}
