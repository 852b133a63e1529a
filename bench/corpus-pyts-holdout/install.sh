#!/bin/sh
# Installs the held-out Python/TypeScript/JavaScript agent corpus (frameworks lifeline was not
# tuned on: none of bench/seeds or bench/corpus-pyts) the way users have them, at pinned exact
# versions: Python packages with `pip install --no-deps --target DIR/py`, npm packages with
# `npm install --prefix DIR/npm --no-save --ignore-scripts --legacy-peer-deps` (compiled JS in
# DIR/npm/node_modules). Idempotent (a stamp per pinned set).
#
#   bench/corpus-pyts-holdout/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_HOLDOUT_DIR or /tmp/lifeline-corpus-pyts-holdout); prints DIR
#   bench/corpus-pyts-holdout/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts-holdout/*.truth.json); run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/../corpus-pyts/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts-holdout "${1:-${CORPUS_PYTS_HOLDOUT_DIR:-/tmp/lifeline-corpus-pyts-holdout}}" "$list" \
	"crewai==1.15.30 haystack-ai==3.4.1" \
	"@inngest/agent-kit@0.13.2 praisonai@1.0.19" \
	crewai @py "crewai/agents crewai/agent crewai/flow/runtime crewai/lite_agent.py crewai/utilities/agent_utils.py crewai/utilities/tool_utils.py" \
	haystack @py haystack/components/agents \
	agentkit-ts @npm/@inngest/agent-kit dist \
	praisonai-ts @npm/praisonai dist
