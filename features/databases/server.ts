import { httpErrorOf } from '../../server/agents/runOp';
import { type HandlerContext, defineHandlers } from '../../server/http/handlers';
import { cachedServerRead } from '../../server/http/serverReadCache';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { defineManagedHandlers } from '../../server/managed/handlers';
import type { ManagedStore } from '../../server/managed/store';
import type { ManagedRow } from '../../server/managed/table';
import { type DatabaseRow, dbStore, migration, userStore } from './serverTable';
import { databaseHooks, databaseKind, databaseRecords } from './serverDatabases';
import { actorOf, dbUserHooks, dbUserKind } from './serverDbUsers';
import { databaseOverview, databases, dbusers } from './resource';
import { databaseEvents } from './serverEvents';

const databaseHandlers = defineManagedHandlers(databases, databaseKind, databaseHooks);
const dbUserHandlers = defineManagedHandlers(dbusers, dbUserKind, dbUserHooks);

/**
 * Drops an app's databases and database users from its server (`DELETE webstacks/{appId}?
 * databases=true`): the users first, so no grant outlives its database. Asked for, never a
 * side effect of deleting an app.
 */
export async function removeAppDatabases(
  ctx: HandlerContext,
  app: { id: number; name: string },
): Promise<void> {
  const users = await userStore(ctx).all(ctx.server.id, { webapp_id: app.id });
  const dbs = await dbStore(ctx).all(ctx.server.id, { webapp_id: app.id });
  for (const [kind, store, rows, noun] of [
    [dbUserKind, userStore(ctx), users, 'database user'],
    [databaseKind, dbStore(ctx), dbs, 'database'],
  ] as const) {
    for (const row of rows) {
      const marked = await (store as ManagedStore<ManagedRow>).change(row, {}, 'deleting');
      const result = await converge(ctx.app, ctx.server, kind, marked, 'remove', {
        message: `Delete ${noun} ${row.name} (of web app ${app.name})`,
        actorId: actorOf(ctx),
      });
      if (result.state === 'failed') throw result.error;
    }
  }
}

export const server = defineServerFeature({
  migrations: { '0011_databases': migration },
  emits: databaseEvents,
  managed: [databaseKind, dbUserKind],
  on: {
    /** The app's databases and users go with it only when its delete asks (`databases=true`). */
    async 'app.deleting'({ ctx, app, databases }) {
      if (databases) await removeAppDatabases(ctx, app);
    },
  },
  handlers: [
    databaseHandlers,
    dbUserHandlers,
    defineHandlers(databaseOverview, {
      actions: {
        /** `GET databases/users/{uid}`: every database on the user's own servers. */
        async ofUser(ctx) {
          const rows = (await ctx.app.db
            .selectFrom('databases')
            .innerJoin('servers', 'servers.id', 'databases.server_id')
            .selectAll('databases')
            .select('servers.name as server_name')
            .where('servers.user_id', '=', ctx.uid)
            .orderBy('servers.name')
            .orderBy('databases.name')
            .execute()) as (DatabaseRow & { server_name: string })[];
          const data = await databaseRecords(ctx.app.db, rows);
          return { data, total: data.length };
        },
        /**
         * `GET databases/collations?server=`: that server's list, read once in 10 minutes. The
         * request hook loaded the server through the caller (404 "No such server" otherwise).
         */
        async collations(ctx) {
          const id = ctx.loaded.server.id;
          try {
            const data = await cachedServerRead(
              ctx.app,
              { read: 'mariadb.collations', serverId: id, ttlMs: 600_000 },
              () => ctx.app.agents.call(id, 'mariadb.collations', {}),
            );
            return { data };
          } catch (error) {
            throw httpErrorOf(error);
          }
        },
      },
    }),
  ],
});
