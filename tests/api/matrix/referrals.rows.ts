import { randomUUID } from 'node:crypto';
import { ADMIN, type Fixture, HOLDER, type Row, SELF } from './support';

/** A user referred by the owner, and an earning of `cents` from them. */
async function fund(f: Fixture, cents: number): Promise<void> {
  const { users, referrals } = f.t.app.services;
  const referred = await users.create({
    email: `referred-${randomUUID()}@example.com`,
    user_name: 'Referred',
    password_hash: 'x',
    referrer_id: f.owner.id,
  });
  await referrals.recordEarning(f.owner.id, referred.id, cents, 'matrix');
}

/** A fresh pending withdrawal request of the owner's: the admin route's `:id` target. */
async function ownersWithdrawal(f: Fixture): Promise<number> {
  await fund(f, 1000);
  const id = await f.t.app.services.referrals.withdraw(f.owner.id, {
    amount_cents: 1000,
    method: 'paypal',
    details: 'a@b.c',
  });
  if (id === null) throw new Error('the funded withdrawal was refused');
  return id;
}

/** Authorization matrix rows of referrals: one per route, as tests/api/matrix.test.ts checks. */
export const rows: Row[] = [
  { route: 'GET /api/v1/referal/users/:uid', expect: SELF },
  {
    route: 'PATCH /api/v1/withdraw-referal/users/:uid',
    // Each caller who gets through finds $10 to withdraw.
    body: async (f) => (
      await fund(f, 1000),
      { amount: 10, method: 'paypal', details: 'owner@example.com' }
    ),
    // Only the account holder picks where the money goes.
    expect: { ...HOLDER, owner: 201 },
  },
  { route: 'GET /api/v1/admin/referrals', query: () => '?status=pending', expect: ADMIN },
  {
    route: 'PATCH /api/v1/admin/referrals/:id',
    target: ownersWithdrawal,
    body: () => ({ status: 'approved' }),
    expect: ADMIN,
  },
  // The spec's paths for the same requests (spec s.7 Admin).
  { route: 'GET /api/v1/admin/withdraw-requests', query: () => '?status=pending', expect: ADMIN },
  {
    route: 'PATCH /api/v1/admin/withdraw-requests',
    // A fresh pending request each time it is asked: each admin call finds one to approve.
    query: async (f) => `?id=${await ownersWithdrawal(f)}&action=approve`,
    expect: ADMIN,
  },
];
