/** The resources of referrals (spec 7 "Referral"); their schemas are in schemas.ts. */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';
import {
  WITHDRAWAL_STATUSES,
  referralSummarySchema,
  withdrawBody,
  withdrawalSchema,
} from './schemas';

/**
 * `GET referal/users/{uid}` and `PATCH withdraw-referal/users/{uid}` (spellings as in the spec).
 * The referred users list pages with `page`/`perPage`; the withdrawal history shows the latest 50.
 */
export const referrals = defineResource({
  name: 'referrals',
  label: 'Referrals',
  schema: referralSummarySchema,
  paths: {},
  ops: {},
  actions: {
    summary: {
      method: 'GET',
      path: 'referal/users/{uid}',
      guard: 'self',
      summary: 'Referral link, referred users (masked), balances and withdrawal requests',
      query: z.object({
        page: z.coerce.number().int().min(1).default(1),
        perPage: z.coerce.number().int().min(1).max(100).default(25),
      }),
      response: referralSummarySchema,
    },
    withdraw: {
      method: 'PATCH',
      path: 'withdraw-referal/users/{uid}',
      guard: 'self',
      // The payout address is chosen here: nobody but the account holder may send the money.
      forbidWhileActing: true,
      summary: 'Ask for a payout of part or all of the withdrawable balance; admins pay it later',
      body: withdrawBody,
      response: withdrawalSchema,
      status: 201,
    },
  },
});

/** The admins' side: every withdrawal request, marked paid (or rejected, which refunds it). */
export const referralWithdrawals = defineResource({
  name: 'referral-withdrawals',
  label: 'Referral withdrawals',
  schema: withdrawalSchema,
  input: z.object({ status: z.enum(['paid', 'rejected']) }),
  paths: { list: 'admin/referrals', one: 'admin/referrals/{id}' },
  ops: {
    list: {
      guard: 'admin',
      sort: ['created_at', 'amount_cents', 'status'],
      filters: z.object({ status: z.enum(WITHDRAWAL_STATUSES).optional() }),
    },
    update: {
      guard: 'admin',
      method: 'PATCH',
      summary: 'Mark a pending request paid, or reject it (its amount returns to the balance)',
      body: z.object({ status: z.enum(['paid', 'rejected']) }),
    },
  },
  ui: {
    listFields: ['created_at', 'email', 'amount_cents', 'method', 'details', 'status'],
    recordRepresentation: 'id',
  },
});

/** The resources of referrals (issue 4). */
export const resources = {
  referrals,
  'referral-withdrawals': referralWithdrawals,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
