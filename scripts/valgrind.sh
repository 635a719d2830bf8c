#!/usr/bin/env bash
# Memcheck over the corpus: the CLI, built like the release one but linked dynamically (build/memcheck/native/oomlint:
# memcheck finds heap errors by replacing malloc, which a static binary does not let it do), runs `check --vram 24` with
# --format json and --format text on every config and log under ../shared/corpus, each under valgrind's
# memcheck (--error-exitcode=1 --leak-check=full). The CLI's own exit code is 1 when it reports findings,
# so a run is judged by memcheck's summary (no error, nothing definitely or indirectly lost), not by its
# status. Logs of the failed runs stay in build/valgrind/. Takes a few minutes: not part of the test suite.
#
# Usage: scripts/valgrind.sh [-j JOBS]   (default: the number of cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="$(nproc)"
[[ "${1:-}" == "-j" && -n "${2:-}" ]] && jobs="$2"
scripts/setup.sh --native-only --bench >/dev/null  # the build deps and valgrind
cli=build/memcheck/native/oomlint
cmake -S . -B build/memcheck -DCMAKE_BUILD_TYPE=Release -DOOMLINT_BUILD_TESTS=OFF -DOOMLINT_HARNESS=OFF -DOOMLINT_STATIC_RUNTIME=OFF >/dev/null
cmake --build build/memcheck --target oomlint -j"$jobs" >/dev/null
readelf -d "$cli" | grep -q NEEDED || { echo "valgrind.sh: $cli is linked statically; memcheck needs it dynamic" >&2; exit 2; }
out=build/valgrind
rm -rf "$out"
mkdir -p "$out"

mapfile -t inputs < <(find ../shared/corpus -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' -o -name '*.log' \) \
                        ! -name manifest.yaml | sort)
((${#inputs[@]})) || { echo "valgrind.sh: no inputs under ../shared/corpus" >&2; exit 2; }

# One memcheck run: prints "ok|FAIL FORMAT FILE errors=N definitely=B indirectly=B seconds=S".
one() {
  local format="$1" file="$2" log start status
  log="$out/$(basename "$file").$format.txt"
  start=$(date +%s.%N)
  status=0
  valgrind --tool=memcheck --error-exitcode=1 --leak-check=full --log-file="$log" \
    "$cli" check --vram 24 --format "$format" "$file" >/dev/null 2>&1 || status=$?
  awk -v f="$file" -v fmt="$format" -v s="$(echo "$(date +%s.%N) - $start" | bc)" -v st="$status" -v lf="$log" '
    /ERROR SUMMARY:/ { errors = $4 }
    /definitely lost:/ { gsub(",", "", $4); definitely = $4 }
    /indirectly lost:/ { gsub(",", "", $4); indirectly = $4 }
    END {
      ok = errors == "0" && definitely + 0 == 0 && indirectly + 0 == 0 && st != 124
      printf "%s %-4s %s errors=%s definitely=%d indirectly=%d exit=%s seconds=%.1f\n",
             ok ? "ok  " : "FAIL", fmt, f, errors == "" ? "?" : errors, definitely, indirectly, st, s
      if (ok) system("rm -f \"" lf "\"")
    }' "$log"
}
export -f one
export cli out

start=$SECONDS
for f in "${inputs[@]}"; do printf 'json\0%s\0text\0%s\0' "$f" "$f"; done |
  xargs -0 -n 2 -P "$jobs" bash -c 'one "$0" "$1"' | tee "$out/summary.txt"
runs=$(wc -l <"$out/summary.txt")
failed=$(grep -c '^FAIL' "$out/summary.txt" || true)
configs=$(printf '%s\n' "${inputs[@]}" | grep -vc '\.log$' || true)
echo "valgrind.sh: $runs memcheck runs ($configs configs and $((${#inputs[@]} - configs)) logs, json and text) in $((SECONDS - start)) s: $failed failed"
((failed == 0))
