import type { Case } from '../validation.test';

/** Bad input on disabling or enabling an account (PATCH admin/users?uid, a state body). */
export const cases: Case[] = [
  {
    route: 'PATCH /api/v1/admin/users',
    as: 'admin',
    query: '?uid=1',
    body: {},
    errors: { state: 'Either enabled or disabled' },
  },
  {
    route: 'PATCH /api/v1/admin/users',
    as: 'admin',
    query: '?uid=1',
    body: { state: 'off' },
    errors: { state: 'Either enabled or disabled' },
  },
  {
    route: 'PATCH /api/v1/admin/users',
    as: 'admin',
    query: '?uid=someone',
    body: { state: 'enabled' },
    errors: { uid: /./ },
  },
];
