/** The resources of referrals (spec 7 "Referral"); their schemas are in schemas.ts. */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';
import {
  SETTLED_STATUSES,
  WITHDRAWAL_STATUSES,
  WITHDRAW_ACTIONS,
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

const withdrawalList = {
  guard: 'admin',
  sort: ['created_at', 'amount_cents', 'status'],
  filters: z.object({ status: z.enum(WITHDRAWAL_STATUSES).optional() }),
} as const;

/**
 * The admins' side: every withdrawal request, approved, then marked paid (or rejected, which
 * refunds it). `admin/referrals` is the page's REST pair; `admin/withdraw-requests` (below) the
 * spec's name for the same requests, through the same handler code.
 */
export const referralWithdrawals = defineResource({
  name: 'referral-withdrawals',
  label: 'Referral withdrawals',
  schema: withdrawalSchema,
  input: z.object({ status: z.enum(SETTLED_STATUSES) }),
  paths: { list: 'admin/referrals', one: 'admin/referrals/{id}' },
  ops: {
    list: withdrawalList,
    update: {
      guard: 'admin',
      method: 'PATCH',
      summary:
        'Approve a pending request, mark an approved one paid, or reject either (its amount returns to the balance); 409 when it is past that',
      body: z.object({ status: z.enum(SETTLED_STATUSES) }),
    },
  },
  ui: {
    listFields: ['created_at', 'email', 'amount_cents', 'method', 'details', 'status'],
    recordRepresentation: 'id',
  },
});

/**
 * Spec s.7 Admin "admin/withdraw-requests: GET, PATCH": both on the collection's path, as the
 * spec lists no by-id form for it (it does for bizplans), so the PATCH names its request and
 * the change in the query, like the spec's other admin PATCHes (`admin/backup-credit?uid&type`):
 * `PATCH admin/withdraw-requests?id=&action=approve|reject|paid`.
 */
export const withdrawRequests = defineResource({
  name: 'withdraw-requests',
  label: 'Withdraw requests',
  missing: 'No such withdrawal request',
  schema: withdrawalSchema,
  paths: { list: 'admin/withdraw-requests' },
  ops: { list: { ...withdrawalList, summary: 'Referral withdrawal requests, newest first' } },
  actions: {
    change: {
      method: 'PATCH',
      path: 'admin/withdraw-requests',
      guard: 'admin',
      summary:
        'Approve a pending request, mark an approved one paid, or reject either (its amount returns to the balance); of two at once one wins, the other is 409',
      query: z.object({
        id: z.coerce.number().int().positive(),
        action: z.enum(Object.keys(WITHDRAW_ACTIONS) as [keyof typeof WITHDRAW_ACTIONS]),
      }),
      response: withdrawalSchema,
    },
  },
});

/** The resources of referrals (issue 4). */
export const resources = {
  referrals,
  'referral-withdrawals': referralWithdrawals,
  'withdraw-requests': withdrawRequests,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
