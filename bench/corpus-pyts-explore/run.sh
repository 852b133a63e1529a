#!/usr/bin/env bash
# Score lifeline on the Python/TypeScript/JavaScript agent corpus (explored set): install them (install.sh, pinned), build
# lifeline from this checkout (or use $LIFELINE), and run the corpus scorer
# (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/corpus-pyts-explore/run.sh                         # Markdown table
#   bench/corpus-pyts-explore/run.sh -v                      # plus every missed fact and false positive
#   bench/corpus-pyts-explore/run.sh -json griptape                # JSON, one project
#   LIFELINE=/tmp/lifeline bench/corpus-pyts-explore/run.sh -keep /tmp/corpus-pyts-explore-out
#
# CORPUS_PYTS_EXPLORE_DIR says where the projects are installed (default $TMPDIR/lifeline-corpus-pyts-explore); they are
# kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CORPUS_PYTS_EXPLORE_DIR=${CORPUS_PYTS_EXPLORE_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-pyts-explore}
. "$here/../corpus-pyts/lib.sh"
pyts_score "$here" "$CORPUS_PYTS_EXPLORE_DIR" "$@"
