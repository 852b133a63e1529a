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
DIR=${1:-${CORPUS_PYTS_HOLDOUT3_DIR:-/tmp/lifeline-corpus-pyts-holdout3}}
mkdir -p "$DIR/py" "$DIR/npm"

PY="mini-swe-agent==2.4.6 llm==0.36"
NPM="@huggingface/mcp-client@0.2.3 openai@7.55.0"

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
	echo '{"name":"lifeline-corpus-pyts-holdout3","private":true}' >"$DIR/npm/package.json"
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
	mini-swe-agent "$DIR/py" minisweagent/agents \
	llm "$DIR/py" llm \
	hf-mcp-client "$nm/@huggingface/mcp-client" dist/src \
	openai-node "$nm/openai" lib
