#!/bin/sh
# Installs the seventh held-out Python/TypeScript/JavaScript agent corpus (TS/JS agent frameworks
# lifeline was not tuned on, truth written before lifeline ran on them) the way users have them,
# at pinned exact versions: npm packages with `npm install --prefix DIR/npm --no-save
# --ignore-scripts --legacy-peer-deps` (compiled JS in DIR/npm/node_modules). No Python package.
# Idempotent (a stamp per pinned set).
#
#   bench/corpus-pyts-holdout7/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_HOLDOUT7_DIR or /tmp/lifeline-corpus-pyts-holdout7); prints DIR
#   bench/corpus-pyts-holdout7/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts-holdout7/*.truth.json); bench/corpus-pyts-holdout7/run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/../corpus-pyts/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts-holdout7 "${1:-${CORPUS_PYTS_HOLDOUT7_DIR:-/tmp/lifeline-corpus-pyts-holdout7}}" "$list" \
	"" \
	"@google/adk@2.0.0 @agentica/core@0.31.3 @llamaindex/workflow@1.1.25" \
	adk-ts @npm/@google/adk "dist/esm/agents dist/esm/runner" \
	agentica @npm/@agentica/core lib \
	llamaindex-workflow @npm/@llamaindex/workflow dist/index.js
