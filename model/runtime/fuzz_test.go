package runtime

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// FuzzOpenLog feeds arbitrary bytes to the log reader (ParseLog, OpenLog and Runtime's Open):
// it never panics; a corrupt log is refused and left untouched; an accepted log keeps every
// committed event, loses at most the torn tail, reopens cleanly and accepts appends.
func FuzzOpenLog(f *testing.F) {
	res, err := RunScenario(context.Background(), "approval", ScenarioOptions{Clock: NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
	if err != nil {
		f.Fatal(err)
	}
	var log []byte
	for _, ev := range res.Events {
		b, _ := ev.MarshalLine()
		log = append(append(log, b...), '\n')
	}
	f.Add(log)
	f.Add(log[:len(log)-7])
	f.Add(log[:len(log)/2])
	f.Add([]byte{})
	f.Add([]byte("\n"))
	f.Add([]byte("{\"v\":1}\n{"))
	f.Add(append(bytes.Clone(log), []byte("{\"v\":1,\"seq\":99}\n")...))
	f.Add([]byte("\xff\xfe\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		events, rec, perr := ParseLog(path, data)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lg, got, rec2, err := openLog(path, true)
		if (err == nil) != (perr == nil) {
			t.Fatalf("ParseLog error %v, OpenLog error %v", perr, err)
		}
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, data) {
				t.Fatal("a refused log was modified")
			}
			if _, err := Open(Options{Path: path, NoSync: true}); err == nil {
				t.Fatal("runtime opened a log the reader refuses")
			}
			return
		}
		if rec != rec2 || !reflect.DeepEqual(events, got) || rec.Events != len(got) {
			t.Fatalf("ParseLog and OpenLog disagree: %+v vs %+v", rec, rec2)
		}
		committed := len(data) - rec.TornBytes
		if rec.TornBytes > 0 && (int64(committed) != rec.TornOffset || bytes.IndexByte(data[committed:], '\n') >= 0) {
			t.Fatalf("torn tail %+v is not the bytes after the last newline", rec)
		}
		if len(got) > 0 {
			ev, err := lg.Append(&model.Event{Type: model.Snapshot, SessionID: got[0].SessionID, TS: time.Now().UTC()})
			if err != nil || ev.Seq != int64(len(got))+1 {
				t.Fatalf("append after open: seq %d, %v", ev.Seq, err)
			}
		}
		lg.Close()
		again, rec3, err := ReadLog(path)
		if err != nil || rec3.TornBytes != 0 {
			t.Fatalf("reopen: %+v %v", rec3, err)
		}
		if len(got) > 0 && !reflect.DeepEqual(again[:len(got)], got) {
			t.Fatal("reopen lost or changed an event")
		}
		rt, err := Open(Options{Path: path, NoSync: true})
		if err != nil {
			t.Fatalf("runtime open of an accepted log: %v", err)
		}
		rt.Tree()
		rt.Close()
	})
}
