package model

import (
	"bufio"
	"os"
	"testing"
)

// readLog reads a canonical log for tests (model itself does no I/O).
func readLog(t testing.TB, path string) []Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, MaxLineBytes)
	for n := 1; sc.Scan(); n++ {
		ev, err := DecodeLine(sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}
