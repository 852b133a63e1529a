#!/usr/bin/env bash
# Score lifeline on the Python/TypeScript/JavaScript agent corpus (sixth held-out set): install them (install.sh, pinned), build
# lifeline from this checkout (or use $LIFELINE), and run the corpus scorer
# (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/corpus-pyts-holdout6/run.sh                         # Markdown table
#   bench/corpus-pyts-holdout6/run.sh -v                      # plus every missed fact and false positive
#   bench/corpus-pyts-holdout6/run.sh -json llm                # JSON, one project
#   LIFELINE=/tmp/lifeline bench/corpus-pyts-holdout6/run.sh -keep /tmp/corpus-pyts-holdout6-out
#
# CORPUS_PYTS_HOLDOUT6_DIR says where the projects are installed (default $TMPDIR/lifeline-corpus-pyts-holdout6); they are
# kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_PYTS_HOLDOUT6_DIR=${CORPUS_PYTS_HOLDOUT6_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-pyts-holdout6}
. "$here/../corpus-pyts/lib.sh"
pyts_score "$here" "$CORPUS_PYTS_HOLDOUT6_DIR" "$@"
