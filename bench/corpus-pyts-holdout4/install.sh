#!/bin/sh
# Installs the fourth held-out Python/TypeScript/JavaScript agent corpus (frameworks lifeline was
# not tuned on) the way users have them, at pinned exact versions: Python packages with
# `pip install --no-deps --target DIR/py`, npm packages with `npm install --prefix DIR/npm
# --no-save --ignore-scripts --legacy-peer-deps` (compiled JS in DIR/npm/node_modules).
# Idempotent (a stamp per pinned set).
#
#   bench/corpus-pyts-holdout4/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_HOLDOUT4_DIR or /tmp/lifeline-corpus-pyts-holdout4); prints DIR
#   bench/corpus-pyts-holdout4/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts-holdout4/*.truth.json); bench/corpus-pyts-holdout4/run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/../corpus-pyts/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts-holdout4 "${1:-${CORPUS_PYTS_HOLDOUT4_DIR:-/tmp/lifeline-corpus-pyts-holdout4}}" "$list" \
	"dspy==3.4.1 qwen-agent==0.0.34 agno==3.1.10" \
	"@google/gemini-cli-core@0.61.0 multi-llm-ts@5.1.1" \
	dspy @py dspy/predict \
	qwen-agent @py "qwen_agent/agent.py qwen_agent/settings.py qwen_agent/agents" \
	gemini-cli-core @npm/@google/gemini-cli-core "dist/src/agents dist/src/agent" \
	agno @py agno/models/base.py \
	multi-llm-ts @npm/multi-llm-ts dist/index.js
