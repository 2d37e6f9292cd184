/**
 * What web apps add to the generic handlers: a user and domains of their own checked on
 * create, the changes PATCH may make, child apps removed with it (and, through `app.deleting`,
 * what other features hang under it), and the rebuild.
 */
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { HttpError, fieldError } from '../../server/http/errors';
import { loadedChild, type HandlerContext } from '../../server/http/handlers';
import { emit } from '../../server/events/emit';
import { converge } from '../../server/managed/converge';
import type { ManagedHooksOf } from '../../server/managed/handlers';
import { ManagedStore } from '../../server/managed/store';
import type { WebappRow } from './serverTable';
import { STACK_LABELS } from './names';
import { type Input, columns, domainsOf, runsPhp, settingsOf, webappKind } from './serverKind';
import { claim, claimedElsewhere } from './serverDomains';
import { serverInfoActions } from './serverInfo';
import type { webappChange } from './schemas';
import type { webstacks } from './resource';
import { assertWithinPlan, planLimitRefusal } from '../plans/serverApi';

type Change = z.output<typeof webappChange>;

const store = (ctx: HandlerContext) => new ManagedStore<WebappRow>(ctx.app.db, 'webapps');

/** The records of a page of rows, with their system user (one query). */
export async function records(db: Db, rows: WebappRow[]) {
  const serverIds = [...new Set(rows.map((r) => r.server_id))];
  const users = serverIds.length
    ? await db
        .selectFrom('sysusers')
        .select(['id', 'server_id', 'user_name', 'quota_hard'])
        .where('server_id', 'in', serverIds)
        .execute()
    : [];
  return rows.map((row) => {
    const user = users.find((u) => u.server_id === row.server_id && u.user_name === row.sys_user);
    return {
      ...row,
      domains: domainsOf(row),
      php_settings: settingsOf(row),
      web_stack: STACK_LABELS[row.stack_type],
      type: row.parent_id === null ? ('app' as const) : ('child' as const),
      sys_user: { id: user?.id ?? 0, user_name: row.sys_user, quota_hard: user?.quota_hard ?? 0 },
      path: `/home/${row.sys_user}/apps/${row.name}`,
    };
  });
}

/** The app runs as a system user the panel made on this server and that the server has. */
async function checkUser(ctx: HandlerContext, user: string) {
  const known = await ctx.app.db
    .selectFrom('sysusers')
    .select('status')
    .where('server_id', '=', ctx.server.id)
    .where('user_name', '=', user)
    .executeTakeFirst();
  if (!known) throw fieldError('sys_user', `${user} is not a system user of this server`);
  if (known.status !== 'active')
    throw fieldError('sys_user', `${user} is not ready on the server yet (${known.status})`);
}

async function loadParent(ctx: HandlerContext, id: number): Promise<WebappRow> {
  const parent = await store(ctx).find(ctx.server.id, 'id', id);
  // Another tenant's app reads as absent, as a foreign child in a path does.
  if (!parent || parent.status === 'deleting') throw fieldError('parent_id', `No app #${id} here`);
  if (parent.parent_id !== null)
    throw fieldError('parent_id', 'A child app cannot have child apps of its own');
  return parent;
}

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/** What web apps add to the generic handlers (the installers make their apps through them). */
export const webappHooks: ManagedHooksOf<typeof webstacks, Input, Change> = {
  async create(ctx, body) {
    // The plan of the server's owner (who pays) limits its apps, whoever makes one: a team
    // member, an installer or a clone (they all come through here, checkApp included).
    await assertWithinPlan(ctx.app.db, {
      caller: ctx.caller,
      ownerId: ctx.server.user_id,
      what: 'webapps',
    });
    let user = body.sys_user;
    if (body.parent_id !== null) {
      const parent = await loadParent(ctx, body.parent_id);
      if (user !== parent.sys_user)
        throw fieldError('sys_user', `A child app runs as its parent's user, ${parent.sys_user}`);
      user = parent.sys_user;
    }
    await checkUser(ctx, user);
    if (await store(ctx).find(ctx.server.id, 'name', body.name))
      throw fieldError('name', 'This server has an app of this name');
    const taken = await claimedElsewhere(ctx, body.domains, null);
    if (taken.length)
      throw fieldError('domains', `${taken.join(', ')} is served by another app of this server`);
    return columns(body, user);
  },
  async inserted(ctx, row, body) {
    // The generic create writes the row outside a transaction, so the check above is
    // best-effort under concurrency; this re-check after the write counts only the rows up to
    // this one, so of two apps written at once past the limit the later one goes again.
    const over = await planLimitRefusal(ctx.app.db, {
      caller: ctx.caller,
      ownerId: ctx.server.user_id,
      what: 'webapps',
      upToId: row.id,
    });
    if (over) {
      await store(ctx).remove(row);
      throw over;
    }
    try {
      await claim(ctx, row, body.domains);
    } catch (error) {
      await store(ctx).remove(row);
      throw error;
    }
  },
  async update(ctx, body, row) {
    if (row.status === 'deleting') throw new HttpError(409, 'The app is being removed');
    const values: Record<string, unknown> = {};
    if (body.domains) {
      await claim(ctx, row, body.domains);
      values.domains = JSON.stringify(body.domains);
    }
    if (body.stack_type) {
      // The cache rides on nginx's PHP location, which Apache's stack does not have.
      if (body.stack_type !== 'nginx' && row.cache !== null)
        throw fieldError(
          'stack_type',
          'The web cache serves PHP apps on native NGINX only: turn it off first',
        );
      values.stack_type = body.stack_type;
    }
    if (body.web_root) values.web_root = body.web_root;
    if (body.php_version) {
      if (!runsPhp(row.webapp_type))
        throw fieldError(
          'php_version',
          `A ${row.webapp_type === 'static' ? 'static site' : 'Node.js app'} runs no PHP`,
        );
      values.php_version = body.php_version;
    }
    if (body.php_settings)
      values.php_settings = JSON.stringify({ ...settingsOf(row), ...body.php_settings });
    return values;
  },
  record: (row) => ({
    ...row,
    domains: domainsOf(row),
    php_settings: settingsOf(row),
    web_stack: STACK_LABELS[row.stack_type],
    type: row.parent_id === null ? 'app' : 'child',
    sys_user: { id: 0, user_name: row.sys_user, quota_hard: 0 },
    path: `/home/${row.sys_user}/apps/${row.name}`,
  }),
  records: (ctx, rows) => records(ctx.app.db, rows),
  async deleting(ctx, row) {
    const children = await store(ctx).all(ctx.server.id, { parent_id: row.id });
    if (children.length && ctx.query.children !== 'true')
      throw new HttpError(
        409,
        `${row.name} has ${children.length} child app${children.length > 1 ? 's' : ''} (${children
          .map((c) => c.name)
          .join(', ')}): delete them with it (children=true), or first`,
      );
    const databases = ctx.query.databases === 'true';
    // The children go first: each leaves its server before the parent does.
    for (const child of children) {
      await emit(ctx.app, 'app.deleting', { ctx, app: child, databases });
      const marked = await store(ctx).change(child, {}, 'deleting');
      const result = await converge(ctx.app, ctx.server, webappKind, marked, 'remove', {
        message: `Delete web app ${child.name} (a child app of ${row.name})`,
        actorId: actorOf(ctx),
      });
      if (result.state === 'failed') throw result.error;
    }
    // What hangs under it (FTP accounts, cron jobs; its databases when asked) leaves the server
    // before its folder does.
    await emit(ctx.app, 'app.deleting', { ctx, app: row, databases });
  },
  where: (query): Record<string, number> => ({
    ...(typeof query.id === 'number' ? { id: query.id } : {}),
    ...(typeof query.parent_id === 'number' ? { parent_id: query.parent_id } : {}),
  }),
  actions: {
    /** `PATCH webstacks/rebuild/{appId}`: every generated file written again from the panel. */
    async rebuild(ctx) {
      const row = loadedChild(ctx.child);
      if (row.status === 'deleting') throw new HttpError(409, 'The app is being removed');
      const pending = await store(ctx).change(row, {});
      const result = await converge(ctx.app, ctx.server, webappKind, pending, 'apply', {
        message: `Rebuild web app ${row.name}`,
        actorId: actorOf(ctx),
      });
      if (result.state === 'failed') throw result.error;
      // What other features generate for it is written again too (a Node.js app's program).
      if (result.state === 'active')
        await emit(ctx.app, 'app.rebuilding', { ctx, app: result.row });
      if (result.state === 'waiting') ctx.reply.code(202);
      const [record] = await records(ctx.app.db, [result.row]);
      return record!;
    },
    ...serverInfoActions,
  },
};
