#!/usr/bin/env bash
# Score lifeline on the Python/TypeScript/JavaScript agent corpus (seventh held-out set): install them (install.sh, pinned), build
# lifeline from this checkout (or use $LIFELINE), and run the corpus scorer
# (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/corpus-pyts-holdout7/run.sh                         # Markdown table
#   bench/corpus-pyts-holdout7/run.sh -v                      # plus every missed fact and false positive
#   bench/corpus-pyts-holdout7/run.sh -json agentica                # JSON, one project
#   LIFELINE=/tmp/lifeline bench/corpus-pyts-holdout7/run.sh -keep /tmp/corpus-pyts-holdout7-out
#
# CORPUS_PYTS_HOLDOUT7_DIR says where the projects are installed (default $TMPDIR/lifeline-corpus-pyts-holdout7); they are
# kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_PYTS_HOLDOUT7_DIR=${CORPUS_PYTS_HOLDOUT7_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-pyts-holdout7}
. "$here/../corpus-pyts/lib.sh"
pyts_score "$here" "$CORPUS_PYTS_HOLDOUT7_DIR" "$@"
