#!/usr/bin/env bash
# Builds the site (make web) and prints the figures docs/performance.md reports.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/build-web.sh >/dev/null
node tests/browser/measure.mjs
