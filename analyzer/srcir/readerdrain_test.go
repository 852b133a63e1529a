//go:build cgo

package srcir

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// TestReaderDrain: a loop that steps an iterator by hand, destructuring the iterator
// protocol's result (const { done: d, value: chunk } = await reader.read(); if (d) break), is
// the drain of the stream the step reads (a range over an iterator, the read its OverCall), as
// for await (const chunk of …) is; a for (;;) whose call result is anything else stays a for
// loop. Modelled on @ax-llm/ax@24.0.21 index.global.js:379 (function bp, minified), where the
// drain of one streamed response was taken for a turn loop with no bound.
func TestReaderDrain(t *testing.T) {
	src := `export async function* processStreamingResponse({ res, states, ...args }) {
  const reader = res.getReader();
  let done = false;
  try {
    for (;;) {
      const { done: d, value: chunk } = await reader.read();
      if (d) {
        done = true;
        break;
      }
      for (const result of chunk.results) {
        yield* processResult({ ...args, result, state: states[result.index] });
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export async function* pump(it) {
  for (;;) {
    const { done, value } = await it.next();
    if (done) return;
    yield value;
  }
}

export async function turns(client, messages) {
  for (;;) {
    const { message, usage } = await client.chat(messages);
    if (!message.toolCalls) return message;
    messages.push(message);
  }
}
`
	p := buildSrc(t, "stream.js", src)
	want := map[string]struct {
		kind ir.LoopKind
		over string
	}{
		"processStreamingResponse": {ir.LoopRangeIter, "reader.read()"},
		"pump":                     {ir.LoopRangeIter, "it.next()"},
		"turns":                    {ir.LoopFor, ""},
	}
	seen := 0
	for _, f := range p.Funcs {
		name := f.Name[strings.LastIndexByte(f.Name, '.')+1:]
		w, ok := want[name]
		if !ok {
			continue
		}
		seen++
		if len(f.Loops) == 0 {
			t.Errorf("%s: no loop", name)
			continue
		}
		l := f.Loops[0]
		over := ""
		if l.OverCall >= 0 {
			over = f.Calls[l.OverCall].Text
		}
		if l.Kind != w.kind || over != w.over {
			t.Errorf("%s: loop %s over %q, want %s over %q", name, l.Kind, over, w.kind, w.over)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d functions", seen, len(want))
	}
}
