/**
 * clone.database: `mariadb-dump FROM | rewrite | mariadb TO` inside the agent (argv only, root
 * over the unix socket): the search-and-replace happens on the dump's way (agentDumpRewrite.ts), so
 * the copy is written once. Codes 0..9 while it runs, 10 when it is in.
 */
import { DUMP_FLAGS } from '../../agent/lib/mariadbDump';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { OpContext } from '../../agent/ops/types';
import { CLIENT, sql } from './agentSql';
import { lastLine, pipeCounted } from './agentPipe';
import { type ReplaceReport, dumpPlan } from './agentPlan';
import { DumpFormatError, DumpRewriter } from './agentDumpRewrite';
import type { Pair } from './serialized';
import type { Transform } from 'node:stream';
import { DB_NAME, literal, RESERVED_DATABASES } from '../databases/api';

/** Tables, views, routines, triggers and events of a database; -1 when it does not exist. */
async function objectsIn(name: string): Promise<number> {
  const n = literal(name, DB_NAME);
  const [[exists, objects]] = (await sql(
    `SELECT (SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${n}),` +
      ` (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${n})` +
      ` + (SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ${n})` +
      ` + (SELECT COUNT(*) FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ${n});`,
  )) as [[string, string]];
  return Number(exists) ? Number(objects) : -1;
}

async function copy(from: string, to: string, ctx: OpContext, rewrite: Transform): Promise<void> {
  const [[size]] = (await sql(
    `SELECT COALESCE(SUM(DATA_LENGTH), 0) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${literal(from, DB_NAME)};`,
  )) as [[string]];
  // A dump is about 1 to 1.3 times the data: the estimate only paces the codes, capped below 10.
  const estimate = Math.max(Number(size) * 1.1, 1);
  const mb = (n: number) => (n / 1e6).toFixed(1);
  ctx.progress('Copying the database', 0);
  const { from: dumped, to: loaded } = await pipeCounted(
    {
      file: 'mariadb-dump',
      args: [
        ...DUMP_FLAGS,
        // Column names on every INSERT: the rewrite finds each value's column by them.
        '--complete-insert',
        from,
      ],
    },
    // The dump is data of the source's owner: no client commands (\! and the like) run from it.
    { file: 'mariadb', args: [...CLIENT, '--binary-mode', '--sandbox', to] },
    (bytes) =>
      ctx.progress(
        `Copying the database: ${mb(bytes)} of about ${mb(estimate)} MB`,
        Math.min(9, Math.floor((10 * bytes) / estimate)),
      ),
    250,
    rewrite,
  ).catch((error: unknown) => {
    if (error instanceof DumpFormatError)
      throw new OpError('failed', `The dump of ${from} could not be read: ${error.message}`);
    throw error;
  });
  if (dumped.code !== 0)
    throw new OpError('failed', `mariadb-dump failed: ${lastLine(dumped.stderr) || dumped.signal}`);
  if (loaded.code !== 0)
    throw new OpError(
      'failed',
      `Loading the copy failed: ${lastLine(loaded.stderr) || loaded.signal}`,
    );
}

export interface DatabaseArgs {
  from: string;
  to: string;
  pairs: Array<[string, string]>;
  skip_columns: string[];
}

export async function cloneDatabase(args: DatabaseArgs, ctx: OpContext): Promise<ReplaceReport> {
  const { from, to } = args;
  for (const [field, name] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (RESERVED_DATABASES.includes(name.toLowerCase()))
      throw opFieldError(field, `${name} is MariaDB's own database`);
  if (from === to) throw opFieldError('to', 'The copy needs a database of its own');
  if ((await objectsIn(from)) < 0) throw opFieldError('from', `No database ${from} on the server`);
  const there = await objectsIn(to);
  if (there < 0) throw opFieldError('to', `No database ${to} on the server`);
  // A second run after a lost answer would find its own copy: refused rather than merged.
  if (there > 0) throw opFieldError('to', `${to} must be empty`);
  const { plan, tables, refused } = await dumpPlan(from, args.skip_columns);
  const pairs: Pair[] = args.pairs.filter(([f, t]) => f !== '' && f !== t);
  const rewriter = new DumpRewriter(plan, pairs);
  await copy(from, to, ctx, rewriter.stream());
  ctx.progress('Database copied', 10);
  return {
    tables,
    rows_changed: rewriter.rowsChanged,
    values_skipped: rewriter.valuesSkipped,
    refused,
  };
}
