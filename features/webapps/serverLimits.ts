import type { Db } from '../../server/db/database';
import { runOp } from '../../server/agents/runOp';
import { HttpError } from '../../server/http/errors';
import { type BoundHandlers, type HandlerContext, webappOf } from '../../server/http/handlers';
import { type AppLimits, DEFAULT_LIMITS, appLimits, userLimits } from './limits';
import { applimits } from './limitsResource';
import type { WebappRow } from './serverTable';

const settingOf = (limits: string | null): AppLimits | null =>
  limits ? appLimits.parse(JSON.parse(limits)) : null;

/** The settings of every other app of the same user on the same server. */
async function othersOf(db: Db, row: WebappRow): Promise<(AppLimits | null)[]> {
  const apps = await db
    .selectFrom('webapps')
    .select(['id', 'limits'])
    .where('server_id', '=', row.server_id)
    .where('sys_user', '=', row.sys_user)
    .where('id', '!=', row.id)
    .where('status', '!=', 'deleting')
    .execute();
  return apps.map((a) => settingOf(a.limits));
}

const stateOf = (row: WebappRow, own: AppLimits | null, others: (AppLimits | null)[]) => ({
  ...(own ?? DEFAULT_LIMITS),
  defaults: own === null,
  user_limits: userLimits([own, ...others]),
  sys_user: row.sys_user,
});

/**
 * An app's limits: read from its row; a change goes to the server first (the user's files,
 * for every app of the user: the largest setting), then onto the row, so the panel never
 * shows a limit the server does not hold. An offline server refuses the change (409).
 */
export function limitsHandlers(): BoundHandlers {
  const appOf = (ctx: HandlerContext): WebappRow => webappOf(ctx);
  async function write(ctx: HandlerContext, own: AppLimits | null) {
    const row = appOf(ctx);
    if (row.status === 'deleting') throw new HttpError(409, 'The app is being removed');
    const others = await othersOf(ctx.app.db, row);
    const state = stateOf(row, own, others);
    await runOp(
      ctx,
      `Set the limits of web app ${row.name} (user ${row.sys_user}: ${state.user_limits.processes} processes, ${state.user_limits.memory_mb} MiB)`,
      'limits.apply',
      { user: row.sys_user, limits: state.user_limits },
    );
    await ctx.app.db
      .updateTable('webapps')
      .set({ limits: own ? JSON.stringify(own) : null })
      .where('id', '=', row.id)
      .execute();
    return state;
  }
  return {
    resource: applimits,
    handlers: {
      actions: {
        ofApp: async (ctx: HandlerContext) => {
          const row = appOf(ctx);
          return stateOf(row, settingOf(row.limits), await othersOf(ctx.app.db, row));
        },
        set: (ctx: HandlerContext) => write(ctx, appLimits.parse(ctx.body)),
        reset: (ctx: HandlerContext) => write(ctx, null),
      },
    },
  };
}
