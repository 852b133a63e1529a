package pi

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

const benchHeader = `{"type":"session","version":3,"id":"S","timestamp":"2026-03-15T22:40:18.120Z","cwd":"/p"}
{"type":"message","id":"u0","parentId":null,"timestamp":"2026-03-15T22:40:20.001Z","message":{"role":"user","content":"hi"}}
`

// chainSession is a session whose n assistant entries each continue the one before: one run
// n steps long, an entry chain n deep.
func chainSession(n int) []byte {
	var b bytes.Buffer
	b.WriteString(benchHeader)
	prev := "u0"
	for i := range n {
		stop := "toolUse"
		if i == n-1 {
			stop = "stop"
		}
		fmt.Fprintf(&b, `{"type":"message","id":"a%d","parentId":%q,"timestamp":"2026-03-15T22:40:21.001Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"stopReason":%q}}`+"\n", i, prev, stop)
		prev = fmt.Sprintf("a%d", i)
	}
	return b.Bytes()
}

// siblingSession is a session whose n assistant entries all answer the same prompt: n sibling
// branches, each its own run.
func siblingSession(n int) []byte {
	var b bytes.Buffer
	b.WriteString(benchHeader)
	for i := range n {
		fmt.Fprintf(&b, `{"type":"message","id":"a%d","parentId":"u0","timestamp":"2026-03-15T22:40:21.001Z","message":{"role":"assistant","content":[{"type":"text","text":"branch %d"}],"stopReason":"stop"}}`+"\n", i, i)
	}
	return b.Bytes()
}

// forkSession is a session whose first answer gets n follow-up prompts and then n more answers,
// all as its children: each later answer is a branch run.
func forkSession(n int) []byte {
	var b bytes.Buffer
	b.WriteString(benchHeader)
	b.WriteString(`{"type":"message","id":"a","parentId":"u0","timestamp":"2026-03-15T22:40:21.001Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"stopReason":"stop"}}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"message","id":"p%d","parentId":"a","timestamp":"2026-03-15T22:40:22.001Z","message":{"role":"user","content":"again"}}`+"\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, `{"type":"message","id":"b%d","parentId":"a","timestamp":"2026-03-15T22:40:23.001Z","message":{"role":"assistant","content":[{"type":"text","text":"y"}],"stopReason":"stop"}}`+"\n", i)
	}
	return b.Bytes()
}

// BenchmarkSession decodes an entry chain, a fan of sibling branches and a fork (prompts, then
// answers, under one entry) 10k and 100k entries large (item 5 of issue 9: the cycle check walked
// every entry's ancestors; the branch check scanned the siblings before every entry).
func BenchmarkSession(b *testing.B) {
	for _, shape := range []struct {
		name string
		gen  func(int) []byte
	}{{"chain", chainSession}, {"siblings", siblingSession}, {"fork", forkSession}} {
		for _, n := range []int{10_000, 100_000} {
			in := shape.gen(n)
			b.Run(fmt.Sprintf("%s/%dk", shape.name, n/1000), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					events := 0
					em := ingest.NewEmitter(func(*model.Event) { events++ })
					em.File = "session.jsonl"
					if err := DecodeSession(bytes.NewReader(in), em); err != nil || events == 0 {
						b.Fatalf("events %d, err %v", events, err)
					}
				}
			})
		}
	}
}
