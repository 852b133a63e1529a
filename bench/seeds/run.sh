#!/usr/bin/env bash
# Score lifeline on the seed frameworks of issue 11: install them (install.sh, pinned), build
# lifeline from this checkout (or use $LIFELINE), and run the corpus scorer
# (bench/corpus-go/score) on the installed package roots. Arguments go to the scorer:
#
#   bench/seeds/run.sh                         # Markdown table
#   bench/seeds/run.sh -v                      # plus every missed fact and false positive
#   bench/seeds/run.sh -json smolagents        # JSON, one framework
#   LIFELINE=/tmp/lifeline bench/seeds/run.sh -keep /tmp/seeds-out
#
# SEEDS_DIR says where the frameworks are installed (default $TMPDIR/lifeline-seeds); they are
# kept between runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export SEEDS_DIR=${SEEDS_DIR:-${TMPDIR:-/tmp}/lifeline-seeds}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$here/install.sh" --list "$SEEDS_DIR" >"$list"
bin=${LIFELINE:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/lifeline
	(cd "$root" && go build -o "$bin" .)
fi
cd "$root"
go run ./bench/corpus-go/score -lifeline "$bin" -truth "$here" -projects "$list" "$@"
