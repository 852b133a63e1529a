// Package progress draws a one-line progress report on a terminal while a log command reads a
// long input: events read, inputs done and elapsed time, redrawn in place at most a few times a
// second and cleared at the end. It appears only when the input takes long (After) and only on a
// terminal; elsewhere a Line does nothing.
package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// DefaultAfter is how long reading must take before the line appears.
const DefaultAfter = 2 * time.Second

// AfterEnv names the variable that overrides DefaultAfter (a Go duration; tests set 0s).
const AfterEnv = "LIFELINE_PROGRESS_AFTER"

// Line is a progress line. The zero value and a nil *Line do nothing.
type Line struct {
	w      io.Writer
	now    func() time.Time
	start  time.Time
	next   time.Time
	after  time.Duration
	every  time.Duration
	events int
	shown  bool
}

// New returns a Line writing to w when on is true (w is a terminal), else nil.
func New(w io.Writer, on bool) *Line {
	if !on {
		return nil
	}
	after := DefaultAfter
	if d, err := time.ParseDuration(os.Getenv(AfterEnv)); err == nil && d >= 0 {
		after = d
	}
	l := &Line{w: w, now: time.Now, after: after, every: 200 * time.Millisecond}
	l.start = l.now()
	l.next = l.start.Add(after)
	return l
}

// Event counts one event read; every 1024 events it looks at the clock and redraws when due.
func (l *Line) Event() {
	if l == nil {
		return
	}
	l.events++
	if l.events&1023 != 1 && l.after > 0 {
		return
	}
	if t := l.now(); !t.Before(l.next) {
		l.draw(t)
		l.next = t.Add(l.every)
	}
}

func (l *Line) draw(t time.Time) {
	l.shown = true
	fmt.Fprintf(l.w, "\rlifeline: reading… %s events, %s\x1b[K", count(l.events), t.Sub(l.start).Round(100*time.Millisecond))
}

// Done clears the line if it was drawn.
func (l *Line) Done() {
	if l == nil || !l.shown {
		return
	}
	fmt.Fprint(l.w, "\r\x1b[K")
	l.shown = false
}

func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
