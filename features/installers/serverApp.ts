import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { AppRow } from '../../server/http/children';
import { HttpError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { type ManagedHooks, managedHandlers } from '../../server/managed/handlers';
import type { ManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import type { ManagedRow } from '../../server/managed/table';
import { webstackdb, webstackdbuser } from '../appdatabases/api';
import { databases, dbusers } from '../databases/api';
import { databaseHooks, databaseKind, dbUserHooks, dbUserKind } from '../databases/serverApi';
import type { ResourceDef } from '../../resources/define';
import { phpSettings, type WebappType, webstacks } from '../webapps/api';
import { webappHooks, type WebappInput, webappKind, type WebappRow } from '../webapps/serverApi';
import type { installBase } from './names';

/**
 * The things an installer makes are the same rows a user makes by hand (a web app, its
 * database and database user), made through the same hooks and handlers, with the caller's
 * own tenancy: the lists show them, the sweeper settles them, and deleting them by hand works.
 */

/**
 * The context of a call the installer makes for the caller: same caller, server and tenancy,
 * and a reply that only keeps the status a handler sets (`confirmed` reads it).
 */
function inner(ctx: HandlerContext, webapp: AppRow | null = null) {
  const status = { code: 200 };
  const reply = {
    code(code: number) {
      status.code = code;
      return reply;
    },
  };
  // The handlers of a managed resource only set the reply's status: the stub has nothing else.
  const call = { ...ctx, webapp, reply: reply as unknown as FastifyReply };
  return { call, status };
}

/** A write the server did not confirm (it went offline meanwhile) is no step done. */
function confirmed(status: { code: number }, what: string): void {
  if (status.code === 202)
    throw new HttpError(409, `The server went offline while ${what}: the install stops here`);
}

async function create<R extends ResourceDef, Row extends ManagedRow, Create, Update>(
  ctx: HandlerContext,
  resource: R,
  kind: ManagedKind,
  hooks: ManagedHooks<Row, Create, Update, NoInfer<R>>,
  body: Create,
  what: string,
  webapp: AppRow | null = null,
): Promise<Row> {
  const { call, status } = inner(ctx, webapp);
  const made = await managedHandlers(resource, kind, hooks).create({
    ...call,
    body,
    query: {},
    child: undefined,
  });
  const record = made as { id: number };
  const row = await new ManagedStore<Row>(ctx.app.db, kind.table).find(
    ctx.server.id,
    'id',
    record.id,
  );
  if (!row) throw new HttpError(409, `The ${what} was removed meanwhile`);
  confirmed(status, `making the ${what}`);
  return row;
}

/** Removes a row made by `create` (and its server's side); one gone already is no error. */
async function remove<R extends ResourceDef, Row extends ManagedRow, Create, Update>(
  ctx: HandlerContext,
  resource: R,
  kind: ManagedKind,
  hooks: ManagedHooks<Row, Create, Update, NoInfer<R>>,
  id: number,
  query: Record<string, unknown> = {},
): Promise<void> {
  const row = await new ManagedStore<Row>(ctx.app.db, kind.table).find(ctx.server.id, 'id', id);
  if (!row) return;
  const { call } = inner(ctx);
  await managedHandlers(resource, kind, hooks).delete({
    ...call,
    body: undefined,
    query,
    child: row,
  });
}

type AppFields = z.output<typeof installBase>;

const appInput = (fields: AppFields, type: WebappType, webRoot = 'public'): WebappInput => ({
  ...fields,
  webapp_type: type,
  web_root: webRoot,
  parent_id: null,
  php_settings: phpSettings.parse({}),
});

/**
 * The checks a web app's create makes (a free name, free domains, an active system user),
 * without writing anything: an install that cannot make its app is refused at the form.
 */
export async function checkApp(
  ctx: HandlerContext,
  fields: AppFields,
  type: WebappType,
  webRoot?: string,
) {
  const { call } = inner(ctx);
  await webappHooks.create(
    { ...call, body: undefined, query: {}, child: undefined },
    appInput(fields, type, webRoot),
  );
}

export const makeApp = (
  ctx: HandlerContext,
  fields: AppFields,
  type: WebappType,
  webRoot?: string,
) => create(ctx, webstacks, webappKind, webappHooks, appInput(fields, type, webRoot), 'web app');

export const removeApp = (ctx: HandlerContext, id: number) =>
  remove(ctx, webstacks, webappKind, webappHooks, id, { children: 'true' });

/** The app and the databases it owns: what an install the panel did not see end had made. */
export const removeAppWithDatabases = (ctx: HandlerContext, id: number) =>
  remove(ctx, webstacks, webappKind, webappHooks, id, {
    children: 'true',
    databases: 'true',
  });

// Copies without the `databases` actions: the hooks serve the app's resources too, checked here
// member by member against each declaration.
const dbHooks = (({ actions: _actions, ...crud }) => crud)(databaseHooks);
const userHooks = { ...dbUserHooks };

/** The app's database (listed under the app's databases). */
export const makeDatabase = (ctx: HandlerContext, app: WebappRow, name: string) =>
  create(
    ctx,
    webstackdb,
    databaseKind,
    dbHooks,
    { name, collation: 'utf8mb4_unicode_ci' },
    'database',
    app,
  );

export const removeDatabase = (ctx: HandlerContext, id: number) =>
  remove(ctx, databases, databaseKind, dbHooks, id);

/** The app's database user, with all privileges on the given databases. */
export const makeDbUser = (
  ctx: HandlerContext,
  app: WebappRow,
  name: string,
  password: string,
  databaseIds: number[],
) =>
  create(
    ctx,
    webstackdbuser,
    dbUserKind,
    userHooks,
    { name, password, databases: databaseIds },
    'database user',
    app,
  );

export const removeDbUser = (ctx: HandlerContext, id: number) =>
  remove(ctx, dbusers, dbUserKind, userHooks, id);

/** Whether a database or database user of this name is on the server already. */
export async function databaseNameTaken(ctx: HandlerContext, name: string): Promise<boolean> {
  const [database, user] = await Promise.all([
    new ManagedStore(ctx.app.db, 'databases').find(ctx.server.id, 'name', name),
    new ManagedStore(ctx.app.db, 'dbusers').find(ctx.server.id, 'name', name),
  ]);
  return Boolean(database ?? user);
}
