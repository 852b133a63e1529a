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
# Each target (a package set: the whole module and ./agents/... by default) is measured in turn,
# RUNS rounds each (default 3); in each round the three commands run in a rotated order, so that
# a change of machine load hits all three alike. Reported per target: each command's median wall
# time and median user+sys CPU (all processes, the go command's and the vet tools' included:
# the steadier figure on a busy machine), the ratios of the medians, and the medians of the
# per-round ratios, wall and CPU.
#
# Environment:
#   TARGETS    package sets to measure, separated by ";" (default "./...;./agents/...")
#   PKGS       one package set (overrides TARGETS; kept for older invocations)
#   RUNS       rounds a target (default 3)
#   BENCHDIR   keeps, for each target, a copy of langchaingo, the template cache and the binary
#              between runs, in BENCHDIR/<target> ("full" for ./...; build cache entries depend
#              on the directory); default: a temporary directory
#   LIFELINE   a lifeline binary to measure (default: built from this checkout)
#   OUT        also append the result tables (markdown) to this file
#   CHECK=0    skip the starting-state check (three more go vet runs over a target)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
targets=${PKGS:-${TARGETS:-./...;./agents/...}}
if [ -n "${BENCHDIR:-}" ]; then
	base=$BENCHDIR
	mkdir -p "$base"
else
	base=$(mktemp -d)
	trap 'rm -rf "$base"' EXIT
fi
if [ -n "${LIFELINE:-}" ]; then
	tool=$(cd "$(dirname "$LIFELINE")" && pwd)/$(basename "$LIFELINE")
else
	tool=$base/lifeline
	(cd "$root" && go build -o "$tool" .)
fi
mod=$(go mod download -json github.com/tmc/langchaingo@v0.1.14 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')

median() { sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
f() { printf '%.2f' "$1"; }

# bench PKGS…: prepares (once) and measures one target in $base/<slug>.
bench() {
	local pkgs=("$@") slug work tmpl cache key
	slug=$(echo "${pkgs[*]}" | sed 's#^\./\.\.\.$#full#; s#[^A-Za-z0-9]\+#-#g; s#^-##; s#-$##')
	work=$base/$slug
	mkdir -p "$work"
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

	# Check the starting state: from the template, go vet compiles nothing and vets every
	# package; from the cache that run left, it does neither (its results are cached).
	count() { GOCACHE=$cache go vet -x "$@" "${pkgs[@]}" 2>&1 >/dev/null | awk '/vet\.cfg/ {v++} /\/compile / {c++} END {printf "%d vet.cfg lines (two a vet unit), %d compile", v, c}' || true; }
	if [ "${CHECK:-1}" != 0 ]; then
		fresh
		local first second ctool
		first=$(count)
		second=$(count)
		ctool=$(fresh && count -vettool="$tool")
		echo "starting state check (${pkgs[*]}): go vet from the template: $first; again on the same cache: $second; go vet -vettool from the template: $ctool" >&2
	fi

	# measure NAME CMD…: wall and user+sys seconds of CMD on a fresh cache, appended to times.
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
		echo "  ${pkgs[*]}: $name: $(printf '%.2f' "$(echo "$e - $s" | bc -l)") s wall, $cpu s CPU (load $(cut -d' ' -f1 /proc/loadavg))" >&2
	}
	: >"$work/times"
	local cmds=(plain tool own)
	run_cmd() {
		case $1 in
		plain) measure plain go vet "${pkgs[@]}" ;;
		tool) measure tool go vet -vettool="$tool" "${pkgs[@]}" ;;
		own) measure own "$tool" vet "${pkgs[@]}" ;;
		esac
	}
	local load0 load1 r i
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	for r in $(seq 0 $((runs - 1))); do
		echo "${pkgs[*]}: round $((r + 1)) of $runs" >&2
		for i in 0 1 2; do
			run_cmd "${cmds[$(((i + r) % 3))]}"
		done
	done
	load1=$(cut -d' ' -f1-3 /proc/loadavg)
	rm -rf "$cache"

	col() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$work/times" | median; }
	# ratio NAME COL: median over rounds of NAME's figure (2 wall, 3 CPU) / plain go vet's in the same round.
	ratio() { paste <(awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$work/times") <(awk -v c="$2" '$1 == "plain" {print $c}' "$work/times") | awk '{print $1 / $2}' | median; }
	local p t o pc tc oc table
	p=$(col plain 2) t=$(col tool 2) o=$(col own 2)
	pc=$(col plain 3) tc=$(col tool 3) oc=$(col own 3)
	table=$(
		echo "langchaingo v0.1.14 (${pkgs[*]}), $runs rounds, each run from a build cache with export data and no vet results; load $load0 → $load1"
		echo
		echo "| command | median wall | median CPU (user+sys) | wall ratio of medians | CPU ratio of medians | median per-round ratio, wall / CPU | target |"
		echo "|---|---:|---:|---:|---:|---:|---:|"
		echo "| go vet | $(f "$p") s | $(f "$pc") s | 1 | 1 | 1 / 1 | |"
		echo "| go vet -vettool=lifeline | $(f "$t") s | $(f "$tc") s | $(f "$(echo "$t / $p" | bc -l)")× | $(f "$(echo "$tc / $pc" | bc -l)")× | $(f "$(ratio tool 2)")× / $(f "$(ratio tool 3)")× | ≤ 1.0× |"
		echo "| lifeline vet | $(f "$o") s | $(f "$oc") s | $(f "$(echo "$o / $p" | bc -l)")× | $(f "$(echo "$oc / $pc" | bc -l)")× | $(f "$(ratio own 2)")× / $(f "$(ratio own 3)")× | ≤ 0.5× |"
	)
	echo "$table"
	echo
	if [ -n "${OUT:-}" ]; then
		printf '%s\n\n' "$table" >>"$OUT"
	fi
}

IFS=';' read -r -a sets <<<"$targets"
for set in "${sets[@]}"; do
	read -r -a pkgs <<<"$set"
	[ ${#pkgs[@]} -gt 0 ] || continue
	bench "${pkgs[@]}"
done
