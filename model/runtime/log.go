package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/lifeline-dev/lifeline/model"
)

// ErrLogClosed is returned by Log.Append after the log was closed (or the process simulated a
// crash): nothing more may be written.
var ErrLogClosed = errors.New("event log is closed")

// Recovery reports what opening a log found.
type Recovery struct {
	// Path is the log file.
	Path string `json:"path"`
	// Events is the number of complete events read.
	Events int `json:"events"`
	// TornBytes is the length of an incomplete last line (a crash in the middle of a write); it
	// was truncated by OpenLog (ReadLog only reports it). Zero when the log ended cleanly.
	TornBytes int `json:"torn_bytes,omitempty"`
	// TornOffset is the byte offset where the torn line began (the new end of the file).
	TornOffset int64 `json:"torn_offset,omitempty"`
}

// String describes the recovery in one line.
func (r Recovery) String() string {
	if r.TornBytes == 0 {
		return fmt.Sprintf("%s: %d events, clean end", r.Path, r.Events)
	}
	return fmt.Sprintf("%s: %d events; torn last line of %d bytes at offset %d truncated", r.Path, r.Events, r.TornBytes, r.TornOffset)
}

// LineError is a malformed line in the middle of a log: the log is corrupt, not torn, and is
// never silently repaired.
type LineError struct {
	Path string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err) }

// Unwrap returns the decoding error.
func (e *LineError) Unwrap() error { return e.Err }

// ParseLog parses the bytes of a session log. A line is committed only with its terminating
// newline: trailing bytes after the last newline are a torn write, reported through the returned
// Recovery (they are not an error). Any committed line that does not decode, breaks the
// consecutive seq numbering from 1, or belongs to another session is an error naming the line.
func ParseLog(path string, data []byte) ([]model.Event, Recovery, error) {
	rec := Recovery{Path: path}
	var events []model.Event
	off := 0
	for n := 1; off < len(data); n++ {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			rec.TornBytes, rec.TornOffset = len(data)-off, int64(off)
			break
		}
		ev, err := model.DecodeLine(data[off : off+nl])
		if err != nil {
			return nil, rec, &LineError{Path: path, Line: n, Err: err}
		}
		if want := int64(len(events) + 1); ev.Seq != want {
			return nil, rec, &LineError{Path: path, Line: n, Err: fmt.Errorf("seq %d, expected %d: a session log is numbered consecutively from 1", ev.Seq, want)}
		}
		if len(events) > 0 && ev.SessionID != events[0].SessionID {
			return nil, rec, &LineError{Path: path, Line: n, Err: fmt.Errorf("session %q in the log of session %q: one log holds one session", ev.SessionID, events[0].SessionID)}
		}
		if len(events) == 0 && ev.Type != model.SessionStart {
			return nil, rec, &LineError{Path: path, Line: n, Err: fmt.Errorf("first event is %s, expected session/start", ev.Type)}
		}
		ev.Origin = nil // the runtime never writes origins; keep replayed events identical to live ones
		events = append(events, ev)
		off += nl + 1
	}
	rec.Events = len(events)
	return events, rec, nil
}

// ReadLog reads a session log without modifying it (see ParseLog).
func ReadLog(path string) ([]model.Event, Recovery, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Recovery{Path: path}, fmt.Errorf("read event log: %w", err)
	}
	return ParseLog(path, data)
}

// Log is a session's append-only JSON Lines event log. Append assigns the next seq, writes the
// line and fsyncs before returning; it is safe for concurrent use.
type Log struct {
	mu     sync.Mutex
	f      *os.File
	path   string
	next   int64
	closed bool
	// NoSync skips fsync (only for throughput experiments; the runtime's guarantees assume false).
	NoSync bool
}

// OpenLog opens (creating if needed) the log at path, reads its events, truncates a torn last
// line (reported in Recovery) and positions the log for appending.
func OpenLog(path string) (*Log, []model.Event, Recovery, error) { return openLog(path, false) }

func openLog(path string, noSync bool) (*Log, []model.Event, Recovery, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, Recovery{Path: path}, fmt.Errorf("open event log: %w", err)
	}
	data, err := readAll(f)
	if err != nil {
		f.Close()
		return nil, nil, Recovery{Path: path}, fmt.Errorf("read event log %s: %w", path, err)
	}
	events, rec, err := ParseLog(path, data)
	if err != nil {
		f.Close()
		return nil, nil, rec, err
	}
	end := int64(len(data))
	if rec.TornBytes > 0 {
		end = rec.TornOffset
		if err := f.Truncate(end); err != nil {
			f.Close()
			return nil, nil, rec, fmt.Errorf("truncate torn line of %s: %w", path, err)
		}
		if !noSync {
			if err := f.Sync(); err != nil {
				f.Close()
				return nil, nil, rec, fmt.Errorf("sync %s after truncation: %w", path, err)
			}
		}
	}
	if _, err := f.Seek(end, 0); err != nil {
		f.Close()
		return nil, nil, rec, fmt.Errorf("seek %s: %w", path, err)
	}
	if len(data) == 0 && !noSync {
		syncDir(path)
	}
	return &Log{f: f, path: path, next: int64(len(events)) + 1, NoSync: noSync}, events, rec, nil
}

func readAll(f *os.File) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(f)
	return buf.Bytes(), err
}

// syncDir makes a newly created file's directory entry durable (best effort).
func syncDir(path string) {
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
}

// Path returns the log's file name.
func (l *Log) Path() string { return l.path }

// Append gives ev the next seq, writes it as one line, makes it durable and returns the event as
// a reader of the log will see it (decoded back from the written line).
func (l *Log) Append(ev *model.Event) (model.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return model.Event{}, ErrLogClosed
	}
	ev.Seq = l.next
	line, err := ev.MarshalLine()
	if err != nil {
		return model.Event{}, fmt.Errorf("encode %s event: %w", ev.Type, err)
	}
	back, err := model.DecodeLine(line)
	if err != nil {
		return model.Event{}, fmt.Errorf("refusing to write an invalid %s event: %w", ev.Type, err)
	}
	line = append(line, '\n')
	if _, err := l.f.Write(line); err != nil {
		l.closed = true // a partial write leaves a torn line: only a reopen may repair it
		return model.Event{}, fmt.Errorf("append to %s: %w", l.path, err)
	}
	if !l.NoSync {
		if err := l.f.Sync(); err != nil {
			l.closed = true
			return model.Event{}, fmt.Errorf("sync %s: %w", l.path, err)
		}
	}
	l.next++
	return back, nil
}

// Close closes the log; later appends fail with ErrLogClosed.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed && l.f == nil {
		return nil
	}
	l.closed = true
	f := l.f
	l.f = nil
	if f == nil {
		return nil
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", l.path, err)
	}
	return nil
}
