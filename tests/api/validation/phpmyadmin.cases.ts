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
];
