import type { TestApp, TestUser } from '../helpers';
import { HOLDER, type Row } from './support';

/** The account's API keys: only the holder lists and revokes them (an admin, acting or not: 403). */
export const rows: Row[] = [
  { route: 'GET /api/v1/auth/keys/users/:uid', expect: HOLDER },
  {
    route: 'DELETE /api/v1/auth/keys/:id/users/:uid',
    // A new key of the owner's for each role: the holder's call revokes it.
    target: async (f) => (await f.t.app.services.users.apiKeys.create(f.owner.id, 'matrix')).id,
    expect: HOLDER,
  },
];

/** A stranger's API key, for the derived "another account's row" rows. */
export const owned = {
  'user-security': async (t: TestApp, user: TestUser) =>
    (await t.app.services.users.apiKeys.create(user.id, 'stranger')).id,
};
