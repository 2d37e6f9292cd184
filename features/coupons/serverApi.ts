/**
 * What coupons offers other features, of the code the panel loads (billing redeems a coupon when
 * it applies one to a subscription): they import it from here, never from its other files.
 */
export { redeemCoupon } from './serverRedeem';
export type { RedeemInput, RedeemRefusal, Redemption } from './serverRedeem';
export { couponRecord } from './serverRecord';
