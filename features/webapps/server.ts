import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { HttpError, fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { type ManagedHooks, defineManagedHandlers } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import { type WebappRow, cacheMigration, migration } from './serverTable';
import {
  DEFAULT_PHP_SETTINGS,
  type PhpSettings,
  STACK_LABELS,
  type WebappType,
  cacheSettings,
} from './names';
import { removeAppDatabases } from '../databases/server';
import { removeAppFtpAccounts } from '../ftp/server';
import { removeAppCronJobs } from '../cron/serverApp';
import { portOf } from '../nodejs/serverPorts';
import { rebuildNodeProgram } from '../nodejs/serverProgram';
import { cacheHandlersFor } from './serverCache';
import { serverInfoActions } from './serverInfo';
import {
  type AppSpec,
  type webappChange,
  webappInput,
  webappOverview,
  webstacks,
} from './resource';

export type { WebappRow } from './serverTable';

/** A create's body: the route allows plain types only; the installers give their own. */
export type Input = Omit<z.output<typeof webappInput>, 'webapp_type'> & { webapp_type: WebappType };
type Change = z.output<typeof webappChange>;

/** Apps that run no PHP: a static site, and a Node.js app (nginx proxies to node). */
const runsPhp = (type: string) => type !== 'static' && type !== 'nodejs';

const domainsOf = (row: WebappRow): string[] => JSON.parse(row.domains) as string[];
const settingsOf = (row: WebappRow): PhpSettings => ({
  ...DEFAULT_PHP_SETTINGS,
  ...(JSON.parse(row.php_settings) as Partial<PhpSettings>),
});

async function parentName(db: Db, row: WebappRow): Promise<string | null> {
  if (row.parent_id === null) return null;
  const parent = await db
    .selectFrom('webapps')
    .select('name')
    .where('id', '=', row.parent_id)
    .where('server_id', '=', row.server_id)
    .executeTakeFirst();
  return parent?.name ?? null;
}

/**
 * HTTPS of the app, while a certificate of features/ssl is on its server: one it served once
 * and not being removed (a refused renewal or replacement leaves the old one serving).
 */
async function tlsOf(db: Db, row: WebappRow): Promise<AppSpec['tls']> {
  const cert = await db
    .selectFrom('sslcerts')
    .select('force_https')
    .where('webapp_id', '=', row.id)
    .where('server_id', '=', row.server_id)
    .where('served', '=', 1)
    .where('status', '!=', 'deleting')
    .executeTakeFirst();
  return cert ? { force_https: Boolean(cert.force_https) } : null;
}

/** The app as its server gets it. */
export async function specOf(db: Db, row: WebappRow): Promise<AppSpec> {
  return {
    name: row.name,
    user: row.sys_user,
    stack_type: row.stack_type,
    webapp_type: row.webapp_type as AppSpec['webapp_type'],
    php_version: runsPhp(row.webapp_type) ? row.php_version : null,
    domains: domainsOf(row),
    web_root: row.web_root,
    php_settings: settingsOf(row),
    parent: await parentName(db, row),
    cache: row.cache ? cacheSettings.parse(JSON.parse(row.cache)) : null,
    tls: await tlsOf(db, row),
    // A Node.js app's port, once the installer allocated it (features/nodejs/serverPorts.ts).
    proxy_port: row.webapp_type === 'nodejs' ? await portOf(db, row.id) : null,
  };
}

const sameList = (a: readonly unknown[] | undefined, b: readonly unknown[]) =>
  a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/** The row's own columns from a valid create body (the user: the parent's for a child). */
function columns(body: Input, user = body.sys_user) {
  return {
    name: body.name,
    webapp_type: body.webapp_type,
    stack_type: body.stack_type,
    php_version: runsPhp(body.webapp_type) ? body.php_version : null,
    domains: JSON.stringify(body.domains),
    web_root: body.web_root,
    php_settings: JSON.stringify(body.php_settings),
    sys_user: user,
    parent_id: body.parent_id,
    cache: null,
  };
}

export const webappKind = defineManagedKind<WebappRow>({
  resource: 'webstacks',
  table: 'webapps',
  toColumns: (input) => columns(webappInput.parse(input)),
  noun: (row) => `web app ${row.name}`,
  async apply(op, row, env) {
    await op('webapp.apply', await specOf(env.db, row));
  },
  async remove(op, row) {
    await op('webapp.remove', { name: row.name, user: row.sys_user, files: true });
  },
  async readBack(op, rows, env) {
    const found = new Map((await op('webapp.list', {})).map((a) => [a.name, a]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const app = found.get(row.name);
      const want = await specOf(env.db, row);
      if (!app) drift.set(row.id, 'missing');
      else if (
        app.user !== want.user ||
        app.stack_type !== want.stack_type ||
        (app.php_version ?? null) !== want.php_version ||
        app.web_root !== want.web_root ||
        !sameList(app.domains, want.domains)
      )
        drift.set(row.id, 'changed');
    }
    return drift;
  },
});

const store = (ctx: HandlerContext) => new ManagedStore<WebappRow>(ctx.app.db, 'webapps');

/** The records of a page of rows, with their system user (one query). */
async function records(db: Db, rows: WebappRow[]) {
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
      type: row.parent_id === null ? 'app' : 'child',
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

/** Domains another app of the server answers for already. */
async function claimedElsewhere(ctx: HandlerContext, domains: string[], appId: number | null) {
  if (!domains.length) return [];
  let q = ctx.app.db
    .selectFrom('webapp_domains')
    .select('name')
    .where('server_id', '=', ctx.server.id)
    .where('name', 'in', domains);
  if (appId !== null) q = q.where('webapp_id', '!=', appId);
  return (await q.execute()).map((r) => r.name);
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
};

/** Makes the app's domains its own; a domain another app took first refuses the change. */
async function claim(ctx: HandlerContext, row: WebappRow, domains: string[]) {
  const taken = await claimedElsewhere(ctx, domains, row.id);
  if (taken.length)
    throw fieldError('domains', `${taken.join(', ')} is served by another app of this server`);
  try {
    await ctx.app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webapp_domains').where('webapp_id', '=', row.id).execute();
      await trx
        .insertInto('webapp_domains')
        .values(domains.map((name) => ({ server_id: row.server_id, webapp_id: row.id, name })))
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw fieldError('domains', 'One of these domains was just taken by another app');
    throw error;
  }
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
export const webappHooks: ManagedHooks<WebappRow, Input, Change> = {
  async create(ctx, body) {
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
    if (children.length && (ctx.query as { children?: string }).children !== 'true')
      throw new HttpError(
        409,
        `${row.name} has ${children.length} child app${children.length > 1 ? 's' : ''} (${children
          .map((c) => c.name)
          .join(', ')}): delete them with it (children=true), or first`,
      );
    // The children go first: each leaves its server before the parent does.
    for (const child of children) {
      await removeAppFtpAccounts(ctx, child);
      await removeAppCronJobs(ctx, child);
      if ((ctx.query as { databases?: string }).databases === 'true')
        await removeAppDatabases(ctx, child);
      const marked = await store(ctx).change(child, {}, 'deleting');
      const result = await converge(ctx.app, ctx.server, webappKind, marked, 'remove', {
        message: `Delete web app ${child.name} (a child app of ${row.name})`,
        actorId: actorOf(ctx),
      });
      if (result.state === 'failed') throw result.error;
    }
    // Its FTP accounts leave the server before its folder does; its databases when asked.
    await removeAppFtpAccounts(ctx, row);
    await removeAppCronJobs(ctx, row);
    if ((ctx.query as { databases?: string }).databases === 'true')
      await removeAppDatabases(ctx, row);
  },
  where: (query): Record<string, number> => ({
    ...(typeof query.id === 'number' ? { id: query.id } : {}),
    ...(typeof query.parent_id === 'number' ? { parent_id: query.parent_id } : {}),
  }),
  actions: {
    /** `PATCH webstacks/rebuild/{appId}`: every generated file written again from the panel. */
    async rebuild(ctx) {
      const row = ctx.child as WebappRow;
      if (row.status === 'deleting') throw new HttpError(409, 'The app is being removed');
      const pending = await store(ctx).change(row, {});
      const result = await converge(ctx.app, ctx.server, webappKind, pending, 'apply', {
        message: `Rebuild web app ${row.name}`,
        actorId: actorOf(ctx),
      });
      if (result.state === 'failed') throw result.error;
      // A Node.js app's supervisor program is generated too (features/nodejs/serverProgram.ts).
      if (row.webapp_type === 'nodejs' && result.state === 'active')
        await rebuildNodeProgram(ctx, row);
      if (result.state === 'waiting') ctx.reply.code(202);
      return (await records(ctx.app.db, [result.row]))[0];
    },
    ...serverInfoActions,
  },
};
const handlers = defineManagedHandlers(webstacks, webappKind, webappHooks);

export const server = defineServerFeature({
  migrations: { '0013_webapps': migration, '0015_webapp_cache': cacheMigration },
  async usersOf(db, serverId, userName) {
    const apps = await db
      .selectFrom('webapps')
      .select('name')
      .where('server_id', '=', serverId)
      .where('sys_user', '=', userName)
      .execute();
    return apps.map((a) => `web app ${a.name}`);
  },
  managed: [webappKind],
  handlers: [
    handlers,
    cacheHandlersFor(webappKind),
    {
      resource: webappOverview,
      handlers: {
        actions: {
          /** `GET webstacks/users/{uid}`: every app on the user's own servers. */
          async ofUser(ctx: HandlerContext) {
            const rows = (await ctx.app.db
              .selectFrom('webapps')
              .innerJoin('servers', 'servers.id', 'webapps.server_id')
              .selectAll('webapps')
              .select('servers.name as server_name')
              .where('servers.user_id', '=', ctx.uid)
              .orderBy('servers.name')
              .orderBy('webapps.name')
              .execute()) as (WebappRow & { server_name: string })[];
            const data = await records(ctx.app.db, rows);
            return { data, total: data.length };
          },
        },
      },
    },
  ],
});
