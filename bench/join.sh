#!/usr/bin/env bash
# Measures what the trace-to-code join (timeline --code, model/join) adds to `lifeline timeline`
# on the bench files (bench/gen: a canonical log and an OTLP file-exporter file), with the map
# built once: `lifeline map --format json ./model/runtime > map.json`, then `--code map.json`.
# Target: the join adds ≤ 20% to timeline's time (issue 13). Each figure is the best of RUNS runs
# (CPU time, user+sys, which load on the machine moves less than wall time).
#
#   bash bench/join.sh                 # SIZE=200MB, files kept in $BENCH_DIR (default /tmp/lifeline-bench)
#   SIZE=1GB RUNS=3 bash bench/join.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE=${SIZE:-200MB}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-/tmp/lifeline-bench}
mkdir -p "$DIR"
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
go build -o "$DIR/lifeline" .
"$DIR/lifeline" map --format json ./model/runtime >"$DIR/runtime.map.json"
for fmt in canonical otlp; do
  f="$DIR/big-$SIZE.$fmt.jsonl"
  [ -s "$f" ] || go run ./bench/gen -format "$fmt" -size "$SIZE" -o "$f"
done
best() { # command… ; prints the least user+sys seconds and wall seconds of RUNS runs
  local b=999999 bw=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%U %S %e" -o "$DIR/join.time" "$@" >/dev/null
    read -r u s w <"$DIR/join.time"
    t=$(echo "$u + $s" | bc -l)
    if (($(echo "$t < $b" | bc -l))); then b=$t bw=$w; fi
  done
  echo "$b $bw"
}
for fmt in canonical otlp; do
  f="$DIR/big-$SIZE.$fmt.jsonl"
  for out in json text; do
    read -r base basew < <(best "$DIR/lifeline" timeline --format "$out" "$f")
    read -r joined joinedw < <(best "$DIR/lifeline" timeline --format "$out" --code "$DIR/runtime.map.json" "$f")
    printf '%-10s %6s --format %-4s  timeline cpu %6.2fs (wall %6.2fs) | with --code map.json cpu %6.2fs (wall %6.2fs) | join adds %+5.1f%% cpu\n' \
      "$fmt" "$(du -h "$f" | cut -f1)" "$out" "$base" "$basew" "$joined" "$joinedw" "$(echo "($joined - $base) * 100 / $base" | bc -l)"
  done
done
"$DIR/lifeline" timeline --code "$DIR/runtime.map.json" "$DIR/big-$SIZE.canonical.jsonl" | sed -n '/^code:/,/^run /p' | head -2
