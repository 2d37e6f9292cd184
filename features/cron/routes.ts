import type { RouteDef } from '../../src/routes/types';

/**
 * The cron pages (spec "Cron jobs"): the server's jobs, add and edit one (server layout, the
 * server id in the path; the job of /edit-cron-job/{id} is `?job=`), and the main sidebar's
 * entry, which leads to the jobs of each server.
 */
export const routes: RouteDef[] = [
  {
    path: '/cron-jobs/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Cron jobs',
    page: () => import('./CronJobsPage'),
  },
  {
    path: '/create-cron-job/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Add a cron job',
    page: () => import('./CreateCronJobPage'),
  },
  {
    path: '/edit-cron-job/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Edit cron job',
    page: () => import('./EditCronJobPage'),
  },
  {
    path: '/cron-job',
    layout: 'main',
    access: 'user',
    title: 'Cron jobs',
    page: () => import('./CronServersPage'),
  },
];
