#!/usr/bin/env bash
# Score lifeline on the Python/TypeScript/JavaScript agent corpus: install them (install.sh, pinned), build
# lifeline from this checkout (or use $LIFELINE), and run the corpus scorer
# (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/corpus-pyts/run.sh                         # Markdown table
#   bench/corpus-pyts/run.sh -v                      # plus every missed fact and false positive
#   bench/corpus-pyts/run.sh -json autogen            # JSON, one project
#   LIFELINE=/tmp/lifeline bench/corpus-pyts/run.sh -keep /tmp/corpus-pyts-out
#
# CORPUS_PYTS_DIR says where the projects are installed (default $TMPDIR/lifeline-corpus-pyts); they are
# kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_PYTS_DIR=${CORPUS_PYTS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-pyts}
. "$here/lib.sh"
pyts_score "$here" "$CORPUS_PYTS_DIR" "$@"
