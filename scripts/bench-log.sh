#!/usr/bin/env bash
# Log scanning benchmark: a synthetic 1 GiB AI Toolkit log (runs of a tqdm bar redrawn step by step, as
# tqdm writes them: the percentage, the bar's glyphs, the step, the times, the rate and the loss
# change; then an OOM at the end), scanned by `oomlint check`: wall time, throughput and peak RSS, with
# `grep -c` on the same file: medians of five interleaved runs each.
# Usage: scripts/bench-log.sh [SIZE_MIB]   (default 1024)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mib="${1:-1024}"
cli=build/release/native/oomlint
scripts/setup.sh --native-only --bench >/dev/null  # the build deps and GNU time
cmake --preset release >/dev/null
cmake --build --preset release --target oomlint -j"$(nproc)" >/dev/null
log="$(mktemp --suffix=.log)"
trap 'rm -f "$log" "$log.o" "$log.g"' EXIT
# One run of a 1000-step bar (about 100 KB: `yes` repeats it, and one argument may hold 128 KiB).
run="$(awk 'BEGIN {
  total = 1000; split("▏ ▎ ▍ ▌ ▋ ▊ ▉", partial, " ")
  for (s = 1; s <= total; s++) {
    filled = s * 10 / total; full = int(filled); eighths = int((filled - full) * 8)
    bar = ""
    for (i = 0; i < full; i++) bar = bar "█"
    if (full < 10) { bar = bar (eighths ? partial[eighths] : " "); for (i = full + 1; i < 10; i++) bar = bar " " }
    done = s * 2; left = (total - s) * 2
    printf "my_lora: %3d%%|%s| %d/%d [%02d:%02d<%02d:%02d,  %.2fs/it, lr: 1.0e-04 loss: %.3e]\r", \
      int(s * 100 / total), bar, s, total, done / 60, done % 60, left / 60, left % 60, 1.9 + (s % 7) * 0.013, 0.3 + (s % 13) * 0.01
  }
}')"
{
  echo "Running 1 job"
  { yes "$run" | head -c "$((mib * 1024 * 1024))" || true; }  # yes ends on SIGPIPE
  echo
  echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.02 GiB is free. Of the allocated memory 18.20 GiB is allocated by PyTorch, and 3.41 GiB is reserved by PyTorch but unallocated."
} > "$log"
bytes=$(stat -c %s "$log")
measure() {  # prints "seconds max_rss_kib"
  /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cat "$log" >/dev/null  # both read it from the page cache, not as just written
: >"$log.o" && : >"$log.g"
for _ in 1 2 3 4 5; do  # interleaved, medians: one run is at the mercy of whatever else the machine does
  measure "$cli" check --format json "$log" >>"$log.o" || true  # exit 1: the log has an OOM
  measure grep -c "out of memory" "$log" >>"$log.g" || true
done
secs=$(cut -d' ' -f1 "$log.o" | median)
rss=$(cut -d' ' -f2 "$log.o" | median)
gsecs=$(cut -d' ' -f1 "$log.g" | median)
awk -v b="$bytes" -v s="$secs" -v r="$rss" -v g="$gsecs" 'BEGIN {
  mb = b / 1e6
  printf "log: %.0f MB\noomlint check: %.2f s, %.0f MB/s, peak RSS %.1f MiB\ngrep -c:       %.2f s, %.0f MB/s\nratio oomlint/grep: %.1fx\n",
         mb, s, mb / s, r / 1024, g, mb / g, s / g
}'
