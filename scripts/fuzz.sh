#!/usr/bin/env bash
# libFuzzer over every entry point of the core, under ASan+UBSan (clang from Debian: clang,
# libclang-rt-14-dev). The targets are tests/fuzz/fuzz_*.cpp, built by CMake into build/fuzz/fuzzers/;
# each is seeded from the fixtures and ../shared/corpus (its `// fuzz-seeds:` classes), its own seeds
# (tests/fuzz/seeds/fuzz_NAME/) and dictionary (tests/fuzz/fuzz_NAME.dict), and the regressions in
# tests/fixtures/fuzz/. Adding a target is adding tests/fuzz/fuzz_NAME.cpp: nothing else lists them.
#
# Usage: scripts/fuzz.sh [TARGET] [SECONDS]   fuzz TARGET (or every target, one after another) for
#                                              SECONDS each (default 600); the corpus grows in
#                                              build/fuzz/corpus/fuzz_NAME/, crashes land in
#                                              build/fuzz/artifacts/fuzz_NAME/
#        scripts/fuzz.sh --smoke [SECONDS]     the test suite's short run (ctest `fuzz`): build, then
#                                              SECONDS (default 4) of fuzzing each target from a dozen
#                                              seeds and every regression in tests/fixtures/fuzz
#        scripts/fuzz.sh --build               build the targets only
#        scripts/fuzz.sh --list                name the targets
# TARGET is a name with or without its fuzz_ prefix (config_yaml, fuzz_log, ...). Extra libFuzzer flags
# go in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-jobs=2). A crash is a finding: keep the input as a regression,
# cp build/fuzz/artifacts/fuzz_NAME/crash-* tests/fixtures/fuzz/NAME-WHAT, and fix the code.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

usage() { sed -n '8,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mode=run target="" seconds=""
case "${1:-}" in
  --smoke) mode=smoke; seconds="${2:-4}" ;;
  --build) mode=build ;;
  --list) mode=list ;;
  -h|--help) usage ;;
  "") ;;
  *[!0-9]*) target="$1"; seconds="${2:-}" ;;
  *) seconds="$1" ;;  # `scripts/fuzz.sh SECONDS`: every target
esac
[[ -z "$seconds" || "$seconds" =~ ^[0-9]+$ ]] || usage

all_targets() { for f in tests/fuzz/fuzz_*.cpp; do basename "$f" .cpp; done; }
if [[ "$mode" == list ]]; then all_targets; exit 0; fi
if [[ -n "$target" ]]; then
  target="fuzz_${target#fuzz_}"
  [[ -f "tests/fuzz/$target.cpp" ]] || { echo "fuzz: no target $target (scripts/fuzz.sh --list)" >&2; exit 2; }
  targets=("$target")
else
  mapfile -t targets < <(all_targets)
fi

# By hand, install what the build needs first (clang, libFuzzer's runtime); the test suite's --smoke run
# (ctest `fuzz`, registered only where clang links a fuzzer) finds them installed.
if [[ "$mode" != smoke && -z "${OOMLINT_FUZZ_CXX:-}" ]]; then scripts/setup.sh --native-only --fuzz >/dev/null; fi
cxx="${OOMLINT_FUZZ_CXX:-$(command -v clang++ || true)}"
[[ -n "$cxx" ]] || { echo "fuzz: needs clang (Debian packages clang, libclang-rt-14-dev)" >&2; exit 2; }
work="$root/build/fuzz"
jobs="$(nproc)"
# Undefined behaviour is fatal except what tests/fuzz/ubsan.supp lists (tests/fuzz/fuzz_support.h sets
# UBSan's options in the targets): known bugs awaiting a fix, so a long run keeps looking for new ones.

# --- build: the whole core with ASan+UBSan and coverage instrumentation, each target linked with libFuzzer.
build() {
  local t0=$SECONDS gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  {
    # The sanitizers as the debug-asan preset has them, but recoverable so the suppressions apply;
    # coverage instrumentation everywhere, libFuzzer linked into the targets only (tests/fuzz/CMakeLists.txt).
    cmake -S "$root" -B "$work" "${gen[@]}" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Fuzz \
      -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link -fsanitize-recover=undefined" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DOOMLINT_FUZZ=ON -DOOMLINT_BUILD_TESTS=ON -DOOMLINT_HARNESS=OFF -DOOMLINT_STATIC_RUNTIME=OFF >"$work/configure.log" 2>&1
  } || { cat "$work/configure.log" >&2; echo "fuzz: configure failed" >&2; exit 1; }
  # The rules compiler runs at build time, sanitized too: its one-off allocations are not worth a failed build.
  ASAN_OPTIONS=detect_leaks=0 cmake --build "$work" --target fuzzers -j"$jobs" >"$work/build.log" 2>&1 || {
    tail -n 60 "$work/build.log" >&2
    echo "fuzz: build failed (build/fuzz/build.log)" >&2
    exit 1
  }
  echo "fuzz: targets built in $((SECONDS - t0)) s (${work#"$root"/}/fuzzers: ${targets[*]})"
}
mkdir -p "$work"
build
[[ "$mode" == build ]] && exit 0

# --- seeds, by class: the fixtures and the shared corpus.
seeds="$work/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{yaml,json,log}
add_seeds() {  # CLASS FIND-ARGS...   (same-named files are kept apart as NAME.~1~ ...)
  local class="$1"
  shift
  find "$@" -type f -exec cp --backup=numbered -t "$seeds/$class" {} + 2>/dev/null || true
}
shared=(); [[ -d ../shared/corpus ]] && shared=(../shared/corpus)
add_seeds yaml tests/fixtures docs/examples "${shared[@]}" \( -name '*.yaml' -o -name '*.yml' \)
# The ComfyUI workflows of the corpus too (the rest of its JSON has file names with spaces, which the
# smoke run's sampling does not take).
comfy=(); [[ -d ../shared/corpus/comfyui ]] && comfy=(../shared/corpus/comfyui)
add_seeds json tests/fixtures "${comfy[@]}" -name '*.json'
add_seeds log tests/fixtures "${shared[@]}" -name '*.log'
# JSON configs are rare in the corpus: the YAML ones as the JSON the web UI would store (when PyYAML is there).
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null && "$py" -c 'import yaml' 2>/dev/null; then
    "$py" - "$seeds/yaml" "$seeds/json" <<'EOF' || true
import json, os, sys, yaml
src, dst = sys.argv[1:]
for name in os.listdir(src):
    try:
        with open(os.path.join(src, name), encoding="utf-8") as f:
            text = f.read()
        if "*" in text and "&" in text:
            continue  # aliases: an alias bomb would expand without end in json.dump
        data = yaml.safe_load(text)
        if isinstance(data, dict):
            with open(os.path.join(dst, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, default=str)
    except Exception:
        pass
EOF
    break
  fi
done

# The header line `// fuzz-KEY: VALUE` of a target.
header() { sed -n "s|^// fuzz-$2:[[:space:]]*||p" "tests/fuzz/$1.cpp" | head -n 1; }

# Seed folders of a target: its classes (all of them when it names none), then its own seeds.
seed_dirs() {
  local t="$1" classes
  if grep -q '^// fuzz-seeds:' "tests/fuzz/$t.cpp"; then classes="$(header "$t" seeds)"; else classes="yaml json log"; fi
  for c in $classes; do echo "$seeds/$c"; done
  [[ -d "tests/fuzz/seeds/$t" ]] && echo "$root/tests/fuzz/seeds/$t"
  echo "$root/tests/fixtures/fuzz"
}

# libFuzzer's flags for a target: its dictionary, then the target's own `// fuzz-options:` line.
flags() {
  local t="$1"
  echo -max_len=65536 -rss_limit_mb=2560 -timeout=20 -print_final_stats=1
  [[ -f "tests/fuzz/$t.dict" ]] && echo "-dict=$root/tests/fuzz/$t.dict"
  header "$t" options
  echo "${FUZZ_FLAGS:-}"
}

# One line of figures from a libFuzzer log.
summary() {  # TARGET LOG SECONDS CORPUS-DIR
  awk -v t="$1" -v s="$3" -v files="$(find "$4" -type f | wc -l)" '
    /^#[0-9]+/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") cov = $(i + 1); if ($i == "ft:") ft = $(i + 1) } }
    /stat::number_of_executed_units:/ { runs = $2 }
    /stat::average_exec_per_sec:/ { eps = $2 }
    /stat::new_units_added:/ { added = $2 }
    /stat::peak_rss_mb:/ { rss = $2 }
    END { printf "%-20s %5d s %10d execs %7d/s  cov %6s  ft %6s  corpus %5d files (+%d)  peak RSS %s MB\n",
                 t, s, runs, eps, cov, ft, files, added, rss }' "$2"
}

# A failed run: where the crash is and how to keep it.
report_crash() {  # TARGET LOG ARTIFACTS
  tail -n 40 "$2" >&2
  local crash
  crash="$(find "$3" -type f -newer "$2.start" 2>/dev/null | head -n 1 || true)"
  echo "fuzz: $1 FAILED (log: ${2#"$root"/})" >&2
  if [[ -n "$crash" ]]; then
    echo "  reproduce: ${work#"$root"/}/fuzzers/$1 ${crash#"$root"/}" >&2
    echo "  keep it:   cp ${crash#"$root"/} tests/fixtures/fuzz/${1#fuzz_}-WHAT" >&2
  fi
}

mkdir -p "$work/logs"
status=0
for t in "${targets[@]}"; do
  bin="$work/fuzzers/$t"
  log="$work/logs/$t.log"
  artifacts="$work/artifacts/$t"
  mkdir -p "$artifacts"
  touch "$log.start"
  mapfile -t dirs < <(seed_dirs "$t")
  if [[ "$mode" == smoke ]]; then
    # A dozen seeds per target, small to large, so the few seconds go to mutating rather than loading;
    # and every regression input, which libFuzzer runs first (a crash there fails the run like any other).
    sample="$work/smoke-seeds/$t"
    rm -rf "$sample"
    mkdir -p "$sample"
    find "${dirs[@]}" -type f ! -path "$root/tests/fixtures/fuzz/*" -printf '%s %p\n' | sort -n |
      awk '{ f[NR] = $2 } END { for (i = 1; i <= NR; i += (NR > 12 ? int(NR / 12) : 1)) print f[i] }' |
      while read -r f; do cp "$f" "$sample/"; done
    dirs=("$sample" "$root/tests/fixtures/fuzz")
  fi
  # shellcheck disable=SC2207
  fl=($(flags "$t"))
  if [[ "$mode" == smoke ]]; then
    corpus="$(mktemp -d)"
    # shellcheck disable=SC2064
    trap "rm -rf '$corpus'" EXIT
  else
    corpus="$work/corpus/$t"
    mkdir -p "$corpus"
  fi
  s="${seconds:-600}"
  if "$bin" "${fl[@]}" -max_total_time="$s" -artifact_prefix="$artifacts/" "$corpus" "${dirs[@]}" >"$log" 2>&1; then
    summary "$t" "$log" "$s" "$corpus"
  else
    report_crash "$t" "$log" "$artifacts"
    status=1
  fi
  [[ "$mode" == smoke ]] && rm -rf "$corpus"
done
exit "$status"
