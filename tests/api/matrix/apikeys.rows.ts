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
