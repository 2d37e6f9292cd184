/**
 * Coupons (spec s.3, s.7 Admin `coupon` and Billing `coupon/{couponId}`): a code that takes a
 * percentage or a fixed amount off, once, for some periods or forever, on some plans or all,
 * until an expiry and up to a number of redemptions, each user once.
 */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';
import { currency, minorUnits } from '../plans/api';

export const COUPON_KINDS = ['percent', 'fixed'] as const;
export const COUPON_DURATIONS = ['once', 'recurring', 'forever'] as const;
export const COUPON_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/;

/** Codes are unique and matched ignoring case: `save10` redeems `SAVE10`. */
export const codeKey = (code: string) => code.trim().toLowerCase();

const fields = {
  code: z
    .string()
    .trim()
    .regex(COUPON_CODE, 'Letters, digits, - and _ (3-40), starting with a letter or digit'),
  kind: z.enum(COUPON_KINDS, 'percent or fixed'),
  percent_off: z
    .number('A whole percentage from 1 to 100')
    .int('A whole percentage from 1 to 100')
    .min(1, 'At least 1 %')
    .max(100, 'At most 100 %')
    .nullable()
    .default(null),
  amount_off: minorUnits.min(1, 'At least 1').nullable().default(null),
  currency: currency.nullable().default(null),
  duration: z.enum(COUPON_DURATIONS, 'once, recurring or forever').default('once'),
  duration_periods: z
    .number('A number of billing periods')
    .int('A whole number of billing periods')
    .min(1, 'At least 1 period')
    .max(36, 'At most 36 periods')
    .nullable()
    .default(null),
  plan_ids: z
    .array(z.number().int().positive('A package id'))
    .max(50, 'At most 50 packages')
    .default([]),
  expires_at: z
    .string()
    .trim()
    .refine(
      (v) =>
        /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !isNaN(Date.parse(v)),
      'A date (2027-01-31) or a time (2027-01-31T12:00:00Z)',
    )
    .transform((v) => new Date(v).toISOString())
    .nullable()
    .default(null),
  max_redemptions: z
    .number('A number of redemptions, or empty for no limit')
    .int('A whole number of redemptions')
    .min(1, 'At least 1')
    .max(1_000_000, 'At most 1,000,000')
    .nullable()
    .default(null),
  active: z.boolean().default(true),
};

/**
 * What a new coupon says. Its cross-field rules are `termsProblems` below, which the panel
 * checks after this schema: the generic form picks its fields from it, which a refined object
 * refuses.
 */
export const couponInput = z.object(fields);
export type CouponInput = z.output<typeof couponInput>;

/** Each kind's own amount, the duration's periods: the problems by field, none when it holds. */
export function termsProblems(c: CouponInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (c.kind === 'percent') {
    if (c.percent_off === null) problems.percent_off = 'A percentage coupon needs its percentage';
    if (c.amount_off !== null) problems.amount_off = 'Only a fixed coupon takes an amount off';
  } else {
    if (c.amount_off === null) problems.amount_off = 'A fixed coupon needs the amount it takes off';
    if (c.currency === null) problems.currency = 'A fixed coupon needs the currency of its amount';
    if (c.percent_off !== null)
      problems.percent_off = 'Only a percentage coupon takes a percentage';
  }
  if (c.duration === 'recurring' && c.duration_periods === null)
    problems.duration_periods = 'A recurring coupon needs its number of periods';
  if (c.duration !== 'recurring' && c.duration_periods !== null)
    problems.duration_periods = 'Only a recurring coupon lasts a number of periods';
  return problems;
}

export const couponSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  percent_off: z.number().int().nullable(),
  amount_off: z.number().int().nullable(),
  currency: z.string().nullable(),
  duration: z.enum(COUPON_DURATIONS),
  duration_periods: z.number().int().nullable(),
  /** The packages it applies to; empty: every package. */
  plan_ids: z.array(z.number().int()),
  expires_at: z.string().nullable(),
  max_redemptions: z.number().int().nullable(),
  redeemed: z.number().int(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** The admins' coupons (admin staff do not see Coupons). */
export const coupons = defineResource({
  name: 'coupons',
  scope: 'panel',
  label: 'Coupons',
  missing: 'No such coupon',
  schema: couponSchema,
  input: couponInput,
  paths: { list: 'coupon', one: 'coupon/{id}' },
  ops: {
    list: {
      guard: 'admin',
      sort: ['created_at', 'code', 'expires_at', 'redeemed'],
      summary: 'The coupons',
    },
    create: { guard: 'admin', summary: 'Add a coupon' },
    delete: {
      guard: 'admin',
      summary:
        'Remove a coupon; one already redeemed is retired instead (no longer redeemable or listed, its redemptions kept)',
    },
  },
  example: {
    code: 'SPRING25',
    kind: 'percent',
    percent_off: 25,
    duration: 'once',
    plan_ids: [],
    max_redemptions: 100,
    active: true,
  },
  ui: {
    listFields: [
      'code',
      'kind',
      'percent_off',
      'amount_off',
      'duration',
      'expires_at',
      'redeemed',
      'active',
    ],
    formFields: [
      'code',
      'kind',
      'percent_off',
      'amount_off',
      'currency',
      'duration',
      'duration_periods',
      'plan_ids',
      'expires_at',
      'max_redemptions',
      'active',
    ],
    widgets: {
      plan_ids: { kind: 'reference', resource: 'bizplans', optionText: 'name', multiple: true },
    },
    labels: {
      percent_off: 'Percentage off',
      amount_off: 'Amount off (minor units)',
      duration_periods: 'Billing periods',
      plan_ids: 'Packages',
      expires_at: 'Expires',
      max_redemptions: 'Redemptions at most',
      active: 'Redeemable',
    },
    help: {
      code: 'What users type; case does not matter',
      amount_off: 'A fixed coupon: in cents (minor units), 5.00 is 500',
      duration: 'once: the first invoice; recurring: some periods; forever: every invoice',
      duration_periods: 'A recurring coupon: how many billing periods',
      plan_ids: 'None: every package',
      expires_at: 'Empty: never. A date means 00:00 UTC that day (2027-02-01 ends January)',
      max_redemptions: 'Empty: no limit; each user redeems a coupon once',
    },
    recordRepresentation: 'code',
  },
});

/** What a user sees of a coupon they redeemed: its terms, not its counts. */
export const userCouponSchema = couponSchema
  .pick({
    id: true,
    code: true,
    kind: true,
    percent_off: true,
    amount_off: true,
    currency: true,
    duration: true,
    duration_periods: true,
    plan_ids: true,
    expires_at: true,
  })
  .extend({ redeemed_at: z.string().nullable() });

/** A user's read (spec s.7 Billing `coupon/{couponId}`: "once applied, its details load"). */
export const couponsForUsers = defineResource({
  name: 'user-coupons',
  label: 'Coupon',
  missing: 'No such coupon',
  schema: userCouponSchema,
  paths: {},
  ops: {},
  actions: {
    one: {
      method: 'GET',
      path: 'coupon/{couponId}/users/{uid}',
      guard: 'self',
      summary: 'A coupon the user redeemed (admins: any coupon on their own id)',
      response: userCouponSchema,
    },
  },
});

export const resources = {
  coupons,
  'user-coupons': couponsForUsers,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: coupons live in the panel. */
export const ops = {};
