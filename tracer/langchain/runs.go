// Package langchain reads LangChain/LangGraph traces in three shapes:
//
//   - run trees (RunsName): BaseTracer persistRun roots with nested child_runs, LangSmith API run
//     exports, and the createRun/updateRun payloads (or post/patch batches) a LangChainTracer
//     sends to LangSmith — all are run records, merged by id (later fields win);
//   - streamEvents / astream_events v2 JSON Lines (EventsName): on_<type>_start/_end/_error
//     events, which carry no timestamps and, in JS, no parent ids.
//
// Mapping (docs/formats.md): a root run (a graph invocation) is a Run with one inferred Turn;
// thread_id (or session_id / conversation_id) metadata is the Session; every llm/chat-model run is
// a model call that opens a Step, and the tool runs that follow it (matched by tool_call_id, else
// by order) are that Step's tool calls — in a LangGraph ReAct agent this is the agent-node
// superstep plus the tools-node superstep after it.
package langchain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// run is one LangChain run (span) after merging every record that named its id.
type run struct {
	id, name, runType, parentID, traceID, dotted string
	start, end                                   time.Time
	hasEnd                                       bool
	status                                       string
	errText                                      string
	hasErr                                       bool
	meta                                         map[string]any
	toolCallID                                   string
	toolStatusError                              bool
	toolCalls                                    []string
	usage                                        *usageInfo
	modelName                                    string
	interrupt                                    bool
	// input and output are the payloads of an llm or tool run (inputs, outputs as JSON text).
	input, output string
	// stepLimit: the run's outputs end with the prebuilt agent's recursion-limit answer.
	stepLimit bool
	// endInferred: the stream ended right after an error event under this open root, which is
	// read as the root failing with that error (the exception left astream_events/streamEvents).
	endInferred          bool
	line                 int
	startOrder, endOrder int
	parent               *run
	children             []*run
	parentInferred       bool
	created              bool
	// index is the run's place in store.order.
	index int
}

type usageInfo struct {
	in, out, cached int64
}

// rawRun is a run record as LangSmith, LangChainTracer and BaseTracer write it.
type rawRun struct {
	ID          string          `json:"id"`
	Name        *string         `json:"name"`
	RunType     *string         `json:"run_type"`
	ParentRunID *string         `json:"parent_run_id"`
	TraceID     *string         `json:"trace_id"`
	DottedOrder *string         `json:"dotted_order"`
	StartTime   json.RawMessage `json:"start_time"`
	EndTime     json.RawMessage `json:"end_time"`
	Status      *string         `json:"status"`
	Error       json.RawMessage `json:"error"`
	Extra       *struct {
		Metadata         map[string]any `json:"metadata"`
		ToolCallID       string         `json:"tool_call_id"`
		InvocationParams map[string]any `json:"invocation_params"`
	} `json:"extra"`
	Inputs           json.RawMessage `json:"inputs"`
	Outputs          json.RawMessage `json:"outputs"`
	ChildRuns        []rawRun        `json:"child_runs"`
	PromptTokens     *int64          `json:"prompt_tokens"`
	CompletionTokens *int64          `json:"completion_tokens"`
}

// parseTime reads the time encodings met in practice: ISO 8601 with or without a zone (UTC
// assumed), with 'T' or a space, and epoch numbers or numeric strings in s, ms, µs or ns.
func parseTime(raw json.RawMessage) (time.Time, error) {
	t, err := parseTimeAny(raw)
	if err == nil && !t.IsZero() && (t.Year() < 1971 || t.Year() > 9999) {
		return time.Time{}, fmt.Errorf("time %s is out of range (before 1971 or after 9999)", raw)
	}
	return t, err
}

func parseTimeAny(raw json.RawMessage) (time.Time, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return time.Time{}, err
		}
		return parseTimeString(s)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %s: expected an ISO string or an epoch number", raw)
	}
	return epoch(f, string(raw)), nil
}

func parseTimeString(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return epoch(f, s), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q: expected ISO 8601 or an epoch number", s)
}

// epoch reads an epoch number by magnitude: ns (≥1e17), µs (≥1e14), ms (≥1e11), else seconds.
func epoch(f float64, s string) time.Time {
	switch {
	case f >= 1e17:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(0, n).UTC()
		}
		return time.Unix(0, int64(f)).UTC()
	case f >= 1e14:
		return time.UnixMicro(int64(f)).UTC()
	case f >= 1e11:
		return time.UnixMilli(int64(f)).UTC()
	case f > 0:
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
	}
	return time.Time{}
}

// errText reads an error field: a string, or an object with a message.
func errText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	var o struct {
		Message string `json:"message"`
		Name    string `json:"name"`
	}
	if json.Unmarshal(raw, &o) == nil && (o.Message != "" || o.Name != "") {
		return strings.TrimPrefix(o.Name+": "+o.Message, ": "), true
	}
	return string(raw), true
}

// store collects runs by id, merging create/update records.
type store struct {
	byID  map[string]*run
	order []*run
	// errs are record problems (line, error) found while merging.
	errs []lineErr
}

type lineErr struct {
	line int
	err  error
}

func newStore() *store { return &store{byID: map[string]*run{}} }

func (s *store) errorf(line int, format string, args ...any) {
	s.errs = append(s.errs, lineErr{line, fmt.Errorf(format, args...)})
}

func (s *store) get(id string, line int) *run {
	r := s.byID[id]
	if r == nil {
		r = &run{id: id, line: line, startOrder: -1, endOrder: -1, index: len(s.order)}
		s.byID[id] = r
		s.order = append(s.order, r)
	}
	return r
}

// merge folds one run record (and its nested child_runs) into the store. create says whether the
// record creates the run (a second create of the same id is a duplicate); order numbers the
// record among all records of the input.
func (s *store) merge(rr *rawRun, line int, create bool, order *int, parentID string) {
	if rr.ID == "" {
		s.errorf(line, "run record without id: expected an \"id\"")
		return
	}
	r := s.get(rr.ID, line)
	if create {
		if r.created {
			s.errorf(line, "duplicate run id %s (created twice); records merged", rr.ID)
		}
		r.created = true
	}
	*order++
	if r.startOrder < 0 {
		r.startOrder = *order
	}
	if rr.Name != nil && *rr.Name != "" {
		r.name = *rr.Name
	}
	if rr.RunType != nil && *rr.RunType != "" {
		r.runType = strings.ToLower(*rr.RunType)
	}
	if rr.ParentRunID != nil && *rr.ParentRunID != "" {
		r.parentID = *rr.ParentRunID
	} else if parentID != "" && r.parentID == "" {
		r.parentID = parentID
	}
	if rr.TraceID != nil {
		r.traceID = *rr.TraceID
	}
	if rr.DottedOrder != nil {
		r.dotted = *rr.DottedOrder
	}
	if t, err := parseTime(rr.StartTime); err != nil {
		s.errorf(line, "run %s: start_time: %v", rr.ID, err)
	} else if !t.IsZero() {
		r.start = t
	}
	if t, err := parseTime(rr.EndTime); err != nil {
		s.errorf(line, "run %s: end_time: %v", rr.ID, err)
	} else if !t.IsZero() {
		r.end, r.hasEnd = t, true
	}
	if rr.Status != nil && *rr.Status != "" {
		r.status = strings.ToLower(*rr.Status)
		if r.status == "success" || r.status == "error" {
			r.hasEnd = true
		}
	}
	if msg, ok := errText(rr.Error); ok {
		r.errText, r.hasErr = msg, true
	}
	if rr.Extra != nil {
		if rr.Extra.Metadata != nil {
			if r.meta == nil {
				r.meta = map[string]any{}
			}
			for k, v := range rr.Extra.Metadata {
				r.meta[k] = v
			}
		}
		if rr.Extra.ToolCallID != "" {
			r.toolCallID = rr.Extra.ToolCallID
		}
		if m, ok := rr.Extra.InvocationParams["model"].(string); ok && r.modelName == "" {
			r.modelName = m
		}
	}
	r.scanInputs(rr.Inputs)
	if len(rr.Outputs) > 0 && string(rr.Outputs) != "null" {
		r.scanOutputs(rr.Outputs)
	}
	if rr.PromptTokens != nil || rr.CompletionTokens != nil {
		u := &usageInfo{}
		if rr.PromptTokens != nil {
			u.in = *rr.PromptTokens
		}
		if rr.CompletionTokens != nil {
			u.out = *rr.CompletionTokens
		}
		if r.usage == nil {
			r.usage = u
		}
	}
	for i := range rr.ChildRuns {
		s.merge(&rr.ChildRuns[i], line, true, order, rr.ID)
	}
	*order++
	if r.hasEnd || r.hasErr {
		r.endOrder = *order
	}
}

// subMs is how far a run's end may lie before its start and still be the same instant: the
// LangSmith JS client writes start_time with microsecond digits that are an execution-order
// counter ("…19.395009Z" is the 9th run of the trace in ms .395) and end_time as epoch
// milliseconds, so a run that ends in the millisecond it started has end < start by the counter.
const subMs = time.Millisecond

// clampEnd makes a run that ended within subMs before its start end at its start: one run,
// not an end event sorted before its start (which reads as two calls). A larger gap is a bad
// clock and is kept for the checks to report.
func clampEnd(r *run) {
	if r.hasEnd && !r.start.IsZero() && !r.end.IsZero() && r.end.Before(r.start) && r.start.Sub(r.end) < subMs {
		r.end = r.start
	}
}

// payloadRun says whether the payloads of a run of this type are kept: model and tool calls
// (a chain's inputs and outputs repeat its children's).
func payloadRun(runType string) bool {
	return runType == "llm" || runType == "chat_model" || runType == "tool"
}

// scanInputs keeps the inputs of an llm or tool run as its payload (model.AttrInput, AttrArgs).
func (r *run) scanInputs(raw json.RawMessage) {
	if payloadRun(r.runType) && len(raw) > 0 && string(raw) != "null" && string(raw) != "{}" {
		r.input = model.CutText(string(raw), model.PayloadKeepMax)
	}
}

// scanOutputs reads what the mapping needs from a run's outputs: the tool calls an llm run
// requested and its usage, a tool run's tool_call_id and ToolMessage status, a graph's
// __interrupt__.
func (r *run) scanOutputs(raw json.RawMessage) {
	if payloadRun(r.runType) && len(raw) > 0 && string(raw) != "null" {
		r.output = model.CutText(string(raw), model.PayloadKeepMax)
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	if m, ok := v.(map[string]any); ok {
		if _, ok := m["__interrupt__"]; ok {
			r.interrupt = true
		}
		if msgs, ok := m["messages"].([]any); ok && len(msgs) > 0 && r.runType != "llm" && r.runType != "tool" {
			last, _ := msgs[len(msgs)-1].(map[string]any)
			content, _ := last["content"].(string)
			if kw, ok := last["kwargs"].(map[string]any); ok && content == "" {
				content, _ = kw["content"].(string)
			}
			r.stepLimit = content == stepLimitAnswer
		}
	}
	switch r.runType {
	case "llm", "chat_model":
		seen := map[string]bool{}
		for _, id := range r.toolCalls {
			seen[id] = true
		}
		walk(v, func(k string, val any) {
			switch k {
			case "tool_calls":
				arr, _ := val.([]any)
				for _, c := range arr {
					if cm, ok := c.(map[string]any); ok {
						if id, ok := cm["id"].(string); ok && id != "" && !seen[id] {
							seen[id] = true
							r.toolCalls = append(r.toolCalls, id)
						}
					}
				}
			case "usage_metadata":
				if um, ok := val.(map[string]any); ok && r.usage == nil {
					u := &usageInfo{in: num(um["input_tokens"]), out: num(um["output_tokens"])}
					if d, ok := um["input_token_details"].(map[string]any); ok {
						u.cached = num(d["cache_read"])
					}
					r.usage = u
				}
			case "tokenUsage", "token_usage":
				if um, ok := val.(map[string]any); ok && r.usage == nil {
					in := num(um["promptTokens"]) + num(um["prompt_tokens"])
					out := num(um["completionTokens"]) + num(um["completion_tokens"])
					if in+out > 0 {
						r.usage = &usageInfo{in: in, out: out}
					}
				}
			case "model_name":
				if s, ok := val.(string); ok && r.modelName == "" {
					r.modelName = s
				}
			}
		})
	case "tool":
		walk(v, func(k string, val any) {
			switch k {
			case "tool_call_id":
				if s, ok := val.(string); ok && s != "" && r.toolCallID == "" {
					r.toolCallID = s
				}
			case "status":
				if s, ok := val.(string); ok && s == "error" {
					r.toolStatusError = true
				}
			}
		})
	}
}

// walk calls fn for every key of every object in v, depth first.
func walk(v any, fn func(k string, val any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			fn(k, val)
			walk(val, fn)
		}
	case []any:
		for _, val := range x {
			walk(val, fn)
		}
	}
}

func num(v any) int64 {
	switch x := v.(type) {
	case float64:
		return int64(x)
	case json.Number:
		n, _ := x.Int64()
		return n
	}
	return 0
}

// link resolves parents (parent_run_id, else dotted_order), cutting cycles and keeping dangling
// subtrees as roots. It returns the roots in start order.
func (s *store) link() []*run {
	for _, r := range s.order {
		clampEnd(r)
		if r.parentID == "" && r.dotted != "" {
			segs := strings.Split(r.dotted, ".")
			if len(segs) >= 2 {
				if p := segs[len(segs)-2]; len(p) >= 36 {
					r.parentID, r.parentInferred = p[len(p)-36:], true
				}
			}
		}
		if r.traceID == "" && r.dotted != "" && len(r.dotted) >= 36 {
			seg := strings.SplitN(r.dotted, ".", 2)[0]
			if len(seg) >= 36 {
				r.traceID = seg[len(seg)-36:]
			}
		}
	}
	// Links are made in record order; the one that would close a cycle is cut (CutCycles finds
	// them in one pass instead of walking every run's ancestors).
	cut := ingest.CutCycles(len(s.order), func(i int) int {
		r := s.order[i]
		if r.parentID == "" || r.parentID == r.id {
			return -1
		}
		if p := s.byID[r.parentID]; p != nil {
			return p.index
		}
		return -1
	})
	var roots []*run
	for _, r := range s.order {
		if r.parentID == "" || r.parentID == r.id {
			if r.parentID == r.id {
				s.errorf(r.line, "run %s names itself as parent; treated as a root", r.id)
			}
			roots = append(roots, r)
			continue
		}
		p := s.byID[r.parentID]
		if p == nil && r.traceID != "" && r.traceID != r.id && s.byID[r.traceID] != nil && s.byID[r.traceID].parentID == "" {
			// the parent is a run the tracer never recorded (langchain create_agent runs a
			// tool under an untraced wrapper run): the run belongs to its trace's root
			p, r.parentInferred = s.byID[r.traceID], true
			r.parentID = p.id
		}
		if p == nil {
			s.errorf(r.line, "run %s (%s): parent run %s is not in the log (dangling parent); its subtree is kept as its own run", r.id, r.name, r.parentID)
			r.parentInferred = true
			roots = append(roots, r)
			continue
		}
		if cut[r.index] {
			s.errorf(r.line, "run %s: parent %s makes a cycle; the link is cut and the run kept as a root", r.id, r.parentID)
			roots = append(roots, r)
			continue
		}
		r.parent = p
		p.children = append(p.children, r)
	}
	sortRuns(roots)
	return adoptToolRoots(roots)
}

// adoptToolRoots nests a root tool run inside the graph invocation it ran in: langchain's
// create_agent runs a tool under a wrapper run no callback sees, so a BaseTracer persists the tool
// as a root of its own trace. A root tool run whose thread_id is that of a non-tool root and
// whose interval lies within that root's is a call of that invocation (Inferred parent).
func adoptToolRoots(roots []*run) []*run {
	byThread := map[string][]*run{}
	for _, r := range roots {
		if t, _ := r.meta["thread_id"].(string); t != "" && !isTool(r) && !isLLM(r) && !r.start.IsZero() {
			byThread[t] = append(byThread[t], r) // in start order (roots are sorted)
		}
	}
	if len(byThread) == 0 {
		return roots
	}
	out := roots[:0]
	for _, r := range roots {
		t, _ := r.meta["thread_id"].(string)
		gs := byThread[t]
		if !isTool(r) || t == "" || r.start.IsZero() || len(gs) == 0 {
			out = append(out, r)
			continue
		}
		i := sort.Search(len(gs), func(i int) bool { return gs[i].start.After(r.start) }) - 1
		if i < 0 || ended(gs[i]) && ended(r) && r.end.After(gs[i].end) {
			out = append(out, r)
			continue
		}
		g := gs[i]
		r.parent, r.parentID, r.parentInferred = g, g.id, true
		g.children = append(g.children, r)
		sortRuns(g.children)
	}
	return out
}

// before orders runs by start time when both have one, else by record order.
func before(a, b *run) bool {
	if !a.start.IsZero() && !b.start.IsZero() && !a.start.Equal(b.start) {
		return a.start.Before(b.start)
	}
	return a.startOrder < b.startOrder
}

func sortRuns(rs []*run) {
	sort.SliceStable(rs, func(i, j int) bool { return before(rs[i], rs[j]) })
}

// describe turns a JSON error into what was expected.
func describe(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %q: expected %s, got JSON %s: %w", te.Field, te.Type, te.Value, err)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("malformed JSON at byte %d: %w", se.Offset, err)
	}
	return fmt.Errorf("not a run record: %w", err)
}
