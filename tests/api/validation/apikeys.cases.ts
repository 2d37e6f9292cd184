import type { Case } from '../validation.test';

/** Bad input on the calls that ask for the password again (API key, account deletion). */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/auth/gen/users/:uid',
    as: 'user',
    body: {},
    errors: { password: 'Required' },
  },
  {
    route: 'POST /api/v1/auth/gen/users/:uid',
    as: 'user',
    body: { password: '', otp: '12', label: 'l'.repeat(101) },
    errors: {
      password: 'Enter your password',
      otp: 'Enter the 6-digit code',
      label: 'At most 100 characters',
    },
  },
  {
    route: 'DELETE /api/v1/users/:uid',
    as: 'user',
    body: { otp: 'abcdef' },
    errors: { password: 'Required', otp: 'Enter the 6-digit code' },
  },
];
