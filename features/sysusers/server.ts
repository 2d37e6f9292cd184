import { encrypt } from 'unixcrypt';
import { sysusers } from './resource';
import { readOp, runOp } from '../../server/agents/runOp';
import type { ServerRow, SysusersTable } from '../../server/db/schema';
import { HttpError, fieldError } from '../../server/http/errors';
import type { HandlerContext, ResourceHandlers } from '../../server/http/handlers';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import type { ManagedRow } from '../../server/managed/table';
import { defineServerFeature } from '../../server/feature';
import type { Db } from '../../server/db/database';

export type SysuserRow = ManagedRow &
  Omit<SysusersTable, 'id' | keyof ManagedRow> & { status: ManagedRow['status'] };

// The table is the panel's own (server/db: the root password of a server's first opening is
// written there too); the handlers get its rows as `ctx.child`.
declare module '../../server/http/children' {
  interface FeatureChildRows {
    sysusers: NonNullable<Awaited<ReturnType<typeof loadSysuser>>>;
  }
}

/** A system user of the server by id; root is recorded but never named by id. */
function loadSysuser(db: Db, server: ServerRow, id: number | string) {
  return db
    .selectFrom('sysusers')
    .selectAll()
    .where('id', '=', Number(id))
    .where('server_id', '=', server.id)
    .where('user_name', '!=', 'root')
    .executeTakeFirst();
}

/**
 * The password as the server receives it: a SHA-512 crypt hash (random salt), made here. The
 * row keeps it until the server has it (so a user written while its server is offline is made
 * when it is back), then it is dropped (`transient`).
 */
const hashOf = (password: string) => encrypt(password, '$6');

/**
 * System users (spec `sysusers`) as a server-managed kind. root has a row too, written on the
 * server's first opening to set its password; it is never listed, loaded by id, or deleted.
 */
const sysuserKind = defineManagedKind<SysuserRow>({
  resource: 'sysusers',
  table: 'sysusers',
  transient: ['password_hash'],
  noun: (row) => (row.user_name === 'root' ? 'the root password' : `system user ${row.user_name}`),
  says(action, row) {
    if (row.user_name === 'root') return 'Set the root password';
    if (action === 'update') return `Change the password of ${row.user_name}`;
    return undefined;
  },
  async apply(op, row) {
    if (row.user_name === 'root') {
      if (row.password_hash)
        await op('sysusers.rootPassword', { password_hash: row.password_hash });
      return;
    }
    await op('sysusers.create', {
      user_name: row.user_name,
      password_hash: row.password_hash,
      quota_hard: row.quota_hard,
      quota_soft: row.quota_soft,
    });
  },
  async remove(op, row) {
    if (row.user_name === 'root') return;
    await op('sysusers.delete', { user_name: row.user_name, delete_home: true });
  },
  async readBack(op, rows) {
    const live = new Map((await op('sysusers.list', {})).map((u) => [u.user_name, u]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active' && r.user_name !== 'root')) {
      const user = live.get(row.user_name);
      if (!user) drift.set(row.id, 'missing');
      // Quotas read null where the home's filesystem has none: nothing to compare there.
      else if (
        user.quota_hard !== null &&
        (user.quota_hard !== row.quota_hard || user.quota_soft !== row.quota_soft)
      )
        drift.set(row.id, 'changed');
    }
    return drift;
  },
});

const record = (row: SysuserRow) => ({
  id: row.id,
  user_name: row.user_name,
  quota_hard: row.quota_hard,
  quota_soft: row.quota_soft,
  status: row.status,
  error: row.error,
  error_field: row.error_field,
  created_at: row.created_at,
});

async function hasUsers(ctx: HandlerContext): Promise<boolean> {
  const any = await ctx.app.db
    .selectFrom('sysusers')
    .select('id')
    .where('server_id', '=', ctx.server.id)
    .limit(1)
    .executeTakeFirst();
  return Boolean(any);
}

function taken(ctx: HandlerContext, userName: string) {
  return ctx.app.db
    .selectFrom('sysusers')
    .select('id')
    .where('server_id', '=', ctx.server.id)
    .where('user_name', '=', userName)
    .executeTakeFirst();
}

const bound = defineManagedHandlers(sysusers, sysuserKind, {
  async dry(ctx, body) {
    if (await taken(ctx, body.user_name))
      return { available: false, reason: 'The panel has a system user of this name' };
    if (body.user_name === 'root') return { available: false, reason: 'This name is reserved' };
    return readOp(ctx, 'sysusers.check', { user_name: body.user_name });
  },
  async create(ctx, body) {
    if (await taken(ctx, body.user_name))
      throw fieldError('user_name', 'A system user of this name exists');
    // root only on the server's first opening, and only when its owner asked for it when
    // connecting: its password is set, nothing is created.
    if (body.user_name === 'root' && (!ctx.server.root_password || (await hasUsers(ctx))))
      throw fieldError(
        'user_name',
        ctx.server.root_password
          ? 'This name is reserved'
          : "root's password is set only when asked for when the server is connected",
      );
    const root = body.user_name === 'root';
    return {
      user_name: body.user_name,
      quota_hard: root ? 0 : body.quota_hard,
      quota_soft: root ? 0 : body.quota_soft,
      password_hash: hashOf(body.password),
    };
  },
  async update(_ctx, body) {
    if (!body.password) throw fieldError('password', 'Required');
    return { password_hash: hashOf(body.password) };
  },
  async deleting(ctx, row) {
    // What runs as the user would break with it: the user goes once they are gone.
    const uses = await ctx.app.services.usesOfSystemUser(ctx.app.db, ctx.server.id, row.user_name);
    if (uses.length)
      throw new HttpError(
        409,
        `${row.user_name} runs ${uses.join(', ')}: remove ${uses.length > 1 ? 'them' : 'it'} first`,
      );
    // Its keys were in its home, which goes with it.
    await ctx.app.db
      .deleteFrom('pubkeys')
      .where('server_id', '=', ctx.server.id)
      .where('user_name', '=', row.user_name)
      .execute();
  },
  record,
  // root is recorded (its password is set on first opening) but never listed.
  where: () => ({ user_name: { ne: 'root' } }),
});

/** The get of the declaration: `?rsa=` typed from its query, the loaded user as `ctx.child`. */
type GetCtx = Parameters<ResourceHandlers<typeof sysusers>['get']>[0];

/** The generic handlers, and `?rsa=` on get: the user's deployment key. */
const sysuserHandlers = {
  ...bound,
  handlers: {
    ...bound.handlers,
    async get(ctx: GetCtx) {
      const row = ctx.child;
      if (!ctx.query.rsa) return record(row);
      if (ctx.query.rsa === 'get')
        return readOp(ctx, 'sysusers.deployKey', { user_name: row.user_name, create: false });
      return runOp(ctx, `Create the deployment key of ${row.user_name}`, 'sysusers.deployKey', {
        user_name: row.user_name,
        create: true,
      });
    },
  },
};

/** System users: the managed kind (the sweeper settles it), its handlers and its child loader. */
export const server = defineServerFeature({
  handlers: [sysuserHandlers],
  managed: [sysuserKind],
  children: { sysusers: loadSysuser },
});
