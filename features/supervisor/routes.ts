import type { RouteDef } from '../../src/routes/types';

/** The supervisor pages (spec "Supervisor"): the server's jobs, and add one (server layout). */
export const routes: RouteDef[] = [
  {
    path: '/supervisor-jobs/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Supervisor jobs',
    page: () => import('./SupervisorJobsPage'),
  },
  {
    path: '/create-supervisor-job/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Add a supervisor job',
    page: () => import('./CreateSupervisorJobPage'),
  },
];
