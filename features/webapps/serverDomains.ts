/**
 * The domains of the web apps: each belongs to one app of a server (the webapp_domains table
 * holds them, its unique key settles two apps claiming one at once).
 */
import { fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import type { WebappRow } from './serverTable';

/** Domains another app of the server answers for already. */
export async function claimedElsewhere(
  ctx: HandlerContext,
  domains: string[],
  appId: number | null,
) {
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
export async function claim(ctx: HandlerContext, row: WebappRow, domains: string[]) {
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
