import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferralSummary, Withdrawal } from '../../features/referrals/schemas';
import { type TestApp, type TestUser, buildTestApp, dialect } from './helpers';

/** Referrals: link, referred users, earnings, balances, withdrawals and their payment. */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
});
afterAll(() => t.close());

async function referrer(): Promise<TestUser & { uuid: string }> {
  const u = await t.user();
  return { ...u, uuid: (await t.app.services.users.findById(u.id))!.uuid };
}
const summary = async (u: TestUser, query = ''): Promise<ReferralSummary> => {
  const res = await t.call('GET', `/api/v1/referal/users/${u.id}${query}`, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const withdraw = (u: TestUser, body: object) =>
  t.call('PATCH', `/api/v1/withdraw-referal/users/${u.id}`, { token: u.token, body });
const register = (ref: string, email: string) =>
  t.call('POST', `/api/v1/users?ref=${ref}`, {
    body: { user_name: 'Friend', email, password: 'a long enough password' },
  });

/** A user who registered through `r`'s link (through the API), and what they earned `r`. */
async function referredBy(r: { uuid: string; id: number }, cents = 0): Promise<number> {
  const email = `friend-${randomUUID().slice(0, 8)}@example.org`;
  const res = await register(r.uuid, email);
  expect(res.statusCode, res.body).toBe(201);
  // The answer names no account (issue 8): the new user's id is read from the database.
  const { id } = (await t.app.services.users.findByEmail(email))!;
  if (cents) await t.app.services.referrals.recordEarning(r.id, id, cents, 'first invoice');
  return id;
}

describe('the referral summary', () => {
  it('gives the link, and zero balances to start with', async () => {
    const r = await referrer();
    expect(await summary(r)).toEqual({
      id: r.id,
      uuid: r.uuid,
      link: `http://panel.test/register/${r.uuid}`,
      earned_cents: 0,
      withdrawn_cents: 0,
      pending_cents: 0,
      paid_cents: 0,
      withdrawable_cents: 0,
      min_withdrawal_cents: 1000,
      referred: { data: [], total: 0 },
      withdrawals: { data: [], total: 0 },
    });
  });

  it('lists the users who registered through the link, masked, with what each earned, paginated', async () => {
    const r = await referrer();
    const first = await referredBy(r, 1250);
    await referredBy(r);
    await t.app.services.referrals.recordEarning(r.id, first, 250, 'second invoice');
    const all = await summary(r);
    expect(all.referred.total).toBe(2);
    expect(all.earned_cents).toBe(1500);
    expect(all.withdrawable_cents).toBe(1500);
    for (const u of all.referred.data) expect(u.email).toMatch(/^f\*\*\*@example\.org$/);
    expect(all.referred.data.map((u) => u.earned_cents).sort()).toEqual([0, 1500]);
    const page2 = await summary(r, '?page=2&perPage=1');
    expect(page2.referred.total).toBe(2);
    expect(page2.referred.data).toHaveLength(1);
    // Another user's referrals are not in this list.
    expect((await summary(await referrer())).referred.total).toBe(0);
  });

  it('refuses self-referral: the referrer’s own mailbox under another spelling', async () => {
    const r = await referrer();
    const [local, domain] = r.email.split('@');
    const alias = await register(r.uuid, `${local!.toUpperCase()}+promo@${domain}`);
    expect(alias.statusCode).toBe(400);
    expect(alias.json().errors).toEqual({ email: 'You cannot use your own referral link' });
    // The same address, known or not, gets the same answer (issue 8).
    expect((await register(r.uuid, r.email)).statusCode).toBe(400);
    expect((await summary(r)).referred.total).toBe(0);
  });
});

describe('recording earnings', () => {
  it('credits only a referrer for a user they referred, in positive whole cents', async () => {
    const r = await referrer();
    const stranger = await t.user();
    const friend = await referredBy(r);
    const { referrals } = t.app.services;
    await expect(referrals.recordEarning(r.id, stranger.id, 100, 'x')).rejects.toThrow(
      'the user was not referred by this referrer',
    );
    await expect(referrals.recordEarning(r.id, r.id, 100, 'x')).rejects.toThrow(
      'nobody earns from themselves',
    );
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      await expect(referrals.recordEarning(r.id, friend, bad, 'x')).rejects.toThrow(
        'an earning is a positive whole number of cents',
      );
    }
    expect((await summary(r)).earned_cents).toBe(0);
  });
});

describe('withdrawals', () => {
  it('validates amounts: positive, whole cents, at least the minimum; and the payout details', async () => {
    const r = await referrer();
    await referredBy(r, 5000);
    const cases: [object, string][] = [
      [{ amount: -10 }, 'Enter an amount above zero'],
      [{ amount: 0 }, 'Enter an amount above zero'],
      [{ amount: 12.345 }, 'Whole cents only (at most two decimals)'],
      [{ amount: 9.99 }, 'The smallest withdrawal is $10.00'],
      [{ amount: 'ten' }, 'Enter an amount'],
      [{ amount: 10, method: 'cash' }, 'Choose PayPal or bank transfer'],
      [{ amount: 10, details: '' }, 'Tell us where to send the money'],
    ];
    for (const [patch, message] of cases) {
      const res = await withdraw(r, { method: 'paypal', details: 'me@paypal.test', ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect((await summary(r)).withdrawable_cents).toBe(5000);
  });

  it('never exceeds the withdrawable balance; what is pending counts as withdrawn', async () => {
    const r = await referrer();
    await referredBy(r, 3000);
    const over = await withdraw(r, { amount: 30.01, method: 'bank', details: 'IBAN DE00 1234' });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe('You can withdraw at most $30.00');
    const ok = await withdraw(r, { amount: 20.5, method: 'bank', details: 'IBAN DE00 1234' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      user_id: r.id,
      amount_cents: 2050,
      method: 'bank',
      details: 'IBAN DE00 1234',
      status: 'pending',
      processed_at: null,
    });
    const mail = await t.lastMail(admin.email);
    expect(mail?.subject).toBe('Referral withdrawal of $20.50 to pay');
    expect(mail?.text_body).toContain(r.email);
    expect(mail?.text_body).toContain('http://panel.test/admin/referrals');
    expect(mail?.text_body).not.toContain('IBAN');
    const after = await summary(r);
    expect(after).toMatchObject({
      earned_cents: 3000,
      withdrawn_cents: 2050,
      pending_cents: 2050,
      paid_cents: 0,
      withdrawable_cents: 950,
    });
    expect(after.withdrawals.data.map((w) => w.id)).toEqual([ok.json().id]);
    // $9.50 left: below the minimum, and above the balance for $10.
    expect(
      (await withdraw(r, { amount: 10, method: 'paypal', details: 'me@x.test' })).statusCode,
    ).toBe(409);
  });

  it(`twenty parallel requests for the whole balance pay it once (${dialect})`, async () => {
    const r = await referrer();
    await referredBy(r, 4321);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        withdraw(r, { amount: 43.21, method: 'paypal', details: 'me@paypal.test' }),
      ),
    );
    const codes = results.map((res) => res.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const after = await summary(r);
    expect(after).toMatchObject({
      withdrawn_cents: 4321,
      withdrawable_cents: 0,
      pending_cents: 4321,
    });
    expect(after.withdrawals.total).toBe(1);
  });

  it('twenty parallel requests of a quarter each: four pass, the balance never goes below zero', async () => {
    const r = await referrer();
    await referredBy(r, 4000);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        withdraw(r, { amount: 10, method: 'paypal', details: 'me@paypal.test' }),
      ),
    );
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(4);
    expect(results.filter((res) => res.statusCode === 409)).toHaveLength(16);
    expect(await summary(r)).toMatchObject({ withdrawn_cents: 4000, withdrawable_cents: 0 });
  });

  it('admins list requests, mark one paid, reject another (its amount returns), each once', async () => {
    const r = await referrer();
    await referredBy(r, 5000);
    const a = (await withdraw(r, { amount: 20, method: 'paypal', details: 'me@p.test' })).json();
    const b = (await withdraw(r, { amount: 15, method: 'bank', details: 'IBAN X' })).json();
    const pending = await t.call('GET', '/api/v1/admin/referrals?status=pending&perPage=500', {
      token: admin.token,
    });
    expect(pending.statusCode).toBe(200);
    const ids = (pending.json().data as Withdrawal[]).map((w) => w.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((pending.json().data as Withdrawal[]).find((w) => w.id === a.id)?.email).toBe(r.email);

    const settle = (id: number, status: string) =>
      t.call('PATCH', `/api/v1/admin/referrals/${id}`, { token: admin.token, body: { status } });
    // Paid only once approved: requested -> approved -> paid.
    const early = await settle(a.id, 'paid');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('This request is pending: it cannot be paid');
    expect((await settle(a.id, 'approved')).json().status).toBe('approved');
    const paid = await settle(a.id, 'paid');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid' });
    expect(paid.json().processed_at).not.toBeNull();
    expect((await settle(b.id, 'rejected')).json().status).toBe('rejected');
    const again = await settle(a.id, 'rejected');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This request is paid: it cannot be rejected');
    expect((await settle(a.id, 'paid')).json().message).toBe('This request is already paid');
    expect((await settle(999999, 'paid')).statusCode).toBe(404);
    expect((await settle(a.id, 'pending')).statusCode).toBe(400);

    expect(await summary(r)).toMatchObject({
      earned_cents: 5000,
      paid_cents: 2000,
      pending_cents: 0,
      withdrawn_cents: 2000,
      withdrawable_cents: 3000,
    });
    const history = (await summary(r)).withdrawals.data.map((w) => [w.id, w.status]);
    expect(history).toEqual([
      [b.id, 'rejected'],
      [a.id, 'paid'],
    ]);
  });
});

describe(`admin/withdraw-requests (spec s.7 Admin) (${dialect})`, () => {
  const change = (id: number, action: string, token = admin.token) =>
    t.call('PATCH', `/api/v1/admin/withdraw-requests?id=${id}&action=${action}`, { token });

  async function request(cents = 2000): Promise<{ r: TestUser & { uuid: string }; id: number }> {
    const r = await referrer();
    await referredBy(r, cents);
    const res = await withdraw(r, { amount: cents / 100, method: 'paypal', details: 'me@p.test' });
    expect(res.statusCode, res.body).toBe(201);
    return { r, id: (res.json() as Withdrawal).id };
  }

  it('lists the requests, paged and filtered by status, as admin/referrals does', async () => {
    const { id } = await request();
    const list = await t.call('GET', '/api/v1/admin/withdraw-requests?status=pending&perPage=500', {
      token: admin.token,
    });
    expect(list.statusCode, list.body).toBe(200);
    const data = list.json().data as Withdrawal[];
    expect(data.map((w) => w.id)).toContain(id);
    expect(data.every((w) => w.status === 'pending')).toBe(true);
    const alias = await t.call('GET', '/api/v1/admin/referrals?status=pending&perPage=500', {
      token: admin.token,
    });
    expect(alias.json()).toEqual(list.json());
    const paged = await t.call('GET', '/api/v1/admin/withdraw-requests?perPage=1&page=1', {
      token: admin.token,
    });
    expect(paged.json().data).toHaveLength(1);
    expect(paged.json().total).toBeGreaterThanOrEqual(1);
  });

  it('approve, then paid; the balance counts it pending until paid; audited for the user', async () => {
    const { r, id } = await request();
    const approved = await change(id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ id, status: 'approved' });
    expect(await summary(r)).toMatchObject({ pending_cents: 2000, paid_cents: 0 });
    const paid = await change(id, 'paid');
    expect(paid.json()).toMatchObject({ id, status: 'paid' });
    expect(await summary(r)).toMatchObject({
      pending_cents: 0,
      paid_cents: 2000,
      withdrawable_cents: 0,
    });
    const lines = await t.app.db
      .selectFrom('account_activity')
      .select(['message', 'who'])
      .where('user_id', '=', r.id)
      .where('message', 'like', `Referral withdrawal #${id} %`)
      .orderBy('id')
      .execute();
    expect(lines.map((l) => l.message)).toEqual([
      `Referral withdrawal #${id} of $20.00 approved`,
      `Referral withdrawal #${id} of $20.00 paid`,
    ]);
    expect(lines[0]!.who).toContain(admin.email);
  });

  it('reject from pending or approved returns the amount; nothing after paid or rejected', async () => {
    const one = await request();
    expect((await change(one.id, 'reject')).json().status).toBe('rejected');
    expect(await summary(one.r)).toMatchObject({ withdrawable_cents: 2000, pending_cents: 0 });
    const two = await request();
    await change(two.id, 'approve');
    expect((await change(two.id, 'reject')).json().status).toBe('rejected');
    expect(await summary(two.r)).toMatchObject({ withdrawable_cents: 2000 });
    for (const action of ['approve', 'paid', 'reject'])
      expect((await change(two.id, action)).statusCode).toBe(409);
    expect((await change(999999, 'approve')).statusCode).toBe(404);
  });

  it(`ten parallel approves, then ten parallel paids: one transition each (${dialect})`, async () => {
    const { r, id } = await request();
    const approves = await Promise.all(Array.from({ length: 10 }, () => change(id, 'approve')));
    expect(approves.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(approves.filter((res) => res.statusCode === 409)).toHaveLength(9);
    const paids = await Promise.all(Array.from({ length: 10 }, () => change(id, 'paid')));
    expect(paids.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(paids.filter((res) => res.statusCode === 409)).toHaveLength(9);
    expect(await summary(r)).toMatchObject({ paid_cents: 2000, withdrawable_cents: 0 });
    const audited = await t.app.db
      .selectFrom('account_activity')
      .select('message')
      .where('user_id', '=', r.id)
      .where('message', 'like', `Referral withdrawal #${id} %`)
      .execute();
    expect(audited).toHaveLength(2);
  });

  it(`paid and reject racing on an approved request: one wins, the balance stays whole (${dialect})`, async () => {
    const { r, id } = await request();
    await change(id, 'approve');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => change(id, i % 2 ? 'paid' : 'reject')),
    );
    expect(results.filter((res) => res.statusCode === 200)).toHaveLength(1);
    const won = results.find((res) => res.statusCode === 200)!.json() as Withdrawal;
    const s = await summary(r);
    if (won.status === 'paid') expect(s).toMatchObject({ paid_cents: 2000, withdrawable_cents: 0 });
    else expect(s).toMatchObject({ paid_cents: 0, withdrawable_cents: 2000, withdrawn_cents: 0 });
  });

  it('admin staff and users are refused (403); a bad action or id is a 400', async () => {
    const { r, id } = await request();
    const staff = await t.user({ staff: true });
    expect((await change(id, 'approve', staff.token)).statusCode).toBe(403);
    expect((await change(id, 'approve', r.token)).statusCode).toBe(403);
    const list = await t.call('GET', '/api/v1/admin/withdraw-requests', { token: staff.token });
    expect(list.statusCode).toBe(403);
    const bad = await change(id, 'pay');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['action']);
    const noId = await t.call('PATCH', '/api/v1/admin/withdraw-requests?action=approve', {
      token: admin.token,
    });
    expect(noId.statusCode).toBe(400);
  });
});
