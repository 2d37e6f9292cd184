import type { RouteDef } from '../../src/routes/types';

/** An app's databases and database users (spec "App databases"), in the web-app layout. */
export const routes: RouteDef[] = [
  {
    path: '/app-database-list/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'App databases',
    page: () => import('./AppDatabasesPage'),
  },
  {
    path: '/app-database-users/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'App database users',
    page: () => import('./AppDbUsersPage'),
  },
];
