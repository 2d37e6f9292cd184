import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Packages (`admin/bizplans`) and the users' read of them (`bizplans/users/{uid}`): the main
 * plans of spec s.9 seeded under their ids, prices in minor units, limits as data, add-ons made
 * and removed, a plan in use kept.
 */
let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (user: TestUser, method: Method, url: string, body?: unknown) =>
  t.call(method, url, { token: user.token, body });

const addon = (extra: Record<string, unknown> = {}) => ({
  name: 'Extra backup storage',
  description: '100 GB more',
  monthly_price: 500,
  annual_price: 5000,
  currency: 'USD',
  backup_storage_gb: 100,
  ...extra,
});

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
  staff = await t.user({ staff: true });
  owner = await t.user();
});
afterAll(() => t.close());

describe('the packages', () => {
  it('are seeded with the plans of spec s.9 under their ids, prices in cents', async () => {
    const res = await call(admin, 'GET', '/api/v1/admin/bizplans?sort=id&order=ASC&kind=main');
    expect(res.statusCode, res.body).toBe(200);
    const plans = res.json().data as Record<string, unknown>[];
    expect(plans.map((p) => [p.id, p.name, p.kind])).toEqual([
      [1, 'Trial', 'main'],
      [2, 'Free', 'main'],
      [3, 'Basic', 'main'],
      [4, 'Pro', 'main'],
    ]);
    expect(plans[2]).toMatchObject({
      monthly_price: 900,
      annual_price: 9000,
      currency: 'USD',
      active: true,
      max_servers: 5,
      max_webapps: null,
    });
    expect(plans[3]).toMatchObject({ max_servers: null, max_team_members: null });
    expect(plans[0]).toMatchObject({ active: false });
    for (const p of plans) expect(Number.isInteger(p.monthly_price)).toBe(true);
  });

  it('an admin adds an add-on (after the seeded ids), reads, changes and removes it', async () => {
    const made = await call(admin, 'POST', '/api/v1/admin/bizplans', addon());
    expect(made.statusCode, made.body).toBe(201);
    const plan = made.json() as { id: number; kind: string };
    expect(plan).toMatchObject({ kind: 'addon', monthly_price: 500, backup_storage_gb: 100 });
    expect(plan.id).toBeGreaterThan(4);

    const read = await call(admin, 'GET', `/api/v1/admin/bizplans/${plan.id}`);
    expect(read.json()).toMatchObject({ name: 'Extra backup storage' });

    const changed = await call(admin, 'PATCH', `/api/v1/admin/bizplans/${plan.id}`, {
      monthly_price: 700,
      currency: 'EUR',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      monthly_price: 700,
      currency: 'EUR',
      annual_price: 5000,
    });

    const again = await call(admin, 'POST', '/api/v1/admin/bizplans', addon());
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.name).toMatch(/already/);

    const gone = await call(admin, 'DELETE', `/api/v1/admin/bizplans/${plan.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await call(admin, 'GET', `/api/v1/admin/bizplans/${plan.id}`)).statusCode).toBe(404);
  });

  it('changes a main package by PATCH (the add-main-package page)', async () => {
    const res = await call(admin, 'PATCH', '/api/v1/admin/bizplans/3', {
      monthly_price: 1000,
      max_servers: 6,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: 3, kind: 'main', monthly_price: 1000, max_servers: 6 });
    const unlimited = await call(admin, 'PATCH', '/api/v1/admin/bizplans/3', { max_servers: null });
    expect(unlimited.json()).toMatchObject({ max_servers: null });
  });

  it('keeps a main package and a package in use: deactivate instead', async () => {
    const main = await call(admin, 'DELETE', '/api/v1/admin/bizplans/3');
    expect(main.statusCode).toBe(409);
    expect(main.json().message).toMatch(/main package.*deactivate it instead/);

    const made = await call(admin, 'POST', '/api/v1/admin/bizplans', addon({ name: 'In use' }));
    const id = (made.json() as { id: number }).id;
    await t.app.db.updateTable('users').set({ plan_id: id }).where('id', '=', owner.id).execute();
    const used = await call(admin, 'DELETE', `/api/v1/admin/bizplans/${id}`);
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toMatch(/1 user is on In use: deactivate it instead/);
    const off = await call(admin, 'PATCH', `/api/v1/admin/bizplans/${id}`, { active: false });
    expect(off.json()).toMatchObject({ active: false });
    // The user on it still reads it; it is no longer offered.
    expect((await call(owner, 'GET', `/api/v1/bizplans/${id}/users/${owner.id}`)).statusCode).toBe(
      200,
    );
    const offered = await call(owner, 'GET', `/api/v1/bizplans/users/${owner.id}`);
    expect((offered.json().data as { id: number }[]).map((p) => p.id)).not.toContain(id);
    await t.app.db.updateTable('users').set({ plan_id: 1 }).where('id', '=', owner.id).execute();
  });

  it('refuses bad input at the field: fractions of a cent, unknown currencies, negatives', async () => {
    const res = await call(admin, 'POST', '/api/v1/admin/bizplans', {
      name: '',
      monthly_price: 12.5,
      annual_price: -1,
      currency: 'usd',
      max_servers: 1.5,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      name: 'Give the package a name',
      monthly_price: 'Whole minor units (cents): 12.00 is 1200',
      annual_price: 'Not below zero',
      currency: expect.stringMatching(/currency/),
      max_servers: expect.stringMatching(/whole number/i),
    });
  });

  it('is the admins’ alone: admin staff and users are refused', async () => {
    for (const user of [staff, owner]) {
      expect((await call(user, 'GET', '/api/v1/admin/bizplans')).statusCode).toBe(403);
      expect(
        (await call(user, 'PATCH', '/api/v1/admin/bizplans/3', { active: false })).statusCode,
      ).toBe(403);
      expect(
        (await call(user, 'POST', '/api/v1/admin/bizplans', addon({ name: 'x' }))).statusCode,
      ).toBe(403);
      expect((await call(user, 'DELETE', '/api/v1/admin/bizplans/4')).statusCode).toBe(403);
    }
  });
});

describe('a user’s read of the plans', () => {
  it('lists the offered plans, main first, without the Trial', async () => {
    const res = await call(owner, 'GET', `/api/v1/bizplans/users/${owner.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const plans = res.json().data as { id: number; kind: string; active: boolean }[];
    expect(plans.slice(0, 3).map((p) => p.id)).toEqual([2, 3, 4]);
    expect(plans.every((p) => p.active)).toBe(true);
  });

  it('reads one plan; a plan not offered to them, or no plan, is absent', async () => {
    const pro = await call(owner, 'GET', `/api/v1/bizplans/4/users/${owner.id}`);
    expect(pro.json()).toMatchObject({ id: 4, name: 'Pro', annual_price: 19000 });
    // The Trial is the owner's own plan (a new account's): shown to them.
    expect((await call(owner, 'GET', `/api/v1/bizplans/1/users/${owner.id}`)).statusCode).toBe(200);
    await t.app.db.updateTable('users').set({ plan_id: 2 }).where('id', '=', staff.id).execute();
    expect((await call(staff, 'GET', `/api/v1/bizplans/1/users/${staff.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `/api/v1/bizplans/999/users/${owner.id}`)).statusCode).toBe(
      404,
    );
    expect((await call(owner, 'GET', `/api/v1/bizplans/abc/users/${owner.id}`)).statusCode).toBe(
      404,
    );
  });

  it('names only the caller', async () => {
    expect((await call(owner, 'GET', `/api/v1/bizplans/users/${staff.id}`)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/v1/bizplans/users/${owner.id}`)).statusCode).toBe(401);
  });
});
