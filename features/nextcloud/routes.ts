import type { RouteDef } from '../../src/routes/types';

/** Nextcloud's installer page (spec /install-nextcloud/{id}). */
export const routes: RouteDef[] = [
  {
    path: '/install-nextcloud/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install Nextcloud',
    page: () => import('./InstallNextcloudPage'),
  },
];
