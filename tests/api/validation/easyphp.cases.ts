import type { Case } from '../validation.test';

type Fixture = Parameters<NonNullable<Case['params']>>[0];

/** A PHP version read from the user's server (`{version}` is loaded before the query). */
const version = async ({ t, serverId }: Fixture) => {
  await t.app.db
    .insertInto('easyphp_versions')
    .values({
      server_id: serverId,
      version: '8.2',
      running: 1,
      source: 'debian',
      read_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return { version: '8.2' };
};

/** An extension of the seeded catalogue. */
const extension = async ({ t }: Fixture) => {
  const row = await t.app.db
    .selectFrom('php_extensions')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
};

/** Bad input on PHP extensions: the catalogue's names and packages, the switch's ids. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/admin/easyphp',
    as: 'admin',
    query: '?sort=package_secret',
    errors: { sort: /./ },
  },
  {
    route: 'POST /api/v1/admin/easyphp',
    as: 'admin',
    body: { name: 'Bad Name', label: '', package: 'php;rm', php_versions: ['eight'] },
    errors: {
      name: /ini name/,
      label: 'Give the name users read',
      package: /./,
      'php_versions.0': /./,
    },
  },
  {
    route: 'PUT /api/v1/admin/easyphp/:id',
    as: 'admin',
    body: { name: '1x', label: 'x' },
    errors: { name: /ini name/ },
    params: extension,
  },
  {
    route: 'PATCH /api/v1/admin/easyphp/:id',
    as: 'admin',
    body: { is_available: 'sometimes' },
    errors: { is_available: /./ },
    params: extension,
  },
  {
    route: 'PATCH /api/v1/easyphp/:version/servers/:sid/users/:uid',
    as: 'user',
    query: '?enable=abc&disable=-1',
    errors: { enable: /./, disable: /./ },
    params: version,
  },
];
