#!/usr/bin/env bash
# Measures the HTML timeline on a generated 100k-span trace: file size and first paint in
# headless Chromium (the page's performance mark "lifeline-first-paint", best of 3 loads), plus
# the Go time to render the page (BenchmarkRender100k).
# Needs Chromium (apt-get install -y chromium). Screenshots go to $LIFELINE_ARTIFACTS if set.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== first paint (headless Chromium) =="
LIFELINE_PERF=1 go test ./render/html -run '^TestBrowserFirstPaint100k$' -count=1 -v | grep -E 'html-firstpaint|first paint|search over|artifact|^(ok|FAIL|---)'
echo "== render time (Go) =="
go test ./render/html -run '^$' -bench '^BenchmarkRender100k$' -benchtime 3x -benchmem | grep -E 'Benchmark|^ok'
