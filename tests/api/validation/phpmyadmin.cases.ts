import type { Case } from '../validation.test';

/** The phpMyAdmin sign-in names a database user by its id: anything else is refused by name. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/phpmyadmin-login/servers/:sid/users/:uid',
    as: 'user',
    errors: { dbuser: /database user/ },
  },
  {
    route: 'GET /api/v1/phpmyadmin-login/servers/:sid/users/:uid',
    as: 'user',
    query: '?dbuser=shop_app',
    errors: { dbuser: /database user/ },
  },
  {
    route: 'GET /api/v1/phpmyadmin-login/servers/:sid/users/:uid',
    as: 'user',
    query: '?dbuser=-3',
    errors: { dbuser: /database user/ },
  },
  // The sign-in's temporary accounts are dropped by name: no database user may take one.
  {
    route: 'POST /api/v1/dbusers/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'sdsso_tp325e_0123456789ab', password: 'a long database password' },
    errors: { name: /sdsso_ are the panel’s own/ },
  },
];
