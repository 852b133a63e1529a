package langchain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// RunsName is the --input-format name of LangChain run records.
const RunsName = "langsmith-runs"

// RunsDescription says which producers write run records.
const RunsDescription = "LangChain/LangGraph run trees (child_runs), LangSmith runs and createRun/updateRun or post/patch payloads"

// EventsName is the --input-format name of streamEvents v2 JSON Lines.
const EventsName = "langchain-events"

// EventsDescription says which producer writes streamEvents JSON Lines.
const EventsDescription = "LangChain/LangGraph streamEvents / astream_events v2 (JSON Lines)"

var (
	reRunType   = regexp.MustCompile(`"run_type"\s*:\s*"`)
	reRunHint   = regexp.MustCompile(`"(dotted_order|trace_id|parent_run_id|child_runs|execution_order)"\s*:|"op"\s*:\s*"(createRun|updateRun)"|"(post|patch)"\s*:\s*\[`)
	reEventName = regexp.MustCompile(`"event"\s*:\s*"on_[a-z_]+"`)
	reRunID     = regexp.MustCompile(`"run_id"\s*:\s*"`)
)

// DetectRuns scores how much head looks like LangChain run records: a JSON object or array
// whose first record has "run_type" and one of dotted_order, trace_id, parent_run_id, child_runs,
// or is a createRun/updateRun payload or a post/patch batch. The first line may be longer than
// head (a run tree on one line), so keys are matched in the prefix.
func DetectRuns(head []byte) int {
	line := ingest.FirstLine(head)
	if len(line) == 0 || line[0] != '{' && line[0] != '[' {
		return 0
	}
	if bytes.Contains(line, []byte(`"resourceSpans"`)) || reEventName.Match(line) {
		return 0
	}
	if reRunType.Match(head) && reRunHint.Match(head) {
		return 90
	}
	return 0
}

// DetectEvents scores how much head looks like streamEvents: the first line is an object with
// "event": "on_…" and a "run_id".
func DetectEvents(head []byte) int {
	line := ingest.FirstLine(head)
	if len(line) == 0 || line[0] != '{' {
		return 0
	}
	if reEventName.Match(line) && reRunID.Match(line) {
		return 90
	}
	return 0
}

// payload is one line of a payload log: a createRun/updateRun call, a batch, or an API list.
type payload struct {
	Op    string   `json:"op"`
	RunID string   `json:"run_id"`
	Run   *rawRun  `json:"run"`
	Post  []rawRun `json:"post"`
	Patch []rawRun `json:"patch"`
	Runs  []rawRun `json:"runs"`
}

// DecodeRuns reads run records — run-tree arrays (one per line or one pretty-printed document),
// single runs, createRun/updateRun payloads and post/patch batches — merges them by id and emits
// one Run per root run. Problems are reported with file:line; the rest is read.
func DecodeRuns(r io.Reader, em *ingest.Emitter) error {
	s := newStore()
	order := 0
	var doc []byte
	docLine := 0
	err := ingest.EachLine(r, em, RunsName, func(line []byte, n int) error {
		if doc != nil {
			doc = append(append(doc, line...), '\n')
			return nil
		}
		t := bytes.TrimSpace(line)
		if n == 1 && (t[0] == '[' || t[0] == '{') && !json.Valid(t) && !bytes.HasSuffix(t, []byte("}")) && !bytes.HasSuffix(t, []byte("]")) {
			// a pretty-printed document: read it whole
			doc, docLine = append(append([]byte{}, line...), '\n'), n
			return nil
		}
		return decodeRunLine(s, t, n, &order)
	})
	if doc != nil {
		if e := decodeRunLine(s, bytes.TrimSpace(doc), docLine, &order); e != nil {
			em.Error(docLine, fmt.Errorf("%s: line %d: %w", RunsName, docLine, e))
		}
	}
	roots := s.link()
	for _, le := range s.errs {
		em.Error(le.line, fmt.Errorf("%s: line %d: %w", RunsName, le.line, le.err))
	}
	b := &builder{em: em, st: em.Shared(), format: RunsName}
	b.emitRoots(roots)
	return err
}

// MaxDepth is how deeply a run record may nest (in JSON levels: a child_runs level takes two,
// the array and the run object). Deeper child_runs arrays are emptied before decoding, so the
// runs above them are kept; encoding/json itself stops at 10000 levels and keeps nothing.
const MaxDepth = 5000

func decodeRunLine(s *store, t []byte, n int, order *int) error {
	if pruned, dropped := pruneDeep(t, MaxDepth); dropped > 0 {
		s.errorf(n, "run tree exceeded max depth %d (JSON levels, about %d nested child_runs): %d array(s) below that depth emptied, the runs in them dropped; the runs above are kept", MaxDepth, MaxDepth/2, dropped)
		t = pruned
	}
	if t[0] == '[' {
		var arr []json.RawMessage
		if err := json.Unmarshal(t, &arr); err != nil {
			return describe(err)
		}
		for i, el := range arr {
			if err := decodeRunObject(s, el, n, order); err != nil {
				s.errorf(n, "element %d: %v", i, err)
			}
		}
		return nil
	}
	if t[0] != '{' {
		return fmt.Errorf("not a JSON object or array: expected a run record")
	}
	return decodeRunObject(s, t, n, order)
}

func decodeRunObject(s *store, raw []byte, n int, order *int) error {
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		return describe(err)
	}
	switch {
	case p.Op != "":
		if p.Run == nil {
			return fmt.Errorf("%s without \"run\"", p.Op)
		}
		if p.Run.ID == "" {
			p.Run.ID = p.RunID
		}
		s.merge(p.Run, n, strings.EqualFold(p.Op, "createRun"), order, "")
		return nil
	case p.Post != nil || p.Patch != nil:
		for i := range p.Post {
			s.merge(&p.Post[i], n, true, order, "")
		}
		for i := range p.Patch {
			s.merge(&p.Patch[i], n, false, order, "")
		}
		return nil
	case p.Runs != nil:
		for i := range p.Runs {
			s.merge(&p.Runs[i], n, true, order, "")
		}
		return nil
	}
	var rr rawRun
	if err := json.Unmarshal(raw, &rr); err != nil {
		return describe(err)
	}
	if rr.ID == "" {
		return fmt.Errorf("object without \"id\": expected a run record, a createRun/updateRun payload or a post/patch batch")
	}
	// A plain record of a run already seen that carries its end is the update: the bodies the
	// Python langsmith Client sends without batching are POST /runs (start) then PATCH
	// /runs/<id> (the whole run again, with end_time), one per line.
	update := s.byID[rr.ID] != nil && s.byID[rr.ID].created && !s.byID[rr.ID].hasEnd && isSet(rr.EndTime)
	s.merge(&rr, n, !update, order, "")
	return nil
}

// streamEvent is one streamEvents v2 record.
func isSet(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}

type streamEvent struct {
	Event     string         `json:"event"`
	Name      string         `json:"name"`
	RunID     string         `json:"run_id"`
	ParentIDs *[]string      `json:"parent_ids"`
	Metadata  map[string]any `json:"metadata"`
	Data      struct {
		Input      json.RawMessage `json:"input"`
		Output     json.RawMessage `json:"output"`
		Error      json.RawMessage `json:"error"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"data"`
}

// DecodeEvents reads streamEvents v2 JSON Lines. The events have no timestamps (order is kept and
// the runs are marked Inferred "ts") and, in JS, no parent ids (a run's parent is taken to be the
// innermost open chain when it starts).
func DecodeEvents(r io.Reader, em *ingest.Emitter) error {
	s := newStore()
	var open []*run
	// lastErr is the run of the last event when that event was an _error: if the stream ends
	// there with the root still open, the error left the stream and ended the root.
	var lastErr *run
	err := ingest.EachLine(r, em, EventsName, func(line []byte, n int) error {
		var ev streamEvent
		if err := json.Unmarshal(line, &ev); err != nil {
			return describe(err)
		}
		if !strings.HasPrefix(ev.Event, "on_") {
			return fmt.Errorf("event %q: expected on_<type>_<phase>", ev.Event)
		}
		if ev.Event == "on_custom_event" {
			return nil
		}
		lastErr = nil
		i := strings.LastIndexByte(ev.Event, '_')
		if i <= 3 {
			return fmt.Errorf("event %q: expected on_<type>_<phase>", ev.Event)
		}
		typ, phase := ev.Event[3:i], ev.Event[i+1:]
		if ev.RunID == "" {
			return fmt.Errorf("%s without run_id", ev.Event)
		}
		switch phase {
		case "stream":
			// a graph's stream chunk {"__interrupt__": […]} (Python astream_events) says the
			// invocation stopped at interrupt(); no other stream event matters here
			if r := s.byID[ev.RunID]; r != nil && bytes.Contains(line, []byte(`"__interrupt__"`)) {
				var chunk struct {
					Data struct {
						Chunk map[string]json.RawMessage `json:"chunk"`
					} `json:"data"`
				}
				if json.Unmarshal(line, &chunk) == nil && chunk.Data.Chunk["__interrupt__"] != nil {
					r.interrupt = true
				}
			}
		case "start":
			r := s.get(ev.RunID, n)
			if r.startOrder >= 0 {
				return fmt.Errorf("duplicate %s for run %s; ignored", ev.Event, ev.RunID)
			}
			r.startOrder, r.name, r.meta = 2*n, ev.Name, ev.Metadata
			r.runType = typ
			if typ == "chat_model" {
				r.runType = "llm"
			}
			r.scanInputs(ev.Data.Input)
			if ev.ParentIDs != nil && len(*ev.ParentIDs) > 0 {
				r.parentID = (*ev.ParentIDs)[len(*ev.ParentIDs)-1]
				if known := s.byID[r.parentID]; (known == nil || known.startOrder < 0) && innermost(open) != nil {
					// a parent never started in the stream (langchain create_agent runs a tool
					// under an untraced wrapper run): the innermost open chain holds it
					r.parentID, r.parentInferred = innermost(open).id, true
				}
			} else if ev.ParentIDs != nil {
				// Python astream_events sends parent_ids on every event: [] is a root, even while
				// a run of an earlier invocation (an interrupted tools node) never ended
			} else if p := innermost(open); p != nil {
				r.parentID, r.parentInferred = p.id, true
			}
			open = append(open, r)
		case "end", "error":
			r := s.byID[ev.RunID]
			if r == nil || r.startOrder < 0 {
				r = s.get(ev.RunID, n)
				r.name, r.meta, r.startOrder = ev.Name, ev.Metadata, 2*n
				r.runType = typ
				if typ == "chat_model" {
					r.runType = "llm"
				}
				s.errorf(n, "%s for run %s, which never started; kept", ev.Event, ev.RunID)
			}
			if r.endOrder >= 0 {
				return fmt.Errorf("run %s ended twice; ignored", ev.RunID)
			}
			r.endOrder = 2*n + 1
			if phase == "error" || len(ev.Data.Error) > 0 && string(ev.Data.Error) != "null" {
				if msg, ok := errText(ev.Data.Error); ok {
					r.errText = msg
				}
				r.hasErr = true
				lastErr = r
			} else {
				r.hasEnd = true
			}
			if ev.Data.ToolCallID != "" {
				r.toolCallID = ev.Data.ToolCallID
			}
			if r.input == "" {
				r.scanInputs(ev.Data.Input) // the end event repeats the input
			}
			if len(ev.Data.Output) > 0 {
				r.scanOutputs(ev.Data.Output)
			}
			open = closeRun(s, open, r)
		}
		return nil
	})
	roots := s.link()
	if lastErr != nil && !reInterrupt.MatchString(lastErr.errText) {
		root := lastErr
		for root.parent != nil {
			root = root.parent
		}
		if root != lastErr && !ended(root) {
			root.errText, root.hasErr, root.endInferred = lastErr.errText, true, true
		}
	}
	for _, le := range s.errs {
		em.Error(le.line, fmt.Errorf("%s: line %d: %w", EventsName, le.line, le.err))
	}
	b := &builder{em: em, st: em.Shared(), timeless: true, format: EventsName}
	b.emitRoots(roots)
	return err
}

// closeRun takes r, which ended, off the open runs, with the runs under it that never ended: a
// node of an invocation that stopped at interrupt() (the JS tools chain gets no end event) ended
// with it, so a later invocation's root does not start inside it.
func closeRun(s *store, open []*run, r *run) []*run {
	i := len(open) - 1
	for i >= 0 && open[i] != r {
		i--
	}
	if i < 0 {
		return open
	}
	kept := open[:i]
	for _, o := range open[i+1:] {
		if !under(s, o, r) {
			kept = append(kept, o)
		}
	}
	return kept
}

// under says whether r is a descendant of anc by the parent ids known so far (bounded by the
// number of runs, so a parent cycle cannot loop).
func under(s *store, r, anc *run) bool {
	for n := 0; r != nil && r.parentID != "" && n <= len(s.order); n++ {
		if r.parentID == anc.id {
			return true
		}
		r = s.byID[r.parentID]
	}
	return false
}

// innermost returns the most recently started open run that may have children (a chain; a
// tool or model run only when nothing else is open).
func innermost(open []*run) *run {
	for i := len(open) - 1; i >= 0; i-- {
		if !isLLM(open[i]) && !isTool(open[i]) {
			return open[i]
		}
	}
	if len(open) > 0 {
		return open[len(open)-1]
	}
	return nil
}

// pruneDeep returns b with every array that opens at a nesting depth ≥ limit and holds objects
// or arrays replaced by [], and how many it replaced; b itself when nothing nests that deep.
// Objects are never emptied (a child_runs tree alternates arrays and objects, so emptying its
// arrays bounds it); a value nested deeper still is left to the JSON decoder to reject. Linear
// in len(b).
func pruneDeep(b []byte, limit int) ([]byte, int) {
	depth, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = skipString(b, i)
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	if deepest <= limit {
		return b, 0
	}
	out := make([]byte, 0, len(b))
	depth, dropped := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			j := skipString(b, i)
			out = append(out, b[i:min(j+1, len(b))]...)
			i = j
			continue
		case '{', '[':
			depth++
			if c == '[' && depth >= limit {
				if end, nested := closing(b, i); nested {
					out = append(out, '[', ']')
					dropped++
					depth--
					i = end
					continue
				}
			}
		case '}', ']':
			depth--
		}
		out = append(out, b[i])
	}
	return out, dropped
}

// skipString returns the index of the quote that closes the string opening at b[i] (len(b) when
// it is not closed).
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(b)
}

// closing returns the index of the bracket closing the container opening at b[i] (the last
// index when it is not closed) and whether the container holds another container.
func closing(b []byte, i int) (end int, nested bool) {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = skipString(b, i)
		case '{', '[':
			depth++
			nested = nested || depth > 1
		case '}', ']':
			depth--
			if depth == 0 {
				return i, nested
			}
		}
	}
	return len(b) - 1, nested
}
