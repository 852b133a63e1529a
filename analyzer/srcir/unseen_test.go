//go:build cgo

package srcir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
)

// Shapes of agent code seen first in frameworks the recognizer was not tuned on
// (bench/corpus-pyts: vercel-ai, beeai-ts, google-adk). Each test names the shape, not the
// framework: the sources are written here, in the way those frameworks write them.

// recognizeSrc builds one file and runs the recognizer on it.
func recognizeSrc(t *testing.T, name, src string) string {
	t.Helper()
	p := buildSrc(t, name, src)
	return describe(recognize.Recognize(p, recognize.Options{}), filepath.Base)
}

func wantAll(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestRetryWrappedModelCall: a model call made inside a callback handed to a retry helper
// (retry(async () => …), through a second wrapper's execute option, the result spread into a
// literal on its way back) is the call whose result the loop decides on: it scores as the
// call itself, with what it receives fed by the tool results, and is the model call site (not
// the helper).
func TestRetryWrappedModelCall(t *testing.T) {
	src := `import { prepareRetries } from "./retries.js";

export async function run({ model, tools, telemetry, maxRetries = 2, maxSteps = 5 }) {
    const retry = prepareRetries({ maxRetries });
    const inSpan = telemetry.wrap ?? (async ({ execute }) => await execute());
    const messages = [];
    for (let step = 0; step < maxSteps; step++) {
        const response = await retry(async () => {
            const out = await inSpan({
                name: "model",
                execute: async () => {
                    const result = await model.doGenerate({ messages, tools });
                    return { ...result, id: result.id ?? "x" };
                },
            });
            return { ...out, at: Date.now() };
        });
        if (response.toolCalls.length === 0) {
            return response.text;
        }
        for (const call of response.toolCalls) {
            const output = await tools[call.toolName].execute(call.input);
            messages.push({ role: "tool", content: output });
        }
    }
}
`
	got := recognizeSrc(t, "m.js", src)
	wantAll(t, got,
		fmt.Sprintf("loop for m.run line %d", lineOf(src, "for (let step")),
		fmt.Sprintf("model model.doGenerate m.js:%d", lineOf(src, "model.doGenerate(")),
		fmt.Sprintf("tool tools[call.toolName].execute m.js:%d", lineOf(src, "tools[call.toolName].execute(")),
	)
	if strings.Contains(got, "model retry") {
		t.Errorf("the retry helper is not the model call:\n%s", got)
	}

	// a hook the helper calls with what it has (onFailure(usage)) is not the attempt: the
	// helper's call stays the model call
	hook := `export async function run({ model, tools, maxSteps = 5 }) {
    const messages = [];
    for (let step = 0; step < maxSteps; step++) {
        const response = await withRetry(model, { messages, tools }, { onFailure: (usage) => record(usage) });
        if (response.toolCalls.length === 0) {
            return response.text;
        }
        for (const call of response.toolCalls) {
            messages.push(await tools[call.toolName].execute(call.input));
        }
    }
}
`
	got = recognizeSrc(t, "hook.js", hook)
	wantAll(t, got, fmt.Sprintf("model withRetry hook.js:%d", lineOf(hook, "withRetry(")))
	if strings.Contains(got, "model record") {
		t.Errorf("the failure hook is not the model call:\n%s", got)
	}

	// Python: a lambda handed to a retry helper
	py := `class Agent:
    def __init__(self, client, tools, retrier, max_steps: int = 8):
        self.client = client
        self.tools = tools
        self.retrier = retrier
        self.max_steps = max_steps

    def run(self, messages):
        for _ in range(self.max_steps):
            reply = self.retrier.call(lambda: self.client.create(messages=messages, tools=self.tools))
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                result = self.tools[call.name](**call.arguments)
                messages.append({"role": "tool", "content": result})
`
	got = recognizeSrc(t, "agent.py", py)
	wantAll(t, got,
		fmt.Sprintf("model agent.Agent.client.create agent.py:%d", lineOf(py, "self.client.create(")),
	)
}

// TestAsyncWithRelayedSteps: a step generator whose events are relayed through async with
// aclosing(...) as agen blocks (its own events come from a helper generator it drains) yields
// results: the caller's drain of it is the flow of the step call, tested by a predicate of the
// last event. The name agen rebound by each block is that block's generator only: the
// postprocessing call's items are the events of its own block, not those of the others.
func TestAsyncWithRelayedSteps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "recognize", "testdata", "shapes", "pystepgen", "flow.py"))
	if err != nil {
		t.Fatal(err)
	}
	p := buildSrc(t, "flow.py", string(src))
	flowAt := func(fn string, line int) *ir.Flow {
		for _, f := range p.Funcs {
			if !strings.HasSuffix(f.Short, fn) {
				continue
			}
			for i := range f.Calls {
				c := &f.Calls[i]
				if c.Pos.Line == line && len(c.Targets) == 1 && p.Funcs[c.Targets[0]].Results != nil {
					return c.Flow
				}
			}
		}
		return nil
	}
	// run_async: async with Aclosing(self._run_one_step_async(ctx)) as agen (line 34)
	if fl := flowAt("Flow.run_async", 34); fl == nil || fl.Delivery != "iterator" || len(fl.Checked) == 0 {
		t.Errorf("step call: flow %+v, want an iterator tested for leaving", fl)
	}
	// _run_one_step_async: the third async with (line 48) rebinds agen; its items are the
	// events of the loop at line 49 only
	fl := flowAt("Flow._run_one_step_async", 48)
	if fl == nil {
		t.Fatalf("postprocessing call: no flow")
	}
	for _, at := range fl.Iterated {
		if at.Line != 49 {
			t.Errorf("postprocessing call iterated at %v, want only line 49", fl.Iterated)
		}
	}
}

// TestTranslationTableNoDispatch: a name looked up in a module-level table of constants (a
// block's tool name translated into a kind: string literals, or class fields holding one) maps
// content blocks, it selects nothing to run: no dispatch, so the loop re-issuing the request
// and mapping the reply's blocks is no turn loop.
func TestTranslationTableNoDispatch(t *testing.T) {
	src := `class WebSearch:
    kind: str = "web_search"


KIND_BY_NAME = {"web_search": WebSearch.kind, "fetch": "web_fetch"}


class Adapter:
    async def request(self, client, messages):
        while True:
            response = await client.create(messages)
            if not response.content:
                return None
            parts = []
            for block in response.content:
                kind = KIND_BY_NAME[block.name]
                parts.append({"kind": kind, "id": block.id, "result": block.result})
            messages.append({"role": "assistant", "content": parts})
`
	p := buildSrc(t, "adapter.py", src)
	for _, f := range p.Funcs {
		for _, c := range f.Calls {
			if c.Flow != nil && len(c.Flow.Dispatch) > 0 {
				t.Errorf("%s: %s dispatches %+v: a translation table lookup read as a dispatch", f.Short, c.Text, c.Flow.Dispatch)
			}
		}
	}
	got := recognizeSrc(t, "adapter.py", src)
	if strings.Contains(got, "loop ") || strings.Contains(got, "model ") {
		t.Errorf("a turn loop around a translation table:\n%s", got)
	}
}

// TestContinuationNoTurn: a loop that re-issues one model request while the provider says the
// response is suspended (merging the segments) runs no tools: the reply's tool-call parts are
// only narrowed to a kind looked up by name in a map built from the tool definitions
// (kinds.get(part.tool_name), the kind handed on as data), and the tool names are only asked
// about by a predicate (declared(name)). Neither is a dispatch: no turn loop, no tool calls.
func TestContinuationNoTurn(t *testing.T) {
	py := `class Part:
    def __init__(self, tool_name, kind=None):
        self.tool_name = tool_name
        self.kind = kind


def narrow(part, kind=None):
    return Part(part.tool_name, kind)


def narrow_parts(response, params):
    kinds = {td.name: td.kind for td in params.function_tools if td.kind}
    if not kinds:
        return response
    parts = []
    for part in response.parts:
        if (kind := kinds.get(part.tool_name)) is not None:
            parts.append(narrow(part, kind=kind))
        else:
            parts.append(part)
    return response.replace(parts=parts)


def declare(params, names):
    def declared(name):
        return names is None or name in names

    if any(declared(tool.name) for tool in params.output_tools):
        return params
    fresh = [tool for tool in params.output_tools if declared(tool.name)]
    return params.replace(fresh=fresh)


async def model_request(model, messages, params):
    response = None
    while True:
        if response is None:
            sent = messages
        elif response.state == "suspended":
            sent = [*messages, response]
        else:
            return response
        params = declare(params, None)
        new_response = await model.request(sent, params)
        new_response = narrow_parts(new_response, params)
        if response is None:
            response = new_response
        else:
            response = response.merge(new_response)
`
	got := recognizeSrc(t, "cont.py", py)
	if strings.Contains(got, "loop ") || strings.Contains(got, "tool ") {
		t.Errorf("a continuation loop read as a turn loop:\n%s", got)
	}
	ts := `function narrow(part, kind) {
  return { ...part, kind };
}

function narrowParts(response, params) {
  const kinds = new Map(params.functionTools.map((td) => [td.name, td.kind]));
  if (kinds.size === 0) {
    return response;
  }
  const parts = [];
  for (const part of response.parts) {
    const kind = kinds.get(part.toolName);
    if (kind !== undefined) {
      parts.push(narrow(part, kind));
    } else {
      parts.push(part);
    }
  }
  return { ...response, parts };
}

function declare(params, names) {
  const declared = (name) => names === undefined || names.includes(name) === true;
  if (params.outputTools.some((tool) => declared(tool.name))) {
    return params;
  }
  const fresh = [];
  for (const tool of params.outputTools) {
    if (declared(tool.name)) {
      fresh.push(tool);
    }
  }
  return { ...params, fresh };
}

export async function modelRequest(model, messages, params) {
  let response = undefined;
  while (true) {
    let sent;
    if (response === undefined) {
      sent = messages;
    } else if (response.state === "suspended") {
      sent = [...messages, response];
    } else {
      return response;
    }
    params = declare(params, undefined);
    let reply = await model.request(sent, params);
    reply = narrowParts(reply, params);
    response = response === undefined ? reply : response.merge(reply);
  }
}
`
	got = recognizeSrc(t, "cont.js", ts)
	if strings.Contains(got, "loop ") || strings.Contains(got, "tool ") {
		t.Errorf("a continuation loop read as a turn loop:\n%s", got)
	}
}

// TestWrapperDelegationNoRecursion: a wrapper model that hands each call on to the model it
// wraps under the method's own name (return self.wrapped.respond(...)) calls the next link of
// a chain of wrappers (ir.Call.Descends), not itself again: the wrapper's method is no turn
// recursion around the wrapped model's decision, whatever subclass the field may hold.
func TestWrapperDelegationNoRecursion(t *testing.T) {
	py := `class Model:
    def __init__(self, client):
        self.client = client

    def respond(self, messages, tools):
        reply = self.client.create(messages=messages, tools=tools)
        if not reply.tool_calls:
            return reply
        for call in reply.tool_calls:
            messages.append(tools[call.name](call.args))
        return reply


class Wrapper(Model):
    def __init__(self, wrapped: Model):
        self.wrapped = wrapped

    def respond(self, messages, tools):
        return self.wrapped.respond(messages, tools)
`
	ts := `export class Model {
  constructor(client) {
    this.client = client;
  }

  respond(messages, tools) {
    const reply = this.client.create({ messages, tools });
    if (reply.toolCalls.length === 0) {
      return reply;
    }
    for (const call of reply.toolCalls) {
      messages.push(tools[call.name](call.args));
    }
    return reply;
  }
}

export class Wrapper extends Model {
  constructor(wrapped) {
    super(null);
    this.wrapped = wrapped;
  }

  respond(messages, tools) {
    return this.wrapped.respond(messages, tools);
  }
}
`
	for _, tt := range []struct{ name, src string }{{"wrap.py", py}, {"wrap.js", ts}} {
		got := recognizeSrc(t, tt.name, tt.src)
		if strings.Contains(got, "loop recursion") {
			t.Errorf("%s: a wrapper's delegation read as a turn recursion:\n%s", tt.name, got)
		}
	}
}
