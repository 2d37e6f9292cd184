import type { RouteDef } from '../../src/routes/types';

/**
 * Billing's pages (spec s.2). The spec's /payment{id} is /payment/{id}: the router matches
 * whole path segments only. /subscription is the shell's profile menu entry.
 */
export const routes: readonly RouteDef[] = [
  {
    path: '/pricing',
    layout: 'profile',
    access: 'user',
    title: 'Pricing',
    page: () => import('./PricingPage'),
  },
  {
    path: '/subscription',
    layout: 'profile',
    access: 'user',
    title: 'Subscription',
    page: () => import('./SubscriptionPage'),
  },
  {
    path: '/subscribe-to-higher-plan',
    layout: 'profile',
    access: 'user',
    title: 'Upgrade',
    page: () => import('./UpgradePage'),
  },
  {
    path: '/payment-invoice/:id',
    layout: 'profile',
    access: 'user',
    title: 'Invoice',
    page: () => import('./InvoicePage'),
  },
  {
    path: '/payment/:id',
    layout: 'profile',
    access: 'user',
    title: 'Payment',
    page: () => import('./PaymentPage'),
  },
  // Reached from the dashboard's revenue card: spec s.6 fixes the admin menu.
  {
    path: '/admin/invoices',
    layout: 'admin',
    access: 'admin',
    title: 'Invoices',
    page: () => import('./AdminInvoicesPage'),
  },
];
