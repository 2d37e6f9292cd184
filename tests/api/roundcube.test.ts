import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';
import { addRelease, appStepOps, ok } from './installerAgent';

/**
 * The Roundcube installer's logic with a fake agent: its steps, its app served from
 * public_html, a generated DES key, no admin login (users sign in with their mail), and the
 * single sign-on key the app's plugin gets, kept sealed in the panel.
 * tests/system/roundcube.test.ts installs it for real.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(
    live,
    owner,
    {
      ...appStepOps(),
      'roundcube.install': ok({ version: '1.6.5' }),
    },
    'rc-1',
  );
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addRelease(live.t.app.db, 'roundcube', {
    version: '1.6.5',
    format: 'tar.gz',
    sha256: 'b'.repeat(64),
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('POST roundcube/servers/{sid}/users/{uid}', () => {
  it('makes the app on public_html with its database, and no admin login', async () => {
    const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
    const res = await live.t.call('POST', at('roundcube'), {
      token: owner.token,
      body: { name: 'webmail', domains: ['mail.example.com'], sys_user: 'alice' },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ login: null });
    let status = 'running';
    for (let i = 0; i < 200 && status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const task = await live.t.call(
        'GET',
        `/api/v1/clone-events/users/${owner.id}?id=${res.json().task_id}`,
        { token: owner.token },
      );
      status = task.json().data[0].status;
    }
    expect(status).toBe('completed');
    const apply = agent.calls.find((c) => c.name === 'webapp.apply')!.args;
    expect(apply).toMatchObject({ webapp_type: 'roundcube', web_root: 'public_html' });
    const install = agent.calls.find((c) => c.name === 'roundcube.install')!.args;
    expect(install).toMatchObject({
      db_name: 'rc_webmail',
      imap_host: 'localhost:143',
      smtp_host: 'tls://localhost:587',
      product_name: 'Webmail',
    });
    expect((install as { des_key: string }).des_key).toMatch(/^[A-Za-z0-9]{24}$/);
    const { app_id, sso_key } = install as { app_id: number; sso_key: string };
    expect(app_id).toBe(res.json().webapp_id);
    expect(sso_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const kept = await live.t.app.db
      .selectFrom('roundcube_sso')
      .select('sso_key')
      .where('webapp_id', '=', app_id)
      .executeTakeFirstOrThrow();
    expect(live.t.app.services.box.open(kept.sso_key)).toBe(sso_key);
  });
});
