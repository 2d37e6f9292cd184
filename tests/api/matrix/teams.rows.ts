import { randomUUID } from 'node:crypto';
import type { TeamRow } from '../../../features/teams/serverRow';
import type { TestApp, TestUser } from '../helpers';
import { type Fixture, HOLDER, type Row, SELF } from './support';

const NO_CHANGE = { invite: [], remove: [], cancelInvites: [], share: [], unshare: [] };

/** A new team of the owner's with the fixture member in it: a target a row may destroy. */
async function teamWithMember(f: Fixture): Promise<number> {
  const repo = f.t.app.services.teams;
  const team = await repo.create(f.owner.id, `Doomed ${randomUUID().slice(0, 8)}`);
  const [invite] = await repo.apply(team, { ...NO_CHANGE, invite: [f.member.email] });
  await f.t.app.services.teamInvites.accept(invite!, f.member.id);
  return team.id;
}

/** Someone else's team, which invites the owner. */
const inviters = new WeakMap<object, Promise<TeamRow>>();
function inviterTeam(f: Fixture): Promise<TeamRow> {
  let team = inviters.get(f.t);
  if (!team) {
    team = (async () => {
      const inviter = await f.t.app.services.users.create({
        email: `inviter-${randomUUID()}@example.com`,
        user_name: 'Inviter',
        password_hash: 'x',
      });
      return f.t.app.services.teams.create(inviter.id, 'Inviting team');
    })();
    inviters.set(f.t, team);
  }
  return team;
}

/** A pending invitation to the owner's address. */
async function inviteToOwner(f: Fixture): Promise<string> {
  const [invite] = await f.t.app.services.teams.apply(await inviterTeam(f), {
    ...NO_CHANGE,
    invite: [f.owner.email],
  });
  return invite!.id;
}

const created = { ...SELF, owner: 201, admin: 201, acting: 201 };

/**
 * Authorization matrix rows of teams: one per route, as tests/api/matrix.test.ts checks. On a
 * team's own routes (`ownUid`) the member and the removed member name themselves: the member
 * reads the team but may not manage it, the removed member is a stranger to it.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/teams/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/teams/users/:uid',
    body: (_, role) => ({ name: `Team of ${role}` }),
    expect: created,
  },
  { route: 'GET /api/v1/teams/:teamId/users/:uid', ownUid: true, expect: { ...SELF, member: 200 } },
  {
    route: 'PATCH /api/v1/teams/:teamId/users/:uid',
    ownUid: true,
    body: (_, role) => ({ name: `Renamed by ${role}` }),
    expect: { ...SELF, member: 403 },
  },
  {
    route: 'DELETE /api/v1/teams/:teamId/users/:uid',
    ownUid: true,
    target: teamWithMember,
    expect: { ...SELF, member: 403 },
  },
  {
    route: 'DELETE /api/v1/team-members/:teamId/users/:uid',
    ownUid: true,
    target: teamWithMember,
    // The member leaves; the owner (and an admin for them) cannot leave their own team.
    expect: { ...SELF, member: 200, owner: 409, admin: 409, acting: 409 },
  },
  { route: 'GET /api/v1/team-user-images/users/:uid', expect: SELF },
  {
    route: 'GET /api/v1/team-user-images/:teamId/users/:uid',
    ownUid: true,
    expect: { ...SELF, member: 200 },
  },
  { route: 'GET /api/v1/team-servers/users/:uid', expect: SELF },
  { route: 'GET /api/v1/team-invites/users/:uid', expect: SELF },
  // Joining or refusing a team is the invitee's own answer: no admin gives it for them.
  { route: 'POST /api/v1/team-invites/:uuid/users/:uid', target: inviteToOwner, expect: HOLDER },
  { route: 'DELETE /api/v1/team-invites/:uuid/users/:uid', target: inviteToOwner, expect: HOLDER },
];

/**
 * A stranger's team and an invitation to the stranger's address, for the derived "another
 * account's row" rows: named under the owner's `{uid}`, both are as missing as none.
 */
export const owned = {
  teams: async (t: TestApp, user: TestUser) =>
    (await t.app.services.teams.create(user.id, `Stranger's ${randomUUID().slice(0, 8)}`)).id,
  'team-invites': async (t: TestApp, user: TestUser) => {
    const inviter = await t.app.services.users.create({
      email: `inviter-${randomUUID()}@example.com`,
      user_name: 'Inviter',
      password_hash: 'x',
    });
    const team = await t.app.services.teams.create(inviter.id, 'Inviting the stranger');
    const [invite] = await t.app.services.teams.apply(team, { ...NO_CHANGE, invite: [user.email] });
    return invite!.id;
  },
};
