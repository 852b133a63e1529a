package runtime

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

func line(t *testing.T, ev model.Event) string {
	t.Helper()
	ev.V = model.SchemaVersion
	b, err := ev.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func sampleLog(t *testing.T) []string {
	ts := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	return []string{
		line(t, model.Event{Seq: 1, TS: ts, Type: model.SessionStart, SessionID: "s", Source: model.SourceRuntime}),
		line(t, model.Event{Seq: 2, TS: ts, Type: model.RunQueued, SessionID: "s", RunID: "r", Attempt: 1, Name: "a"}),
		line(t, model.Event{Seq: 3, TS: ts, Type: model.RunStart, SessionID: "s", RunID: "r", Attempt: 1, Name: "a"}),
	}
}

func TestParseLog(t *testing.T) {
	l := sampleLog(t)
	other := strings.Replace(l[2], `"session_id":"s"`, `"session_id":"x"`, 1)
	gap := strings.Replace(l[2], `"seq":3`, `"seq":4`, 1)
	tests := []struct {
		name      string
		data      string
		events    int
		torn      int
		errLine   int
		errSubstr string
	}{
		{name: "empty", data: "", events: 0},
		{name: "clean", data: l[0] + l[1] + l[2], events: 3},
		{name: "torn tail", data: l[0] + l[1] + l[2][:17], events: 2, torn: 17},
		{name: "complete event without its newline is torn", data: l[0] + l[1] + strings.TrimSuffix(l[2], "\n"), events: 2, torn: len(l[2]) - 1},
		{name: "only a torn first line", data: l[0][:5], events: 0, torn: 5},
		{name: "malformed middle line", data: l[0] + "{not json\n" + l[2], errLine: 2, errSubstr: "malformed JSON"},
		{name: "malformed last committed line", data: l[0] + l[1] + "garbage\n", errLine: 3, errSubstr: "not a JSON object"},
		{name: "blank line mid-file", data: l[0] + "\n" + l[1], errLine: 2, errSubstr: "empty line"},
		{name: "seq gap", data: l[0] + l[1] + gap, errLine: 3, errSubstr: "seq 4, expected 3"},
		{name: "two sessions", data: l[0] + l[1] + other, errLine: 3, errSubstr: "one log holds one session"},
		{name: "not starting with session/start", data: strings.Replace(l[1], `"seq":2`, `"seq":1`, 1), errLine: 1, errSubstr: "expected session/start"},
		{name: "invalid utf-8", data: l[0] + "\xff\xfe\n", errLine: 2, errSubstr: "UTF-8"},
		{name: "crlf line endings", data: strings.ReplaceAll(l[0]+l[1], "\n", "\r\n"), events: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			events, rec, err := ParseLog("f.jsonl", []byte(tc.data))
			if tc.errLine != 0 {
				var le *LineError
				if !errors.As(err, &le) || le.Line != tc.errLine || !strings.Contains(err.Error(), tc.errSubstr) {
					t.Fatalf("want error at line %d containing %q, got %v", tc.errLine, tc.errSubstr, err)
				}
				if !strings.HasPrefix(err.Error(), "f.jsonl:") {
					t.Errorf("error %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != tc.events || rec.Events != tc.events || rec.TornBytes != tc.torn {
				t.Fatalf("got %d events (%d), torn %d; want %d, torn %d", len(events), rec.Events, rec.TornBytes, tc.events, tc.torn)
			}
		})
	}
}

func TestOpenLogTruncatesTornTail(t *testing.T) {
	l := sampleLog(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(l[0]+l[1]+l[2][:40]), 0o644); err != nil {
		t.Fatal(err)
	}
	lg, events, rec, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || rec.TornBytes != 40 || rec.TornOffset != int64(len(l[0]+l[1])) {
		t.Fatalf("events %d, recovery %+v", len(events), rec)
	}
	if !strings.Contains(rec.String(), "torn last line of 40 bytes") {
		t.Errorf("recovery text: %s", rec)
	}
	ev, err := lg.Append(&model.Event{Type: model.RunStart, SessionID: "s", RunID: "r", TS: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Seq != 3 {
		t.Errorf("appended seq %d, want 3", ev.Seq)
	}
	lg.Close()
	if _, err := lg.Append(&model.Event{Type: model.RunStart, SessionID: "s", RunID: "r"}); !errors.Is(err, ErrLogClosed) {
		t.Errorf("append after close: %v", err)
	}
	data, _ := os.ReadFile(path)
	if !bytes.HasPrefix(data, []byte(l[0]+l[1])) || bytes.Count(data, []byte("\n")) != 3 {
		t.Errorf("log after repair and append:\n%s", data)
	}
	if _, rec, err := ReadLog(path); err != nil || rec.TornBytes != 0 || rec.Events != 3 {
		t.Errorf("reread: %+v %v", rec, err)
	}
}

func TestOpenLogLeavesCorruptLogAlone(t *testing.T) {
	l := sampleLog(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	data := l[0] + "oops\n" + l[2][:10]
	os.WriteFile(path, []byte(data), 0o644)
	if _, _, _, err := OpenLog(path); err == nil {
		t.Fatal("corrupt log opened")
	}
	if _, err := Open(Options{Path: path}); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Fatalf("runtime opened a corrupt log: %v", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != data {
		t.Error("a corrupt log was modified")
	}
}

func TestAppendRefusesInvalidEvent(t *testing.T) {
	lg, _, _, err := OpenLog(filepath.Join(t.TempDir(), "s.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	if _, err := lg.Append(&model.Event{Type: model.RunStart, SessionID: "s"}); err == nil || !strings.Contains(err.Error(), "run_id") {
		t.Fatalf("invalid event written: %v", err)
	}
}
