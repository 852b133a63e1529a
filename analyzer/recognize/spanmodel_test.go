package recognize_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestProducerSites checks shape spanmodel (issue 10, classes A and B): an agents-SDK-style
// runner whose model is an interface with one implementation per provider API, each sending
// its request inside a closure handed to a span helper (span.WithSpan(ctx, …, func(ctx) error
// { resp, err = m.client.Responses.New(…) })) that the tool runner uses too, the response
// handed to a consumer (processModelResponse) that sorts it into the tool calls to run.
//
//   - The model call site is the producer whose result the consumer reads: the call of the
//     helper that returns it (via the interface method, called in a closure of that helper);
//     not the consumer, not one implementation's SDK call, and the span helper running the
//     tool runner's body elsewhere does not make the helper a tool executor.
//   - The streamed run gets its response through the callback it hands to
//     Model.StreamResponse (final = ev.Done): that call is the producer.
//   - Hooks are told of the tool chosen by name (OnToolStart(ctx, agent, tool) error, or
//     handing back a context for OnToolEnd), or of the call's name and arguments (a func
//     field returning nothing), and are not tool calls; neither is the span told of an
//     unknown tool in the branch of a switch on the item's kind around the lookup.
func TestProducerSites(t *testing.T) {
	res := recognizeShapes(t)
	at := func(p model.Position) string { return fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line) }
	tests := []struct {
		entry, loop, model, via, tool string
	}{
		{"agentrt.Runner.Run", "runner.go:91", "runner.go:96", "agentrt.Model.GetResponse", "tools.go:134"},
		{"agentrt.Runner.RunStreamed", "stream.go:22", "stream.go:24", "agentrt.Model.StreamResponse", "tools.go:134"},
		{"hookrun.Runner.Run", "hookrun.go:104", "hookrun.go:105", "llm.ResponseService.New", "hookrun.go:140"},
		// the request and each tool run in the same span helper; the parser takes the context
		{"chatloop.Agent.Chat", "chatloop.go:41", "chatloop.go:42", "llm.ChatCompletionService.New", "chatloop.go:69"},
	}
	for _, tc := range tests {
		t.Run(tc.entry, func(t *testing.T) {
			e := entry(res, tc.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if at(l.Pos) != tc.loop {
				t.Errorf("loop at %s, want %s", at(l.Pos), tc.loop)
			}
			var models []string
			for _, m := range l.ModelCalls {
				models = append(models, at(m.Pos))
			}
			if len(l.ModelCalls) != 1 || models[0] != tc.model ||
				!slices.Contains(append([]string{l.ModelCalls[0].Callee}, l.ModelCalls[0].Via...), tc.via) {
				t.Errorf("model calls %v (%+v), want %s via %s", models, l.ModelCalls, tc.model, tc.via)
			}
			var tools []string
			for _, c := range l.ToolCalls {
				tools = append(tools, at(c.Pos)+" "+c.Callee)
			}
			if len(l.ToolCalls) != 1 || at(l.ToolCalls[0].Pos) != tc.tool {
				t.Errorf("tool calls %v, want only %s", tools, tc.tool)
			}
		})
	}
}

// TestMintedIDsInGo checks where the runs of shape spanmodel/idrun get their ids (issue 10,
// class C): a counter field of the supervisor formatted in place (fmt.Sprintf("run-%06d",
// s.seq.Add(1))), random bits of math/rand formatted by a helper whose caller stores them into
// TraceID, a sub-agent's number taken from a field the supervisor increments under its lock
// (s.spawns++; n := s.spawns; … strconv.Itoa(n)), and the parent's id copied into the child
// run; and, in agentrt, a uuid run id, the parent's id read back from the context and a trace
// id minted when there is no parent.
func TestMintedIDsInGo(t *testing.T) {
	res := recognizeShapes(t)
	tests := map[string][]string{
		"idrun.Supervisor.Start": {
			"minted idrun.go:41 → ID", "minted idrun.go:46 → TraceID", "minted idrun.go:55 → ID", "parent idrun.go:56 ParentID",
		},
		"agentrt.Runner.Run": {
			"minted runner.go:65 → RunID", "parent runner.go:67 ParentRunID", "minted runner.go:70 → TraceID",
			"minted span.go:38 → SpanID", "parent span.go:41 ParentID",
		},
	}
	for name, want := range tests {
		e := entry(res, name)
		if e == nil {
			t.Errorf("%s: no entry", name)
			continue
		}
		var got []string
		for _, s := range e.IDs {
			what := s.What
			if i := strings.Index(what, " → "); i >= 0 {
				what = what[i+1:]
			} else if i := strings.Index(what, ":"); i >= 0 {
				what = what[:i]
			}
			got = append(got, fmt.Sprintf("%s %s:%d %s", s.Kind, filepath.Base(s.Pos.File), s.Pos.Line, what))
		}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s ids\n got %q\nwant %q", name, got, want)
		}
	}
}
