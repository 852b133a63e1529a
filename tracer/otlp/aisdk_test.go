package otlp_test

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

const aiTrace = "7725d21fb3c620e90860ab29a419d2aa"

// aiSpan builds one AI SDK span (ai.operationId = op) as a file-exporter line.
func aiSpan(id, parent, op string, start, end int64, attrs ...string) string {
	return span(aiTrace, id, parent, op, start, end, strings.Join(append([]string{kv("ai.operationId", op)}, attrs...), ","))
}

// TestAISDKAwaitingApproval: a loop that ends on finishReason tool-calls whose requested call
// never ran (a tool without execute, or one needing approval) is waiting for approval, not at
// its step bound.
func TestAISDKAwaitingApproval(t *testing.T) {
	in := []string{
		aiSpan("0000000000000002", "0000000000000001", "ai.generateText.doGenerate", 1785157563000000000, 1785157563100000000,
			kv("ai.response.finishReason", "tool-calls"), kv("ai.response.toolCalls", `[{"toolCallId":"call_1","toolName":"delete_file","input":"{}"}]`)),
		aiSpan("0000000000000001", "", "ai.generateText", 1785157562900000000, 1785157563200000000,
			kv("ai.response.finishReason", "tool-calls"), kv("ai.telemetry.functionId", "files")),
	}
	evs, errs := decodeString(t, strings.Join(in, "\n")+"\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := model.Project(evs).Sessions[0].Runs[0]
	if r.Status != model.StatusWaiting || r.StopReason != model.StopAwaitingApproval || r.Agent != "files" {
		t.Errorf("run %s/%s agent %q, want waiting/awaiting_approval, agent files", r.Status, r.StopReason, r.Agent)
	}
	assertClean(t, evs)
}

// TestAISDKRetryAfterCancel: a model call after a cancelled one is not a retry of it (a new
// step), while one after a failed call with no tool call between is (same step, attempt 2).
func TestAISDKRetryAfterCancel(t *testing.T) {
	errStatus := func(s, msg string) string {
		return strings.Replace(s, `"status":{}`, `"status":{"code":2,"message":"`+msg+`"}`, 1)
	}
	in := []string{
		errStatus(aiSpan("0000000000000002", "0000000000000001", "ai.generateText.doGenerate", 1785157563000000000, 1785157563100000000), "500 server error"),
		aiSpan("0000000000000003", "0000000000000001", "ai.generateText.doGenerate", 1785157563200000000, 1785157563300000000,
			kv("ai.response.finishReason", "stop")),
		aiSpan("0000000000000001", "", "ai.generateText", 1785157562900000000, 1785157563400000000, kv("ai.response.finishReason", "stop")),
	}
	evs, errs := decodeString(t, strings.Join(in, "\n")+"\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tree := model.Project(evs)
	if s := tree.Summarize(); s.Steps != 1 || s.ModelCalls != 2 {
		t.Errorf("summary %+v, want 1 step with 2 model calls (a retried request)", s)
	}
	r := tree.Sessions[0].Runs[0]
	if r.Status != model.StatusCompleted {
		t.Errorf("run %s/%s, want completed (the retry succeeded)", r.Status, r.StopReason)
	}
	assertClean(t, evs)

	in[0] = strings.Replace(in[0], "500 server error", "This operation was aborted", 1)
	evs, _ = decodeString(t, strings.Join(in, "\n")+"\n")
	if s := model.Project(evs).Summarize(); s.Steps != 2 {
		t.Errorf("summary %+v, want 2 steps (a call after a cancelled one is not a retry)", s)
	}
}

// TestAISDKApprovalResume: an AI SDK tool approval is two generateText calls, two traces. The
// second (its prompt answers the approval request; when approved it runs the call) is a resume
// of the waiting run: one session, run 2 kind resume with parent run 1, which stays waiting with
// its approval answered. Real ai 6 / ai 7 fixtures of testdata/traces/otel-more (gen_approval.mjs).
func TestAISDKApprovalResume(t *testing.T) {
	for _, tt := range []struct {
		file string
		want model.Decision
	}{
		{"vercel-ai_10_approval_approve.otlp.jsonl", model.DecisionApproved},
		{"vercel-ai_11_approval_reject.otlp.jsonl", model.DecisionDenied},
		{"vercel-ai_12_approval_session.otlp.jsonl", model.DecisionApproved},
		{"vercel-ai-v7-genai_04_approval_approve.otlp.jsonl", model.DecisionApproved},
		{"vercel-ai-v7-genai_05_approval_reject.otlp.jsonl", model.DecisionDenied},
		{"vercel-ai_14_approval_new_process.otlp.jsonl", model.DecisionApproved},
		{"vercel-ai_15_reject_new_process.otlp.jsonl", model.DecisionDenied},
	} {
		t.Run(tt.file, func(t *testing.T) {
			evs, _ := read(t, "", "../../testdata/traces/otel-more/"+tt.file)
			tree := model.Project(evs)
			if len(tree.Sessions) != 1 || len(tree.Sessions[0].Runs) != 2 {
				t.Fatalf("%d sessions, want 1 with 2 runs", len(tree.Sessions))
			}
			r1, r2 := tree.Sessions[0].Runs[0], tree.Sessions[0].Runs[1]
			if r1.Status != model.StatusWaiting || r2.Kind != "resume" || r2.ParentRunID != r1.ID {
				t.Errorf("run 1 %s, run 2 kind %q parent %q; want run 1 waiting, run 2 a resume of it", r1.Status, r2.Kind, r2.ParentRunID)
			}
			var answered []model.Decision
			for _, w := range r1.Waits {
				if w.CallID != "" {
					answered = append(answered, w.Decision)
				}
			}
			if len(answered) != 1 || answered[0] != tt.want {
				t.Errorf("run 1 approval waits answered %v, want one %s", answered, tt.want)
			}
			assertClean(t, evs)
		})
	}
}
