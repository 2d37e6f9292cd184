/**
 * The search-and-replace in a cloned database (research §3, step 4). Every text-like column
 * of every base table, each value through replaceInValue (PHP-serialized data kept valid).
 * Values are read as HEX() and written as UNHEX() literals: no value is ever SQL. Only rows
 * where some search text occurs (LOCATE on the bytes) are read at all.
 *
 * Tables with a primary key go row by row in key order, in batches, updating the changed rows
 * by their key. Tables without one go value by value: each distinct value that changes is
 * written over every row holding exactly those bytes (`CAST(c AS BINARY) = UNHEX(old)`), which
 * is as exact as a key and still serialization-aware (no plain REPLACE() on serialized data).
 */
import { type Pair, replaceInValue } from './serialized';
import { IDENT, hexValue, q, sql } from './agentSql';
import { DB_NAME, literal } from '../databases/sql';
import { SKIP_COLUMN } from './resource';

const BATCH = 1000;
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
const INT_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'bigint']);
const CHARSET = /^[a-z0-9_]{1,64}$/;

export interface ReplaceReport {
  tables: number;
  rows_changed: number;
  values_skipped: number;
  tables_without_key: string[];
  /** Tables or columns whose names are outside the allowlist: left as they are. */
  refused: string[];
}

interface Column {
  name: string;
  type: string;
  charset: string;
  collation: string;
  generated: boolean;
}

interface Table {
  name: string;
  columns: Column[];
  key: Column[];
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
    `SELECT HEX(TABLE_NAME), HEX(COLUMN_NAME), DATA_TYPE, IFNULL(CHARACTER_SET_NAME, ''), IFNULL(COLLATION_NAME, ''), EXTRA` +
      ` FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ${n} ORDER BY TABLE_NAME, ORDINAL_POSITION;`,
  );
  const keys = await sql(
    `SELECT HEX(TABLE_NAME), HEX(COLUMN_NAME) FROM information_schema.STATISTICS` +
      ` WHERE TABLE_SCHEMA = ${n} AND INDEX_NAME = 'PRIMARY' ORDER BY TABLE_NAME, SEQ_IN_INDEX;`,
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
      .map(([, c, type, charset, collation, extra]) => ({
        name: unhex(c!),
        type: type!.toLowerCase(),
        charset: charset!,
        collation: collation!,
        generated: /GENERATED/i.test(extra ?? ''),
      }));
    const bad = columns.filter((c) => !IDENT.test(c.name));
    refused.push(...bad.map((c) => `${name}.${c.name}`));
    const key = keys
      .filter(([t]) => unhex(t!) === name)
      .map(([, c]) => columns.find((col) => col.name === unhex(c!)))
      .filter((c): c is Column => c !== undefined);
    // A key we cannot name exactly is no key to update by.
    const keyOk = key.every(
      (c) =>
        IDENT.test(c.name) &&
        (!c.charset || (CHARSET.test(c.charset) && CHARSET.test(c.collation))),
    );
    tables.push({
      name,
      columns: columns.filter((c) => IDENT.test(c.name)),
      key: keyOk ? key : [],
    });
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

/** The search texts that cover every pair: one contained in another is enough alone. */
function needles(pairs: Pair[]): Buffer[] {
  const froms = [...new Set(pairs.map(([f]) => f))];
  return froms
    .filter((f) => !froms.some((g) => g !== f && f.includes(g)))
    .map((f) => Buffer.from(f, 'utf8'));
}

const found = (cols: Column[], search: Buffer[]) =>
  `(${cols
    .flatMap((c) => search.map((s) => `LOCATE(${hexValue(s)}, CAST(${q(c.name)} AS BINARY)) > 0`))
    .join(' OR ')})`;

/** How a key column is read, and how a read value is written back as a literal. */
function keyForm(c: Column): { read: string; lit: (v: string) => string } {
  if (INT_TYPES.has(c.type))
    return {
      read: q(c.name),
      lit: (v) => {
        if (!/^-?\d{1,20}$/.test(v)) throw new Error(`Unexpected key ${v}`);
        return v;
      },
    };
  const hex = (v: string) => {
    if (!/^(?:[0-9A-F]{2})*$/.test(v)) throw new Error('Unexpected key');
    return v;
  };
  if (c.charset)
    return {
      read: `HEX(${q(c.name)})`,
      lit: (v) => `CONVERT(UNHEX('${hex(v)}') USING ${c.charset}) COLLATE ${c.collation}`,
    };
  if (c.type === 'binary' || c.type === 'varbinary')
    return { read: `HEX(${q(c.name)})`, lit: (v) => `UNHEX('${hex(v)}')` };
  // Dates, decimals and the like: their text, which MariaDB converts back for the comparison.
  return {
    read: `HEX(CAST(${q(c.name)} AS CHAR CHARACTER SET utf8mb4))`,
    lit: (v) => `CONVERT(UNHEX('${hex(v)}') USING utf8mb4)`,
  };
}

type Tally = Pick<ReplaceReport, 'rows_changed' | 'values_skipped'>;

async function byKey(db: string, t: Table, cols: Column[], pairs: Pair[], tally: Tally) {
  const forms = t.key.map(keyForm);
  const keyList = t.key.map((c) => q(c.name)).join(', ');
  const filter = found(cols, needles(pairs));
  let after: string[] | null = null;
  for (;;) {
    // One key column: a plain range the index serves (a row constructor may not be).
    const past: string = !after
      ? ''
      : t.key.length === 1
        ? ` AND ${keyList} > ${forms[0]!.lit(after[0]!)}`
        : ` AND (${keyList}) > (${after.map((v, i) => forms[i]!.lit(v)).join(', ')})`;
    const rows = await sql(
      `SELECT ${[...forms.map((f) => f.read), ...cols.map((c) => `HEX(${q(c.name)})`)].join(', ')}` +
        ` FROM ${q(t.name)} WHERE ${filter}${past} ORDER BY ${keyList} LIMIT ${BATCH};`,
      db,
    );
    // Each changed column: key -> new value, written in one UPDATE per column and batch.
    const changes = cols.map(() => [] as { where: string; key: string; value: string }[]);
    const changedRows = new Set<number>();
    rows.forEach((row, r) => {
      const where = t.key.map((c, i) => `${q(c.name)} = ${forms[i]!.lit(row[i]!)}`).join(' AND ');
      const key = forms[0]!.lit(row[0]!);
      cols.forEach((_c, i) => {
        const hex = row[t.key.length + i]!;
        if (hex === 'NULL') return;
        const result = replaceInValue(Buffer.from(hex, 'hex'), pairs);
        if (result.skipped) tally.values_skipped++;
        if (!result.changed) return;
        changes[i]!.push({ where, key, value: hexValue(result.value) });
        changedRows.add(r);
      });
    });
    const single = t.key.length === 1;
    const updates = cols.flatMap((c, i) => {
      const list = changes[i]!;
      if (!list.length) return [];
      // One statement per column and batch: a CASE on the key, the rows named by the key.
      const cases = single
        ? `CASE ${keyList} ${list.map((ch) => `WHEN ${ch.key} THEN ${ch.value}`).join(' ')} END`
        : `CASE ${list.map((ch) => `WHEN ${ch.where} THEN ${ch.value}`).join(' ')} END`;
      const rowsOf = single
        ? `${keyList} IN (${list.map((ch) => ch.key).join(', ')})`
        : list.map((ch) => `(${ch.where})`).join(' OR ');
      return [`UPDATE ${q(t.name)} SET ${q(c.name)} = ${cases} WHERE ${rowsOf};`];
    });
    if (updates.length) {
      await sql(`START TRANSACTION;\n${updates.join('\n')}\nCOMMIT;`, db);
      tally.rows_changed += changedRows.size;
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.slice(0, t.key.length);
  }
}

async function byValue(db: string, t: Table, cols: Column[], pairs: Pair[], tally: Tally) {
  const search = needles(pairs);
  for (const c of cols) {
    const values = await sql(
      `SELECT DISTINCT HEX(${q(c.name)}) FROM ${q(t.name)} WHERE ${found([c], search)};`,
      db,
    );
    const updates: string[] = [];
    for (const [hex] of values) {
      if (!hex || hex === 'NULL') continue;
      const r = replaceInValue(Buffer.from(hex, 'hex'), pairs);
      if (r.skipped) tally.values_skipped++;
      if (r.changed)
        updates.push(
          `UPDATE ${q(t.name)} SET ${q(c.name)} = ${hexValue(r.value)} WHERE CAST(${q(c.name)} AS BINARY) = UNHEX('${hex}');\nSELECT ROW_COUNT();`,
        );
    }
    if (!updates.length) continue;
    const counts = await sql(`START TRANSACTION;\n${updates.join('\n')}\nCOMMIT;`, db);
    tally.rows_changed += counts.reduce((n, [k]) => n + Number(k), 0);
  }
}

/** Replaces the pairs in every table of `db`; `onTable(done, total)` after each table. */
export async function replaceInDatabase(
  db: string,
  pairs: Pair[],
  skipColumns: string[],
  onTable: (done: number, total: number) => void,
): Promise<ReplaceReport> {
  const { tables, refused } = await schema(db);
  const report: ReplaceReport = {
    tables: tables.length,
    rows_changed: 0,
    values_skipped: 0,
    tables_without_key: [],
    refused,
  };
  const usable = pairs.filter(([f, t]) => f !== '' && f !== t);
  for (const [i, t] of tables.entries()) {
    const keyNames = new Set(t.key.map((c) => c.name));
    const cols = t.columns.filter(
      (c) =>
        TEXT_TYPES.has(c.type) &&
        !c.generated &&
        !keyNames.has(c.name) &&
        !skipped(skipColumns, t.name, c.name),
    );
    if (!t.key.length) report.tables_without_key.push(t.name);
    if (cols.length && usable.length)
      await (t.key.length ? byKey : byValue)(db, t, cols, usable, report);
    onTable(i + 1, tables.length);
  }
  return report;
}
