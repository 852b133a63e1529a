package model

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestInvariantFixtures checks that each fixture of testdata/invariants violates exactly the
// invariant its name starts with, and that the clean log produces no finding at all.
func TestInvariantFixtures(t *testing.T) {
	files, err := filepath.Glob("../testdata/invariants/*.jsonl")
	if err != nil || len(files) < 14 {
		t.Fatalf("want the clean log and 13 fixtures, got %d (%v)", len(files), err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			findings := CheckEvents(readLog(t, f))
			want, _, _ := strings.Cut(name, "_")
			if want == "clean.jsonl" {
				for _, fd := range findings {
					t.Errorf("clean log: %s", fd)
				}
				return
			}
			seen[want] = true
			if len(findings) != 1 {
				t.Fatalf("want exactly one finding %s, got %d: %v", want, len(findings), findings)
			}
			fd := findings[0]
			if fd.Code != want || fd.Severity != SevError || len(fd.IDs) == 0 || fd.Seq == 0 || fd.Message == "" {
				t.Errorf("want one %s error with ids, seq and message, got %+v", want, fd)
			}
		})
	}
	for i := 1; i <= 13; i++ {
		code := "L" + itoa(i)
		if !seen[code] {
			t.Errorf("no fixture for %s", code)
		}
		if InvariantTitles[code] == "" {
			t.Errorf("no title for %s", code)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return "1" + string(rune('0'+i-10))
}

func TestOpenRunIsReportedNotViolated(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/clean.jsonl")
	live := evs[:12] // cut while tools of step-1 are done but the step is still open
	findings := CheckEvents(live)
	if len(findings) != 1 || findings[0].Code != "L3" || findings[0].Severity != SevInfo {
		t.Fatalf("want one L3 info (run still live), got %v", findings)
	}
}

func TestCheckerOutOfOrder(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/clean.jsonl")
	rev := make([]Event, len(evs))
	for i := range evs {
		rev[len(evs)-1-i] = evs[i]
	}
	if f := CheckEvents(rev); len(f) != 0 {
		t.Fatalf("reversed clean log: %v", f)
	}
}
