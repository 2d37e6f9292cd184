import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/database';
import type { Caller } from './caller';

/** The "who" of an activity line when the panel acted on its own (sweeps, timers, CLI). */
export const SYSTEM_WHO = 'system';

/**
 * Who did it, as the activity logs show it: the user's email, "admin <email> as <user>" when
 * an admin acts for the user, `API key "<label>"`, or "system" for work with no caller.
 * Written with the row, so it still reads right after the key or the admin is gone.
 */
export async function whoOf(
  db: Db,
  caller: Pick<Caller, 'id' | 'email' | 'actorId' | 'apiKeyLabel' | 'background'> | null,
  ownerId: number | null,
): Promise<string> {
  if (!caller) return SYSTEM_WHO;
  if (caller.background) return `${SYSTEM_WHO} (${caller.background})`;
  if (caller.apiKeyLabel !== undefined && caller.apiKeyLabel !== null)
    return `API key "${caller.apiKeyLabel}"`.slice(0, 300);
  const adminId = caller.actorId ?? (ownerId !== null && caller.id !== ownerId ? caller.id : null);
  if (adminId === null) return caller.email;
  return whoOfIds(db, ownerId ?? caller.id, adminId);
}

/** The same from ids alone, for writers that kept only the acting admin's id. */
export async function whoOfIds(db: Db, userId: number, adminId: number | null): Promise<string> {
  const ids = adminId === null ? [userId] : [adminId, userId];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', ids)
    .execute();
  const email = (id: number) => rows.find((row) => row.id === id)?.email ?? `user #${id}`;
  if (adminId === null) return email(userId);
  return `admin ${email(adminId)} as ${email(userId)}`.slice(0, 300);
}

type Acting = Pick<Caller, 'id' | 'email' | 'actorId' | 'apiKeyLabel' | 'background'> | null;

/** The caller of the request being handled, for writers a handler does not hand it to. */
const acting = new AsyncLocalStorage<{ caller: Acting }>();

/** Runs a request's handler with its caller known to every activity line it writes. */
export function actingAs<T>(caller: Acting, work: () => T): T {
  return acting.run({ caller }, work);
}

/**
 * The "who" of the request being handled (null outside one: sweeps, timers, agent events), so
 * an activity line written deep in a feature names an API key or an acting admin without each
 * feature passing the caller down.
 */
export async function whoOfRequest(db: Db, ownerId: number | null): Promise<string | null> {
  const store = acting.getStore();
  return store ? whoOf(db, store.caller, ownerId) : null;
}
