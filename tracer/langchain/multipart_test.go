package langchain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

const astreamSamples = "../../testdata/samples-py/langgraph-astream/"

// TestMultipartSamples reads the run trees and the bodies langsmith 0.15's Client POSTs to /runs/multipart
// (captured by a local server in testdata/samples-py/langgraph-astream/gen.py; resumes ran in a
// second process from a SQLite checkpointer): counts, statuses and stop reasons are the truth the
// generator observed, and a resume is a resume run of the waiting one.
func TestMultipartSamples(t *testing.T) {
	n := tracertest.EachViewWith(t, astreamSamples+"*.expected.json", []string{".langsmith_multipart", ".run_tree.json"}, func(t *testing.T, v tracertest.View) {
		dec := DecodeRuns
		if strings.HasSuffix(v.Path, ".langsmith_multipart") {
			if DetectMultipart(v.Data) == 0 {
				t.Fatal("not detected")
			}
			dec = DecodeMultipart
		}
		evs := tracertest.DecodeClean(t, dec, filepath.Base(v.Path), v.Data)
		assertResumes(t, tracertest.AssertTree(t, evs, v.Want))
	})
	if n < 22 {
		t.Fatalf("only %d views", n)
	}
}

// mpBody is one multipart body with the given parts (name, JSON content).
func mpBody(boundary string, parts ...[2]string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + p[0] + "\"\r\nContent-Type: application/json\r\n\r\n" + p[1] + "\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.String()
}

// TestMultipartShapes: post then patch in two bodies (different boundaries) merge into one run;
// field parts join their run; attachment parts are skipped; a bad part is reported with its line
// and the rest is read.
func TestMultipartShapes(t *testing.T) {
	const root = "00000000-0000-4000-8000-000000000001"
	const llm = "00000000-0000-4000-8000-000000000002"
	in := mpBody("b1",
		[2]string{"post." + root, `{"id":"` + root + `","name":"g","run_type":"chain","trace_id":"` + root + `","dotted_order":"20260101T000000000000Z` + root + `","start_time":"2026-01-01T00:00:00+00:00"}`},
		[2]string{"post." + root + ".extra", `{"metadata":{"thread_id":"t1"}}`},
		[2]string{"post." + llm, `{"id":"` + llm + `","name":"m","run_type":"llm","trace_id":"` + root + `","parent_run_id":"` + root + `","dotted_order":"x","start_time":"2026-01-01T00:00:01+00:00","end_time":"2026-01-01T00:00:02+00:00"}`},
		[2]string{"attachment." + llm + ".img", `not json`},
	) + mpBody("b2",
		[2]string{"patch." + root, `{"id":"` + root + `","trace_id":"` + root + `","end_time":"2026-01-01T00:00:03+00:00"}`},
		[2]string{"patch." + root + ".outputs", `{"messages":[]}`},
		[2]string{"patch." + root + ".error", `{bad`},
	)
	evs, errs := tracertest.Decode(t, DecodeMultipart, "mp.multipart", []byte(in))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "mp.multipart:") || !strings.Contains(errs[0].Error(), "not JSON") {
		t.Errorf("errors %v, want one: the bad error part", errs)
	}
	tree := model.Project(evs)
	s := tree.Summarize()
	if s.Sessions != 1 || s.Runs != 1 || s.ModelCalls != 1 || tree.Sessions[0].ID != "t1" || tree.Sessions[0].Runs[0].Status != model.StatusCompleted {
		t.Errorf("%+v session %q, want one completed run with one model call in session t1", s, tree.Sessions[0].ID)
	}
	tracertest.AssertClean(t, evs)
}

// TestMultipartMalformed: lines outside any body and parts without a name are errors with their
// line; a torn body still yields the runs read.
func TestMultipartMalformed(t *testing.T) {
	_, errs := tracertest.Decode(t, DecodeMultipart, "m.multipart", []byte("hello\n"))
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "m.multipart:1") || !strings.Contains(errs[0].Error(), "boundary") {
		t.Errorf("errors %v, want m.multipart:1 … boundary", errs)
	}
	_, errs = tracertest.Decode(t, DecodeMultipart, "m.multipart", []byte("--b\r\n{}\r\n--b--\r\n"))
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "m.multipart:2") {
		t.Errorf("errors %v, want m.multipart:2 … no name", errs)
	}
	b, err := os.ReadFile(astreamSamples + "01_multi_step_tools.langsmith_multipart")
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := tracertest.Decode(t, DecodeMultipart, "torn.multipart", b[:len(b)/2])
	if s := model.Project(evs).Summarize(); s.Runs == 0 {
		t.Errorf("torn body: %+v, want the runs read", s)
	}
}

func FuzzDecodeMultipart(f *testing.F) {
	tracertest.FuzzSeeds(f, astreamSamples+"0[47]_*.langsmith_multipart", 3000)
	f.Add([]byte(mpBody("b", [2]string{"post.x", `{"id":"x","run_type":"chain"}`})))
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, DecodeMultipart, "fuzz.multipart", b)
		DetectMultipart(b)
	})
}

// TestMultipartGzip: the langsmith JS Client gzips its bodies when the server announces
// gzip_body_enabled (testdata/traces/langgraph/16_gzip_interrupt_approve, kept as sent): they are
// detected and read decompressed; a torn gzip stream is reported and what decompressed is read.
func TestMultipartGzip(t *testing.T) {
	b, err := os.ReadFile("../../testdata/traces/langgraph/16_gzip_interrupt_approve.langsmith_multipart")
	if err != nil {
		t.Fatal(err)
	}
	if DetectMultipart(b) == 0 {
		t.Fatal("gzip body not detected")
	}
	evs := tracertest.DecodeClean(t, DecodeMultipart, "gz.multipart", b)
	if s := model.Project(evs).Summarize(); s.Runs != 2 || s.ModelCalls != 2 {
		t.Errorf("%+v, want the 2 runs and 2 model calls of the execution", s)
	}
	_, errs := tracertest.Decode(t, DecodeMultipart, "torn.multipart", b[:len(b)*2/3])
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "gzip") {
		t.Errorf("errors %v, want one about the torn gzip stream", errs)
	}
}
