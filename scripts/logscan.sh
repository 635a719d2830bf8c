#!/usr/bin/env bash
# The log analysis against the labelled log corpus (../shared/corpus/logs/manifest.yaml): one line per
# log, then the totals docs/accuracy.md reports. Installs and builds what it needs first.
# Usage: scripts/logscan.sh [ARGS...]   (passed to build/release/native/oomlint-logscan)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh --native-only >/dev/null
cmake --preset release >/dev/null
cmake --build --preset release --target oomlint-logscan -j"$(nproc)" >/dev/null
exec build/release/native/oomlint-logscan "$@"
