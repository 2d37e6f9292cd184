import type { servers } from '../../../resources/servers';
import { agentBundle, installCommand, installScript } from '../../agents/installScript';
import { readOp, runOp } from '../../agents/runOp';
import { emit } from '../../events/emit';
import { HttpError, badRequest } from '../../http/errors';
import type { ResourceHandlers } from '../../http/handlers';
import { toServerRecord } from '../../repositories/servers';

type Actions = ResourceHandlers<typeof servers>['actions'];

/** Transfer offers live in ./transfers.ts. */
export const lifecycleActions: Pick<Actions, 'lifecycle' | 'events'> = {
  /** `?action=create`, `?action=script&sid=`, `?action=install&sid=` (the spec's one route). */
  async lifecycle(ctx) {
    const { servers: repo, serverLog } = ctx.app.services;
    if (ctx.query.action === 'create') {
      // The check (features/plans: the plan's server limit) and the row in one transaction, so
      // two creations at once are counted one after the other.
      const row = await ctx.app.db.transaction().execute(async (trx) => {
        await emit(ctx.app, 'server.creating', { userId: ctx.uid, caller: ctx.caller }, { trx });
        return repo.create(ctx.uid, ctx.body ?? {}, trx);
      });
      return toServerRecord(row);
    }
    // `?sid=`, loaded by the request hook: strictly the user's own server (404 otherwise).
    const row = ctx.loaded.sid;
    if (!row) throw badRequest('Name the server', { sid: 'Required' });
    if (!row.install_key) throw new HttpError(409, 'This server is installed already');
    if (ctx.query.action === 'script') {
      const panel = ctx.app.config.publicUrl;
      return {
        command: installCommand(panel, row.install_key),
        script: installScript(
          panel,
          row.install_key,
          (await agentBundle(ctx.app.config.agentBundle))?.sha256 ?? null,
        ),
      };
    }
    await serverLog.clearEvents(row.id);
    await serverLog.addEvent(row.id, 'Waiting for the install command to run on the server', 0);
    return toServerRecord(row);
  },

  async events(ctx) {
    return { data: await ctx.app.services.serverLog.events(ctx.server.id) };
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
