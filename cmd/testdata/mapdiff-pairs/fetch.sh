#!/bin/sh
# Fetches the real release pairs the map --diff test (cmd/mapdiff_pairs_test.go) compares, the
# way their users have them: Python releases with `pip install --no-deps --target`, Go releases
# through the module proxy into a throwaway module each (go get + go mod tidy). Idempotent: a
# stamp per release skips what is already there.
#
#   cmd/testdata/mapdiff-pairs/fetch.sh [DIR]   # DIR defaults to $MAPDIFF_PAIRS_DIR or /tmp/lifeline-mapdiff-pairs
#
# Prints one line per pair: name<TAB>base dir<TAB>head dir<TAB>paths to map (in each dir).
set -eu
DIR=${1:-${MAPDIFF_PAIRS_DIR:-/tmp/lifeline-mapdiff-pairs}}
mkdir -p "$DIR"

py() { # name version: pip install the release into DIR/name-version
	d=$DIR/$1-$2
	if [ ! -f "$d/.fetched" ]; then
		rm -rf "$d"
		python3 -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --target "$d" "$1==$2" >&2
		touch "$d/.fetched"
	fi
}

gomod() { # name module version package: a module that imports package at module@version
	d=$DIR/$1-$3
	if [ ! -f "$d/.fetched" ]; then
		rm -rf "$d" && mkdir -p "$d"
		printf 'module example.com/mapdiffpair\n\ngo 1.26\n' >"$d/go.mod"
		printf 'package main\n\nimport _ "%s"\n\nfunc main() {}\n' "$4" >"$d/main.go"
		(cd "$d" && go get "$2@$3" >&2 && go mod tidy >&2)
		touch "$d/.fetched"
	fi
}

py smolagents 1.17.0
py smolagents 1.18.0
py langgraph 1.0.5
py langgraph 1.0.6
gomod langchaingo github.com/tmc/langchaingo v0.1.13 github.com/tmc/langchaingo/agents
gomod langchaingo github.com/tmc/langchaingo v0.1.14 github.com/tmc/langchaingo/agents

printf '%s\t%s\t%s\t%s\n' \
	smolagents "$DIR/smolagents-1.17.0" "$DIR/smolagents-1.18.0" smolagents \
	langgraph "$DIR/langgraph-1.0.5" "$DIR/langgraph-1.0.6" langgraph \
	langchaingo "$DIR/langchaingo-v0.1.13" "$DIR/langchaingo-v0.1.14" github.com/tmc/langchaingo/agents
