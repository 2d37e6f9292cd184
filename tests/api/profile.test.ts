import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSchema } from '../../resources/user-profile';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** The user's own record: profile fields, privileged fields, photo, activity, deletion. */
let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await t.user();
});
afterAll(() => t.close());

const get = (u: TestUser) => t.call('GET', `/api/v1/users/${u.id}`, { token: u.token });
const put = (u: TestUser, body: object) =>
  t.call('PUT', `/api/v1/users/${u.id}`, { token: u.token, body });

describe('profile', () => {
  it('GET users/{uid} answers the record of resources/users.ts, nothing more', async () => {
    const res = await get(user);
    expect(res.statusCode).toBe(200);
    const record = res.json();
    expect(Object.keys(record).sort()).toEqual(Object.keys(userSchema.shape).sort());
    expect(record).toMatchObject({
      id: user.id,
      email: user.email,
      is_admin: false,
      is_admin_staff: false,
      plan_id: 1,
      photo: null,
      two_factor: false,
      confirmed: true,
      LoginNotif: false,
    });
  });

  it('PUT changes the profile fields, spelled as the spec spells them', async () => {
    const fields = {
      user_name: 'Grace Hopper',
      Addr_1: '1 Main Street',
      Addr_2: 'Floor 2',
      City: 'Arlington',
      CompanyName: 'Navy',
      Country: 'US',
      PostalCode: '22201',
      State: 'VA',
      TaxNum: 'US-123',
      TimeZone: 'America/New_York',
    };
    const res = await put(user, fields);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(fields);
    expect((await get(user)).json()).toMatchObject(fields);
    // An empty string clears an optional field; fields left out stay.
    const cleared = await put(user, { Addr_2: '', TaxNum: '' });
    expect(cleared.json()).toMatchObject({ Addr_2: '', TaxNum: '', City: 'Arlington' });
  });

  it('privileged fields sent by the user are dropped, never applied', async () => {
    const before = await t.app.services.users.findById(user.id);
    const res = await put(user, {
      is_admin: true,
      is_admin_staff: true,
      plan_id: 4,
      api_key: 'sdk_chosen',
      api_secret: 'chosen',
      api_secret_hash: 'x',
      confirmed: false,
      disabled: true,
      email: 'someone-else@example.com',
      uuid: '00000000-0000-4000-8000-000000000000',
      id: user.id + 1000,
      referrer_id: 1,
      password_hash: 'x',
      totp_secret: 'x',
      created_at: '2000-01-01T00:00:00.000Z',
      photo: '/somewhere',
      City: 'Changed City',
    });
    expect(res.statusCode).toBe(200);
    const after = await t.app.services.users.findById(user.id);
    expect(after).toEqual({ ...before, city: 'Changed City', updated_at: after!.updated_at });
    // The admin flag stays off where it counts: the admin area.
    const admin = await t.call('GET', '/api/v1/admin/dashboard', { token: user.token });
    expect(admin.statusCode).toBe(403);
  });

  it('LoginNotif mails the user on every sign-in', async () => {
    const res = await put(user, { LoginNotif: true });
    expect(res.json().LoginNotif).toBe(true);
    await t.login(user.email, user.password);
    const mail = await t.lastMail(user.email);
    expect(mail?.subject).toBe('New sign-in to your Stackdeck account');
    expect(mail?.text_body).toContain('127.0.0.1');
    await put(user, { LoginNotif: 0 });
  });

  it('GET users/{uid}/email answers the address', async () => {
    const res = await t.call('GET', `/api/v1/users/${user.id}/email`, { token: user.token });
    expect(res.json()).toEqual({ email: user.email });
  });
});

describe('photo', () => {
  const photo = `data:image/jpeg;base64,${Buffer.from('jpeg bytes').toString('base64')}`;
  const url = () => `/api/v1/images/users/${user.id}`;

  it('uploads, reads back and removes the photo', async () => {
    const empty = await t.call('GET', url(), { token: user.token });
    expect(empty.json()).toEqual({ user_id: user.id, data: null });
    const set = await t.call('PUT', url(), { token: user.token, body: { data: photo } });
    expect(set.json()).toEqual({ user_id: user.id, data: photo });
    expect((await t.call('GET', url(), { token: user.token })).json().data).toBe(photo);
    const record = (await get(user)).json();
    expect(record.photo).toMatch(new RegExp(`^/api/v1/images/users/${user.id}\\?v=`));
    const removed = await t.call('DELETE', url(), { token: user.token });
    expect(removed.json()).toEqual({ user_id: user.id, data: null });
    expect((await get(user)).json().photo).toBeNull();
  });
});

describe('account activity log', () => {
  it('lists what happened, newest first, searchable ignoring case', async () => {
    const mine = await t.user();
    await put(mine, { City: 'Paris' });
    await t.call('PUT', `/api/v1/images/users/${mine.id}`, {
      token: mine.token,
      body: { data: 'data:image/png;base64,AAAA' },
    });
    const res = await t.call('GET', `/api/v1/accntactivity/users/${mine.id}`, {
      token: mine.token,
    });
    const { data, total } = res.json() as {
      data: { message: string; actor_id: number | null; ip: string }[];
      total: number;
    };
    expect(total).toBe(2);
    expect(data.map((d) => d.message)).toEqual(['Profile photo changed', 'Profile updated']);
    expect(data.every((d) => d.actor_id === null && d.ip === '127.0.0.1')).toBe(true);
    const search = await t.call('GET', `/api/v1/accntactivity/users/${mine.id}?q=PHOTO`, {
      token: mine.token,
    });
    expect(search.json().data.map((d: { message: string }) => d.message)).toEqual([
      'Profile photo changed',
    ]);
    // LIKE wildcards in the search are plain characters.
    const wildcard = await t.call('GET', `/api/v1/accntactivity/users/${mine.id}?q=%25`, {
      token: mine.token,
    });
    expect(wildcard.json().total).toBe(0);
  });
});

describe('deleting the account', () => {
  const remove = (u: TestUser, body?: object) =>
    t.call('DELETE', `/api/v1/users/${u.id}`, { token: u.token, body });

  it('asks for the password: a stolen token alone deletes nothing', async () => {
    const doomed = await t.user();
    const none = await remove(doomed);
    expect(none.statusCode).toBe(400);
    expect(Object.keys(none.json().errors)).toEqual(['password']);
    const wrong = await remove(doomed, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ password: 'Wrong password' });
    expect((await get(doomed)).statusCode).toBe(200);
  });

  it('with two-factor sign-in on, asks for the code too', async () => {
    const doomed = await t.user();
    await t.call('GET', `/api/v1/users/${doomed.id}/otp`, { token: doomed.token });
    const enabled = await put(doomed, {
      two_factor: true,
      otp_code: await t.codeIn(doomed.email),
      current_password: doomed.password,
    });
    expect(enabled.statusCode).toBe(200);
    const noCode = await remove(doomed, { password: doomed.password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().errors).toEqual({ otp: 'Enter the code we mailed you' });
    const wrong = await remove(doomed, { password: doomed.password, otp: '000000' });
    expect(wrong.json().errors).toEqual({ otp: 'Invalid or expired code' });
    expect((await get(doomed)).statusCode).toBe(200);
    await t.call('GET', `/api/v1/users/${doomed.id}/otp`, { token: doomed.token });
    const ok = await remove(doomed, {
      password: doomed.password,
      otp: await t.codeIn(doomed.email),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await t.app.services.users.findById(doomed.id)).toBeUndefined();
  });

  it('deletes the account; its tokens and password stop working', async () => {
    const doomed = await t.user();
    const res = await remove(doomed, { password: doomed.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: doomed.id, email: doomed.email });
    expect((await get(doomed)).statusCode).toBe(401);
    const login = await t.call('POST', '/api/v1/users/login', {
      body: { email: doomed.email, password: doomed.password },
    });
    expect(login.statusCode).toBe(401);
    expect(await t.app.services.users.findById(doomed.id)).toBeUndefined();
  });

  it('the last admin cannot delete their account; with a second admin they can', async () => {
    const first = await t.user({ admin: true });
    const self = () => remove(first, { password: first.password });
    const refused = await self();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The last admin cannot be deleted');
    await t.user({ admin: true });
    expect((await self()).statusCode).toBe(200);
  });
});
