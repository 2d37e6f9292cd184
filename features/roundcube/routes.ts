import type { RouteDef } from '../../src/routes/types';

/**
 * Roundcube's installer page. The spec lists Roundcube among the installers but names no page
 * for it; /install-roundcube/{id} follows the others' pattern.
 */
export const routes: RouteDef[] = [
  {
    path: '/install-roundcube/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install Roundcube',
    page: () => import('./InstallRoundcubePage'),
  },
];
