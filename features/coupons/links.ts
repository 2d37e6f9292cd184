/** The coupons pages' paths (spec section 2). */
export const couponPaths = {
  admin: '/admin/coupons',
  add: '/admin/add-coupon',
};
