package otlp

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// The Vercel AI SDK (npm "ai", experimental_telemetry) names its spans after the operation and
// records it in ai.operationId (tracer name "ai"):
//
//	ai.generateText / ai.streamText            one call of the tool loop (stopWhen): an agent
//	  ai.generateText.doGenerate / ai.streamText.doStream   one provider request per step
//	  ai.toolCall                              one tool execution (ai.toolCall.name/.id/.args/.result)
//
// generateText's ai.toolCall spans are siblings of the doGenerate span that requested them;
// streamText's are children of the doStream span. The requested calls are in
// ai.response.toolCalls (a JSON array of {toolCallId, toolName, input}); the loop's last finish
// reason is ai.response.finishReason on the top span. generateObject/streamObject (no tool loop)
// and embed/embedMany have no layer of their own; their doGenerate/doStream is a model call.

// aiSDKOperation returns a span's AI SDK operation id: ai.operationId, else the span name when
// the instrumentation scope is the SDK's tracer "ai".
func aiSDKOperation(a attrSet, name, scope string) string {
	if op := str(a, "ai.operationId"); op != "" {
		return op
	}
	if scope == "ai" && strings.HasPrefix(name, "ai.") {
		return name
	}
	return ""
}

// aiSDKLayer maps an AI SDK operation id to a lifecycle layer.
func aiSDKLayer(op string) spantree.Layer {
	switch {
	case op == "ai.generateText" || op == "ai.streamText":
		return spantree.Agent
	case op == "ai.toolCall":
		return spantree.Tool
	case strings.HasPrefix(op, "ai.") && (strings.HasSuffix(op, ".doGenerate") || strings.HasSuffix(op, ".doStream")):
		return spantree.Model
	}
	return spantree.Other
}

// endStop is the stop reason an agent loop span that ended without an error implies by its last
// finish reason — the AI SDK's ai.response.finishReason on ai.generateText/ai.streamText (aiOp),
// or gen_ai.response.finish_reasons on a GenAI invoke_agent/invoke_workflow span (genaiOp), which
// @ai-sdk/otel sets to the loop's last one. "tool-calls" means the loop stopped after executing
// tool calls, before a final answer — its step bound (AI SDK stopWhen, stepCountIs(1) by
// default) — so max_steps; "length" is the model's output token limit (other:max_tokens);
// "content-filter" a provider-side guardrail. Any other reason (stop) is a normal end. The
// Builder applies it only when every requested call of the last step ran (otherwise the run is
// waiting for approval).
func endStop(aiOp, genaiOp, finish string) model.StopReason {
	if aiOp != "ai.generateText" && aiOp != "ai.streamText" && genaiOp != "invoke_agent" && genaiOp != "invoke_workflow" {
		return ""
	}
	switch strings.ReplaceAll(strings.ToLower(finish), "_", "-") {
	case "tool-calls":
		return model.StopMaxSteps
	case "length", "max-tokens":
		return "other:max_tokens"
	case "content-filter":
		return model.StopGuardrail
	}
	return ""
}

// aiSDKRequests reads the tool calls an AI SDK model call asked for from ai.response.toolCalls.
func aiSDKRequests(a attrSet) []spantree.Request {
	s, ok := a.val("ai.response.toolCalls").(string)
	if !ok || s == "" {
		return nil
	}
	var calls []struct {
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
	}
	if json.Unmarshal([]byte(s), &calls) != nil {
		return nil
	}
	out := make([]spantree.Request, 0, len(calls))
	for _, c := range calls {
		out = append(out, spantree.Request{ID: c.ToolCallID, Name: c.ToolName})
	}
	return out
}

// aiSDKAnswers reads the approval answers in an AI SDK call's prompt (ai.prompt on
// ai.generateText/ai.streamText: {"messages":[…]}): each tool-approval-response part
// {approvalId, approved} answers the tool-approval-request part with that approvalId, which
// names the tool call (toolCallId). The call that carries them continues a run that waited for
// approval (AI SDK 6 tool needsApproval).
func aiSDKAnswers(a attrSet) []spantree.Answer {
	s, ok := a.val("ai.prompt").(string)
	if !ok || !strings.Contains(s, "tool-approval-response") {
		return nil
	}
	var p struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal([]byte(s), &p) != nil {
		return nil
	}
	type part struct {
		Type       string `json:"type"`
		ApprovalID string `json:"approvalId"`
		ToolCallID string `json:"toolCallId"`
		Approved   *bool  `json:"approved"`
	}
	callOf := map[string]string{}
	var answers []part
	for _, m := range p.Messages {
		var parts []part
		if json.Unmarshal(m.Content, &parts) != nil {
			continue
		}
		for _, x := range parts {
			switch x.Type {
			case "tool-approval-request":
				callOf[x.ApprovalID] = x.ToolCallID
			case "tool-approval-response":
				answers = append(answers, x)
			}
		}
	}
	var out []spantree.Answer
	for _, x := range answers {
		if id := callOf[x.ApprovalID]; id != "" && x.Approved != nil {
			out = append(out, spantree.Answer{CallID: id, Approved: *x.Approved})
		}
	}
	return out
}

// genAIAnswers reads the approval answers in a GenAI model call's input messages (the AI SDK 7
// @ai-sdk/otel integration): when the input holds a tool-approval-response part, each
// tool_call_response part answers its call, denied when its response says {"denied": true} (the
// call never ran), approved otherwise.
func genAIAnswers(a attrSet) []spantree.Answer {
	s, ok := a.val("gen_ai.input.messages").(string)
	if !ok || !strings.Contains(s, "tool-approval-response") {
		return nil
	}
	var msgs []struct {
		Parts []struct {
			Type     string          `json:"type"`
			ID       string          `json:"id"`
			Response json.RawMessage `json:"response"`
		} `json:"parts"`
	}
	if json.Unmarshal([]byte(s), &msgs) != nil {
		return nil
	}
	var out []spantree.Answer
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type != "tool_call_response" || p.ID == "" {
				continue
			}
			var r struct {
				Denied bool `json:"denied"`
			}
			_ = json.Unmarshal(p.Response, &r)
			out = append(out, spantree.Answer{CallID: p.ID, Approved: !r.Denied})
		}
	}
	return out
}

// keepAISDK says whether an ai.* attribute is needed; prompts, response texts and provider
// metadata are skipped without decoding.
func keepAISDK(k []byte) bool {
	if bytes.HasPrefix(k, []byte("ai.usage.")) {
		return true
	}
	switch string(k) {
	case "ai.prompt", "ai.prompt.messages", "ai.response.text": // payloads (ai.prompt also for aiSDKAnswers)
		return true
	case "ai.operationId", "ai.telemetry.functionId", "ai.telemetry.metadata.sessionId", "ai.model.id", "ai.response.model",
		"ai.response.finishReason", "ai.response.toolCalls", "ai.toolCall.name", "ai.toolCall.id", "ai.toolCall.args",
		"ai.toolCall.result":
		return true
	}
	return false
}
