import type { FastifyInstance } from 'fastify';
import { managedKinds } from '../features';
import { converge, isAsking } from './converge';
import { ManagedStore } from './store';
import { SYSTEM_WHO } from '../http/who';

/** One sweep per server at a time, per panel: two would ask the agent twice. */
const running = new WeakMap<FastifyInstance, Map<number, Promise<void>>>();

/**
 * Settles the server's rows still waiting for it: written while it was offline, or left
 * pending by a panel restart or a lost answer. Each is applied (or removed) again; ops are
 * idempotent, so a row the server already holds changes nothing. Rows touched in the last
 * `graceMs` are left to the request that is working on them.
 */
export function settleServer(app: FastifyInstance, serverId: number, graceMs = 0): Promise<void> {
  let sweeps = running.get(app);
  if (!sweeps) running.set(app, (sweeps = new Map()));
  const busy = sweeps.get(serverId);
  if (busy) return busy;
  const sweep = sweepServer(app, serverId, graceMs).finally(() => sweeps.delete(serverId));
  sweeps.set(serverId, sweep);
  return sweep;
}

async function sweepServer(app: FastifyInstance, serverId: number, graceMs: number) {
  const server = await app.services.servers.findById(serverId);
  if (!server) return;
  const before = new Date(Date.now() - graceMs).toISOString();
  for (const kind of managedKinds) {
    const rows = await new ManagedStore(app.db, kind.table).unsettled(serverId, before);
    for (const row of rows) {
      if (isAsking(app, kind, row.id)) continue;
      const removing = row.status === 'deleting';
      const result = await converge(app, server, kind, row, removing ? 'remove' : 'apply', {
        message: `${removing ? 'Remove' : 'Apply'} ${kind.noun(row)} (waiting since ${row.updated_at})`,
        actorId: null,
        who: SYSTEM_WHO,
      });
      // Offline again: the next connection picks the rest up.
      if (result.state === 'waiting') return;
    }
  }
}

/**
 * The periodic sweep: every connected server's rows untouched for longer than any op may take
 * (a request that lost its answer). The agent's connection also starts a sweep of its server.
 */
export async function sweepConnected(app: FastifyInstance, graceMs: number): Promise<void> {
  const ids = await app.services.servers.connectedIds();
  for (const id of ids) await settleServer(app, id, graceMs).catch(() => undefined);
}
