//go:build cgo

package srcir

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// resolved lists every identifier of src with the internal name module.text gives it.
func resolved(t *testing.T, file, src string) string {
	t.Helper()
	tr, err := syntax.Parse(file, syntax.LangOf(file), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := &module{tree: tr, t: tableOf(tr.Lang)}
	lexicalNames(m)
	var out []string
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		if n.Kind == "identifier" {
			out = append(out, m.text(n))
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(tr.Root)
	return strings.Join(out, " ")
}

// TestLexicalNames: the bindings of one name in different block scopes of one function are
// told apart (let/const in sibling and nested blocks, for heads, catch parameters); var and
// a function's parameters are one binding per function; a closure reads the binding it
// captures under that binding's name, and its own parameter keeps its name; the first
// binding of a name keeps it, so code that binds every name once reads as written.
func TestLexicalNames(t *testing.T) {
	src := `function f(a, n) {
  let r = a();
  for (const x of r) { let r = x; use(r); }
  for (const x of n) { use(x, r); }
  try { g(); } catch (e) { var v = e; }
  try { g(); } catch (e) { v = e; }
  var v;
  if (a) { const n = 1; use(n, () => n, (n) => n); }
  return [r, n, v];
}
function h(r) { let q = r; { let q = 2; } return q; }
`
	got := resolved(t, "a.js", src)
	want := "f a n r a x r r$$1 x use r$$1 x$$2 n use x$$2 r g e v e g e$$3 v e$$3 v a n$$4 use n$$4 n$$4 n n r n v " +
		"h r q r q$$5 q"
	if got != want {
		t.Errorf("resolved names:\n got %s\nwant %s", got, want)
	}
	// Python has no block scopes: nothing is renamed
	if got := resolved(t, "a.py", "def f(x):\n    for x in x:\n        x = 1\n    return x\n"); got != "f x x x x x" {
		t.Errorf("python: %s", got)
	}
	// the text of an expression holds the internal names; the IR's texts show the source's
	if got := plainName("r$$12.invoke(x$$3, a$$b)"); got != "r.invoke(x, a$$b)" {
		t.Errorf("plainName: %s", got)
	}
}

// TestMinifiedTopologicalSortNoTurnLoop: esbuild's IIFE build of @ax-llm/ax@24.0.21
// (index.global.js:1086) names a dozen let bindings of RC R, S and U; by name, the
// topological sort for(;g.length>0;){let R=g.shift();…for(let S of u.get(R)??[]){let U=…}}
// read the Map u.get(R) as a model call whose result is tested (U.length>0 of another
// block), dispatched by name and fed back: a turn loop without a bound (a false
// unboundedloop). Told apart, the sort is a loop over a work list.
func TestMinifiedTopologicalSortNoTurnLoop(t *testing.T) {
	prog, _ := buildDir(t, filepath.Join("testdata", "minified", "ax"))
	got := describe(recognize.Recognize(prog, recognize.Options{}), filepath.Base)
	if strings.Contains(got, "loop") {
		t.Errorf("a turn loop in the topological sort:\n%s", got)
	}
}

// TestMinifiedBlockBindings: kaibanjs@0.23.1 dist/bundle.mjs:236 (terser): agenticLoop's
// parameters are e, t, n, r; in the loop body const r = await this.executeThinking(…) and
// const u = r.parsedLLMOutput shadow the parameter r and the error sentinel let u = null the
// loop condition tests, and const r = this.tools.find(…) of a nested block is the tool. By
// name, the model call's result was tested by if(!n) before it was made and by if(r) on the
// tool found; told apart, by the loop condition and what handleThought tests of it.
func TestMinifiedBlockBindings(t *testing.T) {
	prog, _ := buildDir(t, filepath.Join("testdata", "minified", "kaibanjs"))
	found := false
	for _, f := range prog.Funcs {
		if !strings.HasSuffix(f.Name, ".agenticLoop") {
			continue
		}
		for _, c := range f.Calls {
			if !strings.HasPrefix(c.Text, "this.executeThinking(") || c.Flow == nil {
				continue
			}
			found = true
			var checked []string
			for _, ch := range c.Flow.Checked {
				checked = append(checked, ch.Text)
			}
			all := strings.Join(checked, " | ")
			for _, bad := range []string{"(!n)", "(r)"} {
				if strings.Contains(all, bad) {
					t.Errorf("the model call's result is tested by %s, a test of another binding: %s", bad, all)
				}
			}
			if !strings.Contains(all, "!a&&s<i&&!u&&!l") {
				t.Errorf("the loop condition does not test the result: %s", all)
			}
		}
	}
	if !found {
		t.Fatal("no flow of this.executeThinking in agenticLoop")
	}
}

// TestStreamedToolCallsStoredByKey: @huggingface/mcp-client@0.2.3 dist/chunk-P7YLIURU.mjs:
// 219-327 collects the streamed tool calls by index (finalToolCalls[toolCall.index] =
// toolCall, 257) and runs them in a second loop over Object.values(finalToolCalls) that binds
// the same name toolCall in a block of its own. With the two bindings told apart, the store
// by key carries the streamed calls to the second loop (before, only the shared name did).
func TestStreamedToolCallsStoredByKey(t *testing.T) {
	src := `export class McpClient {
  async *processSingleTurnWithTools(messages, opts = {}) {
    const stream = this.client.chatCompletionStream({ model: this.model, messages, tools: this.availableTools });
    const message = { role: "unknown", content: "" };
    const finalToolCalls = {};
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) {
        continue;
      }
      if (delta.content) {
        message.content += delta.content;
      }
      for (const toolCall of delta.tool_calls ?? []) {
        if (!finalToolCalls[toolCall.index]) {
          finalToolCalls[toolCall.index] = toolCall;
        } else if (toolCall.function.arguments) {
          finalToolCalls[toolCall.index].function.arguments += toolCall.function.arguments;
        }
      }
      yield chunk;
    }
    const finalToolCallValues = Object.values(finalToolCalls);
    messages.push({ role: "assistant", content: message.content, tool_calls: finalToolCallValues });
    for (const toolCall of finalToolCallValues) {
      const toolName = toolCall.function.name ?? "unknown";
      const toolMessage = { role: "tool", tool_call_id: toolCall.id, content: "", name: toolName };
      const client = this.clients.get(toolName);
      if (client) {
        const result = await client.callTool({ name: toolName, arguments: JSON.parse(toolCall.function.arguments) });
        toolMessage.content = JSON.stringify(result);
      }
      messages.push(toolMessage);
      yield toolMessage;
    }
  }
  async *run(input, opts = {}) {
    const messages = [{ role: "user", content: input }];
    let numOfTurns = 0;
    while (true) {
      yield* this.processSingleTurnWithTools(messages, opts);
      numOfTurns++;
      const currentLast = messages.at(-1);
      if (currentLast.role !== "tool" && numOfTurns > 10) {
        return;
      }
      if (currentLast.role !== "tool") {
        return;
      }
    }
  }
}
`
	got := recognizeSrc(t, "client.mjs", src)
	wantAll(t, got, "model client.McpClient.client.chatCompletionStream client.mjs:3", "tool client.callTool client.mjs:30")
}
