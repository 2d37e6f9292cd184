/**
 * A captured webhook delivery replayed: its delivery id is a header the sender chooses, so a
 * replay with a new or no id is caught by what it cannot change without the secret, its
 * signature (GitLab: its token) and body. Both are remembered, in the database (across restarts
 * and panels) and by the panel's clock, for REPLAY_WINDOW_MS; the delivery ids for ever.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** How long a delivery's signature and body are remembered. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60_000;

/** Rows of signed bodies, beside the delivery ids in the same table. */
const BODY = 'body:';

/** The keys a delivery is remembered by: its signed body always, its delivery id when sent. */
export function deliveryKeys(proof: string, raw: Buffer, delivery: string | null): string[] {
  const signed = createHash('sha256').update(proof).update('\n').update(raw).digest('hex');
  return [`${BODY}${signed}`, ...(delivery ? [delivery.slice(0, 100)] : [])];
}

/**
 * Records the keys; false when one of them was seen already (within the window for a signed
 * body), so the delivery is a duplicate or a replay. The unique (webapp, delivery) constraint
 * settles two copies arriving at once.
 */
export async function firstSight(
  app: FastifyInstance,
  webappId: number,
  keys: readonly string[],
): Promise<boolean> {
  const stamp = app.services.clock();
  await app.db
    .deleteFrom('git_deliveries')
    .where('webapp_id', '=', webappId)
    .where('delivery', 'like', `${BODY}%`)
    .where('created_at', '<', new Date(stamp - REPLAY_WINDOW_MS).toISOString())
    .execute();
  for (const delivery of keys) {
    const fresh = await app.db
      .insertInto('git_deliveries')
      .values({ webapp_id: webappId, delivery, created_at: new Date(stamp).toISOString() })
      .onConflict((oc) => oc.columns(['webapp_id', 'delivery']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!fresh) return false;
  }
  return true;
}

/** Forgets a delivery that was not handled (the server offline): the sender's retry is new. */
export async function forget(app: FastifyInstance, webappId: number, keys: readonly string[]) {
  await app.db
    .deleteFrom('git_deliveries')
    .where('webapp_id', '=', webappId)
    .where('delivery', 'in', [...keys])
    .execute();
}
