import type { HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { type WebappRow, cacheMigration, limitsMigration, migration } from './serverTable';
import { webappKind } from './serverKind';
import { records, webappHooks } from './serverHooks';
import { webappEvents } from './serverEvents';
import { cacheHandlersFor } from './serverCache';
import { limitsHandlers } from './serverLimits';
import { webappOverview, webstacks } from './resource';

export type { WebappRow } from './serverTable';

const handlers = defineManagedHandlers(webstacks, webappKind, webappHooks);

export const server = defineServerFeature({
  migrations: {
    '0013_webapps': migration,
    '0015_webapp_cache': cacheMigration,
    '0030_webapp_limits': limitsMigration,
  },
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
  emits: webappEvents,
  handlers: [
    handlers,
    cacheHandlersFor(webappKind),
    limitsHandlers(),
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
