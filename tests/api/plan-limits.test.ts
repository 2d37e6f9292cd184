import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_IDS } from '../../features/plans/api';
import { type TestApp, type TestUser, buildTestApp, dialect } from './helpers';
import { addSysuser, addWebapp } from './serverRows';

/**
 * What a plan limits (issue 26), enforced where the thing is made: servers, web apps, team
 * members, and backup storage as the default credit. The seeded plans: Trial 1 server, Free 1
 * server / 3 apps / no team members, Basic 5 servers / 3 members, Pro no limit.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.user({ admin: true });
});
afterAll(() => t.close());

const createServer = (u: TestUser, token = u.token) =>
  t.call('POST', `/api/v1/servers/users/${u.id}?action=create`, { token, body: { name: 'web' } });

const PLAN_LIMIT = expect.objectContaining({ code: 'plan_limit', upgrade: '/pricing' });

describe(`servers (${dialect})`, () => {
  it('a Free user makes one, and the second is refused with the words and the upgrade', async () => {
    const free = await t.user({ plan: PLAN_IDS.free });
    expect((await createServer(free)).statusCode).toBe(200);
    const second = await createServer(free);
    expect(second.statusCode, second.body).toBe(403);
    expect(second.json()).toMatchObject({
      statusCode: 403,
      message: 'Your Free plan allows 1 server. Upgrade to Basic or Pro to add more.',
      code: 'plan_limit',
      what: 'servers',
      limit: 1,
      used: 1,
      plan: { id: PLAN_IDS.free, name: 'Free' },
      upgrade: '/pricing',
      upgrade_to: ['Basic', 'Pro'],
    });
    const { n } = await t.app.db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', free.id)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(1);
  });

  it('ten at once on Basic (5): exactly five are made', async () => {
    const basic = await t.user({ plan: PLAN_IDS.basic });
    const results = await Promise.all(Array.from({ length: 10 }, () => createServer(basic)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(5);
  });

  it('Pro has no limit', async () => {
    const pro = await t.user({ plan: PLAN_IDS.pro });
    for (let i = 0; i < 4; i++) expect((await createServer(pro)).statusCode).toBe(200);
  });

  it('admins and admin staff are not limited; an admin acting as a Free user is', async () => {
    const ownAdmin = await t.user({ admin: true, plan: PLAN_IDS.free });
    const staff = await t.user({ staff: true, plan: PLAN_IDS.free });
    for (const u of [ownAdmin, ownAdmin, staff, staff])
      expect((await createServer(u)).statusCode).toBe(200);
    const free = await t.user({ plan: PLAN_IDS.free });
    expect((await createServer(free)).statusCode).toBe(200);
    const acting = await t.actAs(admin.token, free.id);
    const refused = await createServer(free, acting);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(PLAN_LIMIT);
    // An admin's own hand (not acting) is not limited.
    expect((await createServer(free, admin.token)).statusCode).toBe(200);
  });
});

describe(`a server transferred (${dialect})`, () => {
  it("is refused on accept when the recipient's plan holds no more, and stays with its owner", async () => {
    const owner = await t.user({ plan: PLAN_IDS.pro });
    const free = await t.user({ plan: PLAN_IDS.free });
    expect((await createServer(free)).statusCode).toBe(200);
    const sid = (await createServer(owner)).json().id as number;
    const offered = await t.call('POST', `/api/v1/transfer/servers/${sid}/users/${owner.id}`, {
      token: owner.token,
      body: { email: free.email },
    });
    expect(offered.statusCode, offered.body).toBe(200);
    const mail = await t.lastMail(free.email);
    const id = /\/dashboard\/([0-9a-f-]{36})/.exec(mail?.text_body ?? '')![1]!;
    const accept = await t.call('GET', `/api/v1/transfer?uuid=${id}&processed=true`, {
      token: free.token,
    });
    expect(accept.statusCode, accept.body).toBe(403);
    expect(accept.json()).toMatchObject({ code: 'plan_limit', what: 'servers', limit: 1 });
    const row = await t.app.db
      .selectFrom('servers')
      .select('user_id')
      .where('id', '=', sid)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(owner.id);
  });
});

describe(`web apps (${dialect})`, () => {
  const app = (name: string) => ({
    name,
    webapp_type: 'custom',
    stack_type: 'nginx',
    php_version: '8.2',
    domains: [`${name}.example.com`],
    web_root: 'public',
    sys_user: 'alice',
  });
  const createApp = (u: TestUser, sid: number, name: string, token = u.token) =>
    t.call('POST', `/api/v1/webstacks/servers/${sid}/users/${u.id}`, { token, body: app(name) });

  async function ownersServer(plan: number) {
    const owner = await t.user({ plan });
    const server = await t.app.services.servers.create(owner.id, {});
    await addSysuser(t.app.db, server.id, 'alice');
    return { owner, sid: server.id };
  }

  it('a Free user has three; the fourth is refused, and not written', async () => {
    const { owner, sid } = await ownersServer(PLAN_IDS.free);
    for (const name of ['a1', 'a2'])
      await addWebapp(t.app.db, sid, { name, domains: [`${name}.test`], sysUser: 'alice' });
    // The third is made (the server is offline: it waits for it, 202).
    expect([201, 202]).toContain((await createApp(owner, sid, 'a3')).statusCode);
    const fourth = await createApp(owner, sid, 'a4');
    expect(fourth.statusCode, fourth.body).toBe(403);
    expect(fourth.json()).toMatchObject({
      message: 'Your Free plan allows 3 web apps. Upgrade to Basic or Pro to add more.',
      code: 'plan_limit',
      what: 'webapps',
      limit: 3,
      used: 3,
    });
    const rows = await t.app.db
      .selectFrom('webapps')
      .select('name')
      .where('server_id', '=', sid)
      .execute();
    expect(rows.map((r) => r.name).sort()).toEqual(['a1', 'a2', 'a3']);
  });

  it('five at once with room for one: one is kept', async () => {
    const { owner, sid } = await ownersServer(PLAN_IDS.free);
    for (const name of ['b1', 'b2'])
      await addWebapp(t.app.db, sid, { name, domains: [`${name}.test`], sysUser: 'alice' });
    const results = await Promise.all(
      ['c1', 'c2', 'c3', 'c4', 'c5'].map((name) => createApp(owner, sid, name)),
    );
    expect(results.filter((r) => r.statusCode === 403).length).toBeGreaterThanOrEqual(4);
    const { n } = await t.app.db
      .selectFrom('webapps')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('server_id', '=', sid)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBeLessThanOrEqual(3);
  });

  it("a team member on the owner's server counts the owner's plan, not their own", async () => {
    const { owner, sid } = await ownersServer(PLAN_IDS.free);
    for (const name of ['d1', 'd2', 'd3'])
      await addWebapp(t.app.db, sid, { name, domains: [`${name}.test`], sysUser: 'alice' });
    const member = await t.user({ plan: PLAN_IDS.pro });
    const team = await t.app.db
      .insertInto('teams')
      .values({ owner_id: owner.id, name: 'crew', created_at: 'x', updated_at: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db
      .insertInto('team_members')
      .values({ team_id: team.id, user_id: member.id, created_at: 'x' })
      .execute();
    await t.app.db
      .insertInto('team_servers')
      .values({ team_id: team.id, server_id: sid, created_at: 'x' })
      .execute();
    const refused = await t.call('POST', `/api/v1/webstacks/servers/${sid}/users/${member.id}`, {
      token: member.token,
      body: app('d4'),
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'plan_limit', plan: { name: 'Free' } });
    // The owner on Pro: the same member's app is made.
    await t.app.db
      .updateTable('users')
      .set({ plan_id: PLAN_IDS.pro })
      .where('id', '=', owner.id)
      .execute();
    const made = await t.call('POST', `/api/v1/webstacks/servers/${sid}/users/${member.id}`, {
      token: member.token,
      body: app('d4'),
    });
    expect([201, 202]).toContain(made.statusCode);
  });

  it('an admin is not limited on a Free user’s server', async () => {
    const { owner, sid } = await ownersServer(PLAN_IDS.free);
    for (const name of ['e1', 'e2', 'e3'])
      await addWebapp(t.app.db, sid, { name, domains: [`${name}.test`], sysUser: 'alice' });
    expect([201, 202]).toContain((await createApp(owner, sid, 'e4', admin.token)).statusCode);
  });
});

describe(`team members (${dialect})`, () => {
  const createTeam = (u: TestUser) =>
    t.call('POST', `/api/v1/teams/users/${u.id}`, { token: u.token, body: { name: 'crew' } });
  const invite = (u: TestUser, teamId: number, emails: string[]) =>
    t.call('PATCH', `/api/v1/teams/${teamId}/users/${u.id}`, {
      token: u.token,
      body: { invite: emails },
    });

  it('Free allows none: the invitation is refused with the words', async () => {
    const free = await t.user({ plan: PLAN_IDS.free });
    const team = (await createTeam(free)).json() as { id: number };
    const res = await invite(free, team.id, ['friend@example.org']);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({
      message: 'Your Free plan allows no team members. Upgrade to Basic or Pro to add more.',
      code: 'plan_limit',
      what: 'team_members',
      limit: 0,
    });
    const n = await t.app.db
      .selectFrom('team_invites')
      .select('id')
      .where('team_id', '=', team.id)
      .execute();
    expect(n).toHaveLength(0);
  });

  it('Basic allows 3 over all the owner’s teams, pending invitations counted', async () => {
    const basic = await t.user({ plan: PLAN_IDS.basic });
    const one = (await createTeam(basic)).json() as { id: number };
    const two = (await createTeam(basic)).json() as { id: number };
    expect((await invite(basic, one.id, ['a@x.org', 'b@x.org'])).statusCode).toBe(200);
    // The same address in another team takes no second seat.
    expect((await invite(basic, two.id, ['a@x.org', 'c@x.org'])).statusCode).toBe(200);
    const over = await invite(basic, two.id, ['d@x.org']);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'plan_limit', limit: 3, used: 4 });
  });

  it('an accept is refused when the owner’s plan no longer holds the member', async () => {
    const owner = await t.user({ plan: PLAN_IDS.basic });
    const member = await t.user();
    const team = (await createTeam(owner)).json() as { id: number };
    expect((await invite(owner, team.id, [member.email])).statusCode).toBe(200);
    const invitation = await t.app.db
      .selectFrom('team_invites')
      .select('id')
      .where('team_id', '=', team.id)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('users')
      .set({ plan_id: PLAN_IDS.free })
      .where('id', '=', owner.id)
      .execute();
    const accept = await t.call(
      'POST',
      `/api/v1/team-invites/${invitation.id}/users/${member.id}`,
      { token: member.token },
    );
    expect(accept.statusCode, accept.body).toBe(403);
    expect(accept.json()).toMatchObject({ code: 'plan_limit', plan: { name: 'Free' } });
    // Nothing changed: the invitation still waits, and the member is not in.
    expect(
      await t.app.db
        .selectFrom('team_members')
        .selectAll()
        .where('team_id', '=', team.id)
        .execute(),
    ).toHaveLength(0);
  });

  it('Pro and admins are not limited', async () => {
    for (const u of [
      await t.user({ plan: PLAN_IDS.pro }),
      await t.user({ admin: true, plan: PLAN_IDS.free }),
    ]) {
      const team = (await createTeam(u)).json() as { id: number };
      const res = await invite(u, team.id, ['p1@x.org', 'p2@x.org', 'p3@x.org', 'p4@x.org']);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

describe(`backup storage (${dialect})`, () => {
  const GB = 1024 ** 3;
  it("is the plan's backup_storage_gb as the default credit, the admins' lines on top", async () => {
    const pro = await t.user({ plan: PLAN_IDS.pro });
    const read = await t.call('GET', `/api/v1/backup-credit/users/${pro.id}`, { token: pro.token });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().credit_bytes).toBe(200 * GB);
    const basic = await t.user({ plan: PLAN_IDS.basic });
    const b = await t.call('GET', `/api/v1/backup-credit/users/${basic.id}`, {
      token: basic.token,
    });
    expect(b.json().credit_bytes).toBe(50 * GB);
    // A plan that sets none: the panel's default (10 GB).
    await t.app.db
      .updateTable('bizplans')
      .set({ backup_storage_gb: null })
      .where('id', '=', PLAN_IDS.basic)
      .execute();
    try {
      const none = await t.call('GET', `/api/v1/backup-credit/users/${basic.id}`, {
        token: basic.token,
      });
      expect(none.json().credit_bytes).toBe(10 * GB);
    } finally {
      await t.app.db
        .updateTable('bizplans')
        .set({ backup_storage_gb: 50 })
        .where('id', '=', PLAN_IDS.basic)
        .execute();
    }
  });
});
