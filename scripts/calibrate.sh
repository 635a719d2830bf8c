#!/usr/bin/env bash
# The calibration report: the estimator against published VRAM figures (../shared/calibration).
# Prints a table per case and the summary; `--markdown` prints the table docs/accuracy.md holds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh --native-only >/dev/null
cmake --preset release >/dev/null
cmake --build --preset release --target oomlint-calibrate -j"$(nproc)" >/dev/null
exec build/release/native/oomlint-calibrate "$@"
