/**
 * `csf/...` (settings, service, deny list) and `ports/{in|out}/...`: the settings row is the
 * desired state; a change that matters to a running firewall reaches the agent, and the row is
 * put back when the server refuses it (or is offline), so the panel never claims what is not.
 */
import type { z } from 'zod';
import { readOp } from '../../server/agents/runOp';
import { defineHandlers } from '../../server/http/handlers';
import type { HandlerContext } from '../../server/http/handlers';
import { normalizePorts } from './ports';
import { ccOf, setCc } from './serverCountries';
import { firewall, type portsInput } from './resource';
import {
  type SettingsRow,
  applyState,
  nowIso,
  serially,
  settingsOf,
  settingsRecord,
} from './serverState';

type Ctx = HandlerContext<unknown, unknown>;
type Changes = Partial<Omit<SettingsRow, 'id' | 'server_id'>>;

/** Writes the changes, applies them when the firewall is (or was) on, undoes them on failure. */
async function change(ctx: Ctx, changes: Changes, message: string): Promise<SettingsRow> {
  const { db } = ctx.app;
  const serverId = ctx.server.id;
  return serially(ctx.app, serverId, async () => {
    const before = await settingsOf(db, serverId);
    const { id: _id, server_id: _sid, ...previous } = before;
    await db
      .updateTable('firewall_settings')
      .set({ ...changes, updated_at: nowIso() })
      .where('server_id', '=', serverId)
      .execute();
    const after = await settingsOf(db, serverId);
    if (before.enabled || after.enabled) {
      try {
        await applyState(ctx, message);
      } catch (error) {
        await db
          .updateTable('firewall_settings')
          .set(previous)
          .where('server_id', '=', serverId)
          .execute();
        throw error;
      }
    }
    return after;
  });
}

const portsOf = (row: SettingsRow, direction: 'in' | 'out') => ({
  direction,
  tcp: direction === 'in' ? row.tcp_in : row.tcp_out,
  udp: direction === 'in' ? row.udp_in : row.udp_out,
});

function portChanges(direction: 'in' | 'out', body: z.output<typeof portsInput>): Changes {
  const out: Changes = {};
  if (body.tcp !== undefined) out[`tcp_${direction}`] = normalizePorts(body.tcp);
  if (body.udp !== undefined) out[`udp_${direction}`] = normalizePorts(body.udp);
  return out;
}

export const settingsHandlers = defineHandlers(firewall, {
  actions: {
    async read(ctx) {
      return settingsRecord(await settingsOf(ctx.app.db, ctx.server.id));
    },

    async change(ctx) {
      const body = ctx.body;
      const changes: Changes = {};
      for (const [key, value] of Object.entries(body))
        if (value !== undefined)
          (changes as Record<string, number>)[key] =
            typeof value === 'boolean' ? Number(value) : value;
      const what = [
        body.enabled === undefined
          ? null
          : body.enabled
            ? 'enable the firewall'
            : 'disable the firewall',
        body.ddos_status === undefined ? null : `DDoS limits ${body.ddos_status ? 'on' : 'off'}`,
      ].filter(Boolean);
      const row = await change(
        ctx,
        changes,
        `Firewall: ${what.join(', ') || 'change the DDoS limits'}`,
      );
      return settingsRecord(row);
    },

    async service(ctx) {
      const { action } = ctx.query;
      if (action === 'start' || action === 'stop')
        await change(ctx, { enabled: action === 'start' ? 1 : 0 }, `Firewall: ${action}`);
      else if (action !== 'status')
        await serially(ctx.app, ctx.server.id, () => applyState(ctx, `Firewall: ${action}`));
      return readOp(ctx, 'firewall.status', {});
    },

    async denylist(ctx) {
      const { data } = await readOp(ctx, 'firewall.denylist', {});
      return { data, total: data.length };
    },

    async cc(ctx) {
      return ccOf(ctx.app.db, ctx.server.id);
    },
    async setCc(ctx) {
      return setCc(ctx, ctx.body.countries);
    },

    async portsIn(ctx) {
      return portsOf(await settingsOf(ctx.app.db, ctx.server.id), 'in');
    },
    async setPortsIn(ctx) {
      const changes = portChanges('in', ctx.body);
      const row = await change(ctx, changes, 'Firewall: inbound ports');
      return portsOf(row, 'in');
    },
    async portsOut(ctx) {
      return portsOf(await settingsOf(ctx.app.db, ctx.server.id), 'out');
    },
    async setPortsOut(ctx) {
      const changes = portChanges('out', ctx.body);
      const row = await change(ctx, changes, 'Firewall: outbound ports');
      return portsOf(row, 'out');
    },
  },
});
