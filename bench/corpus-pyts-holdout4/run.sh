#!/usr/bin/env bash
# Score lifeline on the Python/TypeScript/JavaScript agent corpus (fourth held-out set): install them (install.sh, pinned), build
# lifeline from this checkout (or use $LIFELINE), and run the corpus scorer
# (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/corpus-pyts-holdout4/run.sh                         # Markdown table
#   bench/corpus-pyts-holdout4/run.sh -v                      # plus every missed fact and false positive
#   bench/corpus-pyts-holdout4/run.sh -json dspy               # JSON, one project
#   LIFELINE=/tmp/lifeline bench/corpus-pyts-holdout4/run.sh -keep /tmp/corpus-pyts-holdout4-out
#
# CORPUS_PYTS_HOLDOUT4_DIR says where the projects are installed (default $TMPDIR/lifeline-corpus-pyts-holdout4); they are
# kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_PYTS_HOLDOUT4_DIR=${CORPUS_PYTS_HOLDOUT4_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-pyts-holdout4}
. "$here/../corpus-pyts/lib.sh"
pyts_score "$here" "$CORPUS_PYTS_HOLDOUT4_DIR" "$@"
