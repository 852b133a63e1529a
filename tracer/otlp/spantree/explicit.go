package spantree

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// ctx carries the ids a span inherits from its explicit ancestors.
type ctx struct {
	session, run, turn, step string
}

// emitExplicit rebuilds a trace written by lifeline (spans carrying lifeline.layer and the
// canonical ids) exactly: one node per span, ids and facts from the lifeline.* attributes, span
// events replayed as the canonical events they name.
func (b *Builder) emitExplicit(t *trace, spans []*Span) {
	tops, kids := b.tree(t, spans)
	c := ctx{session: t.session}
	for _, sp := range tops {
		b.explicitNode(sp, kids, c)
	}
}

func (b *Builder) explicitNode(sp *Span, kids map[*Span][]*Span, c ctx) {
	x := sp.Explicit
	if x == nil {
		x = &Explicit{}
	}
	if x.SessionID != "" {
		c.session = x.SessionID
	}
	if c.session == "" {
		c.session = sp.Session
	}
	if c.session == "" {
		c.session = sp.TraceID
	}
	if c.session == "" {
		c.session = sp.ID
	}
	origin := &model.Origin{File: sp.File, Line: sp.Line}
	mk := func(typ model.EventType, ts time.Time) *model.Event {
		e := &model.Event{Type: typ, SessionID: c.session, RunID: c.run, TurnID: c.turn, StepID: c.step, TS: ts, Origin: origin, Source: model.SourceRuntime}
		if ts.IsZero() {
			e.TS = time.Time{}
		}
		return e
	}
	var start, end *model.Event
	layer := sp.Layer
	if sp.Explicit == nil {
		layer = Other
	}
	switch layer {
	case Session:
		b.startSession(c.session, sp.Start, origin, x.Inferred)
		if sp.Ended && !x.Open {
			end = mk(model.SessionEnd, sp.End)
		}
	case Run:
		if x.RunID != "" {
			c.run = x.RunID
		}
		b.startSession(c.session, sp.Start, origin, []string{"session"})
		start = mk(model.RunStart, sp.Start)
		start.RunID, start.ParentRunID, start.Attempt, start.Kind, start.Name, start.AgentVersion = c.run, x.ParentRunID, x.Attempt, x.Kind, sp.Agent, x.AgentVersion
		if !x.Queued.IsZero() {
			q := *start
			q.Type, q.TS = model.RunQueued, x.Queued
			b.em.Emit(&q)
		}
		if sp.Ended && !x.Open && x.Status.Terminal() {
			end = mk(model.RunEnd, sp.End)
			end.Status, end.StopReason, end.Error, end.Cause = x.Status, x.StopReason, sp.Err, x.Cause
		}
	case Turn:
		if x.TurnID != "" {
			c.turn = x.TurnID
		}
		start = mk(model.TurnStart, sp.Start)
		if sp.Ended && !x.Open {
			end = mk(model.TurnEnd, sp.End)
			end.Outcome, end.StopReason, end.Error = x.Outcome, x.StopReason, sp.Err
		}
	case Step:
		if x.StepID != "" {
			c.step = x.StepID
		}
		start = mk(model.StepStart, sp.Start)
		if sp.Ended && !x.Open {
			end = mk(model.StepEnd, sp.End)
			end.Outcome, end.Error = x.Outcome, sp.Err
		}
	case Model, Tool:
		typ, etyp, src, name := model.ModelStart, model.ModelEnd, model.SourceModel, sp.Model
		if layer == Tool {
			typ, etyp, src, name = model.ToolStart, model.ToolEnd, model.SourceTool, sp.Tool
		}
		id := x.CallID
		if id == "" {
			id = sp.ID
		}
		start = mk(typ, sp.Start)
		start.CallID, start.Name, start.Source = id, name, src
		start.SideEffect, start.IdempotencyKey = x.SideEffect, x.IdempotencyKey
		if sp.Ended && !x.Open {
			end = mk(etyp, sp.End)
			end.CallID, end.Name, end.Source, end.Outcome, end.Error, end.Usage = id, name, src, x.Outcome, sp.Err, sp.Usage
			end.Attrs = x.Attrs
		} else {
			start.Attrs = x.Attrs
		}
	}
	if start != nil {
		start.Inferred = x.Inferred
		b.em.Emit(start)
	}
	// children and span events, in time order
	type item struct {
		sp *Span
		ev *SpanEvent
		ts time.Time
		o  int
	}
	var items []item
	for i, k := range kids[sp] {
		items = append(items, item{sp: k, ts: k.Start, o: i})
	}
	for i := range sp.Events {
		items = append(items, item{ev: &sp.Events[i], ts: sp.Events[i].TS, o: len(items) + i})
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if !a.ts.IsZero() && !b.ts.IsZero() && !a.ts.Equal(b.ts) {
			return a.ts.Before(b.ts)
		}
		return false
	})
	for _, it := range items {
		if it.sp != nil {
			b.explicitNode(it.sp, kids, c)
			continue
		}
		if e := spanEvent(it.ev, c, origin); e != nil {
			b.em.Emit(e)
		}
	}
	if end != nil {
		b.em.Emit(end)
	}
}

// spanEvent turns a span event that names a canonical event type back into that event: from the
// full event in attribute lifeline.event when present, else from the name and the context ids.
func spanEvent(se *SpanEvent, c ctx, origin *model.Origin) *model.Event {
	typ := model.EventType(se.Name)
	if !typ.Valid() {
		return nil
	}
	var e model.Event
	if raw, ok := se.Attrs["lifeline.event"].(string); ok {
		if json.Unmarshal([]byte(raw), &e) != nil {
			return nil
		}
		e.Seq = 0
	}
	e.Type = typ
	if e.SessionID == "" {
		e.SessionID = c.session
	}
	if e.RunID == "" {
		e.RunID = c.run
	}
	if e.TurnID == "" && typ != model.RunStatusChange && typ != model.RunEnd {
		e.TurnID = c.turn
	}
	if e.TS.IsZero() {
		e.TS = se.TS
	}
	if e.Origin == nil || e.Origin.Line == 0 {
		e.Origin = origin
	}
	if e.Source == "" {
		e.Source = model.SourceRuntime
	}
	return &e
}
