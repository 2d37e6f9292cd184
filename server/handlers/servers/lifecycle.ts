import { randomUUID } from 'node:crypto';
import type { servers } from '../../../resources/servers';
import { installCommand, installScript } from '../../agents/installScript';
import { readOp, runOp } from '../../agents/runOp';
import { now } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../http/errors';
import type { ResourceHandlers } from '../../http/handlers';
import { toServerRecord } from '../../repositories/servers';
import { mails } from '../../mail/templates';

type Actions = ResourceHandlers<typeof servers>['actions'];

const TRANSFER_DAYS = 7;

export const lifecycleActions: Pick<
  Actions,
  'lifecycle' | 'events' | 'transfer' | 'acceptTransfer'
> = {
  /** `?action=create`, `?action=script&sid=`, `?action=install&sid=` (the spec's one route). */
  async lifecycle(ctx) {
    const { servers: repo, serverLog } = ctx.app.services;
    if (ctx.query.action === 'create') {
      const row = await repo.create(ctx.uid, ctx.body ?? {});
      return toServerRecord(row);
    }
    if (!ctx.query.sid) throw badRequest('Name the server', { sid: 'Required' });
    const row = await repo.findOwned(ctx.query.sid, ctx.uid);
    if (!row) throw notFound();
    if (!row.install_key) throw new HttpError(409, 'This server is installed already');
    if (ctx.query.action === 'script') {
      const panel = ctx.app.config.publicUrl;
      return {
        command: installCommand(panel, row.install_key),
        script: installScript(panel, row.install_key),
      };
    }
    await serverLog.clearEvents(row.id);
    await serverLog.addEvent(row.id, 'Waiting for the install command to run on the server', 0);
    return toServerRecord(row);
  },

  async events(ctx) {
    return { data: await ctx.app.services.serverLog.events(ctx.server.id) };
  },

  async transfer(ctx) {
    const { users, mailer } = ctx.app.services;
    const from = await users.findById(ctx.uid);
    if (!from) throw notFound();
    if (ctx.body.email === from.email)
      throw badRequest('This server is yours already', { email: 'That is your own address' });
    const id = randomUUID();
    const created = new Date();
    await ctx.app.db
      .insertInto('server_transfers')
      .values({
        id,
        server_id: ctx.server.id,
        from_user_id: ctx.uid,
        to_email: ctx.body.email,
        created_at: created.toISOString(),
        expires_at: new Date(created.getTime() + TRANSFER_DAYS * 86_400_000).toISOString(),
        processed_at: null,
      })
      .execute();
    const link = `${ctx.app.config.publicUrl}/dashboard/${id}`;
    await mailer.send(mails.serverTransfer(ctx.body.email, from.user_name, ctx.server.name, link));
    const entry = await ctx.app.services.serverLog.begin({
      serverId: ctx.server.id,
      userId: ctx.uid,
      actorId: null,
      message: `Transfer offered to ${ctx.body.email}`,
    });
    await ctx.app.services.serverLog.finish(entry, null);
    return { sent: true as const };
  },

  /** The recipient accepts: the server changes hands once, if the offer is theirs and live. */
  async acceptTransfer(ctx) {
    const caller = ctx.caller!;
    const offer = await ctx.app.db
      .selectFrom('server_transfers')
      .selectAll()
      .where('id', '=', ctx.query.uuid)
      .executeTakeFirst();
    // An offer to someone else looks like no offer at all.
    if (!offer || offer.to_email !== caller.email)
      throw notFound('No transfer waits for you under this link');
    if (offer.processed_at) throw new HttpError(409, 'This transfer was accepted already');
    if (offer.expires_at < now()) throw new HttpError(410, 'This transfer offer has expired');
    const claimed = await ctx.app.db
      .updateTable('server_transfers')
      .set({ processed_at: now() })
      .where('id', '=', offer.id)
      .where('processed_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1)
      throw new HttpError(409, 'This transfer was accepted already');
    const row = await ctx.app.services.servers.update(offer.server_id, { user_id: caller.id });
    // It leaves the old owner's teams: their members stop seeing it and its live feed.
    await ctx.app.db.deleteFrom('team_servers').where('server_id', '=', row.id).execute();
    const { servers } = ctx.app.services;
    await ctx.app.live
      .evict(row.uuid, async (viewer) => Boolean(await servers.visibleByUuid(row.uuid, viewer)))
      .catch((err: unknown) => ctx.req.log.warn({ err }, 'live feed eviction failed'));
    const entry = await ctx.app.services.serverLog.begin({
      serverId: row.id,
      userId: caller.id,
      actorId: null,
      message: `Transferred to ${caller.email}`,
    });
    await ctx.app.services.serverLog.finish(entry, null);
    return toServerRecord(row, ctx.app.live.get(row.id));
  },
};

export const machineActions: Pick<
  Actions,
  'ping' | 'reboot' | 'ostz' | 'cleanup' | 'hostname' | 'stats'
> = {
  async ping(ctx) {
    const started = performance.now();
    const { uptime } = await readOp(ctx, 'system.uptime', {});
    return { uptime, round_trip_ms: Math.round((performance.now() - started) * 100) / 100 };
  },

  async reboot(ctx) {
    return runOp(ctx, 'Reboot', 'system.reboot', {});
  },

  async ostz(ctx) {
    const info = await runOp(ctx, 'Read OS and time zone', 'system.info', {});
    await ctx.app.services.servers.update(ctx.server.id, {
      os_version: info.os,
      timezone: info.tz,
    });
    return { os: info.os, tz: info.tz };
  },

  async cleanup(ctx) {
    return runOp(ctx, 'Clean up package caches, old logs and the journal', 'system.cleanup', {});
  },

  async hostname(ctx) {
    const result = await runOp(
      ctx,
      `Set the host name to ${ctx.body.hostname}`,
      'system.hostname',
      {
        hostname: ctx.body.hostname,
      },
    );
    await ctx.app.services.servers.update(ctx.server.id, { hostname: result.hostname });
    return result;
  },

  async stats(ctx) {
    return { data: await ctx.app.live.history(ctx.server.id, ctx.query.range) };
  },
};
