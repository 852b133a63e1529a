#!/usr/bin/env bash
# Install the seed agent frameworks of issue 11 as their users have them, at pinned exact
# versions, into $SEEDS_DIR (default $TMPDIR/lifeline-seeds). Idempotent: a framework already
# installed at its pinned version (a stamp file) is left alone.
#
#   bench/seeds/install.sh            # all seeds
#   bench/seeds/install.sh smolagents langgraph-js
#   SEEDS_DIR=/tmp/seeds bench/seeds/install.sh
#
# Python packages: `pip install --no-deps --target DIR/py/<name> pkg==ver` (the code as it sits in
# site-packages). npm packages: `npm install --prefix DIR/npm/<name> --no-save --ignore-scripts
# pkg@ver` (the compiled JS under node_modules). DeepSeek Harness is on no registry: its
# TypeScript sources are copied from ../shared/src/deepseek-harness (read-only there).
#
# Prints one line per framework: name<TAB>package root<TAB>paths to map (relative to the root).
# The package roots are what the truth's positions are relative to (bench/seeds/*.truth.json).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${SEEDS_DIR:-${TMPDIR:-/tmp}/lifeline-seeds}
mkdir -p "$dir"
want=" $* "
harness=${DEEPSEEK_HARNESS_SRC:-$root/../shared/src/deepseek-harness}

# name  kind  spec  package root (relative to the install dir)  paths to map (relative to the root)
seeds=(
	"smolagents	pip	smolagents==1.26.0	.	smolagents"
	"openai-agents	pip	openai-agents==0.24.0	.	agents"
	"langgraph	pip	langgraph==1.2.24 langgraph-prebuilt==1.1.3	.	langgraph"
	"openai-agents-js	npm	@openai/agents@0.20.0 @openai/agents-core@0.20.0	node_modules/@openai/agents-core	dist"
	"langgraph-js	npm	@langchain/langgraph@1.7.3	node_modules/@langchain/langgraph	dist"
	"pi	npm	@mariozechner/pi-agent-core@0.73.1 @mariozechner/pi-coding-agent@0.73.1	node_modules/@mariozechner	pi-agent-core/dist pi-coding-agent/dist"
	"deepseek-harness	copy	deepseek-harness	.	packages"
)

for line in "${seeds[@]}"; do
	IFS=$'\t' read -r name kind spec pkgroot paths <<<"$line"
	if [ "$#" -gt 0 ] && [[ $want != *" $name "* ]]; then continue; fi
	dst=$dir/$name
	stamp=$dst/.installed-$(echo "$spec" | tr ' /@=' '____')
	if [ ! -f "$stamp" ]; then
		rm -rf "$dst"
		mkdir -p "$dst"
		case $kind in
		pip)
			# shellcheck disable=SC2086
			python3 -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --target "$dst" $spec >&2
			;;
		npm)
			# shellcheck disable=SC2086
			npm install --prefix "$dst" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error $spec >&2
			;;
		copy)
			if [ ! -d "$harness/packages" ]; then
				echo "install: $name: no sources at $harness (set DEEPSEEK_HARNESS_SRC)" >&2
				exit 1
			fi
			cp -r "$harness/." "$dst/"
			chmod -R u+w "$dst"
			;;
		esac
		touch "$stamp"
	fi
	r=$dst; [ "$pkgroot" = . ] || r=$dst/$pkgroot
	printf "%s\t%s\t%s\n" "$name" "$r" "$paths"
done
