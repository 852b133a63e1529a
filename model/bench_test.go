package model

import (
	"os"
	"strings"
	"testing"
)

func benchLines(b *testing.B) [][]byte {
	data, err := os.ReadFile("../testdata/invariants/L13_side_effect_twice_after_resume.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		lines = append(lines, []byte(l))
	}
	return lines
}

func BenchmarkDecodeLine(b *testing.B) {
	lines := benchLines(b)
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			if _, err := DecodeLine(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	lines := benchLines(b)
	evs := make([]Event, len(lines))
	for i, l := range lines {
		evs[i], _ = DecodeLine(l)
	}
	b.ReportAllocs()
	for b.Loop() {
		CheckEvents(evs)
	}
}
