#!/usr/bin/env bash
# Measures lifeline on generated 1 GB inputs (issue 3): peak RSS of `lifeline check` (must stay
# ≤ 0.5 GB) and wall time of `lifeline timeline --format json` against `jq -c . >/dev/null` on the
# same file (must be ≥ 5× faster), for a canonical log and an OTLP file-exporter file.
#
#   bash bench/run.sh            # 1GB each, files kept in $BENCH_DIR (default /tmp/lifeline-bench)
#   SIZE=200MB bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE=${SIZE:-1GB}
DIR=${BENCH_DIR:-/tmp/lifeline-bench}
mkdir -p "$DIR"
command -v jq >/dev/null || { apt-get update -qq && apt-get install -y -qq jq >/dev/null; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
go build -o "$DIR/lifeline" .
for fmt in canonical otlp; do
  f="$DIR/big-$SIZE.$fmt.jsonl"
  [ -s "$f" ] || go run ./bench/gen -format "$fmt" -size "$SIZE" -o "$f"
done
report() { # name file
  local name=$1 f=$2 out="$DIR/$1"
  /usr/bin/time -v "$DIR/lifeline" check "$f" >"$out.check" 2>"$out.check.time" || true
  local rss; rss=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$out.check.time")
  local cw; cw=$(awk '/Elapsed \(wall/ {print $NF}' "$out.check.time")
  # like jq, the timed run writes to /dev/null; the summary line is shown from an untimed run
  /usr/bin/time -f "%e %U %M" -o "$out.tl.time" "$DIR/lifeline" timeline --format json "$f" >/dev/null
  /usr/bin/time -f "%e %U %M" -o "$out.jq.time" jq -c . "$f" >/dev/null
  read -r tw tu tm <"$out.tl.time"
  read -r jw ju jm <"$out.jq.time"
  printf '%-10s %8s  check: peak RSS %6d MB, wall %s | timeline json: wall %6.1fs (user %6.1fs, RSS %5d MB) | jq -c .: wall %6.1fs (user %6.1fs) | speed-up wall %.1fx, cpu %.1fx\n' \
    "$name" "$(du -h "$f" | cut -f1)" $((rss / 1024)) "$cw" "$tw" "$tu" $((tm / 1024)) "$jw" "$ju" \
    "$(echo "$jw / $tw" | bc -l)" "$(echo "$ju / $tu" | bc -l)"
  { "$DIR/lifeline" timeline --format json "$f" 2>/dev/null | head -c 200 | head -1; } || true
  tail -1 "$out.check"
}
report canonical "$DIR/big-$SIZE.canonical.jsonl"
report otlp "$DIR/big-$SIZE.otlp.jsonl"
