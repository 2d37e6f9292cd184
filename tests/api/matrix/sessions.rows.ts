import type { TestApp, TestUser } from '../helpers';
import { HOLDER, type Row } from './support';

/** A new session of the owner's, for a row that revokes one (its id, the token's `jti`). */
const ownerSession = async ({ t, owner }: Parameters<NonNullable<Row['target']>>[0]) => {
  const { sessions } = t.app.services;
  const token = await sessions.issue(owner.id, { ip: '127.0.0.1', userAgent: 'matrix' });
  return (await sessions.verify(token)).sessionId;
};

/**
 * The account's sign-in sessions (issue 8, finding 4): only the holder lists and revokes them;
 * an admin, directly or acting, is refused (403), anyone else naming the owner gets 404.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/sessions/users/:uid', expect: HOLDER },
  { route: 'DELETE /api/v1/sessions/:uuid/users/:uid', target: ownerSession, expect: HOLDER },
  // Signs out the owner's other sessions (the acting admin's among them): fresh tokens.
  { route: 'DELETE /api/v1/sessions/users/:uid', expect: HOLDER, fresh: true },
];

/** A stranger's session, for the derived "another account's row" rows. */
export const owned = {
  sessions: async (t: TestApp, user: TestUser) => {
    const token = await t.app.services.sessions.issue(user.id, { ip: '127.0.0.1', userAgent: 'x' });
    return (await t.app.services.sessions.verify(token)).sessionId;
  },
};
