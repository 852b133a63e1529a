// Package html renders a lifecycle tree (model.Tree) as one self-contained, interactive HTML
// page: a zoomable waterfall with one row per node and an overview with one lane per layer
// (session, run, turn, step, model call, tool call), a collapsible tree, search and filters by
// name, status and layer, a details pane, and the invariant findings shown on the nodes they
// concern.
//
// The page needs no network: its CSS and JavaScript are inline, and the trace travels as JSON in
// a <script type="application/json"> element. Every piece of trace text is untrusted: the JSON
// is written with <, >, &, U+2028 and U+2029 escaped, so nothing in it can close the element, and
// the script only ever puts trace text into the page with textContent, setAttribute or canvas
// fillText. The data is column-encoded (one array per field, a string table for repeated text,
// offsets relative to the parent) and the page draws only the rows on screen, so a 100,000-span
// trace stays a file of a few megabytes that opens in well under two seconds.
package html

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/jsonw"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options tune the page.
type Options struct {
	// Title is shown in the page header and the browser tab; "lifeline timeline" if empty.
	Title string
	// MaxText caps every free-text value (error messages, attributes, input texts) at this many
	// bytes, so one huge tool result cannot bloat the file; the cut is marked. 0 means 4096;
	// a negative value keeps texts whole.
	MaxText int
}

// DefaultTitle is the page title used when Options.Title is empty.
const DefaultTitle = "lifeline timeline"

//go:embed assets/page.html
var pageHTML string

//go:embed assets/style.css
var styleCSS string

//go:embed assets/app.js
var appJS string

// page is the static template cut at its two holes: the title and the data.
var page = func() (p struct{ head, mid, tail string }) {
	full := strings.Replace(pageHTML, "/*STYLE*/", styleCSS, 1)
	full = strings.Replace(full, "/*APP*/", appJS, 1)
	h, rest, ok1 := strings.Cut(full, "{{TITLE}}")
	m, t, ok2 := strings.Cut(rest, "{{DATA}}")
	if !ok1 || !ok2 {
		panic("render/html: page template lacks {{TITLE}} or {{DATA}}")
	}
	p.head, p.mid, p.tail = h, m, t
	return p
}()

// TemplateHash is the SHA-256 of the static part of the page (template, style and script); the
// golden tests record it so that a change of the page shows up in review.
func TemplateHash() string {
	h := sha256.New()
	io.WriteString(h, page.head)
	io.WriteString(h, "\x00")
	io.WriteString(h, page.mid)
	io.WriteString(h, "\x00")
	io.WriteString(h, page.tail)
	return hex.EncodeToString(h.Sum(nil))
}

// Render writes t as one self-contained HTML page to w. findings are the invariant findings of
// the same trace (model.Checker); each is shown on the node named by its most specific id that
// the tree has, and the rest in a list above the timeline. Render fails only when w fails or the
// data cannot be encoded.
func Render(w io.Writer, t *model.Tree, findings []model.Finding, opts Options) error {
	data, err := Data(t, findings, opts)
	if err != nil {
		return err
	}
	title := opts.Title
	if title == "" {
		title = DefaultTitle
	}
	var out bytes.Buffer
	out.Grow(len(page.head) + len(page.mid) + len(page.tail) + len(data) + len(title)*2)
	out.WriteString(page.head)
	out.WriteString(html.EscapeString(view.Clean(title)))
	out.WriteString(page.mid)
	out.Write(data)
	out.WriteString(page.tail)
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("writing html timeline: %w", err)
	}
	return nil
}

// Data returns the JSON the page embeds for t: column-encoded nodes, a string table, usage,
// details and findings. It is safe to place inside a <script> element: it contains no '<', '>'
// or '&' byte and no U+2028/U+2029. Render uses it; tests compare it with golden files.
func Data(t *model.Tree, findings []model.Finding, opts Options) ([]byte, error) {
	if t == nil {
		t = &model.Tree{}
	}
	p := build(t, findings, opts)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encoding timeline data: %w", err)
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	if i := bytes.IndexAny(b, "<>&"); i >= 0 {
		return nil, fmt.Errorf("encoding timeline data: unescaped %q at byte %d", b[i], i)
	}
	if bytes.Contains(b, []byte("\u2028")) || bytes.Contains(b, []byte("\u2029")) {
		return nil, fmt.Errorf("encoding timeline data: unescaped line separator")
	}
	return b, nil
}

// Node flags (the "f" column).
const (
	flagOpen        = 1 << iota // never ended
	flagInferred                // something was reconstructed
	flagFailed                  // ended in error / failed
	flagNoStart                 // start time unknown
	flagPlaceholder             // opened by a later event (the start was never seen)
	flagSideEffect              // side-effecting tool call
	flagStopping                // turn reached turn/stopping
	flagChildRun                // run nested under its parent run (sub-agent, handoff, retry)
	flagNoEnd                   // ended, but its end time is unknown
	flagPropagated              // failed because a descendant failed (not counted as an error of its own)
)

// payload is the JSON the page reads. Per-node arrays are indexed by row (display order).
type payload struct {
	V        int    `json:"v"`
	Title    string `json:"title"`
	Timeless bool   `json:"timeless"`
	// Unit is "us" (offsets in microseconds) or "seq" (timeless: positions are event seqs).
	Unit string `json:"unit"`
	// T0 is the trace start (RFC 3339) and T0ms the same in Unix milliseconds.
	T0    string   `json:"t0,omitempty"`
	T0ms  float64  `json:"t0ms,omitempty"`
	Total int64    `json:"total"`
	Notes []string `json:"notes"`
	Sum   summary  `json:"sum"`

	Str []string `json:"str"` // string table; index 0 is ""

	Kind   []int    `json:"k"`  // view.Kind
	Parent []int    `json:"p"`  // row - parent row (0 for a root)
	ID     []string `json:"id"` // canonical id
	Name   []int    `json:"n"`  // string index
	Start  []int64  `json:"s"`  // start - parent start (roots: - trace start)
	Dur    []int64  `json:"d"`  // duration, -1 when open or unknown
	Status []int    `json:"st"` // string index
	Stop   []int    `json:"sr"` // string index
	Flags  []int    `json:"f"`
	Seq    []int64  `json:"q"`  // seq - previous row's seq
	EndSeq []int64  `json:"eq"` // end seq - seq, 0 when none
	OFile  []int    `json:"of,omitempty"`
	OLine  []int64  `json:"ol,omitempty"` // origin line - previous row's origin line

	Usage    [][5]any          `json:"u"`  // [row, input, output, cached, cost]
	Extra    []extraRec        `json:"x"`  // [row, details object]
	Findings []findingRec      `json:"fi"` // [row or -1, code, severity, message, seq, ids]
	Titles   map[string]string `json:"titles"`
}

type summary struct {
	model.Summary
	Usage model.Usage `json:"usage"`
	// Failed counts the failures that originated where they are shown (one root cause, one
	// error); FailedNodes every failed node, the steps, turns and runs it failed included.
	Failed      int `json:"failed"`
	FailedNodes int `json:"failed_nodes"`
	Open        int `json:"open"`
	Findings    int `json:"findings"`
	Errors      int `json:"finding_errors"`
	Nodes       int `json:"nodes"`
}

type extraRec [2]any
type findingRec [6]any

type builder struct {
	opts  Options
	str   []string
	index map[string]int
}

func (b *builder) s(v string) int {
	if v == "" {
		return 0
	}
	v = view.Clean(v)
	if i, ok := b.index[v]; ok {
		return i
	}
	b.index[v] = len(b.str)
	b.str = append(b.str, v)
	return len(b.str) - 1
}

func build(t *model.Tree, findings []model.Finding, opts Options) *payload {
	if opts.MaxText == 0 {
		opts.MaxText = 4096
	}
	v := view.Flatten(t, findings)
	startedBy := nestChildRuns(v)
	prop := propagated(v)
	n := len(v.Nodes)
	b := &builder{opts: opts, str: []string{""}, index: map[string]int{"": 0}}
	title := opts.Title
	if title == "" {
		title = DefaultTitle
	}
	p := &payload{V: 1, Title: view.Clean(title), Timeless: t.Timeless, Unit: "us", Notes: t.Notes,
		Kind: make([]int, n), Parent: make([]int, n), ID: make([]string, n), Name: make([]int, n),
		Start: make([]int64, n), Dur: make([]int64, n), Status: make([]int, n), Stop: make([]int, n),
		Flags: make([]int, n), Seq: make([]int64, n), EndSeq: make([]int64, n),
		Usage: [][5]any{}, Extra: []extraRec{}, Findings: []findingRec{}, Titles: map[string]string{}}
	if p.Notes == nil {
		p.Notes = []string{}
	}
	p.Sum.Summary = t.Summarize()
	p.Sum.Nodes = n
	for _, se := range t.Sessions {
		p.Sum.Usage = p.Sum.Usage.Add(se.Usage)
	}
	p.Sum.Usage.CostUSD = finite(p.Sum.Usage.CostUSD) // encoding/json refuses ±Inf and NaN

	// Positions on the time axis, absolute in units from the trace start.
	abs := make([]int64, n)
	end := make([]int64, n)
	known := make([]bool, n)
	timeless := t.Timeless || v.Start.IsZero()
	if timeless {
		p.Unit = "seq"
		placeBySeq(v, abs, end, known)
	} else {
		p.T0 = v.Start.Format(time.RFC3339Nano)
		p.T0ms = float64(v.Start.UnixMicro()) / 1000
		// Microseconds from the trace start, computed without overflow: an absurd clock (a span of
		// more than the 292 years a time.Duration holds) still fits int64 microseconds.
		total := micros(v, v.End)
		for i := range v.Nodes {
			nd := &v.Nodes[i]
			if !nd.Span.Start.IsZero() {
				abs[i], known[i] = micros(v, nd.Span.Start), true
			} else if nd.Parent >= 0 {
				abs[i] = abs[nd.Parent]
			}
			end[i] = -1
			if nd.Span.Ended && !nd.Span.End.IsZero() {
				end[i] = micros(v, nd.Span.End)
			}
		}
		p.Total = total
	}
	hasOrigin := false
	for i := range v.Nodes {
		if v.Nodes[i].Span.Origin != nil {
			hasOrigin = true
			break
		}
	}
	if hasOrigin {
		p.OFile, p.OLine = make([]int, n), make([]int64, n)
	}

	var prevSeq, prevLine int64
	stepOrd := map[int]int{}
	for i := range v.Nodes {
		nd := &v.Nodes[i]
		p.Kind[i] = int(nd.Kind)
		pa := nd.Parent
		if pa >= 0 {
			p.Parent[i] = i - pa
			p.Start[i] = abs[i] - abs[pa]
		} else {
			p.Start[i] = abs[i]
		}
		p.ID[i] = view.Clean(nd.ID)
		p.Name[i] = b.s(nd.Name)
		p.Status[i] = b.s(nd.Status)
		p.Stop[i] = b.s(string(nd.Stop))
		p.Dur[i] = -1
		if end[i] >= 0 && nd.Span.Ended {
			p.Dur[i] = max(end[i]-abs[i], 0)
		}
		f := 0
		if !nd.Span.Ended {
			f |= flagOpen
			p.Sum.Open++
		} else if end[i] < 0 {
			f |= flagNoEnd
		}
		if len(nd.Span.Inferred) > 0 {
			f |= flagInferred
			for _, w := range nd.Span.Inferred {
				if w == "placeholder" {
					f |= flagPlaceholder
				}
			}
		}
		if nd.Failed() {
			f |= flagFailed
			p.Sum.FailedNodes++
			if prop[i] {
				f |= flagPropagated
			} else {
				p.Sum.Failed++
			}
		}
		if !known[i] {
			f |= flagNoStart
		}
		p.Seq[i] = nd.Span.Seq - prevSeq
		prevSeq = nd.Span.Seq
		if nd.Span.EndSeq != 0 {
			p.EndSeq[i] = nd.Span.EndSeq - nd.Span.Seq
		}
		if hasOrigin && nd.Span.Origin != nil {
			p.OFile[i] = b.s(nd.Span.Origin.File)
			p.OLine[i] = int64(nd.Span.Origin.Line) - prevLine
			prevLine = int64(nd.Span.Origin.Line)
		}
		x := map[string]any{}
		switch o := nd.Obj.(type) {
		case *model.Session:
			b.session(o, x)
		case *model.Run:
			b.run(o, x)
			if nd.Parent >= 0 && (v.Nodes[nd.Parent].Kind == view.KindRun || startedBy[i] >= 0) {
				f |= flagChildRun
			}
			if startedBy[i] >= 0 {
				x["started_by"] = view.Clean(v.Nodes[startedBy[i]].ID)
			}
		case *model.Turn:
			if o.Stopping {
				f |= flagStopping
			}
			if len(o.Consumes) > 0 {
				x["consumes"] = o.Consumes
			}
		case *model.Step:
			stepOrd[nd.Parent]++
			if o.Index != stepOrd[nd.Parent] { // the page numbers steps by position otherwise
				x["index"] = o.Index
			}
			if len(o.Consumes) > 0 {
				x["consumes"] = o.Consumes
			}
		case *model.ModelCall:
			if len(o.Attrs) > 0 {
				x["attrs"] = b.attrs(o.Attrs)
			}
		case *model.ToolCall:
			if o.SideEffect {
				f |= flagSideEffect
				x["side_effect"] = true
			}
			if o.IdempotencyKey != "" {
				x["idempotency_key"] = o.IdempotencyKey
			}
			if len(o.Attrs) > 0 {
				x["attrs"] = b.attrs(o.Attrs)
			}
		case *model.Wait:
			x["reason"] = string(o.Reason)
			if o.Decision != "" {
				x["decision"] = string(o.Decision)
			}
		}
		if nd.Err != nil {
			x["error"] = map[string]any{"kind": nd.Err.Kind, "message": b.text(nd.Err.Message), "retryable": nd.Err.Retryable}
		}
		if len(nd.Span.Inferred) > 0 {
			x["inferred"] = nd.Span.Inferred
		}
		if len(x) > 0 {
			p.Extra = append(p.Extra, extraRec{i, x})
		}
		p.Flags[i] = f
		if u := nd.Usage; !u.IsZero() {
			p.Usage = append(p.Usage, [5]any{i, u.InputTokens, u.OutputTokens, u.CachedTokens, finite(u.CostUSD)})
		}
		for _, fd := range nd.Findings {
			p.Findings = append(p.Findings, b.finding(i, fd))
		}
	}
	for _, fd := range v.Unplaced {
		p.Findings = append(p.Findings, b.finding(-1, fd))
	}
	for _, fd := range findings {
		p.Sum.Findings++
		if fd.Severity == model.SevError {
			p.Sum.Errors++
		}
		if title, ok := model.InvariantTitles[fd.Code]; ok {
			p.Titles[fd.Code] = title
		}
	}
	if timeless {
		p.Total = 0
		for i := range end {
			p.Total = max(p.Total, end[i], abs[i]+1)
		}
	}
	p.Str = b.str
	return p
}

// placeBySeq lays out a timeless tree by event order: a node spans from the seq of the event
// that opened it to the seq of the one that ended it. Rows without seqs fall back to their
// display order (a node covers its subtree's rows).
func placeBySeq(v *view.View, abs, end []int64, known []bool) {
	n := len(v.Nodes)
	seqs := true
	var lo int64 = math.MaxInt64
	for i := range v.Nodes {
		s := v.Nodes[i].Span.Seq
		if s <= 0 {
			seqs = false
			break
		}
		lo = min(lo, s)
	}
	if !seqs || n == 0 {
		// last[i] is the last row of i's subtree; rows are in pre-order.
		last := make([]int, n)
		for i := n - 1; i >= 0; i-- {
			last[i] = max(last[i], i)
			if pa := v.Nodes[i].Parent; pa >= 0 {
				last[pa] = max(last[pa], last[i])
			}
		}
		for i := range v.Nodes {
			abs[i], end[i], known[i] = int64(i), int64(last[i]+1), true
		}
		return
	}
	for i := range v.Nodes {
		sp := v.Nodes[i].Span
		abs[i], known[i] = sp.Seq-lo, true
		end[i] = -1
		if sp.Ended && sp.EndSeq > 0 {
			end[i] = max(sp.EndSeq-lo, abs[i]) + 1
		}
	}
}

// finite applies the rule of every JSON output (jsonw.Finite): an overflowed cost is the largest
// finite float; NaN, which has no value, is 0 (no cost).
func finite(f float64) float64 {
	f, _ = jsonw.Finite(f)
	return f
}

// micros is ts in whole microseconds from the trace start, without overflow.
func micros(v *view.View, ts time.Time) int64 {
	if d, ok := view.Sub(v.Start, ts); ok {
		return d.Microseconds()
	}
	// Seconds apart fit int64 microseconds for every time.Time a log can carry (years 1–9999
	// are ±3.2e17 µs); the sub-second part is exact.
	return (ts.Unix()-v.Start.Unix())*1e6 + int64(ts.Nanosecond()-v.Start.Nanosecond())/1e3
}

func (b *builder) finding(row int, f *model.Finding) findingRec {
	ids := make([]string, len(f.IDs))
	for i, id := range f.IDs {
		ids[i] = view.Clean(id)
	}
	return findingRec{row, view.Clean(f.Code), string(f.Severity), b.text(f.Message), f.Seq, ids}
}

// text caps an untrusted free text at MaxText bytes (on a rune boundary) and marks the cut.
func (b *builder) text(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if b.opts.MaxText < 0 || len(s) <= b.opts.MaxText {
		return s
	}
	cut := b.opts.MaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [%d more bytes cut]", s[:cut], len(s)-cut)
}

// attrs returns a JSON-safe copy of free attributes: long strings cut, non-finite numbers as
// jsonw.Finite says, values json cannot encode turned into strings.
func (b *builder) attrs(m map[string]any) any {
	return b.value(m, 0)
}

func (b *builder) value(x any, depth int) any {
	if depth > 32 {
		return "… [nested too deep]"
	}
	switch v := x.(type) {
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number:
		return v
	case string:
		return b.text(v)
	case model.JSONText:
		return b.text(v.String())
	case float64:
		if f, ok := jsonw.Finite(v); ok { // the rule of every JSON output: ±Inf clamped, NaN null
			return f
		}
		return nil
	case float32:
		return b.value(float64(v), depth)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[b.text(k)] = b.value(e, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = b.value(e, depth+1)
		}
		return out
	case []string:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = b.text(e)
		}
		return out
	}
	// Anything else (structs, typed maps): take its JSON form, or its printed form if it has none.
	raw, err := json.Marshal(x)
	if err != nil {
		return b.text(fmt.Sprint(x))
	}
	var back any
	if err := json.Unmarshal(raw, &back); err != nil {
		return b.text(string(raw))
	}
	return b.value(back, depth+1)
}

func ts(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

func (b *builder) session(s *model.Session, x map[string]any) {
	if len(s.Connections) > 0 {
		cs := make([]map[string]any, 0, len(s.Connections))
		for _, c := range s.Connections {
			m := map[string]any{"id": c.ID, "start": ts(c.Start)}
			if c.RunID != "" {
				m["run_id"] = c.RunID
			}
			if c.Ended {
				m["end"] = ts(c.End)
			} else {
				m["open"] = true
			}
			cs = append(cs, m)
		}
		x["connections"] = cs
	}
	if len(s.Messages) > 0 {
		roles := map[string]int{}
		for _, m := range s.Messages {
			roles[m.Role]++
		}
		x["messages"] = roles
	}
	if s.Snapshots > 0 {
		x["snapshots"] = s.Snapshots
	}
}

func (b *builder) run(r *model.Run, x map[string]any) {
	set := func(k, v string) {
		if v != "" {
			x[k] = b.text(v)
		}
	}
	set("parent_run_id", r.ParentRunID)
	set("kind", r.Kind)
	set("agent_version", r.AgentVersion)
	set("wait_reason", string(r.WaitReason))
	set("queued", ts(r.Queued))
	if r.Attempt != 0 {
		x["attempt"] = r.Attempt
	}
	if len(r.History) > 0 {
		h := make([]map[string]any, 0, len(r.History))
		for _, c := range r.History {
			m := map[string]any{"status": string(c.Status)}
			for k, v := range map[string]string{"wait_reason": string(c.WaitReason), "stop_reason": string(c.StopReason),
				"ts": ts(c.TS), "source": string(c.Source), "cause": c.Cause} {
				if v != "" {
					m[k] = b.text(v)
				}
			}
			if c.Seq != 0 {
				m["seq"] = c.Seq
			}
			h = append(h, m)
		}
		x["history"] = h
	}
	if len(r.Resumes) > 0 {
		rs := make([]string, len(r.Resumes))
		for i, t := range r.Resumes {
			rs[i] = ts(t)
		}
		x["resumes"] = rs
	}
	if len(r.Inputs) > 0 {
		in := make([]map[string]any, 0, len(r.Inputs))
		for _, i := range r.Inputs {
			m := map[string]any{"id": i.ID, "kind": string(i.Kind), "text": b.text(i.Text)}
			if i.ConsumedBy != "" {
				m["consumed_by"] = i.ConsumedBy
			}
			if !i.TS.IsZero() {
				m["ts"] = ts(i.TS)
			}
			in = append(in, m)
		}
		x["inputs"] = in
	}
}

// Palette returns the custom properties of the timeline's stylesheet (colours of the layers and
// statuses, fonts, light and dark), for other lifeline pages that share its visual language
// (render/maphtml).
func Palette() string {
	if i := strings.Index(styleCSS, "\n* {"); i >= 0 {
		return styleCSS[:i+1]
	}
	return ""
}
