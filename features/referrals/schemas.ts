/**
 * Referrals' API schemas (spec 7 "Referral"): a user's link, who registered through it,
 * earnings, payouts. The resource declarations that use them are in resource.ts.
 */
import { z } from 'zod';

/** The smallest payout, in cents. */
export const MIN_WITHDRAWAL_CENTS = 1000;
export const PAYOUT_METHODS = ['paypal', 'bank'] as const;
/**
 * A request's life (spec s.7 `admin/withdraw-requests`): `pending` (requested) -> `approved` ->
 * `paid`, or `rejected` from pending or approved, which returns its amount to the balance.
 */
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'paid', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
/** What an admin may make of a request: the statuses it can move to. */
export const SETTLED_STATUSES = ['approved', 'paid', 'rejected'] as const;
export type SettledStatus = (typeof SETTLED_STATUSES)[number];
/** The statuses each change starts from: anything else is too late (409). */
export const TRANSITIONS: Record<SettledStatus, readonly WithdrawalStatus[]> = {
  approved: ['pending'],
  paid: ['approved'],
  rejected: ['pending', 'approved'],
};
/** `PATCH admin/withdraw-requests?action=`: the spec's verbs, and the status each makes. */
export const WITHDRAW_ACTIONS = { approve: 'approved', reject: 'rejected', paid: 'paid' } as const;
export type WithdrawAction = keyof typeof WITHDRAW_ACTIONS;

/** `12.34` -> 1234; amounts are whole cents. */
export const toCents = (amount: number): number => Math.round(amount * 100);

export const withdrawBody = z.object({
  /** In dollars, with at most two decimals. */
  amount: z.coerce
    .number({ message: 'Enter an amount' })
    .positive('Enter an amount above zero')
    .max(1_000_000, 'That is more than any balance')
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
      message: 'Whole cents only (at most two decimals)',
    })
    .refine((v) => toCents(v) >= MIN_WITHDRAWAL_CENTS, {
      message: `The smallest withdrawal is $${(MIN_WITHDRAWAL_CENTS / 100).toFixed(2)}`,
    }),
  method: z.enum(PAYOUT_METHODS, { message: 'Choose PayPal or bank transfer' }),
  /** The PayPal address or the bank account (IBAN / account number, holder's name). */
  details: z
    .string()
    .trim()
    .min(5, 'Tell us where to send the money')
    .max(500, 'At most 500 characters'),
});
export type WithdrawRequest = z.input<typeof withdrawBody>;

export const withdrawalSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** The requester's address (for the admins' list). */
  email: z.string(),
  amount_cents: z.number().int(),
  method: z.enum(PAYOUT_METHODS),
  details: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  created_at: z.string(),
  processed_at: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

export const referredUserSchema = z.object({
  /** Masked: enough to recognise, not to harvest. */
  email: z.string(),
  joined_at: z.string(),
  earned_cents: z.number().int(),
});

export const referralSummarySchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  /** `{publicUrl}/register/{uuid}` */
  link: z.string(),
  earned_cents: z.number().int(),
  /** Requested and not rejected: pending, approved and paid. */
  withdrawn_cents: z.number().int(),
  /** Requested and not paid yet: pending and approved. */
  pending_cents: z.number().int(),
  paid_cents: z.number().int(),
  withdrawable_cents: z.number().int(),
  min_withdrawal_cents: z.number().int(),
  referred: z.object({ data: z.array(referredUserSchema), total: z.number().int() }),
  withdrawals: z.object({ data: z.array(withdrawalSchema), total: z.number().int() }),
});
export type ReferralSummary = z.infer<typeof referralSummarySchema>;
