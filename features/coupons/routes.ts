import type { RouteDef } from '../../src/routes/types';

/** The coupons pages (spec s.2 admin routes); admin staff do not see Coupons (s.6). */
export const routes: RouteDef[] = [
  {
    path: '/admin/coupons',
    layout: 'admin',
    access: 'admin',
    title: 'Coupons',
    page: () => import('./AdminCouponsPage'),
  },
  {
    path: '/admin/add-coupon',
    layout: 'admin',
    access: 'admin',
    title: 'Add a coupon',
    page: () => import('./AdminAddCouponPage'),
  },
];
