// Package json renders a lifecycle tree as lifeline's canonical JSON document:
//
//	{"summary":{"sessions":…,"runs":…,"turns":…,"steps":…,"model_calls":…,"tool_calls":…,"failed_tool_calls":…},
//	 "runs":[{"id":…,"session_id":…,"status":…,"stop_reason":…,…}],
//	 "timeless":false,
//	 "sessions":[…the canonical tree…],
//	 "notes":[…],
//	 "findings":[…]}
//
// summary holds exactly the integer counts of model.Summary; runs lists every run with its
// canonical status and stop reason, usage and counts; sessions is the tree with the same field
// names as model.Tree's JSON encoding (decoding it into model.Tree gives the tree back). The
// encoder is hand-written and streams one session per line through a buffer, without
// reflection on the hot path, so that gigabyte-sized traces render quickly.
package json

import (
	"bufio"
	stdjson "encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/jsonw"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options control the JSON rendering.
type Options struct {
	// Findings are the invariant findings written under "findings".
	Findings []model.Finding
	// Code, when set, is the join of the tree with a lifecycle map (model/join), written under
	// "code" by its WriteJSON method if it has one, else with encoding/json.
	Code any
}

type enc struct {
	w   *bufio.Writer
	buf []byte
	err error
	// last is the last byte written out by flush.
	last byte
	// tsSec, tsLoc: the second and location of the last time written; tsHead holds its date and
	// time of day, tsZone its offset, reused while times fall in the same second.
	tsSec          int64
	tsLoc          *time.Location
	tsHead, tsZone []byte
}

// lastByte is the last byte of the document so far.
func (e *enc) lastByte() byte {
	if n := len(e.buf); n > 0 {
		return e.buf[n-1]
	}
	return e.last
}

// flush writes the buffer out once it is large.
func (e *enc) flush(force bool) {
	if e.err != nil {
		e.buf = e.buf[:0]
		return
	}
	if e.w == nil { // a chunk encoder: its buffer is written out by the main one
		return
	}
	if len(e.buf) >= 32<<10 || force {
		if len(e.buf) > 0 {
			e.last = e.buf[len(e.buf)-1]
		}
		_, e.err = e.w.Write(e.buf)
		e.buf = e.buf[:0]
	}
}

// Render writes the canonical JSON document of t to w.
func Render(w io.Writer, t *model.Tree, opts Options) error {
	if t == nil {
		t = &model.Tree{}
	}
	e := &enc{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 64<<10)}
	s := t.Summarize()
	e.raw(`{"summary":{"sessions":`)
	e.int(int64(s.Sessions))
	e.raw(`,"runs":`)
	e.int(int64(s.Runs))
	e.raw(`,"turns":`)
	e.int(int64(s.Turns))
	e.raw(`,"steps":`)
	e.int(int64(s.Steps))
	e.raw(`,"model_calls":`)
	e.int(int64(s.ModelCalls))
	e.raw(`,"tool_calls":`)
	e.int(int64(s.ToolCalls))
	e.raw(`,"failed_tool_calls":`)
	e.int(int64(s.FailedToolCalls))
	e.raw("},\n\"runs\":[")
	first := true
	for _, se := range t.Sessions {
		for _, r := range se.Runs {
			if !first {
				e.raw(",")
			}
			first = false
			e.raw("\n")
			e.runSummary(r)
			e.flush(false)
		}
	}
	e.raw("],\n\"timeless\":")
	e.bool(t.Timeless)
	e.raw(",\n\"sessions\":[")
	e.sessions(t.Sessions)
	e.raw("],\n\"notes\":[")
	for i, n := range t.Notes {
		if i > 0 {
			e.raw(",")
		}
		e.str(n)
	}
	e.raw("],\n\"findings\":[")
	for i := range opts.Findings {
		if i > 0 {
			e.raw(",")
		}
		e.raw("\n")
		e.finding(&opts.Findings[i])
	}
	e.raw("]")
	if opts.Code != nil {
		e.raw(",\n\"code\":")
		if sw, ok := opts.Code.(interface{ WriteJSON(io.Writer) error }); ok {
			// Streamed: a join of many runs is not held as one more document in memory.
			e.flush(true)
			if e.err == nil {
				e.err = sw.WriteJSON(e.w)
			}
			if e.err != nil {
				return fmt.Errorf("render json: code: %w", e.err)
			}
		} else {
			b, err := stdjson.Marshal(opts.Code)
			if err != nil {
				return fmt.Errorf("render json: code: %w", err)
			}
			e.buf = append(e.buf, b...)
		}
	}
	e.raw("}\n")
	e.flush(true)
	if e.err == nil {
		e.err = e.w.Flush()
	}
	if e.err != nil {
		return fmt.Errorf("render json: %w", e.err)
	}
	return nil
}

func (e *enc) raw(s string) { e.buf = append(e.buf, s...) }

func (e *enc) int(n int64) { e.buf = strconv.AppendInt(e.buf, n, 10) }

func (e *enc) bool(b bool) { e.buf = strconv.AppendBool(e.buf, b) }

// key writes ,"name": (without the comma right after { or [).
func (e *enc) key(name string) {
	if c := e.lastByte(); c != '{' && c != '[' {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':')
}

func (e *enc) strField(name, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	e.key(name)
	e.str(v)
}

func (e *enc) intField(name string, v int64, omitEmpty bool) {
	if omitEmpty && v == 0 {
		return
	}
	e.key(name)
	e.int(v)
}

func (e *enc) timeField(name string, t time.Time) {
	if t.IsZero() {
		return
	}
	e.key(name)
	e.time(t)
}

func (e *enc) time(t time.Time) {
	if y := t.Year(); y < 0 || y >= 10000 {
		e.str("") // encoding/json refuses such times; keep the document valid
		return
	}
	// t.AppendFormat(buf, time.RFC3339Nano), with the part up to the second kept from the last
	// time when it falls in the same second
	if sec, loc := t.Unix(), t.Location(); sec != e.tsSec || loc != e.tsLoc || e.tsHead == nil {
		whole := t.Add(-time.Duration(t.Nanosecond())).AppendFormat(e.tsHead[:0], "2006-01-02T15:04:05Z07:00")
		e.tsHead, e.tsZone = whole[:len("2006-01-02T15:04:05")], whole[len("2006-01-02T15:04:05"):]
		e.tsSec, e.tsLoc = sec, loc
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, e.tsHead...)
	if ns := t.Nanosecond(); ns != 0 {
		var frac [10]byte
		frac[0] = '.'
		for i := 9; i >= 1; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for frac[n-1] == '0' {
			n--
		}
		e.buf = append(e.buf, frac[:n]...)
	}
	e.buf = append(e.buf, e.tsZone...)
	e.buf = append(e.buf, '"')
}

// str writes a JSON string the way encoding/json does: <, >, & and U+2028/2029 escaped,
// invalid UTF-8 replaced by U+FFFD.
func (e *enc) str(s string) {
	e.buf = jsonw.AppendString(e.buf, s, jsonw.HTMLSafe)
}

// float writes a float64 the way encoding/json does; callers apply jsonw.Finite first, and a
// non-finite value that still gets here is written as null.
func (e *enc) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.raw("null")
		return
	}
	abs := math.Abs(f)
	fmtc := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtc = 'e'
	}
	b := strconv.AppendFloat(e.buf, f, fmtc, -1, 64)
	if fmtc == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
}

func (e *enc) strs(name string, v []string) {
	if len(v) == 0 {
		return
	}
	e.key(name)
	e.buf = append(e.buf, '[')
	for i, s := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(s)
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) span(s *model.Span) {
	e.timeField("start", s.Start)
	e.timeField("end", s.End)
	e.key("ended")
	e.bool(s.Ended)
	e.intField("seq", s.Seq, true)
	e.intField("end_seq", s.EndSeq, true)
	if s.Origin != nil {
		e.key("origin")
		e.buf = append(e.buf, '{')
		e.strField("file", s.Origin.File, true)
		e.intField("line", int64(s.Origin.Line), true)
		e.buf = append(e.buf, '}')
	}
	e.strs("inferred", s.Inferred)
}

func (e *enc) usage(u model.Usage) {
	if u.IsZero() {
		return
	}
	e.key("usage")
	e.buf = append(e.buf, '{')
	e.intField("input_tokens", u.InputTokens, true)
	e.intField("output_tokens", u.OutputTokens, true)
	e.intField("cached_tokens", u.CachedTokens, true)
	if c, ok := jsonw.Finite(u.CostUSD); ok && c != 0 { // an overflowed sum: the largest float
		e.key("cost_usd")
		e.float(c)
	}
	e.buf = append(e.buf, '}')
}

func (e *enc) errInfo(x *model.ErrorInfo) {
	if x == nil {
		return
	}
	e.key("error")
	e.buf = append(e.buf, '{')
	e.strField("kind", x.Kind, true)
	e.strField("message", x.Message, false)
	if x.Retryable {
		e.key("retryable")
		e.bool(true)
	}
	e.buf = append(e.buf, '}')
}

func (e *enc) attrs(m map[string]any) {
	if len(m) == 0 {
		return
	}
	e.key("attrs")
	e.value(m, 0)
}

// attr is one entry of an attrs map being written.
type attr struct {
	k string
	v any
}

// value writes an attribute value as encoding/json would (map keys sorted), without
// reflection for the types JSON decoding produces; anything else goes through encoding/json.
func (e *enc) value(v any, depth int) {
	switch v := v.(type) {
	case nil:
		e.raw("null")
	case string:
		e.str(v)
	case model.JSONText: // already written as e.str would write it
		e.buf = append(e.buf, v...)
	case []model.ToolCallRef:
		e.buf = append(e.buf, '[')
		for i, r := range v {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = append(e.buf, `{"id":`...)
			e.str(r.ID)
			e.buf = append(e.buf, `,"name":`...)
			e.str(r.Name)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case float64:
		v, ok := jsonw.Finite(v) // the rule of every JSON output: ±Inf clamped, NaN null
		if !ok {
			e.raw("null")
			return
		}
		// encoding/json's float format: shortest repr, exponent only outside [1e-6, 1e21).
		format := byte('f')
		if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
			format = 'e'
		}
		e.buf = strconv.AppendFloat(e.buf, v, format, -1, 64)
		if n := len(e.buf); format == 'e' && n >= 4 && e.buf[n-4] == 'e' && e.buf[n-3] == '-' && e.buf[n-2] == '0' {
			e.buf[n-2] = e.buf[n-1] // e-09 → e-9
			e.buf = e.buf[:n-1]
		}
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, v, 10)
	case map[string]any:
		if depth > 100 {
			e.raw("null")
			return
		}
		var small [8]attr // most attrs maps are small: no allocation for them
		kv := small[:0]
		for k, x := range v {
			kv = append(kv, attr{k, x})
		}
		slices.SortFunc(kv, func(a, b attr) int { return strings.Compare(a.k, b.k) })
		e.buf = append(e.buf, '{')
		for i, a := range kv {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.str(a.k)
			e.buf = append(e.buf, ':')
			e.value(a.v, depth+1)
		}
		e.buf = append(e.buf, '}')
	case []any:
		if depth > 100 {
			e.raw("null")
			return
		}
		e.buf = append(e.buf, '[')
		for i, x := range v {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.value(x, depth+1)
		}
		e.buf = append(e.buf, ']')
	default:
		b, err := stdjson.Marshal(v)
		if err != nil {
			b = []byte(`{"_error":` + strconv.Quote("unencodable attribute: "+err.Error()) + `}`)
		}
		e.buf = append(e.buf, b...)
	}
}

// sessionChunk is how many sessions one worker renders at a time.
const sessionChunk = 64

// sessions writes the sessions array's items. Large trees are rendered in chunks by one worker
// per CPU into their own buffers, written out in order: the output is byte for byte the same.
func (e *enc) sessions(all []*model.Session) {
	one := func(sub *enc, i int, se *model.Session) {
		if i > 0 {
			sub.raw(",")
		}
		sub.raw("\n")
		sub.session(se)
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(all) <= sessionChunk {
		for i, se := range all {
			one(e, i, se)
		}
		return
	}
	type chunk struct {
		from int
		buf  []byte
		done chan struct{}
	}
	jobs := make(chan *chunk)
	ordered := make(chan *chunk, 2*workers)
	free := make(chan []byte, 4*workers) // written-out buffers, reused so they need not grow again
	for range workers {
		go func() {
			for c := range jobs {
				sub := &enc{}
				select {
				case sub.buf = <-free:
				default:
				}
				for i := c.from; i < min(c.from+sessionChunk, len(all)); i++ {
					one(sub, i, all[i])
				}
				c.buf = sub.buf
				close(c.done)
			}
		}()
	}
	go func() {
		defer close(jobs)
		defer close(ordered)
		for from := 0; from < len(all); from += sessionChunk {
			c := &chunk{from: from, done: make(chan struct{})}
			ordered <- c
			jobs <- c
		}
	}()
	for c := range ordered {
		<-c.done
		e.buf = append(e.buf, c.buf...)
		e.flush(false)
		select {
		case free <- c.buf[:0]:
		default:
		}
	}
}

func (e *enc) session(se *model.Session) {
	e.raw(`{"id":`)
	e.str(se.ID)
	e.span(&se.Span)
	e.key("runs")
	if se.Runs == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, r := range se.Runs {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.run(r)
		}
		e.buf = append(e.buf, ']')
	}
	if len(se.Connections) > 0 {
		e.key("connections")
		e.buf = append(e.buf, '[')
		for i, c := range se.Connections {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"id":`)
			e.str(c.ID)
			e.strField("run_id", c.RunID, true)
			e.span(&c.Span)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	if len(se.Messages) > 0 {
		e.key("messages")
		e.buf = append(e.buf, '[')
		for i, m := range se.Messages {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = append(e.buf, '{')
			e.strField("role", m.Role, true)
			e.strField("text", m.Text, true)
			e.strField("run_id", m.RunID, true)
			e.strField("step_id", m.StepID, true)
			e.timeField("ts", m.TS)
			e.intField("seq", m.Seq, true)
			e.buf = append(e.buf, '}')
			e.flush(false)
		}
		e.buf = append(e.buf, ']')
	}
	e.intField("snapshots", int64(se.Snapshots), true)
	e.usage(se.Usage)
	e.buf = append(e.buf, '}')
	e.flush(false)
}

func (e *enc) run(r *model.Run) {
	e.raw(`{"id":`)
	e.str(r.ID)
	e.strField("session_id", r.SessionID, false)
	e.strField("parent_run_id", r.ParentRunID, true)
	e.intField("attempt", int64(r.Attempt), true)
	e.strField("kind", r.Kind, true)
	e.strField("agent", r.Agent, true)
	e.strField("agent_version", r.AgentVersion, true)
	e.span(&r.Span)
	e.timeField("queued", r.Queued)
	e.strField("status", string(r.Status), false)
	e.strField("wait_reason", string(r.WaitReason), true)
	e.strField("stop_reason", string(r.StopReason), true)
	e.errInfo(r.Error)
	if len(r.History) > 0 {
		e.key("history")
		e.buf = append(e.buf, '[')
		for i := range r.History {
			h := &r.History[i]
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"status":`)
			e.str(string(h.Status))
			e.strField("wait_reason", string(h.WaitReason), true)
			e.strField("stop_reason", string(h.StopReason), true)
			e.timeField("ts", h.TS)
			e.intField("seq", h.Seq, true)
			e.strField("source", string(h.Source), true)
			e.strField("cause", h.Cause, true)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	if len(r.Resumes) > 0 {
		e.key("resumes")
		e.buf = append(e.buf, '[')
		for i, ts := range r.Resumes {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.time(ts)
		}
		e.buf = append(e.buf, ']')
	}
	e.key("turns")
	if r.Turns == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, t := range r.Turns {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.turn(t)
		}
		e.buf = append(e.buf, ']')
	}
	if len(r.Waits) > 0 {
		e.key("waits")
		e.buf = append(e.buf, '[')
		for i, w := range r.Waits {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"reason":`)
			e.str(string(w.Reason))
			e.strField("call_id", w.CallID, true)
			e.strField("decision", string(w.Decision), true)
			e.span(&w.Span)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	if len(r.Inputs) > 0 {
		e.key("inputs")
		e.buf = append(e.buf, '[')
		for i, in := range r.Inputs {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"id":`)
			e.str(in.ID)
			e.strField("kind", string(in.Kind), false)
			e.strField("text", in.Text, true)
			e.timeField("ts", in.TS)
			e.intField("seq", in.Seq, true)
			e.strField("consumed_by", in.ConsumedBy, true)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	e.usage(r.Usage)
	e.buf = append(e.buf, '}')
}

func (e *enc) turn(t *model.Turn) {
	e.raw(`{"id":`)
	e.str(t.ID)
	e.strField("run_id", t.RunID, false)
	e.span(&t.Span)
	e.strField("outcome", string(t.Outcome), true)
	e.strField("stop_reason", string(t.StopReason), true)
	e.errInfo(t.Error)
	if t.Stopping {
		e.key("stopping")
		e.bool(true)
	}
	e.strs("consumes", t.Consumes)
	e.key("steps")
	if t.Steps == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, st := range t.Steps {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.step(st)
			e.flush(false)
		}
		e.buf = append(e.buf, ']')
	}
	e.usage(t.Usage)
	e.buf = append(e.buf, '}')
}

func (e *enc) step(st *model.Step) {
	e.raw(`{"id":`)
	e.str(st.ID)
	e.strField("turn_id", st.TurnID, false)
	e.intField("index", int64(st.Index), false)
	e.span(&st.Span)
	e.strField("outcome", string(st.Outcome), true)
	e.errInfo(st.Error)
	e.strs("consumes", st.Consumes)
	e.key("model_calls")
	if st.ModelCalls == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, m := range st.ModelCalls {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"id":`)
			e.str(m.ID)
			e.strField("step_id", m.StepID, false)
			e.strField("name", m.Name, true)
			e.span(&m.Span)
			e.strField("outcome", string(m.Outcome), true)
			e.errInfo(m.Error)
			e.usage(m.Usage)
			e.attrs(m.Attrs)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	e.key("tool_calls")
	if st.ToolCalls == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, c := range st.ToolCalls {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"id":`)
			e.str(c.ID)
			e.strField("step_id", c.StepID, false)
			e.strField("name", c.Name, true)
			e.span(&c.Span)
			e.strField("outcome", string(c.Outcome), true)
			e.errInfo(c.Error)
			if c.SideEffect {
				e.key("side_effect")
				e.bool(true)
			}
			e.strField("idempotency_key", c.IdempotencyKey, true)
			e.attrs(c.Attrs)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	e.usage(st.Usage)
	e.buf = append(e.buf, '}')
}

// runSummary writes one item of the top-level "runs" array.
func (e *enc) runSummary(r *model.Run) {
	e.raw(`{"id":`)
	e.str(r.ID)
	e.strField("session_id", r.SessionID, false)
	e.strField("agent", r.Agent, true)
	e.strField("status", string(r.Status), false)
	e.strField("stop_reason", string(r.StopReason), false)
	e.strField("wait_reason", string(r.WaitReason), true)
	e.strField("parent_run_id", r.ParentRunID, true)
	e.intField("attempt", int64(r.Attempt), true)
	e.strField("kind", r.Kind, true)
	e.timeField("start", r.Start)
	e.timeField("end", r.End)
	e.key("ended")
	e.bool(r.Ended)
	if !r.Start.IsZero() && !r.End.IsZero() {
		e.key("duration_ms")
		e.float(view.Between(r.Start, r.End) / float64(time.Millisecond)) // no overflow on an absurd clock
	}
	c := r.Counts() // those of the whole run when --depth cut its nodes
	e.intField("turns", int64(c.Turns), false)
	e.intField("steps", int64(c.Steps), false)
	e.intField("model_calls", int64(c.ModelCalls), false)
	e.intField("tool_calls", int64(c.ToolCalls), false)
	e.intField("failed_tool_calls", int64(c.FailedToolCalls), false)
	e.usage(r.Usage)
	e.errInfo(r.Error)
	e.buf = append(e.buf, '}')
}

func (e *enc) finding(f *model.Finding) {
	e.raw(`{"code":`)
	e.str(f.Code)
	e.strField("severity", string(f.Severity), false)
	e.key("ids")
	if f.IDs == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, id := range f.IDs {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.str(id)
		}
		e.buf = append(e.buf, ']')
	}
	e.intField("seq", f.Seq, false)
	if f.Origin != nil {
		e.key("origin")
		e.buf = append(e.buf, '{')
		e.strField("file", f.Origin.File, true)
		e.intField("line", int64(f.Origin.Line), true)
		e.buf = append(e.buf, '}')
	}
	e.strField("message", f.Message, false)
	e.buf = append(e.buf, '}')
}
