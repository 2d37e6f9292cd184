import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { ops } from './resource';
import {
  COLLATION,
  DB_NAME,
  DB_USER,
  NATIVE_HASH,
  RESERVED_DATABASES,
  account,
  charsetOf,
  grantTarget,
  ident,
  literal,
  unescapeGrant,
} from './sql';

/**
 * Runs SQL through the `mariadb` client as root (unix socket), the statements on its standard
 * input: no name, hash or value is ever on a command line. Rows come back tab-separated.
 */
export async function sql(statements: string): Promise<string[][]> {
  const res = await run(
    'mariadb',
    ['--batch', '--skip-column-names', '--raw', '--default-character-set=utf8mb4'],
    { input: statements, timeoutMs: 300_000 },
  );
  if (res.code !== 0) {
    const said = res.stderr.trim().split('\n').pop() ?? '';
    throw new OpError(
      'failed',
      `MariaDB: ${said.replace(/^ERROR \d+ \(\w+\)( at line \d+)?: /, '')}`,
    );
  }
  return res.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

/** An identifier as MariaDB stores it (a table name, a grant's Db value): backticks doubled. */
const quoted = (name: string) => `\`${name.replace(/`/g, '``')}\``;

async function databaseExists(name: string): Promise<boolean> {
  const rows = await sql(
    `SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${literal(name, DB_NAME)};`,
  );
  return rows.length > 0;
}

/** Each panel-style account holding a grant on the database (its exact pattern in mysql.db). */
async function grantsOn(database: string): Promise<{ user: string; pattern: string }[]> {
  const rows = await sql(
    `SELECT User, Db FROM mysql.db WHERE Host = 'localhost' AND (Db = ${literal(database, DB_NAME)} OR Db = '${grantTarget(database).slice(1, -3).replace(/\\/g, '\\\\')}');`,
  );
  return rows
    .filter(([user]) => DB_USER.test(user ?? ''))
    .map(([user, pattern]) => ({ user: user!, pattern: pattern! }));
}

async function checkCollation(collation: string): Promise<void> {
  const rows = await sql(
    `SELECT 1 FROM information_schema.COLLATIONS WHERE COLLATION_NAME = ${literal(collation, COLLATION)};`,
  );
  if (!rows.length)
    throw opFieldError('collation', `MariaDB on the server has no collation ${collation}`);
}

const setCollation = (name: string, collation: string) =>
  `CHARACTER SET ${charsetOf(collation)} COLLATE ${collation}`;

/**
 * MariaDB databases and users. One lock for all: a user's grants, a rename and a drop all touch
 * the grant tables together.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'mariadb.db.set'({ name, collation }) {
      await checkCollation(collation);
      await sql(
        `CREATE DATABASE IF NOT EXISTS ${ident(name)} ${setCollation(name, collation)};\n` +
          `ALTER DATABASE ${ident(name)} ${setCollation(name, collation)};`,
      );
      return { set: true as const };
    },

    async 'mariadb.db.rename'({ from, to, collation }) {
      const [had, has] = [await databaseExists(from), await databaseExists(to)];
      // Renamed already (an answer lost on the way): nothing left to move.
      if (!had && has) return { tables: 0 };
      if (!had) throw opFieldError('name', `No database ${from} on the server`);
      if (has) throw opFieldError('name', `A database ${to} exists on the server`);
      const name = literal(from, DB_NAME);
      const [[others]] = (await sql(
        `SELECT (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${name} AND TABLE_TYPE <> 'BASE TABLE')` +
          ` + (SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ${name})` +
          ` + (SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ${name})` +
          ` + (SELECT COUNT(*) FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ${name});`,
      )) as [[string]];
      if (Number(others) > 0)
        throw opFieldError(
          'name',
          'The database has views, routines, triggers or events, which MariaDB cannot move to another name: rename refused',
        );
      await checkCollation(collation);
      const tables = (
        await sql(`SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${name};`)
      ).map(([t]) => t!);
      const grants = await grantsOn(from);
      const steps = [`CREATE DATABASE ${ident(to)} ${setCollation(to, collation)};`];
      if (tables.length)
        steps.push(
          `RENAME TABLE ${tables.map((t) => `${ident(from)}.${quoted(t)} TO ${ident(to)}.${quoted(t)}`).join(', ')};`,
        );
      for (const g of grants) {
        steps.push(`GRANT ALL PRIVILEGES ON ${grantTarget(to)} TO ${account(g.user)};`);
        steps.push(`REVOKE ALL PRIVILEGES ON ${quoted(g.pattern)}.* FROM ${account(g.user)};`);
      }
      steps.push(`DROP DATABASE ${ident(from)};`);
      await sql(steps.join('\n'));
      return { tables: tables.length };
    },

    async 'mariadb.db.drop'({ name }) {
      // MariaDB keeps the grants of a dropped database: a new one of that name would inherit them.
      const revokes = (await grantsOn(name)).map(
        (g) => `REVOKE ALL PRIVILEGES ON ${quoted(g.pattern)}.* FROM ${account(g.user)};`,
      );
      const had = await databaseExists(name);
      await sql([...revokes, `DROP DATABASE IF EXISTS ${ident(name)};`].join('\n'));
      return { dropped: had };
    },

    async 'mariadb.user.set'({ name, password_hash, databases }) {
      const who = account(name);
      const exists = (
        await sql(
          `SELECT 1 FROM mysql.user WHERE User = ${literal(name, DB_USER)} AND Host = 'localhost';`,
        )
      ).length;
      if (!exists && !password_hash) throw opFieldError('password', 'A new user needs a password');
      for (const db of databases)
        if (!(await databaseExists(db)))
          throw opFieldError('databases', `No database ${db} on the server`);
      const held = (
        await sql(
          `SELECT Db FROM mysql.db WHERE User = ${literal(name, DB_USER)} AND Host = 'localhost';`,
        )
      ).map(([pattern]) => pattern!);
      const steps: string[] = [];
      if (password_hash) {
        const hash = literal(password_hash, NATIVE_HASH);
        steps.push(`CREATE USER IF NOT EXISTS ${who} IDENTIFIED BY PASSWORD ${hash};`);
        steps.push(`ALTER USER ${who} IDENTIFIED BY PASSWORD ${hash};`);
      }
      for (const pattern of held)
        if (!databases.includes(unescapeGrant(pattern)))
          steps.push(`REVOKE ALL PRIVILEGES ON ${quoted(pattern)}.* FROM ${who};`);
      for (const db of databases)
        if (!held.some((pattern) => unescapeGrant(pattern) === db))
          steps.push(`GRANT ALL PRIVILEGES ON ${grantTarget(db)} TO ${who};`);
      if (steps.length) await sql(steps.join('\n'));
      return { set: true as const };
    },

    async 'mariadb.user.drop'({ name }) {
      const rows = await sql(
        `SELECT 1 FROM mysql.user WHERE User = ${literal(name, DB_USER)} AND Host = 'localhost';`,
      );
      await sql(`DROP USER IF EXISTS ${account(name)};`);
      return { dropped: rows.length > 0 };
    },

    async 'mariadb.list'() {
      const databases = (
        await sql('SELECT SCHEMA_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA;')
      )
        .filter(([name]) => !RESERVED_DATABASES.includes(name!.toLowerCase()))
        .map(([name, collation]) => ({ name: name!, collation: collation! }));
      const grants = await sql("SELECT User, Db FROM mysql.db WHERE Host = 'localhost';");
      const users = (await sql("SELECT User FROM mysql.user WHERE Host = 'localhost';")).map(
        ([user]) => ({
          name: user!,
          databases: grants.filter(([u]) => u === user).map(([, db]) => unescapeGrant(db!)),
        }),
      );
      return { databases, users };
    },

    async 'mariadb.collations'() {
      const rows = await sql(
        'SELECT COLLATION_NAME, CHARACTER_SET_NAME, IS_DEFAULT FROM information_schema.COLLATIONS ORDER BY CHARACTER_SET_NAME, COLLATION_NAME;',
      );
      return rows.map(([collation, charset, isDefault]) => ({
        collation: collation!,
        charset: charset!,
        default: isDefault === 'Yes',
      }));
    },
  },
  locks: {
    'mariadb.db.set': () => ['mariadb'],
    'mariadb.db.rename': () => ['mariadb'],
    'mariadb.db.drop': () => ['mariadb'],
    'mariadb.user.set': () => ['mariadb'],
    'mariadb.user.drop': () => ['mariadb'],
  },
});
