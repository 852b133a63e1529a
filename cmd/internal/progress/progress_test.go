package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	if New(&bytes.Buffer{}, false) != nil {
		t.Fatal("a line off a terminal must be nil")
	}
	var nilLine *Line
	nilLine.Event()
	nilLine.Done()
	var b bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := &Line{w: &b, now: func() time.Time { return clock }, start: clock, next: clock.Add(time.Second), after: time.Second, every: 200 * time.Millisecond}
	for range 5000 {
		l.Event()
	}
	if b.Len() != 0 {
		t.Fatalf("drawn before After: %q", b.String())
	}
	clock = clock.Add(1500 * time.Millisecond)
	for range 3000 {
		l.Event()
	}
	if got := b.String(); !strings.Contains(got, "reading… 5,121 events, 1.5s") || strings.Count(got, "\r") != 1 {
		t.Fatalf("line %q", got)
	}
	l.Done()
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Fatalf("not cleared: %q", b.String())
	}
}
