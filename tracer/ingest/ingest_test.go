package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestEachLineTooDeep: a record nested deeper than encoding/json reads is reported as such, with
// the limit, also on a last line without newline (issue 9 item 10: it was "truncated last line").
func TestEachLineTooDeep(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, in := range []string{deep + "\n", deep} {
		em := NewEmitter(func(*model.Event) {})
		em.File = "deep.json"
		err := EachLine(strings.NewReader(in), em, "fmt", func(line []byte, n int) error {
			var v any
			return json.Unmarshal(line, &v)
		})
		errs, _ := em.Errors()
		if err != nil || len(errs) != 1 || !errors.Is(errs[0], ErrTooDeep) || errors.Is(errs[0], ErrTornLine) ||
			!strings.Contains(errs[0].Error(), "deep.json:1:") || !strings.Contains(errs[0].Error(), "10000 levels") {
			t.Errorf("%d bytes: %v %v, want deep.json:1: … nested deeper than the limit (10000 levels)", len(in), err, errs)
		}
	}
}

// TestLineReaderFirstLine: the first line may be up to MaxDocument long (a one-document JSON
// input, issue 9 item 10), later lines only up to MaxLine; First and Max stand for them here.
func TestLineReaderFirstLine(t *testing.T) {
	const size = 6 << 10
	long := strings.Repeat("x", size)
	lr := NewLineReader(strings.NewReader(long + "\n" + long + "\nok"))
	lr.First, lr.Max = 8<<10, 4<<10
	if line, n, _, err := lr.Next(); err != nil || n != 1 || len(line) != size {
		t.Errorf("first line: %d bytes, line %d, err %v; want %d bytes", len(line), n, err, size)
	}
	if _, n, _, err := lr.Next(); !errors.Is(err, ErrLineTooLong) || n != 2 {
		t.Errorf("second line: line %d err %v, want ErrLineTooLong", n, err)
	}
	if line, n, final, err := lr.Next(); err != nil || n != 3 || string(line) != "ok" || !final {
		t.Errorf("third line: %q %d %v %v", line, n, final, err)
	}
	if _, _, _, err := lr.Next(); err != io.EOF {
		t.Errorf("end: %v", err)
	}
	lr = NewLineReader(strings.NewReader(long + "\n"))
	lr.Max = 4 << 10 // Max alone bounds the first line too
	if _, _, _, err := lr.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("Max set: first line err %v, want ErrLineTooLong", err)
	}
	lr = NewLineReader(strings.NewReader(long + "\n"))
	if l := lr; l.First != 0 || l.Max != 0 || MaxDocument <= MaxLine {
		t.Errorf("defaults: First %d Max %d MaxDocument %d MaxLine %d", l.First, l.Max, MaxDocument, MaxLine)
	}
}

// TestUniqueLinear: n uses of one id get id, id#2 … id#n and try each suffix once (the suffix
// search restarted at #2 on every call: quadratic in the uses of one id).
func TestUniqueLinear(t *testing.T) {
	s := NewEmitter(nil).Shared()
	if got := s.Unique("tool", "t#3"); got != "t#3" {
		t.Fatal(got)
	}
	var got []string
	for range 4 {
		got = append(got, s.Unique("tool", "t"))
	}
	if strings.Join(got, ",") != "t,t#2,t#4,t#5" {
		t.Errorf("got %v", got)
	}
	const n = 20000
	for range n {
		s.Unique("step", "x")
	}
	if len(s.used) > n+10 || s.next["step\x00x"] != n+1 {
		t.Errorf("used %d next %d", len(s.used), s.next["step\x00x"])
	}
}

// FuzzLineReader: the lines returned, joined by newlines, are the input (without \r before a
// newline and without a final newline), numbered 1, 2, …
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nb\r\n\nc"), 4)
	f.Add([]byte("xxxxxxxx\nyy\n"), 3)
	f.Fuzz(func(t *testing.T, b []byte, max int) {
		if max < 1 || max > 1<<20 {
			max = 1 << 20
		}
		lr := NewLineReader(bytes.NewReader(b))
		lr.Max = max
		var lines [][]byte
		skipped := false
		for want := 1; ; want++ {
			line, n, _, err := lr.Next()
			if err == io.EOF {
				break
			}
			if n != want {
				t.Fatalf("line number %d, want %d", n, want)
			}
			if errors.Is(err, ErrLineTooLong) {
				skipped = true
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, append([]byte(nil), line...))
		}
		if skipped || bytes.IndexByte(b, '\r') >= 0 {
			return
		}
		if got, want := bytes.Join(lines, []byte("\n")), bytes.TrimSuffix(b, []byte("\n")); !bytes.Equal(got, want) {
			t.Fatalf("lines %q, input %q", lines, b)
		}
	})
}
