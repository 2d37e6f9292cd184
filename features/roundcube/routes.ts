import type { RouteDef } from '../../src/routes/types';

/**
 * Roundcube's installer page (the spec lists Roundcube among the installers but names no page
 * for it; /install-roundcube/{id} follows the others' pattern), and a Roundcube app's page
 * (spec /roundcube/{id}, secondary layout): its mailboxes opened signed in.
 */
export const routes: RouteDef[] = [
  {
    path: '/install-roundcube/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install Roundcube',
    page: () => import('./InstallRoundcubePage'),
  },
  {
    path: '/roundcube/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Roundcube',
    page: () => import('./RoundcubePage'),
  },
];
