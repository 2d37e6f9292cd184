import type { RouteDef } from '../../src/routes/types';

/**
 * The payment methods page (spec s.2 `/recharge-payment-method{id}`, the id the user's). The
 * route table's patterns take an id only as a segment of its own, so it is
 * `/recharge-payment-method/{id}`; without an id, the signed-in user's.
 */
export const routes: readonly RouteDef[] = [
  {
    path: '/recharge-payment-method/:id',
    layout: 'profile',
    access: 'user',
    title: 'Payment methods',
    page: () => import('./RechargePaymentMethodPage'),
  },
  {
    path: '/recharge-payment-method',
    layout: 'profile',
    access: 'user',
    title: 'Payment methods',
    page: () => import('./RechargePaymentMethodPage'),
  },
];
