import type { RouteDef } from '../../src/routes/types';

/** Moodle's installer page (spec /install-moodle/{id}). */
export const routes: RouteDef[] = [
  {
    path: '/install-moodle/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Install Moodle',
    page: () => import('./InstallMoodlePage'),
  },
];
