#!/usr/bin/env bash
# Performance of lifeline's checks on github.com/tmc/langchaingo@v0.1.14 (warm build cache):
#   1. plain `go vet ./...`                       (baseline)
#   2. `go vet -vettool=$(which lifeline) ./...`  (lifeline's passes under go vet; target: <= 1)
#   3. `lifeline vet ./...`                        (lifeline's own driver; target: <= 2x 1)
# Each is run once to warm caches, then timed in RUNS rounds (default 3); the best time counts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
# PKGS selects the packages (default: the whole module, which builds cgo sqlite and hundreds of
# provider packages: give it time on a small machine).
read -r -a pkgs <<<"${PKGS:-./...}"
# BENCHDIR keeps the copy of langchaingo (and its build cache entries, which depend on its
# directory) between runs; by default a temporary directory is removed at exit.
if [ -n "${BENCHDIR:-}" ]; then
	work=$BENCHDIR
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
go build -o "$work/lifeline" "$root"
mod=$(go mod download -json github.com/tmc/langchaingo@v0.1.14 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
if [ ! -d "$work/src" ]; then
	cp -r "$mod" "$work/src" && chmod -R u+w "$work/src"
fi
cd "$work/src"
go mod download >/dev/null 2>&1 || true
go build "${pkgs[@]}" >/dev/null 2>&1 || true

# secs runs a command and prints its wall time in seconds.
secs() {
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	e=$(date +%s.%N)
	echo "$e - $s" | bc -l
}
min() { if [ "$(echo "$1 < $2" | bc -l)" = 1 ]; then echo "$1"; else echo "$2"; fi; }

# Note: go vet caches the results of packages, for its own vet and for a -vettool alike (keyed by
# the tool's -V=full build id), findings included, so warm re-runs of both mostly hit that cache:
# their time is the go command's own (package loading, cache lookups, hashing). lifeline's
# unitchecker (x/tools v0.52) writes each package's types into its .vetx file besides the facts,
# so these files are about 8x larger than the built-in vet's; hashing them is a few percent of the
# go command's CPU time. `lifeline vet` has no result cache: it re-analyzes the module's packages
# from source every time and reads every other dependency (standard library, third-party
# modules) from the build cache's export data.
#
# The three commands run in turn in each round, so that a change of machine load (the machine
# may be shared) hits all three alike.
go vet "${pkgs[@]}" >/dev/null 2>&1 || true
go vet -vettool="$work/lifeline" "${pkgs[@]}" >/dev/null 2>&1 || true
"$work/lifeline" vet "${pkgs[@]}" >/dev/null 2>&1 || true
plain=999999 tool=999999 own=999999
for _ in $(seq "$runs"); do
	plain=$(min "$plain" "$(secs go vet "${pkgs[@]}")")
	tool=$(min "$tool" "$(secs go vet -vettool="$work/lifeline" "${pkgs[@]}")")
	own=$(min "$own" "$(secs "$work/lifeline" vet "${pkgs[@]}")")
done
f() { printf '%.2f' "$1"; }
echo "langchaingo v0.1.14 (${pkgs[*]}), best of $runs rounds, warm build cache, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go vet                              $(f "$plain")s"
echo "go vet -vettool=lifeline            $(f "$tool")s   (target <= $(f "$plain")s)"
echo "lifeline vet                        $(f "$own")s   (target <= $(f "$(echo "2*$plain" | bc -l)")s)"
