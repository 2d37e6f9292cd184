import type { Case } from '../validation.test';

/** Bad input on billing: the plan and its terms, a coupon code, paging, the admins' actions. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/subscription/users/:uid',
    as: 'user',
    query: '?plan_id=x&type=weekly&pay_type=cash',
    errors: { plan_id: 'A plan id', type: 'monthly or annual', pay_type: 'manual, card or paypal' },
  },
  {
    route: 'GET /api/v1/subscription/paymentintent/users/:uid',
    as: 'user',
    query: '?pid=0',
    errors: { pid: 'A plan id' },
  },
  {
    route: 'GET /api/v1/billing-details/users/:uid',
    as: 'user',
    query: '?perPage=0&page=0',
    errors: { perPage: 'At least 1', page: 'At least 1' },
  },
  {
    route: 'PATCH /api/v1/apply-coupon/users/:uid',
    as: 'user',
    query: '?name=',
    errors: { name: 'The coupon code' },
  },
  {
    route: 'GET /api/v1/admin/invoices',
    as: 'admin',
    query: '?status=late',
    errors: { status: /./ },
  },
  {
    route: 'GET /api/v1/admin/user-subscription',
    as: 'admin',
    query: '?uid=x',
    errors: { uid: /./ },
  },
  {
    route: 'GET /api/v1/admin/user-revenue-details',
    as: 'admin',
    query: '',
    errors: { uid: /./ },
  },
  {
    route: 'PATCH /api/v1/admin/invoices/:id',
    as: 'admin',
    query: '?action=refund',
    body: {},
    errors: { action: 'mark-paid or void' },
  },
  {
    route: 'PATCH /api/v1/admin/invoices/:id',
    as: 'admin',
    query: '?action=mark-paid',
    body: { bank_reference: '' },
    errors: { bank_reference: /The bank reference/ },
  },
  {
    route: 'POST /api/v1/admin/invoices/:id/credit-note',
    as: 'admin',
    body: { amount_minor: 1.5, reason: 'x' },
    errors: { amount_minor: /Whole minor units/, reason: /Say why/ },
  },
];
