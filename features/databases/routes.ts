import type { RouteDef } from '../../src/routes/types';

/**
 * The database pages (spec "Databases"): the server's databases and users, and the forms that
 * add them (/mysql a database, the older /mysqlold a user). The main sidebar's /database-list
 * is the platform's server chooser until a page of its own lists every server's databases.
 */
export const routes: RouteDef[] = [
  {
    path: '/database-list/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Databases',
    page: () => import('./DatabasesPage'),
  },
  {
    path: '/database-users/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Database users',
    page: () => import('./DbUsersPage'),
  },
  {
    path: '/mysql/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Add a database',
    page: () => import('./CreateDatabasePage'),
  },
  {
    path: '/mysqlold/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Add a database user',
    page: () => import('./CreateDbUserPage'),
  },
];
