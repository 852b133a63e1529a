package store_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
	"github.com/lifeline-dev/lifeline/tracer/receiver"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

// fixtureRequests reads every OTLP body of testdata/traces/otel-more (the AI SDK's exporter
// output: one body a .otlp.json file, one a line of a .otlp.jsonl file), in file order.
func fixtureRequests(t testing.TB) [][]*collpb.ExportTraceServiceRequest {
	t.Helper()
	names, err := filepath.Glob(fixtureDir + "*.otlp.json*")
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out [][]*collpb.ExportTraceServiceRequest
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		bodies := [][]byte{b}
		if strings.HasSuffix(name, ".jsonl") {
			bodies = bytes.Split(bytes.TrimSpace(b), []byte("\n"))
		}
		var reqs []*collpb.ExportTraceServiceRequest
		for _, body := range bodies {
			req := &collpb.ExportTraceServiceRequest{}
			if err := receiver.UnmarshalJSON(body, req); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			reqs = append(reqs, req)
		}
		out = append(out, reqs)
	}
	return out
}

// spansOf splits requests into one request a span (keeping its resource and scope), in order.
func spansOf(reqs ...*collpb.ExportTraceServiceRequest) []*collpb.ExportTraceServiceRequest {
	var out []*collpb.ExportTraceServiceRequest
	for _, req := range reqs {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					out = append(out, &collpb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
						Resource: rs.Resource, SchemaUrl: rs.SchemaUrl,
						ScopeSpans: []*tracepb.ScopeSpans{{Scope: ss.Scope, SchemaUrl: ss.SchemaUrl, Spans: []*tracepb.Span{sp}}},
					}}})
				}
			}
		}
	}
	return out
}

// join merges requests into one.
func join(reqs []*collpb.ExportTraceServiceRequest) *collpb.ExportTraceServiceRequest {
	out := &collpb.ExportTraceServiceRequest{}
	for _, r := range reqs {
		out.ResourceSpans = append(out.ResourceSpans, r.ResourceSpans...)
	}
	return out
}

// chunks groups one-span requests into batches of n spans.
func chunks(spans []*collpb.ExportTraceServiceRequest, n int) []*collpb.ExportTraceServiceRequest {
	var out []*collpb.ExportTraceServiceRequest
	for len(spans) > 0 {
		k := min(n, len(spans))
		out = append(out, join(spans[:k]))
		spans = spans[k:]
	}
	return out
}

// roundRobin interleaves the lists: one from each in turn.
func roundRobin(lists [][]*collpb.ExportTraceServiceRequest) []*collpb.ExportTraceServiceRequest {
	var out []*collpb.ExportTraceServiceRequest
	for i := 0; ; i++ {
		more := false
		for _, l := range lists {
			if i < len(l) {
				out = append(out, l[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// renamed is a deep copy of reqs whose ids are changed by k: a new run of the same shape, as a
// program run again would send it. Trace and span ids (and parent span ids) are changed in
// their first bytes, and the tool call ids the model gave ("call_…", in attributes and in the
// message texts that quote them) get k in their prefix: the scenario generators' fake model
// numbers its calls the same way in every scenario, which a real model does not.
func renamed(reqs []*collpb.ExportTraceServiceRequest, k int) []*collpb.ExportTraceServiceRequest {
	var out []*collpb.ExportTraceServiceRequest
	flip := func(id []byte) {
		if len(id) >= 2 {
			id[0] ^= byte(k)
			id[1] ^= byte(k >> 8)
		}
	}
	prefix := fmt.Sprintf("call%d_", k)
	var value func(v *commonpb.AnyValue)
	value = func(v *commonpb.AnyValue) {
		switch x := v.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			x.StringValue = strings.ReplaceAll(x.StringValue, "call_", prefix)
		case *commonpb.AnyValue_ArrayValue:
			for _, e := range x.ArrayValue.GetValues() {
				value(e)
			}
		case *commonpb.AnyValue_KvlistValue:
			for _, kv := range x.KvlistValue.GetValues() {
				value(kv.Value)
			}
		}
	}
	for _, r := range reqs {
		c := proto.Clone(r).(*collpb.ExportTraceServiceRequest)
		for _, rs := range c.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					flip(sp.TraceId)
					flip(sp.SpanId)
					flip(sp.ParentSpanId)
					for _, kv := range sp.Attributes {
						value(kv.Value)
					}
					for _, ev := range sp.Events {
						for _, kv := range ev.Attributes {
							value(kv.Value)
						}
					}
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// step is one batch: spans, or canonical event lines.
type step struct {
	spans  *collpb.ExportTraceServiceRequest
	events [][]byte
}

func spanSteps(reqs []*collpb.ExportTraceServiceRequest) []step {
	out := make([]step, len(reqs))
	for i, r := range reqs {
		out[i] = step{spans: r}
	}
	return out
}

// TestIncrementalEqualsFullRead applies batches one at a time and checks, after each, that
// the store's projection (fed only the new records, re-projecting only the sessions they
// touched) is the projection a whole read of the journal gives: the same runs, rows, trees and
// findings; and that reopening the store (the rebuild, one pass over the journal) gives it too.
func TestIncrementalEqualsFullRead(t *testing.T) {
	fx := fixtureRequests(t)
	var bodies []*collpb.ExportTraceServiceRequest
	var perFixture [][]*collpb.ExportTraceServiceRequest
	for i, raw := range fx {
		// the generators' fake id sources repeat ids across scenarios: make each its own
		reqs := renamed(raw, 1000+i)
		bodies = append(bodies, reqs...)
		perFixture = append(perFixture, spansOf(reqs...))
	}
	all := spansOf(bodies...)
	rng := rand.New(rand.NewPCG(1, 2))
	shuffled := append([]*collpb.ExportTraceServiceRequest(nil), all...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	reversed := make([][]*collpb.ExportTraceServiceRequest, len(perFixture))
	for i, l := range perFixture {
		for j := len(l) - 1; j >= 0; j-- {
			reversed[i] = append(reversed[i], l[j])
		}
	}
	var dup []*collpb.ExportTraceServiceRequest
	for _, b := range chunks(roundRobin(perFixture), 3) {
		dup = append(dup, b, b) // an exporter retrying a batch whose answer it lost
	}
	// more than FlushLag spans: the early traces are emitted (sealed) while later ones are
	// still held, and trace ids repeat across copies of the same shapes
	var copies [][]*collpb.ExportTraceServiceRequest
	for k := 1; len(copies) < 3*len(perFixture) || len(copies)*len(all)/len(perFixture) < 3*256; k++ {
		for i, raw := range fx {
			copies = append(copies, spansOf(renamed(raw, 2000+100*k+i)...))
		}
	}
	canon, err := os.ReadFile("../otlp/testdata/openai-agents_01_two_turn_tools.canonical.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	canonLines := bytes.Split(bytes.TrimSpace(canon), []byte("\n"))
	var mixed []step
	for i, b := range chunks(roundRobin(perFixture), 4) {
		mixed = append(mixed, step{spans: b})
		if lo := i * 3; lo < len(canonLines) {
			mixed = append(mixed, step{events: canonLines[lo:min(lo+3, len(canonLines))]})
		}
	}

	// a trace split in two with more than FlushLag spans of other traces between its halves (a
	// Collector sending batches concurrently): its late half re-places into it, and the store
	// ends as a whole read of the same spans with the halves together ends
	var split []*collpb.ExportTraceServiceRequest
	for i, raw := range fx { // every fixture: sessions of one trace and of several (approvals)
		split = append(split, spansOf(renamed(raw, 5000+i)...)...)
	}
	var early, late []*collpb.ExportTraceServiceRequest
	for i, sp := range split {
		if len(sp.ResourceSpans[0].ScopeSpans[0].Spans[0].ParentSpanId) == 0 || i%2 == 1 {
			early = append(early, sp)
		} else {
			late = append(late, sp)
		}
	}
	var between []*collpb.ExportTraceServiceRequest
	for k := 0; len(between) < 2*spantree.FlushLag; k++ {
		for i, raw := range fx {
			between = append(between, spansOf(renamed(raw, 7000+100*k+i)...)...)
		}
	}
	lateSteps := spanSteps(chunks(append(append(append([]*collpb.ExportTraceServiceRequest(nil), early...), between...), late...), 9))
	togetherSteps := spanSteps(chunks(append(append(append([]*collpb.ExportTraceServiceRequest(nil), early...), late...), between...), 9))

	cases := []struct {
		name  string
		steps []step
		// compares is about how many times the case is compared with a whole read (25 when 0)
		compares int
		// together, when set, are the same spans in an order a whole read places them all in:
		// the case ends as their whole read (lines aside) instead of its own journal's
		together []step
	}{
		{"whole bodies", spanSteps(bodies), 0, nil},
		{"a span a batch", spanSteps(all), 0, nil},
		{"interleaved traces", spanSteps(chunks(roundRobin(perFixture), 3)), 0, nil},
		{"roots first, interleaved", spanSteps(chunks(roundRobin(reversed), 2)), 0, nil},
		{"shuffled", spanSteps(chunks(shuffled, 5)), 0, nil},
		{"duplicate batches", spanSteps(dup), 0, nil},
		{"past the flush lag", spanSteps(chunks(roundRobin(copies), 7)), 8, nil},
		{"spans and canonical events", mixed, 0, nil},
		{"late span beyond the lag window", lateSteps, 4, togetherSteps},
	}
	// each case twice: with the store's default, and keeping no sealed event in memory, so that
	// every session projected again or viewed reads its events again from the journal
	for _, keep := range []struct {
		name   string
		events int
	}{{"", 0}, {"/events read again", -1}} {
		for _, c := range cases {
			testIncremental(t, c.name+keep.name, c.steps, c.compares, c.together, store.Options{KeepEvents: keep.events})
		}
	}
}

// testIncremental applies steps one at a time to a store opened with opts and compares its
// projection with a whole read about compares times (25 when 0) and after reopening; together,
// when set, are the same spans in an order a whole read places them all in: the case ends as
// their whole read (lines aside) instead of its own journal's.
func testIncremental(t *testing.T, name string, steps []step, compares int, together []step, opts store.Options) {
	c := struct {
		steps    []step
		compares int
		together []step
	}{steps, compares, together}
	{
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			st, err := store.Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.compares == 0 {
				c.compares = 25
			}
			every := max(1, len(c.steps)/c.compares) // compare often, not at every batch of the long cases
			var want *store.Reference                // the whole read to end as (nil: that of dir's journal)
			if c.together != nil {
				ref := togetherRead(t, c.together)
				want = &ref
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			for i, s := range c.steps {
				if err := st.Append(ctx, store.Batch{Spans: s.spans, Events: s.events}); err != nil {
					t.Fatal(err)
				}
				if c.together != nil && i < len(c.steps)-1 {
					continue // its journal's whole read lacks the late half
				}
				if i%every == 0 || i == len(c.steps)-1 {
					if err := st.Wait(ctx); err != nil {
						t.Fatal(err)
					}
					compareWith(t, dir, want, st, i)
				}
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			// a record torn by a crash (never acknowledged) and no index: reopening cuts the
			// record and rebuilds the projection and the index from the journal in one pass
			tearJournal(t, dir)
			st2, err := store.Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer st2.Close()
			compareWith(t, dir, want, st2, -1)
			rows, err := st2.Runs(store.Query{Limit: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(st2.Rows()) || len(rows) == 0 {
				t.Fatalf("index has %d rows, the projection %d", len(rows), len(st2.Rows()))
			}
		})
	}
}

// togetherRead is the whole read of a journal of steps, with the source lines (and journal
// paths) of its events left out (the same spans at other lines of another directory).
func togetherRead(t *testing.T, steps []step) store.Reference {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if err := st.Append(context.Background(), store.Batch{Spans: s.spans, Events: s.events}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ref, err := store.FullRead(dir)
	if err != nil {
		t.Fatal(err)
	}
	return unlined(ref)
}

var lineField = regexp.MustCompile(`"line":[0-9]+,?|"file":"[^"]*",?`)

// unlined is ref without the source lines and files in its trees and findings.
func unlined(ref store.Reference) store.Reference {
	for id, s := range ref.Trees {
		ref.Trees[id] = lineField.ReplaceAllString(s, "")
	}
	for id, s := range ref.Findings {
		ref.Findings[id] = lineField.ReplaceAllString(s, "")
	}
	return ref
}

// compareWith checks the store's projection against want, or a whole read of dir's journal
// when want is nil (lines aside when want is given).
func compareWith(t *testing.T, dir string, wantRef *store.Reference, st *store.Store, batch int) {
	t.Helper()
	var want store.Reference
	var err error
	got := st.Snapshot()
	if wantRef != nil {
		want, got = *wantRef, unlined(got)
	} else if want, err = store.FullRead(dir); err != nil {
		t.Fatal(err)
	}
	where := "after batch " + itoa(batch)
	if batch < 0 {
		where = "after reopening"
	}
	if len(got.Rows) != len(want.Rows) {
		var extra []string
		for id, r := range want.Rows {
			if _, ok := got.Rows[id]; !ok {
				extra = append(extra, fmt.Sprintf("%+v", r))
			}
		}
		for id, r := range got.Rows {
			if _, ok := want.Rows[id]; !ok {
				extra = append(extra, fmt.Sprintf("only here: %+v", r))
			}
		}
		for _, r := range got.Rows {
			if want.Rows[r.RunID].SessionID == "" {
				extra = append(extra, fmt.Sprintf("here: %+v", r))
			}
		}
		t.Fatalf("%s: %d runs, a whole read has %d: %s", where, len(got.Rows), len(want.Rows), strings.Join(extra, "\n"))
	}
	for id, w := range want.Rows {
		g, ok := got.Rows[id]
		if !ok {
			t.Fatalf("%s: run %s missing", where, id)
		}
		if g != w {
			t.Fatalf("%s: run %s row\n%+v\nwhole read\n%+v\nfindings %s\nwhole read %s", where, id, g, w, got.Findings[id], want.Findings[id])
		}
		if got.Trees[id] != want.Trees[id] {
			t.Fatalf("%s: run %s tree\n%s\nwhole read\n%s", where, id, got.Trees[id], want.Trees[id])
		}
		if got.Findings[id] != want.Findings[id] {
			t.Fatalf("%s: run %s findings\n%s\nwhole read\n%s", where, id, got.Findings[id], want.Findings[id])
		}
	}
	// rows in the index are those of the projection
	rows, err := st.Runs(store.Query{Limit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want.Rows) {
		t.Fatalf("%s: the index has %d runs, want %d", where, len(rows), len(want.Rows))
	}
	for _, r := range rows {
		w := want.Rows[r.RunID]
		w.Start, r.Start = w.Start.UTC(), r.Start.UTC()
		if r != w {
			t.Fatalf("%s: index row %+v, want %+v", where, r, w)
		}
	}
}

// TestWorkFlat measures what a batch costs in units that do not depend on the machine — the
// sessions re-projected, the events they are re-projected from, the spans of the traces still
// held — on stores holding 50, 400 and 1600 runs, and wants the same figures at every size: a
// batch re-projects only what it touched (the old store re-read the whole journal at each one).
func TestWorkFlat(t *testing.T) {
	body, _ := readFixture(t, "vercel-ai_03_parallel_tools")
	req := &collpb.ExportTraceServiceRequest{}
	if err := receiver.UnmarshalJSON(body, req); err != nil {
		t.Fatal(err)
	}
	sizes := []int{50, 400, 1600}
	var first []store.Work
	for _, n := range sizes {
		dir := t.TempDir()
		var journal []byte
		for k := range n {
			line, err := store.AppendJSON(nil, renamed([]*collpb.ExportTraceServiceRequest{req}, 3000+k)[0])
			if err != nil {
				t.Fatal(err)
			}
			journal = append(append(journal, line...), '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, store.SpansFile), journal, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(dir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Counters().Runs; got != n {
			st.Close()
			t.Fatalf("%d runs stored: reopened with %d", n, got)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		// a new run, a span a batch, as a BatchSpanProcessor exporting at once sends it
		var works []store.Work
		for _, one := range spansOf(renamed([]*collpb.ExportTraceServiceRequest{req}, 60000)...) {
			if err := st.Append(ctx, store.Batch{Spans: one}); err != nil {
				t.Fatal(err)
			}
			if err := st.Wait(ctx); err != nil {
				t.Fatal(err)
			}
			works = append(works, st.Work())
		}
		cancel()
		if got := st.Counters().Runs; got != n+1 {
			t.Fatalf("%d runs stored and one sent: %d", n, got)
		}
		st.Close()
		if first == nil {
			first = works
			t.Logf("work per batch (one span each): %+v", works)
			continue
		}
		for i := range works {
			if works[i] != first[i] {
				t.Fatalf("batch %d on a store of %d runs: %+v; on one of %d: %+v (the work grew with the store)", i, n, works[i], sizes[0], first[i])
			}
		}
	}
}

// TestKeptEventsBounded sends more runs than the store keeps sealed events of and checks that
// the events held in memory stay within Options.KeepEvents after every batch (the store read
// from its journal, and reopened), while every run's tree is still the whole read's: a
// session's dropped events are read again from the journal when its page is shown.
func TestKeptEventsBounded(t *testing.T) {
	body, _ := readFixture(t, "vercel-ai_03_parallel_tools")
	req := &collpb.ExportTraceServiceRequest{}
	if err := receiver.UnmarshalJSON(body, req); err != nil {
		t.Fatal(err)
	}
	const keep, runs = 40, 120
	dir := t.TempDir()
	st, err := store.Open(dir, store.Options{KeepEvents: keep})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	most := 0
	for k := range runs {
		// two runs a batch, each in a session of its own
		b := join(append(renamed([]*collpb.ExportTraceServiceRequest{req}, 8000+2*k), renamed([]*collpb.ExportTraceServiceRequest{req}, 8001+2*k)...))
		if err := st.Append(ctx, store.Batch{Spans: b}); err != nil {
			t.Fatal(err)
		}
		if err := st.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		n := st.KeptEvents()
		if n > keep {
			t.Fatalf("after batch %d: %d sealed events in memory, more than the %d kept", k, n, keep)
		}
		most = max(most, n)
	}
	if most == 0 {
		t.Fatalf("no sealed event was ever kept: the runs were not sealed, the bound was not tested")
	}
	// pages read dropped sessions again from the journal at the same time, and while a batch
	// is projected (go test -race checks they share nothing)
	rows := st.Rows()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(rows); i += 4 {
				if tree, _, ok := st.RunTree(rows[i].RunID); !ok || len(tree.Sessions) != 1 {
					t.Errorf("run %s: no tree", rows[i].RunID)
					return
				}
			}
		}()
	}
	if err := st.Append(ctx, store.Batch{Spans: renamed([]*collpb.ExportTraceServiceRequest{req}, 8000+2*runs)[0]}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := st.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	compareWith(t, dir, nil, st, runs)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st2, err := store.Open(dir, store.Options{KeepEvents: keep})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if n := st2.KeptEvents(); n > keep {
		t.Fatalf("reopened: %d sealed events in memory, more than the %d kept", n, keep)
	}
	compareWith(t, dir, nil, st2, -1)
}

// TestReopenLongRecords reopens a journal whose records are longer than the buffer the store
// reads it through a line at a time (a 3 MB tool result in one of them) and cut short by a
// crash at its end, and wants the projection of a whole read, and the spans counted.
func TestReopenLongRecords(t *testing.T) {
	body, _ := readFixture(t, "vercel-ai_03_parallel_tools")
	req := &collpb.ExportTraceServiceRequest{}
	if err := receiver.UnmarshalJSON(body, req); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("0123456789abcdef", 3<<16) // 3 MB
	var journal []byte
	spans := 0
	for k := range 3 {
		r := renamed([]*collpb.ExportTraceServiceRequest{req}, 9000+k)[0]
		for _, rs := range r.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				spans += len(ss.Spans)
				if k == 1 {
					ss.Spans[0].Attributes = append(ss.Spans[0].Attributes, &commonpb.KeyValue{Key: "ai.toolCall.result", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: big}}})
				}
			}
		}
		line, err := store.AppendJSON(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		journal = append(append(journal, line...), '\n')
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, store.SpansFile), journal, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, store.IndexFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tearJournal(t, dir)
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got := st.Counters().Spans; got != int64(spans) {
		t.Errorf("reopened with %d spans, the journal has %d", got, spans)
	}
	if got := st.Counters().Runs; got != 3 {
		t.Errorf("reopened with %d runs, want 3", got)
	}
	compareWith(t, dir, nil, st, -1)
}
