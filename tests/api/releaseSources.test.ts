import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeReleaseSources, startFakeReleaseSources } from '../fakes/releaseSources';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * The catalogue's sources on a fresh panel (issue 22): one default per app, Debian's package
 * for WordPress, phpMyAdmin and Roundcube, the official source of the others; "Check for new
 * releases" against a local fake of the projects' hosts pins the newest version and its hash;
 * a check that cannot reach them says why and keeps the pin.
 */
let t: TestApp;
let fake: FakeReleaseSources;
let admin: TestUser;
let owner: TestUser;

interface Release {
  id: number;
  app: string;
  source: string;
  version: string;
  url: string;
  sha256: string;
  size: number | null;
  format: string;
  is_default: boolean;
  checked_at: string | null;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ARCHIVES = {
  wordpress: { version: '6.8.3', bytes: randomBytes(3000) },
  nextcloud: { version: '31.0.9', bytes: randomBytes(2000) },
  phpmyadmin: { version: '5.2.2', bytes: randomBytes(1000) },
  moodle: { version: '5.0.2', bytes: randomBytes(1500) },
  joomla: { version: '5.3.4', bytes: randomBytes(1200) },
  roundcube: { version: '1.6.11', bytes: randomBytes(1100) },
};

beforeAll(async () => {
  fake = await startFakeReleaseSources(ARCHIVES);
  t = await buildTestApp({ releaseSourcesUrl: fake.url });
  admin = await t.user({ admin: true });
  owner = await t.user();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const list = async () =>
  (await t.call('GET', '/api/v1/admin/app-releases?perPage=100', { token: admin.token })).json()
    .data as Release[];
const official = async (app: string) =>
  (await list()).find((r) => r.app === app && r.source === 'official')!;
const check = (id: number) =>
  t.call('POST', `/api/v1/admin/app-releases/${id}/check`, { token: admin.token });
const sources = async (user: TestUser) =>
  (await t.call('GET', '/api/v1/app-sources', { token: user.token })).json().data as {
    app: string;
    usable: boolean;
    source: string | null;
    reason: string | null;
  }[];

describe('a fresh panel', () => {
  it('lists a default source for each app: Debian’s where Debian has the app, else the official one', async () => {
    const defaults = (await list()).filter((r) => r.is_default);
    expect(Object.fromEntries(defaults.map((r) => [r.app, r.source]))).toEqual({
      wordpress: 'debian',
      phpmyadmin: 'debian',
      roundcube: 'debian',
      nextcloud: 'official',
      joomla: 'official',
      moodle: 'official',
    });
    // Every app with a release has its official source too, unpinned until a check.
    for (const app of Object.keys(ARCHIVES)) {
      const o = await official(app);
      expect(o).toMatchObject({ version: '', sha256: '', checked_at: null });
    }
  });

  it('tells a user which apps can be installed, and why not', async () => {
    const status = Object.fromEntries((await sources(owner)).map((s) => [s.app, s]));
    expect(Object.keys(status).sort()).toEqual([
      'joomla',
      'moodle',
      'nextcloud',
      'nodejs',
      'phpmyadmin',
      'roundcube',
      'wordpress',
    ]);
    for (const app of ['wordpress', 'phpmyadmin', 'roundcube'])
      expect(status[app]).toMatchObject({ usable: true, source: 'debian', reason: null });
    expect(status.nodejs).toMatchObject({ usable: true });
    for (const app of ['nextcloud', 'joomla', 'moodle']) {
      expect(status[app]!.usable).toBe(false);
      expect(status[app]!.reason).toMatch(/is pinned yet: an admin checks for new releases/);
    }
    expect(JSON.stringify(status)).not.toMatch(/https?:/);
  });

  it('refuses to edit or remove the sources it knows itself', async () => {
    const o = await official('nextcloud');
    const del = await t.call('DELETE', `/api/v1/admin/app-releases/${o.id}`, {
      token: admin.token,
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/stays in the catalogue/);
  });
});

describe('Check for new releases', () => {
  it('pins the newest version and the published checksum of every official source', async () => {
    for (const [app, archive] of Object.entries(ARCHIVES)) {
      const o = await official(app);
      const res = await check(o.id);
      expect(res.statusCode, `${app}: ${res.body}`).toBe(200);
      const pinned = res.json() as Release;
      expect(pinned).toMatchObject({ app, source: 'official', version: archive.version });
      // WordPress publishes SHA-1 only: the panel downloaded it once and pinned its SHA-256.
      expect(pinned.sha256, app).toBe(sha256(archive.bytes));
      expect(pinned.url.startsWith(`${fake.url}/`)).toBe(true);
      expect(pinned.checked_at).toMatch(/^\d{4}-/);
    }
    expect(fake.calls).toContain('/wordpress.org/wordpress-6.8.3.tar.gz.sha1');
    expect(fake.calls).toContain(
      '/download.nextcloud.com/server/releases/nextcloud-31.0.9.tar.bz2.sha256',
    );
    // Nextcloud is installable now, from its official source.
    const status = (await sources(owner)).find((s) => s.app === 'nextcloud')!;
    expect(status).toMatchObject({ usable: true, source: 'official', reason: null });
  });

  it('refuses a download whose SHA-1 is not the published one, and keeps the pin', async () => {
    const before = await official('wordpress');
    fake.archives.wordpress = { version: '6.8.4', bytes: randomBytes(3000) };
    fake.tampered.add('wordpress');
    const res = await check(before.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/SHA-1 is [0-9a-f]{40}, not the published [0-9a-f]{40}/);
    expect(await official('wordpress')).toEqual(before);
    fake.tampered.clear();
    const again = await check(before.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      version: '6.8.4',
      sha256: sha256(fake.archives.wordpress.bytes),
    });
  });

  it('without network says why in words (never a 5xx) and keeps the previous pin', async () => {
    const before = await official('phpmyadmin');
    await fake.close();
    const res = await check(before.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^phpMyAdmin: no new release could be checked\. www\.phpmyadmin\.net could not be reached \([A-Z_]+\)\. The previous pin stays\.$/,
    );
    const after = await official('phpmyadmin');
    expect(after).toEqual(before);
  });

  it('is the admins’ alone', async () => {
    const o = await official('moodle');
    expect(
      (await t.call('POST', `/api/v1/admin/app-releases/${o.id}/check`, { token: owner.token }))
        .statusCode,
    ).toBe(403);
  });

  it('makes another source the app’s default', async () => {
    const o = await official('wordpress');
    const res = await t.call('PATCH', `/api/v1/admin/app-releases/${o.id}`, {
      token: admin.token,
      body: { is_default: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const wp = (await list()).filter((r) => r.app === 'wordpress');
    expect(wp.filter((r) => r.is_default).map((r) => r.source)).toEqual(['official']);
  });
});
