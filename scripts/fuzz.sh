#!/usr/bin/env bash
# libFuzzer over the core's entry point (configs and logs) under ASan+UBSan, seeded with the corpus and
# the fixtures. A crash is written as crash-* in the work folder: copy it to tests/fixtures/fuzz/ (the
# suite replays every file there) and fix it.
# Usage: scripts/fuzz.sh [SECONDS]   (default 600)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-600}"
command -v clang++ >/dev/null || { echo "fuzz: needs clang (Debian packages clang, libclang-rt-14-dev)" >&2; exit 2; }
cmake --preset release >/dev/null
cmake --build --preset release --target oomlint_core -j"$(nproc)" >/dev/null  # generates embedded_files.cpp
work="build/fuzz"
mkdir -p "$work/corpus"
# shellcheck disable=SC2046
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DOOMLINT_VERSION='"fuzz"' \
  -Icore $(find core -name '*.cpp') build/release/core/embedded_files.cpp tests/fuzz/fuzz_analyze.cpp -lyaml-cpp \
  -o "$work/fuzz_analyze"
find tests/fixtures ../shared/corpus -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' -o -name '*.log' \) \
  -exec cp {} "$work/corpus/" \; 2>/dev/null || true
cd "$work"
exec ./fuzz_analyze -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 -timeout=10 corpus/
