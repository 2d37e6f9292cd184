import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Team } from '../../resources/teams';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { PLAN_IDS } from '../../features/plans/api';

/** Owners on Pro: no plan limit in the way (plan-limits.test.ts tests the limits). */
const PRO = { plan: PLAN_IDS.pro };

let t: TestApp;
afterAll(() => t.close());
beforeAll(async () => {
  t = await buildTestApp();
});

const photo = `data:image/png;base64,${Buffer.from('a tiny photo').toString('base64')}`;

async function createTeam(owner: TestUser, name = 'Ops'): Promise<Team> {
  const res = await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
    token: owner.token,
    body: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Team;
}

function patchTeam(owner: TestUser, teamId: number, body: unknown, token = owner.token) {
  return t.call('PATCH', `/api/v1/teams/${teamId}/users/${owner.id}`, { token, body });
}

/** The invitation id in the newest mail to `email` (its link is /team-manager?invite=...). */
async function inviteIn(email: string): Promise<string> {
  const mail = await t.lastMail(email);
  const match = /\/team-manager\?invite=([0-9a-f-]{36})/.exec(mail?.text_body ?? '');
  if (!match) throw new Error(`no invitation mailed to ${email}`);
  return match[1]!;
}

async function invitedMember(owner: TestUser, teamId: number): Promise<TestUser> {
  const member = await t.user(PRO);
  const res = await patchTeam(owner, teamId, { invite: [member.email] });
  expect(res.statusCode, res.body).toBe(200);
  const accepted = await t.call(
    'POST',
    `/api/v1/team-invites/${await inviteIn(member.email)}/users/${member.id}`,
    { token: member.token },
  );
  expect(accepted.statusCode, accepted.body).toBe(200);
  return member;
}

async function newServer(owner: TestUser, name: string): Promise<number> {
  const res = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
    token: owner.token,
    body: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}

describe('teams: invite, accept, shared servers', () => {
  it('a member who accepts sees the shared server everywhere servers are listed', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner, 'Platform');
    expect(team).toMatchObject({ name: 'Platform', is_owner: true, servers: [], invites: [] });
    expect(team.users).toEqual([expect.objectContaining({ id: owner.id, is_owner: true })]);
    const shared = await newServer(owner, 'shared-one');
    await newServer(owner, 'private-one');

    const member = await t.user(PRO);
    const invited = await patchTeam(owner, team.id, { invite: [member.email], share: [shared] });
    expect(invited.statusCode, invited.body).toBe(200);
    const pending = invited.json() as Team;
    expect(pending.invites).toEqual([
      expect.objectContaining({ email: member.email, expired: false }),
    ]);
    expect(pending.servers.map((s) => s.id)).toEqual([shared]);
    const mail = await t.lastMail(member.email);
    expect(mail?.subject).toContain('Platform');
    expect(mail?.text_body).toContain('http://panel.test/team-manager?invite=');

    // The invitation waits in the invitee's list, then they accept it.
    const mine = await t.call('GET', `/api/v1/team-invites/users/${member.id}`, {
      token: member.token,
    });
    expect(mine.json()).toMatchObject({
      total: 1,
      data: [{ team_id: team.id, team_name: 'Platform' }],
    });
    const invite = await inviteIn(member.email);
    const accepted = await t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
      token: member.token,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: team.id, is_owner: false, invites: [] });
    // Used once.
    const again = await t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
      token: member.token,
    });
    expect(again.statusCode).toBe(404);

    const list = await t.call('GET', `/api/v1/servers/users/${member.id}`, {
      token: member.token,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      total: 1,
      data: [{ id: shared, pending_name: 'shared-one', is_shared: true }],
    });
    const own = await t.call('GET', `/api/v1/servers/users/${owner.id}`, { token: owner.token });
    expect((own.json() as { data: { is_shared: boolean }[] }).data.map((s) => s.is_shared)).toEqual(
      [false, false],
    );

    const one = await t.call('GET', `/api/v1/servers/${shared}/users/${member.id}`, {
      token: member.token,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: shared, is_shared: true });
    // A server op goes through: the agent is offline, which is the op's own answer.
    const ping = await t.call('GET', `/api/v1/ping/servers/${shared}/users/${member.id}`, {
      token: member.token,
    });
    expect(ping.statusCode, ping.body).toBe(409);
    // The server that was not shared stays out of reach.
    const privateId = (own.json() as { data: { id: number; name: string }[] }).data.find(
      (s) => s.id !== shared,
    )!.id;
    const hidden = await t.call('GET', `/api/v1/servers/${privateId}/users/${member.id}`, {
      token: member.token,
    });
    expect(hidden.statusCode).toBe(404);

    const teamServers = await t.call('GET', `/api/v1/team-servers/users/${member.id}`, {
      token: member.token,
    });
    expect(teamServers.json()).toMatchObject({
      total: 1,
      data: [{ id: shared, is_shared: true, teams: [{ id: team.id, name: 'Platform' }] }],
    });
    // The owner's own servers are not "team servers" of theirs.
    const ownersTeamServers = await t.call('GET', `/api/v1/team-servers/users/${owner.id}`, {
      token: owner.token,
    });
    expect(ownersTeamServers.json()).toMatchObject({ total: 0, data: [] });

    const teams = await t.call('GET', `/api/v1/teams/users/${member.id}`, { token: member.token });
    expect(teams.json()).toMatchObject({ total: 1, data: [{ id: team.id, is_owner: false }] });
    const read = (
      await t.call('GET', `/api/v1/teams/${team.id}/users/${member.id}`, {
        token: member.token,
      })
    ).json() as Team;
    expect(read.users.map((u) => [u.id, u.is_owner])).toEqual([
      [owner.id, true],
      [member.id, false],
    ]);
  });

  it('a removed member loses the server on their very next request', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const sid = await newServer(owner, 'web');
    expect((await patchTeam(owner, team.id, { share: [sid] })).statusCode).toBe(200);
    const member = await invitedMember(owner, team.id);
    const url = `/api/v1/servers/${sid}/users/${member.id}`;
    expect((await t.call('GET', url, { token: member.token })).statusCode).toBe(200);

    const removed = await patchTeam(owner, team.id, { remove: [member.id] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((removed.json() as Team).users.map((u) => u.id)).toEqual([owner.id]);

    // Same token, next request.
    const after = await t.call('GET', url, { token: member.token });
    expect(after.statusCode).toBe(404);
    const ping = await t.call('GET', `/api/v1/ping/servers/${sid}/users/${member.id}`, {
      token: member.token,
    });
    expect(ping.statusCode).toBe(404);
    const list = await t.call('GET', `/api/v1/servers/users/${member.id}`, {
      token: member.token,
    });
    expect(list.json()).toMatchObject({ total: 0, data: [] });
    const teamRead = await t.call('GET', `/api/v1/teams/${team.id}/users/${member.id}`, {
      token: member.token,
    });
    expect(teamRead.statusCode).toBe(404);
  });

  it('unsharing, leaving and deleting the team each end the access', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const sid = await newServer(owner, 'db');
    await patchTeam(owner, team.id, { share: [sid] });
    const [a, b] = [await invitedMember(owner, team.id), await invitedMember(owner, team.id)];
    const reach = (u: TestUser) =>
      t.call('GET', `/api/v1/servers/${sid}/users/${u.id}`, { token: u.token });
    expect((await reach(a)).statusCode).toBe(200);

    expect((await patchTeam(owner, team.id, { unshare: [sid] })).statusCode).toBe(200);
    expect((await reach(a)).statusCode).toBe(404);
    expect((await patchTeam(owner, team.id, { share: [sid] })).statusCode).toBe(200);
    expect((await reach(a)).statusCode).toBe(200);

    const left = await t.call('DELETE', `/api/v1/team-members/${team.id}/users/${a.id}`, {
      token: a.token,
    });
    expect(left.statusCode, left.body).toBe(200);
    expect((await reach(a)).statusCode).toBe(404);
    // The owner cannot leave their own team.
    const ownerLeaves = await t.call(
      'DELETE',
      `/api/v1/team-members/${team.id}/users/${owner.id}`,
      { token: owner.token },
    );
    expect(ownerLeaves.statusCode).toBe(409);

    expect((await reach(b)).statusCode).toBe(200);
    const deleted = await t.call('DELETE', `/api/v1/teams/${team.id}/users/${owner.id}`, {
      token: owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await reach(b)).statusCode).toBe(404);
    // The server itself stays the owner's.
    expect((await reach(owner)).statusCode).toBe(200);
  });

  it('a transferred server leaves the old owner’s teams', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const sid = await newServer(owner, 'moving');
    await patchTeam(owner, team.id, { share: [sid] });
    const member = await invitedMember(owner, team.id);
    const buyer = await t.user(PRO);
    const offered = await t.call('POST', `/api/v1/transfer/servers/${sid}/users/${owner.id}`, {
      token: owner.token,
      body: { email: buyer.email },
    });
    expect(offered.statusCode, offered.body).toBe(200);
    const offer = /dashboard\/([0-9a-f-]{36})/.exec((await t.lastMail(buyer.email))!.text_body)![1];
    const taken = await t.call('GET', `/api/v1/transfer?uuid=${offer}&processed=true`, {
      token: buyer.token,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const rows = await t.app.db
      .selectFrom('team_servers')
      .selectAll()
      .where('server_id', '=', sid)
      .execute();
    expect(rows).toEqual([]);
    const res = await t.call('GET', `/api/v1/servers/${sid}/users/${member.id}`, {
      token: member.token,
    });
    expect(res.statusCode).toBe(404);
    const read = (
      await t.call('GET', `/api/v1/teams/${team.id}/users/${owner.id}`, {
        token: owner.token,
      })
    ).json() as Team;
    expect(read.servers).toEqual([]);
  });
});

describe('teams: who may do what', () => {
  it('a member reads the team but cannot manage it, nor remove or transfer the server', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const sid = await newServer(owner, 'guarded');
    await patchTeam(owner, team.id, { share: [sid] });
    const member = await invitedMember(owner, team.id);
    const asMember = `/api/v1/teams/${team.id}/users/${member.id}`;

    expect((await t.call('GET', asMember, { token: member.token })).statusCode).toBe(200);
    for (const body of [
      { name: 'Mine now' },
      { invite: ['friend@example.com'] },
      { remove: [owner.id] },
      { unshare: [sid] },
    ]) {
      const res = await t.call('PATCH', asMember, { token: member.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json().message).toBe("Only the team's owner can manage it");
    }
    expect((await t.call('DELETE', asMember, { token: member.token })).statusCode).toBe(403);

    const del = await t.call('DELETE', `/api/v1/servers/${sid}/users/${member.id}`, {
      token: member.token,
    });
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toBe("Only the server's owner can remove the server");
    const transfer = await t.call('POST', `/api/v1/transfer/servers/${sid}/users/${member.id}`, {
      token: member.token,
      body: { email: 'thief@example.com' },
    });
    expect(transfer.statusCode).toBe(403);
    // A member renames nothing of the team, yet may run server ops and save server settings.
    const put = await t.call('PUT', `/api/v1/servers/${sid}/users/${member.id}`, {
      token: member.token,
      body: { timezone: 'Europe/Berlin' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ timezone: 'Europe/Berlin', is_shared: true });
    // The member cannot share their own server with a team they do not own.
    const memberServer = await newServer(member, 'their-own');
    const share = await t.call('PATCH', asMember, {
      token: member.token,
      body: { share: [memberServer] },
    });
    expect(share.statusCode).toBe(403);
    // The install script of a shared pending server stays the owner's.
    const script = await t.call(
      'POST',
      `/api/v1/servers/users/${member.id}?action=script&sid=${sid}`,
      { token: member.token },
    );
    expect(script.statusCode).toBe(404);
  });

  it('a stranger sees no team, and a foreign team id answers like a missing one', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const stranger = await t.user(PRO);
    const foreign = await t.call('GET', `/api/v1/teams/${team.id}/users/${stranger.id}`, {
      token: stranger.token,
    });
    const missing = await t.call('GET', `/api/v1/teams/99999999/users/${stranger.id}`, {
      token: stranger.token,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    const photos = await t.call('GET', `/api/v1/team-user-images/${team.id}/users/${stranger.id}`, {
      token: stranger.token,
    });
    expect(photos.statusCode).toBe(404);
  });

  it('an invitation is bound to its address and expires', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const invitee = await t.user(PRO);
    const other = await t.user(PRO);
    await patchTeam(owner, team.id, { invite: [invitee.email] });
    const invite = await inviteIn(invitee.email);
    const stolen = await t.call('POST', `/api/v1/team-invites/${invite}/users/${other.id}`, {
      token: other.token,
    });
    expect(stolen.statusCode).toBe(404);

    // A new invitation replaces the old link, though not within a minute of the last one.
    const tooSoon = await patchTeam(owner, team.id, { invite: [invitee.email] });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toContain('a moment ago');
    await t.app.db
      .updateTable('team_invites')
      .set({ created_at: new Date(Date.now() - 120_000).toISOString() })
      .where('id', '=', invite)
      .execute();
    const resent = await patchTeam(owner, team.id, { invite: [invitee.email] });
    expect(resent.statusCode, resent.body).toBe(200);
    const fresh = await inviteIn(invitee.email);
    expect(fresh).not.toBe(invite);
    const old = await t.call('POST', `/api/v1/team-invites/${invite}/users/${invitee.id}`, {
      token: invitee.token,
    });
    expect(old.statusCode).toBe(404);

    await t.app.db
      .updateTable('team_invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', fresh)
      .execute();
    const expired = await t.call('POST', `/api/v1/team-invites/${fresh}/users/${invitee.id}`, {
      token: invitee.token,
    });
    expect(expired.statusCode).toBe(410);
    const listed = await t.call('GET', `/api/v1/team-invites/users/${invitee.id}`, {
      token: invitee.token,
    });
    expect(listed.json()).toMatchObject({ total: 0 });
    const seenByOwner = (
      await t.call('GET', `/api/v1/teams/${team.id}/users/${owner.id}`, {
        token: owner.token,
      })
    ).json() as Team;
    expect(seenByOwner.invites).toEqual([expect.objectContaining({ id: fresh, expired: true })]);
  });

  it('an invitation to an address without an account works once they register', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner, 'Newcomers');
    const email = `newcomer-${randomUUID().slice(0, 8)}@example.com`;
    expect((await patchTeam(owner, team.id, { invite: [email] })).statusCode).toBe(200);
    const invite = await inviteIn(email);

    const registered = await t.call('POST', '/api/v1/users', {
      body: { email, password: 'a long enough password', user_name: 'Newcomer' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { uuid, id } = (await t.app.services.users.findByEmail(email))!;
    const code = await t.codeIn(email);
    expect(
      (await t.call('POST', '/api/v1/users/confirm', { body: { uuid, code } })).statusCode,
    ).toBe(200);
    const token = await t.login(email, 'a long enough password');

    const waiting = await t.call('GET', `/api/v1/team-invites/users/${id}`, { token });
    expect(waiting.json()).toMatchObject({
      total: 1,
      data: [{ id: invite, team_name: 'Newcomers' }],
    });
    const accepted = await t.call('POST', `/api/v1/team-invites/${invite}/users/${id}`, { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((accepted.json() as Team).users.map((u) => u.email)).toContain(email);
  });

  it('declining removes the invitation', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const invitee = await t.user(PRO);
    await patchTeam(owner, team.id, { invite: [invitee.email] });
    const invite = await inviteIn(invitee.email);
    const declined = await t.call('DELETE', `/api/v1/team-invites/${invite}/users/${invitee.id}`, {
      token: invitee.token,
    });
    expect(declined.statusCode).toBe(200);
    const team2 = (
      await t.call('GET', `/api/v1/teams/${team.id}/users/${owner.id}`, {
        token: owner.token,
      })
    ).json() as Team;
    expect(team2.invites).toEqual([]);
  });
});

describe('teams: validation and photos', () => {
  it('checks the whole change and applies none of it on an error', async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner, 'Before');
    const stranger = await t.user(PRO);
    const foreignServer = await newServer(stranger, 'not-yours');
    const cases: [unknown, string][] = [
      [{ name: 'x' }, 'name'],
      [{ name: 'After', invite: ['not an address'] }, 'invite'],
      [{ name: 'After', invite: [owner.email] }, 'invite'],
      [{ name: 'After', share: [foreignServer] }, 'share'],
      [{ name: 'After', share: [99999999] }, 'share'],
      [{ name: 'After', remove: [stranger.id] }, 'remove'],
      [{ name: 'After', cancel_invites: [randomUUID()] }, 'cancel_invites'],
    ];
    for (const [body, field] of cases) {
      const res = await patchTeam(owner, team.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toContain(field);
    }
    const read = (
      await t.call('GET', `/api/v1/teams/${team.id}/users/${owner.id}`, {
        token: owner.token,
      })
    ).json() as Team;
    expect(read).toMatchObject({ name: 'Before', servers: [], invites: [] });

    const member = await invitedMember(owner, team.id);
    const twice = await patchTeam(owner, team.id, { invite: [member.email] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('member of this team already');

    const empty = await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
      token: owner.token,
      body: {},
    });
    expect(empty.statusCode).toBe(400);
  });

  it("serves the photos of the team's users (user_id, data), never a stranger's", async () => {
    const owner = await t.user(PRO);
    const team = await createTeam(owner);
    const member = await invitedMember(owner, team.id);
    const stranger = await t.user(PRO);
    for (const u of [owner, member, stranger]) {
      const res = await t.call('PUT', `/api/v1/images/users/${u.id}`, {
        token: u.token,
        body: { data: photo },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const path of [
      `team-user-images/users/${member.id}`,
      `team-user-images/${team.id}/users/${member.id}`,
    ]) {
      const res = await t.call('GET', `/api/v1/${path}`, { token: member.token });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { data: { user_id: number; data: string }[]; total: number };
      expect(body.total).toBe(2);
      expect(body.data.map((p) => p.user_id).sort((x, y) => x - y)).toEqual(
        [owner.id, member.id].sort((x, y) => x - y),
      );
      expect(body.data[0]!.data).toBe(photo);
    }
    const strangers = await t.call('GET', `/api/v1/team-user-images/users/${stranger.id}`, {
      token: stranger.token,
    });
    expect(strangers.json()).toEqual({ data: [], total: 0 });
  });

  it('pages the team list', async () => {
    const owner = await t.user(PRO);
    for (const name of ['Alpha', 'Bravo', 'Charlie']) await createTeam(owner, name);
    const res = await t.call(
      'GET',
      `/api/v1/teams/users/${owner.id}?perPage=2&page=2&sort=name&order=ASC`,
      { token: owner.token },
    );
    expect(res.json()).toMatchObject({ total: 3, data: [{ name: 'Charlie' }] });
  });
});
