import type { UserRow } from '../db/schema';

/** Who is calling, resolved once per request from the bearer token or the API key pair. */
export interface Caller {
  id: number;
  email: string;
  isAdmin: boolean;
  isStaff: boolean;
  planId: number;
  /** The admin acting as this user, when the token is an impersonation token. */
  actorId: number | null;
  /** The session behind a bearer token; null for API-key calls. */
  sessionId: string | null;
  /** The caller's row as read for this request, so reading one's own record costs no query. */
  row: UserRow;
  photoUpdatedAt: string | null;
  /** The API key's label, for API-key calls (the "who" of activity lines). */
  apiKeyLabel?: string | null;
  /** Set for work the panel does on its own for the user: what started it. */
  background?: string;
}

/** True when someone other than the account holder is at the keyboard. */
export function actsForSomeoneElse(
  caller: Pick<Caller, 'id' | 'actorId'>,
  uid: number | undefined,
): boolean {
  return caller.actorId !== null || (uid !== undefined && uid !== caller.id);
}
