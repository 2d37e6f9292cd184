/**
 * The panel's renewal check of Let's Encrypt certificates. certbot renews them on their
 * server (its cron line, renewal.ts), which the panel learns only by reading the server back.
 * Once a day, each server holding a certificate within RENEW_BEFORE_DAYS of its end is read
 * back: a renewal certbot made is taken in (the certificate page shows its new end), and one
 * that has under a week left and was not renewed is a failed line in the server's activity,
 * in words. The read-back of a server is a job of its own with a key per server and day, so
 * a check retried after a partial run never reads a server twice that day.
 */
import { z } from 'zod';
import type { OpCall } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import { SYSTEM_WHO } from '../../server/http/who';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import { RENEW_BEFORE_DAYS } from './renewal';
import { namesOf, sslKind } from './serverKind';
import type { SslRow } from './serverTable';

const DAY_MS = 86_400_000;
/** Left without a renewal this close to its end, a certificate is reported. */
export const WARN_DAYS = 7;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Reads one server's certificates back; reports those certbot has not renewed in time. */
export const readBackJob = defineJob({
  name: 'ssl.read-back',
  payload: z.object({ serverId: z.number().int() }),
  retry: { limit: 2, backoffSeconds: 300 },
  // Once a server a day: its key names the server and the day.
  keyed: true,
  async handler(ctx, { serverId }) {
    const { app } = ctx;
    const server = await app.services.servers.findById(serverId);
    // Offline: tomorrow's check asks again.
    if (!server || !(await app.agents.isOnline(serverId))) return;
    const rows = (await new ManagedStore<SslRow>(app.db, 'sslcerts').all(serverId)).filter(
      (r) => r.type === 'letsencrypt' && r.status === 'active',
    );
    if (!rows.length) return;
    const op: OpCall = (name, args) => app.agents.call(serverId, name, args);
    await sslKind.readBack?.(op, rows, { db: app.db, box: app.services.box });
    const now = app.services.clock();
    const after = await app.db
      .selectFrom('sslcerts')
      .select(['id', 'not_after'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    for (const row of rows) {
      const ends = after.find((a) => a.id === row.id)?.not_after ?? row.not_after;
      if (!ends) continue;
      const renewed = row.not_after !== null && ends > row.not_after;
      const late = Date.parse(ends) - now < WARN_DAYS * DAY_MS;
      if (!renewed && !late) continue;
      const { serverLog } = app.services;
      const entry = await serverLog.begin({
        serverId,
        userId: server.user_id,
        actorId: null,
        who: SYSTEM_WHO,
        message: renewed
          ? `The server renewed the Let's Encrypt certificate of ${namesOf(row).join(', ')}: valid until ${ends.slice(0, 10)}`
          : `Check the renewal of the Let's Encrypt certificate of ${namesOf(row).join(', ')}`,
      });
      await serverLog.finish(
        entry,
        renewed
          ? null
          : `It ends on ${ends.slice(0, 10)} and the server has not renewed it: renew it from the app's certificate page`,
      );
    }
  },
});

/** Daily: the servers whose certificates certbot should have renewed, one read-back each. */
export const renewalCheckJob = defineJob({
  name: 'ssl.renewal-check',
  payload: z.object({}),
  retry: { limit: 2, backoffSeconds: 300 },
  concurrency: 1,
  async handler(ctx) {
    const { app } = ctx;
    const now = app.services.clock();
    const due = new Date(now + RENEW_BEFORE_DAYS * DAY_MS).toISOString();
    const servers = await app.db
      .selectFrom('sslcerts')
      .select('server_id')
      .distinct()
      .where('type', '=', 'letsencrypt')
      .where('status', '=', 'active')
      .where('not_after', '<', due)
      .execute();
    const day = dayOf(ctx.slot?.getTime() ?? now);
    for (const { server_id } of servers)
      await app.jobs.enqueue(
        readBackJob,
        { serverId: server_id },
        { key: `ssl.read-back:${server_id}:${day}` },
      );
  },
});

export const renewalSchedule = defineSchedule({
  name: 'ssl.renewal-check',
  // After certbot's night run (03:17 in most servers' zones of Europe and Africa).
  cron: '45 5 * * *',
  job: renewalCheckJob,
  payload: {},
});
