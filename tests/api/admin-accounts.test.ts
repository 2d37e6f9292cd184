import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * The admin area's servers and accounts (issue 26 without billing): every server with its owner,
 * filtered and paged; a user's profile changed by an admin (never the password or two-factor),
 * audited; their photos and credit history. Admins and admin staff read; only admins change.
 */
let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let alice: TestUser;
let bob: TestUser;
const ids: Record<string, number> = {};

interface Row {
  id: number;
  name: string;
  status: string;
  ip4: string | null;
  user_id: number;
  owner_email: string;
  owner_name: string;
}

async function server(
  owner: TestUser,
  name: string,
  ip4: string,
  state: 'online' | 'offline' | 'pending',
) {
  const row = await t.app.services.servers.create(owner.id, { name, ip4 });
  if (state !== 'pending')
    await t.app.services.servers.update(row.id, {
      name,
      pending_name: null,
      install_key: null,
      connected: state === 'online' ? 1 : 0,
      os_version: 'Debian 12',
    });
  ids[name] = row.id;
  return row.id;
}

const list = async (query: string, token = admin.token) => {
  const res = await t.call('GET', `/api/v1/admin/servers${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Row[]; total: number };
};

beforeAll(async () => {
  t = await buildTestApp();
  [admin, staff, alice, bob] = await Promise.all([
    t.user({ admin: true }),
    t.user({ staff: true }),
    t.user({ email: `alice-${Date.now()}@example.com` }),
    t.user({ email: `bob-${Date.now()}@example.com` }),
  ]);
  await server(alice, 'shop', '203.0.113.10', 'online');
  await server(alice, 'blog', '203.0.113.11', 'offline');
  await server(bob, 'mail', '198.51.100.7', 'pending');
});
afterAll(() => t.close());

describe('GET admin/servers', () => {
  it('lists every server with its owner and status, newest first', async () => {
    const page = await list('');
    expect(page.total).toBe(3);
    expect(page.data.map((r) => r.name)).toEqual(['mail', 'blog', 'shop']);
    expect(page.data[0]).toMatchObject({
      name: 'mail',
      status: 'pending',
      ip4: '198.51.100.7',
      user_id: bob.id,
      owner_email: bob.email,
    });
    expect(page.data.find((r) => r.name === 'shop')).toMatchObject({ status: 'connected' });
    expect(page.data.find((r) => r.name === 'blog')).toMatchObject({ status: 'disconnected' });
    // Nothing of the agent's key or the install key leaves the panel.
    expect(Object.keys(page.data[0]!).sort()).toEqual(
      [
        'id',
        'uuid',
        'name',
        'ip4',
        'os_version',
        'provider',
        'status',
        'last_seen_at',
        'created_at',
        'user_id',
        'owner_name',
        'owner_email',
      ].sort(),
    );
  });

  it('filters by owner, status, name or address, and by the owner id', async () => {
    expect(
      (await list(`?owner=${encodeURIComponent(alice.email.slice(0, 8).toUpperCase())}`)).data.map(
        (r) => r.name,
      ),
    ).toEqual(['blog', 'shop']);
    expect((await list('?status=connected')).data.map((r) => r.name)).toEqual(['shop']);
    expect((await list('?status=disconnected')).data.map((r) => r.name)).toEqual(['blog']);
    expect((await list('?status=pending')).data.map((r) => r.name)).toEqual(['mail']);
    expect((await list('?q=203.0.113.1')).total).toBe(2);
    expect((await list('?q=SHO')).data.map((r) => r.name)).toEqual(['shop']);
    expect((await list(`?user_id=${bob.id}`)).data.map((r) => r.name)).toEqual(['mail']);
    expect((await list(`?user_id=${bob.id}&status=connected`)).total).toBe(0);
    // LIKE's wildcards match themselves.
    expect((await list('?q=%25')).total).toBe(0);
  });

  it('sorts and pages', async () => {
    const first = await list('?sort=name&order=ASC&perPage=2');
    expect(first.total).toBe(3);
    expect(first.data.map((r) => r.name)).toEqual(['blog', 'mail']);
    const second = await list('?sort=name&order=ASC&perPage=2&page=2');
    expect(second.data.map((r) => r.name)).toEqual(['shop']);
  });

  it('admin staff read it; users, acting admins and strangers do not', async () => {
    expect((await list('', staff.token)).total).toBe(3);
    expect((await t.call('GET', '/api/v1/admin/servers', { token: alice.token })).statusCode).toBe(
      403,
    );
    const acting = await t.actAs(admin.token, alice.id);
    expect((await t.call('GET', '/api/v1/admin/servers', { token: acting })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/v1/admin/servers')).statusCode).toBe(401);
  });

  it('refuses a status or a sort it does not know, at the field', async () => {
    const res = await t.call('GET', '/api/v1/admin/servers?status=lost&sort=agent_key_hash', {
      token: admin.token,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys((res.json() as { errors: object }).errors).sort()).toEqual([
      'sort',
      'status',
    ]);
  });
});

describe('PATCH admin/update-user', () => {
  const update = (body: unknown, token = admin.token) =>
    t.call('PATCH', '/api/v1/admin/update-user', { token, body });

  it("changes the user's profile and address, audited with the admin's name", async () => {
    const res = await update({
      id: alice.id,
      CompanyName: 'Alice Ltd',
      City: 'Lisbon',
      TaxNum: 'PT123',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: alice.id,
      CompanyName: 'Alice Ltd',
      City: 'Lisbon',
      TaxNum: 'PT123',
    });
    const read = await t.call('GET', `/api/v1/users/${alice.id}`, { token: alice.token });
    expect(read.json()).toMatchObject({ CompanyName: 'Alice Ltd', City: 'Lisbon' });
    const log = await t.call('GET', `/api/v1/accntactivity/users/${alice.id}`, {
      token: alice.token,
    });
    const lines = (log.json() as { data: { message: string; who?: string }[] }).data;
    const line = lines.find((l) => l.message.startsWith('Profile changed by an admin'));
    expect(line?.message).toBe('Profile changed by an admin (company, city, tax number)');
    expect(JSON.stringify(line)).toContain(admin.email);
  });

  it('writes and logs only what changed', async () => {
    const fresh = await t.user();
    const log = async () =>
      (
        (
          await t.call('GET', `/api/v1/accntactivity/users/${fresh.id}`, { token: fresh.token })
        ).json() as { data: { message: string }[] }
      ).data.filter((l) => l.message.includes('by an admin'));
    expect((await update({ id: fresh.id, City: 'Porto', State: '' })).statusCode).toBe(200);
    expect((await log()).map((l) => l.message)).toEqual(['Profile changed by an admin (city)']);
    expect((await update({ id: fresh.id, City: 'Porto' })).statusCode).toBe(200);
    expect(await log()).toHaveLength(1);
  });

  it('changes the sign-in address; the user signs in with the new one', async () => {
    const fresh = await t.user();
    const email = `renamed-${Date.now()}@example.com`;
    const res = await update({ id: fresh.id, email: email.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email });
    expect(await t.login(email, fresh.password)).toBeTruthy();
    // The old address hears of it.
    const told = await t.lastMail(fresh.email);
    expect(told?.subject).toBe('Your Stackdeck sign-in address was changed');
    expect(told?.text_body).toContain(`from ${fresh.email} to ${email}`);
  });

  it("refuses another account's address at the field", async () => {
    const res = await update({ id: bob.id, email: alice.email });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { email: 'Another account uses this address' } });
  });

  it("leaves another admin's sign-in address to them", async () => {
    const other = await t.user({ admin: true });
    const res = await update({ id: other.id, email: `taken-over-${Date.now()}@example.com` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: { email: 'Only that admin changes their own sign-in address' },
    });
    expect((await update({ id: other.id, CompanyName: 'Admins Inc' })).statusCode).toBe(200);
  });

  it('never sets a password or two-factor sign-in', async () => {
    const res = await update({
      id: bob.id,
      password: 'a brand new password',
      two_factor: false,
      City: 'X',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: {
        password: 'An admin never sets a password: send the user a reset mail',
        two_factor: 'Only the account holder turns two-factor sign-in on or off',
      },
    });
    expect(await t.login(bob.email, bob.password)).toBeTruthy();
    const read = await t.call('GET', `/api/v1/users/${bob.id}`, { token: bob.token });
    expect(read.json()).toMatchObject({ City: '' });
  });

  it('makes a user admin staff and back', async () => {
    const fresh = await t.user();
    expect((await update({ id: fresh.id, is_admin_staff: true })).json()).toMatchObject({
      is_admin_staff: true,
    });
    // The role holds at once: the cached caller was dropped.
    expect((await t.call('GET', '/api/v1/admin/servers', { token: fresh.token })).statusCode).toBe(
      200,
    );
    expect((await update({ id: fresh.id, is_admin_staff: false })).json()).toMatchObject({
      is_admin_staff: false,
    });
    expect((await t.call('GET', '/api/v1/admin/servers', { token: fresh.token })).statusCode).toBe(
      403,
    );
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await update({ id: 999_999, City: 'Nowhere' });
    expect(res.statusCode).toBe(404);
  });

  it('is for admins: staff, users and an acting admin are refused', async () => {
    expect((await update({ id: bob.id, City: 'Staffville' }, staff.token)).statusCode).toBe(403);
    expect((await update({ id: alice.id, City: 'Mine' }, alice.token)).statusCode).toBe(403);
    const acting = await t.actAs(admin.token, alice.id);
    expect((await update({ id: alice.id, City: 'Acting' }, acting)).statusCode).toBe(403);
  });
});

describe('photos and credit history', () => {
  const png = `data:image/png;base64,${Buffer.from('not really a png').toString('base64')}`;

  it('admin/user-images answers the photos of the users asked who have one', async () => {
    expect(
      (
        await t.call('PUT', `/api/v1/images/users/${alice.id}`, {
          token: alice.token,
          body: { data: png },
        })
      ).statusCode,
    ).toBe(200);
    const res = await t.call(
      'GET',
      `/api/v1/admin/user-images?ids=${bob.id},${alice.id},${alice.id}`,
      {
        token: staff.token,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: [{ user_id: alice.id, data: png }] });
    const many = Array.from({ length: 26 }, (_, i) => i + 1).join(',');
    const tooMany = await t.call('GET', `/api/v1/admin/user-images?ids=${many}`, {
      token: admin.token,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(
      (await t.call('GET', `/api/v1/admin/user-images?ids=${alice.id}`, { token: bob.token }))
        .statusCode,
    ).toBe(403);
  });

  it("admin/credit-history pages the user's backup credit ledger, newest first", async () => {
    for (const gb of [1, 2, 3])
      expect(
        (
          await t.call('PATCH', `/api/v1/admin/backup-credit?uid=${alice.id}&type=add`, {
            token: admin.token,
            body: { gb, reason: `grant ${gb}` },
          })
        ).statusCode,
      ).toBe(200);
    const res = await t.call('GET', `/api/v1/admin/credit-history?uid=${alice.id}&perPage=2`, {
      token: staff.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json() as {
      credit_bytes: number;
      total: number;
      data: { reason: string; by: string }[];
    };
    expect(history).toMatchObject({
      kind: 'backup-storage',
      credit_bytes: 16 * 1024 ** 3,
      total: 3,
    });
    expect(history.data.map((l) => l.reason)).toEqual(['grant 3', 'grant 2']);
    const page2 = await t.call(
      'GET',
      `/api/v1/admin/credit-history?uid=${alice.id}&perPage=2&page=2`,
      {
        token: admin.token,
      },
    );
    expect((page2.json() as { data: { reason: string }[] }).data.map((l) => l.reason)).toEqual([
      'grant 1',
    ]);
    expect(
      (await t.call('GET', `/api/v1/admin/credit-history?uid=999999`, { token: admin.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.call('GET', `/api/v1/admin/credit-history?uid=${alice.id}`, { token: alice.token }))
        .statusCode,
    ).toBe(403);
  });
});
