import { randomUUID } from 'node:crypto';
import {
  MAX_OPEN_OFFERS_PER_SERVER,
  MAX_TRANSFER_OFFERS_PER_DAY,
  SERVER_PENDING_PREFIX,
  TRANSFER_DAYS,
  type servers,
} from '../../../resources/servers';
import { type Db, now, toCount } from '../../db/database';
import { emit } from '../../events/emit';
import type { ServerRow, ServerTransfersTable } from '../../db/schema';
import { HttpError, badRequest, notFound } from '../../http/errors';
import type { ResourceHandlers } from '../../http/handlers';
import { mails } from '../../mail/templates';
import { toServerRecord } from '../../repositories/servers';
import { whoOf } from '../../http/who';

type Actions = ResourceHandlers<typeof servers>['actions'];
type OfferRow = ServerTransfersTable;

// The limits are declared with the resource, where the UI reads them too.
export { MAX_OPEN_OFFERS_PER_SERVER, MAX_TRANSFER_OFFERS_PER_DAY, TRANSFER_DAYS };

const DAY_MS = 86_400_000;

const NO_OFFER = 'No transfer waits for you under this link';
const ACCEPTED = 'This transfer was accepted already';
const EXPIRED = 'This transfer offer has expired';
const STALE =
  'This transfer offer is no longer valid: the server has changed hands since it was made';

/** Answered by the transaction of an accept that lost the server to another one. */
class StaleOffer extends HttpError {
  constructor() {
    super(410, STALE);
  }
}

/** The name the owner chose; a pending server keeps its cs- name until its agent reports. */
function shownServerName(row: Pick<ServerRow, 'name' | 'pending_name'>): string {
  const chosen = row.pending_name?.trim();
  return chosen && row.name.startsWith(SERVER_PENDING_PREFIX) ? chosen : row.name;
}

/**
 * The offer under `id` if it is addressed to the caller, else 404 (an offer to someone else
 * looks like no offer at all); 409 once accepted, 410 once void or expired.
 */
async function liveOfferFor(db: Db, id: string, email: string): Promise<OfferRow> {
  const offer = await db
    .selectFrom('server_transfers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!offer || offer.to_email !== email) throw notFound(NO_OFFER);
  if (offer.processed_at) throw new HttpError(409, ACCEPTED);
  if (offer.voided_at) throw new StaleOffer();
  if (offer.expires_at <= now()) throw new HttpError(410, EXPIRED);
  return offer;
}

export const transferActions: Pick<Actions, 'transfer' | 'transferOffer' | 'acceptTransfer'> = {
  /**
   * The owner offers the server by mail. Limits keep it from flooding a mailbox: one open offer
   * per server and address, MAX_OPEN_OFFERS_PER_SERVER open per server, and
   * MAX_TRANSFER_OFFERS_PER_DAY per user. A refused offer sends nothing.
   */
  async transfer(ctx) {
    const { users, mailer } = ctx.app.services;
    const from = await users.findById(ctx.uid);
    if (!from) throw notFound();
    const to = ctx.body.email;
    if (to === from.email.toLowerCase())
      throw badRequest('This server is yours already', { email: 'That is your own address' });
    const id = randomUUID();
    const created = new Date();
    const stamp = created.toISOString();
    const expires = new Date(created.getTime() + TRANSFER_DAYS * DAY_MS).toISOString();

    await ctx.app.db.transaction().execute(async (trx) => {
      // The sender's row, then the server's, are held until the offer is written: two offers at
      // once are counted one after the other, and an accept in between is seen.
      await trx
        .updateTable('users')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', from.id)
        .execute();
      const held = await trx
        .updateTable('servers')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', ctx.server.id)
        .where('user_id', '=', from.id)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) !== 1) throw notFound();

      const sentToday = await trx
        .selectFrom('server_transfers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('from_user_id', '=', from.id)
        .where('created_at', '>', new Date(created.getTime() - DAY_MS).toISOString())
        .executeTakeFirstOrThrow();
      if (toCount(sentToday.n) >= MAX_TRANSFER_OFFERS_PER_DAY)
        throw new HttpError(
          429,
          `You made ${MAX_TRANSFER_OFFERS_PER_DAY} transfer offers in the last 24 hours; try again later`,
        );
      const open = await trx
        .selectFrom('server_transfers')
        .select(['to_email', 'expires_at'])
        .where('server_id', '=', ctx.server.id)
        .where('processed_at', 'is', null)
        .where('voided_at', 'is', null)
        .where('expires_at', '>', stamp)
        .execute();
      const same = open.find((offer) => offer.to_email === to);
      if (same)
        throw new HttpError(
          409,
          `This server is offered to ${to} already, until ${same.expires_at.slice(0, 10)}`,
          { email: 'An offer to this address is open already' },
        );
      if (open.length >= MAX_OPEN_OFFERS_PER_SERVER)
        throw new HttpError(
          409,
          `This server has ${MAX_OPEN_OFFERS_PER_SERVER} open transfer offers; wait until one is accepted or expires`,
        );
      await trx
        .insertInto('server_transfers')
        .values({
          id,
          server_id: ctx.server.id,
          from_user_id: from.id,
          to_email: to,
          created_at: stamp,
          expires_at: expires,
          processed_at: null,
          voided_at: null,
        })
        .execute();
    });

    await mailer.send(
      mails.serverTransfer(to, {
        fromName: from.user_name,
        fromEmail: from.email,
        server: shownServerName(ctx.server),
        link: `${ctx.app.config.publicUrl}/dashboard/${id}`,
        days: TRANSFER_DAYS,
      }),
    );
    const entry = await ctx.app.services.serverLog.begin({
      serverId: ctx.server.id,
      userId: ctx.uid,
      actorId: null,
      who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
      message: `Transfer offered to ${to}`,
    });
    await ctx.app.services.serverLog.finish(entry, null);
    return { sent: true as const };
  },

  /** What the link of the mail shows its recipient before they accept. */
  async transferOffer(ctx) {
    const offer = await liveOfferFor(ctx.app.db, String(ctx.params.uuid), ctx.caller!.email);
    const found = await ctx.app.db
      .selectFrom('servers')
      .innerJoin('users', 'users.id', 'servers.user_id')
      .select([
        'servers.name',
        'servers.pending_name',
        'servers.user_id',
        'users.user_name',
        'users.email',
      ])
      .where('servers.id', '=', offer.server_id)
      .executeTakeFirst();
    if (!found) throw notFound(NO_OFFER);
    // Valid only while the one who made it still owns the server.
    if (found.user_id !== offer.from_user_id) throw new StaleOffer();
    return {
      id: offer.id,
      server_name: shownServerName(found),
      from_name: found.user_name,
      from_email: found.email,
      created_at: offer.created_at,
      expires_at: offer.expires_at,
    };
  },

  /**
   * The recipient accepts. In one transaction: the server moves only if the offer's maker still
   * owns it (a conditional update, so of two accepts at once exactly one moves it), the offer is
   * marked accepted, and every other open offer for the server becomes void. The loser's
   * transaction is rolled back and answered 410.
   */
  async acceptTransfer(ctx) {
    const caller = ctx.caller!;
    const offer = await liveOfferFor(ctx.app.db, ctx.query.uuid, caller.email);
    let row: ServerRow;
    try {
      row = await ctx.app.db.transaction().execute(async (trx) => {
        const stamp = now();
        // First the server's row: it is the one lock two accepts of one server contend for.
        const moved = await trx
          .updateTable('servers')
          .set({ user_id: caller.id, updated_at: stamp })
          .where('id', '=', offer.server_id)
          .where('user_id', '=', offer.from_user_id)
          .returningAll()
          .executeTakeFirst();
        if (!moved) {
          // Gone, or no longer the maker's. The same offer accepted twice reads as accepted.
          const again = await trx
            .selectFrom('server_transfers')
            .select('processed_at')
            .where('id', '=', offer.id)
            .executeTakeFirst();
          if (!again) throw notFound(NO_OFFER);
          if (again.processed_at) throw new HttpError(409, ACCEPTED);
          throw new StaleOffer();
        }
        const claimed = await trx
          .updateTable('server_transfers')
          .set({ processed_at: stamp })
          .where('id', '=', offer.id)
          .where('processed_at', 'is', null)
          .where('voided_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(409, ACCEPTED);
        await trx
          .updateTable('server_transfers')
          .set({ voided_at: stamp })
          .where('server_id', '=', offer.server_id)
          .where('id', '!=', offer.id)
          .where('processed_at', 'is', null)
          .where('voided_at', 'is', null)
          .execute();
        // What tied it to the old owner goes in the same transaction (their teams' shares, so
        // their members stop seeing it and its live feed).
        await emit(
          ctx.app,
          'server.transferred',
          { server: moved, from: offer.from_user_id, to: caller.id },
          { trx },
        );
        return moved;
      });
    } catch (error) {
      // A lost race leaves nothing behind; the offer itself is void from now on.
      if (error instanceof StaleOffer)
        await ctx.app.db
          .updateTable('server_transfers')
          .set({ voided_at: now() })
          .where('id', '=', offer.id)
          .where('processed_at', 'is', null)
          .where('voided_at', 'is', null)
          .execute();
      throw error;
    }
    const { servers: repo } = ctx.app.services;
    await ctx.app.live
      .evict(row.uuid, async (viewer) => Boolean(await repo.visibleByUuid(row.uuid, viewer)))
      .catch((err: unknown) => ctx.req.log.warn({ err }, 'live feed eviction failed'));
    const entry = await ctx.app.services.serverLog.begin({
      serverId: row.id,
      userId: caller.id,
      actorId: null,
      who: await whoOf(ctx.app.db, caller, caller.id),
      message: `Transferred to ${caller.email}`,
    });
    await ctx.app.services.serverLog.finish(entry, null);
    // The old owner and their teams' members lost the server: so does what they held on it.
    await emit(ctx.app, 'server.handed-over', { server: row, caller });
    return toServerRecord(row, ctx.app.live.get(row.id));
  },
};
