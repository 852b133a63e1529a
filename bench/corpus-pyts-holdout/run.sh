#!/usr/bin/env bash
# Score lifeline on the held-out Python/TypeScript/JavaScript agent corpus: install it
# (install.sh, pinned), build lifeline from this checkout (or use $LIFELINE), and run the corpus
# scorer (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/corpus-pyts-holdout/run.sh                      # Markdown table
#   bench/corpus-pyts-holdout/run.sh -v                   # plus every missed fact and false positive
#   bench/corpus-pyts-holdout/run.sh -json haystack        # JSON, one project
#   LIFELINE=/tmp/lifeline bench/corpus-pyts-holdout/run.sh -keep /tmp/holdout-out
#
# CORPUS_PYTS_HOLDOUT_DIR says where the projects are installed (default
# $TMPDIR/lifeline-corpus-pyts-holdout); they are kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_PYTS_HOLDOUT_DIR=${CORPUS_PYTS_HOLDOUT_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-pyts-holdout}
. "$here/../corpus-pyts/lib.sh"
pyts_score "$here" "$CORPUS_PYTS_HOLDOUT_DIR" "$@"
