#!/usr/bin/env bash
# Log scanning benchmark: a synthetic 1 GiB AI Toolkit log (tqdm rewrites, then an OOM at the end),
# scanned by `oomlint check`: wall time, throughput and peak RSS, with `grep -c` on the same file.
# Usage: scripts/bench-log.sh [SIZE_MIB]   (default 1024)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mib="${1:-1024}"
cli=build/release/native/oomlint
[[ -x "$cli" ]] || { cmake --preset release >/dev/null && cmake --build --preset release --target oomlint -j"$(nproc)" >/dev/null; }
command -v /usr/bin/time >/dev/null || { echo "bench-log: needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }
log="$(mktemp --suffix=.log)"
trap 'rm -f "$log"' EXIT
{
  echo "Running 1 job"
  { yes $'my_lora:  41%|████      | 820/2000 [27:04<38:55,  1.98s/it, lr: 1.0e-04 loss: 3.1e-01]\r' | head -c "$((mib * 1024 * 1024))" || true; }  # yes ends on SIGPIPE
  echo
  echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.02 GiB is free. Of the allocated memory 18.20 GiB is allocated by PyTorch, and 3.41 GiB is reserved by PyTorch but unallocated."
} > "$log"
bytes=$(stat -c %s "$log")
measure() {  # prints "seconds max_rss_kib"
  /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1
}
read -r secs rss < <(measure "$cli" check --format json "$log")
read -r gsecs _ < <(measure grep -c "out of memory" "$log")
awk -v b="$bytes" -v s="$secs" -v r="$rss" -v g="$gsecs" 'BEGIN {
  mb = b / 1e6
  printf "log: %.0f MB\noomlint check: %.2f s, %.0f MB/s, peak RSS %.1f MiB\ngrep -c:       %.2f s, %.0f MB/s\nratio oomlint/grep: %.1fx\n",
         mb, s, mb / s, r / 1024, g, mb / g, s / g
}'
