#!/usr/bin/env bash
# Builds a golangci-lint with lifeline's module plugin (analyzer/golangci) the way
# `golangci-lint custom` does, but from the Go module proxy instead of a git clone, then lints
# the fixture module testdata/golangci with it and compares the findings with
# testdata/golangci/expected.txt. Exit 0 when they match, 1 when they do not, 2 when the build
# fails.
#
# The steps of `golangci-lint custom` (pkg/commands/internal/builder.go), by hand:
#   1. golangci-lint's source at the version of .custom-gcl.yml: `go mod download -json
#      github.com/golangci/golangci-lint/v2@VERSION` (instead of `git clone`), copied writable;
#   2. a blank import of the plugin in cmd/golangci-lint/plugins.go;
#   3. `go mod edit -replace github.com/lifeline-dev/lifeline=<this checkout>`, `go mod tidy`;
#   4. `go build -o custom-gcl ./cmd/golangci-lint`.
#
# Usage: bash scripts/golangci-plugin.sh [-k] [-o BINARY]
#   -k         keep the temporary directory (printed) instead of removing it
#   -o BINARY  also copy the custom golangci-lint to BINARY
# Environment: GOFLAGS, GOPROXY, GOMODCACHE as for any go command (the module cache makes a
# second run fast); GOLANGCI_VERSION overrides .custom-gcl.yml's version.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
keep=0
out=""
while getopts "ko:" opt; do
  case $opt in
    k) keep=1 ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-k] [-o BINARY]" >&2; exit 2 ;;
  esac
done

conf="$root/.custom-gcl.yml"
version=${GOLANGCI_VERSION:-$(sed -n 's/^version:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$conf")}
import=$(sed -n 's/^[[:space:]]*import:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$conf" | head -n1)
module=github.com/lifeline-dev/lifeline
if [ -z "$version" ] || [ -z "$import" ]; then
  echo "golangci-plugin: $conf: want a version: and a plugin import: line" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/lifeline-gcl.XXXXXX")
if [ "$keep" = 1 ]; then
  echo "golangci-plugin: keeping $work" >&2
else
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi

step() { echo "golangci-plugin: $*" >&2; }
fail_build() { echo "golangci-plugin: $1 failed:" >&2; cat "$work/log" >&2; exit 2; }

start=$(date +%s)
# 1. golangci-lint's module source from the module proxy. -mod=mod: outside any module.
step "golangci-lint $version from the module proxy"
(cd "$work" && GOFLAGS=-mod=mod go mod download -json "github.com/golangci/golangci-lint/v2@$version") >"$work/download.json" 2>"$work/log" ||
  fail_build "go mod download"
src=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "$work/download.json")
if [ -z "$src" ] || [ ! -d "$src" ]; then
  fail_build "go mod download (no Dir in its output)"
fi
repo="$work/golangci-lint"
cp -R "$src" "$repo"
chmod -R u+w "$repo"

# 2. The blank import, as golangci-lint custom writes it.
step "plugin $import"
cat >"$repo/cmd/golangci-lint/plugins.go" <<EOF
package main

// This file is used to declare module plugins.

import (
	_ "$import"
)
EOF

# 3. This checkout replaces the plugin's module; go mod tidy adds it and its requirements.
step "go mod edit -replace $module=$root; go mod tidy"
(cd "$repo" && go mod edit -replace "$module=$root" && GOFLAGS=-mod=mod go mod tidy) >"$work/log" 2>&1 || fail_build "go mod tidy"

# 4. Build, with the version string golangci-lint custom gives a custom binary.
step "go build ./cmd/golangci-lint"
bin="$work/custom-gcl"
(cd "$repo" && go build -trimpath -ldflags "-s -w -X 'main.version=${version#v}-custom-gcl-lifeline'" -o "$bin" ./cmd/golangci-lint) >"$work/log" 2>&1 ||
  fail_build "go build"
built=$(date +%s)
step "built in $((built - start)) s"
if [ -n "$out" ]; then
  cp "$bin" "$out"
fi

# Lint the fixture with its .golangci.yml (its own cache, so no result comes from an earlier
# run), then reduce each finding to "file:line: check".
fixture="$root/testdata/golangci"
step "golangci-lint run in testdata/golangci"
set +e
(cd "$fixture" && GOLANGCI_LINT_CACHE="$work/cache" GOFLAGS=-mod=mod "$bin" run \
  --output.text.path=stdout --output.text.print-issued-lines=false --output.text.colors=false \
  --show-stats=false ./...) >"$work/run.txt" 2>"$work/run.err"
code=$?
set -e
step "linted in $(($(date +%s) - built)) s (exit $code)"
if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
  echo "golangci-plugin: golangci-lint run failed (exit $code):" >&2
  cat "$work/run.err" "$work/run.txt" >&2
  exit 1
fi

# A finding reads "agent/agent.go:20:2: unboundedloop: turn loop ... (lifeline)"; the check is
# the analyzer name golangci-lint puts before the message of a multi-analyzer linter.
sed -n 's/^\([^:]*\.go\):\([0-9]*\):[0-9]*: \([a-z]*\): .* (lifeline)$/\1:\2: \3/p' "$work/run.txt" | LC_ALL=C sort >"$work/got.txt"
LC_ALL=C sort "$fixture/expected.txt" >"$work/want.txt"

# expected.txt and the "// finding: CHECK" markers in the fixture's source say the same.
# A marker may name several checks ("// finding: unboundedloop loopcancel"): one line each.
(cd "$fixture" && grep -rn --include='*.go' -E '// finding: [a-z]+( [a-z]+)*$' . |
  sed 's|^\./||' | awk '{ split($0, p, ":"); sub(/.*\/\/ finding: /, ""); n = split($0, cs, " ");
    for (i = 1; i <= n; i++) print p[1] ":" p[2] ": " cs[i] }') | LC_ALL=C sort >"$work/marked.txt"
if ! diff -u "$work/want.txt" "$work/marked.txt" >"$work/markers.diff"; then
  echo "golangci-plugin: testdata/golangci/expected.txt and the // finding: markers differ:" >&2
  cat "$work/markers.diff" >&2
  exit 1
fi

if ! diff -u "$work/want.txt" "$work/got.txt" >"$work/diff"; then
  echo "golangci-plugin: findings differ from testdata/golangci/expected.txt (- expected, + got):" >&2
  cat "$work/diff" >&2
  echo "golangci-plugin: golangci-lint output:" >&2
  cat "$work/run.txt" "$work/run.err" >&2
  exit 1
fi
echo "golangci-plugin: ok: $(wc -l <"$work/got.txt") findings as expected (golangci-lint $version, $(($(date +%s) - start)) s)"
