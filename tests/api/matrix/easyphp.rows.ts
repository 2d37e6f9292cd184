import type { TestApp } from '../helpers';
import { ADMIN, type Fixture, OFFLINE, type Row } from './support';

/** A PHP version the panel read from a server (what `{version}` names). */
async function knownVersion(t: TestApp, serverId: number, version: string): Promise<string> {
  await t.app.db
    .insertInto('easyphp_versions')
    .values({
      server_id: serverId,
      version,
      running: 1,
      source: 'debian',
      read_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['server_id', 'version']).doNothing())
    .execute();
  return version;
}

const extensionId = async (f: Fixture, name = 'calendar') =>
  (
    await f.t.app.db
      .selectFrom('php_extensions')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).id;

/** A fresh catalogue extension, for the rows that change or remove one. */
let made = 0;
async function freshExtension(f: Fixture): Promise<number> {
  made += 1;
  const at = new Date().toISOString();
  const row = await f.t.app.db
    .insertInto('php_extensions')
    .values({
      name: `matrix_${made}`,
      label: `Matrix ${made}`,
      description: '',
      package: null,
      php_versions: '',
      is_available: 1,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const version = async (f: Fixture) => ({ version: await knownVersion(f.t, f.serverId, '8.2') });
const one = async (f: Fixture) => ({ id: await freshExtension(f) });
const CREATED = { ...ADMIN, admin: 201 };

/**
 * EasyPHP: the server's side reads or changes the server itself, which is offline in the matrix
 * (409 for all who pass the guard and the tenant check); the catalogue is the admins' alone
 * (admin staff do not see EasyPHP). The foreign child is a version another tenant's server has.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/easyphp/servers/:sid/users/:uid', expect: OFFLINE },
  {
    route: 'GET /api/v1/easyphp/:version/servers/:sid/users/:uid',
    params: version,
    expect: OFFLINE,
  },
  {
    route: 'PATCH /api/v1/easyphp/:version/servers/:sid/users/:uid',
    params: version,
    query: async (f) => `?disable=${await extensionId(f)}`,
    expect: OFFLINE,
  },
  { route: 'GET /api/v1/admin/easyphp', expect: ADMIN },
  {
    route: 'POST /api/v1/admin/easyphp',
    body: (_, role) => ({ name: `by_${role}`, label: `By ${role}` }),
    expect: CREATED,
  },
  { route: 'GET /api/v1/admin/easyphp/:id', params: one, expect: ADMIN },
  {
    route: 'PUT /api/v1/admin/easyphp/:id',
    params: one,
    body: (_, role) => ({ name: `put_${role}`, label: `Put ${role}` }),
    expect: ADMIN,
  },
  {
    route: 'PATCH /api/v1/admin/easyphp/:id',
    params: one,
    body: () => ({ is_available: false }),
    expect: ADMIN,
  },
  { route: 'DELETE /api/v1/admin/easyphp/:id', params: one, expect: ADMIN },
];

/** On a stranger's server: a version the panel read there (the fixture's own is 8.2). */
export const children = {
  easyphp: (t: TestApp, serverId: number) => knownVersion(t, serverId, '7.4'),
};
