import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../features/webapps/resource';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';
import { type TestPki, makePki } from './sslFixtures';

/**
 * A self-signed certificate made the usual way (`openssl req -x509 -newkey rsa:2048 -nodes`,
 * which marks it CA:TRUE) is taken for the app it names, and said to be self-signed in the
 * answer and the list; a CA's own certificate is still refused.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let pki: TestPki;
let dir: string;
const served: string[] = [];

function selfSigned(cn: string): { certificate: string; key: string } {
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`, '-days', '30'].concat([
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
    ]),
    { cwd: dir, stdio: 'ignore' },
  );
  return {
    certificate: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
  };
}

const base = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

async function app(name: string, domains: string[]): Promise<number> {
  const res = await call('POST', base('webstacks'), { name, domains, sys_user: 'alice' });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: number }).id;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-selfsigned-'));
  pki = await makePki();
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'webapp.apply': (spec: AppSpec) => ({ path: `/home/${spec.user}/apps/${spec.name}` }),
    'ssl.install': (a: { files: { fullchain: string } }) => {
      served.push(a.files.fullchain);
      const cert = new X509Certificate(a.files.fullchain);
      return {
        names: [cert.subject.replace(/^CN=/, '')],
        issuer: cert.issuer,
        not_before: new Date(cert.validFrom).toISOString(),
        not_after: new Date(cert.validTo).toISOString(),
      };
    },
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
  pki?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('self-signed certificates', () => {
  it('takes one for the app it names, and says it is self-signed', async () => {
    const id = await app('selfie', ['example.test']);
    const cert = selfSigned('example.test');
    expect(new X509Certificate(cert.certificate).ca).toBe(true);
    const res = await call('POST', base('sslcerts'), {
      webapp_id: id,
      certificate: cert.certificate,
      private_key: cert.key,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'custom', self_signed: true, status: 'active' });
    expect(served).toHaveLength(1);
    const list = await call('GET', `${base('sslcerts')}?webapp_id=${id}`);
    expect(list.json().data).toEqual([expect.objectContaining({ self_signed: true })]);
  });

  it("still refuses a CA's own certificate, and a CA-issued one is not self-signed", async () => {
    const id = await app('chained', ['chained.example.com']);
    const ca = await call('POST', base('sslcerts'), {
      webapp_id: id,
      certificate: pki.ca,
      private_key: pki.strayKey,
    });
    expect(ca.statusCode, ca.body).toBe(400);
    expect(ca.json().errors.certificate).toMatch(/CA certificate/);
    const leaf = await pki.leaf(['chained.example.com']);
    const res = await call('POST', base('sslcerts'), {
      webapp_id: id,
      certificate: leaf.certificate,
      private_key: leaf.key,
      chain: pki.intermediate,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().self_signed).toBe(false);
  });
});
