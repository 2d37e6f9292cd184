/**
 * What coupons offers other features, of the code every program loads: the discount arithmetic
 * and the declarations. Redeeming (the database) is in serverApi.ts.
 */
export { discountFor } from './discount';
export type { DiscountTerms } from './discount';
export { COUPON_DURATIONS, COUPON_KINDS, codeKey, couponSchema } from './resource';
export type { Coupon } from './resource';
export { couponPaths } from './links';
