package model

import (
	"os"
	"strconv"
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

// BenchmarkParentChain checks a chain of runs each named as a parent before it starts and
// closed into a cycle (every run tracked by the union-find): time per run stays flat from 10k
// to 100k runs.
func BenchmarkParentChain(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		runs := make([][2]string, 0, n)
		for i := 0; i < n; i++ {
			runs = append(runs, [2]string{"r" + strconv.Itoa(i), "r" + strconv.Itoa((i+1)%n)})
		}
		evs := runsLog(runs)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				CheckEvents(evs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/run")
		})
	}
}
