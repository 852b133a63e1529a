#!/usr/bin/env bash
# Builds the OpenTelemetry Collector of manifest.yaml with the Collector builder (ocb), both from
# the Go module proxy, into a cache directory outside the repository, and prints the binary's
# path. A binary already built from the same manifest and builder version is reused.
#
#   bash bench/collector/build.sh            # → $HOME/.cache/lifeline/collector/<hash>/otelcol-lifeline
#   LIFELINE_COLLECTOR_CACHE=DIR bash bench/collector/build.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
builder_version=v0.165.0
cache="${LIFELINE_COLLECTOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lifeline/collector}"
key=$( (echo "$builder_version"; cat "$here/manifest.yaml") | sha256sum | cut -c1-16)
dir="$cache/$key"
bin="$dir/otelcol-lifeline/otelcol-lifeline"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
mkdir -p "$dir" "$cache/bin"
builder="$cache/bin/builder-$builder_version"
if [ ! -x "$builder" ]; then
  echo "build.sh: installing go.opentelemetry.io/collector/cmd/builder@$builder_version" >&2
  tmpbin=$(mktemp -d)
  GOBIN="$tmpbin" go install "go.opentelemetry.io/collector/cmd/builder@$builder_version"
  mv "$tmpbin/builder" "$builder"
  rmdir "$tmpbin"
fi
echo "build.sh: building the Collector into $dir (a few minutes the first time)" >&2
cp "$here/manifest.yaml" "$dir/manifest.yaml"
start=$(date +%s)
# The builder writes the distribution's sources and go.mod into output_path (its own module,
# not lifeline's), runs go mod tidy there and compiles. go mod tidy also resolves the imports of
# the components' own tests, and one of them (the file exporter's test imports the contrib
# otlpencodingextension) is not served by the module proxy, so tidy runs with -e (through
# GOFLAGS: the go commands that have no -e flag ignore it): it resolves everything the binary
# needs and reports the rest. A module the binary needs that cannot be had still fails the
# build, and the versions are checked to be the manifest's afterwards.
(cd "$dir" && GOFLAGS="-buildvcs=false -e" "$builder" --config manifest.yaml >&2)
# One release for every Collector module: core v0.165.0 / v1.71.0, contrib v0.165.1.
bad=$(awk '$1 ~ /^(go.opentelemetry.io\/collector|github.com\/open-telemetry\/opentelemetry-collector-contrib)\// && $2 !~ /^(v0\.165\.[01]|v1\.71\.0)$/ {print $1, $2}' "$dir/otelcol-lifeline/go.mod")
if [ -n "$bad" ]; then
  echo "build.sh: Collector modules not at the manifest's release:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "build.sh: built in $(( $(date +%s) - start )) s" >&2
test -x "$bin"
echo "$bin"
