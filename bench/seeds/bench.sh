#!/usr/bin/env bash
# Performance benchmark of issue 11 (not a timed test): the wall and CPU time of
# `lifeline map` on each seed framework's whole installed package, as installed by
# install.sh (pip --target site-packages trees, npm's compiled dist JS). Target: <= 1 s wall
# per framework on the 2-core reference machine. Prints a Markdown table: the median of
# RUNS runs (default 5) and the input size.
#
#   bench/seeds/bench.sh                # install (pinned, idempotent), build, measure
#   RUNS=9 LIFELINE=/tmp/lifeline bench/seeds/bench.sh
#
# The machine's load average is printed: on a busy machine the wall figures are not the
# machine's, the CPU figures are closer to them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DIR=$("$here/install.sh" "${SEEDS_DIR:-${TMPDIR:-/tmp}/lifeline-seeds}")
RUNS=${RUNS:-5}
bin=${LIFELINE:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/lifeline
	(cd "$root" && CGO_ENABLED=1 go build -o "$bin" .)
fi
nm=$DIR/npm/node_modules
tf=$(mktemp) out=$(mktemp)
trap 'rm -f "$tf" "$out"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| framework | path | files | MB | wall median (s) | CPU median (s) | entries |"
echo "|---|---|---|---|---|---|---|"
while IFS=$'\t' read -r name dir path; do
	[ -d "$dir/$path" ] || continue
	files=$(find "$dir/$path" -type d -name node_modules -prune -o -type f \( -name '*.py' -o -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) ! -name '*.d.ts' -print | wc -l)
	bytes=$(find "$dir/$path" -type d -name node_modules -prune -o -type f \( -name '*.py' -o -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) ! -name '*.d.ts' -print0 | xargs -0 cat | wc -c)
	walls=() cpus=()
	for _ in $(seq "$RUNS"); do
		(cd "$dir" && /usr/bin/time -o "$tf" -f '%e %U %S' "$bin" map $path >"$out" 2>/dev/null) || true
		read -r w u s <"$tf"
		walls+=("$w")
		cpus+=("$(echo "$u + $s" | bc)")
	done
	wm=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
	cm=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
	entries=$(grep -c '^run entry' "$out" || true)
	printf '| %s | %s | %s | %.1f | %s | %s | %s |\n' "$name" "$path" "$files" "$(echo "$bytes / 1000000" | bc -l)" "$wm" "$cm" "$entries"
done < <(
	printf '%s\t%s\t%s\n' \
		smolagents "$DIR/py" smolagents \
		openai-agents "$DIR/py" agents \
		langgraph "$DIR/py" langgraph \
		openai-agents-js "$nm/@openai/agents-core" dist \
		langgraph-js "$nm/@langchain/langgraph" dist \
		pi-agent-core "$nm/@mariozechner/pi-agent-core" dist
)
