//go:build cgo

package srcir

import "testing"

// TestOutlives: a loop variable draining a call's result, read after the loop, is the
// call's result (Python's for targets, JS's for (x of xs) without const or let; qwen-agent's
// for output in self._call_llm(...): yield ...; then if output: ...): the loop over it after the
// loop iterates the call's result. Not when the name is bound anew first (an
// assignment, a comprehension's own variable) or the loop kept it in its block.
func TestOutlives(t *testing.T) {
	for _, c := range []struct {
		name, file, src string
		line            int  // the line of the loop over it after the loop
		want            bool // recorded as a test of the call's result
	}{
		{"python", "a.py", `def run(client):
    out = None
    for out in client.chat(stream=True):
        print(out)
    for m in out:
        print(m)
`, 5, true},
		{"python rebound", "a.py", `def run(client):
    for out in client.chat(stream=True):
        print(out)
    out = client.other()
    for m in out:
        print(m)
`, 5, false},
		{"python comprehension", "a.py", `def run(client, xs):
    for out in client.chat(stream=True):
        print(out)
    ys = [m for out in xs for m in out]
    return ys
`, 4, false},
		{"js let", "a.js", `function run(client) {
  let out;
  for (out of client.chat({stream: true})) { console.log(out); }
  for (const m of out) { console.log(m); }
}
`, 4, true},
		{"js const", "a.js", `function run(client, out) {
  for (const out of client.chat({stream: true})) { console.log(out); }
  for (const m of out) { console.log(m); }
}
`, 3, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := buildSrc(t, c.file, c.src)
			got := false
			for _, f := range prog.Funcs {
				for _, call := range f.Calls {
					if call.Method != "chat" || call.Flow == nil {
						continue
					}
					for _, p := range call.Flow.Iterated {
						got = got || p.Line == c.line
					}
				}
			}
			if got != c.want {
				t.Errorf("loop at line %d taken to iterate the result: %v, want %v", c.line, got, c.want)
			}
		})
	}
}
