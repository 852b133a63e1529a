#!/bin/sh
# Installs the third held-out Python/TypeScript/JavaScript agent corpus (frameworks lifeline was
# not tuned on) the way users have them, at pinned exact versions: Python packages with
# `pip install --no-deps --target DIR/py`, npm packages with `npm install --prefix DIR/npm
# --no-save --ignore-scripts --legacy-peer-deps` (compiled JS in DIR/npm/node_modules).
# Idempotent (a stamp per pinned set).
#
#   bench/corpus-pyts-holdout3/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_HOLDOUT3_DIR or /tmp/lifeline-corpus-pyts-holdout3); prints DIR
#   bench/corpus-pyts-holdout3/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts-holdout3/*.truth.json); bench/corpus-pyts-holdout3/run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/../corpus-pyts/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts-holdout3 "${1:-${CORPUS_PYTS_HOLDOUT3_DIR:-/tmp/lifeline-corpus-pyts-holdout3}}" "$list" \
	"mini-swe-agent==2.4.6 llm==0.36" \
	"@huggingface/mcp-client@0.2.3 openai@7.55.0" \
	mini-swe-agent @py minisweagent/agents \
	llm @py llm \
	hf-mcp-client @npm/@huggingface/mcp-client dist/src \
	openai-node @npm/openai lib
