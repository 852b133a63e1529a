#!/usr/bin/env bash
# Makes the late-span fixtures of this folder from two real exports (see README.md). Needs jq.
# Run from this folder: bash gen.sh
set -euo pipefail
handoff=../otel/openai-agents_03_handoff.otlp.json # OpenInference over @openai/agents 0.20.0
other=../otel/langgraph_02_tool_error.otlp.json     # OpenInference over LangGraph 1.7.3
late=a06022177af6065a                                # the handoff's get_exchange_rate TOOL span
copies=20                                            # 20 × 14 spans between: more than FlushLag (256)

between() {
	for k in $(seq 1 "$copies"); do
		# the same export as another trace and session: trace, span and session ids renamed
		jq -c --arg t "$(printf 'ce9ddc67b9da8c616842723e4b%06x' "$k")" --arg p "$(printf '%04x' "$k")" --arg s "late-fixture-copy-$k" '
			def re: if . == null or . == "" then . else $p + .[4:] end;
			.resourceSpans[].scopeSpans[].spans[] |= (.traceId = $t | .spanId |= re | .parentSpanId |= re
				| .attributes |= map(if .key == "session.id" then .value.stringValue = $s else . end))' "$other"
	done
}

# every span of the handoff in one batch (as exported), then the other traces
{ jq -c . "$handoff"; between; } >together.otlp.jsonl
# the tool span held back to a batch of its own after the other traces (same resource and scope)
{
	jq -c --arg id "$late" '.resourceSpans[].scopeSpans[].spans |= map(select(.spanId != $id))' "$handoff"
	between
	jq -c --arg id "$late" '.resourceSpans[].scopeSpans[].spans |= map(select(.spanId == $id))' "$handoff"
} >late_child.otlp.jsonl
