package otlp

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

func str(m attrSet, keys ...string) string {
	for _, k := range keys {
		switch v := m.val(k).(type) {
		case string:
			if v != "" {
				return v
			}
		case int64:
			return strconv.FormatInt(v, 10)
		case float64:
			return strconv.FormatFloat(v, 'g', -1, 64)
		case bool:
			return strconv.FormatBool(v)
		}
	}
	return ""
}

func num(m attrSet, keys ...string) (int64, bool) {
	for _, k := range keys {
		switch v := m.val(k).(type) {
		case int64:
			return v, true
		case float64:
			return int64(v), true
		case string:
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

func flo(m attrSet, k string) float64 {
	switch v := m.val(k).(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	case string:
		f, _ := strconv.ParseFloat(v, 64)
		return f
	}
	return 0
}

func strs(v any) []string {
	switch x := v.(type) {
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		var list []string
		if json.Unmarshal([]byte(x), &list) == nil {
			return list
		}
		return []string{x}
	}
	return nil
}

// attrSet is a span's attributes with the key families (conventions) found among them: classify
// looks up many keys of many conventions, and a key of a family the span has none of is
// skipped without touching the map.
type attrSet struct {
	m   map[string]any
	fam uint8
}

// Key families of attrSet.
const (
	famGenAI    = 1 << iota // gen_ai.*
	famLifeline             // lifeline.*
	famAISDK                // ai.* (Vercel AI SDK)
	famLangfuse             // langfuse.*
	famOther                // OpenInference and everything else
)

func family(k string) uint8 {
	if len(k) < 3 {
		return famOther
	}
	switch k[0] { // the first byte picks the one prefix to compare
	case 'g':
		if strings.HasPrefix(k, "gen_ai.") {
			return famGenAI
		}
	case 'l':
		if strings.HasPrefix(k, "lifeline.") {
			return famLifeline
		}
		if strings.HasPrefix(k, "langfuse.") {
			return famLangfuse
		}
	case 'a':
		if k[1] == 'i' && k[2] == '.' {
			return famAISDK
		}
	}
	return famOther
}

func newAttrSet(m map[string]any) attrSet {
	a := attrSet{m: m}
	for k := range m {
		a.fam |= family(k)
	}
	return a
}

// get returns the value of key k and whether the span has it.
func (a attrSet) get(k string) (any, bool) {
	if a.fam&family(k) == 0 {
		return nil, false
	}
	v, ok := a.m[k]
	return v, ok
}

// val returns the value of key k, nil when the span has none.
func (a attrSet) val(k string) any {
	v, _ := a.get(k)
	return v
}

func sessionOf(attrs attrSet) string {
	return str(attrs, "lifeline.session_id", "gen_ai.conversation.id", "session.id", "langfuse.session.id", "ai.telemetry.metadata.sessionId")
}

// classify turns a raw span into a compact span record with its lifecycle layer.
func classify(s *raw, scope, resSession string) *spantree.Span {
	a := newAttrSet(s.attrs)
	sp := &spantree.Span{TraceID: s.trace, ID: s.id, Parent: s.parent, Line: s.line, Name: s.name,
		Start: s.start, End: s.end, Ended: !s.end.IsZero(), Events: s.events}
	sp.Session = sessionOf(a)
	if sp.Session == "" {
		sp.Session = resSession
	}
	// errors: status ERROR, else an exception event (some instrumentations end a failed span OK)
	if s.code == tracepb.Status_STATUS_CODE_ERROR || s.exc != nil {
		e := &model.ErrorInfo{Message: s.message}
		if s.exc != nil {
			e.Kind = s.exc.Kind
			if e.Message == "" {
				e.Message = s.exc.Message
			}
		}
		if k := str(a, "lifeline.error.kind", "error.type"); k != "" {
			e.Kind = k
		}
		if m := str(a, "lifeline.error.message"); m != "" {
			e.Message = m
		}
		if e.Message == "" {
			e.Message = e.Kind
		}
		if e.Message == "" {
			e.Message = "span status ERROR"
		}
		e.Retryable = a.val("lifeline.error.retryable") == true
		sp.Err = e
		sp.Cancelled = spantree.IsCancel(e)
	} else if m := str(a, "lifeline.error.message"); m != "" {
		sp.Err = &model.ErrorInfo{Kind: str(a, "lifeline.error.kind"), Message: m, Retryable: a.val("lifeline.error.retryable") == true}
	}
	op := strings.ToLower(str(a, "gen_ai.operation.name"))
	oi := strings.ToUpper(str(a, "openinference.span.kind"))
	lf := strings.ToLower(str(a, "langfuse.observation.type"))
	aiOp := aiSDKOperation(a, s.name, scope)
	switch {
	case op == "invoke_agent" || op == "invoke_workflow" || oi == "AGENT" || lf == "agent":
		sp.Layer = spantree.Agent
	case op == "chat" || op == "text_completion" || op == "generate_content" || op == "realtime_inference" ||
		oi == "LLM" || lf == "generation":
		sp.Layer = spantree.Model
	case op == "execute_tool" || oi == "TOOL" || lf == "tool":
		sp.Layer = spantree.Tool
	case op == "agent_step":
		// the AI SDK's GenAI integration (@ai-sdk/otel) wraps each loop iteration in a span
		// "step N" with this custom operation: one model call plus the tool calls it requested
		sp.Layer = spantree.Step
	default:
		sp.Layer = aiSDKLayer(aiOp)
	}
	if l := str(a, "lifeline.layer"); l != "" {
		if layer, ok := spantree.ParseLayer(l); ok {
			sp.Layer = layer
			sp.Explicit = explicit(a)
			if a.val("lifeline.ended") == true {
				sp.Ended = true // a node that ended without a recorded time
			}
		}
	}
	switch sp.Layer {
	case spantree.Agent, spantree.Run:
		sp.Agent = str(a, "lifeline.name", "gen_ai.agent.name", "agent.name", "gen_ai.workflow.name", "graph.node.id", "ai.telemetry.functionId")
		if sp.Agent == "" && sp.Layer == spantree.Agent {
			sp.Agent = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s.name, "invoke_agent"), "invoke_workflow"))
		}
		if ms, ok := num(a, "smolagents.max_steps"); ok && ms > 0 {
			sp.Attrs = map[string]any{"max_steps": ms}
		}
		sp.Answers = aiSDKAnswers(a)
		if sp.Err == nil {
			fr := str(a, "ai.response.finishReason")
			if op == "invoke_agent" || op == "invoke_workflow" {
				fr = strings.Join(strs(a.val("gen_ai.response.finish_reasons")), ",")
			}
			if sp.EndStop = endStop(aiOp, op, fr); sp.EndStop != "" {
				if sp.Attrs == nil {
					sp.Attrs = map[string]any{}
				}
				sp.Attrs["finish_reason"] = fr
			}
		}
	case spantree.Model:
		sp.Model = str(a, "lifeline.name", "gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "ai.response.model", "ai.model.id")
		in, okIn := num(a, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt", "ai.usage.inputTokens", "ai.usage.promptTokens")
		out, okOut := num(a, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion", "ai.usage.outputTokens", "ai.usage.completionTokens")
		cached, okC := num(a, "lifeline.usage.cached_tokens", "gen_ai.usage.cache_read.input_tokens", "llm.token_count.prompt_details.cache_read", "ai.usage.cachedInputTokens", "ai.usage.inputTokenDetails.cacheReadTokens")
		cost := flo(a, "lifeline.usage.cost_usd")
		if okIn || okOut || okC || cost != 0 {
			sp.Usage = &model.Usage{InputTokens: in, OutputTokens: out, CachedTokens: cached, CostUSD: cost}
		}
		sp.Requests = requests(a)
		sp.CodeAction = codeAction(a)
		sp.History = history(a)
		sp.Answers = genAIAnswers(a)
		if sp.Explicit == nil {
			if fr := strs(a.val("gen_ai.response.finish_reasons")); len(fr) > 0 {
				sp.Attrs = map[string]any{"finish_reason": strings.Join(fr, ",")}
			} else if fr := str(a, "llm.finish_reason", "ai.response.finishReason"); fr != "" {
				sp.Attrs = map[string]any{"finish_reason": fr}
			}
			modelPayloads(a, sp)
		}
	case spantree.Tool:
		sp.Tool = str(a, "lifeline.name", "gen_ai.tool.name", "tool.name", "ai.toolCall.name")
		if sp.Tool == "" {
			sp.Tool = strings.TrimSpace(strings.TrimPrefix(s.name, "execute_tool"))
		}
		sp.CallID = str(a, "lifeline.call_id", "gen_ai.tool.call.id", "tool.id", "tool_call.id", "ai.toolCall.id")
		if sp.Explicit == nil {
			if args := payload(a, "gen_ai.tool.call.arguments", "ai.toolCall.args", "input.value"); args != "" {
				sp.Attrs = map[string]any{model.AttrArgs: args}
			}
			if res := payload(a, "gen_ai.tool.call.result", "ai.toolCall.result", "output.value"); res != "" {
				if sp.Attrs == nil {
					sp.Attrs = map[string]any{}
				}
				sp.Attrs[model.AttrResult] = res
			}
			if t := str(a, "gen_ai.transfer.target.name"); t != "" {
				if sp.Attrs == nil {
					sp.Attrs = map[string]any{}
				}
				sp.Attrs["transfer_to"] = t
			}
		}
	}
	return sp
}

// payload returns the first of the keys a span has, as payload text (see model.PayloadText).
func payload(a attrSet, keys ...string) string {
	for _, k := range keys {
		if v, ok := a.get(k); ok && v != nil {
			if t := model.PayloadText(v); t != "" {
				return t
			}
		}
	}
	return ""
}

// modelPayloads sets a model call's input and output (model.AttrInput, AttrOutput) from the
// conventions that record them: GenAI gen_ai.input.messages / gen_ai.output.messages (and the
// older gen_ai.prompt / gen_ai.completion), OpenInference input.value / output.value (else the
// flattened llm.input_messages / llm.output_messages), the Vercel AI SDK's ai.prompt.messages
// (or ai.prompt) and ai.response.text (or ai.response.toolCalls).
func modelPayloads(a attrSet, sp *spantree.Span) {
	in := payload(a, "gen_ai.input.messages", "gen_ai.prompt", "input.value", "ai.prompt.messages", "ai.prompt")
	if in == "" && a.fam&famOther != 0 {
		if msgs := spantree.Unflatten(a.m, "llm.input_messages"); msgs != nil {
			in = model.PayloadText(msgs)
		}
	}
	out := payload(a, "gen_ai.output.messages", "gen_ai.completion", "output.value", "ai.response.text", "ai.response.toolCalls")
	if out == "" && a.fam&famOther != 0 {
		if msgs := spantree.Unflatten(a.m, "llm.output_messages"); msgs != nil {
			out = model.PayloadText(msgs)
		}
	}
	if in == "" && out == "" {
		return
	}
	if sp.Attrs == nil {
		sp.Attrs = make(map[string]any, 2)
	}
	if in != "" {
		sp.Attrs[model.AttrInput] = in
	}
	if out != "" {
		sp.Attrs[model.AttrOutput] = out
	}
}

// history digests an OpenInference model call's input messages: element i is a hash of the first
// i+1 messages (role and text), nil when the span records none.
func history(a attrSet) []uint64 {
	if a.fam&famOther == 0 {
		return nil
	}
	msgs, ok := spantree.Unflatten(a.m, "llm.input_messages").([]any)
	if !ok || len(msgs) == 0 {
		return nil
	}
	h := fnv.New64a()
	out := make([]uint64, 0, len(msgs))
	for _, m := range msgs {
		b, err := json.Marshal(m) // map keys sorted: the same message gives the same bytes
		if err != nil {
			return nil
		}
		h.Write(b)
		h.Write([]byte{0})
		out = append(out, h.Sum64())
	}
	return out
}

// codeAction says whether an OpenInference LLM span's output text holds a smolagents CodeAgent
// code action (a <code>…</code> block, or the older ```py fence after "Code:").
func codeAction(a attrSet) bool {
	if a.fam&famOther == 0 {
		return false
	}
	for k, v := range a.m {
		if !strings.HasPrefix(k, "llm.output_messages.") || strings.Contains(k, ".tool_calls.") {
			continue
		}
		if t, ok := v.(string); ok && (strings.Contains(t, "<code>") && strings.Contains(t, "</code>") || strings.Contains(t, "Code:\n```py")) {
			return true
		}
	}
	return false
}

// requests lists the tool calls a model call's output asked for: GenAI gen_ai.output.messages
// parts of type tool_call, OpenInference's flattened llm.output_messages.*.message.tool_calls, or
// the Vercel AI SDK's ai.response.toolCalls.
func requests(a attrSet) []spantree.Request {
	out := aiSDKRequests(a)
	if v, ok := a.get("gen_ai.output.messages"); ok {
		var msgs []any
		switch x := v.(type) {
		case string:
			if reqs, ok := fastToolCalls(x); ok {
				out = append(out, reqs...)
				break
			}
			_ = json.Unmarshal([]byte(x), &msgs)
		case []any:
			msgs = x
		}
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			parts, _ := mm["parts"].([]any)
			for _, pt := range parts {
				pm, _ := pt.(map[string]any)
				if pm["type"] == "tool_call" {
					id, _ := pm["id"].(string)
					name, _ := pm["name"].(string)
					out = append(out, spantree.Request{ID: id, Name: name})
				}
			}
		}
	}
	if a.fam&famOther != 0 { // OpenInference
		if msgs, ok := spantree.Unflatten(a.m, "llm.output_messages").([]any); ok {
			for _, m := range msgs {
				mm, _ := m.(map[string]any)
				calls, _ := mm["message.tool_calls"].([]any)
				for _, c := range calls {
					cm, _ := c.(map[string]any)
					id, _ := cm["tool_call.id"].(string)
					name, _ := cm["tool_call.function.name"].(string)
					out = append(out, spantree.Request{ID: id, Name: name})
				}
			}
		}
	}
	return out
}

// explicit reads lifeline's own attributes.
func explicit(a attrSet) *spantree.Explicit {
	x := &spantree.Explicit{
		SessionID: str(a, "lifeline.session_id"), RunID: str(a, "lifeline.run_id"), TurnID: str(a, "lifeline.turn_id"),
		StepID: str(a, "lifeline.step_id"), CallID: str(a, "lifeline.call_id"), ParentRunID: str(a, "lifeline.parent_run_id"),
		Kind: str(a, "lifeline.kind"), Status: model.RunStatus(str(a, "lifeline.status")),
		WaitReason: model.WaitReason(str(a, "lifeline.wait_reason")), StopReason: model.StopReason(str(a, "lifeline.stop_reason")),
		Outcome: model.Outcome(str(a, "lifeline.outcome")), AgentVersion: str(a, "lifeline.agent_version"),
		IdempotencyKey: str(a, "lifeline.idempotency_key"),
	}
	if n, ok := num(a, "lifeline.attempt"); ok {
		x.Attempt = int(n)
	}
	if q := str(a, "lifeline.queued"); q != "" {
		x.Queued, _ = time.Parse(time.RFC3339Nano, q)
	}
	x.Cause = str(a, "lifeline.cause")
	x.Open = a.val("lifeline.ended") == false || a.val("lifeline.open") == true
	x.SideEffect = a.val("lifeline.side_effect") == true
	x.Inferred = strs(a.val("lifeline.inferred"))
	switch v := a.val("lifeline.attrs").(type) {
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(v), &m) == nil {
			x.Attrs = m
		}
	case map[string]any:
		x.Attrs = v
	}
	return x
}
