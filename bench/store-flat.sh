#!/usr/bin/env bash
# store-flat.sh — what one acknowledged batch costs `lifeline serve`'s store as it grows.
#
# Runs BenchmarkStoreIngest (bench/store_test.go): stores already holding 1k, 10k and 100k spans
# (generated agent traces, bench/otlpload) take batches of one trace each (append + fsync +
# incremental projection + index update, then the next), and each store is also reopened from
# its journal (the rebuild, one pass). Prints ns a batch, and the sessions and events each batch
# re-projected (machine-independent: they must not grow with the store), and says whether the
# per-batch time at 100k is within FLAT_RATIO (default 3) of that at 1k.
#
#   bash bench/store-flat.sh            # BATCHES=200 a size
#   BATCHES=50 SIZES=small bash bench/store-flat.sh   # 1k and 10k only
set -euo pipefail
cd "$(dirname "$0")/.."
BATCHES=${BATCHES:-200}
RATIO=${FLAT_RATIO:-3}
env=()
if [ "${SIZES:-}" = small ]; then env=(LIFELINE_BENCH_STORE=small); fi
out=$(env "${env[@]}" nice go test -run '^$' -bench 'BenchmarkStoreIngest' -benchtime "${BATCHES}x" -timeout 60m ./bench/)
echo "$out" | grep -E '^(goos|goarch|cpu|Benchmark)'
echo "$out" | awk -v ratio="$RATIO" '
/^BenchmarkStoreIngest\/stored=/ {
	split($1, a, "="); sub(/-[0-9]+$/, "", a[2]); n = a[2]
	for (i = 2; i < NF; i++) v[$(i+1)] = $i
	printf "stored %7d spans: %6.2f ms a batch, %6.1f us a span at reopen, %4.1f sessions and %6.1f events re-projected a batch\n", n, v["ns/op"]/1e6, v["reopen-ns/span"]/1e3, v["sessions-reprojected/op"], v["events-reprojected/op"]
	if (first == "") { first = v["ns/op"]; fe = v["events-reprojected/op"] }
	last = v["ns/op"]; le = v["events-reprojected/op"]
}
END {
	if (first == "") { print "no benchmark output"; exit 1 }
	r = last / first
	printf "largest/smallest per-batch time: %.2f (flat if <= %s); events re-projected a batch: %.1f -> %.1f\n", r, ratio, fe, le
	if (r > ratio || le > fe * 1.5) { print "NOT FLAT"; exit 1 }
	print "flat"
}'
