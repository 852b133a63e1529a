#!/usr/bin/env bash
# Performance of lifeline's checks on github.com/tmc/langchaingo@v0.1.14, each command measured
# from the same starting state: a build cache that holds the packages' export data (compiled
# dependencies, test variants included) but no vet results.
#   1. plain `go vet PKGS`                          (baseline)
#   2. `go vet -vettool=lifeline PKGS`               (target: <= 1.0x of 1)
#   3. `lifeline vet PKGS`                           (target: <= 0.5x of 1)
#
# go vet caches its results (for its own vet and for a -vettool alike, keyed by the tool's
# -V=full id), findings included: a warm re-run only looks them up. So every measured run gets
# its own GOCACHE, copied from a template prepared once with `go build` and
# `go list -export -deps -test` (export data only, no vet action). The script checks that state
# with `go vet -x` before measuring: from the template, go vet runs the vet tool on every package
# and the compiler on none; a second run from the same cache runs neither.
#
# RUNS rounds (default 3); in each the three commands run in a rotated order, so that a change of
# machine load hits all three alike. Reported: each command's median wall time (user+sys CPU
# beside it), the ratios of the medians, and the median of the per-round ratios.
#
# Environment:
#   PKGS       packages (default ./...: the whole module, cgo sqlite and hundreds of providers)
#   RUNS       rounds (default 3)
#   BENCHDIR   keeps the copy of langchaingo, the template cache and the binary between runs
#              (build cache entries depend on the directory); default: a temporary directory
#   LIFELINE   a lifeline binary to measure (default: built from this checkout)
#   OUT        also append the result table (markdown) to this file
#   CHECK=0    skip the starting-state check (three more go vet runs over PKGS)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
read -r -a pkgs <<<"${PKGS:-./...}"
if [ -n "${BENCHDIR:-}" ]; then
	work=$BENCHDIR
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
if [ -n "${LIFELINE:-}" ]; then
	tool=$(cd "$(dirname "$LIFELINE")" && pwd)/$(basename "$LIFELINE")
else
	tool=$work/lifeline
	(cd "$root" && go build -o "$tool" .)
fi
mod=$(go mod download -json github.com/tmc/langchaingo@v0.1.14 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
if [ ! -d "$work/src" ]; then
	cp -r "$mod" "$work/src" && chmod -R u+w "$work/src"
fi
cd "$work/src"
go mod download >/dev/null 2>&1 || true

tmpl=$work/gocache-template
cache=$work/gocache
key="${pkgs[*]} $(go env GOVERSION)"
if [ ! -f "$work/gocache-template.ready" ] || [ "$(cat "$work/gocache-template.ready")" != "$key" ]; then
	rm -rf "$tmpl" "$work/gocache-template.ready"
	mkdir -p "$tmpl"
	echo "preparing the template build cache (export data of ${pkgs[*]} and their tests)…" >&2
	GOCACHE=$tmpl go build "${pkgs[@]}" >/dev/null 2>&1 || true
	GOCACHE=$tmpl go list -e -export -deps -test "${pkgs[@]}" >/dev/null 2>&1 || true
	echo "$key" >"$work/gocache-template.ready"
fi
# fresh gives the measured command a copy of the template: export data, no vet results.
fresh() {
	rm -rf "$cache"
	cp -a "$tmpl" "$cache"
	sync
}

# Check the starting state: from the template, go vet compiles nothing and vets every package;
# from the cache that run left, it does neither (its results are cached).
count() { GOCACHE=$cache go vet -x "$@" "${pkgs[@]}" 2>&1 >/dev/null | awk '/vet\.cfg/ {v++} /\/compile / {c++} END {printf "%d vet.cfg lines (two a vet unit), %d compile", v, c}' || true; }
if [ "${CHECK:-1}" != 0 ]; then
	fresh
	first=$(count)
	second=$(count)
	ctool=$(fresh && count -vettool="$tool")
	echo "starting state check: go vet from the template: $first; again on the same cache: $second; go vet -vettool from the template: $ctool" >&2
fi

# measure NAME CMD…: wall and user+sys seconds of CMD on a fresh cache, appended to $work/times.
measure() {
	local name=$1
	shift
	fresh
	local s e cpu
	s=$(date +%s.%N)
	GOCACHE=$cache /usr/bin/time -o "$work/cpu" -f '%U %S' "$@" >/dev/null 2>&1 || true
	e=$(date +%s.%N)
	cpu=$(tail -1 "$work/cpu" | awk '{print $1 + $2}')
	echo "$name $(echo "$e - $s" | bc -l) $cpu" >>"$work/times"
	echo "  $name: $(printf '%.2f' "$(echo "$e - $s" | bc -l)") s wall, $cpu s CPU (load $(cut -d' ' -f1 /proc/loadavg))" >&2
}
: >"$work/times"
cmds=(plain tool own)
run_cmd() {
	case $1 in
	plain) measure plain go vet "${pkgs[@]}" ;;
	tool) measure tool go vet -vettool="$tool" "${pkgs[@]}" ;;
	own) measure own "$tool" vet "${pkgs[@]}" ;;
	esac
}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 0 $((runs - 1))); do
	echo "round $((r + 1)) of $runs" >&2
	for i in 0 1 2; do
		run_cmd "${cmds[$(((i + r) % 3))]}"
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
rm -rf "$cache"

median() { sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
col() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$work/times" | median; }
# ratio NAME: median over rounds of NAME's wall time / plain go vet's in the same round.
ratio() { paste <(awk -v n="$1" '$1 == n {print $2}' "$work/times") <(awk '$1 == "plain" {print $2}' "$work/times") | awk '{print $1 / $2}' | median; }
f() { printf '%.2f' "$1"; }
p=$(col plain 2) t=$(col tool 2) o=$(col own 2)
table=$(
	echo "langchaingo v0.1.14 (${pkgs[*]}), $runs rounds, each run from a build cache with export data and no vet results; load $load0 → $load1"
	echo
	echo "| command | median wall | median CPU (user+sys) | ratio of medians | median per-round ratio | target |"
	echo "|---|---:|---:|---:|---:|---:|"
	echo "| go vet | $(f "$p") s | $(f "$(col plain 3)") s | 1 | 1 | |"
	echo "| go vet -vettool=lifeline | $(f "$t") s | $(f "$(col tool 3)") s | $(f "$(echo "$t / $p" | bc -l)")× | $(f "$(ratio tool)")× | ≤ 1.0× |"
	echo "| lifeline vet | $(f "$o") s | $(f "$(col own 3)") s | $(f "$(echo "$o / $p" | bc -l)")× | $(f "$(ratio own)")× | ≤ 0.5× |"
)
echo "$table"
if [ -n "${OUT:-}" ]; then
	echo "$table" >>"$OUT"
fi
