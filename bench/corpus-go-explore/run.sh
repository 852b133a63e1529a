#!/usr/bin/env bash
# Score lifeline on the Go exploration corpus: bench/corpus-go/run.sh (fetch, build, scorer)
# with this directory's projects.tsv and *.truth.json, projects in $CORPUS_DIR (default
# $TMPDIR/lifeline-corpus-go-explore). Arguments go to the scorer:
#
#   bench/corpus-go-explore/run.sh
#   LIFELINE=/tmp/lifeline bench/corpus-go-explore/run.sh -keep /tmp/holdout-out -v
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go-explore}
export PROJECTS=$here/projects.tsv TRUTH=$here
exec "$here/../corpus-go/run.sh" "$@"
