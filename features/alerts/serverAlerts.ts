import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { EVENTS } from '../../resources/agent/protocol';
import type { Database } from '../../server/db/schema';
import { type Alert, type AlertKind, RECOVERING } from './resource';
import { type Transition, deliverJob } from './serverDeliver';
import type { AlertRow } from './serverTables';

/**
 * Opening and closing alerts: one open alert per user, kind and subject (a unique index), the
 * opening said once, the closing once ("recovered"), each send a keyed job so a retried check
 * or a second panel never sends twice. Every change is pushed to the user's browsers.
 */

export interface Opening {
  userId: number;
  kind: AlertKind;
  /** `server:3`, `cert:12`, `task:40`. */
  subjectKey: string;
  subject: string;
  detail: string;
  serverId: number | null;
}

export const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

export function alertOf(row: AlertRow): Alert {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    detail: row.detail,
    state: row.state,
    server_id: row.server_id,
    opened_at: row.opened_at,
    closed_at: row.closed_at,
  };
}

/** What the browsers get (`EVENTS.alert`): the alert as the history lists it. */
function push(app: FastifyInstance, row: AlertRow) {
  try {
    app.live.toUser(row.user_id, EVENTS.alert, alertOf(row));
  } catch (err) {
    app.log.error({ err, alertId: row.id }, 'pushing an alert failed');
  }
}

async function enqueueSends(
  app: FastifyInstance,
  row: AlertRow,
  transition: Transition,
  trx: Transaction<Database>,
) {
  for (const channel of ['mail', 'webhook'] as const)
    await app.jobs.enqueue(
      deliverJob,
      { alertId: row.id, transition, channel },
      { trx, key: `alerts.${row.id}.${transition}.${channel}` },
    );
}

function isUniqueViolation(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : '';
  return /unique|duplicate key/i.test(text);
}

/**
 * Opens the alert unless one is open for the same user, kind and subject; says it once. A
 * one-off kind (a failed task) is written closed: it has nothing to recover from.
 */
export async function openAlert(app: FastifyInstance, opening: Opening): Promise<boolean> {
  const at = stamp(app);
  const recovers = RECOVERING.includes(opening.kind);
  let row: AlertRow;
  try {
    row = await app.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('alerts')
        .values({
          user_id: opening.userId,
          kind: opening.kind,
          subject_key: opening.subjectKey,
          subject: opening.subject.slice(0, 300),
          detail: opening.detail.slice(0, 1000),
          state: recovers ? 'open' : 'closed',
          open_key: recovers ? `${opening.kind} ${opening.subjectKey}` : null,
          server_id: opening.serverId,
          opened_at: at,
          closed_at: recovers ? null : at,
          sent_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await enqueueSends(app, inserted, 'opened', trx);
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  push(app, row);
  return true;
}

/** Closes the open alert of this kind and subject, if any, and says it recovered (once). */
export async function closeAlert(
  app: FastifyInstance,
  userId: number,
  kind: AlertKind,
  subjectKey: string,
): Promise<boolean> {
  const at = stamp(app);
  const row = await app.db.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable('alerts')
      .set({ state: 'closed', open_key: null, closed_at: at })
      .where('user_id', '=', userId)
      .where('open_key', '=', `${kind} ${subjectKey}`)
      .returningAll()
      .executeTakeFirst();
    if (closed) await enqueueSends(app, closed, 'closed', trx);
    return closed;
  });
  if (row) push(app, row);
  return row !== undefined;
}

/** Says an open alert again, once its quiet time (`hours`) has passed since it was last said. */
export async function repeatAlert(app: FastifyInstance, row: AlertRow, hours: number) {
  if (hours <= 0 || row.state !== 'open') return;
  const due = Date.parse(row.sent_at) + hours * 3_600_000;
  if (app.services.clock() < due) return;
  const n = row.repeats + 1;
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('alerts')
      .set({ sent_at: stamp(app), repeats: n })
      .where('id', '=', row.id)
      .where('repeats', '=', row.repeats)
      .where('state', '=', 'open')
      .returningAll()
      .executeTakeFirst();
    if (updated) await enqueueSends(app, updated, `repeat${n}`, trx);
  });
}
