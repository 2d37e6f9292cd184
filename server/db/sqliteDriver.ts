import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 for the Node that runs us: 12.x on Node 20 (13.x needs Node 22 and crashes 20),
 * 13.x (installed as `better-sqlite3-node22`, its addon prebuilt in the package) from Node 22 on,
 * because 12.x aborts Node 24 when V8 collects a handle outside a Node context ("Assertion
 * failed: (env) != nullptr"). Both have the same API; import the driver from here, not the package.
 */
const nodeMajor = Number(process.versions.node.split('.')[0]);
const require = createRequire(import.meta.url);
const SQLite: typeof BetterSqlite3 = require(
  nodeMajor >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3',
) as typeof BetterSqlite3;

export default SQLite;
