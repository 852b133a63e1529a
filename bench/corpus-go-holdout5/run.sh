#!/usr/bin/env bash
# Score lifeline on the fifth held-out Go agent corpus: bench/corpus-go/run.sh (fetch, build, scorer)
# with this directory's projects.tsv and *.truth.json, projects in $CORPUS_DIR (default
# $TMPDIR/lifeline-corpus-go-holdout5). Arguments go to the scorer:
#
#   bench/corpus-go-holdout5/run.sh
#   LIFELINE=/tmp/lifeline bench/corpus-go-holdout5/run.sh -keep /tmp/holdout-out -v
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go-holdout5}
export PROJECTS=$here/projects.tsv TRUTH=$here
export GONOSUMDB=${GONOSUMDB:-github.com/XiaoConstantine}
exec "$here/../corpus-go/run.sh" "$@"
