import { readOp } from '../../server/agents/runOp';
import { HttpError, fieldError } from '../../server/http/errors';
import { type BoundHandlers, type HandlerContext, webappOf } from '../../server/http/handlers';
import { converge } from '../../server/managed/converge';
import type { ManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import type { ManagedRow } from '../../server/managed/table';
import { nginxcache } from './cacheResource';
import { type CacheSettings, cacheSettings } from './names';

interface CachedRow extends ManagedRow {
  name: string;
  stack_type: string;
  php_version: string | null;
  cache: string | null;
}

const settingsOf = (row: CachedRow): CacheSettings =>
  row.cache ? cacheSettings.parse(JSON.parse(row.cache)) : cacheSettings.parse({});

/** The cache as the API shows it. */
const stateOf = (row: CachedRow) => ({
  ...settingsOf(row),
  enabled: row.cache !== null,
  status: row.status,
  error: row.error,
});

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/**
 * The web cache's calls: the settings live on the app's row and reach the server with the
 * app (its vhost carries them), through the app's own kind, so a refusal rolls the vhost back.
 */
export function cacheHandlersFor(kind: ManagedKind): BoundHandlers {
  const appOf = (ctx: HandlerContext): CachedRow => webappOf(ctx);
  async function write(ctx: HandlerContext, cache: CacheSettings | null, message: string) {
    const row = appOf(ctx);
    if (row.status === 'deleting') throw new HttpError(409, 'The app is being removed');
    if (cache && (row.php_version === null || row.stack_type !== 'nginx'))
      throw fieldError(
        'wsid',
        'The web cache is for PHP apps on native NGINX (static sites need none; Apache apps cache their own way)',
      );
    const store = new ManagedStore<CachedRow>(ctx.app.db, kind.table);
    const pending = await store.change(row, { cache: cache ? JSON.stringify(cache) : null });
    const result = await converge(ctx.app, ctx.server, kind, pending, 'apply', {
      message: `${message} of web app ${row.name}`,
      actorId: actorOf(ctx),
    });
    if (result.state === 'failed') throw result.error;
    if (result.state === 'waiting') ctx.reply.code(202);
    return stateOf(result.row);
  }
  const body = (ctx: HandlerContext) => (ctx.body ?? {}) as Partial<CacheSettings>;
  return {
    resource: nginxcache,
    handlers: {
      actions: {
        read: async (ctx: HandlerContext) => stateOf(appOf(ctx)),
        ofApp: async (ctx: HandlerContext) => stateOf(appOf(ctx)),
        enable: (ctx: HandlerContext) =>
          write(ctx, { ...settingsOf(appOf(ctx)), ...body(ctx) }, 'Turn on the web cache'),
        edit: (ctx: HandlerContext) => {
          if (appOf(ctx).cache === null) throw new HttpError(409, 'The web cache is off');
          return write(ctx, { ...settingsOf(appOf(ctx)), ...body(ctx) }, 'Change the web cache');
        },
        disable: (ctx: HandlerContext) => write(ctx, null, 'Turn off the web cache'),
        purge: (ctx: HandlerContext) => readOp(ctx, 'webapp.cachePurge', { name: appOf(ctx).name }),
      },
    },
  };
}
