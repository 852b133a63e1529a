#!/usr/bin/env bash
# Regenerates the canonical logs the renderers' golden tests run on besides their built-in
# scenarios (render/internal/rendertest/testdata/scenarios): demo scenarios of the reference
# runtime and real framework samples converted to the canonical log. Then refresh the goldens:
#   bash scripts/gen-render-scenarios.sh && go test ./render/... -run Golden -update
set -euo pipefail
cd "$(dirname "$0")/.."
out=render/internal/rendertest/testdata/scenarios
mkdir -p "$out"
go build -o /tmp/lifeline-gen .
for s in happy approval subagent crash-resume cancel-run retry; do
  /tmp/lifeline-gen demo "$s" --log "$out/demo-$s.jsonl" --force >/dev/null
done
convert() { /tmp/lifeline-gen convert --to canonical -o "$out/$1.jsonl" "${@:2}"; }
convert sample-openai-agents testdata/samples/openai-agents/01_two_turn_tools.jsonl
convert sample-langgraph testdata/samples/langgraph/01_react_multi_step.run_tree.json
convert sample-pi-coding-agent testdata/samples/pi-coding-agent/01_coding_session.session.jsonl
convert sample-deepseek-approval testdata/samples/deepseek-harness/approval-composer.session.jsonl
convert sample-otel-openai-agents testdata/samples/otel/openai-agents_01_two_turn_tools.otlp.json
convert sample-pi-agent-error testdata/samples/pi-agent-core/02_tool_error.events.jsonl
