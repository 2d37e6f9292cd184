import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redeemCoupon } from '../../features/coupons/serverApi';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Coupons (`coupon` of the admins, `coupon/{couponId}/users/{uid}` of a user) and their
 * redemption as billing calls it: race-safe, each user once, within the limit, plans and expiry.
 */
let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;

type Method = 'GET' | 'POST' | 'DELETE';
const call = (user: TestUser, method: Method, url: string, body?: unknown) =>
  t.call(method, url, { token: user.token, body });

const NOW = '2026-11-28T12:00:00.000Z';

async function makeCoupon(body: Record<string, unknown>): Promise<{ id: number; code: string }> {
  const res = await call(admin, 'POST', '/api/v1/coupon', body);
  if (res.statusCode !== 201) throw new Error(`coupon: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; code: string };
}

/** Users straight in the database: the race needs many, and signing in is not what is tested. */
async function plainUsers(n: number, prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = await t.app.services.users.create({
      email: `${prefix}-${i}@example.com`,
      user_name: `${prefix} ${i}`,
      password_hash: 'x',
    });
    ids.push(row.id);
  }
  return ids;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
  staff = await t.user({ staff: true });
  owner = await t.user();
});
afterAll(() => t.close());

describe('the admins’ coupons', () => {
  it('adds a percentage and a fixed coupon, lists and removes one', async () => {
    const pct = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'Spring25',
      kind: 'percent',
      percent_off: 25,
      duration: 'recurring',
      duration_periods: 3,
      plan_ids: [4, 3, 3],
      expires_at: '2027-01-31',
      max_redemptions: 100,
    });
    expect(pct.statusCode, pct.body).toBe(201);
    expect(pct.json()).toMatchObject({
      code: 'Spring25',
      kind: 'percent',
      percent_off: 25,
      amount_off: null,
      duration: 'recurring',
      duration_periods: 3,
      plan_ids: [3, 4],
      expires_at: '2027-01-31T00:00:00.000Z',
      max_redemptions: 100,
      redeemed: 0,
      active: true,
    });
    const fixed = await makeCoupon({
      code: 'FIVE-OFF',
      kind: 'fixed',
      amount_off: 500,
      currency: 'USD',
      duration: 'forever',
    });
    const list = await call(admin, 'GET', '/api/v1/coupon?sort=code&order=ASC');
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json().data as { code: string }[]).map((c) => c.code)).toEqual(
      expect.arrayContaining(['FIVE-OFF', 'Spring25']),
    );
    const gone = await call(admin, 'DELETE', `/api/v1/coupon/${fixed.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ code: 'FIVE-OFF' });
    expect((await call(admin, 'DELETE', `/api/v1/coupon/${fixed.id}`)).statusCode).toBe(404);
  });

  it('keeps codes unique ignoring case', async () => {
    const res = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'SPRING25',
      kind: 'percent',
      percent_off: 10,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.code).toMatch(/already \(codes ignore case\)/);
  });

  it('refuses terms that do not fit, at the field they concern', async () => {
    const bad = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'x',
      kind: 'percent',
      percent_off: 10,
      expires_at: 'next week',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      code: expect.stringMatching(/Letters, digits/),
      expires_at: expect.stringMatching(/A date/),
    });
    const pct = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'PCT1',
      kind: 'percent',
      amount_off: 100,
      duration: 'recurring',
    });
    expect(pct.statusCode).toBe(400);
    expect(pct.json().errors).toEqual({
      percent_off: 'A percentage coupon needs its percentage',
      amount_off: 'Only a fixed coupon takes an amount off',
      duration_periods: 'A recurring coupon needs its number of periods',
    });
    const fixed = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'FIXED1',
      kind: 'fixed',
      amount_off: 2.5,
      percent_off: 101,
    });
    expect(fixed.json().errors).toMatchObject({
      amount_off: /Whole minor units/,
      percent_off: 'At most 100 %',
    });
    const noCurrency = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'FIXED2',
      kind: 'fixed',
      amount_off: 250,
      duration_periods: 2,
    });
    expect(noCurrency.json().errors).toMatchObject({
      currency: 'A fixed coupon needs the currency of its amount',
      duration_periods: 'Only a recurring coupon lasts a number of periods',
    });
    const unknownPlan = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'FIXED3',
      kind: 'percent',
      percent_off: 5,
      plan_ids: [3, 999],
    });
    expect(unknownPlan.statusCode).toBe(400);
    expect(unknownPlan.json().errors).toEqual({ plan_ids: 'No package #999' });
  });

  it('is the admins’ alone: admin staff and users are refused', async () => {
    const c = await makeCoupon({ code: 'NOSTAFF', kind: 'percent', percent_off: 5 });
    for (const user of [staff, owner]) {
      expect((await call(user, 'GET', '/api/v1/coupon')).statusCode).toBe(403);
      expect(
        (
          await call(user, 'POST', '/api/v1/coupon', {
            code: 'ZZZ',
            kind: 'percent',
            percent_off: 5,
          })
        ).statusCode,
      ).toBe(403);
      expect((await call(user, 'DELETE', `/api/v1/coupon/${c.id}`)).statusCode).toBe(403);
    }
    expect((await t.call('GET', '/api/v1/coupon')).statusCode).toBe(401);
  });
});

describe('redeeming (billing’s call)', () => {
  it('50 at once on a coupon limited to 10: exactly 10 redeemed', async () => {
    const coupon = await makeCoupon({
      code: 'RACE10',
      kind: 'percent',
      percent_off: 50,
      max_redemptions: 10,
    });
    const users = await plainUsers(50, 'racer');
    const results = await Promise.all(
      users.map((userId) =>
        redeemCoupon(t.app.db, { code: 'race10', userId, planId: 3, now: NOW }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r).toMatchObject({ reason: 'exhausted' });
    const row = await t.app.db
      .selectFrom('coupons')
      .select('redeemed')
      .where('id', '=', coupon.id)
      .executeTakeFirstOrThrow();
    expect(row.redeemed).toBe(10);
    const redemptions = await t.app.db
      .selectFrom('coupon_redemptions')
      .select('user_id')
      .where('coupon_id', '=', coupon.id)
      .execute();
    expect(redemptions).toHaveLength(10);
  });

  it('one user cannot redeem a coupon twice, even at once', async () => {
    const coupon = await makeCoupon({ code: 'ONCE-EACH', kind: 'percent', percent_off: 10 });
    const [userId] = await plainUsers(1, 'twice');
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        redeemCoupon(t.app.db, { code: 'ONCE-EACH', userId: userId!, planId: 2, now: NOW }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(r).toMatchObject({ reason: 'already' });
    const again = await redeemCoupon(t.app.db, {
      code: 'once-each',
      userId: userId!,
      planId: 2,
      now: NOW,
    });
    expect(again).toMatchObject({ ok: false, reason: 'already', message: /already/ });
    const row = await t.app.db
      .selectFrom('coupons')
      .select('redeemed')
      .where('id', '=', coupon.id)
      .executeTakeFirstOrThrow();
    expect(row.redeemed).toBe(1);
  });

  it('refuses an unknown, expired, inactive coupon and one for other plans, writing nothing', async () => {
    await makeCoupon({ code: 'OLD', kind: 'percent', percent_off: 5, expires_at: '2026-01-01' });
    await makeCoupon({ code: 'OFF', kind: 'percent', percent_off: 5, active: false });
    await makeCoupon({ code: 'PROONLY', kind: 'percent', percent_off: 5, plan_ids: [4] });
    const [userId] = await plainUsers(1, 'refused');
    const at = { userId: userId!, planId: 3, now: NOW };
    expect(await redeemCoupon(t.app.db, { ...at, code: 'NOPE' })).toMatchObject({
      reason: 'unknown',
    });
    expect(await redeemCoupon(t.app.db, { ...at, code: 'OLD' })).toMatchObject({
      reason: 'expired',
    });
    expect(await redeemCoupon(t.app.db, { ...at, code: 'OFF' })).toMatchObject({
      reason: 'inactive',
    });
    expect(await redeemCoupon(t.app.db, { ...at, code: 'PROONLY' })).toMatchObject({
      reason: 'plan',
    });
    expect(await redeemCoupon(t.app.db, { ...at, code: 'PROONLY', planId: 4 })).toMatchObject({
      ok: true,
    });
    const mine = await t.app.db
      .selectFrom('coupon_redemptions')
      .select('coupon_id')
      .where('user_id', '=', userId!)
      .execute();
    expect(mine).toHaveLength(1);
  });

  it('runs inside the caller’s transaction: its rollback takes the redemption back', async () => {
    await makeCoupon({
      code: 'INTRX',
      kind: 'fixed',
      amount_off: 100,
      currency: 'USD',
      max_redemptions: 1,
    });
    const [userId] = await plainUsers(1, 'trx');
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        const r = await redeemCoupon(trx, { code: 'INTRX', userId: userId!, planId: 3, now: NOW });
        expect(r.ok).toBe(true);
        throw new Error('the payment failed');
      }),
    ).rejects.toThrow('the payment failed');
    const r = await redeemCoupon(t.app.db, { code: 'INTRX', userId: userId!, planId: 3, now: NOW });
    expect(r).toMatchObject({ ok: true, coupon: { redeemed: 1 } });
  });

  it('a redeemed coupon deleted is retired: unlisted, unredeemable, its code kept', async () => {
    const coupon = await makeCoupon({ code: 'RETIRE', kind: 'percent', percent_off: 5 });
    const [userId] = await plainUsers(1, 'retire');
    await redeemCoupon(t.app.db, { code: 'RETIRE', userId: userId!, planId: 3, now: NOW });
    const res = await call(admin, 'DELETE', `/api/v1/coupon/${coupon.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ active: false, redeemed: 1 });
    const list = await call(admin, 'GET', '/api/v1/coupon?perPage=500');
    expect((list.json().data as { id: number }[]).map((c) => c.id)).not.toContain(coupon.id);
    const [other] = await plainUsers(1, 'retire-late');
    expect(
      await redeemCoupon(t.app.db, { code: 'RETIRE', userId: other!, planId: 3, now: NOW }),
    ).toMatchObject({ reason: 'unknown' });
    const clash = await call(admin, 'POST', '/api/v1/coupon', {
      code: 'retire',
      kind: 'percent',
      percent_off: 5,
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().errors.code).toMatch(/redeemed and removed/);
  });
});

describe('a user’s read of a coupon', () => {
  it('shows a coupon they redeemed, without its counts; another is absent', async () => {
    const mine = await makeCoupon({
      code: 'MINE',
      kind: 'percent',
      percent_off: 15,
      max_redemptions: 3,
    });
    const other = await makeCoupon({ code: 'NOTMINE', kind: 'percent', percent_off: 15 });
    await redeemCoupon(t.app.db, { code: 'MINE', userId: owner.id, planId: 3, now: NOW });
    const res = await call(owner, 'GET', `/api/v1/coupon/${mine.id}/users/${owner.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ code: 'MINE', percent_off: 15, redeemed_at: NOW });
    expect(res.json()).not.toHaveProperty('max_redemptions');
    expect(res.json()).not.toHaveProperty('redeemed');
    expect(
      (await call(owner, 'GET', `/api/v1/coupon/${other.id}/users/${owner.id}`)).statusCode,
    ).toBe(404);
    expect((await call(owner, 'GET', `/api/v1/coupon/abc/users/${owner.id}`)).statusCode).toBe(404);
    expect(
      (await call(staff, 'GET', `/api/v1/coupon/${mine.id}/users/${owner.id}`)).statusCode,
    ).toBe(404);
    // An admin reads any coupon on their own id, and the user's on the user's.
    expect(
      (await call(admin, 'GET', `/api/v1/coupon/${other.id}/users/${admin.id}`)).statusCode,
    ).toBe(200);
    expect(
      (await call(admin, 'GET', `/api/v1/coupon/${mine.id}/users/${owner.id}`)).statusCode,
    ).toBe(200);
  });
});

describe('a package a coupon is limited to', () => {
  it('stays while the coupon does', async () => {
    const made = await call(admin, 'POST', '/api/v1/admin/bizplans', {
      name: 'Couponed add-on',
      monthly_price: 100,
      annual_price: 1000,
    });
    const planId = (made.json() as { id: number }).id;
    const coupon = await makeCoupon({
      code: 'ADDONONLY',
      kind: 'percent',
      percent_off: 5,
      plan_ids: [planId],
    });
    const refused = await t.call('DELETE', `/api/v1/admin/bizplans/${planId}`, {
      token: admin.token,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The coupon ADDONONLY is limited to Couponed add-on: remove it first, or deactivate the package',
    );
    expect((await call(admin, 'DELETE', `/api/v1/coupon/${coupon.id}`)).statusCode).toBe(200);
    const gone = await t.call('DELETE', `/api/v1/admin/bizplans/${planId}`, { token: admin.token });
    expect(gone.statusCode, gone.body).toBe(200);
  });
});
