import type { Case } from '../validation.test';

const anything = /./;

/** Bad input on the admin area's servers and accounts: every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/admin/servers',
    as: 'admin',
    query: '?status=lost&sort=agent_key_hash&user_id=abc&perPage=1000',
    errors: { status: anything, sort: anything, user_id: anything, perPage: anything },
  },
  {
    route: 'GET /api/v1/admin/user-images',
    as: 'admin',
    query: '?ids=1;2',
    errors: { ids: 'User ids separated by commas, like 3,14,15' },
  },
  {
    route: 'GET /api/v1/admin/user-images',
    as: 'admin',
    query: `?ids=${Array.from({ length: 26 }, (_, i) => i + 1).join(',')}`,
    errors: { ids: 'At most 25 users at once' },
  },
  {
    route: 'GET /api/v1/admin/credit-history',
    as: 'admin',
    query: '?uid=0&perPage=101',
    errors: { uid: anything, perPage: anything },
  },
  {
    route: 'PATCH /api/v1/admin/update-user',
    as: 'admin',
    body: {},
    errors: { id: 'Name the user' },
  },
  {
    route: 'PATCH /api/v1/admin/update-user',
    as: 'admin',
    body: {
      id: 1,
      email: 'not an address',
      user_name: '',
      Country: 'Portugal',
      is_admin_staff: 'yes',
      password: 'a brand new password',
      two_factor: false,
      otp_code: '123456',
    },
    errors: {
      email: 'Enter a valid email address',
      user_name: anything,
      Country: 'Pick a country',
      is_admin_staff: 'Yes or no',
      password: 'An admin never sets a password: send the user a reset mail',
      two_factor: 'Only the account holder turns two-factor sign-in on or off',
      otp_code: 'Only the account holder turns two-factor sign-in on or off',
    },
  },
];
