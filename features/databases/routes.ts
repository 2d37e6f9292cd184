import type { RouteDef } from '../../src/routes/types';

/**
 * The database pages (spec "Databases"): the server's databases and users, the forms that add
 * and change them (/mysql a database, /database-user a user; `?db=` / `?user=` to change
 * one), and the main sidebar's /database-list, every database of the user's servers.
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
    title: 'Database',
    page: () => import('./CreateDatabasePage'),
  },
  {
    path: '/database-user/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Database user',
    page: () => import('./CreateDbUserPage'),
  },
  {
    path: '/database-list',
    layout: 'main',
    access: 'user',
    title: 'Databases',
    page: () => import('./AllDatabasesPage'),
  },
];
