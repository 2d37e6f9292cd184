import type { RouteDef } from '../../src/routes/types';

/**
 * Git deployment (spec "Git"): /git loads the configuration and moves on to /git-configure
 * when there is one; a failed load means "not configured" (spec section 8).
 */
export const routes: RouteDef[] = [
  {
    path: '/git/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Git',
    page: () => import('./GitPage'),
  },
  {
    path: '/git-configure/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Git deployment',
    page: () => import('./GitConfigurePage'),
  },
];
