import type { TestApp } from '../helpers';
import type { Case } from '../validation.test';

const anything = /./;

/** A team of the user's: the request hook loads `{teamId}` through `{uid}` before the body. */
const team = async ({ t, uid }: { t: TestApp; uid: number }) => ({
  teamId: (await t.app.services.teams.create(uid, 'Validation team')).id,
});

/** Bad input on the teams routes: every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/teams/users/:uid',
    as: 'user',
    query: '?sort=owner_id',
    errors: { sort: anything },
  },
  { route: 'POST /api/v1/teams/users/:uid', as: 'user', body: {}, errors: { name: 'Required' } },
  {
    route: 'POST /api/v1/teams/users/:uid',
    as: 'user',
    body: { name: ' x ' },
    errors: { name: 'At least 2 characters' },
  },
  {
    route: 'PATCH /api/v1/teams/:teamId/users/:uid',
    as: 'user',
    params: team,
    body: {
      name: 'a'.repeat(101),
      invite: ['not-an-address'],
      share: ['web'],
      cancel_invites: [7],
    },
    errors: {
      name: 'At most 100 characters',
      'invite.0': 'Enter a valid email address',
      'share.0': anything,
      'cancel_invites.0': anything,
    },
  },
  {
    route: 'GET /api/v1/team-user-images/users/:uid',
    as: 'user',
    query: '?perPage=1000',
    errors: { perPage: anything },
  },
  {
    route: 'GET /api/v1/team-user-images/:teamId/users/:uid',
    as: 'user',
    params: team,
    query: '?page=0',
    errors: { page: anything },
  },
  {
    route: 'GET /api/v1/team-invites/users/:uid',
    as: 'user',
    query: '?sort=email',
    errors: { sort: anything },
  },
  {
    route: 'GET /api/v1/team-servers/users/:uid',
    as: 'user',
    query: '?order=UP',
    errors: { order: anything },
  },
];
