import type { RouteDef } from '../../src/routes/types';

/** The pages of alerts: the history and the settings, in the profile layout. */
export const routes: readonly RouteDef[] = [
  {
    path: '/alerts',
    layout: 'profile',
    access: 'user',
    title: 'Alerts',
    page: () => import('./AlertHistoryPage'),
  },
  {
    path: '/alert-settings',
    layout: 'profile',
    access: 'user',
    title: 'Alert settings',
    page: () => import('./AlertSettingsPage'),
  },
];
