#!/usr/bin/env bash
# Install oomlint's build dependencies from Debian packages (only the missing ones).
#
# Usage: scripts/setup.sh [--native-only] [--fuzz] [--bench]
#   --native-only   skip everything WebAssembly and web (emscripten, node, npm, chromium)
#   --fuzz          also clang with libFuzzer (scripts/fuzz.sh; the test suite's `fuzz` test)
#   --bench         --fuzz and what the benchmark and memcheck scripts use (scripts/bench.sh,
#                   valgrind.sh): valgrind, yamllint, GNU time
#
# Idempotent; a run with nothing to do takes about a second.
set -euo pipefail

log() { printf '[setup] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

NATIVE_ONLY=0
FUZZ=0
BENCH=0
for arg in "$@"; do
  case "$arg" in
    --native-only) NATIVE_ONLY=1 ;;
    --fuzz) FUZZ=1 ;;
    --bench) BENCH=1; FUZZ=1 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) die "unknown argument: $arg (try --help)" ;;
  esac
done

command -v dpkg-query >/dev/null || die "this script supports Debian (dpkg/apt) only"
export DEBIAN_FRONTEND=noninteractive

# Native build: compiler, build tools, libraries, test framework; PyYAML, the reference the YAML
# reader is compared with (scripts/yaml-differential.py, the `yaml-pyyaml` test); lld, which links the CLI with the
# functions a check runs laid out together (native/hot-functions.txt; without it the CLI links, a little slower).
PKGS=(cmake g++ make pkg-config nlohmann-json3-dev catch2 python3-yaml lld)
OPTIONAL_PKGS=(ninja-build)
if ((!NATIVE_ONLY)); then
  # WebAssembly: Emscripten (pulls clang/lld/binaryen/node-acorn).
  PKGS+=(emscripten)
  # Any node (e.g. NodeSource's) will do; otherwise Debian's. npm installs the web page's
  # bundler, editor and browser driver (web/package-lock.json).
  command -v node >/dev/null || PKGS+=(nodejs)
  command -v npm >/dev/null || PKGS+=(npm)
  # The browser tests drive Debian's Chromium; the fonts make its screenshots readable. xmllint
  # checks the JUnit output is well-formed XML.
  PKGS+=(chromium fonts-liberation libxml2-utils)
fi

# libFuzzer and the sanitizer runtimes for clang.
if ((FUZZ)); then PKGS+=(clang libclang-rt-14-dev); fi
# The comparisons bench.sh runs (Debian's PyYAML, yamllint, /usr/bin/time for peak RSS); valgrind's memcheck.
if ((BENCH)); then PKGS+=(valgrind yamllint time); fi

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null || true)" == ii* ]]
}

missing=()
for p in "${PKGS[@]}" "${OPTIONAL_PKGS[@]}"; do
  is_installed "$p" || missing+=("$p")
done

if ((${#missing[@]})); then
  [[ "$(id -u)" == 0 ]] || die "missing packages (${missing[*]}); run as root to install them"
  log "apt-get update"
  apt-get update -qq >&2 || die "apt-get update failed"
  install=()
  for p in "${missing[@]}"; do
    if [[ " ${OPTIONAL_PKGS[*]} " == *" $p "* ]]; then
      cand="$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')"
      if [[ -z "$cand" || "$cand" == "(none)" ]]; then
        log "optional package $p not available; skipping"
        continue
      fi
    fi
    install+=("$p")
  done
  if ((${#install[@]})); then
    log "installing: ${install[*]}"
    apt_log="$(mktemp)"
    if ! apt-get install -y -q --no-install-recommends "${install[@]}" >"$apt_log" 2>&1; then
      tail -n 40 "$apt_log" >&2; rm -f "$apt_log"; die "apt-get install failed"
    fi
    rm -f "$apt_log"
  fi
else
  log "all Debian packages present"
fi

log "done (repo: $REPO_ROOT)"
