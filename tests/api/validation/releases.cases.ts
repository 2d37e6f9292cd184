import type { Case } from '../validation.test';

type Fixture = Parameters<NonNullable<Case['params']>>[0];

/** A release of the catalogue. */
const release = async ({ t }: Fixture) => {
  const at = new Date().toISOString();
  const row = await t.app.db
    .insertInto('app_releases')
    .values({
      app: 'moodle',
      version: `4.${Date.now() % 100000}`,
      url: 'https://download.moodle.org/moodle-4.3.tgz',
      sha256: 'd'.repeat(64),
      size: null,
      format: 'tgz',
      is_default: 0,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
};

/** Bad input on the release catalogue: apps, addresses, hashes, formats. */
export const cases: Case[] = [
  {
    // Making a source the default takes the flag set, nothing else.
    route: 'PATCH /api/v1/admin/app-releases/:id',
    as: 'admin',
    body: { is_default: false },
    errors: { is_default: /./ },
    params: release,
  },
  {
    route: 'GET /api/v1/admin/app-releases',
    as: 'admin',
    query: '?sort=url_secret',
    errors: { sort: /./ },
  },
  {
    route: 'POST /api/v1/admin/app-releases',
    as: 'admin',
    body: {
      app: 'drupal',
      version: '../1',
      url: 'ftp://example.org/x.tar.gz',
      sha256: 'xyz',
      size: -1,
      format: 'rar',
    },
    errors: {
      app: /One of/,
      version: /version/,
      url: /https/,
      sha256: /64 hexadecimal/,
      size: /./,
      format: /One of/,
    },
  },
  {
    route: 'PUT /api/v1/admin/app-releases/:id',
    as: 'admin',
    body: {
      app: 'moodle',
      version: '4.3',
      url: 'https://user:pw@example.org/moodle.tgz',
      sha256: 'd'.repeat(64),
      format: 'tgz',
    },
    errors: { url: /user name or password/ },
    params: release,
  },
  {
    route: 'PUT /api/v1/admin/app-releases-mirror',
    as: 'admin',
    body: { mirror: 'https://mirror.example.org/apps?token=1' },
    errors: { mirror: /query/ },
  },
  {
    route: 'PUT /api/v1/admin/app-releases-mirror',
    as: 'admin',
    body: { mirror: 'ftp://user:pw@mirror.example.org/' },
    errors: { mirror: /https/ },
  },
  {
    route: 'PUT /api/v1/admin/app-releases-mirror',
    as: 'admin',
    body: {},
    errors: { mirror: /./ },
  },
];
