#!/usr/bin/env bash
# Every test, from nothing: install the dependencies (Debian packages), build the native CLI and
# tests and the WebAssembly module, then run the whole suite with CTest: unit, fixture and corpus
# tests (Catch2), the YAML reader against PyYAML, the CLI contract, the WASM-versus-CLI parity over
# the corpus (Node's test runner), the page and widget in headless
# Chromium (playwright-core); then build the native suite again with clang under AddressSanitizer +
# UndefinedBehaviorSanitizer, in the libFuzzer targets' build (scripts/fuzz.sh), and run it there with a
# short fuzzing run: one sanitized build serves both.
#
# Usage: scripts/test.sh [--no-asan]   --no-asan skips the sanitizer stage and its fuzzing run (a quicker local run)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="$(nproc)"

scripts/setup.sh --fuzz  # clang with libFuzzer too, for the `fuzz` test
export NODE_PATH=/usr/share/nodejs  # emcc's optimizer needs acorn from Debian's node-acorn

step() { printf '\n== %s\n' "$*"; }

step "WebAssembly build"
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j"$jobs"

step "web build (make web)"
scripts/build-web.sh

step "native build"
cmake --preset release -DOOMLINT_BUILD_TESTS=ON >/dev/null
cmake --build --preset release -j"$jobs"

step "tests"
ctest --preset release -j"$jobs"

if [[ "${1:-}" != "--no-asan" ]]; then
  step "tests under AddressSanitizer + UndefinedBehaviorSanitizer, and a short fuzzing run"
  scripts/fuzz.sh --build
  cmake --build build/fuzz -j"$jobs"
  ctest --test-dir build/fuzz -j"$jobs" --output-on-failure
fi
