// Package pi reads the two log formats of Pi (badlogic/pi-mono):
//
//   - pi-agent-core event streams (EventsName): every agent.subscribe() event, one per line, as
//     `pi --mode json` prints them (optionally after a session header). The events carry no ids
//     and no timestamps (only the embedded messages have a timestamp) and report errors only as
//     stopReason/isError fields.
//   - pi-coding-agent session files (SessionName): a header, then entries forming an id/parentId
//     tree; /tree branching appends children to earlier entries, so the file holds every branch.
//
// Mapping (docs/formats.md): agent_start…agent_end is a Run; a Pi "turn" (turn_start…turn_end:
// one assistant message plus its tool results) is our Step; our Turn is inferred: it ends at a
// stop boundary (an assistant message that requests no tools), and a queued follow-up after
// that boundary starts a new Turn of the same Run, while a user message injected after a
// tool-use step is a steer consumed by the next Step. In a session file every user prompt starts a
// Run; runs off the active path (leaf → root) are marked as abandoned branches.
package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// piUsage is an assistant message's usage.
type piUsage struct {
	Input       int64 `json:"input"`
	Output      int64 `json:"output"`
	CacheRead   int64 `json:"cacheRead"`
	CacheWrite  int64 `json:"cacheWrite"`
	TotalTokens int64 `json:"totalTokens"`
	Cost        *struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

// piBlock is one content block of a message.
type piBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// piMessage is an AgentMessage (user, assistant, toolResult and the coding agent's extensions).
type piMessage struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	Provider     string          `json:"provider"`
	Model        string          `json:"model"`
	API          string          `json:"api"`
	Usage        *piUsage        `json:"usage"`
	StopReason   string          `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
	Timestamp    json.RawMessage `json:"timestamp"`
	ToolCallID   string          `json:"toolCallId"`
	ToolName     string          `json:"toolName"`
	IsError      *bool           `json:"isError"`
	// bashExecution
	Command  string `json:"command"`
	ExitCode *int   `json:"exitCode"`
}

func (m *piMessage) blocks() []piBlock {
	var bs []piBlock
	if json.Unmarshal(m.Content, &bs) == nil {
		return bs
	}
	return nil
}

// text joins the text blocks (or returns a plain string content).
func (m *piMessage) text() string { return contentText(m.Content) }

func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []piBlock
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// openCalls are the tool calls of a step still waiting for their result: by Pi id, and in order
// those whose toolCall block (or tool_execution_start) had no id, which the results without id
// close in the same order.
type openCalls struct {
	ids  map[string]string // pi toolCallId → canonical call id
	anon []string          // canonical ids of the calls without a pi id, oldest first
}

func (o *openCalls) add(piID, id string) {
	if piID == "" {
		o.anon = append(o.anon, id)
		return
	}
	if o.ids == nil {
		o.ids = map[string]string{}
	}
	o.ids[piID] = id
}

// take returns and forgets the open call a result for piID closes.
func (o *openCalls) take(piID string) (string, bool) {
	if piID == "" {
		if len(o.anon) == 0 {
			return "", false
		}
		id := o.anon[0]
		o.anon = o.anon[1:]
		return id, true
	}
	id, ok := o.ids[piID]
	delete(o.ids, piID)
	return id, ok
}

// dropLast forgets the call added last for piID.
func (o *openCalls) dropLast(piID string) {
	if piID == "" {
		o.anon = o.anon[:len(o.anon)-1]
		return
	}
	delete(o.ids, piID)
}

func (o *openCalls) len() int { return len(o.ids) + len(o.anon) }

// callID is the canonical id of the k-th (1-based) tool call of step: the Pi id when it has one,
// else one made from the step and k, and then inferred ("ids") is true.
func callID(st *ingest.Shared, step, piID string, k int) (id string, inferred bool) {
	if piID != "" {
		return st.Unique("tool", piID), false
	}
	return st.Unique("tool", fmt.Sprintf("%s/tool-%d", step, k)), true
}

// toolCalls lists the toolCall blocks of an assistant message.
func (m *piMessage) toolCalls() []piBlock {
	var out []piBlock
	for _, b := range m.blocks() {
		if b.Type == "toolCall" {
			out = append(out, b)
		}
	}
	return out
}

func (m *piMessage) usage() *model.Usage {
	if m.Usage == nil {
		return nil
	}
	u := &model.Usage{InputTokens: m.Usage.Input + m.Usage.CacheRead + m.Usage.CacheWrite, OutputTokens: m.Usage.Output, CachedTokens: m.Usage.CacheRead}
	if m.Usage.Cost != nil {
		u.CostUSD = m.Usage.Cost.Total
	}
	return u
}

// msTime reads a Unix-ms message timestamp (a number, or an ISO string in old files).
func msTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		if f <= 0 {
			return time.Time{}
		}
		return sane(time.UnixMilli(int64(f)).UTC())
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return isoTime(s)
	}
	return time.Time{}
}

func isoTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return sane(t.UTC())
		}
	}
	return time.Time{}
}

// sane drops times that cannot be real or written as RFC 3339 (before 1971 or after 9999).
func sane(t time.Time) time.Time {
	if t.Year() < 1971 || t.Year() > 9999 {
		return time.Time{}
	}
	return t
}

// stopOf maps an assistant stopReason onto a model-call outcome and error.
func stopOf(m *piMessage) (model.Outcome, *model.ErrorInfo) {
	switch m.StopReason {
	case "error":
		msg := m.ErrorMessage
		if msg == "" {
			msg = "model error"
		}
		return model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: msg}
	case "aborted":
		msg := m.ErrorMessage
		if msg == "" {
			msg = "aborted"
		}
		return model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: msg}
	}
	return model.OutcomeOK, nil
}

// runEndOf maps the last assistant stopReason of a run onto its terminal status and stop reason.
// inferred is set when the status is not given by the log (no assistant message, or a run that
// ended right after a tool-use message).
func runEndOf(last *piMessage) (st model.RunStatus, sr model.StopReason, err *model.ErrorInfo, inferred bool) {
	if last == nil {
		return model.StatusFailed, model.StopError, &model.ErrorInfo{Kind: "error", Message: "the run ended without an assistant message"}, true
	}
	switch last.StopReason {
	case "stop":
		return model.StatusCompleted, model.StopGoalReached, nil, false
	case "length":
		return model.StatusFailed, "other:max_tokens", &model.ErrorInfo{Kind: "model", Message: "the model hit its output token limit"}, false
	case "error":
		_, e := stopOf(last)
		return model.StatusFailed, model.StopModelError, e, false
	case "aborted":
		_, e := stopOf(last)
		return model.StatusCancelled, model.StopCancelled, e, false
	}
	return model.StatusFailed, model.StopError, &model.ErrorInfo{Kind: "error", Message: fmt.Sprintf("the run ended after an assistant message with stopReason %q", last.StopReason)}, true
}

// describe turns a JSON error into what was expected.
func describe(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %q: expected %s, got JSON %s: %w", te.Field, te.Type, te.Value, err)
	}
	return fmt.Errorf("not a JSON object: %w", err)
}

func firstLines(head []byte, n int) [][]byte {
	var out [][]byte
	for len(head) > 0 && len(out) < n {
		i := bytes.IndexByte(head, '\n')
		var line []byte
		if i < 0 {
			line, head = head, nil
		} else {
			line, head = head[:i], head[i+1:]
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

// header is a pi session header line.
type header struct {
	Type          string          `json:"type"`
	Version       *int            `json:"version"`
	ID            string          `json:"id"`
	Timestamp     json.RawMessage `json:"timestamp"`
	Cwd           string          `json:"cwd"`
	ParentSession string          `json:"parentSession"`
	CreatedAt     json.RawMessage `json:"createdAt"`
}

// isHeader reports whether a line is a pi session header (not a DeepSeek one: no createdAt).
func isHeader(line []byte) (*header, bool) {
	var h header
	if json.Unmarshal(line, &h) != nil || h.Type != "session" || h.CreatedAt != nil {
		return nil, false
	}
	var ts string
	if json.Unmarshal(h.Timestamp, &ts) != nil || isoTime(ts).IsZero() {
		return nil, false
	}
	if h.Version != nil && (*h.Version < 1 || *h.Version > 3) {
		return nil, false
	}
	return &h, true
}

var eventTypes = map[string]bool{"agent_start": true, "agent_end": true, "turn_start": true, "turn_end": true,
	"message_start": true, "message_update": true, "message_end": true, "tool_execution_start": true,
	"tool_execution_update": true, "tool_execution_end": true}

func lineType(line []byte) string {
	var p struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &p) != nil {
		// a line longer than the head: read the type from its prefix
		if bytes.HasPrefix(line, []byte(`{"type":"`)) {
			rest := line[len(`{"type":"`):]
			if i := bytes.IndexByte(rest, '"'); i > 0 {
				return string(rest[:i])
			}
		}
		return ""
	}
	return p.Type
}

// abortedTool reports whether a tool result is the result of a tool cancelled by an abort: it is
// an error whose text says it was aborted (pi's tools answer "Command aborted", "Operation
// aborted"; an AbortError says "…aborted…") and the run's next model call, if there is one,
// ended aborted (nextStop is its stopReason, "" when the run has none after it). A tool that
// failed on its own, followed by an aborted model call, stays failed.
func abortedTool(isErr bool, text, nextStop string) bool {
	return isErr && strings.Contains(strings.ToLower(text), "abort") && (nextStop == "aborted" || nextStop == "")
}

// abortedResults is the set of tool result entries of a run's chain that abortedTool calls
// cancelled.
func abortedResults(entries []*entry) map[*entry]bool {
	var out map[*entry]bool
	next := "" // stopReason of the next assistant message in the chain
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Type != "message" || e.Message == nil {
			continue
		}
		switch m := e.Message; m.Role {
		case "assistant":
			next = m.StopReason
		case "toolResult":
			if abortedTool(m.IsError != nil && *m.IsError, m.text(), next) {
				if out == nil {
					out = map[*entry]bool{}
				}
				out[e] = true
			}
		}
	}
	return out
}
