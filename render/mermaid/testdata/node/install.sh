#!/usr/bin/env bash
# Installs the Mermaid library (npm package "mermaid", pinned in package.json) that
# render/mermaid's browser test loads from node_modules/mermaid/dist/mermaid.min.js.
# Usage: bash render/mermaid/testdata/node/install.sh   (needs npm; idempotent)
set -euo pipefail
cd "$(dirname "$0")"
if [ -f node_modules/mermaid/dist/mermaid.min.js ]; then
  exit 0
fi
npm install --no-audit --no-fund --loglevel=error
test -f node_modules/mermaid/dist/mermaid.min.js
