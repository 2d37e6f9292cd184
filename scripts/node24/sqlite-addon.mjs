/**
 * Preloaded (`node --import`) when the tests run on a second Node version from the same
 * node_modules: better-sqlite3's addon is built for one Node ABI, so the copy built for this
 * Node (STACKDECK_SQLITE_ADDON, see scripts/node24/test.sh) is loaded in its place when
 * better-sqlite3 requires it.
 */
import Module from 'node:module';
import path from 'node:path';

const addon = process.env.STACKDECK_SQLITE_ADDON;
if (addon) {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (path.basename(request) === 'better_sqlite3.node') return addon;
    return resolve.call(this, request, ...rest);
  };
}
