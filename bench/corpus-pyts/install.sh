#!/bin/sh
# Installs the Python/TypeScript/JavaScript agent corpus (frameworks other than the seeds of
# bench/seeds) the way users have them, at pinned exact versions: Python packages with
# `pip install --no-deps --target DIR/py`, npm packages with `npm install --prefix DIR/npm
# --no-save --ignore-scripts --legacy-peer-deps` (compiled JS in DIR/npm/node_modules; beeai-framework's optional
# peer dependencies conflict without the flag). Idempotent (a stamp per
# pinned set).
#
#   bench/corpus-pyts/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_DIR or /tmp/lifeline-corpus-pyts); prints DIR
#   bench/corpus-pyts/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts/*.truth.json); bench/corpus-pyts/run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts "${1:-${CORPUS_PYTS_DIR:-/tmp/lifeline-corpus-pyts}}" "$list" \
	"autogen-agentchat==0.7.5 langchain-classic==1.0.8 openai-swarm==0.1.1 strands-agents==1.62.0 google-adk==2.13.0" \
	"ai@7.0.173 @anthropic-ai/sdk@1.14.0 beeai-framework@0.1.30" \
	autogen @py autogen_agentchat \
	langchain-classic @py langchain_classic/agents \
	swarm @py swarm \
	strands @py strands \
	vercel-ai @npm/ai dist \
	anthropic-ts @npm/@anthropic-ai/sdk lib \
	google-adk @py "google/adk/flows google/adk/agents" \
	beeai-ts @npm/beeai-framework dist/agents
