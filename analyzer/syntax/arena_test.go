//go:build cgo

package syntax

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// dump writes a tree's nodes and errors in preorder, one line each.
func dump(t *Tree) string {
	var sb strings.Builder
	var walk func(n *Node, d int)
	walk = func(n *Node, d int) {
		fmt.Fprintf(&sb, "%d %s %s %d-%d %d-%d %v%v%v\n", d, n.Kind, n.Field, n.Start, n.End, n.Line, n.EndLine, n.Named, n.Error, n.Missing)
		for _, c := range n.Children {
			walk(c, d+1)
		}
	}
	if t.Root != nil {
		walk(t.Root, 0)
	}
	fmt.Fprintf(&sb, "errors %v\n", t.Errors)
	return sb.String()
}

// TestParseArenaReuse: each parse allocates from its thread's arena (flat_cgo.go) and drops
// it at the end; parses on several goroutines at once, one after another on reused chunks,
// of files small and large (a tree past one chunk, blocks grown in place and moved, a
// syntax error's recovery) give the same trees every time, and the same as the first parse.
func TestParseArenaReuse(t *testing.T) {
	var big strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&big, "def f%d(a, b=%d):\n    for x in range(a):\n        if x and b[x] or {'k': [x, (x, b)]}:\n            yield await g(x, *a, **b)\n", i, i)
	}
	inputs := []struct {
		lang Lang
		src  string
	}{
		{Python, big.String()},
		{Python, "def f(:\n    pass\n" + strings.Repeat("x = [(\n", 300)},
		{Python, "while True:\n    r = llm(messages)\n    if not r.tool_calls:\n        break\n"},
		{TypeScript, strings.Repeat("async function g(s: AsyncIterable<string>) {\n  for await (const c of s) { if (c === 'x') { break } }\n}\n", 1000)},
		{JavaScript, "module.exports = async function* g() {\n  yield 1\n"},
		{Python, ""},
	}
	want := make([]string, len(inputs))
	for i, in := range inputs {
		tr, err := Parse("x", in.lang, []byte(in.src))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = dump(tr)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 2 {
				for k := range inputs {
					i := (k + w + round) % len(inputs)
					tr, err := Parse("x", inputs[i].lang, []byte(inputs[i].src))
					if err != nil {
						errs <- err.Error()
						return
					}
					if got := dump(tr); got != want[i] {
						errs <- fmt.Sprintf("worker %d round %d input %d: tree differs from the first parse", w, round, i)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
