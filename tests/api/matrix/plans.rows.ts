import { ADMIN, type Fixture, type Row, SELF } from './support';

/** A fresh add-on package, for the rows that change or remove one. */
let made = 0;
async function freshAddon(f: Fixture): Promise<number> {
  made += 1;
  const at = new Date().toISOString();
  const row = await f.t.app.db
    .insertInto('bizplans')
    .values({
      name: `Matrix add-on ${made}`,
      kind: 'addon',
      description: '',
      monthly_price: 100,
      annual_price: 1000,
      currency: 'USD',
      active: 1,
      max_servers: 1,
      max_webapps: null,
      backup_storage_gb: null,
      max_team_members: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const one = async (f: Fixture) => ({ id: await freshAddon(f) });
const CREATED = { ...ADMIN, admin: 201 };

/**
 * Packages: the admins' alone (admin staff do not see Packages, spec s.6); a user reads the
 * offered plans on their own `{uid}`.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/admin/bizplans', query: () => '?kind=main', expect: ADMIN },
  {
    route: 'POST /api/v1/admin/bizplans',
    body: (_, role) => ({
      name: `Add-on by ${role}`,
      monthly_price: 100,
      annual_price: 1000,
      currency: 'USD',
    }),
    expect: CREATED,
  },
  { route: 'GET /api/v1/admin/bizplans/:id', params: one, expect: ADMIN },
  {
    route: 'PATCH /api/v1/admin/bizplans/:id',
    params: one,
    body: () => ({ monthly_price: 200 }),
    expect: ADMIN,
  },
  { route: 'DELETE /api/v1/admin/bizplans/:id', params: one, expect: ADMIN },
  { route: 'GET /api/v1/bizplans/users/:uid', expect: SELF },
  {
    route: 'GET /api/v1/bizplans/:planId/users/:uid',
    params: async () => ({ planId: 4 }),
    expect: SELF,
  },
];
