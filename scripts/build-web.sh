#!/usr/bin/env bash
# `make web`: the static site in build/web (index.html, the widget example page, the bundles, the
# WebAssembly module and the example configs), ready for any static host.
#   0. the dependencies (scripts/setup.sh: Debian packages; idempotent),
#   1. the WebAssembly module (cmake preset `wasm`),
#   2. the npm dependencies from web/package-lock.json (`npm ci`, skipped while the lock is unchanged),
#   3. web/build.mjs (esbuild).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh >/dev/null
export NODE_PATH=/usr/share/nodejs  # emcc's optimizer needs acorn from Debian's node-acorn

[[ -f build/wasm/CMakeCache.txt ]] || cmake --preset wasm >/dev/null
cmake --build --preset wasm -j"$(nproc)" --target oomlint_wasm

lock_hash="$(sha256sum web/package-lock.json | cut -d' ' -f1)"
stamp=web/node_modules/.oomlint-lock-sha256
if [[ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]]; then
  (cd web && npm ci --no-audit --no-fund)
  echo "$lock_hash" >"$stamp"
fi

node web/build.mjs --wasm-dir build/wasm/wasm --out build/web
