#!/usr/bin/env bash
# The one script to run on a GPU machine (issue #7), in one call of under ten minutes:
#   1. versions: nvidia-smi, nvcc, compilers, Python and PyTorch;
#   2. the native build with the CUDA harness (target oomlint-harness) in build/gpu;
#   3. the PyTorch measurement of the activation, sampling and VAE-decode coefficients
#      (scripts/gpu/measure_activations.py);
#   4. the harness: the calibration cases and the capped-memory verdict runs.
# The CPU-bound build runs in the background while the GPU measures. The measurement reads the compiled
# rules: a build/release/core/rules the caller carried along, else rules/*.yaml through PyYAML, else the
# two JSON files compiled first (only the small rules compiler is built before the measurement starts).
# Every stage has its own timeout and the whole run stays under GPU_MEASURE_SECONDS (default 540); a stage
# that cannot run says why and the next one runs. Everything lands in $OUT (default ./gpu-out): this log,
# nvidia-smi.txt, native-build.log, measured-activations.{json,md}, harness-*.json, summary.txt and, when
# compiled here, rules/.
#
# The GPU machine has no network, so nothing is installed here. Without cmake, a C++ compiler,
# nlohmann-json3-dev the C++ part is skipped and says so; a copy of that package's files carried along as
# a prefix (CMAKE_PREFIX_PATH=<folder with include/, share/>) stands in for it.
#
# Environment: OUT, GPU_MEASURE_SECONDS, GPU_BUILD_DIR (default build/gpu), PYTHON (default python3),
# MEASURE_ARGS (extra arguments for measure_activations.py, e.g. "--only flux,vae").
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
OUT="${OUT:-$root/gpu-out}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
budget="${GPU_MEASURE_SECONDS:-540}"
build_dir="${GPU_BUILD_DIR:-build/gpu}"
python="${PYTHON:-python3}"
harness="$build_dir/native/harness/oomlint-harness"
summary_file="$OUT/summary.txt"
build_jobs="$(nproc)"
start=$SECONDS
: >"$summary_file"

heading() { printf '\n== %s\n' "$*"; }
time_left() { echo $((budget - (SECONDS - start))); }
# The summary is a file, not a variable: the background build appends to it too.
summarize() { echo "$*" >>"$summary_file"; }

# run_stage NAME CAP_SECONDS COMMAND...: runs COMMAND under a timeout of CAP or the time left, whichever
# is shorter, records how it ended in the summary and returns its status.
run_stage() {
  local name=$1 cap=$2 limit rc=0
  shift 2
  limit=$(time_left)
  ((limit > cap)) && limit=$cap
  if ((limit < 10)); then
    summarize "$name: skipped (the ${budget}s budget is spent)"
    return 1
  fi
  heading "$name (at most ${limit}s)"
  timeout --kill-after=10 "$limit" "$@" || rc=$?
  if ((rc == 0)); then
    summarize "$name: ok ($((SECONDS - start))s into the run)"
  elif ((rc == 124 || rc == 137)); then
    summarize "$name: timed out after ${limit}s"
  else
    summarize "$name: failed (exit $rc)"
  fi
  return "$rc"
}

versions() {
  heading "versions"
  date -u '+%Y-%m-%dT%H:%M:%SZ'
  uname -srm
  if command -v nvidia-smi >/dev/null; then
    timeout 30 nvidia-smi | tee "$OUT/nvidia-smi.txt" || true
    timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv || true
  else
    echo "nvidia-smi: not found"
  fi
  if command -v nvcc >/dev/null; then nvcc --version | tail -n 2 || true; else echo "nvcc: not found (the harness needs the CUDA Toolkit)"; fi
  if command -v cmake >/dev/null; then cmake --version | head -n 1 || true; else echo "cmake: not found"; fi
  if command -v c++ >/dev/null; then c++ --version | head -n 1 || true; else echo "c++: not found"; fi
  timeout 60 "$python" -c 'import sys, torch
print("python", sys.version.split()[0], "| torch", torch.__version__, "| CUDA", torch.version.cuda,
      "| cuDNN", torch.backends.cudnn.version(), "| GPU visible:", torch.cuda.is_available())' ||
    echo "$python cannot import torch"
}

# A header in the system's include folders or under a prefix in CMAKE_PREFIX_PATH (a carried folder of
# Debian's nlohmann-json files, on a machine that cannot install them).
has_header() {
  local prefix prefixes=()
  IFS=: read -r -a prefixes <<<"${CMAKE_PREFIX_PATH:-}"
  for prefix in /usr /usr/local ${prefixes[@]+"${prefixes[@]}"}; do
    [[ -f "$prefix/include/$1" ]] && return 0
  done
  return 1
}

# What the native build needs that this machine lacks, one name per Debian package.
missing_build_tools() {
  command -v cmake >/dev/null || echo cmake
  command -v c++ >/dev/null || command -v g++ >/dev/null || echo g++
  has_header nlohmann/json.hpp || echo nlohmann-json3-dev
}

# Ninja when present; an existing build folder keeps the generator it was configured with.
configure() {
  local generator=()
  if command -v ninja >/dev/null && [[ ! -f "$build_dir/CMakeCache.txt" ]]; then generator=(-G Ninja); fi
  run_stage "configure" 90 cmake -S . -B "$build_dir" ${generator[@]+"${generator[@]}"} \
    -DCMAKE_BUILD_TYPE=Release -DOOMLINT_BUILD_TESTS=OFF
}

native_build() {
  local missing
  missing="$(missing_build_tools | tr '\n' ' ')"
  if [[ -n "$missing" ]]; then
    heading "native build"
    echo "skipping the C++ build and the harness: missing ${missing}(Debian packages; this machine has no network, so apt-get cannot fetch them)"
    summarize "native build: skipped (missing ${missing% })"
    return 0
  fi
  configure || return 0
  run_stage "build oomlint" 180 cmake --build "$build_dir" --target oomlint -j"$build_jobs" || true
  if cmake --build "$build_dir" --target help 2>/dev/null | grep -q 'oomlint-harness'; then
    run_stage "build oomlint-harness" 240 cmake --build "$build_dir" --target oomlint-harness -j"$build_jobs" ||
      echo "the harness did not build; the PyTorch measurement does not need it"
  else
    echo "this tree has no oomlint-harness target (CMake found no CUDA compiler, or the harness is not in this tree)"
    summarize "build oomlint-harness: skipped (no such target)"
  fi
}

# The rules the measurement reads, as its arguments in rules_args. A rules folder the caller carried
# comes first, then the tree's own YAML through PyYAML; failing both, compile_rules below.
rules_args=()
find_rules() {
  local dir=build/release/core/rules
  if [[ -f "$dir/memory.json" && -f "$dir/ai-toolkit/architectures.json" ]]; then
    rules_args=(--rules-dir "$dir")
  elif "$python" -c 'import yaml' 2>/dev/null; then
    rules_args=(--architectures rules/ai-toolkit/architectures.yaml --memory rules/memory.yaml)
  else
    return 1
  fi
}

# Rules a build folder kept from an earlier call: maybe older than the tree, so the last resort.
earlier_rules() {
  local dir="$build_dir/core/rules"
  [[ -f "$dir/memory.json" && -f "$dir/ai-toolkit/architectures.json" ]] || return 1
  echo "using the rules of an earlier build in $dir"
  rules_args=(--rules-dir "$dir")
}

# Without rules to read, compile just the two the measurement needs (the rules compiler is a small target)
# into $OUT/rules, so the GPU is not left idle while the whole project builds. They travel back with the
# results: the exact rules the coefficients were measured against.
compile_rules() {
  local compiler="$build_dir/core/oomlint-rules-compiler"
  [[ -z "$(missing_build_tools)" ]] || return 1
  configure || return 1
  run_stage "build the rules compiler" 120 cmake --build "$build_dir" --target oomlint-rules-compiler -j"$build_jobs" || return 1
  mkdir -p "$OUT/rules/ai-toolkit"
  "$compiler" rules/ai-toolkit/architectures.yaml "$OUT/rules/ai-toolkit/architectures.json" &&
    "$compiler" rules/memory.yaml "$OUT/rules/memory.json" || return 1
  rules_args=(--rules-dir "$OUT/rules")
}

measure() {
  local extra=() reserve=20 left limit measure_budget
  read -r -a extra <<<"${MEASURE_ARGS:-}"
  left=$(time_left)
  # The harness runs after the measurement: leave it time when it is, or may be, built, but never more
  # than a third of what is left: the coefficients come first.
  if [[ -x "$harness" ]] || command -v nvcc >/dev/null; then
    reserve=200
    ((reserve > left / 3)) && reserve=$((left / 3))
  fi
  limit=$((left - reserve))
  # The script stops starting cases at its budget; 60 s more cover the case in flight and the write-out.
  measure_budget=$((limit - 60))
  ((measure_budget > 300)) && measure_budget=300
  if ((measure_budget < 30)); then
    summarize "measure: skipped (${limit}s left)"
    return 0
  fi
  PYTHONDONTWRITEBYTECODE=1 run_stage "measure" $((measure_budget + 60)) "$python" scripts/gpu/measure_activations.py \
    --out "$OUT" --budget-seconds "$measure_budget" ${rules_args[@]+"${rules_args[@]}"} ${extra[@]+"${extra[@]}"} || true
}

build_and_measure() {
  if find_rules || compile_rules || earlier_rules; then
    heading "native build in the background (its log: native-build.log) while the GPU measures"
    # Keep two cores for the measurement's own Python.
    ((build_jobs > 4)) && build_jobs=$((build_jobs - 2))
    native_build >"$OUT/native-build.log" 2>&1 &
    local build_pid=$!
    measure
    wait "$build_pid" || true
    heading "native build log"
    cat "$OUT/native-build.log"
  else
    echo "no rules for the measurement: no carried build/release/core/rules, no PyYAML, no way to compile them"
    native_build
    measure  # says what it looked for
  fi
}

run_harness() {
  if [[ ! -x "$harness" ]]; then
    summarize "harness runs: skipped (no $harness)"
    return 0
  fi
  # The calibration cases live in the steering repo's shared/ folder: beside the tree on a developer
  # machine, inside it where the device copy brought shared/ along.
  local cases=""
  for c in ../shared/calibration/cases.yaml shared/calibration/cases.yaml; do
    if [[ -f "$c" ]]; then cases="$c"; break; fi
  done
  if [[ -n "$cases" ]]; then
    run_stage "harness calibration" 150 "$harness" --calibration "$cases" --json "$OUT/harness-calibration.json" || true
  else
    echo "no calibration cases (../shared/calibration/cases.yaml or shared/calibration/cases.yaml) on this machine"
    summarize "harness calibration: skipped (no cases.yaml)"
  fi
  run_stage "harness cap 24 GiB, FLUX example" 60 "$harness" --cap-gib 24 --json "$OUT/harness-cap24.json" \
    docs/examples/flux-lora-24gb.yaml || true
  run_stage "harness cap 16 GiB, FLUX example" 60 "$harness" --cap-gib 16 --json "$OUT/harness-cap16.json" \
    docs/examples/flux-lora-24gb.yaml || true
  run_stage "harness cap 24 GiB, Wan 2.1 example" 60 "$harness" --cap-gib 24 --json "$OUT/harness-cap24-wan21.json" \
    docs/examples/wan21-video-lora.yaml || true
  echo "(the harness exits 1 when a capped phase disagreed with the estimate's verdict: a result, written to its JSON)"
}

main() {
  echo "gpu-measure: $(date -u '+%Y-%m-%dT%H:%M:%SZ'), budget ${budget}s, output in $OUT"
  versions
  build_and_measure
  run_harness
  heading "summary ($((SECONDS - start))s)"
  cat "$summary_file"
  ls -l "$OUT"
  # Success means the coefficient table was written; the summary says how each other stage ended.
  [[ -f "$OUT/measured-activations.md" ]]
}

main "$@" 2>&1 | tee -a "$OUT/gpu-measure.log"
exit "${PIPESTATUS[0]}"
