import type { RouteDef } from '../../src/routes/types';

/** The pages of third-party keys (issue 4). */
export const routes: readonly RouteDef[] = [
  {
    path: '/3rd-party-integration',
    layout: 'profile',
    access: 'user',
    title: '3rd-party integrations',
    page: () => import('./IntegrationsPage'),
  },
  {
    path: '/3rd-party-api-key',
    layout: 'profile',
    access: 'user',
    title: '3rd-party API key',
    page: () => import('./ApiKeyPage'),
  },
];
