import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../features/webapps/resource';
import type { Clone } from '../../resources/clone-events';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { type Leaf, type TestPki, makePki } from './sslFixtures';
import { addSysuser } from './serverRows';

/**
 * SSL certificates through the API with a fake agent: the panel's checks of an upload (key,
 * dates, names, chain) refuse at the field before anything is written; the key reaches the
 * agent once and never comes back in any answer; Let's Encrypt, renew, force HTTPS, delete.
 * tests/system/ssl.test.ts serves real HTTPS through nginx in a sandbox server.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let pki: TestPki;
let good: Leaf;
const apps = new Map<string, AppSpec>();
/** Every answer's body, to look for the key in. */
const bodies: string[] = [];

type Files = { fullchain: string; privkey: string } | null;
const installs: { app: AppSpec; files: Files }[] = [];
const issues: { app: AppSpec; force: boolean; email: string | null }[] = [];
const removals: { app: AppSpec; name: string }[] = [];

function infoOf(pem: string) {
  const cert = new X509Certificate(pem);
  return {
    names: (cert.subjectAltName ?? '').split(', ').map((n) => n.replace(/^DNS:/, '')),
    issuer: cert.issuer,
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
  };
}

const leInfo = {
  names: ['le.example.com'],
  issuer: 'CN=Pebble Intermediate',
  not_before: '2026-01-01T00:00:00.000Z',
  not_after: '2031-01-01T00:00:00.000Z',
};

function fakeOps() {
  return {
    'webapp.apply': (spec: AppSpec) => {
      apps.set(spec.name, spec);
      return { path: `/home/${spec.user}/apps/${spec.name}` };
    },
    'webapp.remove': (a: { name: string }) => ({ removed: apps.delete(a.name) }),
    'ssl.install': (a: { app: AppSpec; files: Files }) => {
      installs.push(a);
      apps.set(a.app.name, a.app);
      const served = a.files?.fullchain ?? good.certificate;
      return infoOf(served);
    },
    'ssl.letsencrypt': (a: { app: AppSpec; force: boolean; email: string | null }) => {
      issues.push(a);
      apps.set(a.app.name, a.app);
      return leInfo;
    },
    'ssl.remove': (a: { app: AppSpec; name: string }) => {
      removals.push(a);
      apps.set(a.app.name, a.app);
      return { removed: true };
    },
  };
}

const base = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const one = (p: string, id: number) =>
  `/api/v1/${p}/${id}/servers/${agent.server.id}/users/${owner.id}`;
async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const res = await live.t.call(method, url, { token: owner.token, body });
  bodies.push(res.body);
  return res;
}

const addAppUser = (user: string) => addSysuser(live.t.app.db, agent.server.id, user);

/** The owner's messages panel list (clone-events), newest first: the certificate tasks. */
async function certificateTasks() {
  const res = await call('GET', `/api/v1/clone-events/users/${owner.id}?_sort=id&_order=DESC`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Clone[]).filter((t) => t.kind === 'certificate');
}

async function app(name: string, domains: string[]): Promise<number> {
  const res = await call('POST', base('webstacks'), { name, domains, sys_user: 'alice' });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: number }).id;
}

const keyBody = (pem: string) =>
  pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .join('');

let shop: number;

beforeAll(async () => {
  pki = await makePki();
  good = await pki.leaf(['shop.example.com', 'www.shop.example.com']);
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeOps());
  await addAppUser('alice');
  shop = await app('shop', ['shop.example.com', 'www.shop.example.com']);
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
  pki?.close();
});

describe('uploaded certificates', () => {
  it('refuses what does not hold, at the field, and writes nothing', async () => {
    const expired = await pki.leaf(['shop.example.com'], { days: -1 });
    const other = await pki.leaf(['other.example.com']);
    const rsa = await pki.leaf(['shop.example.com'], { key: 'rsa' });
    const upload = (over: Record<string, unknown>) =>
      call('POST', base('sslcerts'), {
        webapp_id: shop,
        certificate: good.certificate,
        private_key: good.key,
        chain: pki.intermediate,
        ...over,
      });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ private_key: pki.strayKey }, 'private_key', /does not belong/],
      [{ private_key: rsa.key }, 'private_key', /does not belong/],
      [{ private_key: 'not a key' }, 'private_key', /Not a readable private key/],
      [{ certificate: expired.certificate, private_key: expired.key }, 'certificate', /expired/],
      [
        { certificate: other.certificate, private_key: other.key },
        'certificate',
        /does not name shop\.example\.com, www\.shop\.example\.com \(it names other\.example\.com\)/,
      ],
      [{ certificate: 'hello' }, 'certificate', /No PEM block/],
      [
        { certificate: good.certificate.replace(/\n[A-Za-z0-9+/]{64}\n/, '\n') },
        'certificate',
        /Block 1 is not a readable certificate/,
      ],
      [{ certificate: pki.strayKey }, 'certificate', /PRIVATE KEY, not a CERTIFICATE/],
      [{ chain: pki.ca }, 'chain', /did not issue/],
      [{ chain: 'garbage' }, 'chain', /No PEM block/],
      [{ webapp_id: 9999 }, 'webapp_id', /No web app #9999/],
    ];
    for (const [over, field, message] of cases) {
      const res = await upload(over);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      const errors = res.json().errors as Record<string, string>;
      expect(Object.keys(errors), res.body).toEqual([field]);
      expect(errors[field]).toMatch(message);
    }
    expect(installs).toEqual([]);
    const rows = await live.t.app.db.selectFrom('sslcerts').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('installs a matching certificate: the key reaches the server once, sealed meanwhile', async () => {
    const res = await call('POST', base('sslcerts'), {
      webapp_id: shop,
      certificate: good.certificate,
      private_key: good.key,
      chain: pki.intermediate,
    });
    expect(res.statusCode, res.body).toBe(201);
    const cert = res.json();
    expect(cert).toMatchObject({
      webapp_id: shop,
      type: 'custom',
      names: ['shop.example.com', 'www.shop.example.com'],
      issuer: 'CN=Stackdeck Test Intermediate',
      force_https: false,
      status: 'active',
      error: null,
    });
    expect(Object.keys(cert)).not.toContain('private_key');
    expect(Object.keys(cert)).not.toContain('certificate');
    expect(new Date(cert.not_after).getTime()).toBeGreaterThan(Date.now());
    // The server got the full chain (leaf, then intermediate) and the key, with HTTPS on.
    expect(installs).toHaveLength(1);
    const sent = installs[0]!;
    expect(sent.app).toMatchObject({ name: 'shop', tls: { force_https: false } });
    expect(sent.files!.fullchain.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(sent.files!.privkey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    // Once the server has it, the panel keeps no key at all.
    const row = await live.t.app.db
      .selectFrom('sslcerts')
      .selectAll()
      .where('id', '=', cert.id)
      .executeTakeFirstOrThrow();
    expect(row.private_key).toBeNull();
    // Rebuilding the app keeps its HTTPS server.
    const rebuilt = await call(
      'PATCH',
      `/api/v1/webstacks/rebuild/${shop}/servers/${agent.server.id}/users/${owner.id}`,
    );
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    expect(apps.get('shop')!.tls).toEqual({ force_https: false });
    // One certificate per app.
    const twice = await call('POST', base('sslcerts'), {
      webapp_id: shop,
      certificate: good.certificate,
      private_key: good.key,
    });
    expect(twice.json().errors.webapp_id).toMatch(/has a certificate already/);
  });

  it('lists it for the server, the app and the hostname, and turns force HTTPS on', async () => {
    const list = (await call('GET', base('sslcerts'))).json();
    expect(list).toMatchObject({ total: 1, data: [{ webapp_id: shop }] });
    const ofApp = (
      await call(
        'GET',
        `/api/v1/sslcerts/webstacks/${shop}/servers/${agent.server.id}/users/${owner.id}`,
      )
    ).json();
    expect(ofApp).toMatchObject({ total: 1, data: [{ webapp_id: shop }] });
    const id = list.data[0].id as number;
    const host = await call('GET', `${base('sslcerts/hostname')}?hostname=www.shop.example.com`);
    expect(host.statusCode, host.body).toBe(200);
    expect(host.json()).toMatchObject({ hostname: 'www.shop.example.com', total: 1 });
    const none = await call('GET', `${base('sslcerts/hostname')}?hostname=mail.example.net`);
    expect(none.json()).toMatchObject({ total: 0, data: [] });

    const forced = await call('PATCH', one('sslcerts', id), { force_https: true });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json()).toMatchObject({ force_https: true, status: 'active' });
    const last = installs.at(-1)!;
    // No new files: those on the server stay.
    expect(last).toMatchObject({ app: { tls: { force_https: true } }, files: null });
  });

  it('replaces an uploaded certificate, checked as the first one was', async () => {
    const id = (await call('GET', base('sslcerts'))).json().data[0].id as number;
    const wrong = await call('PATCH', one('sslcerts', id), {
      certificate: good.certificate,
      private_key: pki.strayKey,
    });
    expect(wrong.json().errors).toHaveProperty('private_key');
    const half = await call('PATCH', one('sslcerts', id), { certificate: good.certificate });
    expect(half.json().errors).toHaveProperty('private_key');
    const next = await pki.leaf(['shop.example.com']);
    const res = await call('PATCH', one('sslcerts', id), {
      certificate: next.certificate,
      private_key: next.key,
      chain: pki.intermediate,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ names: ['shop.example.com'], force_https: true });
    expect(installs.at(-1)!.files!.privkey).toMatch(/PRIVATE KEY/);
  });

  it('waits for an offline server with the key sealed, then installs it', async () => {
    const blog = await app('blog', ['blog.example.com']);
    const leaf = await pki.leaf(['blog.example.com']);
    await agent.disconnect();
    const res = await call('POST', base('sslcerts'), {
      webapp_id: blog,
      certificate: `${leaf.certificate}${pki.intermediate}`,
      private_key: leaf.key,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().status).toBe('pending');
    const id = res.json().id as number;
    const row = await live.t.app.db
      .selectFrom('sslcerts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.private_key).toMatch(/^v1:/);
    expect(row.private_key).not.toContain(keyBody(leaf.key).slice(0, 20));
    await agent.reconnect();
    const end = Date.now() + 5000;
    let status = 'pending';
    while (status !== 'active' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call('GET', one('sslcerts', id))).json().status as string;
    }
    expect(status).toBe('active');
    const after = await live.t.app.db
      .selectFrom('sslcerts')
      .select('private_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.private_key).toBeNull();
    expect(installs.at(-1)!.app.name).toBe('blog');
  });
  it("compares the rows with the server's files (?sync=true)", async () => {
    const rows = (await call('GET', base('sslcerts'))).json().data as {
      id: number;
      webapp_id: number;
      not_after: string;
    }[];
    const mine = rows.find((r) => r.webapp_id === shop)!;
    const served = [{ app: 'shop', ...leInfo, not_after: mine.not_after }];
    agent.ops['ssl.list'] = () => served;
    const drift = async () =>
      Object.fromEntries(
        (
          (await call('GET', `${base('sslcerts')}?sync=true`)).json().data as {
            id: number;
            drift: string | null;
          }[]
        ).map((r) => [r.id, r.drift]),
      );
    const first = await drift();
    expect(first[mine.id]).toBeNull();
    // The other app's certificate is not on the server.
    expect(Object.values(first)).toContain('missing');
    served[0]!.not_after = '2030-01-01T00:00:00.000Z';
    expect((await drift())[mine.id]).toBe('changed');
  });
});

describe("Let's Encrypt", () => {
  it('issues, renews and deletes, the server told each time', async () => {
    const le = await app('le', ['le.example.com']);
    const res = await call('POST', base('letsencrypt'), {
      webapp_id: le,
      email: 'ops@example.com',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'letsencrypt',
      names: ['le.example.com'],
      issuer: 'CN=Pebble Intermediate',
      not_after: '2031-01-01T00:00:00.000Z',
      email: 'ops@example.com',
      status: 'active',
    });
    expect(issues.at(-1)).toMatchObject({
      app: { name: 'le', tls: { force_https: false } },
      force: false,
      email: 'ops@example.com',
    });
    // The messages panel follows the issue as a task of its own, named after the app.
    expect((await certificateTasks())[0]).toMatchObject({
      name: 'le',
      status: 'completed',
      events: [{ event: "Asking Let's Encrypt for le.example.com" }],
    });
    const id = res.json().id as number;
    const renewed = await call('PATCH', one('letsencrypt', id));
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(issues.at(-1)).toMatchObject({ force: true });
    expect((await certificateTasks())[0]).toMatchObject({
      name: 'le',
      status: 'completed',
      events: [{ event: "Asking Let's Encrypt to renew le.example.com" }],
    });
    // certbot renewed it on the server (its cron line): the read-back takes the later
    // certificate of the same names in, instead of calling it a change.
    const list = agent.ops['ssl.list']!;
    const renewedThere = { ...leInfo, not_after: '2031-03-01T00:00:00.000Z' };
    agent.ops['ssl.list'] = () => [{ app: 'le', ...renewedThere }];
    const synced = (await call('GET', `${base('sslcerts')}?sync=true&webapp_id=${le}`)).json();
    expect(synced.data).toEqual([expect.objectContaining({ id, drift: null })]);
    expect((await call('GET', one('sslcerts', id))).json()).toMatchObject({
      not_after: '2031-03-01T00:00:00.000Z',
    });
    // Other names on the server are a change, not a renewal.
    agent.ops['ssl.list'] = () => [
      {
        app: 'le',
        ...renewedThere,
        names: ['other.example.com'],
        not_after: '2031-06-01T00:00:00.000Z',
      },
    ];
    const other = (await call('GET', `${base('sslcerts')}?sync=true&webapp_id=${le}`)).json();
    expect(other.data).toEqual([expect.objectContaining({ id, drift: 'changed' })]);
    agent.ops['ssl.list'] = list;
    // A renewal the CA refuses leaves the old certificate serving: the app keeps HTTPS.
    const issue = agent.ops['ssl.letsencrypt']!;
    agent.ops['ssl.letsencrypt'] = async () => {
      const { opFieldError } = await import('../../agent/lib/opError');
      throw opFieldError('domains', 'The certificate authority refused: rate limited');
    };
    const refused = await call('PATCH', one('letsencrypt', id));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.domains).toMatch(/rate limited/);
    agent.ops['ssl.letsencrypt'] = issue;
    const rebuilt = await call(
      'PATCH',
      `/api/v1/webstacks/rebuild/${le}/servers/${agent.server.id}/users/${owner.id}`,
    );
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    expect(apps.get('le')!.tls).toEqual({ force_https: false });
    // A Let's Encrypt certificate is renewed, never replaced by an upload.
    const replace = await call('PATCH', one('sslcerts', id), {
      certificate: good.certificate,
      private_key: good.key,
    });
    expect(replace.json().errors).toHaveProperty('certificate');

    const gone = await call('DELETE', one('sslcerts', id));
    expect(gone.statusCode, gone.body).toBe(200);
    expect(removals.at(-1)).toMatchObject({ name: 'le', app: { tls: null } });
    expect((await call('GET', one('sslcerts', id))).statusCode).toBe(404);
  });

  it("says the CA's refusal at its field and keeps no row", async () => {
    const bad = await app('nope', ['nope.example.com']);
    agent.ops['ssl.letsencrypt'] = async () => {
      const { opFieldError } = await import('../../agent/lib/opError');
      throw opFieldError('domains', 'The certificate authority refused: DNS problem');
    };
    const res = await call('POST', base('letsencrypt'), { webapp_id: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.domains).toMatch(/DNS problem/);
    // The failed task says why, in the same words as the form.
    const [task] = await certificateTasks();
    expect(task).toMatchObject({ name: 'nope', status: 'failed' });
    expect(task!.events.at(-1)!.event).toMatch(/DNS problem/);
    expect((await call('GET', `${base('sslcerts')}?webapp_id=${bad}`)).json().total).toBe(0);
  });

  it('names an API key as who asked, in the activity line the issue writes', async () => {
    const minted = await live.t.call('POST', `/api/v1/auth/gen/users/${owner.id}`, {
      token: owner.token,
      body: { password: owner.password, label: 'cert-bot' },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const { api_key, api_secret } = minted.json() as { api_key: string; api_secret: string };
    agent.ops['ssl.letsencrypt'] = fakeOps()['ssl.letsencrypt']; // the CA says yes again
    const keyed = await app('keyed', ['keyed.example.com']);
    const res = await live.t.call('POST', base('letsencrypt'), {
      headers: { 'x-api-key': api_key, 'x-api-secret': api_secret },
      body: { webapp_id: keyed },
    });
    expect(res.statusCode, res.body).toBe(201);
    const line = await live.t.app.db
      .selectFrom('server_activity')
      .select(['message', 'who'])
      .where('server_id', '=', agent.server.id)
      .where('message', '=', "Issue a Let's Encrypt certificate for web app keyed")
      .executeTakeFirstOrThrow();
    expect(line.who).toBe('API key "cert-bot"');
  });

  it('removes the certificate rows with their app', async () => {
    const id = (await call('GET', `${base('sslcerts')}?webapp_id=${shop}`)).json().data[0]
      .id as number;
    const del = await call('DELETE', one('webstacks', shop));
    expect(del.statusCode, del.body).toBe(200);
    expect((await call('GET', one('sslcerts', id))).statusCode).toBe(404);
  });
});

describe('secrecy', () => {
  it('never answers the private key, in any response', () => {
    for (const pem of [good.key, pki.strayKey]) {
      const body = keyBody(pem).slice(0, 24);
      for (const text of bodies) expect(text).not.toContain(body);
    }
    for (const text of bodies) expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
  });
});
