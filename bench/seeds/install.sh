#!/bin/sh
# Installs the seed frameworks of issue 11 the way users have them, at pinned exact versions:
# the Python ones with `pip install --no-deps --target DIR/py` (the code as it sits in
# site-packages), the npm ones with `npm install --prefix DIR/npm --no-save --ignore-scripts`
# (compiled JS in DIR/npm/node_modules), and DeepSeek Harness, which is on no registry, copied
# from ../shared/src/deepseek-harness (read-only there; DEEPSEEK_HARNESS_SRC overrides).
# Idempotent: a stamp per pinned set skips what is already installed.
#
#   bench/seeds/install.sh [DIR]           # install into DIR (default $SEEDS_DIR or /tmp/lifeline-seeds); prints DIR
#   bench/seeds/install.sh --list [DIR]    # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/seeds/*.truth.json); bench/seeds/run.sh scores lifeline on them, and the performance
# benchmark maps the same trees.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
DIR=${1:-${SEEDS_DIR:-/tmp/lifeline-seeds}}
here=$(cd "$(dirname "$0")" && pwd)
harness=${DEEPSEEK_HARNESS_SRC:-$here/../../../shared/src/deepseek-harness}
mkdir -p "$DIR/py" "$DIR/npm"

PY="smolagents==1.26.0 openai-agents==0.24.0 langgraph==1.2.24 langgraph-prebuilt==1.1.3"
NPM="@openai/agents@0.20.0 @openai/agents-core@0.20.0 @langchain/langgraph@1.7.3 @mariozechner/pi-agent-core@0.73.1 @mariozechner/pi-coding-agent@0.73.1"

stamp() { echo "$1" | tr ' /@=' '____'; }

# Python: the frameworks alone (--no-deps keeps the tree about them).
s=$DIR/py/.installed-$(stamp "$PY")
if [ ! -f "$s" ]; then
	rm -rf "$DIR/py" && mkdir -p "$DIR/py"
	# shellcheck disable=SC2086
	python3 -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --target "$DIR/py" $PY >&2
	touch "$s"
fi
# npm: compiled JS as it lands in node_modules (with the packages' own dependencies).
s=$DIR/npm/.installed-$(stamp "$NPM")
if [ ! -f "$s" ]; then
	rm -rf "$DIR/npm" && mkdir -p "$DIR/npm"
	echo '{"name":"lifeline-seeds","private":true}' >"$DIR/npm/package.json"
	# shellcheck disable=SC2086
	npm install --prefix "$DIR/npm" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error $NPM >&2
	touch "$s"
fi
# DeepSeek Harness: TypeScript sources.
if [ ! -f "$DIR/deepseek-harness/.copied" ]; then
	if [ ! -d "$harness/packages" ]; then
		echo "install: deepseek-harness: no sources at $harness (set DEEPSEEK_HARNESS_SRC)" >&2
		exit 1
	fi
	rm -rf "$DIR/deepseek-harness"
	mkdir -p "$DIR/deepseek-harness"
	cp -r "$harness/." "$DIR/deepseek-harness/"
	chmod -R u+w "$DIR/deepseek-harness"
	touch "$DIR/deepseek-harness/.copied"
fi

if [ -z "$list" ]; then
	echo "$DIR"
	exit 0
fi
nm=$DIR/npm/node_modules
# name	package root	paths to map (relative to the root)
printf '%s\t%s\t%s\n' \
	smolagents "$DIR/py" smolagents \
	openai-agents "$DIR/py" agents \
	langgraph "$DIR/py" langgraph \
	openai-agents-js "$nm/@openai/agents-core" dist \
	langgraph-js "$nm/@langchain/langgraph" dist \
	pi "$nm/@mariozechner" "pi-agent-core/dist pi-coding-agent/dist" \
	deepseek-harness "$DIR/deepseek-harness" packages
