#!/bin/sh
# Installs the sixth held-out Python agent corpus (frameworks lifeline was not tuned on; truth
# written by reading the code before lifeline ran on it) the way users have them, at pinned exact
# versions: `pip install --no-deps --target DIR/py`. Idempotent (a stamp per pinned set).
#
#   bench/corpus-pyts-holdout6/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_HOLDOUT6_DIR or /tmp/lifeline-corpus-pyts-holdout6); prints DIR
#   bench/corpus-pyts-holdout6/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts-holdout6/*.truth.json); bench/corpus-pyts-holdout6/run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/../corpus-pyts/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts-holdout6 "${1:-${CORPUS_PYTS_HOLDOUT6_DIR:-/tmp/lifeline-corpus-pyts-holdout6}}" "$list" \
	"upsonic==0.77.3 praisonaiagents==1.7.17 controlflow==0.12.1" \
	"" \
	upsonic @py upsonic/agent \
	praisonaiagents @py "praisonaiagents/llm/llm.py praisonaiagents/llm/openai_client.py" \
	controlflow @py "controlflow/orchestration controlflow/agents controlflow/run.py controlflow/tools/tools.py"
