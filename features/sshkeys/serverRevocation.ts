import type { FastifyInstance } from 'fastify';
import { AgentOfflineError, AgentOpError, AgentTimeoutError } from '../../server/agents/hub';
import type { Caller } from '../../server/http/caller';
import { whoOf } from '../../server/http/who';

/** Who caused a revocation, kept in the activity log as runOp keeps it; none: the panel. */
export type RevocationCaller = Pick<
  Caller,
  'id' | 'email' | 'actorId' | 'apiKeyLabel' | 'background'
>;

/** A removal waits at most this long for the agent (it runs inside a team change). */
const REMOVE_TIMEOUT_MS = 20_000;

/** One sweep at a time per server, per panel: two would ask the agent twice. */
const sweeps = new WeakMap<FastifyInstance, Map<number, Promise<Outcome>>>();

export interface Outcome {
  /** Keys taken off the server. */
  removed: number;
  /** Keys marked for removal that are still there (server offline, or the agent refused). */
  waiting: number;
}

/**
 * A key stays on a server only while the panel user who added it reaches that server (owns it,
 * or is a member of a team of its owner's that it is shared with). For each server, takes off
 * the keys whose adder lost it — through the agent's `pubkeys.remove`, one activity line per
 * key — and deletes their rows. A key the agent cannot take off now (offline, no answer,
 * refused) stays listed with status `removing` and the reason, and is tried again whenever the
 * server's agent connects (and by the owner's Remove).
 *
 * Called after every change that can take a server away from a user: a member removed or
 * leaving, a team deleted, a server unshared; and when an agent connects.
 */
export async function revokeKeysOfLeavers(
  app: FastifyInstance,
  serverIds: Iterable<number>,
  caller: RevocationCaller | null = null,
): Promise<Outcome> {
  const outcomes = await Promise.all(
    [...new Set(serverIds)].map((serverId) => {
      let running = sweeps.get(app);
      if (!running) sweeps.set(app, (running = new Map()));
      const previous = running.get(serverId) ?? Promise.resolve({ removed: 0, waiting: 0 });
      const next = previous
        .catch(() => undefined)
        .then(() => sweep(app, serverId, caller))
        .catch((err: unknown) => {
          app.log.error({ err, serverId }, 'removing the keys of a former member failed');
          return { removed: 0, waiting: 0 };
        });
      running.set(serverId, next);
      void next.finally(() => {
        if (running.get(serverId) === next) running.delete(serverId);
      });
      return next;
    }),
  );
  return outcomes.reduce(
    (a, b) => ({ removed: a.removed + b.removed, waiting: a.waiting + b.waiting }),
    {
      removed: 0,
      waiting: 0,
    },
  );
}

function waitingReason(error: unknown): string {
  if (error instanceof AgentOfflineError)
    return 'Not removed yet: the server is offline. It is removed as soon as its agent reconnects.';
  if (error instanceof AgentTimeoutError)
    return 'Not removed yet: the server did not answer in time. It is tried again when its agent reconnects.';
  const reason = error instanceof Error ? error.message : 'failed';
  return `Not removed yet: ${reason}. It is tried again when the agent reconnects, or remove it now.`;
}

async function sweep(
  app: FastifyInstance,
  serverId: number,
  caller: RevocationCaller | null,
): Promise<Outcome> {
  const { serverAccounts: accounts, serverLog } = app.services;
  const outcome: Outcome = { removed: 0, waiting: 0 };
  for (const row of await accounts.keysToRevoke(serverId)) {
    const before = row.status;
    // Written first, like every desired state: a panel stopping now leaves it to the next sweep.
    if (before !== 'removing') await accounts.markRemoving(row.id, null);
    const entry = await serverLog.begin({
      serverId,
      userId: row.owner_id,
      actorId: caller ? (caller.actorId ?? (caller.id !== row.owner_id ? caller.id : null)) : null,
      who: await whoOf(app.db, caller, row.owner_id),
      message:
        `Remove SSH key "${row.label}" of ${row.user_name}: ` +
        `${row.adder_email ?? 'the user who added it'} no longer has access to the server`,
    });
    try {
      await app.agents.call(
        serverId,
        'pubkeys.remove',
        { user_name: row.user_name, fingerprint: row.fingerprint },
        { timeoutMs: REMOVE_TIMEOUT_MS },
      );
      await serverLog.finish(entry, null);
      if (before === 'pending') {
        // Its add is still under way and may land after this removal: the add's handler
        // sweeps again when it ends, and that sweep deletes the row.
        outcome.waiting += 1;
        continue;
      }
      await accounts.deleteKey(row.id);
      outcome.removed += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : 'failed';
      await serverLog.finish(entry, message);
      if (before === 'failed' && error instanceof AgentOpError) {
        // It never reached the server (its add failed), and the agent cannot manage that
        // file: nothing to take off.
        await accounts.deleteKey(row.id);
        continue;
      }
      await accounts.markRemoving(row.id, waitingReason(error));
      outcome.waiting += 1;
    }
  }
  return outcome;
}
