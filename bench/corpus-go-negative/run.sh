#!/usr/bin/env bash
# Score what lifeline invents on popular Go modules that are not agent code (projects.tsv): every
# run entry, turn loop, model or tool call site and vet finding on them is false. Fetches the
# modules with bench/corpus-go/fetch.sh, builds lifeline from this checkout (or uses $LIFELINE)
# and runs the scorer; arguments go to it:
#
#   bench/corpus-go-negative/run.sh                 # Markdown table
#   bench/corpus-go-negative/run.sh -v              # plus every invented element
#   LIFELINE=/tmp/lifeline bench/corpus-go-negative/run.sh -keep /tmp/neg-out -v cobra
#
# CORPUS_DIR says where the modules go (default $TMPDIR/lifeline-corpus-go-negative).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go-negative}
export PROJECTS=$root/bench/corpus-go-negative/projects.tsv
export GOWORK=off # a module's own go.work (river's) must not turn the copy into a workspace
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$root/bench/corpus-go/fetch.sh" >"$list"
bin=${LIFELINE:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/lifeline
	(cd "$root" && go build -o "$bin" .)
fi
cd "$root"
go run ./bench/corpus-go-negative/score -lifeline "$bin" -projects "$list" "$@"
