// Package lgastream reads the output of LangGraph's Python graph.stream/astream written as JSON
// lines: the chunks of one stream mode ("updates", "values", "messages", "debug"), or the
// (mode, chunk) pairs several modes yield, or (namespace, mode, chunk) triples with subgraphs.
// docs/formats.md says how each mode maps onto the lifecycle model and what is inferred.
package lgastream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "langgraph-astream"

// Description says which producer writes the format.
const Description = `LangGraph Python graph.stream/astream output as JSON lines (stream modes "updates", "values", "messages", "debug", or [mode, chunk] pairs)`

// Expect says what a record of the format looks like.
const Expect = `LangGraph astream chunks, {"agent":{"messages":[…]}} (updates), {"messages":[…]} (values), {"type":"task","step":…,"payload":{…}} (debug), [message, metadata] (messages) or ["updates", chunk] pairs, one per line`

// StepLimitAnswer is what LangGraph's prebuilt ReAct agent answers instead of the model's tool
// calls when the recursion limit is about to be hit (its remaining_steps guard).
const StepLimitAnswer = "Sorry, need more steps to process this request."

var (
	modes       = map[string]bool{"updates": true, "values": true, "messages": true, "debug": true, "custom": true, "tasks": true, "checkpoints": true}
	debugTypes  = map[string]bool{"checkpoint": true, "task": true, "task_result": true}
	reRecursion = regexp.MustCompile(`(?i)recursion limit|GraphRecursionError`)
	reCancel    = regexp.MustCompile(`(?i)CancelledError|\babort|cancelled|canceled`)
)

// Detect scores how much head looks like astream output: a first line that is a debug event, a
// [mode, chunk] pair, a [message, metadata] pair, a values state with a list of messages, or an
// updates chunk whose values are node updates holding messages (or __interrupt__).
func Detect(head []byte) int {
	line := ingest.FirstLine(head)
	if len(line) < 2 || !json.Valid(line) {
		return 0
	}
	if c, ok := classify(line, false); ok && c.mode != "" {
		return 80
	}
	return 0
}

// chunk is one line read: its mode and the chunk (namespace kept only to skip subgraph chunks).
type chunk struct {
	mode string
	data json.RawMessage
	sub  bool
}

// classify finds a line's mode.
func classify(line []byte, lenient bool) (chunk, bool) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return chunk{}, false
	}
	if t[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(t, &arr) != nil {
			return chunk{}, false
		}
		var mode string
		switch {
		case len(arr) == 2 && json.Unmarshal(arr[0], &mode) == nil && modes[mode]:
			return chunk{mode: mode, data: arr[1]}, true
		case len(arr) == 3 && len(bytes.TrimSpace(arr[0])) > 0 && bytes.TrimSpace(arr[0])[0] == '[' && json.Unmarshal(arr[1], &mode) == nil && modes[mode]:
			var ns []any
			_ = json.Unmarshal(arr[0], &ns)
			return chunk{mode: mode, data: arr[2], sub: len(ns) > 0}, true
		case len(arr) == 2 && len(bytes.TrimSpace(arr[0])) > 0 && bytes.TrimSpace(arr[0])[0] == '[' && len(bytes.TrimSpace(arr[1])) > 0 && bytes.TrimSpace(arr[1])[0] == '{':
			// (namespace, chunk): one mode with subgraphs=True
			var ns []string
			if json.Unmarshal(arr[0], &ns) != nil {
				return chunk{}, false
			}
			c, ok := classify(arr[1], true)
			if ok {
				c.sub = c.sub || len(ns) > 0
			}
			return c, ok
		case len(arr) == 2:
			var msg struct {
				Type string `json:"type"`
			}
			var meta map[string]json.RawMessage
			if json.Unmarshal(arr[0], &msg) == nil && msg.Type != "" && json.Unmarshal(arr[1], &meta) == nil && meta["langgraph_node"] != nil {
				return chunk{mode: "messages", data: t}, true
			}
		}
		return chunk{}, false
	}
	if t[0] != '{' {
		return chunk{}, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(t, &obj) != nil {
		return chunk{}, false
	}
	var typ string
	if obj["payload"] != nil && json.Unmarshal(obj["type"], &typ) == nil && debugTypes[typ] {
		return chunk{mode: "debug", data: t}, true
	}
	if ns := bytes.TrimSpace(obj["ns"]); obj["data"] != nil && len(ns) > 0 && ns[0] == '[' && json.Unmarshal(obj["type"], &typ) == nil && modes[typ] {
		// a typed stream part (astream(…, version="v2")): {"type": mode, "ns": […], "data": chunk}
		var n []any
		_ = json.Unmarshal(ns, &n)
		return chunk{mode: typ, data: obj["data"], sub: len(n) > 0}, true
	}
	if m := bytes.TrimSpace(obj["messages"]); len(m) > 0 && m[0] == '[' {
		return chunk{mode: "values", data: t}, true
	}
	if obj["__interrupt__"] != nil {
		return chunk{mode: "updates", data: t}, true
	}
	nodes := 0
	for _, v := range obj {
		v = bytes.TrimSpace(v)
		switch {
		case len(v) > 0 && (v[0] == '{' || v[0] == '[') && bytes.Contains(v, []byte(`"messages"`)):
			return chunk{mode: "updates", data: t}, true
		case len(v) > 0 && (v[0] == '{' || v[0] == '[' || string(v) == "null"):
			nodes++
		}
	}
	if lenient && nodes == len(obj) && nodes > 0 {
		// a node update without messages ({"node": null}): after the first line, an updates
		// chunk is any object of node updates
		return chunk{mode: "updates", data: t}, true
	}
	return chunk{}, false
}

// msg is what the mapping needs of one LangChain message (model_dump() or dumpd() form).
type msg struct {
	Type       string `json:"type"`
	ID         string `json:"id"`
	Name       string `json:"name"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	Status     string `json:"status"`
	ToolCalls  []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"tool_calls"`
	Usage *struct {
		In  int64 `json:"input_tokens"`
		Out int64 `json:"output_tokens"`
	} `json:"usage_metadata"`
	Extra struct {
		// LCSource names the middleware that wrote the message (langchain's
		// HumanInTheLoopMiddleware writes "hitl_interrupt_decision" on the ToolMessage that
		// answers a rejected call): such a ToolMessage is not a tool execution
		LCSource string `json:"lc_source"`
	} `json:"additional_kwargs"`
}

// norm returns the message with a dumpd() envelope ({"lc":1,"type":"constructor","id":[…,
// "AIMessage"],"kwargs":{…}}) unwrapped and the type short ("ai", "tool", "human").
func norm(raw json.RawMessage) (msg, bool) {
	var env struct {
		Type   string          `json:"type"`
		ID     json.RawMessage `json:"id"`
		Kwargs json.RawMessage `json:"kwargs"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return msg{}, false
	}
	var m msg
	if env.Type == "constructor" && len(env.Kwargs) > 0 {
		// dumpd(): {"lc":1,"type":"constructor","id":[…,"AIMessage"],"kwargs":{…}}
		var path []string
		_ = json.Unmarshal(env.ID, &path)
		if json.Unmarshal(env.Kwargs, &m) != nil {
			return m, false
		}
		if len(path) > 0 {
			m.Type = path[len(path)-1]
		}
	} else if json.Unmarshal(raw, &m) != nil {
		return m, false
	}
	switch strings.TrimSuffix(m.Type, "Chunk") {
	case "ai", "AIMessage":
		m.Type = "ai"
	case "tool", "ToolMessage":
		m.Type = "tool"
	case "human", "HumanMessage":
		m.Type = "human"
	}
	return m, m.Type != ""
}

func (m msg) text() string {
	if s, ok := m.Content.(string); ok {
		return s
	}
	return ""
}

// kind is the kind of one fact read from the stream.
type kind uint8

const (
	fInput     kind = iota // a new input (a human message, a checkpoint with source "input")
	fResume                // the invocation restarts from a checkpoint already seen (a resume)
	fModel                 // a model call (a new AI message)
	fRewrite               // a node rewrote a model message already seen (middleware)
	fToolStart             // a tool call started (debug task with a tool call)
	fTool                  // a tool result (ToolMessage)
	fInterrupt             // the graph stopped at interrupt() or a static breakpoint
	fError                 // a node raised
	fNext                  // a checkpoint saying which nodes run next (debug)
	fTaskStart             // a node's task started (debug), its input naming no tool call
	fTaskEnd               // a node's task ended (debug task_result)
	fNode                  // a node's update that holds no message (updates)
)

type fact struct {
	k          kind
	line       int
	ts         time.Time
	id, name   string
	calls      []string // requested tool call ids (model)
	callNames  []string
	text       string
	failed     bool
	synthetic  bool // a ToolMessage written by a node that also rewrote the model's message
	breakpoint bool
	err        string
	usage      *model.Usage
	next       int // fNext: how many nodes run next
	node       string
	task       string // fTaskStart/fTaskEnd: the task id
	// more are the tool calls an interrupted task turned out to run (fInterrupt: its re-run in
	// the resume returned their ToolMessages), as id, name pairs
	more [][2]string
}

// reader turns chunks into facts, one list per mode.
type reader struct {
	facts  map[string][]*fact
	seen   map[string]map[string]string // mode → message id → a digest of the message
	ckpts  map[string]bool
	thread string
	values int // values chunks read
	models map[string]*fact
	tasks  map[string]*fact // debug task id → its tool start
	// paused maps a task id to the interrupt it stopped at
	paused map[string]*fact
}

func (r *reader) add(mode string, f *fact) { r.facts[mode] = append(r.facts[mode], f) }

// messages adds the facts of a list of messages a node wrote (updates, debug task results) or a
// state holds (values). Messages already seen are skipped; one seen before with other content is
// a rewrite, and tool messages next to a rewrite were written by that node, not by a tool.
func (r *reader) messages(mode string, raws []json.RawMessage, line int, ts time.Time, node string, state bool) bool {
	seen := r.seen[mode]
	if seen == nil {
		seen = map[string]string{}
		r.seen[mode] = seen
	}
	var out []*fact
	rewrite, fresh := false, false
	for _, raw := range raws {
		m, ok := norm(raw)
		if !ok {
			continue
		}
		digest := string(raw)
		if m.ID != "" {
			if old, ok := seen[m.ID]; ok {
				// a node's update that writes a model message again (middleware editing or
				// answering the model's calls) rewrites it; a state holds every message again,
				// so there only a changed one is
				if m.Type == "ai" && (!state || old != digest) {
					rewrite = true
					out = append(out, &fact{k: fRewrite, line: line, ts: ts, id: m.ID, node: node})
				}
				seen[m.ID] = digest
				continue
			}
			seen[m.ID] = digest
		}
		fresh = true
		switch m.Type {
		case "human":
			out = append(out, &fact{k: fInput, line: line, ts: ts})
		case "ai":
			f := &fact{k: fModel, line: line, ts: ts, id: m.ID, text: m.text(), node: node}
			for _, c := range m.ToolCalls {
				f.calls, f.callNames = append(f.calls, c.ID), append(f.callNames, c.Name)
			}
			if m.Usage != nil {
				f.usage = &model.Usage{InputTokens: m.Usage.In, OutputTokens: m.Usage.Out}
			}
			out = append(out, f)
		case "tool":
			out = append(out, &fact{k: fTool, line: line, ts: ts, id: m.ToolCallID, name: m.Name, failed: m.Status == "error", node: node, synthetic: m.Extra.LCSource != ""})
		}
	}
	for _, f := range out {
		if f.k == fTool && rewrite {
			f.synthetic = true
		}
		r.add(mode, f)
	}
	return fresh || rewrite
}

func rawList(v json.RawMessage) []json.RawMessage {
	var l []json.RawMessage
	_ = json.Unmarshal(v, &l)
	return l
}

func (r *reader) updates(data json.RawMessage, line int) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("updates chunk: expected {node: update}: %w", err)
	}
	// node order as written: json maps lose it, so walk the keys in the text
	for _, k := range keysInOrder(data) {
		v := obj[k]
		if k == "__interrupt__" {
			r.add("updates", &fact{k: fInterrupt, line: line, breakpoint: len(rawList(v)) == 0})
			continue
		}
		ups := []json.RawMessage{v}
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' {
			ups = rawList(v)
		}
		for _, u := range ups {
			var up struct {
				Messages json.RawMessage `json:"messages"`
			}
			if json.Unmarshal(u, &up) != nil || len(up.Messages) == 0 {
				r.add("updates", &fact{k: fNode, line: line, node: k}) // the node ran, no message
				continue
			}
			ms := rawList(up.Messages)
			if len(ms) == 0 && bytes.TrimSpace(up.Messages)[0] == '{' {
				ms = []json.RawMessage{up.Messages}
			}
			r.messages("updates", ms, line, time.Time{}, k, false)
		}
	}
	return nil
}

// keysInOrder returns the top-level keys of a JSON object in the order they are written.
func keysInOrder(data json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

func (r *reader) valuesChunk(data json.RawMessage, line int) error {
	var st struct {
		Messages  []json.RawMessage `json:"messages"`
		Interrupt json.RawMessage   `json:"__interrupt__"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("values chunk: expected {\"messages\": […]}: %w", err)
	}
	r.values++
	fresh := r.messages("values", st.Messages, line, time.Time{}, "", true)
	if len(rawList(st.Interrupt)) > 0 {
		// interrupt() inside a node: LangGraph yields the state with the interrupts at the pause
		// (a static breakpoint yields none in this mode)
		r.add("values", &fact{k: fInterrupt, line: line})
		return nil
	}
	if !fresh && r.values > 1 {
		// the state again with nothing new: an invocation starting from the thread's state
		// (a resume), or the state re-emitted at a pause
		r.add("values", &fact{k: fResume, line: line})
	}
	return nil
}

func (r *reader) messagesChunk(data json.RawMessage, line int) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(data, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("messages chunk: expected [message, metadata]")
	}
	var meta struct {
		Thread string `json:"thread_id"`
		Node   string `json:"langgraph_node"`
	}
	_ = json.Unmarshal(pair[1], &meta)
	if r.thread == "" {
		r.thread = meta.Thread
	}
	m, ok := norm(pair[0])
	if !ok {
		return nil
	}
	if m.Type == "ai" && m.ID != "" && r.models[m.ID] != nil {
		// a later chunk of a streamed message: its tool calls and usage complete the call
		f := r.models[m.ID]
		for _, c := range m.ToolCalls {
			if c.ID != "" {
				f.calls, f.callNames = append(f.calls, c.ID), append(f.callNames, c.Name)
			}
		}
		f.text += m.text()
		if m.Usage != nil {
			f.usage = &model.Usage{InputTokens: m.Usage.In, OutputTokens: m.Usage.Out}
		}
		return nil
	}
	n := len(r.facts["messages"])
	r.messages("messages", []json.RawMessage{pair[0]}, line, time.Time{}, meta.Node, false)
	if m.Type == "ai" && len(r.facts["messages"]) > n {
		r.models[m.ID] = r.facts["messages"][n]
	}
	return nil
}

type debugEvent struct {
	Type      string          `json:"type"`
	Step      int             `json:"step"`
	Timestamp string          `json:"timestamp"`
	Payload   json.RawMessage `json:"payload"`
}

func (r *reader) debug(data json.RawMessage, line int) error {
	var ev debugEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("debug event: %w", err)
	}
	ts, _ := time.Parse(time.RFC3339Nano, ev.Timestamp)
	return r.task(ev.Type, ev.Payload, line, ts)
}

// typed reads a "tasks" or "checkpoints" chunk: the payload of a debug task/task_result or
// checkpoint event without its envelope (and without a timestamp).
func (r *reader) typed(mode string, data json.RawMessage, line int) error {
	typ := "checkpoint"
	if mode == "tasks" {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(data, &keys); err != nil {
			return fmt.Errorf("tasks chunk: %w", err)
		}
		typ = "task"
		if _, ok := keys["result"]; ok {
			typ = "task_result"
		} else if _, ok := keys["interrupts"]; ok {
			typ = "task_result"
		}
	}
	return r.task(typ, data, line, time.Time{})
}

// task reads a debug payload of type typ (checkpoint, task, task_result).
func (r *reader) task(typ string, payload json.RawMessage, line int, ts time.Time) error {
	ev := debugEvent{Type: typ, Payload: payload}
	switch ev.Type {
	case "checkpoint":
		var p struct {
			Config struct {
				Configurable struct {
					Thread string `json:"thread_id"`
					ID     string `json:"checkpoint_id"`
				} `json:"configurable"`
			} `json:"config"`
			Metadata struct {
				Source string `json:"source"`
			} `json:"metadata"`
			Next []string `json:"next"`
		}
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			return fmt.Errorf("debug checkpoint: %w", err)
		}
		if r.thread == "" {
			r.thread = p.Config.Configurable.Thread
		}
		id := p.Config.Configurable.ID
		switch {
		case p.Metadata.Source == "input":
			r.add("debug", &fact{k: fInput, line: line, ts: ts})
		case id != "" && r.ckpts[id]:
			r.add("debug", &fact{k: fResume, line: line, ts: ts})
		}
		if id != "" {
			r.ckpts[id] = true
		}
		r.add("debug", &fact{k: fNext, line: line, ts: ts, next: len(p.Next)})
	case "task":
		var p struct {
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			return fmt.Errorf("debug task: %w", err)
		}
		// a task of one tool call (ToolNode under Send): {"__type": "tool_call_with_context",
		// "tool_call": {…}}; other inputs (a state, a list) name no call
		var in struct {
			ToolCall *struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"tool_call"`
		}
		if t := bytes.TrimSpace(p.Input); len(t) > 0 && t[0] == '{' && json.Unmarshal(t, &in) == nil && in.ToolCall != nil && in.ToolCall.ID != "" {
			f := &fact{k: fToolStart, line: line, ts: ts, id: in.ToolCall.ID, name: in.ToolCall.Name, node: p.Name}
			r.tasks[p.ID] = f
			r.add("debug", f)
		} else {
			r.add("debug", &fact{k: fTaskStart, line: line, ts: ts, node: p.Name, task: p.ID})
		}
	case "task_result":
		var p struct {
			ID         string            `json:"id"`
			Name       string            `json:"name"`
			Error      *string           `json:"error"`
			Interrupts []json.RawMessage `json:"interrupts"`
			Result     struct {
				Messages json.RawMessage `json:"messages"`
			} `json:"result"`
		}
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			return fmt.Errorf("debug task_result: %w", err)
		}
		n0 := len(r.facts["debug"])
		if ms := rawList(p.Result.Messages); len(ms) > 0 {
			r.messages("debug", ms, line, ts, p.Name, false)
		}
		if in := r.paused[p.ID]; in != nil {
			// the task that stopped at interrupt() ran again on resume: the tool calls whose
			// ToolMessages it returned were running when it paused (interrupt() in a tool)
			for _, f := range r.facts["debug"][n0:] {
				if f.k == fTool && !f.synthetic {
					in.more = append(in.more, [2]string{f.id, f.name})
				}
			}
			delete(r.paused, p.ID)
		}
		start := r.tasks[p.ID]
		switch {
		case p.Error != nil && *p.Error != "":
			f := &fact{k: fError, line: line, ts: ts, err: *p.Error, node: p.Name}
			if start != nil {
				f.id, f.name = start.id, start.name
			}
			r.add("debug", f)
		case len(p.Interrupts) > 0:
			f := &fact{k: fInterrupt, line: line, ts: ts, node: p.Name}
			if start != nil {
				f.id, f.name = start.id, start.name // interrupt() inside the tool: it ran
			}
			r.paused[p.ID] = f
			r.add("debug", f)
		}
		r.add("debug", &fact{k: fTaskEnd, line: line, ts: ts, node: p.Name, task: p.ID})
	}
	return nil
}

// Decode reads astream output and emits canonical events. Each bad line is reported with its
// number and reading goes on.
func Decode(r io.Reader, em *ingest.Emitter) error {
	rd := &reader{facts: map[string][]*fact{}, seen: map[string]map[string]string{}, ckpts: map[string]bool{}, models: map[string]*fact{}, tasks: map[string]*fact{}, paused: map[string]*fact{}}
	first := 0
	err := ingest.EachLine(r, em, Name, func(line []byte, n int) error {
		c, ok := classify(line, first != 0)
		if !ok {
			var v any
			if err := json.Unmarshal(line, &v); err != nil {
				return err // the line reader reports a torn last line as such
			}
			return fmt.Errorf("expected an astream chunk of mode updates, values, messages or debug (or a [mode, chunk] pair)")
		}
		if first == 0 {
			first = n
		}
		if c.sub {
			return nil // a subgraph's own chunk: its node's update in the parent says what it did
		}
		switch c.mode {
		case "updates":
			return rd.updates(c.data, n)
		case "values":
			return rd.valuesChunk(c.data, n)
		case "messages":
			return rd.messagesChunk(c.data, n)
		case "debug":
			return rd.debug(c.data, n)
		case "tasks", "checkpoints":
			return rd.typed(c.mode, c.data, n)
		}
		return nil
	})
	mode := ""
	for _, m := range []string{"debug", "updates", "values", "messages"} {
		if len(rd.facts[m]) > 0 {
			mode = m
			break
		}
	}
	if mode == "" {
		return err
	}
	timeless := true
	for _, f := range rd.facts[mode] {
		if !f.ts.IsZero() {
			timeless = false
			break
		}
	}
	b := &builder{em: em, st: em.Shared(), mode: mode, timeless: timeless}
	b.session = rd.thread
	b.sessionInferred = false
	if b.session == "" {
		b.session, b.sessionInferred = "langgraph:"+filepath.Base(em.File), true
	}
	b.build(rd.facts[mode], first)
	return err
}
