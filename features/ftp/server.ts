import type { Kysely } from 'kysely';
import { encrypt } from 'unixcrypt';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { HttpError, fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';
import { ROOT_DIRECTORY, isWithin } from './names';
import { type ftpInput, ftp } from './resource';

interface FtpColumns {
  webapp_id: number;
  username: string;
  /** Relative to the app's folder (`.`: the folder itself). */
  directory: string;
  /** The password as the server receives it (SHA-512 crypt), kept until the server has it. */
  password_hash: string | null;
  /** 0/1: set by `DELETE ?delhome=true`, the folder goes with the account. */
  delete_dir: number;
}
export type FtpRow = ManagedRow & FtpColumns;

declare module '../../server/db/schema' {
  interface Database {
    ftp_accounts: ManagedColumns & FtpColumns;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    ftp: FtpRow;
  }
}

const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'ftp_accounts')
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('username', 'varchar(32)', (c) => c.notNull())
      .addColumn('directory', 'varchar(255)', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('delete_dir', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ftp_accounts_server')
      .on('ftp_accounts')
      .columns(['server_id', 'username'])
      .execute();
    await db.schema
      .createIndex('ftp_accounts_webapp')
      .on('ftp_accounts')
      .column('webapp_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ftp_accounts').execute();
  },
};

type Input = z.output<typeof ftpInput>;

/** The password as it leaves the panel: its SHA-512 crypt hash (random salt). */
const hashOf = (password: string) => encrypt(password, '$6');

/** The app an account belongs to: its user and name place the folder on the server. */
async function appOf(db: Db, row: FtpRow) {
  const app = await db
    .selectFrom('webapps')
    .select(['name', 'sys_user'])
    .where('id', '=', row.webapp_id)
    .where('server_id', '=', row.server_id)
    .executeTakeFirst();
  if (!app) throw new HttpError(409, `The app of FTP account ${row.username} is gone`);
  return app;
}

const pathOf = (app: { name: string; sys_user: string }, directory: string) =>
  `/home/${app.sys_user}/apps/${app.name}${directory === ROOT_DIRECTORY ? '' : `/${directory}`}`;

export const ftpKind = defineManagedKind<FtpRow>({
  resource: 'ftp',
  table: 'ftp_accounts',
  transient: ['password_hash'],
  toColumns: (input) => {
    const { username, password, directory } = input as Input;
    return { username, directory, password_hash: hashOf(password), delete_dir: 0 };
  },
  noun: (row) => `FTP account ${row.username}`,
  says(action, row) {
    if (action === 'update') return `Change FTP account ${row.username}`;
    if (action === 'delete' && row.delete_dir)
      return `Delete FTP account ${row.username} and its folder ${row.directory}`;
    return undefined;
  },
  async apply(op, row, env) {
    const app = await appOf(env.db, row);
    await op('ftp.set', {
      id: row.id,
      username: row.username,
      sys_user: app.sys_user,
      app: app.name,
      directory: row.directory,
      password_hash: row.password_hash,
    });
  },
  async remove(op, row, env) {
    const app = await appOf(env.db, row);
    await op('ftp.remove', {
      id: row.id,
      username: row.username,
      sys_user: app.sys_user,
      app: app.name,
      directory: row.directory,
      delete_dir: Boolean(row.delete_dir),
    });
  },
  async readBack(op, rows, env) {
    const held = new Map((await op('ftp.list', {})).map((a) => [a.id, a]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const account = held.get(row.id);
      if (!account) drift.set(row.id, 'missing');
      else if (
        account.username !== row.username ||
        account.home !== pathOf(await appOf(env.db, row), row.directory)
      )
        drift.set(row.id, 'changed');
    }
    return drift;
  },
});

const store = (ctx: HandlerContext) => new ManagedStore<FtpRow>(ctx.app.db, 'ftp_accounts');

const webappOf = (ctx: HandlerContext) => {
  if (!ctx.webapp) throw new HttpError(404, 'No such app');
  return ctx.webapp;
};

async function records(ctx: HandlerContext, rows: FtpRow[]) {
  const app = webappOf(ctx);
  return rows.map((row) => record(row, app));
}

const record = (row: FtpRow, app: { name: string; sys_user: string }) => ({
  id: row.id,
  username: row.username,
  directory: row.directory,
  path: pathOf(app, row.directory),
  status: row.status,
  error: row.error,
  error_field: row.error_field,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/**
 * Every FTP account of the app leaves its server, before the app's folder does: called by the
 * web app's delete (its `app.deleting` event), as its child apps are. Offline, they wait
 * (`deleting`) for the sweeper, which removes them before the app's row (kinds in order).
 */
export async function removeAppFtpAccounts(
  ctx: HandlerContext,
  app: { id: number; name: string },
): Promise<void> {
  const accounts = await store(ctx).all(ctx.server.id, { webapp_id: app.id });
  for (const account of accounts) {
    const marked = await store(ctx).change(account, { delete_dir: 0 }, 'deleting');
    const result = await converge(ctx.app, ctx.server, ftpKind, marked, 'remove', {
      message: `Delete FTP account ${account.username} (of web app ${app.name})`,
      actorId: actorOf(ctx),
    });
    if (result.state === 'failed') throw result.error;
  }
}

async function nameTaken(ctx: HandlerContext, username: string): Promise<boolean> {
  return Boolean(await store(ctx).find(ctx.server.id, 'username', username));
}

export const server = defineServerFeature({
  migrations: { '0016_ftp': migration },
  managed: [ftpKind],
  on: {
    /** The app's accounts leave the server before its folder does. */
    'app.deleting': ({ ctx, app }) => removeAppFtpAccounts(ctx, app),
  },
  handlers: [
    defineManagedHandlers(ftp, ftpKind, {
      async create(ctx, body) {
        const app = webappOf(ctx);
        if (app.status === 'deleting') throw new HttpError(409, 'The app is being removed');
        if (await nameTaken(ctx, body.username))
          throw fieldError('username', 'This server has an FTP account of this name');
        return {
          username: body.username,
          directory: body.directory,
          password_hash: hashOf(body.password),
          delete_dir: 0,
        };
      },
      async update(ctx, body, row) {
        if (row.status === 'deleting') throw new HttpError(409, 'The account is being removed');
        const values: Record<string, unknown> = {};
        if (body.password) values.password_hash = hashOf(body.password);
        if (body.directory !== undefined) values.directory = body.directory;
        return values;
      },
      record: (row) => ({ ...row, password_hash: undefined }),
      records,
      async deleting(ctx, row) {
        if (ctx.query.delhome !== 'true') return;
        if (row.directory === ROOT_DIRECTORY)
          throw fieldError(
            'delhome',
            "This account's folder is the app's own folder: it is never deleted with an account (delete the app for that)",
          );
        // Another login of the app in that folder (or below it) would lose its files.
        const others = (await store(ctx).all(ctx.server.id, { webapp_id: row.webapp_id })).filter(
          (a) => a.id !== row.id && isWithin(a.directory, row.directory),
        );
        if (others.length)
          throw fieldError(
            'delhome',
            `${others.map((a) => a.username).join(', ')} also use${others.length > 1 ? '' : 's'} ${row.directory}: its folder stays while they do`,
          );
        await ctx.app.db
          .updateTable('ftp_accounts')
          .set({ delete_dir: 1 })
          .where('id', '=', row.id)
          .where('server_id', '=', row.server_id)
          .execute();
      },
    }),
  ],
});
