/**
 * What the clone's rewrite of the dump (agentDumpRewrite.ts) may touch: every text-like column of
 * every base table of the source, read from information_schema, minus generated columns and
 * the skipped ones (`*_posts.guid`). Names outside the allowlist are reported, never touched.
 */
import type { DumpPlan } from './agentDumpRewrite';
import { IDENT, sql } from './agentSql';
import { DB_NAME, literal } from '../databases/api';
import { SKIP_COLUMN } from './resource';

const TEXT_TYPES = new Set([
  'char',
  'varchar',
  'tinytext',
  'text',
  'mediumtext',
  'longtext',
  'json',
  'tinyblob',
  'blob',
  'mediumblob',
  'longblob',
]);

export interface ReplaceReport {
  tables: number;
  rows_changed: number;
  values_skipped: number;
  /** Tables or columns whose names are outside the allowlist: left as they are. */
  refused: string[];
}

interface Column {
  name: string;
  type: string;
  generated: boolean;
}

interface Table {
  name: string;
  columns: Column[];
}

const unhex = (h: string) => Buffer.from(h, 'hex').toString('utf8');

async function schema(db: string): Promise<{ tables: Table[]; refused: string[] }> {
  const n = literal(db, DB_NAME);
  const names = (
    await sql(
      `SELECT HEX(TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${n} AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME;`,
    )
  ).map(([h]) => unhex(h!));
  const cols = await sql(
    `SELECT HEX(TABLE_NAME), HEX(COLUMN_NAME), DATA_TYPE, EXTRA` +
      ` FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ${n} ORDER BY TABLE_NAME, ORDINAL_POSITION;`,
  );
  const refused: string[] = [];
  const tables: Table[] = [];
  for (const name of names) {
    if (!IDENT.test(name)) {
      refused.push(name);
      continue;
    }
    const columns = cols
      .filter(([t]) => unhex(t!) === name)
      .map(([, c, type, extra]) => ({
        name: unhex(c!),
        type: type!.toLowerCase(),
        generated: /GENERATED/i.test(extra ?? ''),
      }));
    refused.push(...columns.filter((c) => !IDENT.test(c.name)).map((c) => `${name}.${c.name}`));
    tables.push({ name, columns: columns.filter((c) => IDENT.test(c.name)) });
  }
  return { tables, refused };
}

/** `*_posts.guid` / `wp_posts.guid` against a table and column. */
function skipped(rules: string[], table: string, column: string): boolean {
  return rules.some((rule) => {
    const [, t, c] = SKIP_COLUMN.exec(rule) ?? [];
    if (!t || c !== column) return false;
    return t.startsWith('*') ? table.endsWith(t.slice(1)) : table === t;
  });
}

const BLOB_TYPES = new Set(['tinyblob', 'blob', 'mediumblob', 'longblob']);

/** The plan of the rewrite for database `db`, and the names it refused. */
export async function dumpPlan(
  db: string,
  skipColumns: string[],
): Promise<{ plan: DumpPlan; tables: number; refused: string[] }> {
  const { tables, refused } = await schema(db);
  const plan: DumpPlan = new Map();
  for (const t of tables) {
    const modes = new Map<string, 'text' | 'blob'>();
    for (const c of t.columns)
      if (TEXT_TYPES.has(c.type) && !c.generated && !skipped(skipColumns, t.name, c.name))
        modes.set(c.name, BLOB_TYPES.has(c.type) ? 'blob' : 'text');
    if (modes.size) plan.set(t.name, modes);
  }
  return { plan, tables: tables.length, refused };
}
