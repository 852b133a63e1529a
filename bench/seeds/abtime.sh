#!/usr/bin/env bash
# Interleaved A/B timing of `lifeline map` on an installed seed framework (issue 11's 1 s
# target): runs BASE and NEW alternately RUNS times (default 7) in the framework's root and
# prints each binary's median and range of wall and of user+sys. On a shared machine the wall
# is the load's; the CPU (user+sys) of interleaved runs is what compares.
#
#   bench/seeds/abtime.sh /tmp/lifeline-main /tmp/lifeline-new            # openai-agents
#   RUNS=9 bench/seeds/abtime.sh BASE NEW langgraph
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$1 new=$2 name=${3:-openai-agents}
RUNS=${RUNS:-7}
DIR=${SEEDS_DIR:-${TMPDIR:-/tmp}/lifeline-seeds}
line=$("$here/install.sh" --list "$DIR" | awk -F'\t' -v n="$name" '$1 == n')
[ -n "$line" ] || { echo "abtime.sh: no seed framework $name" >&2; exit 2; }
IFS=$'\t' read -r _ root paths <<<"$line"
tf=$(mktemp)
trap 'rm -f "$tf"' EXIT
declare -A walls cpus
for _ in $(seq "$RUNS"); do
	for b in base new; do
		bin=$base
		[ "$b" = new ] && bin=$new
		# shellcheck disable=SC2086
		(cd "$root" && /usr/bin/time -o "$tf" -f '%e %U %S' "$bin" map $paths >/dev/null 2>&1)
		read -r w u s <"$tf"
		walls[$b]+="$w "
		cpus[$b]+="$(echo "$u + $s" | bc) "
	done
done
stat() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {printf "%.2f (%.2f-%.2f)", a[int((NR+1)/2)], a[1], a[NR]}'; }
echo "$name, $RUNS interleaved runs each, load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for b in base new; do
	echo "$b: wall $(stat <<<"${walls[$b]}") s, user+sys $(stat <<<"${cpus[$b]}") s"
done
