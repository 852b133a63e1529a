#!/usr/bin/env bash
# Measures what the memory of `lifeline check`, `timeline` and `stats` grows with (issue 9 item 7):
# peak RSS of check on one run whose single turn has STEPS steps, and of check and timeline on
# RUNS small runs (one turn, one step, one model call each; PER runs to a session).
#
#   bash bench/memory.sh                     # 500k steps, 1M runs; files kept in $BENCH_DIR
#   STEPS=100000 RUNS=100000 bash bench/memory.sh
#   LIFELINE=/path/to/other/lifeline bash bench/memory.sh   # measure another build
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS=${STEPS:-500000}
RUNS=${RUNS:-1000000}
PER=${PER:-1}
DIR=${BENCH_DIR:-/tmp/lifeline-bench}
mkdir -p "$DIR"
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
BIN=${LIFELINE:-$DIR/lifeline}
[ -n "${LIFELINE:-}" ] || go build -o "$BIN" .
steps="$DIR/long-turn-$STEPS.jsonl"
runs="$DIR/small-runs-$RUNS-$PER.jsonl"
[ -s "$steps" ] || go run ./bench/gen -format long-turn -n "$STEPS" -o "$steps"
[ -s "$runs" ] || go run ./bench/gen -format small-runs -n "$RUNS" -per "$PER" -o "$runs"
measure() { # label command…
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$DIR/mem.time" "$@" >/dev/null 2>"$DIR/mem.err" || true
  read -r wall rss < <(tail -n 1 "$DIR/mem.time") # after "Command exited with non-zero status N"
  printf '%-44s peak RSS %6d MB  wall %6.1fs\n' "$label" $((rss / 1024)) "$wall"
}
measure "check, 1 turn of $STEPS steps" "$BIN" check "$steps"
measure "check, $RUNS small runs ($PER/session)" "$BIN" check "$runs"
measure "timeline json, $RUNS small runs" "$BIN" timeline --format json "$runs"
measure "timeline text, $RUNS small runs" "$BIN" timeline "$runs"
measure "stats, $RUNS small runs" "$BIN" stats "$runs"
measure "stats --check=false, $RUNS small runs" "$BIN" stats --check=false "$runs"
measure "timeline --status failed, $RUNS small runs" "$BIN" timeline --status failed "$runs"
