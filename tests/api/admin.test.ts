import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** Admin staff, the admin area, and an admin acting as a user. */
let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, staff, user] = await Promise.all([
    t.user({ admin: true }),
    t.user({ staff: true }),
    t.user(),
  ]);
});
afterAll(() => t.close());

describe('admin staff reach Users and Servers only', () => {
  it.each([
    ['GET', 'admin/users', 200],
    ['GET', 'users/{uid}', 200],
    ['GET', 'images/users/{uid}', 200],
    ['GET', 'servers/users/{uid}', 200],
    ['GET', 'admin/dashboard', 403],
    ['GET', 'admin/outbox', 403],
    ['POST', 'admin/act-as/users/{uid}', 403],
    ['PUT', 'users/{uid}', 404],
    ['GET', 'authlogs/users/{uid}', 404],
    ['GET', 'accntactivity/users/{uid}', 404],
    ['GET', 'users/{uid}/email', 404],
    ['POST', 'auth/gen/users/{uid}', 404],
  ])('%s %s answers %i', async (method, path, status) => {
    const res = await t.call(method as 'GET', `/api/v1/${path.replace('{uid}', String(user.id))}`, {
      token: staff.token,
      body: method === 'PUT' ? { City: 'Staffville' } : undefined,
    });
    expect(res.statusCode).toBe(status);
  });

  it('staff read the user they look at', async () => {
    const res = await t.call('GET', `/api/v1/users/${user.id}`, { token: staff.token });
    expect(res.json()).toMatchObject({ id: user.id, email: user.email });
  });
});

describe('admin area', () => {
  it('admin/users lists, searches, sorts and pages users without secrets', async () => {
    const res = await t.call(
      'GET',
      `/api/v1/admin/users?q=${encodeURIComponent(user.email.toUpperCase())}`,
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json() as { data: Record<string, unknown>[]; total: number };
    expect(total).toBe(1);
    expect(Object.keys(data[0]!).sort()).toEqual(
      [
        'id',
        'uuid',
        'email',
        'user_name',
        'is_admin',
        'is_admin_staff',
        'plan_id',
        'confirmed',
        'disabled',
        'created_at',
      ].sort(),
    );
    const paged = await t.call('GET', '/api/v1/admin/users?sort=email&order=ASC&perPage=2', {
      token: admin.token,
    });
    const page = paged.json() as { data: { email: string }[]; total: number };
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.data).toHaveLength(2);
    expect(page.data[0]!.email < page.data[1]!.email).toBe(true);
  });

  it('admin/users pages every order in full, and a search counts past its last page', async () => {
    for (let i = 0; i < 3; i++) await t.user();
    const list = async (query: string) => {
      const res = await t.call('GET', `/api/v1/admin/users?${query}`, { token: admin.token });
      expect(res.statusCode).toBe(200);
      return res.json() as { data: { id: number; [k: string]: unknown }[]; total: number };
    };
    const all = await list('perPage=500');
    for (const sort of ['created_at', 'email', 'user_name'])
      for (const order of ['ASC', 'DESC']) {
        const whole = await list(`sort=${sort}&order=${order}&perPage=500`);
        const pages = [];
        for (let page = 1; page <= Math.ceil(all.total / 2); page++)
          pages.push(...(await list(`sort=${sort}&order=${order}&perPage=2&page=${page}`)).data);
        expect(pages.map((u) => u.id)).toEqual(whole.data.map((u) => u.id));
        const key = (u: { id: number; [k: string]: unknown }) => [String(u[sort]), u.id] as const;
        const sorted = [...whole.data].sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          const by = x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1];
          return order === 'ASC' ? by : -by;
        });
        expect(whole.data.map((u) => u.id)).toEqual(sorted.map((u) => u.id));
      }
    const searched = await list('q=USER&perPage=1');
    expect(searched.total).toBeGreaterThanOrEqual(3);
    expect(searched.data).toHaveLength(1);
    expect((await list(`q=USER&perPage=1&page=${searched.total + 1}`)).total).toBe(searched.total);
    // LIKE's wildcards match only themselves.
    expect((await list('q=%25')).total).toBe(0);
    expect((await list('q=_')).total).toBe(0);
  });

  it('admin/dashboard counts users and servers', async () => {
    const before = (await t.call('GET', '/api/v1/admin/dashboard', { token: admin.token })).json();
    await t.app.db
      .insertInto('servers')
      .values({
        uuid: crypto.randomUUID(),
        user_id: user.id,
        name: 'web-1',
        ip4: '203.0.113.7',
        provider: null,
        connected: 1,
        is_available: 1,
        is_shared: 0,
        is_accessible: 1,
        os_version: null,
        timezone: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await t.app.services.users.create({
      email: 'pending@example.com',
      user_name: 'P',
      password_hash: 'x',
    });
    const res = await t.call('GET', '/api/v1/admin/dashboard', { token: admin.token });
    expect(res.json()).toEqual({
      users: before.users + 1,
      confirmed_users: before.confirmed_users,
      admins: before.admins,
      servers: before.servers + 1,
      connected_servers: before.connected_servers + 1,
      signups_last_30_days: before.signups_last_30_days + 1,
    });
    expect(before.admins).toBe(1);
  });

  it('admins read the outbox, searching ignoring case', async () => {
    await t.call('GET', `/api/v1/users/${user.id}/otp`, { token: user.token });
    const list = await t.call('GET', '/api/v1/admin/outbox?q=VERIFICATION', {
      token: admin.token,
    });
    expect(list.statusCode).toBe(200);
    const { data } = list.json() as { data: { id: number; to: string; subject: string }[] };
    expect(data[0]).toMatchObject({ to: user.email, subject: 'Your Stackdeck verification code' });
    const one = await t.call('GET', `/api/v1/admin/outbox/${data[0]!.id}`, { token: admin.token });
    expect(one.json()).toMatchObject({ id: data[0]!.id, error: null });
    // That a code went out, never the code (issue 8: tests/api/outbox-secrecy.test.ts).
    expect(one.json().text).toBe('Your one-time code is ••••••\n\nIt is valid for 15 minutes.\n');
    const missing = await t.call('GET', '/api/v1/admin/outbox/999999', { token: admin.token });
    expect(missing.statusCode).toBe(404);
  });
});

describe('an admin acting as a user', () => {
  let acting: string;
  let target: TestUser;
  beforeAll(async () => {
    target = await t.user();
    const res = await t.call('POST', `/api/v1/admin/act-as/users/${target.id}`, {
      token: admin.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().User).toEqual({ id: target.id, is_admin: false, plan_id: 1 });
    acting = res.json().Token;
  });

  it('sees and changes what the user sees and changes', async () => {
    const me = await t.call('GET', `/api/v1/users/${target.id}`, { token: acting });
    expect(me.json()).toMatchObject({ id: target.id, email: target.email });
    const put = await t.call('PUT', `/api/v1/users/${target.id}`, {
      token: acting,
      body: { CompanyName: 'Support Edit' },
    });
    expect(put.statusCode).toBe(200);
  });

  it('has no admin rights and reaches no one else', async () => {
    for (const [method, url, status] of [
      ['GET', '/api/v1/admin/users', 403],
      ['GET', '/api/v1/admin/dashboard', 403],
      ['POST', `/api/v1/admin/act-as/users/${user.id}`, 403],
      ['GET', `/api/v1/users/${user.id}`, 404],
      ['GET', `/api/v1/users/${admin.id}`, 404],
    ] as const) {
      expect((await t.call(method, url, { token: acting })).statusCode, url).toBe(status);
    }
  });

  it.each([
    ['PUT', '', { password: 'an admin-chosen password', current_password: 'x' }],
    ['PUT', '', { two_factor: true, otp_code: '123456' }],
    ['PUT', '', { two_factor: false, current_password: 'whatever' }],
    ['POST', 'totp', undefined],
    ['POST', 'gen', undefined],
    ['DELETE', '', undefined],
  ])(
    'refuses %s %s (password, two-factor, API key, deletion) with 403',
    async (method, what, body) => {
      const url =
        what === 'totp'
          ? `/api/v1/users/${target.id}/totp`
          : what === 'gen'
            ? `/api/v1/auth/gen/users/${target.id}`
            : `/api/v1/users/${target.id}`;
      const before = await t.app.services.users.findById(target.id);
      const res = await t.call(method as 'PUT', url, { token: acting, body });
      expect(res.statusCode).toBe(403);
      const after = await t.app.services.users.findById(target.id);
      expect(after?.password_hash).toBe(before?.password_hash);
      expect(after?.api_key).toBe(before?.api_key);
      expect(after?.totp_pending_secret).toBe(before?.totp_pending_secret);
      expect(after?.two_factor).toBe(before?.two_factor);
    },
  );

  it('the activity log records both ids for everything done while acting', async () => {
    await t.call('PUT', `/api/v1/images/users/${target.id}`, {
      token: acting,
      body: { data: 'data:image/png;base64,AAAA' },
    });
    const rows = await t.app.db
      .selectFrom('account_activity')
      .select(['user_id', 'actor_id', 'message'])
      .where('user_id', '=', target.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { user_id: target.id, actor_id: admin.id, message: 'An admin started acting as this user' },
      { user_id: target.id, actor_id: admin.id, message: 'Profile updated' },
      { user_id: target.id, actor_id: admin.id, message: 'Profile photo changed' },
    ]);
    // The user sees who did it in their own log.
    const own = await t.call('GET', `/api/v1/accntactivity/users/${target.id}`, {
      token: target.token,
    });
    expect(own.json().data.every((d: { actor_id: number }) => d.actor_id === admin.id)).toBe(true);
  });

  it('switching back (logout of the acting token) leaves the admin signed in', async () => {
    const second = await t.actAs(admin.token, target.id);
    await t.call('POST', '/api/v1/users/logout', { token: second });
    expect((await t.call('GET', `/api/v1/users/${target.id}`, { token: second })).statusCode).toBe(
      401,
    );
    expect((await t.call('GET', '/api/v1/admin/users', { token: admin.token })).statusCode).toBe(
      200,
    );
  });

  it('admins cannot act as admins, as disabled users or as nobody', async () => {
    const other = await t.user({ admin: true });
    const asAdmin = await t.call('POST', `/api/v1/admin/act-as/users/${other.id}`, {
      token: admin.token,
    });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe('Admins cannot act as other admins');
    const self = await t.call('POST', `/api/v1/admin/act-as/users/${admin.id}`, {
      token: admin.token,
    });
    expect(self.statusCode).toBe(403);
    const disabled = await t.user();
    await t.app.services.users.update(disabled.id, { disabled: 1 });
    const asDisabled = await t.call('POST', `/api/v1/admin/act-as/users/${disabled.id}`, {
      token: admin.token,
    });
    expect(asDisabled.statusCode).toBe(403);
    const nobody = await t.call('POST', '/api/v1/admin/act-as/users/999999', {
      token: admin.token,
    });
    expect(nobody.statusCode).toBe(404);
  });

  it('the acting token ends when the admin loses admin rights or changes password', async () => {
    const boss = await t.user({ admin: true });
    const token = await t.actAs(boss.token, target.id);
    const read = () => t.call('GET', `/api/v1/users/${target.id}`, { token });
    expect((await read()).statusCode).toBe(200);
    await t.app.services.users.update(boss.id, { is_admin: 0 });
    expect((await read()).statusCode).toBe(401);
    await t.app.services.users.update(boss.id, { is_admin: 1 });
    expect((await read()).statusCode).toBe(200);
    await t.call('PUT', `/api/v1/users/${boss.id}`, {
      token: boss.token,
      body: { password: 'the boss changed it', current_password: boss.password },
    });
    expect((await read()).statusCode).toBe(401);
  });
});

describe('an admin on another user directly', () => {
  it('may edit the profile (recorded with both ids) but not the password', async () => {
    const res = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin.token,
      body: { State: 'Admin-set' },
    });
    expect(res.statusCode).toBe(200);
    const last = await t.app.db
      .selectFrom('account_activity')
      .select(['user_id', 'actor_id'])
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(last).toEqual({ user_id: user.id, actor_id: admin.id });
    const pw = await t.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin.token,
      body: { password: 'admin chosen password', current_password: 'x' },
    });
    expect(pw.statusCode).toBe(403);
  });
});

describe('what an admin does instead of reading codes (issue 8)', () => {
  /** A user who registered and never got (or never read) the confirmation mail. */
  async function unconfirmed() {
    const email = `waiting-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const password = 'a long enough password';
    const reg = await t.call('POST', '/api/v1/users', {
      body: { email, password, user_name: 'Waiting' },
    });
    expect(reg.statusCode).toBe(201);
    const row = (await t.app.services.users.findByEmail(email))!;
    return { id: row.id, email, password };
  }
  const lastActivity = (userId: number) =>
    t.app.db
      .selectFrom('account_activity')
      .select(['user_id', 'actor_id', 'message'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .executeTakeFirst();

  it('confirms an account: the user signs in, and their log names the admin', async () => {
    const waiting = await unconfirmed();
    const before = await t.call('POST', '/api/v1/users/login', {
      body: { email: waiting.email, password: waiting.password },
    });
    expect(before.statusCode).toBe(403);
    const res = await t.call('POST', `/api/v1/admin/confirm/users/${waiting.id}`, {
      token: admin.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ confirmed: true });
    expect(await t.login(waiting.email, waiting.password)).toMatch(/^ey/);
    expect(await lastActivity(waiting.id)).toEqual({
      user_id: waiting.id,
      actor_id: admin.id,
      message: 'Account confirmed by an admin',
    });
    const list = await t.call('GET', `/api/v1/admin/users?q=${encodeURIComponent(waiting.email)}`, {
      token: admin.token,
    });
    expect(list.json().data[0]).toMatchObject({ email: waiting.email, confirmed: true });
    // Again: nothing to do, said so, not logged twice.
    const again = await t.call('POST', `/api/v1/admin/confirm/users/${waiting.id}`, {
      token: admin.token,
    });
    expect(again.json()).toEqual({ confirmed: true });
    const rows = await t.app.db
      .selectFrom('account_activity')
      .select('message')
      .where('user_id', '=', waiting.id)
      .where('message', '=', 'Account confirmed by an admin')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('sends a fresh reset mail: only the user can use it, the outbox shows no code', async () => {
    const target = await t.user({ admin: true });
    const res = await t.call('POST', `/api/v1/admin/password-reset/users/${target.id}`, {
      token: admin.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: true });
    const mail = (await t.lastMail(target.email))!;
    expect(mail.subject).toBe('Reset your Stackdeck password');
    const id = /password-reset\?id=([0-9a-f-]{36})/.exec(mail.text_body)![1]!;
    const code = /code is (\d{6})/.exec(mail.text_body)![1]!;
    const outbox = await t.call(
      'GET',
      `/api/v1/admin/outbox?q=${encodeURIComponent(target.email)}`,
      { token: admin.token },
    );
    expect(outbox.body).toContain('Your password reset code is ••••••');
    expect(outbox.body).not.toContain(code);
    expect(outbox.body).not.toContain(id);
    expect(await lastActivity(target.id)).toEqual({
      user_id: target.id,
      actor_id: admin.id,
      message: 'Password reset mail sent by an admin',
    });
    // The user, with the mail, sets a new password.
    const set = await t.call('POST', '/api/v1/users/password', {
      body: { id, code, password: 'the owner chose this' },
    });
    expect(set.json()).toEqual({ valid: true, changed: true });
  });

  it('refuses a disabled account and names nobody for a missing one', async () => {
    const disabled = await t.user();
    await t.app.services.users.update(disabled.id, { disabled: 1 });
    const reset = await t.call('POST', `/api/v1/admin/password-reset/users/${disabled.id}`, {
      token: admin.token,
    });
    expect(reset.statusCode).toBe(403);
    for (const action of ['confirm', 'password-reset']) {
      const res = await t.call('POST', `/api/v1/admin/${action}/users/999999`, {
        token: admin.token,
      });
      expect(res.statusCode).toBe(404);
    }
  });

  it.each(['confirm', 'password-reset'])(
    'admin/%s is for admins only: staff, users and an acting admin get 403',
    async (action) => {
      const waiting = await unconfirmed();
      const acting = await t.actAs(admin.token, user.id);
      for (const token of [staff.token, user.token, acting]) {
        const res = await t.call('POST', `/api/v1/admin/${action}/users/${waiting.id}`, { token });
        expect(res.statusCode).toBe(403);
      }
      expect((await t.app.services.users.findById(waiting.id))?.confirmed).toBe(0);
    },
  );
});
