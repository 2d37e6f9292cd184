import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * Fastify answers HEAD for every GET route by running the GET's handler. The spec's GET calls
 * that change something (make a deployment key, mail a code) must not run on HEAD: their HEAD
 * answers 405 and changes nothing, while the GET keeps its method and its effect.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let sysuserId = 0;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'sysusers.check': () => ({ available: true, reason: null }),
    'sysusers.create': (a: { user_name: string }) => ({
      user_name: a.user_name,
      uid: 1001,
      home: `/home/${a.user_name}`,
      shell: '/bin/bash',
      quota_hard: null,
      quota_soft: null,
    }),
    'sysusers.deployKey': (a: { create: boolean }) => ({
      public_key: a.create ? 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKey made' : null,
    }),
  });
  const made = await live.t.call(
    'POST',
    `/api/v1/sysusers/servers/${agent.server.id}/users/${owner.id}`,
    { token: owner.token, body: { user_name: 'alice', password: 'a long system password' } },
  );
  expect(made.statusCode, made.body).toBe(201);
  sysuserId = made.json().id as number;
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

const keyUrl = () =>
  `/api/v1/sysusers/${sysuserId}/servers/${agent.server.id}/users/${owner.id}?rsa=create`;
const keyCalls = () => agent.calls.filter((c) => c.name === 'sysusers.deployKey').length;
const mailsTo = async (to: string) =>
  (await live.t.app.db.selectFrom('outbox').select('id').where('to_addr', '=', to).execute())
    .length;

describe('HEAD never runs a GET call that changes state', () => {
  it('HEAD sysusers/{id}?rsa=create makes no key; the GET still does', async () => {
    const head = await live.t.call('HEAD', keyUrl(), { token: owner.token });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('GET');
    expect(keyCalls()).toBe(0);

    const get = await live.t.call('GET', keyUrl(), { token: owner.token });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().public_key).toMatch(/^ssh-ed25519 /);
    expect(keyCalls()).toBe(1);
  });

  it('an anonymous HEAD users?em= mails no reset code; the GET still does', async () => {
    const url = `/api/v1/users?em=${encodeURIComponent(owner.email)}`;
    const before = await mailsTo(owner.email);
    const head = await live.t.call('HEAD', url);
    expect(head.statusCode).toBe(405);
    expect(await mailsTo(owner.email)).toBe(before);

    const get = await live.t.call('GET', url);
    expect(get.statusCode, get.body).toBe(200);
    expect(await mailsTo(owner.email)).toBe(before + 1);
  });

  it('HEAD users/{uid}/otp mails no one-time code', async () => {
    const before = await mailsTo(owner.email);
    const head = await live.t.call('HEAD', `/api/v1/users/${owner.id}/otp`, {
      token: owner.token,
    });
    expect(head.statusCode).toBe(405);
    expect(await mailsTo(owner.email)).toBe(before);
  });

  it('a HEAD of a GET that only reads still answers like the GET', async () => {
    const head = await live.t.call('HEAD', `/api/v1/users/${owner.id}`, { token: owner.token });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
