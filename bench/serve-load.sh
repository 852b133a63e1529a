#!/usr/bin/env bash
# Load test of `lifeline serve`, side by side with a real OpenTelemetry Collector.
#
#   nice bash bench/serve-load.sh [-spans N] [-c CONCURRENCY] [-batch SPANS] [-grpc]
#
# A bounded loopback generator (bench/otlpload: exactly N spans of GenAI agent traces, real
# OTLP ExportTraceServiceRequest protobuf over OTLP/HTTP, or OTLP/gRPC with -grpc; it stops by
# itself) sends the same load to:
#   1. lifeline serve --data DIR (every batch fsynced before its 2xx);
#   2. the Collector alone: otlp receiver → batch → file exporter (bench/collector/to-file.yaml);
#   3. the Collector in front of serve: otlp receiver → batch → otlp_http → serve
#      (bench/collector/to-lifeline.yaml, the README's recipe).
# For each it prints the spans per second the generator saw acknowledged, then checks that
# every one of the N spans is where it was sent (serve's journal, the exporter's file: counted
# by trace and span id, bench/otlpload count) and fails if one is missing. For serve it also
# prints how long after the last acknowledgement every run was in the index.
#
# Ports: 127.0.0.1:24317-24328 (SERVE_HTTP, SERVE_GRPC, COLL_HTTP, COLL_GRPC to change).
# The Collector is built once by bench/collector/build.sh (cached outside the repository).
set -euo pipefail
cd "$(dirname "$0")/.."

spans=400000 conc=8 batch=512 proto=http
while [ $# -gt 0 ]; do
  case "$1" in
    -spans) spans=$2; shift 2 ;;
    -c) conc=$2; shift 2 ;;
    -batch) batch=$2; shift 2 ;;
    -grpc) proto=grpc; shift ;;
    *) echo "usage: bash bench/serve-load.sh [-spans N] [-c CONCURRENCY] [-batch SPANS] [-grpc]" >&2; exit 2 ;;
  esac
done
if [ $((batch % 8)) -ne 0 ]; then
  # a span arriving more than 256 spans after its trace's root is re-placed: the trace's
  # sessions are re-emitted (README: Projection is incremental), extra work a whole run avoids
  echo "serve-load: -batch $batch is not a multiple of 8, the spans of one agent run: runs split between concurrent requests may be re-placed (re-projected) when their halves come far apart" >&2
fi
SERVE_HTTP=${SERVE_HTTP:-127.0.0.1:24318} SERVE_GRPC=${SERVE_GRPC:-127.0.0.1:24317}
COLL_HTTP=${COLL_HTTP:-127.0.0.1:24328} COLL_GRPC=${COLL_GRPC:-127.0.0.1:24327}

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/lifeline" .
go build -o "$work/otlpload" ./bench/otlpload/cmd/otlpload
collector=$(bash bench/collector/build.sh)

# wait_port ADDR: until something listens there (a hang guard of 60 s)
wait_port() {
  for _ in $(seq 600); do
    if (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "serve-load: nothing listens on $1" >&2
  exit 1
}

# send SEED HTTPADDR GRPCADDR: the load, its JSON result on stdout
send() {
  local target=(-url "http://$2/v1/traces")
  [ "$proto" = grpc ] && target=(-grpc "$3")
  "$work/otlpload" send "${target[@]}" -spans "$spans" -c "$conc" -batch "$batch" -seed "$1" -timeout 10m
}

field() { sed -E "s/.*\"$1\":([0-9.e+-]+).*/\1/" <<<"$2"; }

# metric NAME: serve's /metrics value (0 when absent)
metric() { curl -fsS "http://$SERVE_HTTP/metrics" | awk -v n="$1" '$1 == n {print $2; found=1} END {if (!found) print 0}'; }

# cpu PID: the CPU seconds (user + system) the process has used
cpu() { awk -v t="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }

# per_span SECONDS: CPU microseconds a span
per_span() { awk -v c="$1" -v n="$spans" 'BEGIN {printf "%.1f", c * 1e6 / n}'; }

atleast() { awk -v v="$1" -v w="$2" 'BEGIN {exit !(v >= w)}'; }

stop() { kill -TERM "$1"; wait "$1" || true; }

echo "load: $spans spans ($((spans / 8)) agent runs), $batch spans a request, $conc in flight, OTLP/$proto; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. lifeline serve
"$work/lifeline" serve --data "$work/serve" --http "$SERVE_HTTP" --grpc "$SERVE_GRPC" 2>"$work/serve.log" &
serve=$!; pids+=("$serve")
wait_port "$SERVE_HTTP"
res=$(send 1 "$SERVE_HTTP" "$SERVE_GRPC")
t0=$(date +%s.%N)
serve_cpu=$(cpu "$serve")
runs=$((spans / 8))
for _ in $(seq 6000); do
  atleast "$(metric 'lifeline_runs{status="completed",stop_reason="goal_reached"}')" "$runs" && break
  sleep 0.1
done
indexed=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
serve_cpu_all=$(cpu "$serve")
serve_rss=$(awk '$1 == "VmHWM:" {printf "%.0f MB", $2 / 1024}' "/proc/$serve/status")
stop "$serve"
count=$("$work/otlpload" count -spans "$spans" -seed 1 "$work/serve/spans.jsonl")
printf '%-30s %7.0f spans/s  %5s CPU µs a span  acked %s  retries %s  in the journal %s of %s\n' \
  "lifeline serve" "$(field spans_per_s "$res")" "$(per_span "$serve_cpu")" "$(field spans_acked "$res")" "$(field retries "$res")" "$(field distinct "$count")" "$spans"
printf '%-30s every run indexed %s s after the last ack; %s CPU µs a span with the projection; peak RSS %s\n' "" "$indexed" "$(per_span "$serve_cpu_all")" "$serve_rss"
serve_rate=$(field spans_per_s "$res")
rm -rf "$work/serve"

# 2. the Collector alone, to its file exporter
COLLECTOR_HTTP=$COLL_HTTP COLLECTOR_GRPC=$COLL_GRPC COLLECTOR_FILE="$work/collector.json" \
  "$collector" --config bench/collector/to-file.yaml 2>"$work/collector.log" &
coll=$!; pids+=("$coll")
wait_port "$COLL_HTTP"; wait_port "$COLL_GRPC"
res=$(send 2 "$COLL_HTTP" "$COLL_GRPC")
coll_cpu=$(cpu "$coll")
coll_rss=$(awk '$1 == "VmHWM:" {printf "%.0f MB", $2 / 1024}' "/proc/$coll/status")
stop "$coll" # flushes the batch processor and the file
count=$("$work/otlpload" count -spans "$spans" -seed 2 "$work/collector.json")
printf '%-30s %7.0f spans/s  %5s CPU µs a span  acked %s  retries %s  in the file %s of %s; peak RSS %s\n' \
  "Collector -> file exporter" "$(field spans_per_s "$res")" "$(per_span "$coll_cpu")" "$(field spans_acked "$res")" "$(field retries "$res")" "$(field distinct "$count")" "$spans" "$coll_rss"
coll_rate=$(field spans_per_s "$res")
rm -f "$work/collector.json"

# 3. the Collector in front of serve
"$work/lifeline" serve --data "$work/serve" --http "$SERVE_HTTP" --grpc "" 2>"$work/serve.log" &
serve=$!; pids+=("$serve")
wait_port "$SERVE_HTTP"
COLLECTOR_HTTP=$COLL_HTTP COLLECTOR_GRPC=$COLL_GRPC LIFELINE_ENDPOINT="http://$SERVE_HTTP" LIFELINE_TOKEN=unused \
  "$collector" --config bench/collector/to-lifeline.yaml 2>"$work/collector.log" &
coll=$!; pids+=("$coll")
wait_port "$COLL_HTTP"; wait_port "$COLL_GRPC"
res=$(send 3 "$COLL_HTTP" "$COLL_GRPC")
t0=$(date +%s.%N)
for _ in $(seq 6000); do
  atleast "$(metric lifeline_spans_received_total)" "$spans" && break
  sleep 0.1
done
arrived=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
stop "$coll"
stop "$serve"
count=$("$work/otlpload" count -spans "$spans" -seed 3 "$work/serve/spans.jsonl")
e2e=$(awk -v n="$spans" -v a="$(field seconds "$res")" -v b="$arrived" 'BEGIN {printf "%.0f", n / (a + b)}')
printf '%-30s %7.0f spans/s  acked %s  retries %s  in the journal %s of %s  all in serve %s s after the last ack: %s spans/s end to end\n' \
  "Collector -> serve" "$(field spans_per_s "$res")" "$(field spans_acked "$res")" "$(field retries "$res")" "$(field distinct "$count")" "$spans" "$arrived" "$e2e"

awk -v s="$serve_rate" -v c="$coll_rate" 'BEGIN {printf "serve / Collector alone: %.2f\n", s / c}'
