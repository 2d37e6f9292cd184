/**
 * clone.database: `mariadb-dump FROM | mariadb TO` inside the agent (argv only, root over the
 * unix socket), then the search-and-replace in TO (agentReplace.ts). Codes 0..7 for the copy,
 * 7..10 for the replace.
 */
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { OpContext } from '../../agent/ops/types';
import { CLIENT, sql } from './agentSql';
import { lastLine, pipeCounted } from './agentPipe';
import { type ReplaceReport, replaceInDatabase } from './agentReplace';
import { DB_NAME, RESERVED_DATABASES, literal } from '../databases/sql';

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

async function copy(from: string, to: string, ctx: OpContext): Promise<void> {
  const [[size]] = (await sql(
    `SELECT COALESCE(SUM(DATA_LENGTH), 0) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${literal(from, DB_NAME)};`,
  )) as [[string]];
  // A dump is about 1 to 1.3 times the data: the estimate only paces the codes, capped below 7.
  const estimate = Math.max(Number(size) * 1.1, 1);
  const mb = (n: number) => (n / 1e6).toFixed(1);
  ctx.progress('Copying the database', 0);
  const { from: dumped, to: loaded } = await pipeCounted(
    {
      file: 'mariadb-dump',
      args: [
        '--single-transaction',
        '--quick',
        '--routines',
        '--triggers',
        '--events',
        '--hex-blob',
        '--default-character-set=utf8mb4',
        '--max-allowed-packet=1G',
        from,
      ],
    },
    // The dump is data of the source's owner: no client commands (\! and the like) run from it.
    { file: 'mariadb', args: [...CLIENT, '--binary-mode', '--sandbox', to] },
    (bytes) =>
      ctx.progress(
        `Copying the database: ${mb(bytes)} of about ${mb(estimate)} MB`,
        Math.min(6, Math.floor((7 * bytes) / estimate)),
      ),
  );
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
  await copy(from, to, ctx);
  ctx.progress('Replacing the addresses', 7);
  const report = await replaceInDatabase(to, args.pairs, args.skip_columns, (done, total) =>
    ctx.progress(
      `Replacing the addresses: ${done} of ${total} tables`,
      7 + Math.min(2, Math.floor((3 * done) / Math.max(total, 1))),
    ),
  );
  ctx.progress('Database copied', 10);
  return report;
}
