import { z } from 'zod';
import { defineResource } from './define';

/** One live sign-in of the account: where it started and when it ends. */
export const sessionSchema = z.object({
  /** The session's id (the `jti` its token carries); naming it is not holding it. */
  id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  /** Address and browser of the sign-in that opened the session. */
  ip: z.string(),
  user_agent: z.string(),
  /** The session of the token making this call. */
  current: z.boolean(),
  /** Opened by an admin acting as the user. */
  by_admin: z.boolean(),
});
export type SessionRecord = z.infer<typeof sessionSchema>;

/**
 * The account holder's active sign-in sessions (issue 8, finding 4). Revoking one makes its token
 * answer 401 and closes its live sockets at once. Only the holder: an admin, directly or acting,
 * is refused (they would otherwise see where the user signs in from, or sign them out).
 */
export const sessions = defineResource({
  name: 'sessions',
  label: 'Sessions',
  // A session of the `{uid}` user: the request hook loads `{uuid}` through them.
  parent: 'account',
  params: { uuid: 'uuid' },
  schema: sessionSchema,
  paths: {},
  ops: {},
  actions: {
    list: {
      method: 'GET',
      path: 'sessions/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'The active sign-in sessions of the account, newest first; this one is marked',
      response: z.object({ data: z.array(sessionSchema), total: z.number().int() }),
    },
    revoke: {
      method: 'DELETE',
      path: 'sessions/{uuid}/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'Sign one session out: its token stops working and its live sockets close at once',
      response: z.object({ id: z.string() }),
    },
    revokeOthers: {
      method: 'DELETE',
      path: 'sessions/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'Sign out every session of the account but the one making this call',
      response: z.object({ revoked: z.number().int() }),
    },
  },
});
