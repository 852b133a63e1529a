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
DIR=${1:-${CORPUS_PYTS_DIR:-/tmp/lifeline-corpus-pyts}}
mkdir -p "$DIR/py" "$DIR/npm"

PY="autogen-agentchat==0.7.5 langchain-classic==1.0.8 openai-swarm==0.1.1 strands-agents==1.62.0 google-adk==2.13.0"
NPM="ai@7.0.173 @anthropic-ai/sdk@1.14.0 beeai-framework@0.1.30"

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
	echo '{"name":"lifeline-corpus-pyts","private":true}' >"$DIR/npm/package.json"
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
	autogen "$DIR/py" autogen_agentchat \
	langchain-classic "$DIR/py" langchain_classic/agents \
	swarm "$DIR/py" swarm \
	strands "$DIR/py" strands \
	vercel-ai "$nm/ai" dist \
	anthropic-ts "$nm/@anthropic-ai/sdk" lib \
	google-adk "$DIR/py" "google/adk/flows google/adk/agents" \
	beeai-ts "$nm/beeai-framework" dist/agents
