import { ADMIN, type Fixture, type Row, USER } from './support';

/** A fresh release, for the rows that read, change or remove one. */
let made = 0;
async function freshRelease(f: Fixture): Promise<number> {
  made += 1;
  const at = new Date().toISOString();
  const row = await f.t.app.db
    .insertInto('app_releases')
    .values({
      app: 'joomla',
      version: `9.${made}`,
      url: `https://example.org/joomla-9.${made}.zip`,
      sha256: 'b'.repeat(64),
      size: null,
      format: 'zip',
      is_default: 0,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const one = async (f: Fixture) => ({ id: await freshRelease(f) });
const body = (version: string) => ({
  app: 'wordpress',
  version,
  url: `https://wordpress.org/wordpress-${version}.tar.gz`,
  sha256: 'c'.repeat(64),
  format: 'tar.gz',
});

/** The release catalogue is the admins' alone (admin staff refused, like EasyPHP's). */
export const rows: Row[] = [
  { route: 'GET /api/v1/admin/app-releases', expect: ADMIN },
  {
    route: 'POST /api/v1/admin/app-releases',
    body: (_, role) => body(`1.0-${role}`),
    expect: { ...ADMIN, admin: 201 },
  },
  { route: 'GET /api/v1/admin/app-releases/:id', params: one, expect: ADMIN },
  {
    route: 'PUT /api/v1/admin/app-releases/:id',
    params: one,
    body: (_, role) => body(`2.0-${role}`),
    expect: ADMIN,
  },
  { route: 'DELETE /api/v1/admin/app-releases/:id', params: one, expect: ADMIN },
  // A release pinned by hand is not an official source: the admin's check is refused in words.
  {
    route: 'POST /api/v1/admin/app-releases/:id/check',
    params: one,
    expect: { ...ADMIN, admin: 409 },
  },
  {
    route: 'PATCH /api/v1/admin/app-releases/:id',
    params: one,
    body: () => ({ is_default: true }),
    expect: ADMIN,
  },
  { route: 'GET /api/v1/app-sources', expect: USER },
  { route: 'GET /api/v1/admin/app-releases-mirror', expect: ADMIN },
  {
    route: 'PUT /api/v1/admin/app-releases-mirror',
    body: () => ({ mirror: null }),
    expect: ADMIN,
  },
];
