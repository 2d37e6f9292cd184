import type { RouteDef } from '../../src/routes/types';

/** Joomla's installer page (spec /install-joomla/{id}). */
export const routes: RouteDef[] = [
  {
    path: '/install-joomla/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install Joomla',
    page: () => import('./InstallJoomlaPage'),
  },
];
