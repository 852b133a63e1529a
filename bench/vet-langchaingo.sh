#!/usr/bin/env bash
# Performance of lifeline's checks on github.com/tmc/langchaingo@v0.1.14 (warm build cache):
#   1. plain `go vet ./...`                       (baseline)
#   2. `go vet -vettool=$(which lifeline) ./...`  (lifeline's passes under go vet; target: <= 1)
#   3. `lifeline vet ./...`                        (lifeline's own driver; target: <= 2x 1)
# Each is run once to warm caches, then timed RUNS times (default 3); the best time counts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
# PKGS selects the packages (default: the whole module, which builds cgo sqlite and hundreds of
# provider packages: give it time on a small machine).
read -r -a pkgs <<<"${PKGS:-./...}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/lifeline" "$root"
mod=$(go mod download -json github.com/tmc/langchaingo@v0.1.14 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
cp -r "$mod" "$work/src" && chmod -R u+w "$work/src"
cd "$work/src"
go mod download >/dev/null 2>&1 || true
go build "${pkgs[@]}" >/dev/null 2>&1 || true

best() { # command...
	local b=999999
	"$@" >/dev/null 2>&1 || true # warm
	for _ in $(seq "$runs"); do
		local s e
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		b=$(echo "$e - $s < $b" | bc -l | grep -q 1 && echo "$e - $s" | bc -l || echo "$b")
	done
	printf '%.2f' "$b"
}

# Note: go vet caches the results of packages without findings, for its own vet and for a
# -vettool alike (keyed by the tool's -V=full build id), so warm re-runs of both mostly hit that
# cache; `lifeline vet` has no result cache and re-analyzes from source every time.
plain=$(best go vet "${pkgs[@]}")
tool=$(best go vet -vettool="$work/lifeline" "${pkgs[@]}")
own=$(best "$work/lifeline" vet "${pkgs[@]}")
echo "langchaingo v0.1.14 (${pkgs[*]}), best of $runs, warm build cache"
echo "go vet                              ${plain}s"
echo "go vet -vettool=lifeline            ${tool}s   (target <= ${plain}s)"
echo "lifeline vet                        ${own}s   (target <= $(echo "2*$plain" | bc -l)s)"
