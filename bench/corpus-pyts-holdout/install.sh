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
DIR=${1:-${CORPUS_PYTS_HOLDOUT_DIR:-/tmp/lifeline-corpus-pyts-holdout}}
mkdir -p "$DIR/py" "$DIR/npm"

PY="crewai==1.15.30 haystack-ai==3.4.1"
NPM="@inngest/agent-kit@0.13.2 praisonai@1.0.19"

stamp() { echo "$1" | tr ' /@=' '____'; }

s=$DIR/py/.installed-$(stamp "$PY")
if [ ! -f "$s" ]; then
	rm -rf "$DIR/py" && mkdir -p "$DIR/py"
	# shellcheck disable=SC2086
	python3 -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --target "$DIR/py" $PY >&2
	touch "$s"
fi
s=$DIR/npm/.installed-$(stamp "$NPM")
if [ ! -f "$s" ]; then
	rm -rf "$DIR/npm" && mkdir -p "$DIR/npm"
	echo '{"name":"lifeline-corpus-pyts-holdout","private":true}' >"$DIR/npm/package.json"
	# shellcheck disable=SC2086
	npm install --prefix "$DIR/npm" --no-save --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error $NPM >&2
	touch "$s"
fi

if [ -z "$list" ]; then
	echo "$DIR"
	exit 0
fi
nm=$DIR/npm/node_modules
# name	package root	paths to map (relative to the root)
printf '%s\t%s\t%s\n' \
	crewai "$DIR/py" "crewai/agents crewai/agent crewai/flow/runtime crewai/lite_agent.py crewai/utilities/agent_utils.py crewai/utilities/tool_utils.py" \
	haystack "$DIR/py" haystack/components/agents \
	agentkit-ts "$nm/@inngest/agent-kit" dist \
	praisonai-ts "$nm/praisonai" dist
