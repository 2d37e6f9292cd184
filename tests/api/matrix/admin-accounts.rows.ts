import { randomUUID } from 'node:crypto';
import { ADMIN, type Row, STAFF } from './support';

/** The account the disabling row names: a new one for each role (the admin's call disables it). */
let victim = 0;

/**
 * What an admin does for an account instead of reading its codes in the outbox (issue 8):
 * confirm it, or mail its owner a fresh reset code; and disable or enable it (finding 4). Admins
 * only; acting as a user is not enough.
 */
export const rows: Row[] = [
  { route: 'POST /api/v1/admin/confirm/users/:uid', expect: ADMIN },
  { route: 'POST /api/v1/admin/password-reset/users/:uid', expect: ADMIN },
  {
    // Spec: PATCH admin/users?uid with a state body. Disabling signs the account out everywhere.
    route: 'PATCH /api/v1/admin/users',
    target: async ({ t }) =>
      (victim = (
        await t.app.services.users.create({
          email: `victim-${randomUUID()}@example.com`,
          user_name: 'Victim',
          password_hash: 'x',
          confirmed: true,
        })
      ).id),
    query: () => `?uid=${victim}`,
    body: () => ({ state: 'disabled' }),
    expect: ADMIN,
  },
  // The admin area's servers and accounts (issue 26): staff read, admins change.
  {
    route: 'GET /api/v1/admin/servers',
    query: (f) => `?user_id=${f.owner.id}&status=pending&q=a&owner=e`,
    expect: STAFF,
  },
  { route: 'GET /api/v1/admin/user-images', query: (f) => `?ids=${f.owner.id}`, expect: STAFF },
  { route: 'GET /api/v1/admin/credit-history', query: (f) => `?uid=${f.owner.id}`, expect: STAFF },
  {
    // Never the password or two-factor: a profile field only.
    route: 'PATCH /api/v1/admin/update-user',
    body: (f) => ({ id: f.owner.id, CompanyName: 'Matrix Ltd' }),
    expect: ADMIN,
  },
];
