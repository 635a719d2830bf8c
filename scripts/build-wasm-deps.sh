#!/usr/bin/env bash
# Build the WebAssembly dependencies of oomlint (currently: yaml-cpp) from
# Debian's *source* package, with Debian's Emscripten.
#
# yaml-cpp gets oomlint's patches first (wasm/yaml-cpp-*.patch: it reads from memory, so the module
# links no iostreams or locales), applied to a copy of the source.
#
# Output: a CMake prefix at build/deps/wasm/ holding
#   include/yaml-cpp/...            headers
#   lib/libyaml-cpp.a               static library (-fwasm-exceptions, Release)
#   lib/cmake/yaml-cpp/             yaml-cpp-config.cmake & co (target: yaml-cpp)
# A wasm project finds it with  -Dyaml-cpp_DIR=<repo>/build/deps/wasm/lib/cmake/yaml-cpp
# (or CMAKE_PREFIX_PATH=<repo>/build/deps/wasm plus
#  CMAKE_FIND_ROOT_PATH_MODE_PACKAGE=BOTH, since Emscripten's toolchain file
#  re-roots package searches into its sysroot by default).
#
# Idempotent: skipped in well under a second when build/deps/wasm/lib/libyaml-cpp.a
# exists and the stamp records the same source version and build flags.
# Needs root only when the deb-src entry must be added or the source fetched.
set -euo pipefail

log() { printf '[build-wasm-deps] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

DEPS_DIR="$REPO_ROOT/build/deps"
SRC_ROOT="$DEPS_DIR/src"
PREFIX="$DEPS_DIR/wasm"
BUILD_ROOT="$DEPS_DIR/wasm-build"
STAMP="$PREFIX/.yaml-cpp.stamp"
DEBSRC_NAME="oomlint-deb-src"

# Exception mode must match the project's (-fwasm-exceptions everywhere).
WASM_CXXFLAGS="-fwasm-exceptions"

# emcc's JS optimizer (acorn-optimizer.js) needs Debian's node-acorn, which
# lives in /usr/share/nodejs; a non-Debian node does not look there.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Host include/library paths leaking into emcc break the build
# (e.g. /usr/include's glibc headers clash with Emscripten's musl sysroot).
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH OBJC_INCLUDE_PATH LIBRARY_PATH \
      CMAKE_PREFIX_PATH CMAKE_INCLUDE_PATH CMAKE_LIBRARY_PATH CMAKE_FRAMEWORK_PATH \
      PKG_CONFIG_PATH CFLAGS CXXFLAGS CPPFLAGS LDFLAGS || true
export DEBIAN_FRONTEND=noninteractive

# ---------------------------------------------------------------------------
# Which yaml-cpp source version?  The one the installed libyaml-cpp-dev was
# built from (${source:Version} drops binNMU suffixes such as +b1).
source_version() {
  local v
  v="$(dpkg-query -W -f='${db:Status-Abbrev} ${source:Version}' libyaml-cpp-dev 2>/dev/null || true)"
  if [[ "$v" == ii* ]]; then
    printf '%s\n' "${v##* }"
    return
  fi
  # Not installed: use the candidate's Source: field (or its own version).
  local cand src
  cand="$(apt-cache policy libyaml-cpp-dev 2>/dev/null | awk '/Candidate:/ {print $2}')"
  [[ -n "$cand" && "$cand" != "(none)" ]] || die "libyaml-cpp-dev is neither installed nor available; run scripts/setup.sh"
  src="$(apt-cache show "libyaml-cpp-dev=$cand" 2>/dev/null | awk -F': ' '/^Source:/ {print $2; exit}')"
  if [[ "$src" =~ \(([^\)]+)\) ]]; then
    printf '%s\n' "${BASH_REMATCH[1]}"
  else
    printf '%s\n' "$cand"
  fi
}

command -v dpkg-query >/dev/null || die "dpkg-query not found (Debian/Ubuntu only)"
YAML_VER="$(source_version)"
[[ -n "$YAML_VER" ]] || die "could not determine the yaml-cpp source version"

command -v emcc >/dev/null || die "emcc not found; run scripts/setup.sh (without --native-only)"
EMCC_VER="$(emcc -dumpversion 2>/dev/null || echo unknown)"
shopt -s nullglob
PATCHES=("$REPO_ROOT"/wasm/yaml-cpp-*.patch)
shopt -u nullglob
PATCH_SUM="$( ((${#PATCHES[@]})) && cat "${PATCHES[@]}" | sha256sum | cut -c1-16 || echo none)"
STAMP_CONTENT="yaml-cpp=$YAML_VER emcc=$EMCC_VER flags=$WASM_CXXFLAGS build=Release static patches=$PATCH_SUM"

if [[ -f "$PREFIX/lib/libyaml-cpp.a" && -f "$STAMP" ]] && [[ "$(cat "$STAMP")" == "$STAMP_CONTENT" ]]; then
  log "yaml-cpp $YAML_VER for wasm is up to date ($PREFIX)"
  exit 0
fi

mkdir -p "$DEPS_DIR"
# Serialise concurrent runs.
exec 9>"$DEPS_DIR/.build-wasm-deps.lock"
if command -v flock >/dev/null; then flock 9; fi

# ---------------------------------------------------------------------------
# deb-src entry for the archive this machine already uses.

codename() {
  local c=""
  if [[ -r /etc/os-release ]]; then
    # shellcheck disable=SC1091
    c="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")"
  fi
  printf '%s' "$c"
}

# Print deb822 stanzas with Types: deb-src mirroring each enabled "deb" stanza
# (of the distribution's own suites) in the given .sources files.
mirror_deb822() {
  local cn="$1"; shift
  awk -v cn="$cn" '
    function flush(   i, n, f, types, has_deb, has_src, keep, s, ns, out, key) {
      if (nf == 0) return
      types = " " tolower(val["types"]) " "
      has_deb = (types ~ /[ \t]deb[ \t]/)
      has_src = (types ~ /[ \t]deb-src[ \t]/)
      keep = has_deb && !has_src && tolower(val["enabled"]) !~ /^[ \t]*no/
      if (keep) {
        # Keep only suites of this distribution (drops e.g. nodesource "nodistro").
        ns = split(val["suites"], s, /[ \t]+/); out = ""
        for (i = 1; i <= ns; i++) {
          if (s[i] == "") continue
          if (cn == "" ? (val["uris"] ~ /debian/) : (s[i] == cn || index(s[i], cn "-") == 1))
            out = out (out == "" ? "" : " ") s[i]
        }
        if (out == "") keep = 0
      }
      if (keep) {
        printf "%sTypes: deb-src\n", (nout++ ? "\n" : "")
        for (i = 1; i <= nf; i++) {
          key = tolower(name[i])
          if (key == "types" || key == "enabled") continue
          if (key == "suites") { printf "Suites: %s\n", out; continue }
          printf "%s", raw[i]
        }
      }
      nf = 0; delete val
    }
    FNR == 1 { flush() }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ { if (nf) { raw[nf] = raw[nf] $0 "\n"; val[tolower(name[nf])] = val[tolower(name[nf])] " " $0 } next }
    {
      p = index($0, ":"); if (p == 0) next
      nf++; name[nf] = substr($0, 1, p - 1); raw[nf] = $0 "\n"
      v = substr($0, p + 1); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v)
      val[tolower(name[nf])] = v
    }
    END { flush() }
  ' "$@"
}

# Print one-line deb-src entries mirroring "deb" lines of classic .list files.
mirror_list() {
  local cn="$1"; shift
  awk -v cn="$cn" '
    /^[ \t]*deb[ \t]/ {
      line = $0; sub(/^[ \t]*deb[ \t]+/, "", line)
      opts = ""
      if (line ~ /^\[/) { p = index(line, "]"); opts = substr(line, 1, p) " "; line = substr(line, p + 1); sub(/^[ \t]+/, "", line) }
      n = split(line, f, /[ \t]+/)
      if (n < 2) next
      suite = f[2]
      if (cn == "" ? (f[1] !~ /debian/) : !(suite == cn || index(suite, cn "-") == 1)) next
      print "deb-src " opts line
    }
  ' "$@"
}

have_source_index() {
  # (apt-cache showsrc takes no =version; capture to avoid SIGPIPE + pipefail)
  local out
  out="$(apt-cache showsrc yaml-cpp 2>/dev/null || true)"
  grep -qxF "Version: $YAML_VER" <<<"$out"
}

ensure_deb_src() {
  if have_source_index; then
    return 0
  fi
  [[ "$(id -u)" == 0 ]] || die "need root to add a deb-src entry and run apt-get update"
  local d=/etc/apt/sources.list.d cn sources=() lists=() content target
  cn="$(codename)"
  shopt -s nullglob
  for f in "$d"/*.sources; do [[ "$f" == "$d/$DEBSRC_NAME.sources" ]] || sources+=("$f"); done
  for f in /etc/apt/sources.list "$d"/*.list; do
    [[ -f "$f" && "$f" != "$d/$DEBSRC_NAME.list" ]] && lists+=("$f")
  done
  shopt -u nullglob
  if ((${#sources[@]})); then
    content="$(mirror_deb822 "$cn" "${sources[@]}")"
    target="$d/$DEBSRC_NAME.sources"
  fi
  if [[ -z "${content:-}" ]] && ((${#lists[@]})); then
    content="$(mirror_list "$cn" "${lists[@]}")"
    target="$d/$DEBSRC_NAME.list"
  fi
  [[ -n "${content:-}" ]] || die "no Debian 'deb' entry found in /etc/apt to mirror as deb-src"
  if [[ ! -f "$target" ]] || [[ "$(cat "$target")" != "$content" ]]; then
    log "adding deb-src entry: $target"
    printf '# Added by oomlint scripts/build-wasm-deps.sh: source packages\n# for the archive this machine already uses.\n%s\n' "$content" >"$target"
  fi
  log "apt-get update (for the source index)"
  apt-get update -qq >&2 || die "apt-get update failed"
  have_source_index || die "yaml-cpp source version $YAML_VER not found in the deb-src index"
}

# ---------------------------------------------------------------------------
# Fetch and unpack the Debian source package (Debian patches applied).

SRC_DIR="$SRC_ROOT/yaml-cpp_${YAML_VER//:/_}"
fetch_source() {
  if [[ -f "$SRC_DIR/.complete" ]]; then
    YAML_SRC="$SRC_DIR/$(cat "$SRC_DIR/.complete")"
    [[ -f "$YAML_SRC/CMakeLists.txt" ]] && return 0
  fi
  ensure_deb_src
  command -v dpkg-source >/dev/null || die "dpkg-source missing; install dpkg-dev (scripts/setup.sh)"
  log "apt-get source yaml-cpp=$YAML_VER -> ${SRC_DIR#"$REPO_ROOT/"}"
  rm -rf "$SRC_DIR"
  mkdir -p "$SRC_DIR"
  # _apt cannot write into a root-owned 0700 path; avoid the sandbox warning.
  (cd "$SRC_DIR" && apt-get source -q -o APT::Sandbox::User=root "yaml-cpp=$YAML_VER" >"$SRC_DIR/apt-get-source.log" 2>&1) || {
    tail -n 20 "$SRC_DIR/apt-get-source.log" >&2; die "apt-get source yaml-cpp=$YAML_VER failed"; }
  local sub
  sub="$(cd "$SRC_DIR" && find . -mindepth 2 -maxdepth 2 -name CMakeLists.txt -printf '%h\n' | head -n1)"
  sub="${sub#./}"
  [[ -n "$sub" ]] || die "unpacked source has no CMakeLists.txt in $SRC_DIR"
  printf '%s\n' "$sub" >"$SRC_DIR/.complete"
  YAML_SRC="$SRC_DIR/$sub"
}

fetch_source

# oomlint's patches, on a copy: the unpacked source stays Debian's.
PATCHED_SRC="$BUILD_ROOT/yaml-cpp-src"
rm -rf "$PATCHED_SRC"
mkdir -p "$BUILD_ROOT"
cp -a "$YAML_SRC" "$PATCHED_SRC"
for p in "${PATCHES[@]}"; do
  log "applying ${p#"$REPO_ROOT/"}"
  patch -d "$PATCHED_SRC" -p1 --forward --quiet <"$p" || die "$p does not apply to yaml-cpp $YAML_VER"
done
YAML_SRC="$PATCHED_SRC"

# ---------------------------------------------------------------------------
# Configure, build and install with emcmake.

BLD="$BUILD_ROOT/yaml-cpp"
rm -rf "$BLD"
mkdir -p "$BLD" "$PREFIX"
# Remove an older install of yaml-cpp from the prefix (other deps untouched).
rm -rf "$PREFIX/include/yaml-cpp" "$PREFIX/lib/libyaml-cpp.a" "$PREFIX/lib/cmake/yaml-cpp" \
       "$PREFIX/lib/pkgconfig/yaml-cpp.pc" "$PREFIX/share/cmake/yaml-cpp" "$PREFIX/share/pkgconfig/yaml-cpp.pc" "$STAMP"

GEN=()
if command -v ninja >/dev/null; then GEN=(-G Ninja); else GEN=(-G "Unix Makefiles"); fi
JOBS="$(nproc 2>/dev/null || echo 2)"
LOG="$BLD/build.log"

log "configuring yaml-cpp $YAML_VER with emcmake (emcc $EMCC_VER, $WASM_CXXFLAGS)"
emcmake cmake -S "$YAML_SRC" -B "$BLD" "${GEN[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DCMAKE_INSTALL_INCLUDEDIR=include \
  -DCMAKE_CXX_FLAGS="$WASM_CXXFLAGS" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node || echo node)" \
  -DBUILD_SHARED_LIBS=OFF \
  -DYAML_BUILD_SHARED_LIBS=OFF \
  -DYAML_CPP_BUILD_TESTS=OFF \
  -DYAML_CPP_BUILD_TOOLS=OFF \
  -DYAML_CPP_BUILD_CONTRIB=OFF \
  -DYAML_CPP_INSTALL=ON \
  >"$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "configure failed (log: $LOG)"; }

# Guard against the known trap: no host include directory may reach emcc.
if grep -Eq -- '-I/usr/include([ /"]|$)|-isystem /usr/include([ /"]|$)' "$BLD/compile_commands.json" 2>/dev/null; then
  die "host include path /usr/include leaked into the wasm build (see $BLD/compile_commands.json)"
fi

log "building (-j$JOBS)"
cmake --build "$BLD" --parallel "$JOBS" >>"$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "build failed (log: $LOG)"; }
cmake --install "$BLD" >>"$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "install failed (log: $LOG)"; }

[[ -f "$PREFIX/lib/libyaml-cpp.a" ]] || die "install did not produce $PREFIX/lib/libyaml-cpp.a"
cfg="$(find "$PREFIX" -name 'yaml-cpp-config.cmake' -print -quit)"
[[ -n "$cfg" ]] || die "install did not produce yaml-cpp-config.cmake"

printf '%s\n' "$STAMP_CONTENT" >"$STAMP"
log "installed yaml-cpp $YAML_VER for wasm into ${PREFIX#"$REPO_ROOT/"} (config: ${cfg#"$PREFIX/"})"
