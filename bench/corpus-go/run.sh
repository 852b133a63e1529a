#!/usr/bin/env bash
# Score lifeline on the Go agent corpus: fetch the projects (fetch.sh), build lifeline from this
# checkout (or use $LIFELINE), and run the scorer. Arguments go to the scorer:
#
#   bench/corpus-go/run.sh                      # Markdown table
#   bench/corpus-go/run.sh -v                   # plus every missed fact and false positive
#   bench/corpus-go/run.sh -json adk fantasy    # JSON, two projects
#   LIFELINE=/tmp/lifeline-base bench/corpus-go/run.sh -keep /tmp/corpus-out
#
# CORPUS_DIR says where the projects go (default $TMPDIR/lifeline-corpus-go); they are kept
# between runs. PROJECTS (a projects.tsv) and TRUTH (the directory of its *.truth.json) score
# another corpus with the same fetch and scorer (bench/corpus-go-holdout/run.sh sets them).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go}
"$root/bench/corpus-go/fetch.sh" >&2
truth=${TRUTH:-$root/bench/corpus-go}
bin=${LIFELINE:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/lifeline
	(cd "$root" && go build -o "$bin" .)
fi
cd "$root"
exec go run ./bench/corpus-go/score -lifeline "$bin" -corpus "$CORPUS_DIR" -truth "$truth" "$@"
