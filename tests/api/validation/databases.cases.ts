import { ManagedStore } from '../../../server/managed/store';
import type { Case } from '../validation.test';

const database = async ({ t, serverId }: Parameters<NonNullable<Case['params']>>[0]) => {
  const row = await new ManagedStore(t.app.db, 'databases').insert(serverId, {
    name: `v${Math.random().toString(36).slice(2, 10)}`,
    collation: 'utf8mb4_unicode_ci',
  });
  return row.id;
};

/** Bad input on databases and their users: names, collations, passwords, grants, queries. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/databases/servers/:sid/users/:uid',
    as: 'user',
    query: '?sync=maybe',
    errors: { sync: /./ },
  },
  {
    route: 'POST /api/v1/databases/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'my-db', collation: "utf8'; DROP" },
    errors: { name: /Letters, digits and _/, collation: /collation/ },
  },
  {
    route: 'POST /api/v1/databases/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'mysql' },
    errors: { name: /MariaDB/ },
  },
  {
    route: 'PUT /api/v1/databases/:dbId/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'a`b' },
    errors: { name: /Letters, digits and _/ },
    params: async (f) => ({ dbId: await database(f) }),
  },
  {
    route: 'PATCH /api/v1/databases/:dbId/servers/:sid/users/:uid',
    as: 'user',
    query: '?userdel=abc',
    errors: { userdel: /./ },
    params: async (f) => ({ dbId: await database(f) }),
  },
  {
    route: 'GET /api/v1/dbusers/servers/:sid/users/:uid',
    as: 'user',
    query: '?sync=maybe',
    errors: { sync: /./ },
  },
  {
    route: 'POST /api/v1/dbusers/servers/:sid/users/:uid',
    as: 'user',
    body: { name: "x'@'%", password: 'short', databases: ['one'] },
    errors: {
      name: /Letters, digits and _/,
      password: 'At least 12 characters',
      'databases.0': /./,
    },
  },
  {
    route: 'PUT /api/v1/dbusers/:dbUserId/servers/:sid/users/:uid',
    as: 'user',
    body: { name: 'root', password: 'line\nbreak and long' },
    errors: { name: /MariaDB/, password: 'One line' },
    params: async ({ t, serverId }) => {
      const row = await new ManagedStore(t.app.db, 'dbusers').insert(serverId, {
        name: `u${Math.random().toString(36).slice(2, 10)}`,
      });
      return { dbUserId: row.id };
    },
  },
  {
    route: 'GET /api/v1/databases/collations',
    as: 'user',
    query: '?server=none',
    errors: { server: /./ },
  },
];
