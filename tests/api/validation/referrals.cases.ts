import type { Case } from '../validation.test';

const anything = /./;

/** Bad input on the referral routes: every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/referal/users/:uid',
    as: 'user',
    query: '?page=0&perPage=1000',
    errors: { page: anything, perPage: anything },
  },
  {
    route: 'PATCH /api/v1/withdraw-referal/users/:uid',
    as: 'user',
    body: {},
    errors: {
      amount: 'Enter an amount',
      method: 'Choose PayPal or bank transfer',
      details: anything,
    },
  },
  {
    route: 'PATCH /api/v1/withdraw-referal/users/:uid',
    as: 'user',
    body: { amount: 10.001, method: 'paypal', details: 'me' },
    errors: {
      amount: 'Whole cents only (at most two decimals)',
      details: 'Tell us where to send the money',
    },
  },
  {
    route: 'GET /api/v1/admin/referrals',
    as: 'admin',
    query: '?status=lost&sort=details',
    errors: { status: anything, sort: anything },
  },
  {
    route: 'PATCH /api/v1/admin/referrals/:id',
    as: 'admin',
    body: { status: 'pending' },
    errors: { status: anything },
  },
  {
    route: 'GET /api/v1/admin/withdraw-requests',
    as: 'admin',
    query: '?status=requested&sort=details&perPage=0',
    errors: { status: anything, sort: anything, perPage: anything },
  },
  {
    route: 'PATCH /api/v1/admin/withdraw-requests',
    as: 'admin',
    query: '?id=0&action=pay',
    errors: { id: anything, action: anything },
  },
  {
    route: 'PATCH /api/v1/admin/withdraw-requests',
    as: 'admin',
    query: '',
    errors: { id: anything, action: anything },
  },
];
