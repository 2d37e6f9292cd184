import type { FastifyInstance } from 'fastify';
import type { ServerRow } from '../db/schema';
import { AgentOfflineError, AgentOpError, AgentTimeoutError } from '../agents/hub';
import { httpErrorOf } from '../agents/runOp';
import type { HttpError } from '../http/errors';
import { whoOfIds, whoOfRequest } from '../http/who';
import type { ManagedKind, OpCall } from './kind';
import { ManagedStore } from './store';
import type { ManagedRow } from './table';

/** Where a row stands after its server was asked. */
export type Converged<Row> =
  | { state: 'active'; row: Row }
  | { state: 'removed'; row: Row }
  /** Offline, or no answer in time: the row stays pending (or deleting) for the sweeper. */
  | { state: 'waiting'; row: Row }
  | { state: 'failed'; row: Row; error: HttpError };

/** Rows a request or sweep of this panel is asking their server about right now. */
/** The activity line a convergence writes; `who` from whoOf, or derived from the ids. */
export interface ActivityLine {
  message: string;
  actorId: number | null;
  who?: string;
}

const asking = new WeakMap<FastifyInstance, Set<string>>();

/** Whether the row is being asked about now: a sweep leaves it to the request that is. */
export function isAsking(app: FastifyInstance, kind: ManagedKind, id: number): boolean {
  return asking.get(app)?.has(`${kind.table}:${id}`) ?? false;
}

/**
 * Asks the row's server to hold it (`apply`) or drop it (`remove`), logs the step in the
 * server's activity and settles the row: active (or gone), failed with the server's message
 * and field, or left waiting when the server is offline or did not answer in time, since the
 * op may still land; the sweeper then runs it again (ops are idempotent).
 */
export async function converge<Row extends ManagedRow>(
  app: FastifyInstance,
  server: ServerRow,
  kind: ManagedKind,
  row: Row,
  action: 'apply' | 'remove',
  log: ActivityLine,
): Promise<Converged<Row>> {
  let rows = asking.get(app);
  if (!rows) asking.set(app, (rows = new Set()));
  const key = `${kind.table}:${row.id}`;
  rows.add(key);
  try {
    return await ask(app, server, kind, row, action, log);
  } finally {
    rows.delete(key);
  }
}

async function ask<Row extends ManagedRow>(
  app: FastifyInstance,
  server: ServerRow,
  kind: ManagedKind,
  row: Row,
  action: 'apply' | 'remove',
  log: ActivityLine,
): Promise<Converged<Row>> {
  const store = new ManagedStore<Row>(app.db, kind.table);
  if (!(await app.agents.isOnline(server.id))) return { state: 'waiting', row };
  const { serverLog } = app.services;
  const entry = await serverLog.begin({
    serverId: server.id,
    userId: server.user_id,
    actorId: log.actorId,
    who:
      log.who ??
      (await whoOfRequest(app.db, server.user_id)) ??
      (await whoOfIds(app.db, server.user_id, log.actorId)),
    message: log.message,
  });
  const op: OpCall = (name, args) => app.agents.call(server.id, name, args);
  try {
    if (action === 'apply') {
      await kind.apply(op, row, { db: app.db, box: app.services.box });
      const settled = await store.settle(row, { status: 'active' }, kind.transient);
      await serverLog.finish(entry, null);
      return { state: 'active', row: settled };
    }
    await kind.remove(op, row, { db: app.db, box: app.services.box });
    await store.remove(row);
    await serverLog.finish(entry, null);
    return { state: 'removed', row };
  } catch (error) {
    if (error instanceof AgentOfflineError || error instanceof AgentTimeoutError) {
      await serverLog.finish(entry, `${error.message}; asked again when the server answers`);
      return { state: 'waiting', row };
    }
    const http = httpErrorOf(error);
    if (http.statusCode === 500) app.log.error({ err: error, kind: kind.resource }, 'op failed');
    await serverLog.finish(entry, http.message);
    const field = error instanceof AgentOpError ? error.field : undefined;
    const failed = await store.settle(row, { status: 'failed', error: http.message, field });
    return { state: 'failed', row: failed, error: http };
  }
}
