#!/usr/bin/env bash
# The main job, from nothing: install the native build dependencies (Debian packages), build the
# oomlint CLI, and check the project's example config, printing its findings.
#
# Usage: scripts/run-example.sh [CONFIG...]   (default: docs/examples/wan21-video-lora.yaml)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/setup.sh --native-only
cmake --preset release -DOOMLINT_BUILD_TESTS=OFF >/dev/null
cmake --build --preset release --target oomlint -j"$(nproc)" >/dev/null

configs=("$@")
((${#configs[@]})) || configs=(docs/examples/wan21-video-lora.yaml)
exec build/release/native/oomlint check "${configs[@]}"
