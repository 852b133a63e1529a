#!/usr/bin/env bash
# Fetch the fifth held-out Go agent corpus (projects.tsv beside this script) with bench/corpus-go/fetch.sh
# into $CORPUS_DIR (default $TMPDIR/lifeline-corpus-go-holdout5). Arguments: project names.
# GONOSUMDB: the checksum database this machine reaches has no entry for XiaoConstantine's modules
# (404), though the proxy serves them; they are fetched without that check.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_DIR=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go-holdout5}
export PROJECTS=$here/projects.tsv
export GONOSUMDB=${GONOSUMDB:-github.com/XiaoConstantine}
exec "$here/../corpus-go/fetch.sh" "$@"
