#!/usr/bin/env bash
# Fetch the fourth held-out Go agent corpus (projects.tsv beside this script) with bench/corpus-go/fetch.sh
# into $CORPUS_DIR (or $CORPUS_GO_HOLDOUT4_DIR; default $TMPDIR/lifeline-corpus-go-holdout4). Arguments: project names.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${CORPUS_GO_HOLDOUT4_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go-holdout4}}
export PROJECTS=$here/projects.tsv
exec "$here/../corpus-go/fetch.sh" "$@"
