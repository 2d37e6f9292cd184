import { type Fixture, ADMIN, type Row } from './support';

/**
 * A Vultr credential straight in the database, the one there is (one a provider): the rows that
 * replace or remove one. Its sealed part is made by the panel's own box.
 */
async function vultrCredential(f: Fixture, fresh: boolean): Promise<number> {
  const db = f.t.app.db;
  const existing = await db
    .selectFrom('api_credentials')
    .select('id')
    .where('provider', '=', 'vultr')
    .executeTakeFirst();
  if (existing && !fresh) return existing.id;
  if (existing) await db.deleteFrom('api_credentials').where('id', '=', existing.id).execute();
  const at = new Date().toISOString();
  const row = await db
    .insertInto('api_credentials')
    .values({
      provider: 'vultr',
      name: 'Matrix',
      public_fields: '{}',
      secret_sealed: f.t.app.services.box.seal(JSON.stringify({ apiKey: 'MATRIXKEY' })),
      key_last4: 'XKEY',
      created_by: 'matrix',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Panel settings and API credentials: admins only (admin staff do not have them, spec s.6). */
export const rows: Row[] = [
  { route: 'GET /api/v1/admin/module-settings', expect: ADMIN },
  {
    route: 'PATCH /api/v1/admin/module-settings',
    body: () => ({ grace_days: 12 }),
    expect: ADMIN,
  },
  {
    route: 'GET /api/v1/admin/api-credentials',
    query: () => '?sort=name&order=ASC',
    expect: ADMIN,
  },
  {
    route: 'POST /api/v1/admin/api-credentials',
    // Vultr, not a payment rail: Stripe keys would set up card payments for the rows after.
    body: (_, role) => ({ provider: 'vultr', name: `By ${role}`, apiKey: 'MATRIXAPIKEY0001' }),
    expect: { ...ADMIN, admin: 201 },
  },
  {
    route: 'PUT /api/v1/admin/api-credentials/:id',
    params: async (f) => ({ id: await vultrCredential(f, false) }),
    body: (_, role) => ({ provider: 'vultr', name: `By ${role}`, apiKey: 'MATRIXKEY2' }),
    expect: ADMIN,
  },
  {
    route: 'DELETE /api/v1/admin/api-credentials/:id',
    params: async (f) => ({ id: await vultrCredential(f, true) }),
    expect: ADMIN,
  },
];
