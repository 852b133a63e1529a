#!/usr/bin/env bash
# Runs the README's test command (go test -race -timeout 60m, -count=1: nothing cached) while every core is
# saturated by busy loops, as on a slow, busy CI machine; exits with the tests' status.
#   scripts/stress-tests.sh                 # go test -race -count=1 ./...
#   scripts/stress-tests.sh ./model/...     # a package pattern (or several) instead of ./...
#   STRESS_HOGS=4 scripts/stress-tests.sh   # busy loops (default: one per core, nproc)
# Extra go test flags go after the patterns' "--": scripts/stress-tests.sh ./model/... -- -run X
set -uo pipefail
cd "$(dirname "$0")/.."

patterns=()
flags=()
seen_dashes=0
for a in "$@"; do
  if [ "$a" = "--" ] && [ "$seen_dashes" = 0 ]; then
    seen_dashes=1
    continue
  fi
  if [ "$seen_dashes" = 1 ]; then flags+=("$a"); else patterns+=("$a"); fi
done
[ "${#patterns[@]}" -eq 0 ] && patterns=(./...)

hogs="${STRESS_HOGS:-$(nproc)}"
pids=()
stop_hogs() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  pids=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

# Each hog is a bounded busy loop (it ends by itself after STRESS_MAX_SECONDS, default 3600)
# and is killed by the trap as soon as the tests end.
max="${STRESS_MAX_SECONDS:-3600}"
for _ in $(seq "$hogs"); do
  bash -c 'end=$((SECONDS + '"$max"')); while [ $SECONDS -lt $end ]; do :; done' &
  pids+=("$!")
done
echo "stress-tests: $hogs busy loop(s) on $(nproc) core(s); go test -race -count=1 -timeout 60m ${patterns[*]} ${flags[*]}" >&2

start=$SECONDS
go test -race -count=1 -timeout 60m "${patterns[@]}" "${flags[@]}"
status=$?
echo "stress-tests: exit $status after $((SECONDS - start))s under load" >&2
exit "$status"
