#!/usr/bin/env bash
# Fetch the Go exploration corpus (projects.tsv beside this script) with bench/corpus-go/fetch.sh
# into $CORPUS_DIR (default $TMPDIR/lifeline-corpus-go-explore). Arguments: project names.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go-explore}
export PROJECTS=$here/projects.tsv
exec "$here/../corpus-go/fetch.sh" "$@"
