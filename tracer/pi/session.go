package pi

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// SessionName is the --input-format name of pi-coding-agent session files.
const SessionName = "pi-session"

// SessionDescription says which producer writes pi-coding-agent session files.
const SessionDescription = "Pi coding-agent session file (~/.pi/agent/sessions/*.jsonl: id/parentId entry tree)"

// DetectSession scores how much head looks like a pi-coding-agent session file: a session header
// (ISO timestamp, cwd, version ≤ 3, no createdAt) not followed by agent events, or a first entry
// with type, id, parentId and timestamp.
func DetectSession(head []byte) int {
	lines := firstLines(head, 2)
	if len(lines) == 0 {
		return 0
	}
	if _, ok := isHeader(lines[0]); ok {
		if len(lines) > 1 && eventTypes[lineType(lines[1])] {
			return 0
		}
		return 95
	}
	var e struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		ParentID  json.RawMessage `json:"parentId"`
		Timestamp string          `json:"timestamp"`
	}
	if json.Unmarshal(lines[0], &e) == nil && e.ID != "" && e.ParentID != nil && !isoTime(e.Timestamp).IsZero() {
		switch e.Type {
		case "message", "model_change", "thinking_level_change", "compaction", "branch_summary", "custom", "custom_message", "label", "session_info":
			return 70
		}
	}
	return 0
}

// entry is one session entry.
type entry struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ParentID  *string         `json:"parentId"`
	Timestamp string          `json:"timestamp"`
	Message   *piMessage      `json:"message"`
	Provider  string          `json:"provider"`
	ModelID   string          `json:"modelId"`
	Summary   string          `json:"summary"`
	FromID    string          `json:"fromId"`
	Raw       json.RawMessage `json:"-"`

	line     int
	ts       time.Time
	parent   *entry
	children []*entry
	run      *sessRun
	active   bool
	order    int
	// continued is set once a child of the entry (in file order) continues the entry's run: a
	// later child starts a branch run.
	continued bool
	// steer marks a user message that steers the run it is in (written right after a tool
	// result the model has not answered yet) rather than prompting a new run.
	steer bool
}

// steersAfter reports whether a user message written right after p steers the run p is in:
// p is a tool result (the model has not answered it yet) or a steer itself.
func steersAfter(p *entry) bool {
	if p.steer {
		return true
	}
	return p.Type == "message" && p.Message != nil && p.Message.Role == "toolResult"
}

// sessRun is a run reconstructed from the tree: a user prompt and the chain of entries after it.
type sessRun struct {
	id       string
	entries  []*entry
	parent   *sessRun // the run this one branched from (same prompt, another continuation)
	branchAt *entry
	prompt   *entry
}

// DecodeSession reads a pi-coding-agent session file: every branch of the entry tree is shown,
// one run per user prompt; runs off the active path (leaf → root) are marked abandoned.
func DecodeSession(r io.Reader, em *ingest.Emitter) error {
	var hdr *header
	hdrLine := 0
	var entries []*entry
	byID := map[string]*entry{}
	err := ingest.EachLine(r, em, SessionName, func(line []byte, n int) error {
		if h, ok := isHeader(line); ok {
			if hdr != nil {
				return fmt.Errorf("second session header; ignored")
			}
			hdr, hdrLine = h, n
			return nil
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			return describe(err)
		}
		if e.Type == "" || e.ID == "" {
			return fmt.Errorf("entry without type or id: expected {type, id, parentId, timestamp}")
		}
		if _, dup := byID[e.ID]; dup {
			return fmt.Errorf("duplicate entry id %q (first one kept)", e.ID)
		}
		e.line = n
		e.ts = isoTime(e.Timestamp)
		if e.ts.IsZero() && e.Message != nil {
			e.ts = msTime(e.Message.Timestamp)
		}
		e.order = len(entries)
		entries = append(entries, &e)
		byID[e.ID] = &e
		return nil
	})
	b := &sessBuilder{em: em, st: em.Shared()}
	b.build(hdr, hdrLine, entries, byID)
	return err
}

type sessBuilder struct {
	em      *ingest.Emitter
	st      *ingest.Shared
	session string
	runs    []*sessRun
}

func (b *sessBuilder) errorf(line int, format string, args ...any) {
	b.em.Error(line, fmt.Errorf("%s: line %d: %s", SessionName, line, fmt.Sprintf(format, args...)))
}

func (b *sessBuilder) build(hdr *header, hdrLine int, entries []*entry, byID map[string]*entry) {
	// Link parents; a dangling parent makes the entry a root (reported), a cycle is cut: links
	// are made in file order and the one that would close a cycle is cut (found in one pass).
	cut := ingest.CutCycles(len(entries), func(i int) int {
		e := entries[i]
		if e.ParentID == nil || *e.ParentID == "" {
			return -1
		}
		if p := byID[*e.ParentID]; p != nil && p != e {
			return p.order
		}
		return -1
	})
	for _, e := range entries {
		if e.ParentID == nil || *e.ParentID == "" {
			continue
		}
		p := byID[*e.ParentID]
		if p == nil {
			b.errorf(e.line, "entry %s names parent %s, which is not in the file; its subtree is kept as a separate root", e.ID, *e.ParentID)
			continue
		}
		if p == e || cut[e.order] {
			b.errorf(e.line, "entry %s: parent %s makes a cycle; the link is cut", e.ID, *e.ParentID)
			continue
		}
		e.parent = p
		p.children = append(p.children, e)
	}
	// Active path: the last appended entry back to its root.
	if len(entries) > 0 {
		for e := entries[len(entries)-1]; e != nil; e = e.parent {
			e.active = true
		}
	}
	// Runs: a user message starts one; an entry continues its parent's run unless the parent
	// already has a continuation in that run (then it starts a branch run).
	for _, e := range entries {
		isPrompt := e.Type == "message" && e.Message != nil && e.Message.Role == "user"
		var pr *sessRun
		if e.parent != nil {
			pr = e.parent.run
		}
		switch {
		case isPrompt && pr != nil && !e.parent.continued && steersAfter(e.parent):
			// Pi delivers a steer after the tool calls of the current step ran and before the
			// next model call: the user entry hangs off the last tool result (or an earlier
			// steer) and continues the same run.
			e.run, e.steer = pr, true
			e.parent.continued = true
		case isPrompt:
			e.run = &sessRun{prompt: e}
			b.runs = append(b.runs, e.run)
		case pr == nil:
			if e.Type == "message" && e.Message != nil && (e.Message.Role == "assistant" || e.Message.Role == "toolResult") {
				e.run = &sessRun{}
				b.runs = append(b.runs, e.run)
			}
		case e.parent.continued:
			e.run = &sessRun{parent: pr, branchAt: e.parent, prompt: pr.prompt}
			b.runs = append(b.runs, e.run)
		default:
			e.run = pr
			e.parent.continued = true
		}
		if e.run != nil {
			e.run.entries = append(e.run.entries, e)
		}
	}
	// Session.
	if hdr != nil && hdr.ID != "" {
		b.session = hdr.ID
	} else {
		b.session = "pi:" + strings.TrimSuffix(filepath.Base(b.em.File), filepath.Ext(b.em.File))
	}
	if b.st.StartSession(b.session) {
		ev := model.Event{Type: model.SessionStart, SessionID: b.session, Source: model.SourceRuntime, Origin: b.em.At(hdrLine)}
		attrs := map[string]any{}
		if hdr != nil {
			var ts string
			_ = json.Unmarshal(hdr.Timestamp, &ts)
			ev.TS = isoTime(ts)
			attrs["cwd"] = hdr.Cwd
			if hdr.Version != nil {
				attrs["version"] = *hdr.Version
			}
			if hdr.ParentSession != "" {
				attrs["parent_session"] = hdr.ParentSession
			}
		} else {
			ev.Inferred = []string{"ids"}
			if len(entries) > 0 {
				ev.TS, ev.Origin = entries[0].ts, b.em.At(entries[0].line)
			}
		}
		ev.Attrs = attrs
		b.em.Emit(&ev)
	}
	for _, r := range b.runs {
		b.emitRun(r)
	}
}

func (b *sessBuilder) emit(e *entry, ev model.Event) {
	ev.SessionID = b.session
	if ev.Origin == nil && e != nil {
		ev.Origin = b.em.At(e.line)
	}
	if ev.TS.IsZero() && e != nil {
		ev.TS = e.ts
	}
	b.em.Emit(&ev)
}

func (b *sessBuilder) emitRun(r *sessRun) {
	first := r.entries[0]
	k := b.st.NextRun(b.session)
	r.id = b.st.Unique("run", fmt.Sprintf("%s/run-%d", b.session, k))
	last := r.entries[len(r.entries)-1]
	abandoned := !last.active
	attrs := map[string]any{"branch": "active"}
	inferred := []string{"run"}
	if abandoned {
		attrs["branch"] = "abandoned"
		inferred = append(inferred, "abandoned_branch")
	}
	if r.prompt != nil {
		attrs["prompt_entry"] = r.prompt.ID
	}
	ev := model.Event{Type: model.RunStart, RunID: r.id, Attempt: 1, Source: model.SourceRuntime, Inferred: inferred, Attrs: attrs}
	if r.parent != nil {
		ev.ParentRunID = r.parent.id
		attrs["branch_from_entry"] = r.branchAt.ID
		attrs["note"] = "continues run " + r.parent.id + " from entry " + r.branchAt.ID + " on another branch"
	}
	b.emit(first, ev)
	turn := b.st.Unique("turn", r.id+"/turn-1")
	b.emit(first, model.Event{Type: model.TurnStart, RunID: r.id, TurnID: turn, Source: model.SourceRuntime, Inferred: []string{"turn"}})

	var (
		step      string
		stepN     int
		stepOut   model.Outcome
		stepErr   *model.ErrorInfo
		lastTS    = first.ts
		lastMsg   *piMessage
		open      openCalls // tool calls of the step without their result yet
		lastEntry = first
		steers    []string // steer inputs not consumed by a step yet
		cancelled = abortedResults(r.entries)
	)
	endStep := func(e *entry) {
		if step == "" {
			return
		}
		b.emit(e, model.Event{Type: model.StepEnd, TS: lastTS, RunID: r.id, TurnID: turn, StepID: step, Source: model.SourceRuntime, Outcome: stepOut, Error: stepErr})
		step = ""
	}
	for _, e := range r.entries {
		lastEntry = e
		if e.Type != "message" || e.Message == nil {
			continue
		}
		m := e.Message
		switch m.Role {
		case "assistant":
			endStep(e)
			stepN++
			step = b.st.Unique("step", fmt.Sprintf("%s/step-%d", turn, stepN))
			open = openCalls{}
			// the request started when the entry before it was written
			start := lastTS
			b.emit(e, model.Event{Type: model.StepStart, TS: start, RunID: r.id, TurnID: turn, StepID: step, Source: model.SourceRuntime, Consumes: steers, Inferred: []string{"ts"}})
			steers = nil
			call := b.st.Unique("model", step+"/model")
			b.emit(e, model.Event{Type: model.ModelStart, TS: start, RunID: r.id, TurnID: turn, StepID: step, CallID: call, Name: m.Model, Source: model.SourceModel,
				Inferred: []string{"ts"}, Attrs: map[string]any{"provider": m.Provider, "entry": e.ID}})
			out, er := stopOf(m)
			stepOut, stepErr = out, er
			attrs := map[string]any{"stop_reason": m.StopReason}
			if t := m.text(); t != "" {
				attrs["text"] = t
			}
			b.emit(e, model.Event{Type: model.ModelEnd, RunID: r.id, TurnID: turn, StepID: step, CallID: call, Name: m.Model, Source: model.SourceModel,
				Outcome: out, Error: er, Usage: m.usage(), Attrs: attrs})
			if out == model.OutcomeOK {
				for k, c := range m.toolCalls() {
					id, made := callID(b.st, step, c.ID, k+1)
					open.add(c.ID, id)
					a := map[string]any{}
					if len(c.Arguments) > 0 {
						a["args"] = json.RawMessage(c.Arguments)
					}
					inferred := []string{"ts"}
					if made {
						inferred = append(inferred, "ids")
						a["note"] = "the toolCall block has no id: call id made from the step"
					}
					b.emit(e, model.Event{Type: model.ToolStart, RunID: r.id, TurnID: turn, StepID: step, CallID: id, Name: c.Name, Source: model.SourceRuntime,
						Inferred: inferred, Attrs: a})
				}
			}
			lastMsg = m
		case "toolResult":
			id, ok := open.take(m.ToolCallID)
			if !ok || step == "" {
				b.errorf(e.line, "tool result for %q, which no open step requested; ignored", m.ToolCallID)
				break
			}
			ev := model.Event{Type: model.ToolEnd, RunID: r.id, TurnID: turn, StepID: step, CallID: id, Name: m.ToolName, Source: model.SourceTool,
				Outcome: model.OutcomeOK, Attrs: map[string]any{"result": m.text(), "entry": e.ID}}
			switch {
			case cancelled[e]:
				ev.Outcome, ev.Error = model.OutcomeCancelled, &model.ErrorInfo{Kind: "cancelled", Message: m.text()}
				ev.Inferred = []string{"outcome"}
				ev.Attrs["note"] = "the tool was aborted: its error result says so and the run's next model call ended aborted"
			case m.IsError != nil && *m.IsError:
				ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: m.text()}
			}
			b.emit(e, ev)
		case "user":
			if !e.steer {
				b.emit(e, model.Event{Type: model.Message, RunID: r.id, Role: "user", Text: messageText(m), Source: model.SourceClient, Attrs: map[string]any{"entry": e.ID}})
				break
			}
			id := b.st.Unique("input", fmt.Sprintf("%s/input-%d", r.id, stepN*10+len(steers)+1))
			steers = append(steers, id)
			b.emit(e, model.Event{Type: model.Message, RunID: r.id, Role: "user", Text: messageText(m), Source: model.SourceClient, Attrs: map[string]any{"entry": e.ID}})
			b.emit(e, model.Event{Type: model.InputSteer, RunID: r.id, InputID: id, Text: messageText(m), Source: model.SourceClient, Inferred: []string{"kind"},
				Attrs: map[string]any{"entry": e.ID, "note": "a user message right after an unanswered tool result: Pi steering, delivered to the next model call of the run"}})
		default:
			b.emit(e, model.Event{Type: model.Message, RunID: r.id, Role: roleOf(m.Role), Text: messageText(m), Source: model.SourceClient, Attrs: map[string]any{"entry": e.ID}})
		}
		if !e.ts.IsZero() {
			lastTS = e.ts
		}
	}
	pending := open.len() > 0
	done := lastMsg != nil && !pending && lastMsg.StopReason != "toolUse"
	if !done {
		// The run's chain stops before the agent finished (a live run, a crash, or a branch left
		// mid-run): report it open.
		if step != "" && !pending {
			endStep(lastEntry)
		}
		return
	}
	endStep(lastEntry)
	st, sr, er, inf := runEndOf(lastMsg)
	out := model.OutcomeOK
	switch st {
	case model.StatusFailed:
		out = model.OutcomeError
	case model.StatusCancelled:
		out = model.OutcomeCancelled
	}
	b.emit(lastEntry, model.Event{Type: model.TurnEnd, TS: lastTS, RunID: r.id, TurnID: turn, Source: model.SourceRuntime, Outcome: out, StopReason: sr, Error: er, Inferred: []string{"turn"}})
	ev = model.Event{Type: model.RunEnd, TS: lastTS, RunID: r.id, Status: st, StopReason: sr, Error: er, Source: model.SourceRuntime, Inferred: []string{"end"}}
	if inf {
		ev.Inferred = append(ev.Inferred, "status")
	}
	b.emit(lastEntry, ev)
}
